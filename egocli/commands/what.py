"""`egocli what`: what is the user pointing at? Label, text read aloud, or chess square; asks when unsure."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, open_store, settings

if TYPE_CHECKING:
    import numpy as np

MAX_TRIES = 2


def what(
    ctx: typer.Context,
    image: str = typer.Argument(..., help="Photo from the glasses (the hand pointing at something)."),
    say: str = typer.Option("what is this?", "--say", help="What the user said: 'what is this?', "
                            "'read me this', 'remember this'."),
    reply: str = typer.Option(None, "--reply", help="Answer to the follow-up question ('the left one', '2')."),
    crop: str = typer.Option(None, "--crop", help="Write the answer's crop to this image file."),
    no_ocr: bool = typer.Option(False, "--no-ocr", help="Skip text regions (faster) unless reading."),
    no_chess: bool = typer.Option(False, "--no-chess", help="Skip looking for a chessboard."),
    json_: bool = JSON,
) -> None:
    """Resolve "this": the thing the pointing finger points at (or the centre of the view).

    \b
    Examples:
      egocli what photo.jpg
      egocli what photo.jpg --say "read me this"
    """
    from egocli.models.nativelog import native_logs_silenced
    from egocli.pointing import service

    frame = service.read_image(image)
    conf = settings(ctx)
    ui.status("what: finding the hand and what it points at")
    with native_logs_silenced():
        result = service.resolve_frame(frame, conf, say=say, reply=reply, ocr=not no_ocr, chess=not no_chess)
    if result.question is not None and reply is None and not json_ and ui.can_ask():
        result = _ask_inline(result)
    document = result.to_json()
    if crop and result.best is not None:
        _write_crop(crop, service.crop(frame, result))
        document["crop"] = crop
    if result.intent == "remember" and result.question is None and result.best is not None:
        store = open_store(ctx)
        document["event_id"] = service.remember(store, conf.media_dir, frame, result, source=image)
    if json_:
        ui.emit_json(document)
        return
    if result.note:
        ui.warn(result.note)
    ui.emit_text(_render(document))


def _ask_inline(result: Any) -> Any:
    """On a terminal, ask the clarifying question here (as `egocli do` does) instead of exiting."""
    from egocli.core.errors import EgoError
    from egocli.pointing.resolve import choose

    question = result.to_json()["question"]
    ui.status(question["question"] + "".join(f"\n  {o['key']}: {o['text']}" for o in question["options"]))
    for _ in range(MAX_TRIES):
        answer = typer.prompt("Which one?", err=True, default="", show_default=False).strip()
        if not answer:
            break
        try:
            return choose(result, answer)
        except EgoError as ex:
            ui.warn(str(ex))
    return result


def _render(document: dict) -> str:
    if document["question"]:
        options = "\n".join(f"  {o['key']}: {o['text']}" for o in document["question"]["options"])
        return f"{document['question']['question']}\n{options}\n(answer with --reply KEY, or run in a terminal)"
    lines = [document["text"]]
    if document["answer"]:
        lines.append(f"confidence {document['confidence']:.2f} ({document['answer']['kind']}, {document['mode']})")
    if "event_id" in document:
        lines.append(f"remembered as event {document['event_id']}")
    return "\n".join(lines)


def _write_crop(path: str, pixels: np.ndarray | None) -> None:
    import cv2

    from egocli.core.errors import InputError

    if pixels is None or not cv2.imwrite(path, pixels):
        raise InputError(f"{path}: cannot write the crop (use a .jpg or .png name)")


def register(app: typer.Typer) -> None:
    """Attach `what` to the root app."""
    app.command("what", short_help="Resolve \"this\": what the pointing finger points at.")(what)
