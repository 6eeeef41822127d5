"""How `egocli serve` runs: one flat set of options, split into the transport's part and the assistant's."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from egocli.core.errors import UsageError
from egocli.stream.host import ServerOptions
from egocli.stream.server import check_options


@dataclass(frozen=True)
class ServeOptions:
    """How `egocli serve` runs (defaults match the command without flags)."""

    host: str = "127.0.0.1"
    """Address to bind; anything but loopback needs a token."""
    port: int = 8765
    """TCP port (0: any free port)."""
    token: str | None = None
    """Shared secret checked on /offer, /ws and /api/*."""
    cert: Path | None = None
    """TLS certificate (PEM) for HTTPS."""
    key: Path | None = None
    """TLS private key (PEM)."""
    ice_servers: tuple[str, ...] = ()
    """STUN/TURN URLs; none by default, so no outside server is ever contacted."""
    ice_loopback: bool = False
    """Use only 127.0.0.1 for ICE (same-machine clients, tests in a network-less sandbox)."""
    max_sessions: int = 8
    """Concurrent sessions; more are refused with 503."""
    wake_phrase: str = "hey co-pilot"
    """A spoken utterance starting with this is a question."""
    fps: float = 1.0
    """Camera frames considered per second (the newest frame is taken each time)."""
    answer_budget: int = 400
    """Context tokens for an answer from the ask core (questions about other times than now)."""
    live_budget: int = 700
    """Tokens of recent log kept pre-evaluated for quick answers (see egocli.assistant.window); 0: off,
    every answer searches the log with the ask core."""
    heartbeat_s: float = 5.0
    """Seconds between server pings."""
    idle_timeout_s: float = 20.0
    """A session with no message or media for this long is closed."""
    barge_db: float = -38.0
    """Microphone level (dBFS) that counts as user speech while an answer plays."""
    utterance_queue: int = 8
    """Utterances waiting for ASR per session; the oldest is dropped beyond this."""
    allow_origins: tuple[str, ...] = ()
    """Web origins besides the server's own that may open sessions (a glasses app's page)."""
    janus: tuple[str, ...] = ()
    """Janus WebSocket addresses the playground page may connect to (its agents' gateway)."""

    def server(self) -> ServerOptions:
        """The transport's part."""
        return ServerOptions(host=self.host, port=self.port, token=self.token, cert=self.cert, key=self.key,
                             ice_servers=self.ice_servers, ice_loopback=self.ice_loopback,
                             max_sessions=self.max_sessions, heartbeat_s=self.heartbeat_s,
                             allow_origins=self.allow_origins, janus=self.janus)

    def check(self) -> None:
        """Refuse unsafe or inconsistent settings before anything binds or loads (UsageError)."""
        check_options(self.server())
        if self.max_sessions < 1 or self.fps <= 0:
            raise UsageError("--max-sessions must be at least 1 and --fps positive")
