"""Reminders and notes kept in the log as events, due-time parsing, and iCalendar export.

A reminder is an event of modality `reminder` with meta {kind: "reminder", text, due_ms, place};
marking it done appends another `reminder` event with meta {kind: "done", reminder_id}. The
current state is a fold over those events, so the log stays append-only and auditable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from egocli.core.errors import InputError, NotFound
from egocli.store import Event, EventFilter, NewEvent, Store
from egocli.core.timeutil import format_local, from_ms, parse_time, to_ms

MODALITY = "reminder"
_AMPM = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m\.?(?=\W|$)", re.I)
_IN = re.compile(r"^in\s+(\d+(?:\.\d+)?)\s*(minutes?|mins?|hours?|hrs?|days?)$", re.I)
_UNIT = {"m": 60_000, "h": 3_600_000, "d": 86_400_000}


@dataclass(frozen=True)
class Reminder:
    """A reminder as the log currently knows it."""

    id: int
    """The reminder's event id (what reminder_done takes)."""
    text: str
    """What to be reminded of."""
    due_ms: int
    """When, UTC epoch milliseconds."""
    place: str
    """Where, if given ('' otherwise)."""
    created_ms: int
    """When it was set."""
    done: bool
    """True once marked done."""

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict with the local due time."""
        return {"id": self.id, "text": self.text, "due": format_local(self.due_ms), "due_ms": self.due_ms,
                "place": self.place, "done": self.done}


def _normalise(text: str) -> str:
    """'3 pm' -> '15:00', 'at 9:30am' -> '09:30', 'tomorrow at 5pm' -> 'tomorrow 17:00'."""
    def clock(m: re.Match[str]) -> str:
        hour = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "p" else 0)
        return f"{hour:02d}:{m.group(2) or '00'}"
    out = _AMPM.sub(clock, text.strip())
    out = re.sub(r"\b(at|on)\s+", "", out, flags=re.I)
    return re.sub(r"\s+", " ", out).strip().lower()


def parse_due(text: str, now_ms: int) -> int:
    """A due time from '15:00', '3 pm', 'tomorrow 9:30', 'in 20 minutes' or ISO 8601; a bare clock
    time already past today means tomorrow."""
    cleaned = _normalise(text)
    if not cleaned:
        raise InputError("no due time given")
    rel = _IN.match(cleaned)
    if rel:
        return now_ms + int(float(rel.group(1)) * _UNIT[rel.group(2)[0].lower()])
    now = from_ms(now_ms).astimezone()
    try:
        due = parse_time(cleaned, now=now)
    except ValueError as ex:
        raise InputError(f"cannot read the due time {text!r}") from ex
    if ":" in cleaned and len(cleaned) <= 5 and due < now:
        due += timedelta(days=1)
    return to_ms(due)


def in_users_words(text: str, request: str) -> str:
    """The reminder's text as the user wrote it: the model's words ('call mum') with the casing they
    have in the request ('remind me to call Mum'); words the user never said stay as the model wrote them."""
    words = text.split()
    if not words:
        return text
    whole = re.search(r"(?<!\w)" + r"\s+".join(map(re.escape, words)) + r"(?!\w)", request, re.I)
    if whole:
        return whole.group(0)
    said: dict[str, set[str]] = {}
    for word in re.findall(r"[\w'-]+", request):
        said.setdefault(word.lower(), set()).add(word)
    return " ".join(next(iter(said[w.lower()])) if len(said.get(w.lower(), ())) == 1 else w for w in words)


def when_said(due_ms: int, now_ms: int) -> str:
    """A due time as a reply says it: 'today at 18:00', 'tomorrow at 09:30', 'Fri 04 Dec at 12:00'
    (with the year when it is not this year's)."""
    due, now = from_ms(due_ms).astimezone(), from_ms(now_ms).astimezone()
    days = (due.date() - now.date()).days
    day = {0: "today", 1: "tomorrow"}.get(days) or due.strftime("%a %d %b" + (" %Y" if due.year != now.year else ""))
    return f"{day} at {due:%H:%M}"


def _source(store: Store) -> int:
    src = store.find_source(kind="assistant", name="assistant")
    return src.id if src else store.add_source("assistant", "assistant", status="done").id


def add_reminder(store: Store, text: str, due_ms: int, place: str, now_ms: int) -> Reminder:
    """Store a new reminder; returns it."""
    if not text.strip():
        raise InputError("a reminder needs a text")
    where = f" in {place.strip()}" if place.strip() else ""
    content = f"Reminder: {text.strip()}{where}, due {format_local(due_ms)[:16]}"
    meta = {"kind": "reminder", "text": text.strip(), "due_ms": due_ms, "place": place.strip()}
    with store.transaction():
        rid = store.add_events([NewEvent(now_ms, now_ms, MODALITY, content, meta=meta)], source_id=_source(store))[0]
    return Reminder(rid, text.strip(), due_ms, place.strip(), now_ms, False)


def reminders(store: Store, include_done: bool = False) -> list[Reminder]:
    """All reminders, soonest due first (open ones only unless include_done)."""
    found: dict[int, Event] = {}
    done: set[int] = set()
    for ev in store.events(EventFilter(modalities=(MODALITY,))):
        kind = ev.meta.get("kind")
        if kind == "reminder" and isinstance(ev.meta.get("due_ms"), int):
            found[ev.id] = ev
        elif kind == "done" and isinstance(ev.meta.get("reminder_id"), int):
            done.add(ev.meta["reminder_id"])
    out = [Reminder(ev.id, str(ev.meta.get("text", "")), ev.meta["due_ms"], str(ev.meta.get("place", "")),
                    ev.start_ms, ev.id in done) for ev in found.values()]
    return sorted((r for r in out if include_done or not r.done), key=lambda r: (r.due_ms, r.id))


def mark_done(store: Store, reminder_id: int, now_ms: int) -> Reminder:
    """Mark a reminder done (appends a `done` event); NotFound for an unknown id."""
    match = [r for r in reminders(store, include_done=True) if r.id == reminder_id]
    if not match:
        raise NotFound(f"no reminder with id {reminder_id}")
    reminder = match[0]
    if not reminder.done:
        meta = {"kind": "done", "reminder_id": reminder_id}
        with store.transaction():
            store.add_events([NewEvent(now_ms, now_ms, MODALITY, f"Done: {reminder.text}", meta=meta)],
                             source_id=_source(store))
    return Reminder(reminder.id, reminder.text, reminder.due_ms, reminder.place, reminder.created_ms, True)


def due(store: Store, now_ms: int, window_ms: int = 60_000) -> list[Reminder]:
    """Open reminders due at or before now (and within window_ms after it): what a session announces."""
    return [r for r in reminders(store) if r.due_ms <= now_ms + window_ms]


def delete_reminder(store: Store, reminder_id: int) -> Reminder:
    """Delete a reminder for good, with its `done` marks; NotFound for an unknown id."""
    match = [r for r in reminders(store, include_done=True) if r.id == reminder_id]
    if not match:
        raise NotFound(f"no reminder with id {reminder_id}")
    marks = [ev.id for ev in store.events(EventFilter(modalities=(MODALITY,)))
             if ev.meta.get("kind") == "done" and ev.meta.get("reminder_id") == reminder_id]
    from egocli.store.sourcesql import forget_events

    forget_events(store, [reminder_id, *marks])
    return match[0]


def to_ics(items: list[Reminder], stamp_ms: int, duration_ms: int = 15 * 60_000) -> str:
    """An iCalendar (RFC 5545) document with one VEVENT and a display alarm per reminder (written by
    the `icalendar` package: escaping and line folding are its job)."""
    import icalendar

    cal = icalendar.Calendar()
    cal.add("prodid", "-//egocli//reminders//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    for r in items:
        event = icalendar.Event()
        event.add("uid", f"egocli-reminder-{r.id}@egocli")
        event.add("dtstamp", from_ms(stamp_ms))
        event.add("dtstart", from_ms(r.due_ms))
        event.add("dtend", from_ms(r.due_ms + duration_ms))
        event.add("summary", r.text)
        if r.place:
            event.add("location", r.place)
        event.add("status", "COMPLETED" if r.done else "CONFIRMED")
        alarm = icalendar.Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", r.text)
        alarm.add("trigger", timedelta(0))
        event.add_component(alarm)
        cal.add_component(event)
    return cal.to_ical().decode("utf-8")


def get_note(store: Store, note_id: int) -> Event:
    """A note event by id; NotFound if the id is not a note."""
    ev = store.get_event(note_id)
    if ev.modality != "note":
        raise NotFound(f"event {note_id} is not a note")
    return ev


def delete_note(store: Store, note_id: int) -> str:
    """Delete one note for good; returns its text."""
    ev = get_note(store, note_id)
    flt = EventFilter(since_ms=ev.start_ms, until_ms=ev.start_ms + 1, modalities=("note",))
    others = [e.id for e in store.events(flt) if e.id != note_id]
    if others:
        raise InputError(f"note {note_id} shares its time with notes {others}; use `egocli log forget`")
    store.forget(flt)
    return ev.content
