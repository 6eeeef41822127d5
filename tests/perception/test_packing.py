"""Utterances transcribed together in one Whisper call, split back with their own word times."""

from __future__ import annotations

import numpy as np
import pytest

from egocli.ingest.decode import audio_chunks
from egocli.models.base import Segment
from egocli.models.fake import FixedTranscriber
from egocli.perception.packing import UtterancePacker, split_segments
from egocli.perception.vad import EnergyVad, Utterance, VadConfig
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "glasses.mp4"


def _utterances() -> list[Utterance]:
    """The example's two utterances (JFK's line at ~2 s, the note at ~15 s), as ingest finds them."""
    vad = EnergyVad(VadConfig(silence_ms=1200))
    found = [u for _t, pcm in audio_chunks(EXAMPLE) for u in vad.feed(pcm)] + vad.flush()
    assert len(found) == 2
    return found


def test_split_gives_each_span_its_words_with_times_from_its_own_start():
    one = Segment(0.2, 3.4, "so ask not. Remember the keys", [(0.2, 0.5, "so"), (0.6, 0.9, "ask"),
                                                                  (1.0, 1.3, "not."), (2.2, 2.6, "Remember"),
                                                                  (2.7, 2.9, "the"), (3.0, 3.4, "keys")])
    two = Segment(4.1, 4.6, "door.", [(4.1, 4.6, "door.")])
    spans = [(0.0, 1.5), (2.0, 3.5), (4.0, 5.0)]
    first, second, third = split_segments([one, two], spans)
    assert [s.text for s in first] == ["so ask not."] and first[0].words[0] == (0.2, 0.5, "so")
    assert second[0].text == "Remember the keys" and second[0].words[0] == (0.2, 0.6, "Remember")
    assert (second[0].start, second[0].end) == (0.2, 1.4)
    assert third == [Segment(0.1, 0.6, "door.", [(0.1, 0.6, "door.")])]


def test_segments_without_word_times_go_to_the_span_of_their_middle():
    spans = [(0.0, 2.0), (2.5, 6.0)]
    first, second = split_segments([Segment(0.1, 1.8, "hello"), Segment(2.6, 5.0, "there")], spans)
    assert first == [Segment(0.1, 1.8, "hello")] and second[0].text == "there"
    assert second[0].start == pytest.approx(0.1) and second[0].end == pytest.approx(2.5)


class _Heard(FixedTranscriber):
    """The fake ASR, remembering what it was given (a Transcriber: the Protocol boundary)."""

    def __init__(self) -> None:
        super().__init__(" ".join(f"w{i}" for i in range(50)))
        self.calls: list[int] = []

    def transcribe(self, pcm16k: np.ndarray) -> list[Segment]:
        self.calls.append(int(np.asarray(pcm16k).size))
        return super().transcribe(pcm16k)


def test_packs_hold_only_the_utterances_and_short_gaps_never_the_silence_between():
    utts = [Utterance(i * 60_000, i * 60_000 + 8_000, np.full(8 * 16000, 0.1, np.float32)) for i in range(5)]
    asr = _Heard()
    packer = UtterancePacker(asr, limit_ms=29_000, gap_ms=500)
    results = []
    for utt in utts:
        if not packer.fits(utt):
            results += packer.transcribe()
        packer.add(utt)
    results += packer.transcribe()
    # 3 x 8 s + 2 gaps fit in 29 s; a fourth would not: two calls for five utterances, minutes apart
    assert asr.calls == [(3 * 8 + 1) * 16000, (2 * 8 + 0.5) * 16000]
    assert all(u is v for (u, _s), v in zip(results, utts, strict=True))
    assert all(segs and segs[0].words[0][0] < 1.0 and segs[-1].words[-1][1] <= 9.0 for _u, segs in results)


@pytest.mark.slow
def test_packed_whisper_keeps_each_utterances_words_and_word_times():
    from egocli.core.config import load_settings
    from egocli.models import registry

    asr = registry.load("asr", load_settings())
    utts = _utterances()
    alone = [asr.transcribe(u.samples) for u in utts]
    packer = UtterancePacker(asr)
    for utt in utts:
        assert packer.fits(utt)
        packer.add(utt)
    packed = packer.transcribe()
    jfk, note = (" ".join(s.text for s in segs).lower() for _u, segs in packed)
    assert "ask not what your country can do for you" in jfk.replace(",", "") and "bowl" not in jfk
    assert "house keys are in the blue bowl" in note and "country" not in note
    for (utt, segs), single in zip(packed, alone, strict=True):
        words = [w for s in segs for w in s.words]
        ref = [w for s in single for w in s.words]
        assert words and all(0 <= a <= b <= len(utt.samples) / 16000 + 0.5 for a, b, _w in words)
        # the same words start at the same times (relative to the utterance) as when transcribed alone
        assert abs(words[0][0] - ref[0][0]) < 0.3 and abs(words[-1][1] - ref[-1][1]) < 0.5
