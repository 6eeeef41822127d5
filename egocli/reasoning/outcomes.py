"""How something turned out, computed in code: 'how did the MOT go?', 'who won the quiz?', 'how did we do at the
quiz?', 'what did the Villa game finish?'. The occasion is the latest stretch of lines naming it; the answer is the
line said or read while it went on, until one is seen moving on, that tells a result (the lexicon's result words:
'won', 'full-time', 'result: PASS', 'Second, with 49 points'), one naming the occasion first, the latest. Without such
a line nothing is computed and the context is read as for any open question, never said as the result."""

from __future__ import annotations

import re
from collections.abc import Callable

from egocli.core.lexicon import any_of
from egocli.core.timeutil import local
from egocli.reasoning import digest, staying, terms
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.scope import Scope
from egocli.reasoning.temporal import Finding, Matcher
from egocli.reasoning.visits import stretches
from egocli.store import Event
from egocli.store import windows as store_windows

STRETCH_MS = 2 * 3_600_000
"""Mentions closer than this are one occasion (a quiz night, a garage visit)."""
BEFORE_MS = 15 * 60_000
AFTER_MS = 60 * 60_000
"""How long before its first mention a result of the occasion may be told, and after its last when one is not seen
moving on from it (staying.moved_on: the scores read out at the end of a quiz whose name is not said again, until
the walk home)."""
_STRONG, _WEAK = any_of("results"), any_of("results_weak")
_NOT = re.compile(r"\b\w+n't\b")
"""A word said with not ('won't', 'didn't'): no result word inside it."""
_SCORE = re.compile(r"\b\d{1,3} ?[-\u2013/] ?\d{1,3}\b")
"""A score in figures ('1-2', '8/10'), told only by a line naming the occasion."""


_APART = (" \u2014 ", " \u2013 ", " - ", ",", ":", ";", "!", "?")
"""What parts a line into the phrases a score's sides are read from."""


def score(text: str) -> tuple[str, int, int, str] | None:
    """(one side, its points, the other's points, the other side) a result line gives: 'MAN UTD 1-2 ASTON VILLA' (a
    score in figures, the sides the phrases around it), 'Westfield Girls 2, Northgate Girls 2' (two phrases each a
    name and its points); None when it gives none."""
    if (m := _SCORE.search(text)) is not None:
        points = "".join(c if c.isdigit() else " " for c in m.group(0)).split()
        return _phrase(text[:m.start()], last=True), int(points[0]), int(points[1]), _phrase(text[m.end():], last=False)
    parts = [p.split() for p in _parted(text)]
    for one, other in zip(parts, parts[1:]):
        if len(one) > 1 and len(other) > 1 and one[-1].isdigit() and other[-1].isdigit() and \
                one[0][:1].isupper() and other[0][:1].isupper():
            return " ".join(one[:-1]), int(one[-1]), int(other[-1]), " ".join(other[:-1])
    return None


def _parted(text: str) -> list[str]:
    for mark in _APART:
        text = text.replace(mark, "\n")
    return [p.strip() for p in text.split("\n")]


def _phrase(text: str, last: bool) -> str:
    """The phrase of a text nearest a score: its last part before it (`last`), else its first part after it."""
    parts = _parted(text)
    return parts[-1] if last else parts[0]


def _tells(ev: Event, naming: bool) -> bool:
    """Whether a line tells a result: a strong result word anywhere, a weak one in a line naming the occasion."""
    text = _NOT.sub(" ", ev.content.lower())
    return bool(_STRONG.search(text) or (naming and (_WEAK.search(text) or _SCORE.search(text))))


def _mentions(matcher: Matcher, phrase: str) -> list[Event]:
    """The lines naming every content word of the occasion ('quiz': the chalkboard, the calendar, 'Quiz: round one'),
    whatever else they say (a plan for it, a word said about it), before the moment of asking, in time order."""
    pool = matcher.pool
    q = pool.query(phrase, pool.rarity(phrase))
    heavy = [t for t in q.terms if t not in terms.LIGHT] or list(q.terms)
    if not heavy:
        return []
    found = [e for e in pool.search(q, 200) if e.start_ms <= matcher.scope.at_ms and _names_all(heavy, e)]
    return sorted(found, key=lambda e: (e.start_ms, e.id))


def _names_all(heavy: list[str], ev: Event) -> bool:
    """Whether a line names every word, a word also as the start of a longer one ('quiz' in 'Quizmaster: round
    four')."""
    own = terms.words(ev.content)
    return all(any(w == h or (len(h) >= 4 and w.startswith(h)) for w in own) for h in heavy) or \
        terms.recall(heavy, set(terms.terms(ev.content))) >= 1.0


def outcome(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """'How did the MOT go?': the result line of the occasion's latest stretch of mentions (see the module's
    docstring); None when nothing names it or no line tells a result: the context is read as for any open question,
    its closest line said as such, never as the result; with no result line, what was said then, said as that."""
    matcher = Matcher(asked.store, asked.scope, asked.embedder)
    found = _mentions(matcher, plan.action)
    if not found and plan.other:  # 'how did Liam get on with his exam?': the exam unnamed, his own words tell it
        return _their_result(asked, matcher, plan.other, plan.action)
    if not found:
        return None  # the context read as for any open question: the closest line, said as such
    named, around = _occasion(asked, found)
    told = [e for e in around if _tells(e, e.id in named)]
    if not told:
        return _what_was_said(asked, plan.action, around)
    best = max(told, key=lambda e: (e.id in named, e.start_ms))
    when = asked.stamp(best.start_ms, best.source_id)
    return Finding("outcome", f"{when}: {best.content.rstrip(' .')}.", (best,),
                   f"{plan.action}: how it turned out, at {when}: {best.content}")


def _occasion(asked: Asked, found: list[Event]) -> tuple[set[int], list[Event]]:
    """(the ids of the lines naming it, the lines said or read while it went on): its latest stretch of mentions,
    from a little before to when one was seen moving on (else a while after its last mention)."""
    stretch = stretches(found, STRETCH_MS)[-1]
    left = staying.moved_on(asked, stretch[0], stretch[-1].start_ms)  # the occasion over: on the move, elsewhere
    end = left.start_ms + 1 if left is not None else stretch[-1].start_ms + AFTER_MS
    lo, hi = stretch[0].start_ms - BEFORE_MS, min(end, asked.scope.at_ms + 1)
    around = [e for e in store_windows.overlapping(asked.store, lo, hi, None, 4000) if lo <= e.start_ms < hi]
    return {e.id for e in found}, around


def result_lines(asked: Asked, matcher: Matcher, occasion: str) -> list[Event]:
    """The lines telling a result while the occasion's latest stretch went on, in time order ([] when nothing names
    it)."""
    found = _mentions(matcher, occasion)
    if not found:
        return []
    named, around = _occasion(asked, found)
    return [e for e in around if _tells(e, e.id in named)]


def _their_result(asked: Asked, matcher: Matcher, who: str, occasion: str) -> Finding | None:
    """The line in scope that tells a result and is the person's own words or names them ('Liam: I passed my
    eighteenth edition'), of those the closest in meaning to the occasion ('his exam', not 'Leeds only drew'), the
    latest without an embedder; else None."""
    told = [e for e in _mentions(matcher, who) if _tells(e, True)]
    if not told:
        return None
    q = matcher.pool.query(occasion)
    best = max(told, key=lambda e: (float(v @ q.vec) if q.vec is not None and (v := matcher.pool.vec_of(e)) is not None
                                    else 0.0, e.start_ms))
    when = asked.stamp(best.start_ms, best.source_id)
    return Finding("outcome", f"{when}: {best.content.rstrip(' .')}.", (best,),
                   f"how it turned out for {who}, at {when}: {best.content}")


_OCCASION = r"(?:the |my |our |his |her |their )?(.+?)"
_NOT_ANYONE = frozenset({"i", "we", "you", "they", "he", "she", "it"})


def _plan(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan | None:
    """An outcome plan from a pattern's groups (the occasion, or who then the occasion); None for 'how did I get
    on' (no occasion, no one else: another form's)."""
    if len(groups) == 1:
        return QuestionPlan("outcome", groups[0])
    who, occasion = groups
    if not occasion and who in _NOT_ANYONE:
        return None
    return QuestionPlan("outcome", occasion or who, "" if who in _NOT_ANYONE or not occasion else who)


PATTERNS: tuple[tuple[str, str, Callable[[tuple[str, ...], Scope | None], QuestionPlan | None]], ...] = (
    ("outcome", rf"^how (?:did|has|have|was|were) {_OCCASION} (?:go|went|gone)(?: for (?:him|her|them|us|me|\w+))?", _plan),
    ("outcome", rf"^how (?:did|have|had|has) (\w+) (?:do|done|get on|got on|fare|fared)(?: (?:at|in|with|on) {_OCCASION})?",
     _plan),
    ("outcome", r"^who (?:won|lost|came first|came last|came second|came third)(?: the| at| in| on)? (.+?)", _plan),
    ("outcome", r"^what (?:did|was|were) (?:the |my |our )?(.+?) (?:finish|end|end up|come out)(?: at| as| on)?", _plan),
    ("outcome", rf"^what (?:was|were|is) the (?:final )?(?:score|result|results|outcome) (?:of|in|at|from|for|on) {_OCCASION}",
     _plan),
    ("outcome", r"^what did (?:i|we|you|they|he|she|\w+) score (?:at|in|on|for) (?:the |my |our )?(.+?)", _plan),
)
"""The usual phrasings of the outcome form, (form, pattern, plan), for fastpath.py's rules: 'how did the MOT go',
'how did Liam get on with his exam' (who, and the occasion), 'how did Halifax get on' (who alone: the occasion is
theirs), 'who won the quiz', 'what did the game finish', 'what was the score at the match'."""


SAID_SHOWN = 5
"""Lines said (or noted) during an occasion an answer without a result line gives."""


def _what_was_said(asked: Asked, occasion: str, around: list[Event]) -> Finding | None:
    """No line tells a result ('how did Lorraine get on at the hospital?'): what was said or written while it went on
    (not sounds heard around), the most telling lines, said as that and not as the result; None when nothing was."""
    said = [e for e in around if e.modality in ("speech", "note") and not e.content.lstrip().startswith("(")]
    shown = digest.salient(said, SAID_SHOWN)
    if not shown:
        return None
    lines = "; ".join(f"{asked.stamp(e.start_ms, e.source_id)}: {e.content.rstrip(' .')}" for e in shown)
    return Finding("outcome", f"I can't see a result as such; what was said at the {occasion}: {lines}.", tuple(shown),
                   f"{occasion}: no result line; said or written then: {lines}", False)
