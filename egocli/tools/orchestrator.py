"""The orchestrator: request -> plan -> (clarify) -> confirm -> execute -> one-sentence reply.

Guardrails: only allowlisted tools; arguments validated against each tool's schema and never
coerced (a mismatch is logged as a `rejected` tool event and the model is told why, once);
every side-effecting call needs a yes from the `confirm` callback, which is the USER's channel
(terminal, control channel, --yes) and never anything the model or the log says; plans run
best-effort: when a call fails, the rest are skipped and the reply says what was done.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from egocli.core.errors import EgoError
from egocli.models.base import Message, TextModel
from egocli.tools import audit, clarifier, planner
from egocli.tools.builtin import REGISTRY
from egocli.tools.registry import Tool, ToolArgumentError, ToolContext, ToolRegistry, validate

log = logging.getLogger(__name__)

Confirm = Callable[[str], bool]
"""Asks the user a yes/no question over the user's own channel; True only on an explicit yes."""


def deny(question: str) -> bool:
    """The default confirmer: no user channel, so nothing with side effects runs."""
    return False


@dataclass
class Step:
    """One planned call and what became of it."""

    tool: str
    """Tool name (as given by the model)."""
    args: Any
    """Arguments (validated, with defaults, when status is not 'rejected')."""
    status: str
    """ok, error, rejected, declined or skipped."""
    summary: str = ""
    """The tool's one-sentence result."""
    data: Any = None
    """The tool's structured result."""
    error: str | None = None
    """Why it failed or was rejected."""
    confirmed: bool | None = None
    """The user's answer for side-effecting calls (None: no confirmation needed)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {"tool": self.tool, "args": self.args, "status": self.status, "summary": self.summary,
                "data": self.data, "error": self.error, "confirmed": self.confirmed}


@dataclass
class Outcome:
    """What the orchestrator did with a request."""

    status: str
    """done, partial, failed, declined, clarify or nothing."""
    reply: str
    """One sentence for the user (the question itself when status is 'clarify')."""
    steps: list[Step] = field(default_factory=list)
    """Every planned call, in order."""
    question: str | None = None
    """The clarifying question, when one is needed."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {"status": self.status, "reply": self.reply, "question": self.question,
                "steps": [s.to_json() for s in self.steps]}


@dataclass
class Checked:
    """A plan after validation: runnable calls, or a question, plus what was rejected."""

    calls: list[tuple[Tool, dict[str, Any]]] = field(default_factory=list)
    """Validated calls, in order."""
    question: str | None = None
    """A clarifying question (from the clarifier or the model)."""
    rejected: list[Step] = field(default_factory=list)
    """Calls rejected in the final round (unknown tool, bad arguments)."""


class Orchestrator:
    """Plans and runs tool calls for natural-language requests in one context (cli, serve, mcp)."""

    def __init__(self, llm: TextModel, ctx: ToolContext, confirm: Confirm = deny, writes: bool = True,
                 registry: ToolRegistry = REGISTRY, repairs: int = 1) -> None:
        self.llm = llm
        self.ctx = ctx
        self.confirm = confirm
        self.registry = registry
        self.repairs = repairs
        self.tools = registry.allowed(ctx.context, writes)
        self.writes = writes
        self.system = planner.system_prompt(self.tools)

    def check(self, request: str) -> Checked:
        """Plan a request and validate the plan (with one repair round); runs nothing with effects."""
        question = clarifier.precheck(request)
        if question:
            return Checked(question=question)
        messages: list[Message] = [{"role": "system", "content": self.system},
                                   {"role": "user", "content": planner.user_turn(request, self.ctx.now())}]
        for attempt in range(self.repairs + 1):
            plan = planner.generate_plan(self.llm, messages, self.tools)
            if plan.clarify:
                return Checked(question=plan.clarify)
            checked = self._validate(request, plan)
            if not checked.rejected or attempt == self.repairs:
                return checked
            why = "; ".join(s.error or "" for s in checked.rejected)
            messages += [{"role": "assistant", "content": plan.raw},
                         {"role": "user", "content": f"Rejected: {why}. Reply with a corrected plan."}]
        return Checked()

    def _validate(self, request: str, plan: planner.Plan) -> Checked:
        out = Checked()
        for call in plan.calls:
            try:
                tool = self.registry.resolve(call.tool, self.ctx.context, self.writes)
                args = clarifier.normalise(request, tool.name, validate(tool, call.args))
            except ToolArgumentError as ex:
                step = Step(str(call.tool), call.args, "rejected", error=str(ex))
                self._record(step, request)
                out.rejected.append(step)
                continue
            question = clarifier.postcheck(request, tool.name, args)
            if question:
                return Checked(question=question, rejected=out.rejected)
            out.calls.append((tool, args))
        return out

    def run(self, request: str) -> Outcome:
        """Handle one request end to end; every call lands in the log as a `tool` event."""
        return self.carry_out(request, self.check(request))

    def carry_out(self, request: str, checked: Checked) -> Outcome:
        """Confirm and run a checked plan (a live session asks the user between check and this)."""
        if checked.question:
            return Outcome("clarify", checked.question, checked.rejected, checked.question)
        if not checked.calls and not checked.rejected:
            return Outcome("nothing", "I have no tool for that.")
        steps = [Step(tool.name, args, "pending") for tool, args in checked.calls]
        if checked.rejected:  # an invalid call aborts the plan: nothing in it runs or is asked about
            for step in steps:
                self._finish(step, "skipped", request, error="the plan had a rejected call")
            return self._outcome(checked.rejected + steps)
        approved = [self._approve(tool, args, step) for (tool, args), step in zip(checked.calls, steps)]
        failed = False
        for (tool, args), step, ok in zip(checked.calls, steps, approved):
            if failed:
                self._finish(step, "skipped", request, error="an earlier call failed")
            elif not ok:
                self._finish(step, "declined", request, error="not confirmed by the user")
            else:
                failed = not self._execute(tool, args, step, request)
        return self._outcome(steps)

    def _approve(self, tool: Tool, args: dict[str, Any], step: Step) -> bool:
        """Ask the user (only for side effects); the answer comes from the confirm callback alone."""
        if not tool.side_effects:
            return True
        assert tool.confirm_text is not None
        step.confirmed = bool(self.confirm(tool.confirm_text(args)))
        return step.confirmed

    def _execute(self, tool: Tool, args: dict[str, Any], step: Step, request: str) -> bool:
        return execute(self.ctx, tool, args, step, request)

    def _finish(self, step: Step, status: str, request: str, error: str | None = None) -> None:
        finish(self.ctx, step, status, request, error)

    def _record(self, step: Step, request: str) -> None:
        record(self.ctx, step, request)

    @staticmethod
    def _outcome(steps: list[Step]) -> Outcome:
        return Outcome(_status(steps), compose_reply(steps), steps)


def execute(ctx: ToolContext, tool: Tool, args: dict[str, Any], step: Step, request: str | None,
            audited: bool = True) -> bool:
    """Run one validated call, filling in (and unless audited is False, recording) the step; False when it failed."""
    try:
        result = tool.func(ctx, **args)
    except EgoError as ex:
        finish(ctx, step, "error", request, error=str(ex), audited=audited)
        return False
    except Exception as ex:  # a tool bug must not take the session down; it is logged and reported
        log.debug("tool %s crashed", tool.name, exc_info=True)
        finish(ctx, step, "error", request, error=f"{type(ex).__name__}: {ex}", audited=audited)
        return False
    step.summary, step.data = result.summary, result.data
    finish(ctx, step, "ok", request, audited=audited)
    return True


def finish(ctx: ToolContext, step: Step, status: str, request: str | None, error: str | None = None,
           audited: bool = True) -> None:
    """Set a step's final status and record it (unless audited is False)."""
    step.status, step.error = status, error
    if audited:
        record(ctx, step, request)
    else:
        log.debug("tool %.80s (not audited): %s %.200s", step.tool, status, error or "")


def record(ctx: ToolContext, step: Step, request: str | None) -> None:
    """Append the step to the audit table (not the events: audit rows are not memories)."""
    audit.record(ctx.store, ctx.now(), step.tool, step.args, step.status, context=ctx.context,
                 summary=step.summary, error=step.error, confirmed=step.confirmed,
                 result=_compact(step.data), request=request)


def call_tool(ctx: ToolContext, name: Any, args: Any, writes: bool = False,
              registry: ToolRegistry = REGISTRY) -> Step:
    """One direct call (MCP): allowlist, strict validation and execution, no model involved.

    Side-effecting tools run only when `writes` is True: the user's own pre-approval (a flag).
    Only calls to such tools are audited, whether they ran or were refused; a read-only
    call (or one naming no tool) leaves the log as it was, so a client's searches never grow it."""
    known = registry.tools.get(name) if isinstance(name, str) else None
    audited = known is not None and known.side_effects
    try:
        tool = registry.resolve(name, ctx.context, writes)
        valid = validate(tool, args if args is not None else {})
    except ToolArgumentError as ex:
        step = Step(str(name), args, "pending")
        finish(ctx, step, "rejected", None, error=str(ex), audited=audited)
        return step
    step = Step(tool.name, valid, "pending", confirmed=True if tool.side_effects else None)
    execute(ctx, tool, valid, step, None, audited=audited)
    return step


def _compact(data: Any, limit: int = 4000) -> Any:
    """The result as stored in the audit event (large results are truncated)."""
    text = json.dumps(data, ensure_ascii=False, default=str)
    return data if len(text) <= limit else text[:limit] + "…"


def _status(steps: list[Step]) -> str:
    kinds = {s.status for s in steps}
    if kinds == {"ok"}:
        return "done"
    if "ok" in kinds:
        return "partial"
    if kinds == {"declined"}:
        return "declined"
    return "failed"


def compose_reply(steps: list[Step]) -> str:
    """The reply: what was done, what failed and why, what was skipped or declined."""
    parts = [s.summary for s in steps if s.status == "ok"]
    for s in steps:
        if s.status in ("error", "rejected"):
            parts.append(f"{s.tool} failed: {s.error}.")
    declined = [s.tool for s in steps if s.status == "declined"]
    skipped = [s.tool for s in steps if s.status == "skipped"]
    if declined:
        parts.append(f"Not done without your confirmation: {', '.join(declined)}.")
    if skipped:
        parts.append(f"Skipped: {', '.join(skipped)}.")
    return " ".join(parts) or "Nothing was done."
