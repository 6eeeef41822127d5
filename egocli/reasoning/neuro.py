"""The neuro-symbolic step of `ask`, between context assembly and the model: options scored from their own
evidence (symbolic.py), open questions understood as a plan (understand.py) and computed by the registry's forms (forms.py), and the model asked
only for what code cannot do (votes when the evidence is not clear; phrasing a computed finding)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from egocli.models.base import Embedder, TextModel
from egocli.core.lexicon import lexicon
from egocli.reasoning import forms, symbolic, temporal, terms, verdict
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.understand import Parser, by_model, understand
from egocli.reasoning.answer import ANSWER_MARK, split_open
from egocli.reasoning.scope import Scope
from egocli.reasoning.tcot import Renderer, approx_tokens
from egocli.store import Store

PHRASE_SYSTEM = ("You turn facts computed from the user's life log into one short, natural answer. "
                 "Use only the facts given; keep every time and number exactly as written. Speak to the user as "
                 "'you'.")


@dataclass(frozen=True)
class Checked:
    """What the symbolic part found before the model runs."""

    judgement: symbolic.Judgement | None
    """Per-option scores and evidence (multiple choice)."""
    finding: temporal.Finding | None
    """The computed answer to an open question of a known form."""
    plan: QuestionPlan | None = None
    """How the open question was understood (None for multiple choice)."""
    block: str = ""
    """What it adds to the model's context."""

    @property
    def tokens(self) -> int:
        """Estimated tokens of the block."""
        return approx_tokens(self.block) + 4 if self.block else 0


def check(store: Store, scope: Scope, question: str, choices: Sequence[str],
          embedder: Embedder | None, parser: Parser | None = None) -> Checked | None:
    """Score the options, or compute the open question's finding from its plan (the fast path's, else the
    parser's when given); None: an open question of no known form."""
    renderer = Renderer(scope.videos, scope.at_ms)
    if choices:
        judgement = symbolic.judge(store, scope, question, choices, embedder)
        if judgement.mode == "none":
            return Checked(judgement, None)
        return Checked(judgement, None, block="Evidence per option:\n" + verdict.block(judgement, renderer))
    asked = Asked(store, scope, embedder, question)
    plan = understand(question, scope)
    finding = forms.compute(asked, plan) if plan is not None else None
    if parser is not None and finding is None:
        plan, finding = _second_reading(asked, parser, plan)
    if finding is None:
        return None
    return Checked(None, finding, plan, f"Computed from the log: {finding.facts}")


def _second_reading(asked: Asked, parser: Parser,
                    plan: QuestionPlan | None) -> tuple[QuestionPlan | None, temporal.Finding | None]:
    """The model's plan and its finding when the rules' plan computes none. Not when the rules' plan found
    nothing: on the first 269 questions of the dev sets with the model, its plan replaced such an honest 'not that
    I can see' 6 times, 2 right already, 4 then wrong."""
    theirs = by_model(asked.question, asked.scope, parser)
    if theirs is None or (plan is not None and _same(theirs, plan)):
        return plan, None
    return theirs, forms.compute(asked, theirs)


def _same(a: QuestionPlan, b: QuestionPlan) -> bool:
    """Whether two plans ask the same (who made them aside)."""
    return (a.form, a.action.lower(), a.other.lower(), a.relation) == (b.form, b.action.lower(), b.other.lower(),
                                                                     b.relation)


def decisive(checked: Checked | None) -> bool:
    """Whether the scorer decides alone (a clear margin)."""
    return checked is not None and verdict.clear(checked.judgement)


def choose(checked: Checked | None, votes: Sequence[str | None] | None, count: int) -> verdict.Decision:
    """The option: the scorer's when it is decisive or the model was not asked, else votes + the scorer's prior."""
    judgement = checked.judgement if checked is not None else None
    if votes is None or decisive(checked):
        return verdict.symbolic_only(judgement)
    return verdict.with_votes(judgement, votes, count)


_NUMBER = re.compile(r"\d+")


def phrasable(finding: temporal.Finding) -> bool:
    """Whether the model may phrase a finding at all (a finding that lists several lines of a form that quotes
    the log is given as computed; so is one that found nothing or only infers: the model drops 'it seems' and
    'not that I can see')."""
    return finding.answered and not finding.text.startswith(_HEDGED) and \
        (forms.form_named(finding.form).phrased or len(finding.events) == 1)


_HEDGED = ("It seems", "Not that I can see", "Not as such", "The closest", "I can't", "I didn't")
"""How a computed answer opens when it infers or did not find the thing asked: the model's phrasing drops it."""


def phrase(llm: TextModel | None, finding: temporal.Finding, question: str) -> tuple[str, int, int, str]:
    """(answer text, prompt tokens, output tokens, who phrased it): the model phrases the finding when
    there is one and keeps its times and numbers, else the template stands."""
    if llm is None or not phrasable(finding):
        return finding.text, 0, 0, "template"
    prompt = f"Facts: {finding.facts}\nQuestion: {question}\nAnswer in one sentence:"
    msgs = [{"role": "system", "content": PHRASE_SYSTEM}, {"role": "user", "content": prompt}]
    reply = "".join(llm.generate(msgs, max_tokens=80, temperature=0.0, stop=["\n\n"])).strip()
    reply = split_open(reply)[1] if ANSWER_MARK.search(reply) else reply  # a 'Line: ... / Answer: ...' habit
    used = llm.count_tokens(PHRASE_SYSTEM + prompt), llm.count_tokens(reply)
    said = finding.facts + " " + question
    if not reply or not set(_NUMBER.findall(finding.facts)) & set(_NUMBER.findall(reply)) \
            or not set(_NUMBER.findall(reply)) <= set(_NUMBER.findall(said)) \
            or not _same_answer(reply, finding.text) \
            or not _names(reply) <= _names(said) or as_the_wearer(reply) or not _days_kept(reply, finding.text):
        # a phrasing that drops or invents a time, a number, a name, a day or a no, or speaks as the user
        return finding.text, *used, "template"
    return reply, *used, "model"


_DAY_WORDS = frozenset({"today", "yesterday", "tomorrow", *lexicon().time["weekdays"], *lexicon().time["months"]})
"""Words that say which day a time was: a phrasing keeps the one the computed answer says with a time it gives."""


_DAY_AT = re.compile(r"\b([a-z]+)(?: \d{1,2}(?: [a-z]+)?)? at (\d{1,2}:\d{2})\b")
_CLOCK = re.compile(r"\b\d{1,2}:\d{2}\b")


def _days_kept(reply: str, template: str) -> bool:
    """Whether every time the reply gives keeps the day the computed answer said it with ('yesterday at 08:40' is
    not '08:40'), and its first time is the computed answer's first (not another time of the facts)."""
    days = {clock: day for day, clock in _DAY_AT.findall(template.lower()) if day in _DAY_WORDS}
    said, clocks, computed = set(re.findall(r"[a-z]+", reply.lower())), _CLOCK.findall(reply), _CLOCK.findall(template)
    return all(days[clock] in said for clock in clocks if clock in days) and \
        (not computed or not clocks or clocks[0] == computed[0])  # the answer's time first, as computed


_AS_THE_WEARER = lexicon().words["as_the_wearer"]
"""First words of a phrasing that speaks as the wearer ('I got back from the shops at 11:22'): answers speak to them."""


def as_the_wearer(reply: str) -> bool:
    """Whether a reply speaks as the wearer ('I got back at 11:22'), not to them."""
    words = reply.split(maxsplit=1)
    return bool(words) and words[0].lower().rstrip(",.:") in _AS_THE_WEARER


def polarity(text: str) -> str:
    """'yes', 'no' or '' (neither): what an answer's first words say ('Not that I can see', 'No: ...')."""
    first = [w.strip(",.:;!?") for w in text.lower().split()[:3]]
    return "yes" if first[:1] == ["yes"] else "no" if set(first) & _SAYS_NO else ""


_SAYS_NO = lexicon().words["answer_no"]
"""Words that open an answer saying no."""
_NEGATION = _SAYS_NO | lexicon().words["negation"]
"""Words by which a sentence says something was not so."""


def _names(text: str) -> set[str]:
    """The words of the proper names a text holds (a name the facts do not hold is made up)."""
    return {w for name in terms.names(text) for w in name.split() if w[:1].isupper()}


def _same_answer(reply: str, template: str) -> bool:
    """Whether a phrasing says the same yes, no or neither as the computed answer (a 'yes' may be restated
    without the word: 'You took it at 08:00.')."""
    said, meant = polarity(reply), polarity(template)
    negated = {w.strip(",.:;!?") for w in reply.lower().split()} & _NEGATION
    return said == meant or (meant == "yes" and said == "" and not negated)
