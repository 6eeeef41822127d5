"""Tool requests of a live session: the orchestrator plans on the answer thread; confirmations are
asked on the event loop (a `confirm` message, the question spoken) and the plan runs only afterwards,
with exactly the answers the user gave: a side effect needs an explicit yes from this session's
user, and silence past the timeout is a no."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from egocli.assistant.routing import MAX_ROUNDS, Conversation, Pending, Ref
from egocli.assistant.services import LiveServices
from egocli.assistant.talk import Talk
from egocli.core.errors import EgoError
from egocli.perception.image import to_bgr
from egocli.stream.protocol import error
from egocli.tools.orchestrator import Checked, Orchestrator, Outcome, deny
from egocli.tools.registry import ToolContext


class ToolFlow:
    """Plan, clarify, confirm, run, reply."""

    def __init__(self, services: LiveServices, talk: Talk) -> None:
        self.services, self.talk = services, talk

    async def run(self, session: Conversation, request: str, ref: Ref, spoken: bool, rounds: int = 1,
                  asked: str = "") -> bool:
        """Carry out a request; False when no tool fits (the ask core answers)."""
        asked = asked or request
        try:
            checked = await self.services.run("answer", self._check, session, request)
        except EgoError as ex:
            await session.send(error("model", str(ex), ref))
            return True
        if checked.question:
            if rounds > MAX_ROUNDS:
                await self.talk.reply(session, ref, asked, "Sorry, I still don't know what to do.", spoken)
                return True
            pending = Pending("tools", self.talk.new_id("k"), checked.question, ref, request, asked, spoken, rounds)
            await self.talk.clarify(session, pending)
            return True
        if not checked.calls and not checked.rejected:
            if rounds == 1:
                return False
            await self.talk.reply(session, ref, asked, "I have no tool for that.", spoken)
            return True
        answers = []
        if not checked.rejected:  # a plan with a rejected call is aborted without asking
            for tool, args in checked.calls:
                if tool.side_effects and tool.confirm_text is not None:
                    question = tool.confirm_text(args)
                    answers.append((question, await self.talk.confirm(session, question, ref)))
        try:
            outcome = await self.services.run("answer", self._carry_out, session, request, checked, answers)
        except EgoError as ex:
            await session.send(error("model", str(ex), ref))
            return True
        steps = [{"tool": s.tool, "status": s.status, "summary": s.summary} for s in outcome.steps]
        await self.talk.reply(session, ref, asked, outcome.reply, spoken, tools=steps, status=outcome.status)
        return True

    def _orchestrator(self, session: Conversation, confirm: Callable[[str], bool] = deny) -> Orchestrator:
        """An orchestrator for the session in the serve allowlist (answer thread)."""
        services = self.services

        def camera() -> np.ndarray | None:
            frame = session.frame
            return None if frame is None else to_bgr(frame)

        ctx = ToolContext(services.store(), services.settings, "serve", llm_loader=services.llm, camera=camera)
        return Orchestrator(services.llm(), ctx, confirm=confirm)

    def _check(self, session: Conversation, request: str) -> Checked:
        """The validated plan for a request (answer thread)."""
        return self._orchestrator(session).check(request)

    def _carry_out(self, session: Conversation, request: str, checked: Checked,
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
