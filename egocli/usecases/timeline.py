"""The timeline use case: a day of the log, its digest (the diary view), a month's density, one event with
its neighbours, search, kept frames, forgetting a span, and questions through the ask core - as JSON-ready
data for the page.

Transport lives in egocli/stream/timeline_routes.py; this module knows the store and the media folder, and
answers questions through an injected `Answerer`, so it never loads a model itself."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any, Protocol

from egocli.usecases import logbook
from egocli.usecases.day import day_digest, frame_type
from egocli.core.config import Settings
from egocli.core.errors import InputError, NotFound
from egocli.models.base import Embedder, PrefixCachedModel
from egocli.store import EventFilter, Store
from egocli.store.records import Event
from egocli.core.timeutil import format_local, to_ms

MAX_DAY_EVENTS = 20_000
"""Events sent for one day; a denser day is cut (the page says so)."""
MAX_SPAN_DAYS = 62
"""Longest range the density strip covers in one request."""
MAX_FORGET_MS = 7 * 86_400_000
"""Longest span the page may forget at once (the CLI has no such limit)."""


class Answerer(Protocol):
    """Answers a question with the ask core, streaming the answer's tokens as they come."""

    def __call__(self, store: Store, question: str, on_token: Callable[[str], None]) -> dict[str, Any]:
        """{"text": ..., "citations": [{"event_id", "time", "content"}, ...]} for a question."""
        ...


@dataclass(frozen=True)
class Media:
    """A stored media file, decrypted, ready to send."""

    data: bytes
    """The file's bytes (decrypted for an encrypted log)."""
    content_type: str
    """Its MIME type."""


def day_bounds(day: date) -> tuple[int, int]:
    """[start, end) of a local calendar day in UTC epoch ms (23 or 25 hours on DST changes)."""
    start = datetime.combine(day, time()).astimezone()
    end = datetime.combine(day + timedelta(days=1), time()).astimezone()
    return to_ms(start), to_ms(end)


def _mark(ev: Event) -> dict[str, Any]:
    """What the axis needs of an event: compact keys, and whether it has a kept frame to show."""
    return {"id": ev.id, "s": ev.start_ms, "e": max(ev.end_ms, ev.start_ms), "m": ev.modality,
            "t": ev.content[:200], "f": 1 if frame_type(ev.media_path) else 0}


def _detail(ev: Event) -> dict[str, Any]:
    return {"id": ev.id, "start_ms": ev.start_ms, "end_ms": ev.end_ms, "local": format_local(ev.start_ms),
            "end_local": format_local(ev.end_ms), "modality": ev.modality, "source": ev.source,
            "content": ev.content, "media": bool(frame_type(ev.media_path)), "media_offset_ms": ev.media_offset_ms,
            "meta": ev.meta}


class Timeline:
    """The log as the timeline page sees it; one Store per thread (SQLite connections stay on theirs)."""

    def __init__(self, open_store: Callable[[], Store], media_dir: Path, media_key: Callable[[Store], bytes | None],
                 answerer: Answerer | None = None) -> None:
        self._open, self.media_dir, self._media_key, self.answerer = open_store, media_dir, media_key, answerer
        self._local = threading.local()

    def store(self) -> Store:
        """This thread's Store."""
        store = getattr(self._local, "store", None)
        if store is None:
            store = self._local.store = self._open()
        return store

    def _day_or_newest(self, day: date | None) -> date:
        if day is not None:
            return day
        newest = list(self.store().events(EventFilter(limit=1), newest_first=True))
        return datetime.fromtimestamp(newest[0].start_ms / 1000).astimezone().date() if newest else date.today()

    def day(self, day: date | None) -> dict[str, Any]:
        """One local day's events (the newest day with events when None), oldest first."""
        store, day = self.store(), self._day_or_newest(day)
        lo, hi = day_bounds(day)
        flt = EventFilter(since_ms=lo, until_ms=hi, limit=MAX_DAY_EVENTS + 1)
        events = [_mark(ev) for ev in store.events(flt)]
        modalities = sorted({e["m"] for e in events}, key=_lane_order)
        return {"day": day.isoformat(), "start_ms": lo, "end_ms": hi, "events": events[:MAX_DAY_EVENTS],
                "truncated": len(events) > MAX_DAY_EVENTS, "modalities": modalities}

    def digest(self, day: date | None) -> dict[str, Any]:
        """The day told (egocli.usecases.day.DayDigest as JSON): digest line, hours, their summaries and
        salient events; the newest day with events when None."""
        return day_digest(self.store(), self._day_or_newest(day)).to_json()

    def density(self, first: date, last: date) -> dict[str, Any]:
        """Events per local day from `first` to `last` inclusive (at most MAX_SPAN_DAYS days)."""
        if last < first or (last - first).days >= MAX_SPAN_DAYS:
            raise InputError(f"a density range is 1..{MAX_SPAN_DAYS} days")
        store, counts, day = self.store(), {}, first
        while day <= last:
            lo, hi = day_bounds(day)
            counts[day.isoformat()] = store.count(EventFilter(since_ms=lo, until_ms=hi))
            day += timedelta(days=1)
        return {"days": counts}

    def event(self, event_id: int, context: int = 3) -> dict[str, Any]:
        """An event with up to `context` neighbours either side (NotFound for an unknown id)."""
        around = self.store().neighbours(event_id, max(0, min(context, 20)))
        this = next(ev for ev in around if ev.id == event_id)
        return {"event": _detail(this), "neighbours": [_detail(ev) for ev in around if ev.id != event_id]}

    def search(self, query: str, limit: int = 50) -> dict[str, Any]:
        """Full-text hits, best first, with their times and highlighted snippets."""
        if not query.strip():
            return {"hits": []}
        hits = self.store().search(query, EventFilter(limit=max(1, min(limit, 200))))
        return {"hits": [{**_mark(ev), "local": format_local(ev.start_ms), "snippet": snip}
                         for ev, _, snip in hits]}

    def media(self, event_id: int) -> Media:
        """The kept frame of an event (decrypted); NotFound when there is none or it was removed."""
        from egocli.privacy.crypto import read_media

        store = self.store()
        ev = store.get_event(event_id)
        if not ev.media_path:
            raise NotFound(f"event {event_id} has no media")
        path = (self.media_dir / ev.media_path).resolve()
        if self.media_dir.resolve() not in path.parents or not path.is_file():
            raise NotFound(f"the media of event {event_id} is not in the media folder")
        kind = frame_type(ev.media_path)  # an encrypted log keeps frames as NAME.jpg.enc
        if kind is None:
            raise NotFound(f"the media of event {event_id} is not an image")
        if not hasattr(self._local, "media_key"):
            self._local.media_key = self._media_key(store)  # scrypt: once per thread, not per frame
        return Media(read_media(path, self._local.media_key), kind)

    def forget(self, since_ms: int, until_ms: int) -> dict[str, Any]:
        """Delete the events starting in [since, until) for good, with their media (as `log forget`)."""
        if until_ms <= since_ms or until_ms - since_ms > MAX_FORGET_MS:
            raise InputError("a span to forget must be non-empty and at most 7 days long")
        removed = logbook.forget(self.store(), EventFilter(since_ms=since_ms, until_ms=until_ms), self.media_dir)
        return {"forgotten": removed}

    def count(self, since_ms: int, until_ms: int) -> int:
        """How many events a span to forget holds (for the confirmation)."""
        return self.store().count(EventFilter(since_ms=since_ms, until_ms=until_ms))

    def ask(self, question: str, on_token: Callable[[str], None]) -> dict[str, Any]:
        """Answer through the injected ask core; InputError when this server answers no questions."""
        if self.answerer is None:
            raise InputError("this server does not answer questions")
        question = question.strip()
        if not question or len(question) > 1000:
            raise InputError("a question is 1..1000 characters")
        return self.answerer(self.store(), question, on_token)


LANES = ("visual", "text", "speech", "note", "tool", "system")


def _lane_order(modality: str) -> tuple[int, str]:
    return (LANES.index(modality) if modality in LANES else len(LANES), modality)


def ask_answerer(settings: Settings, llm: PrefixCachedModel | None = None,
                 embedder: Embedder | None = None) -> Answerer:
    """An Answerer over the one ask service: the given models, else those of `settings` (loaded at the first
    question, then kept: the registry loads each model once per process)."""
    from egocli.reasoning.asker import AskRequest
    from egocli.reasoning.service import VECTORS, AskService

    service: list[AskService] = []

    def answer(store: Store, question: str, on_token: Callable[[str], None]) -> dict[str, Any]:
        req = AskRequest(question)
        AskService.scope(store, req)  # a bad question or scope fails before any model loads
        if not service:
            service.append(AskService.using(llm, embedder, preparation=VECTORS) if llm is not None
                           else AskService.from_settings(settings, VECTORS, background=False))
        result = service[0].ask(store, req, on_token)
        return {"text": result.text, "citations": [
            {"event_id": c.event_id, "time": c.time, "content": c.content} for c in result.citations]}

    return answer


def for_settings(settings: Settings, answerer: Answerer | None) -> Timeline:
    """A Timeline over the log of `settings` (its key from EGOCLI_KEY or a prompt, asked once)."""
    from egocli.privacy import crypto

    key = crypto.key_for(settings.db)
    Store.open(settings.db, create=False, key=key).close()  # a missing or unreadable log fails here, at start

    def open_store() -> Store:
        return Store.open(settings.db, create=False, key=key)

    return Timeline(open_store, settings.media_dir, crypto.media_key, answerer)


def serve(settings: Settings, host: str, port: int, token: str | None, day: str | None,
          ready: Callable[[str], None]) -> None:
    """Serve the timeline page alone until SIGINT/SIGTERM; `ready` gets the URL to open."""
    import asyncio
    import signal

    from aiohttp import web

    from egocli.core.errors import UsageError
    from egocli.stream.server import is_loopback
    from egocli.stream.timeline_routes import browse_app
    from egocli.core.timeutil import parse_time_ms

    if not is_loopback(host) and not token:
        raise UsageError(f"--host {host} exposes the log beyond this machine: give --token too")
    first = None
    if day:
        first = (parse_day_text(day) or datetime.fromtimestamp((parse_time_ms(day) or 0) / 1000).astimezone().date())
    source = for_settings(settings, ask_answerer(settings))

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        runner = web.AppRunner(browse_app(source, token, host), handle_signals=False, access_log=None)
        await runner.setup()
        try:
            site = web.TCPSite(runner, host, port, shutdown_timeout=1.0)
            try:
                await site.start()
            except OSError as ex:
                raise UsageError(f"cannot listen on {host}:{port}: {ex.strerror or ex}") from ex
            bound = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            name = f"[{host}]" if ":" in host else host
            query = "&".join(p for p in (f"day={first.isoformat()}" if first else "",
                                         f"token={token}" if token else "") if p)
            ready(f"http://{name}:{bound}/timeline" + (f"?{query}" if query else ""))
            await stop.wait()
        finally:
            await runner.cleanup()

    asyncio.run(main())


def parse_day_text(text: str) -> date | None:
    """YYYY-MM-DD as a date; None for anything else (then it is read as a time: 'yesterday', ...)."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None
