"""Summaries built in the background by `serve` (egocli.assistant.summary_job): a finished hour of a real log gets
its summary, then its day; the job gives way to a live question and waits while one is answered.
Fakes only at Protocol boundaries: the package's fake models, a LogAnswers, a TextModel and a timeline Answerer."""

from __future__ import annotations

import asyncio
import os
import subprocess
import threading
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

import pytest

from egocli.assistant.ask import LogAnswer
from egocli.assistant.serve import build
from egocli.assistant.serve_options import ServeOptions
from egocli.assistant.summary_job import BackgroundSummaries
from egocli.core.config import load_settings, switch
from egocli.core.errors import ConfigError
from egocli.core.timeutil import now_ms
from egocli.models.fake import EchoModel
from egocli.reasoning import hcc
from egocli.store import NewEvent, Store
from egocli.store import summaries as sql
from tests import console
from tests.serving import FAKES
from tests.waiting import until, wait_until

HOUR = sql.HOUR_MS
SAID = ["Priya said the boiler engineer comes on Friday at eight in the morning",
        "Marcus asked for the quarterly budget report by Thursday afternoon",
        "booked a table for four at Luigi's on Saturday evening at seven",
        "the pharmacy will have the prescription ready after three tomorrow",
        "Anna moved the dentist appointment to the twelfth at half past nine",
        "paid the window cleaner forty pounds in cash for the month"]


def _log(db: Path) -> tuple[int, int]:
    """Said things in the hour before last (over), one event in the hour going on; returns their hour starts."""
    past, current = (now_ms() // HOUR - 2) * HOUR, now_ms() // HOUR * HOUR
    store = Store.open(db)
    try:
        store.add_events([NewEvent(past + i * 300_000, past + i * 300_000 + 4000, "speech", text)
                          for i, text in enumerate(SAID)] + [NewEvent(current + 1, current + 2, "note", "still going")])
    finally:
        store.close()
    return past, current


def _summaries(db: Path) -> dict[tuple[str, int], sql.Summary]:
    store = Store.open(db)
    try:
        return {(s.level, s.start_ms): s for s in sql.get_summaries(store)}
    finally:
        store.close()


def test_serve_summarises_a_finished_hour_then_its_day_but_not_the_hour_going_on(live_server, tmp_path):
    past, current = _log(tmp_path / "log.db")
    server = live_server(summaries_every_s=0.05)

    def built() -> dict[tuple[str, int], sql.Summary]:
        have = _summaries(server.db)
        return have if any(level == "day" for level, _ in have) else {}

    have = wait_until(built, 30, "the hour's and its day's summaries", seen=lambda: list(_summaries(server.db)))
    hour = have[("hour", past)]
    assert hour.model == EchoModel.name and "boiler engineer" in hour.text  # written by the (fake) model
    assert ("hour", current) not in have  # not over yet
    assert not any(level == "week" for level, _ in have)  # weeks are left to `egocli summarize`
    store = Store.open(server.db)
    try:
        assert hcc.finished(store, now_ms()) == []  # nothing more due
        assert not [c for c in hcc.plan(store) if c.level == "hour" and c.start_ms == past]  # the hour's is fresh
    finally:
        store.close()


def test_serve_builds_no_summary_when_turned_off(live_server, tmp_path):
    _log(tmp_path / "log.db")
    server = live_server(summaries=False, summaries_every_s=0.02)
    assert len(server.events()) == len(SAID) + 1  # the server is up over the log
    for _ in range(25):  # a job would have looked 25 times by now
        threading.Event().wait(0.02)
    assert _summaries(server.db) == {}


def test_the_setting_is_the_flag_else_the_environment_else_config_toml_else_on(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.delenv("EGOCLI_SERVE_SUMMARIES", raising=False)
    assert switch(load_settings(db=tmp_path / "log.db", home=home), "serve", "summaries") is True
    (home / "config.toml").write_text("[serve]\nsummaries = false\n")
    settings = load_settings(db=tmp_path / "log.db", home=home)
    assert switch(settings, "serve", "summaries") is False
    monkeypatch.setenv("EGOCLI_SERVE_SUMMARIES", "on")
    assert switch(settings, "serve", "summaries") is True
    assert switch(settings, "serve", "summaries", flag=False) is False
    monkeypatch.setenv("EGOCLI_SERVE_SUMMARIES", "maybe")
    with pytest.raises(ConfigError, match="EGOCLI_SERVE_SUMMARIES='maybe'"):
        switch(settings, "serve", "summaries")


class HeldAnswers:
    """LogAnswers that records when it is asked; answers at once."""

    def __init__(self) -> None:
        self.asked = threading.Event()

    def answer(self, store: Store, question: str, at_ms: int, on_token: Any) -> LogAnswer:
        """Note the question and answer it."""
        self.asked.set()
        return LogAnswer("The boiler engineer comes on Friday.")


class LongModel(EchoModel):
    """A TextModel writing a summary that goes on, a piece every 10 ms, until `released` is set (then ends)."""

    name = "fake-long"

    def __init__(self) -> None:
        self.started = threading.Event()
        self.released = threading.Event()
        self.calls = 0

    def generate(self, messages: Sequence[dict[str, str]], max_tokens: int = 256, temperature: float = 0.0,
                 grammar: str | None = None, json_schema: dict[str, Any] | None = None,
                 stop: Sequence[str] | None = None) -> Generator[str, None, None]:
        """'Held' pieces while not released, then the end of the sentence."""
        self.calls += 1
        yield "Held"
        self.started.set()
        while not self.released.wait(0.01):
            yield " on"
        yield " the boiler engineer on Friday."


def test_a_question_does_not_wait_for_a_summary_being_written(tmp_path):
    past, _ = _log(tmp_path / "log.db")
    settings = load_settings(db=tmp_path / "log.db", home=tmp_path / "home", models=FAKES)
    answers, model = HeldAnswers(), LongModel()
    host = build(settings, ServeOptions.of(live_budget=0), log_answers=answers)
    services = host.crew.services
    job = BackgroundSummaries(services, every_s=0.05, summarizer=lambda give_way: hcc.LlmSummarizer(model, give_way=give_way))
    sent: list[dict[str, Any]] = []

    async def go() -> None:
        running = asyncio.ensure_future(job.run())
        session = host.new_session("test", "peer", send=sent.append)
        assert await session.start()
        await until(model.started.is_set, 20, "the summary being written")
        await session.receive('{"type": "ask", "text": "when does the boiler engineer come?"}')
        try:  # the model never finishes on its own: only a job that gives way lets the answer through
            await until(lambda: [m for m in sent if m["type"] == "answer"], 20, "the answer",
                        seen=lambda: [m["type"] for m in sent])
        finally:
            model.released.set()
        await until(lambda: job.built >= 1, 20, "the summary, built after the answer")
        await session.close("done")
        await host.shutdown()
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)

    asyncio.run(go())
    assert job.gave_way >= 1 and model.calls >= 2  # given up for the question, written again afterwards
    hour = _summaries(tmp_path / "log.db")[("hour", past)]
    assert hour.model == "fake-long" and hour.text.startswith("Held") and hour.text.endswith("engineer on Friday.")


def test_the_job_waits_while_a_timeline_question_is_answered(tmp_path):
    past, _ = _log(tmp_path / "log.db")
    settings = load_settings(db=tmp_path / "log.db", home=tmp_path / "home", models=FAKES)
    host = build(settings, ServeOptions.of(live_budget=0))
    job = BackgroundSummaries(host.crew.services, every_s=0.02)
    answering, release = threading.Event(), threading.Event()

    def answer(store: Store, question: str, on_token: Any) -> dict[str, Any]:
        answering.set()
        release.wait(30)
        return {"text": "Friday.", "citations": []}

    asked = job.asking(answer)

    async def go() -> tuple[int, int]:
        running = asyncio.ensure_future(job.run())
        page = asyncio.get_running_loop().run_in_executor(None, asked, None, "when is the boiler fixed?", print)
        await until(answering.is_set, 10, "the timeline question being answered")
        for _ in range(25):  # the job looks every 20 ms: it has looked many times by now
            await asyncio.sleep(0.02)
        during = job.built
        release.set()
        await page
        await until(lambda: job.built >= 2, 20, "the hour and day summaries after the question")
        await host.shutdown()
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        return during, job.built

    during, after = asyncio.run(go())
    assert during == 0 and after == 2
    assert ("hour", past) in _summaries(tmp_path / "log.db")


def test_serve_reads_the_setting_before_it_listens(tmp_path):
    env = {**os.environ, "EGOCLI_HOME": str(tmp_path / "home"), "EGOCLI_SERVE_SUMMARIES": "maybe"}
    run = subprocess.run([console.egocli(), "--db", tmp_path / "log.db", "serve", "--port", "0"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "Error: EGOCLI_SERVE_SUMMARIES='maybe': give one of 1, true" in run.stderr
    assert "serving" not in run.stderr
