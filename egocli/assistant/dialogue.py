"""What a live session does besides answering questions from the log: pointing ("what is this?"),
tool requests through the orchestrator (with confirmation and clarification over the control
channel), and announcements of due reminders.

The session calls four hooks: `handle` for every question (True: taken here), `control` for
client messages the session itself does not know, `watch` as a per-session background task, and
`awaiting` to know whether the next utterance answers a question asked back.
"""

from __future__ import annotations

import asyncio
from typing import Any

from egocli.assistant.pointflow import PointFlow
from egocli.assistant.announce import Announcer
from egocli.assistant.routing import CLARIFY_TIMEOUT_S, REMINDER_POLL_S, Conversation, Pending, Ref, route
from egocli.core.clock import Clock, SystemClock
from egocli.assistant.services import LiveServices
from egocli.assistant.talk import Talk
from egocli.assistant.toolflow import ToolFlow
from egocli.stream.protocol import error
from egocli.tools.clarifier import yes_no


class Assistant:
    """Routes a live session's requests that are not plain questions."""

    def __init__(self, services: LiveServices, clock: Clock | None = None) -> None:
        self.clock = clock or SystemClock()
        self.talk = Talk(self.clock)
        self.tools = ToolFlow(services, self.talk)
        self.pointing = PointFlow(services, self.talk)
        self.reminders = Announcer(services, self.talk)
        self.poll_s = REMINDER_POLL_S
        self._work: dict[str, set[asyncio.Task[Any]]] = {}

    # ---- hooks ------------------------------------------------------------
    async def handle(self, session: Conversation, text: str, ref: Ref, spoken: bool) -> bool:
        """Take a question if it is a pointing or tool request; False leaves it to the ask core."""
        pending = self.talk.waiting(session)
        if (pending is not None and pending.kind != "confirm"
                and self.clock.monotonic() - pending.since > CLARIFY_TIMEOUT_S):
            self.talk.drop(session, pending)
            pending = None
        if pending is not None and await self._answer_pending(session, pending, text):
            return True
        kind = route(text)
        if kind == "pointing":
            await self.pointing.point(session, text, ref, spoken)
            return True
        if kind == "tools":
            return await self.tools.run(session, text, ref, spoken)
        return False

    async def control(self, session: Conversation, msg: dict[str, Any]) -> None:
        """A client message of the assistant's own types: `confirm` {id, yes} or `reply` {id, text}."""
        if msg["type"] not in ("confirm", "reply"):
            return  # pong and anything else the session passes on without handling
        pending = self.talk.waiting(session)
        if pending is None or pending.id != msg["id"]:
            await session.send(error("stale", f"no question {msg['id']!r} is waiting for an answer", msg["id"]))
            return
        if msg["type"] == "confirm":
            if pending.kind != "confirm":
                await session.send(error("bad_message", "that question needs a reply, not yes/no", msg["id"]))
            elif pending.future is not None and not pending.future.done():
                pending.future.set_result(msg["yes"])
            return
        task = asyncio.ensure_future(self._answer_pending(session, pending, msg["text"].strip()))
        tasks = self._work.setdefault(session.id or "", set())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def watch(self, session: Conversation) -> None:
        """Per-session background work until the session closes: announce due reminders."""
        try:
            while True:
                await self.clock.sleep(self.poll_s)
                await self.reminders.announce_due(session)
        finally:
            self.talk.end(session)
            for task in self._work.pop(session.id or "", set()):
                task.cancel()

    def awaiting(self, session: Conversation) -> bool:
        """True while a confirmation or clarification waits for this session's answer (so the session
        may treat the next utterance as a question even without push-to-talk or the wake phrase)."""
        return self.talk.waiting(session) is not None

    # ---- replies to pending questions ---------------------------------------
    async def _answer_pending(self, session: Conversation, pending: Pending, text: str) -> bool:
        """Use text as the answer to the pending question; False when it is a new request instead."""
        if pending.kind == "confirm":
            answer = yes_no(text)
            if pending.future is not None and not pending.future.done():
                pending.future.set_result(bool(answer))  # anything but a plain yes is a no
            return answer is not None
        self.talk.drop(session, pending)
        if pending.kind == "pointing":
            if route(text) == "pointing":
                return False  # asked again (pointing anew): a fresh resolution
            await self.pointing.reply(session, pending, text)
            return True
        request = f"{pending.request} ({pending.question} {text})"
        await self.tools.run(session, request, pending.ref, pending.spoken, pending.rounds + 1, pending.asked)
        return True
