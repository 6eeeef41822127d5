"""`egocli agent`: one wearer's live assistant, joined to their Janus VideoRoom."""

from __future__ import annotations

from pathlib import Path

import typer

from egocli.cli import ui


def agent(ctx: typer.Context,
          janus: str | None = typer.Option(None, "--janus", help="Janus WebSocket API address (ws://host:8188)."),
          room: int = typer.Option(..., "--room", help="VideoRoom room id: the wearer's room."),
          db: str | None = typer.Option(None, "--db", help="The wearer's event log (or from --rooms)."),
          rooms: Path = typer.Option(None, "--rooms", help="rooms.toml: room -> log (and Janus address)."),
          token: str = typer.Option(None, "--token", envvar="EGOCLI_JANUS_TOKEN", help="Janus auth token."),
          api_secret: str = typer.Option(None, "--api-secret", envvar="EGOCLI_JANUS_SECRET",
                                         help="Janus API secret."),
          pin: str = typer.Option(None, "--pin", envvar="EGOCLI_ROOM_PIN", help="The room's PIN."),
          ice_server: list[str] = typer.Option(None, "--ice-server", help="STUN/TURN URL (repeatable)."),
          wake_phrase: str = typer.Option("hey co-pilot", "--wake-phrase", help="Spoken prefix of a question."),
          fps: float = typer.Option(1.0, "--fps", help="Camera frames considered per second."),
          asr: str = typer.Option(None, "--asr", help="ASR model override (e.g. 'fake', 'base')."),
          llm: str = typer.Option(None, "--llm", help="LLM override for answers (a name, a GGUF path, or the "
                                                      "machine's model server: http://127.0.0.1:8080/v1)."),
          ) -> None:
    """Join a Janus VideoRoom as its wearer's assistant; the wearer's events go to that wearer's log only.

    \b
    Examples:
      egocli agent --janus ws://127.0.0.1:8188 --room 1001 --db /var/lib/egocli/ana.db
      egocli agent --rooms /etc/egocli/rooms.toml --room 1001
    """
    from egocli.assistant.agent import run
    from egocli.assistant.serve_options import ServeOptions
    from egocli.core.config import load_settings
    from egocli.core.errors import UsageError
    from egocli.stream.janus_agent import AgentOptions

    log: str | Path | None = db
    if rooms is not None:
        from egocli.assistant.rooms import read_rooms

        entry = read_rooms(rooms).get(room)
        if entry is None:
            raise UsageError(f"room {room} is not in {rooms}")
        log, janus = entry.db if log is None else log, janus or entry.janus
    obj = ctx.find_root().obj or {}
    log = obj.get("db") if log is None else log  # an empty --db is refused by load_settings, never replaced
    if not janus or log is None:
        raise UsageError("give --janus and --db (or --rooms with the room's entry)")
    if not janus.startswith(("ws://", "wss://")):
        raise UsageError(f"--janus {janus}: expected a ws:// or wss:// address")
    conf = load_settings(db=log).with_models(asr=asr, llm=llm)
    options = ServeOptions.of(wake_phrase=wake_phrase, fps=fps, max_sessions=1)
    ui.status(f"agent for room {room} via {janus} (log: {conf.db}); Ctrl-C to stop")
    run(conf, options, AgentOptions(janus, room, api_secret, token, pin, tuple(ice_server or ())))


def register(app: typer.Typer) -> None:
    """Attach `agent` to the root app."""
    app.command("agent", short_help="Join a Janus VideoRoom as its wearer's assistant.")(agent)
