"""A yes read from the line nearest a yes-or-no question when no line says it the way the question does: 'did Stan
pay the window man for me?' and 'Stan: your window cleaner came about eleven. I paid him for you, ten pound.'

The line must say it of the one the question asks about (the wearer's own line for 'did I', the person's own words
or a line naming them for 'did Stan'), hold the question's verb and all but one of its other words (or, for a light verb
left unsaid, 'do', 'get', all of them), at least two in all, and neither deny it ('no fluid at all', 'forgot') nor only intend
it ('I'll pay him tomorrow'). Such a yes is said as a reading, with its line."""

from __future__ import annotations

from egocli.core.lexicon import apostrophes, lexicon, words
from egocli.reasoning import actions, terms
from egocli.reasoning.plan import Asked, Finding
from egocli.store import Event, EventFilter

_WORDS = lexicon().words
_DENYING = _WORDS["negation"] | {"no", "nobody", "nothing"}
_INTENDING = frozenset(w for w in _WORDS["intention"] if "_" not in w)
_INTENDING_PAIRS = tuple(tuple(w.split("_")) for w in _WORDS["intention"] if "_" in w)
_LIGHT = lexicon().light
_OWN = frozenset({"i", "we", "you"})
"""Second words of a question that ask about the wearer ('did I', 'have we'); 'did you' is the wearer asking
about themselves as the assistant heard them."""
SPEAKER_LIMIT = 20
"""Lines naming a would-be subject read to learn whether they speak in the log."""
MISSING = 1
"""Words of the question other than its verb a line that says the verb may leave unsaid (one that leaves a light
verb unsaid must say all the rest: 'put some money in Lily's card' is not 'card - To Lily')."""


def seen(asked: Asked, phrase: str, near: Event) -> Finding | None:
    """'It seems so, yes' with the line `near`, or else one of the CANDIDATES lines the word search finds best in
    the scope, when it says what the yes-or-no question asks (module doc); else None."""
    said = words(phrase)
    if not said or said[0] in _DENYING or terms.stem(said[0]) in ("forget", "forgot"):
        return None
    own = bool(words(asked.question)[1:2]) and words(asked.question)[1] in _OWN
    subject = "" if own else said[0]
    if subject and not _speaks(asked, subject):
        if _named(asked, subject):
            return None  # not a person the log hears: 'did the parcel come' is no one's doing
        subject, said = "", said[1:]  # 'did dad do his drops', asked by his carer of the log's own wearer
    rest = said[1:] if subject else said
    if not rest:
        return None
    spans = asked.scope.windows or ((-(2 ** 62), asked.scope.at_ms + 1),)
    found = [ev for lo, hi in spans for ev, _, _ in asked.store.search(
        " ".join(rest), EventFilter(since_ms=lo, until_ms=min(hi, asked.scope.at_ms + 1), limit=CANDIDATES))]
    for ev in [near, *found]:
        if _theirs(ev, subject) and (yes := _says(asked, phrase, rest, ev)) is not None:
            return yes
    return None


CANDIDATES = 10
"""Lines the word search finds best that are read for a yes besides the nearest by meaning."""


def _says(asked: Asked, phrase: str, rest: list[str], near: Event) -> Finding | None:
    """The yes a line says of the question's words `rest` (module doc), else None."""
    verb, others = terms.terms(rest[0]), terms.terms(" ".join(rest[1:]))
    line = set(terms.terms(near.content))
    said_verb = bool(set(verb) & line)
    missing = [t for t in others if t not in line]
    matched = len(set(verb) & line) + len(others) - len(missing)
    if not (said_verb or all(v in _LIGHT for v in verb)) or len(missing) > (MISSING if said_verb else 0) or \
            any(not _head_of_said(rest, t, line) for t in missing) or matched < 2 or \
            _denied(near.content, set(verb) | set(others)) or actions.not_done(near, [*verb, *others]):
        return None  # denied, only intended, asked for, or a thing to do written down ('collect Dad's eye drops Tue')
    when = asked.stamp(near.start_ms, near.source_id)
    return Finding("exists", f"It seems so, yes: {when}: {near.content}.", (near,),
                   f"{phrase}: no line says it as asked; {when} says it another way: {near.content}", False)


def _head_of_said(said: list[str], term: str, line: set[str]) -> bool:
    """Whether a word the line leaves unsaid ends a compound whose other word it says ('the window man': 'your
    window cleaner'); not an object after its verb ('put petrol in the car': petrol) nor a word after an article
    ('at the usual time')."""
    for i, w in enumerate(said):
        if i >= 2 and term in terms.terms(w):
            return bool(set(terms.terms(said[i - 1])) & line)
    return False


def _speaks(asked: Asked, who: str) -> bool:
    """Whether someone speaks in the log under that name ('Stan: ...')."""
    flt = EventFilter(until_ms=asked.scope.at_ms + 1, modalities=("speech",), limit=SPEAKER_LIMIT)
    return any(terms.speaker(ev.content).lower() == who for ev, _, _ in asked.store.search(who, flt))


def _named(asked: Asked, who: str) -> bool:
    """Whether a frame, a note or a line read names someone ('Dad's pharmacy bag': someone else than the wearer);
    words said to the wearer may call the wearer so ('Hiya Dad, it's me')."""
    flt = EventFilter(until_ms=asked.scope.at_ms + 1, modalities=("visual", "note", "text"), limit=1)
    return bool(asked.store.search(who, flt))


def _theirs(ev: Event, subject: str) -> bool:
    """Whether a line tells of the subject's doing: the wearer's own line (no one else speaking it) for '', the
    person's own words or a line naming them otherwise."""
    speaker = terms.speaker(ev.content).lower()  # '' for the wearer's own words
    if not subject:  # a sign, a letter or a calendar read tells of no doing of one's own
        return ev.modality in ("visual", "note") or (ev.modality == "speech" and not speaker)
    return speaker == subject or (ev.modality == "visual" and subject in words(ev.content))


def _denied(text: str, asked: set[str]) -> bool:
    """Whether a clause of the line that holds a word asked about denies it or only intends it."""
    for clause in terms.clauses(text):
        said = [w.strip(".,;:!?\"()") for w in apostrophes(clause.lower()).split()]  # 'i'll' kept whole
        if not set(terms.terms(clause)) & asked:
            continue
        if set(said) & (_DENYING | _INTENDING) or any(
                tuple(said[i:i + len(p)]) == p for p in _INTENDING_PAIRS for i in range(len(said))):
            return True
    return False
