"""Kinds of event told by their content: an email read on a screen ('From: Helen Marsh — Subject: ...'), a text
message. 'How many emails did I read on Monday?', 'Helen's first email', 'which emails came in this morning?'
and 'what did Ravi's email say?' count, pick and list these events, with their sender when one is asked. The
kinds, their nouns, how their text begins and where the sender is named are the lexicon's ([kinds.content])."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from itertools import takewhile

from egocli.core.lexicon import lexicon, words
from egocli.reasoning import terms
from egocli.reasoning.scope import Scope
from egocli.store import Event, EventFilter, Store
from egocli.store import windows as store_windows

_KINDS = lexicon().kinds.get("content", {})
_NOUNS = {noun: kind for kind, spec in _KINDS.items() for noun in (spec["nouns"] + " " + spec.get("acts", "")).split()}
ACTS = frozenset(act for spec in _KINDS.values() for act in spec.get("acts", "").split())
"""Verbs that ask for a kind's events as something done ('pay by card'), where its nouns name them as things."""
_SENDERS = {kind: re.compile(spec["sender"]) for kind, spec in _KINDS.items()}
_MARKS = {kind: re.compile("|".join(spec["marks"])) for kind, spec in _KINDS.items()}
_OUTGOING = {kind: re.compile(spec["outgoing"]) for kind, spec in _KINDS.items() if "outgoing" in spec}
"""A line of the kind that went out from the wearer ('dialling the garage'): none of it is from anyone."""
_WAYS = {kind: {way: re.compile(p) for way, p in spec.get("ways", {}).items()} for kind, spec in _KINDS.items()}
_OBJECTS = {kind: frozenset(spec.get("objects", "").split()) for kind, spec in _KINDS.items()}
_GAPS = {kind: int(spec.get("gap_s", 0)) * 1000 for kind, spec in _KINDS.items()}
_PARTNERS = {kind: frozenset(spec.get("partners", "").split()) for kind, spec in _KINDS.items()}
_ENDED = {kind: tuple(spec.get("ended", [])) for kind, spec in _KINDS.items()}
_ASKING = frozenset(lexicon().kinds["asking"].split())
_ARTICLES = frozenset({"the", "my", "our", "a", "an", "your"})
"""Words beside a kind's noun that ask for its events and name nothing more ('read emails', 'emails came in')."""
LIMIT = 5000
"""Events of a modality read per scope window."""


@dataclass(frozen=True)
class Asked:
    """A phrase asking for events of a kind."""

    kind: str
    """The kind ('email')."""
    sender: str = ""
    """Whose, in lower case ('helen'), or ''."""
    way: str = ""
    """How it was done, one of the kind's `ways` ('cash' in 'pay cash'), or ''."""
    about: tuple[str, ...] = ()
    """What for or where, after one of the kind's `objects` words ('van' in 'pay for the van'), or ()."""
    incoming: bool = False
    """Only those that came in ('incoming calls': none the wearer made, as with a sender named)."""
    outgoing: bool = False
    """Only those the wearer made ('outgoing calls': 'calling Stan Booth')."""
    either: bool = False
    """With the sender either way ('call with Debbie', 'on the phone to Octopus'), not only from them."""


_PERSONAL = frozenset("me us you him her them back".split())
"""Words that make a phrase of a kind about people ('paid me back'), which the kind's events do not tell."""


def asked(phrase: str) -> Asked | None:
    """The kind a phrase asks for ('read emails', "helen's email", 'email from ravi', 'pay by card', 'pay for
    the van'), else None: a phrase with words beyond the kind, a sender, a way, asking words and what follows
    one of the kind's `objects` words is about content ('email about the budget')."""
    tokens = [t.strip("?,.!") for t in phrase.lower().replace("\u2019", "'").split()]
    at = next((i for i, t in enumerate(tokens) if t in _NOUNS), None)
    if at is None:
        return None
    kind = _NOUNS[tokens[at]]
    ways, objects = _WAYS.get(kind, {}), _OBJECTS.get(kind, frozenset())
    sender, way, rest, about, objected, either = "", "", [], [], False, False
    for i, word in enumerate(tokens):
        if i == at or word in ("incoming", "outgoing") or _NOUNS.get(word) == kind:
            continue  # 'text messages', 'phone calls': the kind named twice
        if word.endswith("'s") and i + 1 < len(tokens) and tokens[i + 1] in _NOUNS:
            sender = word[:-2]
        elif (word == "from" or word in _PARTNERS[kind]) and not sender and i + 1 < len(tokens):
            either = word != "from"
            named = tokens[i + 1:]
            named = [t for t in named if t not in _ARTICLES] or named
            run = list(takewhile(lambda t: t not in ways and t not in objects and t not in _ASKING
                                 and t not in terms.STOP, named))
            sender = " ".join(run or named[:1])  # 'call from hillside motors': the caller's whole name
        elif sender and word in sender.split():
            continue
        elif word in ways:
            way = word
        elif objects and (objected or word in objects or (i == at + 1 and word in _ARTICLES)):
            objected = True  # 'for the van', 'at hallam's'; 'the water bill' right after the verb
            about += [] if word in objects or word in _ARTICLES or word in _ASKING else [word]
        elif not (sender and word == sender) and word not in _ASKING and word not in _ARTICLES:
            rest.append(word)
    if rest or _PERSONAL & set(about):
        return None
    return Asked(kind, sender, way, tuple(about), "incoming" in tokens, "outgoing" in tokens, either and bool(sender))


def sender(ev: Event, kind: str) -> str:
    """Who an event of the kind is from ('Helen Marsh'), or ''."""
    m = _SENDERS[kind].search(ev.content.strip())
    return m.group(1).strip() if m else ""


ANSWERED_MS = 2 * 60_000
"""A call's first words come this soon after its ring: who speaks first is who called (or was called)."""


def caller(store: Store, ev: Event, answered: list[Event] | None = None) -> str:
    """Who a call is with: the name its line gives ('incoming call from Helen', 'calling Owen'), else whoever
    speaks first in the ANSWERED_MS after it ('Debbie: Hello, is that Mr Mallory?'), else ''."""
    named = sender(ev, "call")
    if named and named.lower() not in terms.NOT_SPEAKERS:
        return named
    return next((who for e in (answered if answered is not None else _answered(store, ev))
                 if (who := terms.speaker(e.content))), "")


def _answered(store: Store, ev: Event) -> list[Event]:
    """The words said in the ANSWERED_MS after a call's line: where whoever is on it names themselves ('it's
    Debbie at Park Lane Surgery')."""
    return list(store.events(EventFilter(since_ms=ev.start_ms + 1, until_ms=ev.start_ms + ANSWERED_MS,
                                         modalities=("speech",), limit=20)))


CALL_GAP_MS = 90_000
"""A pause in a call's words longer than this ends it (the rest is the room again)."""


CALL_MAX_MS = 2 * 3_600_000
"""The longest a call is read to last."""


def conversation(store: Store, ev: Event) -> list[Event]:
    """A call's line and the words said on it: the speech from its ring on, until a pause of CALL_GAP_MS; up to
    the phone's line that it ended ('Call ended — Debbie — 22 min') when one comes before another call's line
    (the talk may pause while the phone stays on)."""
    out, until = [ev], ev.end_ms
    for e in store.events(EventFilter(since_ms=ev.start_ms + 1, until_ms=ev.start_ms + CALL_MAX_MS,
                                      modalities=("speech",), limit=400)):
        if e.start_ms - until > CALL_GAP_MS:
            break
        out.append(e)
        until = max(until, e.end_ms)
    end = next((e for e in store.events(EventFilter(since_ms=ev.start_ms + 1, until_ms=ev.start_ms + CALL_MAX_MS,
                                                    modalities=("text", "visual", "note"), limit=400))
                if _ended(e, "call") or _is(e, "call")), None)
    if end is not None and _ended(end, "call") and end.start_ms > until:
        out += [*store.events(EventFilter(since_ms=until + 1, until_ms=end.start_ms, modalities=("speech",), limit=400)),
                replace(end, end_ms=end.start_ms)]
    return out


def _is(ev: Event, kind: str) -> bool:
    return ev.modality in ("text", "visual", "note") and bool(_MARKS[kind].search(ev.content.strip()))


def message_in(ev: Event) -> bool:
    """Whether a line is a message someone sent the wearer ('Shanice: I'm at Ray's already'): their words, from
    wherever they are."""
    return ev.modality == "text" and _is(ev, "message") and not _OUTGOING["message"].search(ev.content)


def events(store: Store, scope: Scope, phrase: str) -> list[Event] | None:
    """The events of the kind a phrase asks for in the scope, oldest first (from its sender when named, and then
    none the wearer sent: 'calling Dad' is no call from him); None when the phrase asks for no kind."""
    want = asked(phrase)
    if want is None:
        return None
    spans = scope.windows or ((None, scope.at_ms + 1),)
    found: dict[int, Event] = {}
    for lo, hi in spans:
        until = min(hi, scope.at_ms + 1) if hi is not None else scope.at_ms + 1
        for ev in store.events(EventFilter(since_ms=lo, until_ms=until, modalities=("text", "visual", "note"),
                                           limit=LIMIT)):
            went_out = want.kind in _OUTGOING and bool(_OUTGOING[want.kind].search(ev.content))
            if _is(ev, want.kind) and (not want.sender or _is_from(store, ev, want)) and \
                    not (((want.sender and not want.either) or want.incoming) and went_out) and \
                    (went_out or not want.outgoing):
                found[ev.id] = ev
    ordered = sorted(found.values(), key=lambda e: (e.start_ms, e.id))
    return _occasions(store, ordered, want) if _GAPS[want.kind] else ordered


AROUND_MS = 5 * 60_000
"""What an occasion of a kind is for may be said this long before or after its lines ('the van key handed over')."""


def _occasions(store: Store, found: list[Event], want: Asked) -> list[Event]:
    """Lines of a kind within its gap of each other as one occasion (a total read, a card tapped, 'APPROVED'),
    kept when done the way asked and about what was asked, each told by one line: the act seen or noted, else the
    machine's word, else its last line."""
    groups: list[list[Event]] = []
    for ev in found:
        if groups and ev.start_ms - groups[-1][-1].start_ms <= _GAPS[want.kind]:
            groups[-1].append(ev)
        else:
            groups.append([ev])
    if want.way:
        groups = [g for g in groups if any(done_way(want.kind, want.way, e.content) for e in g)]
    if want.about:
        wanted = set(terms.terms(" ".join(want.about)))
        groups = [g for g in groups if wanted <= set(terms.terms(" ".join(e.content for e in around(store, g))))]
    return [min(g, key=lambda e: (e.modality not in ("visual", "note"), "approved" not in e.content.lower(),
                                  -e.start_ms)) for g in groups]


def around(store: Store, group: list[Event]) -> list[Event]:
    """The lines from AROUND_MS before a group of lines to AROUND_MS after it."""
    return store_windows.overlapping(store, group[0].start_ms - AROUND_MS, group[-1].end_ms + AROUND_MS, None, 200)


def done_way(kind: str, way: str, text: str) -> bool:
    """Whether a line says it was done the way asked ('cash', 'card'), by the kind's `ways`; a way the kind does
    not know is never said."""
    pattern = _WAYS.get(kind, {}).get(way)
    return pattern is not None and bool(pattern.search(text))


def _is_from(store: Store, ev: Event, want: Asked) -> bool:
    """Whether an event of the kind is from the sender asked for (a call: by the name its line gives, else by its
    opening, where callers name themselves and where they ring from, its words stemmed and folded: 'the doctors'
    rang from 'Park Lane Surgery')."""
    if want.kind != "call":
        return set(want.sender.split()) <= set(words(sender(ev, want.kind)))
    answered = _answered(store, ev)
    named = sender(ev, "call")
    screen = bool(named) and named.lower() not in terms.NOT_SPEAKERS  # 'incoming call - Hillside Motors'
    opening = [e.content for i, e in enumerate(answered[:2])  # the caller's words ('Dean: it's Dean from Hillside');
               if terms.speaker(e.content) or (i == 0 and not screen)]  # the wearer's only as they answer an unnamed
    said = " ".join([caller(store, ev, answered), ev.content, *map(_own, opening)])  # call, not 'Half one, Mum. I've
    return want.sender in words(said) or set(terms.terms(want.sender)) <= set(terms.terms(said))  # got the doctor's'


def _own(line: str) -> str:
    """A line with what it says is someone else's dropped ('is that Jordan Marsh's mum?' names no caller's mum;
    'it's Mum' does)."""
    out, skip = [], False
    for word in line.split():
        if skip or (word.lower().endswith(("'s", "\u2019s")) and terms.someone_elses(word.lower())):
            skip = not skip  # the owner, then what is theirs
            continue
        out.append(word)
    return " ".join(out)


def _ended(ev: Event, kind: str) -> bool:
    """Whether a line is the phone's own word that an event of the kind is over ('Call ended — Debbie')."""
    return ev.modality != "speech" and any(p in ev.content.lower() for p in _ENDED[kind])


MODALITY_NOUNS: dict[str, str] = lexicon().kinds["modality_nouns"]
"""Nouns that name a kind of event rather than its content ('my first note' is the oldest note)."""


def of_modality(store: Store, scope: Scope, phrase: str) -> list[Event] | None:
    """The events of the modality (or the kind: 'emails') a phrase names, oldest first, inside the scope; None
    for other phrases."""
    modality = MODALITY_NOUNS.get(phrase.strip())
    if modality is None:
        return events(store, scope, phrase)
    spans = scope.windows or ((None, scope.at_ms + 1),)
    found = {ev.id: ev for lo, hi in spans
             for ev in store.events(EventFilter(since_ms=lo, until_ms=hi, modalities=(modality,), limit=5000))}
    return sorted(found.values(), key=lambda ev: (ev.start_ms, ev.id))


SENDING = dict(pair.split(":") for pair in lexicon().verbs["sending"])
"""A verb of getting in touch, by how it opens -> the kind of event it sends ('when did Jo last text me?': her
latest message)."""


SENDING_OPENINGS = tuple(sorted(SENDING, key=len, reverse=True))
"""The openings of SENDING, the longest first ('e-mail' before 'email')."""


def sent_by(verb: str) -> str:
    """The kind of event a verb of getting in touch sends ('texted': message, 'phoned': call)."""
    return SENDING[next(k for k in SENDING_OPENINGS if verb.startswith(k))]
