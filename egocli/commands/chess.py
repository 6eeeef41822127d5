"""`egocli chess`: photo, video or FEN -> best moves with win chances and a coach's explanation."""

from __future__ import annotations

import sys

import typer

from egocli import ui
from egocli.commands.common import JSON, settings


def chess(
    ctx: typer.Context,
    source: str = typer.Argument(None, help="Photo or video of a board, or '-' for an image on stdin."),
    fen: str = typer.Option(None, "--fen", help="Analyse this FEN instead of a photo."),
    to_move: str = typer.Option("white", "--to-move", help="Side to move in a photo: white or black."),
    view: str = typer.Option("auto", "--view", help="Camera side: white, black or auto."),
    multipv: int = typer.Option(3, "--multipv", help="Number of engine lines."),
    seconds: float = typer.Option(0.5, "--time", help="Engine time per position, in seconds."),
    no_explain: bool = typer.Option(False, "--no-explain", help="Skip the LLM coach (templated explanation)."),
    json_: bool = JSON,
) -> None:
    """What should I play? Reads a real board (photo/video) or a FEN, asks Stockfish, explains the move."""
    from egocli.chess.analyse import ChessOptions, analyse
    from egocli.chess.render import render

    options = ChessOptions(to_move=to_move, view=view, multipv=multipv, seconds=seconds, explain=not no_explain)
    stdin = sys.stdin.buffer.read() if source == "-" else None
    conf = settings(ctx)

    def coach():  # noqa: ANN202 - the model loads only when an explanation is wanted
        from egocli.models import registry

        return registry.load("llm", conf)

    ui.status("chess: reading the board and asking the engine")
    result = analyse(source, fen, options, stdin=stdin, coach_model=coach)
    if json_:
        ui.emit_json(result.to_json())
    else:
        ui.emit_text(render(result))


def register(app: typer.Typer) -> None:
    """Attach `chess` to the root app."""
    app.command("chess")(chess)
