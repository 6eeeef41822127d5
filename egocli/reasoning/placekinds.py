"""Kinds of place: a noun that takes in several places ('how many appointments did I have?': the doctor's, the
dentist's, the physio...; [kinds.places] in the lexicon), their visits, and the kind of place a frame shows one at
('a pharmacy counter, white paper bags': the pharmacy)."""

from __future__ import annotations

from egocli.core.lexicon import lexicon, stem, verb_keys, words
from egocli.reasoning import outings, terms
from egocli.reasoning.visits import Find, bare, home_word, leaves, stretches
from egocli.store import Event


def going(phrase: str) -> str:
    """The place a phrase asks about going to ('go down to dobson's', 'been to the pharmacy', 'pop into the co-op'),
    else '' (home, out, or no verb of going: 'go out' is a move, 'go shopping' an act)."""
    tokens = words(phrase)
    if not tokens or not (stem(tokens[0]) in _GOING or (len(tokens) > 1 and f"{stem(tokens[0])}_{tokens[1]}" in _GOING)):
        return ""
    rest = tokens[1:]
    if not rest or (rest[0] not in _GOING_PARTICLES and stem(tokens[0]) not in _GOING_DIRECT):
        return ""  # 'go shopping', 'get the bus'
    while rest and rest[0] in _GOING_PARTICLES:
        rest = rest[1:]
    place = bare(rest)
    return "" if not place or place[0] in _VISITS["home_words"] or place[0] == "out" else " ".join(place)


_VISITS = lexicon().visits
_GOING_PARTICLES = frozenset(_VISITS["going_particles"])
_GOING, _GOING_DIRECT = verb_keys(_VISITS["going_verbs"]), verb_keys(_VISITS["going_direct"])


def of_kind(phrase: str) -> tuple[str, ...]:
    """The places a phrase's kind-of-place noun takes in ('have appointments': doctor, dentist, ...), else ()."""
    return next((_PLACES[t] for t in terms.terms(phrase) if t in _PLACES), ())


def kind_visits(places: tuple[str, ...], find: Find) -> list[list[Event]]:
    """The visits to any of the places, one a stretch of their mentions in which one of them was seen (a frame
    or a sign read: being there, not the call that booked it)."""
    mentions = sorted({e.id: e for place in places for e in find(place)}.values(), key=lambda e: (e.start_ms, e.id))
    return [g for g in stretches(mentions) if any(e.modality in ("visual", "text") for e in g)]


_PLACES = {terms.terms(kind)[0]: tuple(p.replace("_", " ") for p in places.split())
           for kind, places in lexicon().kinds["places"].items()}
"""A kind of place (stemmed) -> the places it takes in."""


_KINDS_SEEN = sorted({p for places in _PLACES.values() for p in places}, key=len, reverse=True)


def kind_seen(ev: Event) -> str:
    """The kind of place a frame shows one at, named in its first phrase ('a pharmacy counter, white paper bags':
    pharmacy; 'Tennyson Road Post Office, a queue': post office), else ''; a frame at home names none ('home,
    carrying the pharmacy bag in')."""
    first = terms.clauses(ev.content.lower())[0].split(",")[0]
    said = words(first)
    if not said or home_word(first) or outings.own_room(first) or leaves(ev):  # 'walking out of the clinic door':
        return ""  # no place reached; 'the pharmacy bag in the bathroom cabinet': at home
    return next((p for p in _KINDS_SEEN if _has(said, words(p))), "")


def _has(said: list[str], phrase: list[str]) -> bool:
    return any(said[i:i + len(phrase)] == phrase for i in range(len(said) - len(phrase) + 1))
