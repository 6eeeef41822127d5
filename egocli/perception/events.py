"""Heard speech and described frames as log events: the one recipe batch ingest and live sessions share.

Times: `origin_ms` is the wall-clock time of offset 0 of the media (a file's start, a session's first
audio); events carry absolute times and their offset in the media."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from egocli.models.base import Segment
from egocli.models.textgate import text_key
from egocli.perception.describe import FrameDescription
from egocli.perception.frames import Verdict
from egocli.perception.vad import Utterance
from egocli.store import NewEvent


def transcript(segments: Sequence[Segment]) -> str:
    """The text of ASR segments, joined."""
    return " ".join(s.text for s in segments).strip()


def speech_event(utt: Utterance, segments: Sequence[Segment], origin_ms: int, asr: str,
                 media: str | None = None, extra: dict[str, Any] | None = None) -> NewEvent | None:
    """The `speech` event for a transcribed utterance with word times in media seconds (None: nothing said)."""
    text = transcript(segments)
    if not text:
        return None
    offset = utt.start_ms / 1000
    words = [[round(a + offset, 2), round(b + offset, 2), w] for s in segments for a, b, w in s.words]
    meta = {"asr": asr, "words": words, **(extra or {})}
    return NewEvent(origin_ms + utt.start_ms, origin_ms + utt.end_ms, "speech", text, media, utt.start_ms, meta)


class FrameNotes:
    """Described frames -> a `visual` event, plus a `text` event when the text in view is new."""

    def __init__(self, last_text_crc: int = 0, extra: dict[str, Any] | None = None) -> None:
        self.last_text_crc = last_text_crc
        """Key of the text read last (egocli.models.textgate.text_key; 0: none): the same sign in view again
        is not news."""
        self.extra = extra or {}
        """Meta added to every event (a live session's id)."""

    def events(self, desc: FrameDescription, verdict: Verdict, start_ms: int, end_ms: int, offset_ms: int | None,
               media: str | None = None) -> list[NewEvent]:
        """The events for one described frame seen from start_ms to end_ms (absolute)."""
        meta = {**desc.meta, "reason": verdict.reason, "change": round(verdict.change, 3), **self.extra}
        events = [NewEvent(start_ms, end_ms, "visual", desc.visual, media, offset_ms, meta)]
        crc = text_key(desc.text)  # case, spaces and punctuation ignored: OCR varies between frames
        if desc.text and crc != self.last_text_crc:
            events.append(NewEvent(start_ms, end_ms, "text", desc.text, media, offset_ms,
                                   {"ocr": desc.meta.get("ocr", []), **self.extra}))
        self.last_text_crc = crc
        return events
