"""The assistant's side of a conversation: questions it asks back (one pending per session),
yes/no confirmations with a timeout, clarifications, and its replies, sent and spoken."""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

from egocli.assistant.routing import CONFIRM_TIMEOUT_S, Conversation, Pending, Ref
from egocli.core.clock import Clock
from egocli.core.errors import EgoError
from egocli.stream.protocol import error

log = logging.getLogger(__name__)


class Talk:
    """Pending questions by session, and how the assistant asks and answers."""

    def __init__(self, clock: Clock, confirm_timeout_s: float = CONFIRM_TIMEOUT_S) -> None:
        self.clock, self.confirm_timeout_s = clock, confirm_timeout_s
        self._ids = itertools.count(1)
        self.pending: dict[str, Pending] = {}
        """The question waiting for each session's answer."""

    def new_id(self, prefix: str) -> str:
        """A fresh id for a question sent to a client."""
        return f"{prefix}{next(self._ids)}"

    def waiting(self, session: Conversation) -> Pending | None:
        """The question this session's user has not answered yet."""
        return self.pending.get(session.id or "")

    def drop(self, session: Conversation, pending: Pending) -> None:
        """Forget a pending question (answered, replaced or timed out)."""
        if self.pending.get(session.id or "") is pending:
            del self.pending[session.id or ""]

    def end(self, session: Conversation) -> None:
        """The session closed: a confirmation still waiting is a no."""
        pending = self.pending.pop(session.id or "", None)
        if pending is not None and pending.future is not None and not pending.future.done():
            pending.future.set_result(False)

    async def confirm(self, session: Conversation, question: str, ref: Ref) -> bool:
        """Ask the user yes/no over the control channel and aloud; no answer in time is a no."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        pending = Pending("confirm", self.new_id("c"), question, ref, future=future, since=self.clock.monotonic())
        old = self.waiting(session)
        if old is not None and old.future is not None and not old.future.done():
            old.future.set_result(False)
        self.pending[session.id or ""] = pending
        try:
            await session.send({"type": "confirm", "id": pending.id, "ref": ref, "question": question,
                                "timeout_s": self.confirm_timeout_s})
            await self.say(session, question)
            try:
                return bool(await asyncio.wait_for(asyncio.shield(future), self.confirm_timeout_s))
            except asyncio.TimeoutError:
                return False
        finally:
            self.drop(session, pending)

    async def clarify(self, session: Conversation, pending: Pending) -> None:
        """Send a clarifying question (and speak it); the next reply or utterance answers it."""
        pending.since = self.clock.monotonic()
        self.pending[session.id or ""] = pending
        msg: dict[str, Any] = {"type": "clarify", "id": pending.id, "ref": pending.ref, "question": pending.question}
        if pending.options:
            msg["options"] = pending.options
        await session.send(msg)
        await self.say(session, pending.question)

    async def reply(self, session: Conversation, ref: Ref, question: str, text: str, spoken: bool,
                    route: str = "tools", **extra: Any) -> None:
        """An answer message (the same shape as the ask core's; route 'tools' or 'pointing') and its speech."""
        await session.send({"type": "answer", "id": ref, "question": question, "text": text, "citations": [],
                            "spoken": spoken, "interrupted": False, "route": route, **extra})
        await self.say(session, text)

    async def say(self, session: Conversation, text: str) -> None:
        """Speak a text on the session; a speech failure is reported, not raised."""
        try:
            await session.say(text)
        except EgoError as ex:
            log.warning("session %s: not spoken: %s", session.id, ex)
            await session.send(error("model", f"speech failed: {ex}"))
