"""Real GGUF models through the registry: SmolLM2 for plumbing, Qwen2.5-1.5B where correctness matters."""

from __future__ import annotations

import importlib.util

import pytest

from egocli.core.config import load_settings
from egocli.reasoning import asker

from .conftest import AT, build_log

pytestmark = pytest.mark.slow


def _llm(name: str):
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python not installed")
    from egocli.models import registry

    settings = load_settings(models={"llm": name})
    present, note = registry.status(registry.resolve("llm", settings))
    if not present:
        pytest.skip(f"{name}: {note}")
    return registry.load("llm", settings)


def test_smollm2_votes_give_valid_letters(store):
    llm = _llm("smollm2")
    build_log(store)
    req = asker.AskRequest("Where did I put the car keys?", ("red drawer", "blue bowl", "sofa"), at_ms=AT, votes=3)
    result = asker.ask(store, llm, req)
    assert all(letter in ("A", "B", "C") for _, letter in result.votes)
    assert result.letter in ("A", "B", "C") and result.citations


def test_qwen_finds_the_needle(store):
    llm = _llm("qwen1.5b")
    ids = build_log(store)
    req = asker.AskRequest("When did I last take my blood pressure pill, and with what drink?",
                           ("with coffee", "with orange juice", "with water", "with milk", "with tea"),
                           at_ms=AT, votes=3, budget=600)
    result = asker.ask(store, llm, req)
    assert result.letter == "B"
    assert ids["pills"] in [c.event_id for c in result.citations]


def test_qwen_open_questions_answer_from_the_needle_and_abstain_without_one(store):
    """The 1.5B model used to reply 'nothing relevant' with the needle in its context."""
    llm = _llm("qwen1.5b")
    ids = build_log(store)
    drink = asker.ask(store, llm, asker.AskRequest("What drink did I take the pill with?", at_ms=AT))
    assert "orange juice" in drink.text.lower() and drink.citations[0].event_id == ids["pills"]
    when = asker.ask(store, llm, asker.AskRequest("When did I last take my blood pressure pill?", at_ms=AT))
    assert when.text != asker.NOTHING and when.citations[0].event_id == ids["pills"]
    cost = asker.ask(store, llm, asker.AskRequest("What did the doctor say the scan cost?", at_ms=AT))
    assert cost.text == asker.NOTHING and not cost.citations


def test_token_estimate_tracks_the_qwen_tokenizer(store):
    """The budget is spent by approx_tokens; the model counts with its own tokenizer (digits one each)."""
    from egocli.reasoning import tcot
    from egocli.store import NewEvent

    llm = _llm("qwen1.5b")
    build_log(store)
    src = store.add_source("import", "P09-20250101-100000", start_ms=AT, status="done")
    store.add_events([NewEvent(AT + i * 7_310, AT + i * 7_310 + 2_500, "ingredient",
                               f"added {i % 9 + 1} g salt to Pizza with Aubergine and Egg") for i in range(60)],
                     source_id=src.id)
    clock = asker.assemble(store, asker.AskRequest("When did I last take my pill?", at_ms=AT, budget=600)).text
    video = asker.assemble(store, asker.AskRequest("What was added at <TIME 00:03:10.000 video 1>?", at_ms=AT,
                                                   videos={1: src.name}, budget=600, hcc=False)).text
    for text in (clock, video):
        real = llm.count_tokens(text)
        assert 0.85 * real <= tcot.approx_tokens(text) <= 1.15 * real, text
