"""The shipped fakes implement every Protocol deterministically and are selected by 'fake'."""

from __future__ import annotations

import json

import numpy as np
import pytest

from egocli.core.config import ROLES, load_settings
from egocli.models import base, registry
from egocli.models.fake import EchoModel, HashEmbedder, ScriptedModel, fake_for

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


def test_text_fakes_declare_the_prefix_cache_protocol() -> None:
    loaded = registry.load_llm(load_settings(models={"llm": "fake"}))
    for model in (EchoModel(), ScriptedModel("x"), loaded):
        assert isinstance(model, base.PrefixCachedModel)
    assert not loaded.kv_cache and ScriptedModel().kv_cache and not ScriptedModel(kv_cache=False).kv_cache


def test_echo_stream_says_what_generate_says() -> None:
    model = EchoModel()
    chat = [{"role": "system", "content": "Log:\n[10:00] heard: hello"}, {"role": "user", "content": "what did I hear"}]
    assert "".join(model.stream([model.format_chat(chat)], stop=["\n\n"])) == "".join(model.generate(chat))
    assert model.warm([model.format_chat(chat)]) == 0 and model.prime_system("fixed") is False


def test_scripted_model_replies_in_turn_and_records_what_it_was_sent() -> None:
    model = ScriptedModel("first reply", {"calls": []})
    chat = [{"role": "user", "content": "plan this"}]
    assert list(model.generate(chat)) == ["first", " reply"]
    assert json.loads("".join(model.generate(chat))) == {"calls": []}
    assert json.loads("".join(model.generate(chat))) == {"calls": []}  # the last reply repeats
    assert model.calls == 3 and model.prompts == [chat, chat, chat]
    assert "".join(ScriptedModel("Line: x\n\nmore").generate(chat, stop=["\n\n"])) == "Line: x"


def test_scripted_model_prefill_evaluates_only_what_the_cache_lacks() -> None:
    model = ScriptedModel("You heard hello.")
    prefix = ["<|im_start|>system\nLog:\n", "[10:00:00] heard: hello there\n"]
    full = len(model.prompt_tokens(prefix))
    assert 0 < model.warm(prefix, limit=3) == full - 3  # a step at a time, the rest waits
    while model.warm(prefix, limit=3):
        pass
    assert model.cached_tokens(prefix) == full
    turn = "<|im_end|>\n<|im_start|>user\nwhat did I hear?<|im_end|>\n<|im_start|>assistant\n"
    assert "".join(model.stream([*prefix, turn])) == "You heard hello."
    assert model.fresh == [len(model.prompt_tokens([turn]))] and model.streamed == [[*prefix, turn]]
    cold = ScriptedModel("You heard hello.", kv_cache=False)
    assert cold.warm(prefix) == 0 and cold.cached_tokens(prefix) == 0
    "".join(cold.stream([*prefix, turn]))
    assert cold.fresh == [full + len(model.prompt_tokens([turn]))]


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
