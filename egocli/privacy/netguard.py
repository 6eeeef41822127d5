"""A guard that refuses (and records) every network connection beyond loopback, in this process.

Used by the tests that prove ingest, ask and chess never leave the machine; usable by anyone who
wants the same certainty for a run (`with NetworkGuard(): ...`)."""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", ""})


class NetworkBlocked(OSError):
    """A connection to a non-loopback address was attempted under a NetworkGuard."""


def is_local(host: Any) -> bool:
    """True for loopback addresses and names, unix-socket paths, and unspecified hosts."""
    if host is None or isinstance(host, bytes | bytearray):
        return host is None or host.decode(errors="replace") in LOCAL_NAMES
    text = str(host).split("%")[0]
    if text in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False


class NetworkGuard:
    """Context manager: non-loopback connect / connect_ex / sendto / getaddrinfo raise NetworkBlocked.

    Every attempt (allowed or not) is recorded in `attempts` as (call, address)."""

    def __init__(self) -> None:
        self.attempts: list[tuple[str, str]] = []
        self.blocked: list[tuple[str, str]] = []
        self._saved: dict[str, Any] = {}

    def _check(self, call: str, family: int, address: Any) -> None:
        if family == getattr(socket, "AF_UNIX", -1):
            return
        host = address[0] if isinstance(address, tuple) and address else address
        self.attempts.append((call, str(address)))
        if not is_local(host):
            self.blocked.append((call, str(address)))
            raise NetworkBlocked(f"network access to {address!r} blocked ({call})")

    def __enter__(self) -> NetworkGuard:
        guard = self
        real = {name: getattr(socket.socket, name) for name in ("connect", "connect_ex", "sendto")}
        real_gai = socket.getaddrinfo
        self._saved = {**real, "getaddrinfo": real_gai}

        def wrap(name: str) -> Any:
            def method(sock: socket.socket, *args: Any) -> Any:
                guard._check(name, sock.family, args[-1] if name == "sendto" else args[0])
                return real[name](sock, *args)
            return method

        def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
            guard._check("getaddrinfo", socket.AF_INET, (host,))
            return real_gai(host, *args, **kwargs)

        for name in real:
            setattr(socket.socket, name, wrap(name))
        socket.getaddrinfo = getaddrinfo
        return self

    def __exit__(self, *exc: object) -> None:
        for name, fn in self._saved.items():
            if name == "getaddrinfo":
                socket.getaddrinfo = fn
            else:
                setattr(socket.socket, name, fn)
