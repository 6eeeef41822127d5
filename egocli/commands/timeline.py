"""`egocli timeline`: browse, search and ask the log in the browser (no camera, no microphone)."""

from __future__ import annotations

import typer

from egocli.cli import ui
from egocli.commands.common import settings


def timeline(ctx: typer.Context,
             day: str = typer.Option(None, "--day", metavar="DAY",
                                     help="Day to open (YYYY-MM-DD, 'yesterday', ...; default: the newest with events)."),
             host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (not loopback: --token required)."),
             port: int = typer.Option(8766, "--port", help="TCP port (0: any free port)."),
             token: str = typer.Option(None, "--token", envvar="EGOCLI_SERVE_TOKEN",
                                       help="Shared secret the page sends (?token= in the URL you open; default: "
                                            "this user's secret from <home>/server-token)."),
             open_: bool = typer.Option(False, "--open", help="Open the page in the default browser."),
             llm: str = typer.Option(None, "--llm", help="LLM override for questions (e.g. 'qwen0.5b')."),
             ) -> None:
    """Serve the timeline page for browsing the log; prints (or opens) its URL. Ctrl-C stops it.

    Examples: `egocli timeline --open`, `egocli timeline --day yesterday --port 0`."""
    from egocli.privacy.usertoken import user_token
    from egocli.stream.server import is_loopback
    from egocli.usecases.timeline import serve

    conf = settings(ctx, llm=llm)
    if token is None and is_loopback(host):  # beyond loopback an explicit --token stays required
        token = user_token(conf.home)  # other users of this machine get 401 too
    serve(conf, host, port, token, day, lambda url: _ready(url, open_, conf.db))


def _ready(url: str, open_: bool, db: object) -> None:
    ui.status(f"timeline at {url} (log: {db}); Ctrl-C to stop")
    print(url, flush=True)
    if open_:
        import webbrowser

        webbrowser.open(url)


def register(app: typer.Typer) -> None:
    """Attach `timeline` to the root app."""
    app.command("timeline", short_help="Serve the timeline page for browsing the log.")(timeline)
