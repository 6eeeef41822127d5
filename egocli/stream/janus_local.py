"""A Janus gateway on this machine for tests, benches and trials: a generated configuration
(loopback only, VideoRoom plugin and WebSocket transport, no STUN) in a folder of its own.

The Debian package's defaults bind every interface; this never uses them."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

JANUS = "/usr/bin/janus"
LIBDIR = Path("/usr/lib/x86_64-linux-gnu/janus")


def janus_binary() -> str | None:
    """The janus executable, or None when the Debian package is not installed."""
    return shutil.which("janus") or (JANUS if os.access(JANUS, os.X_OK) else None)


def free_port() -> int:
    """A TCP port free on loopback right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def host_address() -> str:
    """This host's own IPv4 address on its default route (no packet is sent).

    Janus 1.1 never gathers loopback candidates (it skips loopback interfaces), so media between
    Janus and a peer on the same machine uses this address; the kernel delivers it locally."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("198.51.100.1", 9))
        except OSError as ex:
            raise RuntimeError("no network interface besides loopback: Janus gathers no ICE candidate "
                               "on loopback, so it cannot carry media here") from ex
        return str(sock.getsockname()[0])


@dataclass
class LocalJanus:
    """A Janus process with its own configuration folder (loopback transport, rooms as given)."""

    folder: Path
    """Where the configuration, plugin/transport links and the log live."""
    rooms: tuple[int, ...] = (1234,)
    """VideoRoom rooms to create at start."""
    api_secret: str | None = None
    """When set, every Janus API request must carry it (or a signed token, with token_secret)."""
    token_secret: str | None = None
    """When set, Janus also accepts tokens signed with it (egocli.stream.janus.signed_token)."""
    pin: str | None = None
    """When set, every room needs this PIN to join (publisher or subscriber)."""
    port: int = 0
    """WebSocket port (0: a free one)."""
    media_ip: str = ""
    """The one address Janus gathers ICE candidates on (default: this host's own IPv4 address)."""
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        """The WebSocket API address."""
        return f"ws://127.0.0.1:{self.port}"

    def write_config(self) -> None:
        """Write janus.jcfg, the transport and the VideoRoom configuration into the folder."""
        self.port = self.port or free_port()
        self.media_ip = self.media_ip or host_address()
        conf, plugins, transports = self.folder / "conf", self.folder / "plugins", self.folder / "transports"
        for d in (conf, plugins, transports):
            d.mkdir(parents=True, exist_ok=True)
        _link(LIBDIR / "plugins" / "libjanus_videoroom.so", plugins)
        _link(LIBDIR / "transports" / "libjanus_websockets.so", transports)
        secret = f'\tapi_secret = "{self.api_secret}"\n' if self.api_secret else ""
        if self.token_secret:
            secret += f'\ttoken_auth = true\n\ttoken_auth_secret = "{self.token_secret}"\n'
        (conf / "janus.jcfg").write_text(
            "general: {\n"
            f'\tconfigs_folder = "{conf}"\n\tplugins_folder = "{plugins}"\n'
            f'\ttransports_folder = "{transports}"\n\tdebug_level = 4\n{secret}'
            "\tsession_timeout = 60\n}\n"
            "media: {\n\trtp_port_range = \"40000-49999\"\n}\n"
            f'nat: {{\n\tice_enforce_list = "{self.media_ip}"\n}}\n'
            "plugins: {\n}\ntransports: {\n}\nevents: {\n\tbroadcast = false\n}\n")
        (conf / "janus.transport.websockets.jcfg").write_text(
            "general: {\n\tjson = \"plain\"\n\tws = true\n"
            f'\tws_port = {self.port}\n\tws_ip = "127.0.0.1"\n\twss = false\n}}\n'
            "admin: {\n\tadmin_ws = false\n\tadmin_wss = false\n}\n")
        pin = f'\tpin = "{self.pin}"\n\tis_private = true\n' if self.pin else ""
        rooms = "".join(
            f"room-{r}: {{\n\tdescription = \"wearer {r}\"\n{pin}\tpublishers = 4\n\tbitrate = 512000\n"
            f'\taudiocodec = "opus"\n\tvideocodec = "vp8"\n\tfir_freq = 10\n}}\n' for r in self.rooms)
        (conf / "janus.plugin.videoroom.jcfg").write_text("general: {\n}\n" + rooms)

    def start(self, timeout: float = 20.0) -> LocalJanus:
        """Start Janus in its folder (where a core dump would land) and wait until its WebSocket port accepts
        connections."""
        binary = janus_binary()
        if binary is None:
            raise FileNotFoundError("janus is not installed (apt-get install -y janus)")
        self.write_config()
        with (self.folder / "janus.log").open("wb") as logfile:
            self.proc = subprocess.Popen([binary, "-F", str(self.folder / "conf"), "-o", "-N",
                                          "-L", str(self.folder / "janus.log.full")],
                                         stdout=logfile, stderr=subprocess.STDOUT, cwd=self.folder)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"janus exited ({self.proc.returncode}): {self.log()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"janus did not listen on {self.port} within {timeout} s")

    def log(self) -> str:
        """What Janus wrote so far."""
        path = self.folder / "janus.log.full"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """Stop Janus (SIGTERM, then SIGKILL after 5 s)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def _link(target: Path, folder: Path) -> None:
    dest = folder / target.name
    if not dest.exists():
        dest.symlink_to(target)
