"""`egocli serve`: the live endpoint glasses and browsers stream to (WebRTC, WebSocket baseline)."""

from __future__ import annotations

from pathlib import Path

import typer

from egocli.cli import ui
from egocli.commands.common import LLM, settings


def serve(ctx: typer.Context,
          host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (not loopback: --token required)."),
          port: int = typer.Option(8765, "--port", help="TCP port (0: any free port)."),
          token: str = typer.Option(None, "--token", envvar="EGOCLI_SERVE_TOKEN",
                                    help="Shared secret clients send (?token= or Authorization: Bearer; default: "
                                         "this user's secret from <home>/server-token, put in the printed URL)."),
          cert: Path = typer.Option(None, "--cert", help="TLS certificate (PEM): serve HTTPS, for LAN cameras."),
          key: Path = typer.Option(None, "--key", help="TLS private key (PEM)."),
          self_signed: bool = typer.Option(False, "--self-signed",
                                           help="HTTPS with a self-signed certificate kept in the egocli home."),
          ice_server: list[str] = typer.Option(None, "--ice-server",
                                               help="STUN/TURN URL (repeatable); none by default."),
          ice_loopback: bool = typer.Option(False, "--ice-loopback",
                                            help="ICE over 127.0.0.1 only (same-machine clients)."),
          max_sessions: int = typer.Option(8, "--max-sessions", help="Concurrent sessions allowed."),
          wake_phrase: str = typer.Option("hey co-pilot", "--wake-phrase", help="Spoken prefix of a question."),
          fps: float = typer.Option(1.0, "--fps", help="Camera frames considered per second."),
          asr: str = typer.Option(None, "--asr", help="ASR model override (e.g. 'fake', 'base')."),
          llm: str = LLM,
          allow_origin: list[str] = typer.Option(None, "--allow-origin", metavar="ORIGIN",
                                                 help="Another web origin that may open sessions (repeatable)."),
          janus: list[str] = typer.Option(None, "--janus", metavar="URL",
                                          help="A Janus WebSocket address the page may stream through (repeatable)."),
          live_budget: int = typer.Option(700, "--live-budget",
                                          help="Tokens of recent log kept pre-evaluated for quick answers (0: off)."),
          summaries: bool | None = typer.Option(None, "--summaries/--no-summaries",
                                                help="Summarise finished hours in the background while no question "
                                                     "is answered (default on; EGOCLI_SERVE_SUMMARIES, [serve] "
                                                     "summaries)."),
          ) -> None:
    """Serve the playground page and accept live camera + microphone streams; answer spoken questions.

    \b
    Examples:
      egocli serve                      # http://127.0.0.1:8765/
      egocli serve --host 0.0.0.0 --token SECRET --self-signed
      egocli serve --janus ws://127.0.0.1:8188  # page: /?janus=ws://127.0.0.1:8188&room=N
    """
    from egocli.assistant.serve_options import ServeOptions
    from egocli.assistant.serve import run
    from egocli.core.config import switch
    from egocli.core.errors import UsageError

    from egocli.privacy.usertoken import user_token, with_token
    from egocli.stream.server import is_loopback

    conf = settings(ctx, asr=asr)
    if token is None and is_loopback(host):  # beyond loopback an explicit --token stays required
        token = user_token(conf.home)  # other users of this machine get 401 too
    if self_signed:
        from egocli.stream import tls

        if cert is not None or key is not None:
            raise UsageError("--self-signed makes its own certificate: drop --cert/--key")
        cert, key = tls.self_signed(conf.home / "tls", tls.names_for(host))
        ui.status(f"certificate {cert} (SHA-256 {tls.fingerprint(cert.read_bytes())})")
    _finish_stale_sources(ctx)
    options = ServeOptions.of(host=host, port=port, token=token, cert=cert, key=key,
                              ice_servers=tuple(ice_server or ()), ice_loopback=ice_loopback,
                              max_sessions=max_sessions, wake_phrase=wake_phrase, fps=fps, live_budget=live_budget,
                              summaries=switch(conf, "serve", "summaries", summaries),
                              allow_origins=tuple(allow_origin or ()), janus=tuple(janus or ()))
    run(conf, options, ready=lambda url: ui.status(f"serving {with_token(url, token)} (log: {conf.db}); Ctrl-C to stop"))
    _exit_without_waiting_for_model_loads()


def _finish_stale_sources(ctx: typer.Context) -> None:
    """Live sources a killed server left 'pending' are marked 'interrupted' before new sessions start."""
    from egocli.commands.common import open_store
    from egocli.store.sourcesql import close_stale_live

    if not settings(ctx).db.exists():
        return
    store = open_store(ctx, create=False)
    try:
        stale = close_stale_live(store)
    finally:
        store.close()
    if stale:
        ui.status(f"{stale} live source(s) left open by a stopped server marked interrupted")


def _exit_without_waiting_for_model_loads() -> None:
    """Sessions are closed and the log written: say so and exit now, even while a model is still loading
    in a worker thread (a load cannot be interrupted; waiting for it made serve take ~25 s to stop)."""
    import os
    import sys
    import threading

    ui.status("stopped: sessions closed, log written")
    busy = [t for t in threading.enumerate() if t is not threading.main_thread() and t.is_alive() and not t.daemon]
    if busy:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def register(app: typer.Typer) -> None:
    """Attach `serve` to the root app."""
    app.command("serve", short_help="Serve the live page: camera and microphone in, answers out.")(serve)
