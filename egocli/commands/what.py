"""`egocli what`: what is the user pointing at? Label, text read aloud, or chess square; asks when unsure."""

from __future__ import annotations

import typer

from egocli import ui
from egocli.commands.common import JSON, open_store, settings


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
    from egocli.pointing import service

    frame = service.read_image(image)
    conf = settings(ctx)
    ui.status("what: finding the hand and what it points at")
    result = service.resolve_frame(frame, conf, say=say, reply=reply, ocr=not no_ocr, chess=not no_chess)
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


def _render(document: dict) -> str:
    if document["question"]:
        options = "\n".join(f"  {o['key']}: {o['text']}" for o in document["question"]["options"])
        return f"{document['question']['question']}\n{options}\n(answer with --reply)"
    lines = [document["text"]]
    if document["answer"]:
        lines.append(f"confidence {document['confidence']:.2f} ({document['answer']['kind']}, {document['mode']})")
    if "event_id" in document:
        lines.append(f"remembered as event {document['event_id']}")
    return "\n".join(lines)


def _write_crop(path: str, pixels: object) -> None:
    import cv2

    from egocli.errors import InputError

    if pixels is None or not cv2.imwrite(path, pixels):
        raise InputError(f"{path}: cannot write the crop (use a .jpg or .png name)")


def register(app: typer.Typer) -> None:
    """Attach `what` to the root app."""
    app.command("what")(what)
