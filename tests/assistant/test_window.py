"""Quick answers from the pre-filled recent log: cache reuse, window trimming, routing, a real answer."""

from __future__ import annotations

import asyncio
import time

import pytest

from egocli.assistant.answers import needs_search
from egocli.assistant.serve_options import ServeOptions
from egocli.assistant.serve import build
from egocli.assistant.window import LiveContext, format_line
from egocli.core.config import load_settings
from egocli.models import registry
from egocli.store import NewEvent
from egocli.stream.client import WsClient
from tests.serving import words
from tests.waiting import message

JFK_LINE = "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."


def _events(now: int, n: int = 8) -> list[NewEvent]:
    out = []
    for i in range(n):
        t = now - 60_000 + i * 5_000
        text = JFK_LINE if i == n // 2 else f"a desk with a laptop and cup number {i}"
        out.append(NewEvent(t, t + 3_000, "speech" if i == n // 2 else "visual", text, None, None, {}))
    return out


@pytest.fixture(scope="module")
def smol():
    """Two independent SmolLM2 contexts (separate KV caches) for cache-versus-cold comparisons."""
    from egocli.models.llamacpp import LlamaCppModel

    choice = registry.prepare("llm", load_settings(models={"llm": "smollm2"}))
    return LlamaCppModel(choice.path, context_size=2048), LlamaCppModel(choice.path, context_size=2048)


@pytest.mark.slow
def test_prefilled_answer_equals_cold_answer_and_only_new_lines_are_evaluated(smol):
    warm_model, cold_model = smol
    now = int(time.time() * 1000)
    events = _events(now)
    live = LiveContext(warm_model)
    live.add(events[:-1], list(range(1, len(events))))
    assert live.warm(step=10_000) == 0
    full = len(warm_model.prompt_tokens(live.prefix()))
    assert warm_model.cached_tokens(live.prefix()) == full

    live.add(events[-1:], [len(events)])  # one more event: the cached prefix stays valid
    assert warm_model.cached_tokens(live.prefix()) == full
    live.warm(step=10_000)
    grown = len(warm_model.prompt_tokens(live.prefix()))
    assert grown > full and warm_model.cached_tokens(live.prefix()) == grown

    question = "What did the president ask people to do?"
    warm_answer = "".join(live.answer(question, now))
    cold = LiveContext(cold_model)
    cold.add(events, list(range(1, len(events) + 1)))
    cold_answer = "".join(cold.answer(question, now))  # nothing pre-filled: the whole prompt evaluated now
    assert warm_answer == cold_answer and warm_answer.strip()


def test_window_trims_oldest_lines_in_one_go_and_keeps_time_order():
    model = registry.load("llm", load_settings(models={"llm": "fake"}))
    live = LiveContext(model, budget=60, keep=0.5)
    now = int(time.time() * 1000)
    events = _events(now, 12)
    live.add(events[6:], list(range(7, 13)))
    live.add(events[:6], list(range(1, 7)))  # late arrivals sort in by time
    lines = live.lines()
    assert [ln.start_ms for ln in lines] == sorted(ln.start_ms for ln in lines)
    assert sum(ln.tokens for ln in lines) <= 30
    assert lines[-1].event_id == 12 and live.since_ms == lines[0].start_ms
    assert live.add(events[-1:], [12]) == 0  # an event already in the window is not added twice


def test_lines_leave_out_tool_events_and_cut_long_text():
    now = int(time.time() * 1000)
    assert format_line(NewEvent(now, now, "tool", "note_add(...)", None, None, {}), 1) is None
    line = format_line(NewEvent(now, now, "text", "word " * 200, None, None, {}), 2)
    assert line is not None and line.endswith(" ...\n") and len(line) < 280 and "] read: word" in line


def test_questions_about_other_times_go_to_the_ask_core(tmp_path):
    settings = load_settings(db=tmp_path / "log.db", home=tmp_path, models={"llm": "fake"})
    live = LiveContext(registry.load("llm", settings))
    now = int(time.time() * 1000)
    assert needs_search(live, "What did I just hear?", now)  # empty window: search the log
    live.add(_events(now), list(range(1, 9)))
    assert not needs_search(live, "What did the president ask people to do?", now)
    assert not needs_search(live, "What did I hear in the last minute?", now)
    assert needs_search(live, "What did the doctor say yesterday morning?", now)
    assert needs_search(live, "When did I last take my pills?", now)
    assert needs_search(live, "What was I doing when I locked the door?", now)
    assert needs_search(live, "What happened <TIME 00:01:00.000 video 1>?", now)


@pytest.mark.slow
def test_spoken_log_answered_from_the_live_window_with_the_default_model(live_server, jfk):
    server = live_server(models={"asr": "tiny.en", "llm": "qwen1.5b"})

    async def session() -> dict:
        client = WsClient()
        await client.connect(server.url, video=False)
        client.feed.say(jfk)
        await client.wait_for("event", timeout=60, modality="speech")
        await asyncio.wait_for(client.feed.drained.wait(), 30)
        await message(client, lambda m: m["type"] == "event" and m.get("modality") == "speech"
                      and words(m["content"]).endswith("country"), 60,
                      "the speech's last utterance logged (it ends '... for your country')")
        routes = []
        for ref in range(6):  # the live window opens once the answer model has loaded; until then, the log answers
            await client.send({"type": "ask", "id": ref, "text": "What did the president ask people to do?"})
            answer = await client.wait_for("answer", timeout=180, id=ref)
            routes.append(answer["route"])
            if answer["route"] == "live":
                break
        await client.close()
        assert routes[-1] == "live", f"the live window never answered: routes {routes}"
        return answer

    answer = asyncio.run(session())
    # the 1.5B model words it its own way ('... for their country', '... to ask not ...'): the answer must
    # carry the speech's own words, not only the question's
    text = answer["text"].lower()
    assert answer["route"] == "live" and any(w in text for w in ("country", "ask not", "you can do")), answer
    speech = {e.id for e in server.events("speech")}
    assert answer["citations"] and {c["event_id"] for c in answer["citations"]} <= speech


def test_forgotten_events_leave_the_live_window_before_the_next_answer(tmp_path):
    from egocli.store import EventFilter

    settings = load_settings(db=tmp_path / "log.db", home=tmp_path, models={"llm": "fake", "tts": "fake"})
    host = build(settings, ServeOptions())
    services, window = host.crew.services, host.window
    window.fill()
    source = services.open_source("live-test", {})
    now = int(time.time() * 1000)
    events = _events(now)
    services.write(source, events)
    assert window.context is not None and len(window.context.lines()) == len(events)
    speech_at = events[len(events) // 2].start_ms
    services.store().forget(EventFilter(since_ms=speech_at, until_ms=speech_at + 1, modalities=("speech",)))
    reply = host.crew.answerer.answer("What did the president ask?", now, lambda samples: None)
    assert reply.route == "live"
    assert len(window.context.lines()) == len(events) - 1
    assert all("country" not in line.text for line in window.context.lines())
    assert all("country" not in c["content"] for c in reply.citations)


def test_a_question_about_another_time_is_answered_from_the_whole_log(tmp_path):
    settings = load_settings(db=tmp_path / "log.db", home=tmp_path, models={"llm": "fake", "tts": "fake",
                                                                               "embedder": "fake"})
    host = build(settings, ServeOptions(live_budget=0))
    services = host.crew.services
    now = int(time.time() * 1000)
    yesterday = [NewEvent(e.start_ms - 86_400_000, e.end_ms - 86_400_000, e.modality, e.content) for e in _events(now)]
    services.write(services.open_source("live-test", {}), yesterday)
    spoken: list[int] = []
    reply = host.crew.answerer.answer("What did the president ask yesterday?", now, lambda s: spoken.append(s.size))
    assert reply.route == "log" and reply.text and not reply.interrupted
    assert reply.citations and all(c["event_id"] for c in reply.citations)
    assert spoken and reply.spoken == len(spoken)


@pytest.mark.slow
def test_a_question_the_log_computes_gets_the_evidence_checked_answer_not_the_window(tmp_path):
    """A live session with one note answered "what is my first note?" with "It is now 11:26:44." from the
    window: a question of a computed form (first/last/how many/...) goes to the checked answer."""
    settings = load_settings(db=tmp_path / "log.db", home=tmp_path, models={"llm": "fake", "tts": "fake",
                                                                               "embedder": "fake"})
    host = build(settings, ServeOptions())
    services = host.crew.services
    now = int(time.time() * 1000)
    services.write(services.open_source("live-test", {}),
                   [NewEvent(now - 60_000, now - 60_000, "speech", "It is a sunny morning in the park."),
                    NewEvent(now - 30_000, now - 30_000, "note", "parked on level 3, row F"),
                    NewEvent(now - 10_000, now - 10_000, "note", "buy more oat milk")])
    live = LiveContext(registry.load("llm", settings))
    live.add([NewEvent(now - 60_000, now - 60_000, "speech", "It is a sunny morning in the park.")], [1])
    assert needs_search(live, "What is my first note?", now)
    assert needs_search(live, "How many notes did I take today?", now)
    reply = host.crew.answerer.answer("What is my first note?", now, lambda s: None)
    assert reply.route == "log" and "level 3" in reply.text and "It is now" not in reply.text
    assert [c["content"] for c in reply.citations][:1] == ["parked on level 3, row F"]
    for asked in ("Did I take my pills this morning?", "Which did I do first, park or buy milk?",
                  "How long ago did I park?", "What was I doing at 9:30?"):
        assert needs_search(live, asked, now), asked
    ago = host.crew.answerer.answer("How long ago did I park?", now, lambda s: None)
    assert ago.route == "log" and "ago" in ago.text
    assert [c["content"] for c in ago.citations][:1] == ["parked on level 3, row F"]
