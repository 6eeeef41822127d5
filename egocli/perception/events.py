"""Heard speech and described frames as log events: the one recipe batch ingest and live sessions share.

Times: `origin_ms` is the wall-clock time of offset 0 of the media (a file's start, a session's first
audio); events carry absolute times and their offset in the media."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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


TEXT_REPEAT_MS = 5 * 60_000
"""The same text read again within this long is not news (a still scene is noted again after 5 minutes too)."""


class FrameNotes:
    """Described frames -> one event per scene worth keeping.

    A scene the labels or the narrator describe is a `visual` event (its sentence holds the text read in
    it), with a `text` event beside it, for search, when that text is new. A scene that is only text is one
    `text` event carrying the scene's metadata (no `visual` event repeating it). The same text read again
    within TEXT_REPEAT_MS adds nothing, and a frame with nothing recognised is no event."""

    def __init__(self, recent: dict[int, int] | None = None, extra: dict[str, Any] | None = None) -> None:
        self.recent = dict(recent or {})
        """Texts noted lately: text key (egocli.models.textgate.text_key) -> when its `text` event began (absolute
        ms). A resumed ingest rebuilds it from the log's text events (`recent_texts`)."""
        self.extra = extra or {}
        """Meta added to every event (a live session's id)."""

    def events(self, desc: FrameDescription, verdict: Verdict, start_ms: int, end_ms: int, offset_ms: int | None,
               media: str | None = None) -> list[NewEvent]:
        """The events for one described frame seen from start_ms to end_ms (absolute); [] when it adds nothing."""
        meta = {**desc.meta, "reason": verdict.reason, "change": round(verdict.change, 3), **self.extra}
        crc = text_key(desc.text) if desc.text else 0  # case, spaces and punctuation ignored: OCR varies
        new_text = bool(desc.text) and self._is_news(crc, start_ms)
        events = []
        if desc.depicts:
            events.append(NewEvent(start_ms, end_ms, "visual", desc.visual, media, offset_ms, meta))
        if new_text and desc.text:
            text_meta = {"ocr": desc.meta.get("ocr", []), **self.extra} if desc.depicts else meta
            events.append(NewEvent(start_ms, end_ms, "text", desc.text, media, offset_ms, text_meta))
            self.recent[crc] = start_ms
        return events

    def _is_news(self, crc: int, at_ms: int) -> bool:
        self.recent = {k: t for k, t in self.recent.items() if 0 <= at_ms - t < TEXT_REPEAT_MS}
        return crc not in self.recent


def recent_texts(texts: Iterable[tuple[int, str]], at_ms: int) -> dict[int, int]:
    """FrameNotes.recent rebuilt from stored `text` events (start ms, content) for a restart at `at_ms`."""
    recent: dict[int, int] = {}
    for start_ms, content in texts:
        if 0 <= at_ms - start_ms < TEXT_REPEAT_MS:
            key = text_key(content)
            recent[key] = max(start_ms, recent.get(key, start_ms))
    return recent
