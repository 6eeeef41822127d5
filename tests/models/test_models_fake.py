"""The shipped fakes implement every Protocol deterministically and are selected by 'fake'."""

from __future__ import annotations

import json

import numpy as np
import pytest

from egocli.config import ROLES, load_settings
from egocli.models import base, registry
from egocli.models.fake import EchoModel, HashEmbedder, fake_for

PROTOCOLS = {"llm": base.TextModel, "summarizer": base.TextModel, "embedder": base.Embedder,
             "asr": base.Transcriber, "labeler": base.Labeler, "ocr": base.Reader, "tts": base.Speaker,
             "narrator": base.Narrator}


@pytest.mark.parametrize("role", ROLES)
def test_fake_selected_by_setting_implements_protocol(role: str) -> None:
    model = registry.load(role, load_settings(models={role: "fake"}))
    assert isinstance(model, PROTOCOLS[role])
    assert type(model) is type(fake_for(role))


def test_echo_model_streams_and_honours_schema_and_grammar() -> None:
    model = EchoModel()
    pieces = list(model.generate([{"role": "user", "content": "where are my keys"}]))
    assert len(pieces) > 1 and "".join(pieces) == "echo: where are my keys"
    schema = {"type": "object", "properties": {"answer": {"enum": ["A", "B"]}, "n": {"type": "integer"}}}
    assert json.loads("".join(model.generate([], json_schema=schema))) == {"answer": "A", "n": 0}
    assert "".join(model.generate([], grammar='root ::= "B" | "C"')) == "B"


def test_hash_embedder_is_deterministic_and_normalised() -> None:
    emb = HashEmbedder()
    a = emb.embed(["red apple pie", "red apple pie", "quantum physics"])
    assert a.dtype == np.float32 and a.shape == (3, 64)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(a[0], a[1]) and float(a[0] @ a[2]) < 0.9


def test_fake_speaker_and_transcriber_round_trip_lengths() -> None:
    audio, rate = fake_for("tts").speak("one two three")
    segments = fake_for("asr").transcribe(audio if rate == 16000 else audio[::2])
    assert segments and segments[0].end == pytest.approx(len(audio) / 16000)
    assert fake_for("asr").transcribe(np.zeros(16000, np.float32)) == []
