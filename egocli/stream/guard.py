"""Who may talk to `egocli serve`: aiohttp middleware against other web pages and greedy peers.

- Host: only the server's own names and IP literals (and hosts named by --allow-origin), so a
  DNS-rebinding page (its own name resolving to 127.0.0.1) is refused before any handler runs.
- Origin: a browser request that says where it comes from must come from this server's own
  origin or an --allow-origin one; a page elsewhere cannot open /ws or POST /offer.
- POST bodies must be declared application/json: a cross-site form or `text/plain` fetch
  (which skips the CORS preflight) is refused.
- Responses carry a Content-Security-Policy, nosniff, no-referrer and no library versions. The
  page may open WebSockets to its own server and to the Janus gateways named by --janus only.
- One remote address (other than loopback, where every client shares 127.0.0.1) holds at most
  half of the session slots."""

from __future__ import annotations

import ipaddress
import socket
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import hdrs, web

SERVER_NAME = "egocli"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "media-src 'self' blob:; connect-src 'self'{connect}; object-src 'none'; base-uri 'none'; "
       "form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP.format(connect=""),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}
LIMITED_PATHS = ("/ws", "/offer")
"""Paths that open a session: these count against the per-address cap."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class Policy:
    """What the guard lets through."""

    hosts: frozenset[str]
    """Host names (lower case, no port) besides IP literals: localhost, this machine's names, --host."""
    origins: frozenset[str]
    """Extra origins (scheme://host[:port], lower case) from --allow-origin."""
    per_address: int
    """Sessions one non-loopback address may hold at once."""
    janus: tuple[str, ...] = ()
    """Janus WebSocket origins (ws[s]://host[:port]) the pages may connect to (--janus)."""


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def normal_origin(text: str) -> str:
    """'HTTPS://Glasses.example:443/' -> 'https://glasses.example:443' (scheme://host[:port])."""
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an origin: {text!r} (use e.g. https://glasses.example:8443)")
    port = f":{parts.port}" if parts.port else ""
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}{port}".lower()


def janus_origin(url: str) -> str:
    """'WS://Janus.example:8188/janus' -> 'ws://janus.example:8188' (what CSP's connect-src lists)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise ValueError(f"not a Janus WebSocket address: {url!r} (use e.g. wss://janus.example:8989)")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}{f':{parts.port}' if parts.port else ''}".lower()


def policy_for(bind_host: str, allow_origins: Iterable[str] = (), max_sessions: int = 8,
               janus: Iterable[str] = ()) -> Policy:
    """The policy of a server bound to bind_host, with extra allowed origins and Janus gateways."""
    origins = frozenset(normal_origin(o) for o in allow_origins)
    names = {"localhost", bind_host.lower()}
    for name in (socket.gethostname(), socket.getfqdn()):
        if name:
            names |= {name.lower(), f"{name.lower().split('.')[0]}.local"}
    names |= {urlsplit(o).hostname or "" for o in origins}
    return Policy(frozenset(n for n in names if n and _ip(n) is None), origins, max(1, max_sessions // 2),
                  tuple(dict.fromkeys(janus_origin(u) for u in janus)))


def host_allowed(policy: Policy, host_header: str) -> bool:
    """True for an IP literal, a *.localhost name or one of the policy's names (any port)."""
    host = urlsplit(f"//{host_header.strip()}").hostname if host_header.strip() else None
    if not host:
        return False
    return _ip(host) is not None or host.endswith(".localhost") or host.lower() in policy.hosts


def origin_allowed(policy: Policy, origin: str, request: web.Request) -> bool:
    """True when a browser's Origin is this server's own origin or an allowed one."""
    try:
        given = normal_origin(origin)
    except ValueError:
        return False  # 'null' (sandboxed frames, file://) and anything odd
    own = f"{request.scheme}://{request.host}".lower()
    return given == own or given in policy.origins


class TokenThrottle:
    """Wrong tokens per remote address: after `limit` in `window_s` seconds, that address gets 429
    until the oldest failure is that old (a guesser gets 5 tries per 10 s, not thousands)."""

    def __init__(self, limit: int = 5, window_s: float = 10.0, clock: Callable[[], float] = time.monotonic,
                 max_addresses: int = 4096) -> None:
        self.limit, self.window_s, self.clock, self.max_addresses = limit, window_s, clock, max_addresses
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, address: str) -> deque[float]:
        now = self.clock()
        seen = self._failures.get(address, deque())
        while seen and now - seen[0] > self.window_s:
            seen.popleft()
        if not seen:
            self._failures.pop(address, None)
        return seen

    def blocked(self, address: str) -> bool:
        """Whether this address has used up its wrong tries for now."""
        return len(self._recent(address)) >= self.limit

    def failed(self, address: str) -> None:
        """Count one wrong or missing token from this address."""
        seen = self._recent(address)
        if address not in self._failures:
            if len(self._failures) >= self.max_addresses:  # bounded memory under a spray of addresses
                self._failures.pop(next(iter(self._failures)))
            self._failures[address] = seen
        seen.append(self.clock())


def _refuse(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": code, "message": message}, status=status)


def middleware(policy: Policy, sessions_from: Callable[[str], int]) -> Callable[..., Awaitable[web.StreamResponse]]:
    """The request filter; sessions_from(address) counts that address's open sessions."""
    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not host_allowed(policy, request.headers.get(hdrs.HOST, "")):
            return _refuse(421, "bad_host", "this server does not answer to that host name")
        origin = request.headers.get(hdrs.ORIGIN)
        if origin is not None and not origin_allowed(policy, origin, request):
            return _refuse(403, "bad_origin", "requests from other web pages are refused (see --allow-origin)")
        if request.method == "POST" and request.content_type != "application/json":
            return _refuse(415, "bad_content_type", "POST bodies must be Content-Type: application/json")
        remote = request.remote or ""
        ip = _ip(remote)
        if (request.path in LIMITED_PATHS and ip is not None and not ip.is_loopback
                and sessions_from(remote) >= policy.per_address):
            return _refuse(429, "too_many", f"at most {policy.per_address} sessions from one address")
        return await handler(request)

    return guard


def _headers(policy: Policy) -> Callable[[web.Request, web.StreamResponse], Awaitable[None]]:
    csp = CSP.format(connect="".join(f" {origin}" for origin in policy.janus))
    headers = {**SECURITY_HEADERS, "Content-Security-Policy": csp}

    async def add(request: web.Request, response: web.StreamResponse) -> None:
        for name, value in headers.items():
            response.headers.setdefault(name, value)
        response.headers[hdrs.SERVER] = SERVER_NAME

    return add


def install(app: web.Application, policy: Policy, sessions_from: Callable[[str], int]) -> None:
    """Add the guard and the response headers to an application (before it starts)."""
    app.middlewares.append(middleware(policy, sessions_from))
    app.on_response_prepare.append(_headers(policy))
