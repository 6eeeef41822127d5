"""`egocli chess`: photo, video or FEN -> best moves with expected scores and a coach's explanation;
`egocli chess calibrate`: adapt the square classifier to the user's own set."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperGroup

from egocli.cli import ui
from egocli.commands.common import JSON, LLM, settings

if TYPE_CHECKING:
    from egocli.chess.types import Analysis, VideoAnalysis

ANALYSE = "analyse"
HELP = frozenset({"-h", "--help"})


class ChessGroup(TyperGroup):
    """`egocli chess PHOTO` is short for `egocli chess analyse PHOTO`; `calibrate` is the other command."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Route anything that is not a subcommand name (or --help) to `analyse`, and start Stockfish for it
        now, while `analyse` parses its options (see engine.prestarted)."""
        if not args or (args[0] not in self.commands and args[0] not in HELP):
            args = [ANALYSE, *args]
        rest = super().parse_args(ctx, args)
        if args[0] == ANALYSE and not ctx.resilient_parsing and not HELP.intersection(args):
            from egocli.chess.engine import prestarted

            ctx.with_resource(prestarted())  # quit at the group's end if `analyse` never takes it
        return rest


chess_app = typer.Typer(cls=ChessGroup, help="What should I play? `egocli chess PHOTO|VIDEO|--fen FEN` reads "
                        "the board and asks Stockfish; `egocli chess calibrate PHOTO...` adapts to your own set.",
                        context_settings={"help_option_names": ["-h", "--help"]})


@chess_app.command(ANALYSE, short_help="(default) Read a board or a FEN; explain the best move.")
def analyse_cmd(
    ctx: typer.Context,
    source: str = typer.Argument(None, help="Photo or video of a board, or '-' for an image on stdin."),
    fen: str = typer.Option(None, "--fen", help="Analyse this FEN instead of a photo."),
    turn: str = typer.Option(None, "--turn", "--to-move",
                             help="Side to move in a photo when both are legal: white or black (default: inferred, "
                                  "else White)."),
    view: str = typer.Option("auto", "--view", help="Camera side: white, black or auto."),
    model: str = typer.Option("auto", "--model", help="Square classifier: auto (calibrated if any), default, or a "
                                                      ".onnx path."),
    multipv: int = typer.Option(3, "--multipv", help="Number of engine lines."),
    seconds: float = typer.Option(0.5, "--time", help="Engine time per position, in seconds."),
    no_explain: bool = typer.Option(False, "--no-explain", help="Skip the LLM coach (templated explanation)."),
    why: str = typer.Option(None, "--why", help="Also explain why not this move (SAN or UCI, e.g. Nxe5)."),
    no_self_calibrate: bool = typer.Option(False, "--no-self-calibrate",
                                           help="Video: never fine-tune on the first start-position frames."),
    frame_by_frame: bool = typer.Option(False, "--frame-by-frame",
                                        help="Video: read each frame on its own, even when the video starts "
                                             "from the initial position (default: follow the game's legal moves)."),
    llm: str = LLM,
    json_: bool = JSON,
) -> None:
    """(default) Read a real board (photo/video) or a FEN, ask Stockfish, explain the best move.

    Examples: egocli chess board.jpg --turn black; egocli chess game.mp4 --json; egocli chess --fen "8/8/..."
    """
    from egocli.chess.analyse import UnreadablePosition, analyse  # Stockfish started in ChessGroup.parse_args
    from egocli.chess.types import ChessOptions, VideoAnalysis

    conf = settings(ctx)
    options = ChessOptions(turn=turn, view=view, multipv=multipv, seconds=seconds, explain=not no_explain,
                           model=_classifier(conf.home, model, fen), self_calibrate=not no_self_calibrate,
                           follow_game=not frame_by_frame)
    stdin = sys.stdin.buffer.read() if source == "-" else None

    def coach():  # noqa: ANN202 - the model loads only when an explanation is wanted
        from egocli.models import registry

        return registry.load("llm", conf)

    ui.status("chess: reading the board and asking the engine")
    try:
        result = analyse(source, fen, options, stdin=stdin, coach_model=coach, why=why)
    except UnreadablePosition as ex:
        _emit(ex.analysis, json_)
        raise
    _emit(result, json_)
    final = result.final if isinstance(result, VideoAnalysis) else result
    if final is not None and final.error:
        from egocli.core.errors import InputError

        raise InputError(final.error)


def _classifier(home: Path, choice: str, fen: str | None) -> Path | None:
    """The square classifier `--model` names; None for a FEN with the default 'auto' (no photo is read, and
    the lookup would load numpy), so `--fen` with a named model is still checked as before."""
    if fen is not None and choice == "auto":
        return None
    from egocli.chess.calibrate import active_model

    return active_model(home, choice)


def _emit(result: Analysis | VideoAnalysis, json_: bool) -> None:
    from egocli.chess.render import render

    ui.emit_json(result.to_json()) if json_ else ui.emit_text(render(result))


@chess_app.command("calibrate", short_help="Fine-tune the square classifier to your own set.")
def calibrate_cmd(
    ctx: typer.Context,
    photos: list[str] = typer.Argument(None, help="One or two photos of your board, from where you sit."),
    position: str = typer.Option(None, "--position", help="FEN of the position in the photos (default: the start)."),
    reset: bool = typer.Option(False, "--reset", help="Forget the calibration: use the packaged classifier again."),
    json_: bool = JSON,
) -> None:
    """Fine-tune the square classifier to your own set from photos of a known position (CPU, under a minute).

    Examples: egocli chess calibrate start1.jpg start2.jpg; egocli chess calibrate --reset
    """
    from egocli.chess import calibrate as cal

    home = settings(ctx).home
    if reset:
        ui.emit_text("calibration removed: the packaged classifier is used" if cal.reset(home)
                     else "no calibration to remove: the packaged classifier is used")
        return
    ui.status("chess: fine-tuning the square classifier on your photos (CPU, up to a minute)")
    report = cal.calibrate(photos or [], position, home)
    ui.emit_json(report.to_json()) if json_ else ui.emit_text(report.text())


def register(app: typer.Typer) -> None:
    """Attach the `chess` group to the root app."""
    app.add_typer(chess_app, name="chess", short_help="What should I play? Reads the board, asks Stockfish.")
