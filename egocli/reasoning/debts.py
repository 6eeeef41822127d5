"""Who owes whom: 'how much do I owe Owen?', 'who do I owe money to?', 'how much does Marcus owe me?', 'who still
owes me?'. A debt is said: a note of the wearer's ('owe Karen £15 for the art set', 'Marcus owes 62.20'), someone
claiming it ('Owen: you still owe me thirty quid') or owning up to it ('Niamh: ... what I owe you'), someone
paying for the wearer ('Stan: I paid him for you'), a promise to pay ('Marcus: I'll do mine Monday'); the wearer's
own words ('I owe you five quid', 'I'll give it you on Sunday') are to whoever spoke last. A debt is settled by a
transfer the same way after it (money.py). The cues are the lexicon's ([money.debts])."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from egocli.core.lexicon import lexicon
from egocli.reasoning import money, retrieval, terms
from egocli.reasoning.digest import amounts, in_digits
from egocli.reasoning.guests import people
from egocli.reasoning.plan import Asked, Finding, QuestionPlan
from egocli.reasoning.scope import Scope
from egocli.store import Event

ANY = r"(?: (?:any )?money| anything)?"
FOR = r"(?: for [\w' ]+?)?"
"""Words of a debt question's pattern (fastpath.py) that name no one: 'any money', 'for the electric'."""


def plan(way: str) -> Callable[[tuple[str, ...], Scope | None], QuestionPlan]:
    """The plan of a debt question's pattern: who (its first group, else anyone) and which way ('out': the wearer
    owes them; 'in': they owe the wearer)."""
    return lambda groups, scope: QuestionPlan("owed", groups[0] if groups else "", relation=way)


def _money(text: str) -> str:
    """The last amount a line names: a share said after the total ('£186.60 for the quarter. £62.20 each')."""
    said = amounts(text)
    return said[-1] if said else ""


_CUES = {name: re.compile(pattern) for name, pattern in lexicon().money["debts"].items()}
SPOKEN_TO_MS = 3 * 60_000
"""The wearer's words are to whoever spoke this soon before them."""
AMOUNT_BEFORE_MS = 10 * 60_000
"""A debt said with no amount ('I'll do mine Monday') is the amount said in the reply within
SPOKEN_TO_MS ('Ten pound, right'), else the latest named this soon before it."""


@dataclass(frozen=True)
class Debt:
    """Money one side says it owes the other."""

    debtor: str
    """Who owes: 'me' or a name as written."""
    creditor: str
    """Who is owed: 'me' or a name as written."""
    ev: Event
    """The line that says it."""
    amount: str
    """How much, as said ('thirty quid'), or ''."""


def debt(ev: Event, spoke: str) -> tuple[str, str] | None:
    """(debtor, creditor) a line says, one of them 'me'; `spoke` is who spoke last before a line of the wearer's."""
    who = terms.speaker(ev.content)
    text = ev.content
    if not who and ev.modality in ("note", "text") and not text.lower().startswith("me:"):
        if m := _CUES["i_owe_name"].search(text):
            return "me", m.group(1)
        if m := _CUES["name_owes"].search(text):
            return m.group(1), "me"
    if who:
        if _CUES["they_are_owed"].search(text):
            return "me", who
        if _CUES["they_owe"].search(text):
            return who, "me"
    elif spoke and ev.modality == "speech" and not text.startswith("("):  # the wearer's words, not a radio's
        if _CUES["i_owe_you"].search(text):
            return "me", spoke
        if _CUES["you_owe_me"].search(text):
            return spoke, "me"
    return None


def debts(asked: Asked, settled: bool = False) -> list[Debt]:
    """Every debt said in the scope, oldest first, with the ones settled since left out (kept when `settled`)."""
    every = retrieval.lines(asked.store, asked.scope)
    speakers = money.speakers(every)
    out: list[Debt] = []
    spoke, spoke_at = "", 0
    for i, ev in enumerate(every):
        said = debt(ev, spoke if ev.start_ms - spoke_at <= SPOKEN_TO_MS else "")
        if (who := terms.speaker(ev.content)) and who.lower() not in ("me",):
            spoke, spoke_at = who, ev.start_ms
        if said is None:
            continue
        amount = _money(ev.content) or next((_money(e.content) for e in [*(n for n in every[i + 1:i + 4] if n.modality == "speech"), *reversed(every[:i])]
                                             if -SPOKEN_TO_MS <= ev.start_ms - e.start_ms <= AMOUNT_BEFORE_MS
                                             and _money(e.content)), "")
        other = said[0] if said[1] == "me" else said[1]
        names = money.names_of(other)
        initials = money.initials_of(names, speakers)
        way = "in" if said[1] == "me" else "out"
        later = [e for e in every[i + 1:] if money.direction(e, names, initials) == way]
        if settled or not later:
            out.append(Debt(said[0], said[1], ev, in_digits(amount) if amount else ""))
    return out


def owed(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """What is still owed between the wearer and someone (relation 'out': the wearer owes them; 'in': they owe
    the wearer), or by or to anyone when no one is named."""
    way = plan.relation or "out"
    if way == "lent":
        return lent(asked, plan)
    found = [d for d in debts(asked) if (d.debtor == "me") == (way == "out")]
    if plan.action:
        names = [n for p in people(plan.action) for n in money.names_of(p)]
        found = [d for d in found if terms.words(d.creditor if way == "out" else d.debtor)[:1]
                 and any(n in terms.words(d.creditor if way == "out" else d.debtor) for n in names)]
    if not found:
        whom = plan.action.strip() or "anyone"
        text = f"I can't see you owing {whom} anything" if way == "out" else f"I can't see {whom} owing you anything"
        return Finding("owed", f"{text}.", (), f"no debt said, or all settled: {text}", False)
    by: dict[str, Debt] = {}
    for d in found:  # the latest said of each person, with an amount when one was said
        key = (d.creditor if way == "out" else d.debtor).lower()
        if key not in by or d.amount or not by[key].amount:
            by[key] = d
    parts = [f"{(d.creditor if way == 'out' else d.debtor)}{', ' + d.amount if d.amount else ''} "
             f"({asked.stamp(d.ev.start_ms, d.ev.source_id)}: {d.ev.content})" for d in by.values()]
    lead = "You owe" if way == "out" else "Owing you:"
    return Finding("owed", f"{lead} {'; '.join(parts)}.", tuple(d.ev for d in by.values()),
                   f"{lead} {'; '.join(parts)}")


def lent(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """'Did I lend Liam some money?': yes when he was said to owe the wearer (settled since or not: 'Liam owes me
    £20 - paying back Friday') or the wearer was seen or noted lending to him ('lent Kieran £20'); else no, with the
    latest line about money with him."""
    who = [n for p in people(plan.action) for n in money.names_of(p)]
    if not who:
        return None
    told = plan.action.strip().title()
    said = [d.ev for d in debts(asked, settled=True) if d.creditor == "me" and
            any(n in terms.words(d.debtor) for n in who)]
    every = retrieval.lines(asked.store, asked.scope)
    said += [e for e in every if money.direction(e, who) == "out" and "lent" in terms.words(e.content)]
    if said:
        ev = max(said, key=lambda e: e.start_ms)
        when = asked.stamp(ev.start_ms, ev.source_id)
        return Finding("owed", f"Yes: {when}: {ev.content}.", (ev,), f"{told} owes or owed the wearer: {when}: "
                       f"{ev.content}")
    last = next((e for e in reversed(every) if money.money_said(e.content) and money.about(e.content, who)), None)
    if last is None:
        return Finding("owed", f"No: I can't see you lending {told} money.", (), f"no debt of {told}'s said", False)
    when = asked.stamp(last.start_ms, last.source_id)
    return Finding("owed", f"Not that I can see; the last about money with {told}, {when}: {last.content}.", (last,),
                   f"no lending to {told} seen; the latest line about money with them: {when}: {last.content}", False)


PATTERNS: tuple[tuple[str, str, Callable[[tuple[str, ...], Scope | None], QuestionPlan]], ...] = (
    ("owed", rf"^(?:who|which people) do (?:i|we) (?:still )?owe{ANY}(?: to)?{FOR}", plan("out")),
    ("owed", rf"^do (?:i|we) (?:still )?owe (?:anyone|anybody|someone|somebody){ANY}", plan("out")),
    ("owed", rf"^(?:who|does (?:anyone|anybody)) (?:still )?owes? (?:me|us){ANY}{FOR}", plan("in")),
    ("owed", rf"^(?:how much|what) do (?:i|we) (?:still )?owe {money.WHO}{FOR}", plan("out")),
    ("owed", rf"^(?:how much|what) does {money.WHO} (?:still )?owe (?:me|us){FOR}", plan("in")),
    ("owed", rf"^(?:have|has|did) (?:i|we) (?:lend|lent|loan|loaned) {money.WHO}(?: some| any)?(?: money| cash| "
             rf"{money.SUM})?{FOR}", plan("lent")),
)
"""The usual phrasings of the owed form, (form, pattern, plan), for fastpath.py's rules."""
