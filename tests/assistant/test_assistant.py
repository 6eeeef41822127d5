"""The assistant's dialogue without a server: a fake conversation, the real log and fake models,
and a clock the test moves (no waiting for polls or timeouts)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from egocli.assistant.dialogue import Assistant
from egocli.assistant.fake import FakeConversation, ManualClock
from egocli.assistant.routing import CLARIFY_TIMEOUT_S, REMINDER_POLL_S, Pending
from egocli.assistant.services import LiveServices
from egocli.core.config import load_settings
from egocli.core.timeutil import now_ms
from egocli.tools import reminders
from tests.waiting import until

FAKES = {"llm": "fake", "tts": "fake", "labeler": "fake", "ocr": "fake", "embedder": "fake", "asr": "fake"}


@pytest.fixture
def services(tmp_path: Path) -> LiveServices:
    """Live services over a fresh log with the fake models."""
    return LiveServices(load_settings(db=tmp_path / "log.db", home=tmp_path / "home", models=FAKES))


def test_a_due_reminder_is_announced_once_per_server_in_text_and_speech(services):
    now = now_ms()
    reminders.add_reminder(services.store(), "call Anna", now - 60_000, "the kitchen", now - 3_600_000)
    clock = ManualClock()
    assistant = Assistant(services, clock)
    first, second = FakeConversation("s1"), FakeConversation("s2")

    async def go() -> None:
        watchers = [asyncio.ensure_future(assistant.watch(s)) for s in (first, second)]
        await until(lambda: clock.sleeping == 2, 20, "both watchers waiting on the clock")
        assert first.sent == [] and second.sent == []  # nothing before the first poll
        await clock.advance(REMINDER_POLL_S)
        await until(lambda: clock.sleeping == 2 and bool(first.sent or second.sent), 20, "the due reminder announced")
        for _ in range(3):  # more polls of both sessions
            await clock.advance(REMINDER_POLL_S)
            await until(lambda: clock.sleeping == 2, 20, "both watchers back on the clock")
        for task in watchers:
            task.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)

    asyncio.run(go())
    announced = first.of_type("reminder") + second.of_type("reminder")
    assert [(m["text"], m["place"], m["say"]) for m in announced] == [
        ("call Anna", "the kitchen", "Reminder: call Anna in the kitchen.")]
    assert first.said + second.said == ["Reminder: call Anna in the kitchen."]


def test_a_clarification_left_unanswered_expires_and_the_next_words_are_a_new_request(services):
    clock = ManualClock()
    assistant = Assistant(services, clock)
    session = FakeConversation()

    async def go() -> list[bool]:
        pending = Pending("tools", assistant.talk.new_id("k"), "Which note?", "q1", "delete a note", "delete a note")
        await assistant.talk.clarify(session, pending)
        seen = [assistant.awaiting(session)]
        await clock.advance(CLARIFY_TIMEOUT_S - 1)
        seen.append(assistant.awaiting(session))
        await clock.advance(2)
        seen.append(await assistant.handle(session, "what did the president ask?", "q2", spoken=False))
        seen.append(assistant.awaiting(session))
        return seen

    assert asyncio.run(go()) == [True, True, False, False]
    assert session.of_type("clarify")[0]["question"] == "Which note?" and session.said == ["Which note?"]


def test_only_a_plain_yes_confirms_and_silence_is_a_no(services):
    assistant = Assistant(services, ManualClock())
    session = FakeConversation()

    async def go() -> tuple[bool, bool, bool, bool]:
        asked = asyncio.ensure_future(assistant.talk.confirm(session, "Add the reminder?", "q1"))
        await until(lambda: assistant.awaiting(session), 20, "the assistant awaiting an answer")
        taken = await assistant.handle(session, "yes", "q2", spoken=True)
        yes = await asked
        asked = asyncio.ensure_future(assistant.talk.confirm(session, "Delete note 3?", "q3"))
        await until(lambda: assistant.awaiting(session), 20, "the assistant awaiting an answer")
        await assistant.control(session, {"type": "confirm", "id": "c99", "yes": True})  # not the question asked
        await assistant.handle(session, "well, maybe", "q4", spoken=True)
        maybe = await asked
        assistant.talk.confirm_timeout_s = 0.05
        silence = await assistant.talk.confirm(session, "Delete note 4?", "q5")
        return taken, yes, maybe, silence

    assert asyncio.run(go()) == (True, True, False, False)
    assert [m["question"] for m in session.of_type("confirm")] == ["Add the reminder?", "Delete note 3?",
                                                                    "Delete note 4?"]
    assert [m["code"] for m in session.of_type("error")] == ["stale"]
    assert not assistant.awaiting(session)


def test_what_is_this_without_a_frame_is_said_and_sent_as_an_error(services):
    session = FakeConversation(frame=None)
    taken = asyncio.run(Assistant(services, ManualClock()).handle(session, "What is this?", "q1", spoken=True))
    assert taken and [m["code"] for m in session.sent] == ["no_frame"]
    assert session.said == ["I can't see anything: no camera frame has arrived yet."]
