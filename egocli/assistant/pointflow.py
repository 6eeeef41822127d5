""""What is this?" in a live session: resolve what the user points at on the newest frame, ask
which one when two things compete, and remember the thing as a visual event when asked to."""

from __future__ import annotations

from typing import Any

import numpy as np

from egocli.assistant.routing import MAX_ROUNDS, Conversation, Pending, Ref
from egocli.assistant.services import LiveServices
from egocli.assistant.talk import Talk
from egocli.core.errors import EgoError, InputError
from egocli.perception.image import Frame, to_bgr
from egocli.pointing.resolve import Resolution, choose
from egocli.pointing.service import remember, resolve_frame
from egocli.store import Event
from egocli.stream.protocol import error
from egocli.core.timeutil import format_local, now_ms


class PointFlow:
    """Resolves "this" on a session's newest frame."""

    def __init__(self, services: LiveServices, talk: Talk) -> None:
        self.services, self.talk = services, talk

    async def point(self, session: Conversation, text: str, ref: Ref, spoken: bool) -> None:
        """Resolve "this" on the newest frame: an answer, or a question naming the candidates."""
        frame = session.frame
        if frame is None:
            message = "I can't see anything: no camera frame has arrived yet."
            await session.send(error("no_frame", message, ref))
            await self.talk.say(session, message)
            return
        try:
            image, resolution = await self.services.run("vision", self._resolve, frame, text)
        except (EgoError, ValueError) as ex:
            await session.send(error("pointing", f"cannot resolve what you point at: {ex}", ref))
            return
        if resolution.question is not None:
            options = [{"key": o.key, "text": o.text} for o in resolution.question.options]
            pending = Pending("pointing", self.talk.new_id("k"), resolution.question.question, ref, text, text, spoken,
                              image=image, resolution=resolution, options=options)
            await self.talk.clarify(session, pending)
            return
        await self._answer(session, ref, text, spoken, image, resolution)

    async def reply(self, session: Conversation, pending: Pending, reply: str) -> None:
        """The user's answer to "which one?"."""
        assert pending.resolution is not None and pending.image is not None
        try:
            resolution = choose(pending.resolution, reply)
        except InputError as ex:
            if pending.rounds >= MAX_ROUNDS:
                await self.talk.reply(session, pending.ref, pending.request, f"Sorry, {ex}.", pending.spoken,
                                      "pointing")
                return
            again = Pending("pointing", pending.id, pending.question, pending.ref, pending.request, pending.asked,
                            pending.spoken, pending.rounds + 1, image=pending.image, resolution=pending.resolution,
                            options=pending.options)
            await self.talk.clarify(session, again)
            return
        await self._answer(session, pending.ref, pending.request, pending.spoken, pending.image, resolution)

    async def _answer(self, session: Conversation, ref: Ref, text: str, spoken: bool, image: np.ndarray,
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
                event = await self.services.run("writer", self._remember, session, image, resolution)
            except EgoError as ex:
                said.append(f"I could not remember it: {ex}")
            else:
                said.append("I'll remember it.")
                extra["pointing"]["event_id"] = event.id
                await session.send({"type": "event", "id": event.id, "modality": event.modality,
                                    "content": event.content, "time": format_local(event.start_ms),
                                    "start_ms": event.start_ms})
        await self.talk.reply(session, ref, text, " ".join(said), spoken, "pointing", **extra)

    def _resolve(self, frame: Frame, text: str) -> tuple[np.ndarray, Resolution]:
        """(BGR image, resolution) for a frame (vision thread: the labeler and OCR live there)."""
        image = to_bgr(frame)
        if self.services.redactor is not None:
            image, _ = self.services.redactor.frame(image)  # faces blurred before anything looks or is kept
        return image, resolve_frame(image, self.services.settings, say=text)

    def _remember(self, session: Conversation, image: np.ndarray, resolution: Resolution) -> Event:
        """Store the pointed-at thing as a visual event of the session (writer thread); returns it."""
        store = self.services.store()
        redact = self.services.redactor.event if self.services.redactor is not None else None
        event_id = remember(store, self.services.settings.media_dir, image, resolution, now_ms(),
                            source=f"live-{session.id}", source_id=session.source_id, redact=redact)
        return store.get_event(event_id)
