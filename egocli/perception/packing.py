"""Several short utterances transcribed in one ASR call, the result split back per utterance.

Whisper reads audio in 30-second windows and pads a shorter input to a full window, so a 3-second
utterance costs as much encoder time as 30 seconds of speech. Utterances found by the VAD are
therefore gathered, in order, into packs of at most `limit_ms` (with `gap_ms` of silence between
them, so Whisper hears the pauses), transcribed together, and each word goes back to the utterance
its middle falls in, with times relative to that utterance's start. Silence between utterances is
never transcribed: only the utterances' own samples (plus the short gaps) are in a pack.

On the 4x-looped example recording (tiny.en, one thread) this took the ASR from 5.6 to 3.5 CPU
seconds with the same words (see bench/ingest.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from egocli.models.base import Segment, Transcriber
from egocli.perception.audio import RATE
from egocli.perception.vad import Utterance

LIMIT_MS = 29_000
"""A pack's longest length: one Whisper window (30 s) with a margin, so it is one encoder pass."""
GAP_MS = 500
"""Silence put between packed utterances."""


@dataclass
class UtterancePacker:
    """Gathers utterances into packs and transcribes each pack with one call."""

    asr: Transcriber
    limit_ms: int = LIMIT_MS
    gap_ms: int = GAP_MS
    pending: list[Utterance] = field(default_factory=list)
    """Utterances waiting for the next transcription, in order."""

    def fits(self, utt: Utterance) -> bool:
        """True when `utt` can join the pending pack without making it longer than the limit."""
        if not self.pending:
            return True
        return self._length(self.pending) + self._length([utt]) <= self.limit_ms * RATE // 1000

    def add(self, utt: Utterance) -> None:
        """Queue an utterance (call `fits` first, and `transcribe` when it does not fit)."""
        self.pending.append(utt)

    def transcribe(self) -> list[tuple[Utterance, list[Segment]]]:
        """Transcribe the pending pack: each utterance with its segments (times from its own start)."""
        utts, self.pending = self.pending, []
        if not utts:
            return []
        gap = np.zeros(self.gap_ms * RATE // 1000, np.float32)
        parts, spans, at = [], [], 0
        for utt in utts:
            samples = np.asarray(utt.samples, np.float32).reshape(-1)
            parts += [samples, gap]
            spans.append((at / RATE, (at + samples.size) / RATE))
            at += samples.size + gap.size
        segments = self.asr.transcribe(np.concatenate(parts[:-1]))
        return list(zip(utts, split_segments(segments, spans), strict=True))

    def _length(self, utts: list[Utterance]) -> int:
        return sum(np.asarray(u.samples).size for u in utts) + self.gap_ms * RATE // 1000 * (len(utts) - 1)


def split_segments(segments: Sequence[Segment], spans: Sequence[tuple[float, float]]) -> list[list[Segment]]:
    """Segments of a packed transcription split per span (start, end in seconds of the pack).

    A word (or, without word times, a segment) belongs to the span its middle falls in, the gap
    after a span counting as that span's; times are returned relative to the span's start."""
    out: list[list[Segment]] = [[] for _ in spans]
    starts = [s for s, _e in spans]
    for seg in segments:
        if not seg.words:
            i = _owner(starts, (seg.start + seg.end) / 2)
            off = starts[i]
            out[i].append(Segment(max(0.0, seg.start - off), max(0.0, seg.end - off), seg.text))
            continue
        groups: dict[int, list[tuple[float, float, str]]] = {}
        for a, b, w in seg.words:
            groups.setdefault(_owner(starts, (a + b) / 2), []).append((a, b, w))
        for i, words in groups.items():
            off = starts[i]
            moved = [(round(max(0.0, a - off), 3), round(max(0.0, b - off), 3), w) for a, b, w in words]
            text = seg.text if len(groups) == 1 else " ".join(w for _a, _b, w in words)
            out[i].append(Segment(moved[0][0], moved[-1][1], text, moved))
    return out


def _owner(starts: Sequence[float], t: float) -> int:
    """Index of the last span starting at or before t (the first span for earlier times)."""
    i = int(np.searchsorted(np.asarray(starts), t, side="right")) - 1
    return max(0, i)
