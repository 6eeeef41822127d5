"""The registry of question forms: each form's slots, how it computes its answer from the store, how it is
said canonically, and whether live sessions send it to the checked answer (fastpath.py holds the patterns that
read a plan straight from the usual phrasings).

A question becomes a `QuestionPlan` (understand.py: the fast path's rules, else the model under a grammar whose only
outputs are plans of these forms); `compute` runs the plan's form. Adding a form is one entry in FORMS (and
its computation in the module that owns it); a pattern for it in fastpath.py is optional, the model reads the
rest."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from egocli.reasoning import checking, debts, digest, edges, guests, kinds, lost, meals, medicines, moments, money, outcomes, said, sequence, temporal, travel
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.scope import DAY_PARTS, Scope, within_part
from egocli.reasoning.temporal import Finding


@dataclass(frozen=True)
class Form:
    """One kind of question the log answers in code."""

    name: str
    """The name plans carry ('last')."""
    asks: str
    """What it asks, in a few words (the model's list of forms)."""
    slots: tuple[str, ...]
    """The plan's slots it reads, in order: 'action', 'other', 'relation'."""
    compute: Callable[[Asked, QuestionPlan], Finding | None]
    """The answer from the store (None: nothing computed, the model reads the context instead)."""
    say: str
    """The plan said canonically ('When did I last {action}?'), for --explain and the model's examples."""
    live: bool = True
    """Whether a live session sends it to the checked answer (else the live window answers)."""
    latest_day: bool = False
    """Whether a part of the day its action names means the latest one ('did I take my evening tablet?': this
    evening) rather than that part of every day ('when did I last take my evening tablet?')."""
    phrased: bool = True
    """Whether the model may put its finding in its own words (checked: the same yes or no, no time, number or
    name that is not in the facts); a finding that quotes or lists several lines of the log (what was said, a
    day's events) is given as computed: a retelling of several lines is where a small model adds what never
    happened (one line it may still phrase)."""


FORMS: tuple[Form, ...] = (
    Form("last", "when something was last done", ("action",), travel.last, "When did I last {action}?"),
    Form("first", "when something was first done", ("action",), edges.first, "When did I first {action}?"),
    Form("count", "how many times something was done", ("action",), travel.count,
         "How many times did I {action}?"),
    Form("duration", "how long the last time of something took", ("action",), travel.duration,
         "How long did I {action}?"),
    Form("spent", "how much time went on something in all", ("action",), temporal.spent,
         "How much time did I spend {action}?"),
    Form("stay", "how long a visit or a visitor lasted", ("action",), travel.stay, "How long was {action}?"),
    Form("where", "where a thing is or was left", ("action",), temporal.where, "Where did I put {action}?"),
    Form("found", "where a lost thing turned up (where did I find my badge in the end, where did the case turn up)",
         ("action",), lost.found, "Where did I find {action} in the end?", phrased=False),
    Form("looked", "where the user looked for a lost thing", ("action",),
         lost.looked, "Where did I look for {action}?", phrased=False),
    Form("ago", "how long ago something was done", ("action",), moments.ago, "How long ago did I {action}?"),
    Form("next", "what was done right after or before something", ("relation", "action"), sequence.after,
         "What did I do {relation} I {action}?", phrased=False),
    Form("order", "whether one thing was done before or after another", ("action", "relation", "other"),
         sequence.order, "Did I {action} {relation} I {other}?"),
    Form("which", "which of two things was done first or last", ("relation", "action", "other"), moments.which,
         "Which did I do {relation}, {action} or {other}?"),
    Form("gap", "how long between two things", ("relation", "action", "other"), moments.gap,
         "How long {relation} {action} did I {other}?"),
    Form("edge", "the first or last thing done in a stretch of time", ("relation",), moments.edge,
         "What was the {relation} thing I did?", phrased=False),
    Form("during", "what else went on while something was done", ("action",), moments.during,
         "What was I doing when I {action}?", phrased=False),
    Form("at", "what went on at a clock time", (), moments.at, "What was I doing then?", phrased=False),
    Form("exists", "whether something was done at all", ("action",), moments.exists, "Did I {action}?",
         latest_day=True),
    Form("list", "what was done with a verb (what did I buy)", ("action", "relation"), moments.listing,
         "What did I {action}?", live=False, phrased=False),
    Form("amount", "how much was paid or how much something cost", ("action",), digest.amount,
         "How much did I pay {action}?"),
    Form("said", "what a person said, asked or told (action: who; other: about what)", ("action", "other"),
         said.said, "What did {action} say about {other}?", live=False, phrased=False),
    Form("guest", "when someone else came or left, or how long they stayed (action: who; relation: arrive, leave "
         "or stay)", ("action", "relation"), guests.guest, "When did {action} {relation}?"),
    Form("money", "whether, when or how much someone paid the user (relation: in; 'in:cash' for paid in cash) or "
         "the user paid them (relation: out); action: who; other: what for, if said", ("action", "relation", "other"),
         money.between,
         "Has {action} paid me?"),
    Form("owed", "who owes whom and how much (relation: out, the user owes them; in, they owe the user; lent, whether "
         "the user lent them money); action: who, or '' for anyone", ("action", "relation"), debts.owed, "How much do I owe {action}?"),
    Form("travel", "how the user got somewhere (action: where to, or 'home from' where)", ("action",), travel.trip,
         "How did I get {action}?"),
    Form("meal", "what or when a meal was eaten (action: breakfast, lunch, dinner, tea or supper)", ("action",),
         meals.meal, "What did I have for {action}?"),
    Form("outcome", "how something turned out (who won the quiz, how did the MOT go); action: the occasion",
         ("action",), outcomes.outcome,
         "How did {action} turn out?", phrased=False),
    Form("name", "what a medicine or a person of the user's is called (what's my insulin called, who is my physio)",
         ("action",), medicines.name, "What is {action} called?", phrased=False),
    Form("planned", "a plan or appointment for a coming day (when am I seeing Anna, what is on next week)",
         ("action",), said.planned, "What is planned: {action}?", phrased=False),
    Form("check", "whether a plan or a thing believed still holds, yes or no (is the MOT still at 8:30 tomorrow, "
         "is Lily coming with Karen, am I picking Kai up); action: the claim", ("action",), checking.check,
         "Is it still so: {action}?", phrased=False),
    Form("changes", "how many times a plan was changed, and when (how many times did Jo change the plan); action: who "
         "and what", ("action",), checking.changes, "How many times did {action} change?", phrased=False),
    Form("why", "why a plan changed or something happened, as said (why can't Karen come on Saturday); action: what",
         ("action",), checking.why, "Why {action}?", phrased=False),
    Form("digest", "what a stretch of time held (what did I do this afternoon, how was my day); action: a place "
         "the stretch was spent at, if named", ("action",), digest.digest, "What did I do {action}?",
         phrased=False),
)
_BY_NAME = {form.name: form for form in FORMS}


def form_named(name: str) -> Form:
    """The registered form of that name (KeyError for an unknown one)."""
    return _BY_NAME[name]


def phrases(plan: QuestionPlan) -> tuple[str, ...]:
    """The slots a plan's form reads, in the form's declared order."""
    return tuple(getattr(plan, slot) for slot in form_named(plan.form).slots)


def compute(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """The finding for a plan: its form's computation (over the part of the day its action names, 'did I take
    my evening tablet', when it names one)."""
    form = form_named(plan.form)
    part = _PART.search(plan.action)
    if part and not asked.scope.future and not asked.scope.moments:
        scope = within_part(asked.scope, part.group(1), form.latest_day)
        asked = Asked(asked.store, scope, asked.embedder, asked.question)
    return form.compute(asked, plan)


_PART = re.compile(r"\b(" + "|".join(DAY_PARTS) + r")\b")
"""A part of the day named in an action ('my evening tablet'): the lexicon's parts of the day."""
