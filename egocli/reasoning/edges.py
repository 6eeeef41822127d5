"""The last and the first time something was done: 'when did I last take my tablets?', 'what time did I first
go out?'. The occurrences are temporal.py's; an act the lines found only resemble (a likeness of meaning, or the
thing named with no act of it: 'hearing aid batteries put in a drawer' for 'when did I get the batteries') is
said as the closest line, not as the act done ('I can't tell for sure; the closest I can find is ...')."""

from __future__ import annotations

from egocli.reasoning import actions, happened, temporal, voice
from egocli.reasoning.plan import Asked, Finding, QuestionPlan
from egocli.store import Event


def last(asked: Asked, plan: QuestionPlan) -> Finding:
    """'When did I last X?': the last occurrence's last event."""
    matcher, found = temporal.found_for(asked, plan.action)
    if not found:
        return temporal.nothing(matcher, "last", plan.action, asked.stamp)
    backdrop = actions.backdrop(found)
    done = actions.own_doing(found)
    ev = temporal.times_of(matcher, [e for e in done if e.content not in backdrop] or done, plan.action)[-1][-1]
    when = asked.stamp(ev.start_ms, ev.source_id)
    if happened.resembles_only(matcher, plan.action, [[ev]]):
        return _closest("last", plan.action, when, ev)
    return Finding("last", voice.did("last", plan.action, when, ev.content), (ev,),
                   f"{plan.action}: last at {when}: {ev.content}")


def first(asked: Asked, plan: QuestionPlan) -> Finding:
    """'When did I first X?': the first occurrence's first event."""
    matcher, found = temporal.found_for(asked, plan.action)
    if not found:
        return temporal.nothing(matcher, "first", plan.action, asked.stamp)
    ev = temporal.times_of(matcher, found, plan.action)[0][0]
    when = asked.stamp(ev.start_ms, ev.source_id)
    if happened.resembles_only(matcher, plan.action, [[ev]]):
        return _closest("first", plan.action, when, ev)
    return Finding("first", voice.did("first", plan.action, when, ev.content), (ev,),
                   f"{plan.action}: first at {when}: {ev.content}")


def _closest(form: str, phrase: str, when: str, ev: Event) -> Finding:
    return Finding(form, f"I can't tell for sure; the closest I can find is {when}: {ev.content}.", (ev,),
                   f"no line says {phrase} as such; the closest, {when}: {ev.content}", False)
