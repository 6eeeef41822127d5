"""The llama.cpp TextModel on real GGUF models (SmolLM2 for plumbing, Qwen2.5-1.5B for answers)."""

from __future__ import annotations

import json

import pytest

from egocli.models import registry

pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")
pytestmark = pytest.mark.slow

MCQ = [{"role": "system", "content": "You answer multiple-choice questions with the letter of the correct option only."},
       {"role": "user", "content": "Which planet is known as the Red Planet?\nA) Venus\nB) Mars\nC) Jupiter\n"
                                   "D) Saturn\nAnswer with one letter."}]
LETTER = 'root ::= [ABCD]'
SCHEMA = {"type": "object",
          "properties": {"item": {"type": "string"}, "room": {"type": "string", "enum": ["kitchen", "hall", "office"]},
                         "count": {"type": "integer"}},
          "required": ["item", "room", "count"]}


@pytest.fixture(scope="module")
def qwen(real_settings):
    return registry.load("llm", real_settings())


@pytest.fixture(scope="module")
def smol(real_settings):
    return registry.load("llm", real_settings(llm="smollm2"))


def test_default_model_answers_mcq_with_one_letter(qwen) -> None:
    answer = "".join(qwen.generate(MCQ, max_tokens=4, temperature=0.0, grammar=LETTER))
    assert answer == "B"


def test_default_model_returns_valid_json_for_schema(qwen) -> None:
    messages = [{"role": "user", "content": "I left three mugs in the kitchen. Extract item, room and count as JSON."}]
    data = json.loads("".join(qwen.generate(messages, max_tokens=80, temperature=0.0, json_schema=SCHEMA)))
    assert set(data) == {"item", "room", "count"}
    assert data["room"] == "kitchen" and data["count"] == 3 and "mug" in data["item"].lower()


def test_streaming_is_deterministic_at_temperature_zero(smol) -> None:
    messages = [{"role": "user", "content": "Name three fruits."}]
    first = list(smol.generate(messages, max_tokens=24))
    second = list(smol.generate(messages, max_tokens=24))
    assert len(first) > 1 and first == second


def test_stop_sequences_and_token_counts(smol) -> None:
    messages = [{"role": "user", "content": "Count from 1 to 10 separated by commas."}]
    text = "".join(smol.generate(messages, max_tokens=40, stop=["5"]))
    assert "5" not in text and "6" not in text
    assert smol.count_tokens("hello world") == 2
    assert smol.count_chat_tokens(messages) > smol.count_tokens(messages[0]["content"])
    assert smol.context_size == 4096


def test_grammar_and_schema_together_are_rejected(smol) -> None:
    with pytest.raises(ValueError):
        list(smol.generate(MCQ, grammar=LETTER, json_schema=SCHEMA))


def test_llm_and_summarizer_share_one_loaded_model(real_settings) -> None:
    settings = real_settings(llm="smollm2")
    assert registry.load("summarizer", settings) is registry.load("llm", settings)
