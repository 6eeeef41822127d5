"""Live assistants sharing one llama-server (tests/llamaserver.py): the live window pre-filled in a server
slot and answering as the in-process model does, two agents' windows on one server at once, a server
killed mid-answer (a clear error, every event kept, answers again once it is back) and a session whose
model server is down (an error message, the session goes on)."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from egocli.assistant.serve import build
from egocli.assistant.serve_options import ServeOptions
from egocli.assistant.window import LiveContext
from egocli.core.config import load_settings
from egocli.core.errors import ModelError
from egocli.models import registry
from egocli.models.llamacpp import LlamaCppModel
from egocli.store import EventFilter, NewEvent, Store
from egocli.stream.client import WsClient
from tests.llamaserver import llama_server_binary, model_file, own_server, smol_server  # noqa: F401

pytestmark = pytest.mark.slow

NOON = 1_796_040_000_000
"""A fixed afternoon (2026-11-30 12:00 UTC) for the test that compares two models' text."""
FAKES = {"tts": "fake", "embedder": "fake", "asr": "fake", "labeler": "fake", "ocr": "fake"}


def _day(now: int, seen: str, n: int = 8) -> list[NewEvent]:
    out = []
    for i in range(n):
        t = now - 80_000 + i * 10_000
        text = f"a {seen} stops outside the window" if i == n // 2 else f"a desk with a laptop and cup number {i}"
        out.append(NewEvent(t, t + 3_000, "visual", text, None, None, {}))
    return out


def _host(tmp_path: Path, name: str, url: str):
    settings = load_settings(db=tmp_path / f"{name}.db", home=tmp_path / "home", models={**FAKES, "llm": url})
    return build(settings, ServeOptions())


def test_the_live_window_is_prefilled_in_a_server_slot_and_answers_as_in_process(smol_server):
    now = NOON  # the prompt says the time: a fixed one, so both models read the same tokens on every run
    events = _day(now, "red bicycle")
    served = LiveContext(registry.load_llm(load_settings(models={"llm": smol_server.url})))
    assert served.prefilled  # llama-server keeps a KV cache: the window is pre-filled there
    served.add(events, list(range(1, len(events) + 1)))
    while served.warm(step=64) > 0:
        pass
    question = "What stopped outside the window?"
    answer = "".join(served.answer(question, now))
    timings = served.model.last_timings  # type: ignore[attr-defined]
    asked = len(served.model.prompt_tokens([*served.prefix(), "x"]))  # type: ignore[attr-defined]
    assert timings["cache_n"] >= asked - 40, timings  # only the question's few tokens were evaluated now
    local = LiveContext(LlamaCppModel(model_file("smollm2"), context_size=2048))
    local.add(events, list(range(1, len(events) + 1)))
    while local.warm(step=64) > 0:  # the same batches as the server's: greedy text follows the arithmetic
        pass
    assert answer.strip() and answer == "".join(local.answer(question, now))


def test_two_agents_share_one_server_and_each_answers_from_its_own_log(own_server, tmp_path):
    server = own_server("qwen1.5b", slots=4, context=2048)  # two agents, each an ask core and a live window
    now = int(time.time() * 1000)
    hosts = {"bicycle": _host(tmp_path, "ana", server.url), "tram": _host(tmp_path, "ben", server.url)}
    for seen, host in hosts.items():
        host.window.fill()
        source = host.crew.services.open_source("live-test", {})
        host.crew.services.write(source, _day(now, f"red {seen}" if seen == "bicycle" else f"green {seen}"))
        while host.window.context.warm(step=256) > 0:
            pass
    replies: dict[str, object] = {}

    def ask(seen: str) -> None:
        replies[seen] = hosts[seen].crew.answerer.answer("What stopped outside the window?", now, lambda s: None)

    threads = [threading.Thread(target=ask, args=(seen,)) for seen in hosts]
    for thread in threads:  # both at once: the server batches the two answers
        thread.start()
    for thread in threads:
        thread.join(300)
    for seen, host in hosts.items():
        other = "tram" if seen == "bicycle" else "bicycle"
        reply = replies[seen]
        assert reply.route == "live" and seen in reply.text.lower() and other not in reply.text.lower(), reply
        own = {e.id: e.content for e in host.crew.services.store().events(EventFilter())}
        assert reply.citations and all(own.get(c["event_id"]) == c["content"] for c in reply.citations)


def test_a_server_killed_mid_answer_is_a_clear_error_and_no_event_is_lost(own_server, tmp_path):
    server = own_server("qwen1.5b", slots=2, context=2048)  # a piece every ~50-100 ms here: killed at the first
    host = _host(tmp_path, "ana", server.url)
    services = host.crew.services
    host.window.fill()
    source = services.open_source("live-test", {})
    now = int(time.time() * 1000)
    written = services.write(source, _day(now, "red bicycle"))
    while host.window.context.warm(step=256) > 0:
        pass
    during: list[int] = []

    def kill_at_first_piece() -> bool:
        if server.proc.poll() is None:
            server.kill()
            during.extend(services.write(source, [NewEvent(now + 1_000, now + 2_000, "speech",
                                                           "did the tram come yet", None, None, {})]))
        return False

    with pytest.raises(ModelError, match=rf"llm: the model server at {server.url} closed the connection "
                                         r"mid-answer \(stopped or restarted\?\)"):
        host.crew.answerer.answer("What stopped outside the window?", now, lambda s: None, kill_at_first_piece)
    with pytest.raises(ModelError, match="refused the connection: nothing listens there"):
        host.crew.answerer.answer("What stopped outside the window?", now, lambda s: None)
    after = services.write(source, [NewEvent(now + 3_000, now + 4_000, "note", "the tram was late", None, None, {})])
    store = Store.open(services.settings.db)
    try:
        kept = [e.id for e in store.events(EventFilter())]
    finally:
        store.close()
    assert during and kept == written + during + after  # the log took every event, the answer's failure aside
    server.start()  # the same port again: the agent answers without a restart
    reply = host.crew.answerer.answer("What stopped outside the window?", now, lambda s: None)
    assert reply.route == "live" and reply.text.strip()


def test_a_session_whose_model_server_is_down_gets_an_error_and_goes_on(own_server, live_server, tmp_path):
    model_server = own_server("smollm2", slots=1, context=2048)
    store = Store.open(tmp_path / "log.db")  # the live server's log, with a day to answer from
    source = store.add_source("import", "yesterday", start_ms=int(time.time() * 1000) - 86_400_000)
    store.add_events(_day(int(time.time() * 1000) - 86_400_000, "red bicycle"), source_id=source.id)
    store.close()
    server = live_server(models={"llm": model_server.url}, live_budget=0)
    model_server.kill()
    question = "What stopped outside the window yesterday?"

    async def session() -> tuple[dict, dict]:
        client = WsClient()
        await client.connect(server.url, video=False)
        await client.send({"type": "ask", "id": 1, "text": question})
        failed = await client.wait_for("error", timeout=120, ref=1)
        await asyncio.get_running_loop().run_in_executor(None, model_server.start)  # the client keeps talking
        await client.send({"type": "ask", "id": 2, "text": question})
        answered = await client.wait_for("answer", timeout=300, id=2)
        await client.close()
        return failed, answered

    failed, answered = asyncio.run(session())
    assert failed["code"] == "model" and "refused the connection" in failed["message"], failed
    assert answered["text"].strip()
