"""What a live session does besides answering questions from the log: pointing ("what is this?"),
tool requests through the orchestrator (with confirmation and clarification over the control
channel), and announcements of due reminders.

The session calls three hooks: `handle` for every question (True: taken here), `control` for
client messages the session itself does not know, and `watch` as a per-session background task.

Routing is a few regexes, never a model call: a deictic question goes to pointing on the newest
frame, a tool-like request to the orchestrator, anything else to the ask core. The orchestrator
plans on the answer thread; confirmations are asked on the event loop (a `confirm` message, the
question spoken) and the plan runs only afterwards, with exactly the answers the user gave: a
side effect needs an explicit yes from this session's user, and silence past the timeout is a no.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from egocli.errors import EgoError, InputError
from egocli.stream.protocol import error
from egocli.timeutil import format_local, now_ms
from egocli.tools.clarifier import yes_no

if TYPE_CHECKING:
    from egocli.pointing.resolve import Resolution
    from egocli.stream.hub import LiveHub
    from egocli.stream.session import LiveSession
    from egocli.tools.orchestrator import Checked, Orchestrator, Outcome

log = logging.getLogger(__name__)

CONFIRM_TIMEOUT_S = 30.0
"""Seconds to wait for a yes or no; no answer means no."""
CLARIFY_TIMEOUT_S = 120.0
"""A clarification not answered within this long is dropped (the next utterance is a new request)."""
REMINDER_POLL_S = 3.0
"""Seconds between checks for due reminders."""
MAX_ROUNDS = 2
"""Clarifying questions asked for one request before giving up."""

_LEAD = (r"^\W*(?:(?:ok(?:ay)?|so|hey|um+|uh+|please|and|now|well)\W+)*"
         r"(?:(?:can|could|would|will)\s+you\s+)?(?:(?:please|tell\s+me|say)\s+)?")
_DEICTIC = re.compile(_LEAD + r"""(?:
      what(?:'s|\s+is|\s+are|'re)\s+(?:this|that|these|those)
    | what\s+(?:this|that|these|those)\s+(?:is|are)
    | what\s+am\s+i\s+(?:pointing\s+(?:at|to)|looking\s+at|holding)
    | what\s+(?:does|do)\s+(?:this|that|it|these)\s+say
    | read\s+(?:me\s+|out\s+)?(?:this|that|these|it)
    | remember\s+(?:this|that|these)
    | (?:identify|name)\s+(?:this|that)
    | what\s+(?:kind|type)\s+of\s+(?:thing|object)\s+is\s+(?:this|that)
    )\b(?P<rest>.*)$""", re.X | re.I)
_MEMORY_WORDS = frozenset("saw seen heard said did was were yesterday earlier ago before last today morning "
                          "evening afternoon week when".split())
_TOOLISH = re.compile(r"""\b(?:
      remind\s+me | set\s+(?:a\s+|an\s+)?(?:reminder|alarm|timer) | reminders? | to-?do
    | note\s+(?:that|down|this) | (?:add|take|make|save|write|keep)\s+(?:a\s+|this\s+as\s+a\s+)?note | notes
    | remember\s+that\s+\S+\s+\S+
    | mark\s+.{0,40}?\b(?:done|complete|completed|finished)
    | (?:delete|remove|forget|erase)\s+.{0,30}?\bnotes?
    | (?:analy[sz]e|evaluate|look\s+at)\s+.{0,20}?\b(?:board|position|game)
    | chess | fen | best\s+move | what\s+should\s+i\s+play
    | what\s+time\s+is\s+it | what(?:'s|\s+is)\s+the\s+(?:time|date) | what\s+day\s+is\s+(?:it|today)
    | search\s+(?:my\s+|the\s+)?(?:log|lifelog|memory)
    )\b""", re.X | re.I)


def route(text: str) -> str | None:
    """'pointing', 'tools' or None (a question for the ask core), from the words alone."""
    match = _DEICTIC.match(text)
    if match:
        rest = re.findall(r"[a-z]+", match.group("rest").lower())
        if len(rest) <= 3 and not _MEMORY_WORDS.intersection(rest):
            return "pointing"
    return "tools" if _TOOLISH.search(text) else None


@dataclass
class Pending:
    """A question this session's user has to answer before the request goes on."""

    kind: str
    """'confirm' (yes/no before a side effect), 'tools' or 'pointing' (a clarification)."""
    id: str
    """The id sent with the question; the client's confirm/reply carries it."""
    question: str
    """What was asked."""
    ref: Any
    """The id of the ask that started the request."""
    request: str = ""
    """The request as understood so far (tools: with earlier questions and answers)."""
    asked: str = ""
    """The user's words that started it (the answer's `question`)."""
    spoken: bool = False
    """The request was spoken."""
    rounds: int = 1
    """Clarifying questions asked so far for this request."""
    future: asyncio.Future[bool] | None = None
    """Resolved with the user's yes/no (confirm)."""
    image: Any = None
    """The frame the pointing question is about."""
    resolution: Resolution | None = None
    """The ambiguous resolution (pointing)."""
    options: list[dict[str, str]] | None = None
    """The choices named in the question (pointing): [{key, text}]."""
    since: float = field(default_factory=time.monotonic)
    """When it was asked (monotonic seconds)."""


class Assistant:
    """Routes a live session's requests that are not plain questions."""

    def __init__(self, hub: LiveHub) -> None:
        self.hub = hub
        self.confirm_timeout_s = CONFIRM_TIMEOUT_S
        self.poll_s = REMINDER_POLL_S
        self._ids = itertools.count(1)
        self._pending: dict[str, Pending] = {}
        self._work: dict[str, set[asyncio.Task[Any]]] = {}
        self._announced: set[int] = set()

    # ---- hooks ------------------------------------------------------------
    async def handle(self, session: LiveSession, text: str, ref: Any, spoken: bool) -> bool:
        """Take a question if it is a pointing or tool request; False leaves it to the ask core."""
        pending = self._pending.get(session.id or "")
        if pending is not None and pending.kind != "confirm" and time.monotonic() - pending.since > CLARIFY_TIMEOUT_S:
            self._drop(session, pending)
            pending = None
        if pending is not None:
            if await self._answer_pending(session, pending, text):
                return True
        kind = route(text)
        if kind == "pointing":
            await self._point(session, text, ref, spoken)
            return True
        if kind == "tools":
            return await self._tools(session, text, ref, spoken)
        return False

    async def control(self, session: LiveSession, msg: dict[str, Any]) -> None:
        """A client message of the assistant's own types: `confirm` {id, yes} or `reply` {id, text}."""
        if msg["type"] not in ("confirm", "reply"):
            return  # pong and anything else the session passes on without handling
        pending = self._pending.get(session.id or "")
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

    async def watch(self, session: LiveSession) -> None:
        """Per-session background work until the session closes: announce due reminders."""
        try:
            while True:
                await asyncio.sleep(self.poll_s)
                await self._announce_due(session)
        finally:
            pending = self._pending.pop(session.id or "", None)
            if pending is not None and pending.future is not None and not pending.future.done():
                pending.future.set_result(False)
            for task in self._work.pop(session.id or "", set()):
                task.cancel()

    def awaiting(self, session: LiveSession) -> bool:
        """True while a confirmation or clarification waits for this session's answer (so the session
        may treat the next utterance as a question even without push-to-talk or the wake phrase)."""
        return (session.id or "") in self._pending

    # ---- replies to pending questions ---------------------------------------
    async def _answer_pending(self, session: LiveSession, pending: Pending, text: str) -> bool:
        """Use text as the answer to the pending question; False when it is a new request instead."""
        if pending.kind == "confirm":
            answer = yes_no(text)
            if pending.future is not None and not pending.future.done():
                pending.future.set_result(bool(answer))  # anything but a plain yes is a no
            return answer is not None
        self._drop(session, pending)
        if pending.kind == "pointing":
            if route(text) == "pointing":
                return False  # asked again (pointing anew): a fresh resolution
            await self._point_reply(session, pending, text)
            return True
        request = f"{pending.request} ({pending.question} {text})"
        await self._tools(session, request, pending.ref, pending.spoken, pending.rounds + 1, pending.asked)
        return True

    def _drop(self, session: LiveSession, pending: Pending) -> None:
        if self._pending.get(session.id or "") is pending:
            del self._pending[session.id or ""]

    def _new_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids)}"

    # ---- tools --------------------------------------------------------------
    async def _tools(self, session: LiveSession, request: str, ref: Any, spoken: bool, rounds: int = 1,
                     asked: str = "") -> bool:
        """Plan, clarify, confirm, run, reply. False when no tool fits (the ask core answers)."""
        asked = asked or request
        try:
            checked = await self.hub.run("answer", self._check, session, request)
        except EgoError as ex:
            await session.send(error("model", str(ex), ref))
            return True
        if checked.question:
            if rounds > MAX_ROUNDS:
                await self._reply(session, ref, asked, "Sorry, I still don't know what to do.", spoken)
                return True
            pending = Pending("tools", self._new_id("k"), checked.question, ref, request, asked, spoken, rounds)
            await self._clarify(session, pending)
            return True
        if not checked.calls and not checked.rejected:
            if rounds == 1:
                return False
            await self._reply(session, ref, asked, "I have no tool for that.", spoken)
            return True
        answers = []
        if not checked.rejected:  # a plan with a rejected call is aborted without asking
            for tool, args in checked.calls:
                if tool.side_effects and tool.confirm_text is not None:
                    question = tool.confirm_text(args)
                    answers.append((question, await self._confirm(session, question, ref)))
        try:
            outcome = await self.hub.run("answer", self._carry_out, session, request, checked, answers)
        except EgoError as ex:
            await session.send(error("model", str(ex), ref))
            return True
        steps = [{"tool": s.tool, "status": s.status, "summary": s.summary} for s in outcome.steps]
        await self._reply(session, ref, asked, outcome.reply, spoken, tools=steps, status=outcome.status)
        return True

    def _orchestrator(self, session: LiveSession, confirm: Any = None) -> Orchestrator:
        """An orchestrator for the session in the serve allowlist (answer thread)."""
        from egocli.perception.image import to_bgr
        from egocli.tools.orchestrator import Orchestrator, deny
        from egocli.tools.registry import ToolContext

        hub = self.hub

        def camera() -> Any:
            frame = session.frame
            return None if frame is None else to_bgr(frame)

        ctx = ToolContext(hub.store(), hub.settings, "serve", llm_loader=lambda: hub.model("llm"), camera=camera)
        return Orchestrator(hub.model("llm"), ctx, confirm=confirm or deny)

    def _check(self, session: LiveSession, request: str) -> Checked:
        """The validated plan for a request (answer thread)."""
        return self._orchestrator(session).check(request)

    def _carry_out(self, session: LiveSession, request: str, checked: Checked,
                   answers: list[tuple[str, bool]]) -> Outcome:
        """Run a checked plan with the answers the user gave, in order (answer thread)."""
        given = list(answers)

        def confirm(question: str) -> bool:
            for i, (asked, yes) in enumerate(given):
                if asked == question:
                    del given[i]
                    return yes
            return False  # never asked: no

        return self._orchestrator(session, confirm).carry_out(request, checked)

    async def _confirm(self, session: LiveSession, question: str, ref: Any) -> bool:
        """Ask the user yes/no over the control channel and aloud; no answer in time is a no."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        pending = Pending("confirm", self._new_id("c"), question, ref, future=future)
        old = self._pending.get(session.id or "")
        if old is not None and old.future is not None and not old.future.done():
            old.future.set_result(False)
        self._pending[session.id or ""] = pending
        try:
            await session.send({"type": "confirm", "id": pending.id, "ref": ref, "question": question,
                                "timeout_s": self.confirm_timeout_s})
            await self._say(session, question)
            try:
                return bool(await asyncio.wait_for(asyncio.shield(future), self.confirm_timeout_s))
            except asyncio.TimeoutError:
                return False
        finally:
            self._drop(session, pending)

    async def _clarify(self, session: LiveSession, pending: Pending) -> None:
        """Send a clarifying question (and speak it); the next reply or utterance answers it."""
        self._pending[session.id or ""] = pending
        msg: dict[str, Any] = {"type": "clarify", "id": pending.id, "ref": pending.ref, "question": pending.question}
        if pending.options:
            msg["options"] = pending.options
        await session.send(msg)
        await self._say(session, pending.question)

    # ---- pointing -------------------------------------------------------------
    async def _point(self, session: LiveSession, text: str, ref: Any, spoken: bool) -> None:
        """Resolve "this" on the newest frame: an answer, or a question naming the candidates."""
        frame = session.frame
        if frame is None:
            message = "I can't see anything: no camera frame has arrived yet."
            await session.send(error("no_frame", message, ref))
            await self._say(session, message)
            return
        try:
            image, resolution = await self.hub.run("vision", self._resolve, frame, text)
        except (EgoError, ValueError) as ex:
            await session.send(error("pointing", f"cannot resolve what you point at: {ex}", ref))
            return
        if resolution.question is not None:
            options = [{"key": o.key, "text": o.text} for o in resolution.question.options]
            pending = Pending("pointing", self._new_id("k"), resolution.question.question, ref, text, text, spoken,
                              image=image, resolution=resolution, options=options)
            await self._clarify(session, pending)
            return
        await self._point_answer(session, ref, text, spoken, image, resolution)

    async def _point_reply(self, session: LiveSession, pending: Pending, reply: str) -> None:
        from egocli.pointing.resolve import choose

        assert pending.resolution is not None
        try:
            resolution = choose(pending.resolution, reply)
        except InputError as ex:
            if pending.rounds >= MAX_ROUNDS:
                await self._reply(session, pending.ref, pending.request, f"Sorry, {ex}.", pending.spoken, "pointing")
                return
            again = Pending("pointing", pending.id, pending.question, pending.ref, pending.request, pending.asked,
                            pending.spoken, pending.rounds + 1, image=pending.image, resolution=pending.resolution,
                            options=pending.options)
            await self._clarify(session, again)
            return
        await self._point_answer(session, pending.ref, pending.request, pending.spoken, pending.image, resolution)

    async def _point_answer(self, session: LiveSession, ref: Any, text: str, spoken: bool, image: Any,
                            resolution: Resolution) -> None:
        said = [resolution.note] if resolution.note else []
        said.append(resolution.text())
        best = resolution.best
        extra: dict[str, Any] = {"pointing": {"mode": resolution.mode, "intent": resolution.intent,
                                              "kind": best.candidate.kind if best else None,
                                              "box": list(best.candidate.box) if best else None,
                                              "confidence": round(best.score, 3) if best else 0.0}}
        if resolution.intent == "remember" and best is not None:
            try:
                event = await self.hub.run("writer", self._remember, session, image, resolution)
            except EgoError as ex:
                said.append(f"I could not remember it: {ex}")
            else:
                said.append("I'll remember it.")
                extra["pointing"]["event_id"] = event.id
                await session.send({"type": "event", "id": event.id, "modality": event.modality,
                                    "content": event.content, "time": format_local(event.start_ms),
                                    "start_ms": event.start_ms})
        await self._reply(session, ref, text, " ".join(said), spoken, "pointing", **extra)

    def _resolve(self, frame: Any, text: str) -> tuple[Any, Resolution]:
        """(BGR image, resolution) for a frame (vision thread: the labeler and OCR live there)."""
        from egocli.pointing.service import resolve_frame
        from egocli.perception.image import to_bgr

        image = to_bgr(frame)
        if self.hub.redactor is not None:
            image, _ = self.hub.redactor.frame(image)  # faces blurred before anything looks or is kept
        return image, resolve_frame(image, self.hub.settings, say=text)

    def _remember(self, session: LiveSession, image: Any, resolution: Resolution) -> Any:
        """Store the pointed-at thing as a visual event of the session (writer thread); returns it."""
        from egocli.pointing.service import remember

        store = self.hub.store()
        redact = self.hub.redactor.event if self.hub.redactor is not None else None
        event_id = remember(store, self.hub.settings.media_dir, image, resolution, now_ms(),
                            source=f"live-{session.id}", source_id=session.source_id, redact=redact)
        return store.get_event(event_id)

    # ---- reminders ------------------------------------------------------------
    async def _announce_due(self, session: LiveSession) -> None:
        """Announce reminders that are due and not yet announced by this server."""
        try:
            due = await self.hub.run("writer", self._due)
        except EgoError as ex:
            log.warning("due reminders not checked: %s", ex)
            return
        for reminder in due:
            if reminder.id in self._announced:
                continue
            self._announced.add(reminder.id)
            where = f" in {reminder.place}" if reminder.place else ""
            said = f"Reminder: {reminder.text}{where}."
            await session.send({"type": "reminder", "id": reminder.id, "text": reminder.text,
                                "place": reminder.place, "due": format_local(reminder.due_ms),
                                "due_ms": reminder.due_ms, "say": said})
            await self._say(session, said)

    def _due(self) -> list[Any]:
        """Open reminders due now (writer thread)."""
        from egocli.tools import reminders

        return reminders.due(self.hub.store(), now_ms(), window_ms=0)

    # ---- output ---------------------------------------------------------------
    async def _reply(self, session: LiveSession, ref: Any, question: str, text: str, spoken: bool,
                     route: str = "tools", **extra: Any) -> None:
        """An answer message (the same shape as the ask core's; route 'tools' or 'pointing') and its speech."""
        await session.send({"type": "answer", "id": ref, "question": question, "text": text, "citations": [],
                            "spoken": spoken, "interrupted": False, "route": route, **extra})
        await self._say(session, text)

    async def _say(self, session: LiveSession, text: str) -> None:
        try:
            await session.say(text)
        except EgoError as ex:
            log.warning("session %s: not spoken: %s", session.id, ex)
            await session.send(error("model", f"speech failed: {ex}"))
