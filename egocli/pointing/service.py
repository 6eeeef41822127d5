"""The "what is this?" use-case: load the models, resolve a frame, answer a follow-up, remember a thing."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from egocli.core.errors import InputError
from egocli.perception.image import read_image as read_image  # the command's file reader
from egocli.pointing.resolve import Resolution, choose, intent_of, resolve

if TYPE_CHECKING:
    from egocli.core.config import Settings
    from egocli.store import NewEvent, Store


def resolve_frame(image: np.ndarray, settings: Settings, say: str | None = None, reply: str | None = None,
                  ocr: bool = True, chess: bool = True) -> Resolution:
    """Resolve "this" in a frame (what the user said selects the intent; a reply answers the question)."""
    from egocli.models import registry
    from egocli.pointing.hands import load_hands

    intent = intent_of(say)
    labeler = registry.load("labeler", settings)
    reader = registry.load("ocr", settings) if ocr or intent == "read" else None
    result = resolve(image, load_hands(), labeler, reader, intent=intent, chess=chess)
    return choose(result, reply) if reply else result


def crop(image: np.ndarray, resolution: Resolution) -> np.ndarray | None:
    """The answer's crop from the frame (None when there is no answer)."""
    box = resolution.crop_box(image.shape[1], image.shape[0])
    if box is None:
        return None
    x0, y0, x1, y1 = box
    return np.ascontiguousarray(image[y0:y1, x0:x1])


def remember(store: Store, media_dir: Path, image: np.ndarray, resolution: Resolution,
             at_ms: int | None = None, source: str | None = None, source_id: int | None = None,
             redact: Callable[[NewEvent], NewEvent] | None = None) -> int:
    """Store a `visual` event for the resolved thing with its crop in the media folder; returns its id.

    source_id attaches it to a source (a live session); redact masks personal data in it first."""
    import cv2

    from egocli.privacy.crypto import media_key, write_media
    from egocli.store import NewEvent

    best, piece = resolution.best, crop(image, resolution)
    if best is None or piece is None:
        raise InputError("nothing to remember: " + (resolution.text() if resolution.question else "no answer"))
    at = at_ms if at_ms is not None else int(time.time() * 1000)
    jpeg = cv2.imencode(".jpg", piece, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()
    target = write_media(media_dir / "pointing" / f"{at}.jpg", jpeg, media_key(store))
    description = best.candidate.description if best.candidate.kind != "text" else f'text "{resolution.text()}"'
    content = f"Pointed at {description} and asked to remember it"
    meta = {"pointing": {"kind": best.candidate.kind, "description": best.candidate.description,
                         "confidence": round(best.score, 3), "mode": resolution.mode,
                         "box": list(best.candidate.box), **best.candidate.detail},
            "reason": "remember this"}
    if source:
        meta["source"] = source
    event = NewEvent(at, at, "visual", content, str(target.relative_to(media_dir)), None, meta)
    if redact is not None:
        event = redact(event)
    return store.add_events([event], source_id=source_id)[0]
