"""How `egocli serve` runs: the transport's options (ServerOptions, declared once in egocli.stream.host) and the
assistant's own beside them."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any
from pathlib import Path

from egocli.core.errors import UsageError
from egocli.stream.host import ServerOptions
from egocli.stream.server import check_options


@dataclass(frozen=True)
class ServeOptions:
    """How `egocli serve` runs (defaults match the command without flags)."""

    server: ServerOptions = field(default_factory=ServerOptions)
    """How the server listens and whom it lets in (address, token, TLS, ICE, sessions, heartbeat)."""
    wake_phrase: str = "hey co-pilot"
    """A spoken utterance starting with this is a question."""
    fps: float = 1.0
    """Camera frames considered per second (the newest frame is taken each time)."""
    answer_budget: int = 400
    """Context tokens for an answer from the ask core (questions about other times than now)."""
    live_budget: int = 700
    """Tokens of recent log kept pre-evaluated for quick answers (see egocli.assistant.window); 0: off,
    every answer searches the log with the ask core."""
    idle_timeout_s: float = 20.0
    """A session with no message or media for this long is closed."""
    barge_db: float = -38.0
    """Microphone level (dBFS) that counts as user speech while an answer plays."""
    utterance_queue: int = 8
    """Utterances waiting for ASR per session; the oldest is dropped beyond this."""
    summaries: bool = True
    """Build the summaries of finished hours (and their days) in the background while no question is answered
    (egocli.assistant.summary_job; `serve --no-summaries`, EGOCLI_SERVE_SUMMARIES or [serve] summaries)."""
    summaries_every_s: float = 60.0
    """Seconds between looks for finished hours whose summary is missing or stale."""

    @classmethod
    def of(cls, **flat: Any) -> ServeOptions:
        """Options from one flat set of names (the command's flags): ServerOptions' fields go to `server`."""
        names = {f.name for f in fields(ServerOptions)}
        server = ServerOptions(**{k: v for k, v in flat.items() if k in names})
        return cls(server, **{k: v for k, v in flat.items() if k not in names})

    def but(self, **flat: Any) -> ServeOptions:
        """A copy with some fields changed, by the same flat names as `of`."""
        names = {f.name for f in fields(ServerOptions)}
        server = replace(self.server, **{k: v for k, v in flat.items() if k in names})
        return replace(self, server=server, **{k: v for k, v in flat.items() if k not in names})

    @property
    def heartbeat_s(self) -> float:
        """Seconds between server pings (the transport's setting; sessions time out on it too)."""
        return self.server.heartbeat_s

    @property
    def max_sessions(self) -> int:
        """Concurrent sessions; more are refused with 503."""
        return self.server.max_sessions

    def check(self) -> None:
        """Refuse unsafe or inconsistent settings before anything binds or loads (UsageError)."""
        check_options(self.server)
        if self.max_sessions < 1 or self.fps <= 0:
            raise UsageError("--max-sessions must be at least 1 and --fps positive")
