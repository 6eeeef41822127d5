"""Money between the wearer and someone else: 'has Tasha paid me back?', 'when did Mr Lindqvist's money come
in?', 'how much did Mrs Okafor pay me?', 'did she pay me in cash?', 'have I paid Owen back?'.

A transfer is a line that names the person and says money moved: a bank app's 'You've received £240.00 from A
LINDQVIST' or 'Payment sent — £20.00 to Natasha Reid'; the person's own words or message handing it over ('Mrs
Okafor: There's eighty-five in there', 'Tasha: just sent your £20 back'); a narration or a note of the wearer's
('handing it to Kieran', 'lent Kieran £20'). What is only promised ('I'll pay you back tomorrow'), asked for
('could you lend me £20') or owed ('you still owe me thirty') moves nothing. The cues are the lexicon's
([money.between])."""

from __future__ import annotations

import re
from collections.abc import Callable

from egocli.core.lexicon import lexicon
from egocli.reasoning import kinds, retrieval, terms
from egocli.reasoning.digest import amounts
from egocli.reasoning.guests import people
from egocli.reasoning.plan import Asked, Finding, QuestionPlan
from egocli.reasoning.scope import Scope
from egocli.store import Event

_CUE = {name: re.compile(pattern) for name, pattern in lexicon().money["between"].items() if name != "words"}
_MONEY_WORDS = frozenset(lexicon().money["between"]["words"].split())
"""Words that put money in a line with no amount ('I'll lend you some money')."""
_TITLES = frozenset("mr mrs ms miss dr the my our".split())
_OPEN = frozenset("when what how at".split())
"""First words of a question that asks no yes or no ('when did ...', 'how much ...')."""


WHO = r"((?:the |my |our )[a-z']+(?: (?!for\b|back\b|me\b|us\b)[a-z']+)?|(?:mr |mrs |ms |miss |dr )?[a-z']+)"
"""Who, in a question's pattern (fastpath.py): one name, a title before it, or a role of two words ('the window
cleaner')."""
PAY = r"(?:paid|pay|sent|send|given|give|transferred|transfer)"
_SPOKEN = sorted({*lexicon().numbers[1:], *lexicon().money["tens"], "hundred", "tenner", "fiver"}, key=len,
                 reverse=True)
SUM = (r"(?:(?:the |that |those |my |his |her |their )?(?:[£€$]?\d+(?:\.\d\d)?|(?:" + "|".join(_SPOKEN) +
       r")(?:[ -](?:" + "|".join(_SPOKEN) + r"))?)(?: (?:" + "|".join(lexicon().money["currencies"]) + r"))?)")
"""An amount as a question says it ('that twenty', 'the £15', 'the fifty quid'): number words or digits."""
PAID_ME = (r"(?: me| us)?(?: back)?(?: the money| my money| it| that| (?:her|his|their) (?:share|half|bit|part|cut|money)|"
           rf" {SUM})?(?: back)?")
FOR = r"(?: for (?:the |my |our |her |his )?([\w' ]+?))?"


def plan(way: str, how_said: bool = True) -> Callable[[tuple[str, ...], Scope | None], QuestionPlan]:
    """The plan of a money question's pattern: 'has Tasha paid me back?', 'did Mrs Okafor pay me in cash?' (way
    'in'), 'have I paid Owen back for the present?' ('out'). Its groups: who, how (unless not `how_said`), what
    for."""
    def build(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan:
        if not how_said:
            groups = (groups[0], "", *groups[1:])
        who, how, other = (*groups, "", "")[:3]
        return QuestionPlan("money", who.removesuffix("'s"), other.strip(), f"{way}:{how}" if how else way)
    return build


def promised(text: str) -> bool:
    """Whether a line only promises, asks for or owes something ('I'll bring it back tomorrow', 'can you lend me')."""
    return bool(_CUE["not_yet"].search(text))


def names_of(person: str) -> list[str]:
    """The words that name a person in a line: 'mr lindqvist' -> ['lindqvist']; 'tasha' -> ['tasha']."""
    return [w for w in terms.words(person) if w not in _TITLES] or terms.words(person)


def about(text: str, names: list[str]) -> bool:
    """Whether a line names one of a person's words."""
    said = terms.words(text)
    return any(n in said for n in names)


def direction(ev: Event, names: list[str], initials: frozenset[str] = frozenset()) -> str:
    """'in' when the line says the person gave the wearer money, 'out' when the wearer gave them money, else ''.
    A bank names people by an initial and a surname ('N GALLAGHER'): one of `initials` (the first letters no
    one else who speaks in the log shares with the person) stands for them."""
    text = ev.content
    if (m := _CUE["received"].search(text)) and _payer(m.group(1), names, initials):
        return "in"
    if (m := _CUE["sent"].search(text)) and _payer(m.group(1), names, initials):
        return "out"
    if _CUE["not_yet"].search(text) or not _CUE["giving"].search(text):
        return ""
    who = terms.speaker(text) or kinds.sender(ev, "message")  # 'text — Dougie: 30 back now'
    if who and about(who, names):  # their own words or message, handing it over
        return "in"
    if ev.modality in ("visual", "note") and not who and about(text, names):  # the wearer's act or note
        return "out"
    return ""


def initials_of(names: list[str], speakers: set[str]) -> frozenset[str]:
    """The initial that stands for a person on a bank's line: their first letter, when they speak in the log
    and no one else who does shares it."""
    return frozenset(n[0] for n in names[:1] if n in speakers and sum(1 for s in speakers if s[:1] == n[0]) == 1)


def _payer(named: str, names: list[str], initials: frozenset[str]) -> bool:
    said = terms.words(named)
    return about(named, names) or (len(said) >= 2 and len(said[0]) == 1 and said[0] in initials)


def between(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """Whether, when and how much someone paid the wearer (relation 'in', or 'in:cash') or the wearer paid them
    ('out'): the latest transfer that way, said with a yes; else a no, with the latest line about them and money."""
    who = people(plan.action)
    if not who:
        return None
    names = [n for p in who for n in names_of(p)]
    way, _, how = (plan.relation or "in").partition(":")
    every = retrieval.lines(asked.store, asked.scope)
    initials = initials_of(names, speakers(every))
    named = [e for e in every if about(e.content, names) or _CUE["received"].search(e.content) or _CUE["sent"].search(e.content)]
    moved = [e for e in named if direction(e, names, initials) == way]
    if plan.other:  # 'has Marcus paid me for the electric?': said in its line or around it
        wanted = set(terms.terms(plan.other))
        moved = [e for e in moved if wanted <= set(terms.terms(" ".join(n.content for n in kinds.around(asked.store, [e]))))]
    named = [e for e in named if about(e.content, names)]
    told = " ".join(w.capitalize() if w not in _TITLES - {"mr", "mrs", "ms", "dr"} else w for w in plan.action.split())
    if not moved:
        last = next((e for e in reversed(named) if money_said(e.content)), None)
        did = (f"{told} paying you" if way == "in" else f"you paying {told}") + (f" for {plan.other}" if plan.other else "")
        if last is None:
            return Finding("money", f"No: I can't see {did}.", (), f"no money moving between the wearer and {told}")
        when = asked.stamp(last.start_ms, last.source_id)
        return Finding("money", f"No: I can't see {did}; the last about it, {when}: {last.content}.", (last,),
                       f"no transfer seen; the latest line about money with {told}, {when}: {last.content}")
    ev = moved[-1]
    when = asked.stamp(ev.start_ms, ev.source_id)
    done = f"{told} paid you" if way == "in" else f"You paid {told}"
    if how and not any(kinds.done_way("payment", how, e.content) for e in kinds.around(asked.store, [ev])):
        return Finding("money", f"Not by {how} as far as I can see: {done} {when}: {ev.content}.", (ev,),
                       f"{done} at {when} ({ev.content}); nothing around it says {how}", False)
    yes = "" if terms.words(asked.question)[:1] and terms.words(asked.question)[0] in _OPEN else "Yes: "  # 'when did ...', 'how much ...' ask no yes
    return Finding("money", f"{yes}{done} {when}: {ev.content}.", (ev,), f"{done} at {when}: {ev.content}")


def speakers(lines: list[Event]) -> set[str]:
    """The first words of everyone who speaks in the lines ('niamh', 'mrs')."""
    return {w[0] for e in lines if (w := terms.words(terms.speaker(e.content)))}


def money_said(text: str) -> bool:
    """Whether a text names money: an amount, or a word of money ('lend', 'quid', 'cash')."""
    return bool(amounts(text)) or bool(_MONEY_WORDS & set(terms.words(text)))


PATTERNS: tuple[tuple[str, str, Callable[[tuple[str, ...], Scope | None], QuestionPlan]], ...] = (
    ("money", rf"^(?:has|have|did) {WHO} {PAY}{PAID_ME}(?: (?:in|by|with) (cash|card))?{FOR}", plan("in")),
    ("money", rf"^(?:have|has|did) i (?:been |got |get )?(?:paid|pay) (?:by|from) {WHO}", plan("in")),
    ("money", rf"^(?:when|what time|at what time) did {WHO} {PAY}{PAID_ME}", plan("in")),
    ("money", rf"^(?:when|what time|at what time) did {WHO}'s (?:money|payment|transfer) (?:come in|come through|"
              r"arrive|land|go in)", plan("in")),
    ("money", rf"^how much (?:money )?did {WHO} {PAY}(?: me| us)", plan("in")),
    ("money", rf"^(?:have|has|did) i {PAY} {WHO} back(?: the \w+| (?:the |my )?money)?{FOR}",
     plan("out", how_said=False)),
    ("money", rf"^(?:have|has|did) i {PAY} {WHO} (?:(?:his|her|their|the) (?:money|cash|share|half|bit|part|cut)|{SUM})"
              rf"(?: back)?{FOR}", plan("out", how_said=False)),
)
"""The usual phrasings of the money form, (form, pattern, plan), for fastpath.py's rules."""
