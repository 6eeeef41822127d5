"""Moves home: leaving home and getting back, as frames say them or show them (visits.py reads the cues,
outings.py the scenes), and which of them a question's move asks about ('leave home for the clinic', 'get home
from work', 'go out with the dog')."""

from __future__ import annotations

from egocli.reasoning import outings, staying, terms, visits
from egocli.reasoning.plan import Asked
from egocli.reasoning.visits import Find
from egocli.store import Event
from egocli.store import windows as store_windows


def home_moves(asked: Asked, kind: str) -> list[Event]:
    """Arrivals home or departures from home in the scope: those a frame says ('letting myself in'), and those the
    frames show (outings.py: the hallway, then the street) where none is said within SAID_MS."""
    at = asked.scope.at_ms
    spans = asked.scope.windows or ((at - visits.HOME_LOOKBACK_MS, at + 1),)
    test = visits.home_arrival if kind == "arrive" else visits.home_departure
    out = []
    for lo, hi in spans:
        frames = [e for e in store_windows.overlapping(asked.store, lo - outings.REACH_MS, min(hi, at + 1), None, 20000)
                  if e.start_ms <= at and e.modality == "visual"]
        said = [e for e in frames if e.start_ms >= lo and test(e)
                and not (kind == "leave" and outings.stays_put(frames, e, "home"))]
        shown = [e for e in outings.transitions(frames, kind) if e.start_ms >= lo
                 and not any(abs(e.start_ms - s.start_ms) <= SAID_MS for s in said)]
        out += said + shown
    return sorted({e.id: e for e in out}.values(), key=lambda e: (e.start_ms, e.id))


SAID_MS = 20 * 60_000
"""How close to a move a frame says a move shown by the frames around it is the same one."""


def moves(asked: Asked, phrase: str, find: Find) -> list[Event] | None:
    """The arrivals or departures a phrase asks about, in time order; None when it asks about no move. Leaving home
    for a place is the last departure from home before each visit to it; getting home from (or after) a place, the
    first arrival home after each departure from it (any arrival home when no visit to it is found)."""
    asked_move = visits.move(phrase)
    if asked_move is None:
        return None
    if asked_move.place:
        found = visits.visits(asked, asked_move.place, find)
        if asked_move.kind == "leave":  # no leaving seen after a sign read or an arrival: the next move seen
            return [end for v in found if (end := departure(asked, v)) is not None]
        return [v.begin for v in found if visits.arrives(v.begin)] or [v.begin for v in found]
    home = _with(asked, home_moves(asked, asked_move.kind), asked_move)
    if asked_move.kind == "leave" and asked_move.to:
        begins = [v.begin.start_ms for v in visits.visits(asked, asked_move.to, find)]
        left = [max((h for h in home if b - TRIP_MS <= h.start_ms <= b), key=lambda h: h.start_ms, default=None)
                for b in begins]
        return sorted({e.id: e for e in left if e is not None}.values(), key=lambda e: e.start_ms) or home
    if asked_move.kind == "arrive" and asked_move.after:
        went = visits.visits(asked, asked_move.after, find)  # no departure seen from any: from their beginnings on
        ends = [v.end for v in went if v.end is not None] or [v.begin for v in went]
        back = [next(h for h in home if h.start_ms >= end.start_ms) for end in ends
                if any(h.start_ms >= end.start_ms for h in home)]
        return sorted({e.id: e for e in back}.values(), key=lambda e: e.start_ms) or ([] if went else home)
    return home


def departure(asked: Asked, visit: visits.Visit) -> Event | None:
    """When a visit ended: its leaving seen, else, when a sign read or an arrival seen began it, the first way of
    getting about seen after that, or the sign of another place (staying.moved_on); else None."""
    if visit.end is not None:
        return visit.end
    begin = visit.begin
    if visits.signed(begin) or (begin.modality == "visual" and visits.arrives(begin)):
        return staying.moved_on(asked, begin, begin.start_ms)
    return None


def _with(asked: Asked, home: list[Event], asked_move: visits.Move) -> list[Event]:
    """Of moves home, those whose outing (from leaving home to getting back, or the OUTING_MS on the other side of
    the move) names the company the question does ('went out with the dog'); all of them when none does."""
    want = set(terms.terms(asked_move.company))
    if not want:
        return home
    named = [ev for ev in home if names_between(asked, *((ev.start_ms, ev.start_ms + OUTING_MS) if asked_move.kind ==
                                                         "leave" else (ev.start_ms - OUTING_MS, ev.end_ms)), want)]
    return named or home


def names_between(asked: Asked, lo: int, hi: int, want: set[str]) -> bool:
    """Whether a line between two moments names one of the terms ('dog': the outing the dog went on)."""
    return any(want & set(terms.terms(e.content)) for e in store_windows.overlapping(asked.store, lo, hi, None, 2000))


OUTING_MS = 45 * 60_000
"""How much of an outing after leaving (or before getting back) is read for the company named."""
TRIP_MS = 3 * 3_600_000
"""How long before arriving at a place the departure from home for it may be."""
