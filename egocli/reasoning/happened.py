"""Whether something happened: 'did I take my pills today?', 'did I forget to ring Jan?', 'did I take it on
time?'. Yes with how often and when last, when a line names the act (or a line naming the thing says as much:
'did I have a coffee', a receipt for 'did we get milk', a thing handled for 'did I bring the ladder'); else no,
with the closest line beside it, or 'not as such' when only the thing is named ('have I taken my tablets': an egg
cup with two tablets in it set down)."""

from __future__ import annotations

import re
from collections.abc import Callable

from egocli.core.lexicon import lexicon
from egocli.reasoning import actions, terms
from egocli.reasoning.scope import Scope
from egocli.reasoning.temporal import Finding, Matcher, occurrences
from egocli.store import Event

FORGOT = re.compile(r"^(?:forget|forgot|miss) (?:to )?(.+)$")
REMEMBERED = re.compile(r"^(?:remember|manage|get) to (.+)$")
_MANNER = {way: re.compile(pattern) for way, pattern in lexicon().manner.items()}
"""How a yes/no question asks an act to have been done ('on time') -> a line saying it was not ('LATE')."""
_REMOTE = {actions.CLASS.get(terms.stem(w), terms.stem(w)) for w in lexicon().verbs["remote"]}
"""Classes of acts done with someone elsewhere (calling, texting)."""
_OUTGOING = re.compile(r"\b(?:" + "|".join(sorted(lexicon().verbs["outgoing"], key=len, reverse=True)) +
                       r") (?:up )?(\w+)")
"""A remote act going out to someone ('calling Anna', 'rang up Sam'): the person is the group."""


def bouts(matcher: Matcher, phrase: str) -> list[list[Event]]:
    """The occurrences of an act the matcher finds, each a run of its lines."""
    found = matcher.matches(phrase)
    return occurrences(found, between=matcher.between) if found else []


def with_person(phrase: str, ev: Event) -> bool:
    """Whether an event can be the act asked about as far as who was where: a call to Anna ('calling Anna') is
    no call from her ('call from anna') and no seeing her ('see anna')."""
    text = ev.content.lower()
    said = phrase.split()
    verb = terms.stem(said[0]) if said else ""
    if len(said) >= 3 and said[1] == "from" and actions.CLASS.get(verb, verb) in _REMOTE:  # 'call from anna', 'texted from priya'
        # a call seen as one ('incoming call', 'Anna ringing'), not Anna's words in the room nor a call to her
        return bool(actions.REMOTE_WORDS.search(text)) and \
            said[2] not in (found.group(1) for found in _OUTGOING.finditer(text))
    act = actions.parse(phrase)
    if act.verb in ("look", "meet") and act.head is not None:
        return not actions.REMOTE_WORDS.search(text)
    return True


def verdict(matcher: Matcher, phrase: str, stamp: Callable[[int, int | None], str]) -> Finding:
    """'Did I X?': yes with how often and when last, or no; a likeness of meaning only is said as such."""
    forgot = FORGOT.match(phrase)
    phrase = forgot.group(1) if forgot else (m.group(1) if (m := REMEMBERED.match(phrase)) else phrase)
    groups = [g for g in ([e for e in group if with_person(phrase, e)] for group in bouts(matcher, phrase)) if g]
    where = within(matcher.scope)
    if not groups:
        word = "Yes, you forgot" if forgot else "No"
        close = matcher.closest(phrase)
        if close is None:
            return Finding("exists", f"{word}: nothing in the log about \"{phrase}\"{where}.", (),
                           f"no event about {phrase}{where}: so {word.lower()}")
        when = stamp(close.start_ms, close.source_id)
        lead = "Yes, it seems you forgot" if forgot else "Not that I can see"
        return Finding("exists", f"{lead}: nothing about \"{phrase}\"{where}; the closest is "
                       f"{when}: {close.content}.", (close,), f"no event about {phrase}{where}: so {word.lower()}; "
                       f"the closest, not the same: {when}: {close.content}", False)
    last = groups[-1][-1]
    when = stamp(last.start_ms, last.source_id)
    how = next((way for way in _MANNER if f" {way} " in f" {' '.join(terms.words(phrase))} "), None)
    if matcher.tier > 1 and how is not None and \
            (off := next((e for e in groups[-1] if _MANNER[how].search(e.content)), None)):
        off_when = stamp(off.start_ms, off.source_id)  # 'did I take it on time?': taken, but 'LATE'
        return Finding("exists", f"No, not {how}: {off_when}: {off.content}.", (off,),
                       f"{phrase}: done, but not {how}: {off_when}: {off.content}")
    if resembles_only(matcher, phrase, groups):
        return Finding("exists", f"Not as such: nothing names \"{phrase}\"{where}; the closest is {when}: "
                       f"{last.content}.", (last,), f"no event names {phrase} exactly; the closest: {when}: "
                       f"{last.content}", False)
    return yes("No, you did it" if forgot else "Yes", phrase, groups, where, stamp)


_NAMING = lexicon().verbs["named_as_done"]
"""Verb classes a line naming the thing says as much as any act of it ('did I have a coffee')."""
_BOUGHT = tuple(w.replace("_", " ") for w in lexicon().words["bought"])
_GOT = lexicon().verbs["getting_classes"]


def resembles_only(matcher: Matcher, phrase: str, groups: list[list[Event]]) -> bool:
    """Whether the phrase's words found its lines only as a likeness (tier 1) or as its thing with no act of it (tier
    2, `unseen_act`); not when a kind of event or a move found them (tier 0)."""
    return matcher.tier == 1 or (matcher.tier == 2 and unseen_act(phrase, groups))


def unseen_act(phrase: str, groups: list[list[Event]]) -> bool:
    """Whether the lines found name the thing of a 'did I X' and none its act ('have I taken my tablets': 'an egg
    cup with two tablets in it set down'). A receipt naming a thing is its getting ('did we get milk'); a thing
    handled is a thing got or brought, unless a medicine, which is taken only by taking it."""
    verb = actions.parse(phrase).verb
    lines = [e for g in groups for e in g]
    if verb is None or verb in _NAMING or (verb in _GOT and any(_bought(e) for e in lines)):
        return False
    return not (verb == "take" and not terms.medicinal(terms.stem_all(phrase)) and
                any(actions.verbs_of(e.content, e.modality) - {"look"} for e in lines if e.modality == "visual"))


def _bought(ev: Event) -> bool:
    """Whether a line read lists things bought: a receipt, or prices with their total."""
    text = ev.content.lower()
    return ev.modality == "text" and (text.startswith(_BOUGHT) or "total" in terms.words(text))


def within(scope: Scope) -> str:
    """' (yesterday morning)': the scope a yes or no is said within, or '' for the whole log."""
    return f" ({scope.label})" if scope.windows else ""


def yes(word: str, phrase: str, groups: list[list[Event]], where: str, stamp: Callable[[int, int | None], str]) \
        -> Finding:
    """'Yes: 2 times (today), the last at ...': how often and the latest."""
    last = groups[-1][-1]
    when, times = stamp(last.start_ms, last.source_id), f"{len(groups)} time{'s' if len(groups) > 1 else ''}"
    return Finding("exists", f"{word}: {times}{where}, the last at {when}: {last.content}.", (last,),
                   f"{phrase}: yes, {times}{where}; last at {when}: {last.content}")
