"""The day digest over real logs: its hours and their salient events, counts, the summaries `summarize`
builds (and when they are stale), the extractive line without them, and the DAY a user types."""

from __future__ import annotations

import json
from datetime import date, datetime

import pytest

from egocli.core.errors import UsageError
from egocli.reasoning import hcc
from egocli.store import NewEvent, Store
from egocli.usecases.day import day_digest, log_days, parse_day

DAY = date(2026, 11, 28)


def at(hh: int, mm: int, day: date = DAY) -> int:
    """Local clock time on a day, as UTC epoch ms."""
    return int(datetime(day.year, day.month, day.day, hh, mm).astimezone().timestamp() * 1000)


def add(store: Store, rows: list[tuple[int, str, str]], media: str | None = None) -> list[int]:
    return store.add_events([NewEvent(t, t + 4000, m, c, media) for t, m, c in rows])


@pytest.fixture
def afternoon(store: Store) -> Store:
    add(store, [(at(13, 2), "speech", "Lunch is done, I need to call the pharmacy about the refill"),
                (at(13, 10), "visual", "Putting the house keys in the blue bowl by the door"),
                (at(13, 40), "speech", "Pharmacist: the refill of metformin is ready on Monday after ten"),
                (at(15, 5), "note", "Water the tomato plants tomorrow morning"),
                (at(15, 30), "system", "session closed"),
                (at(23, 59), "speech", "Good night, lights off"),
                (at(0, 0, date(2026, 11, 29)), "speech", "the next day already")])
    add(store, [(at(14, 20), "visual", "Red bus number 12 to the City Centre")], media="frames/bus.jpg")
    return store


def test_the_hours_hold_their_events_in_time_order(afternoon):
    d = day_digest(afternoon, DAY)
    assert [h.label for h in d.hours] == ["13:00-14:00", "14:00-15:00", "15:00-16:00", "23:00-00:00"]
    first = d.hours[0]
    assert [m.content for m in first.salient][1] == "Putting the house keys in the blue bowl by the door"
    assert [local_time(m.start_ms) for m in first.salient] == ["13:02", "13:10", "13:40"]
    assert first.events == 3 and first.counts == {"speech": 2, "visual": 1}
    assert d.events == 7 and d.counts == {"speech": 3, "visual": 2, "note": 1, "system": 1}
    bus = d.hours[1].salient[0]
    assert bus.media and not first.salient[0].media and bus.modality == "visual"
    assert [m.content for m in d.hours[2].salient] == ["Water the tomato plants tomorrow morning"]  # not 'session'
    assert d.hours[2].counts == {"note": 1, "system": 1}
    assert all("next day" not in m.content for h in d.hours for m in h.salient)


def local_time(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000).strftime("%H:%M")


def test_without_summaries_the_day_is_told_extractively(afternoon):
    d = day_digest(afternoon, DAY)
    assert d.summary is None and d.digest_from == "extractive"
    assert all(h.summary is None for h in d.hours)
    sentences = d.digest.split(". ")
    assert 2 <= len(sentences) <= 4 and d.digest.endswith(".")
    assert "metformin" in d.digest or "pharmacy" in d.digest


def test_the_summaries_summarize_built_appear_and_go_stale(afternoon):
    built = list(hcc.build(afternoon, hcc.ExtractiveSummarizer()))
    assert {s.level for s in built} == {"hour", "day", "week"}
    d = day_digest(afternoon, DAY)
    day_summary = next(s for s in built if s.level == "day" and s.start_ms == d.start_ms)
    assert d.digest_from == "summary" and d.digest == day_summary.text.strip()
    assert d.summary is not None and not d.summary.stale and d.summary.model == "extractive"
    assert "blue bowl" in d.hours[0].summary.text and not d.hours[0].summary.stale
    add(afternoon, [(at(13, 50), "speech", "Maria says the book club moved to Thursday")])
    later = day_digest(afternoon, DAY)
    assert later.hours[0].summary.stale and later.summary.stale and not later.hours[1].summary.stale


def test_an_empty_day_is_an_empty_digest(afternoon):
    d = day_digest(afternoon, date(2026, 11, 30))
    assert (d.events, d.hours, d.counts, d.digest, d.digest_from) == (0, (), {}, "", "none")
    assert d.to_json()["hours"] == [] and d.end_ms > d.start_ms


def test_a_day_of_system_events_only_has_its_hour_and_nothing_to_tell(store):
    add(store, [(at(9, 0), "system", "session opened"), (at(9, 30), "system", "session closed")])
    d = day_digest(store, DAY)
    assert len(d.hours) == 1 and d.hours[0].salient == () and d.hours[0].events == 2
    assert d.digest == "" and d.digest_from == "none"


def test_the_json_has_the_documented_shape(afternoon):
    list(hcc.build(afternoon, hcc.ExtractiveSummarizer()))
    doc = json.loads(json.dumps(day_digest(afternoon, DAY).to_json()))
    assert set(doc) == {"day", "start_ms", "end_ms", "events", "truncated", "counts", "digest", "digest_from",
                        "summary", "hours"}
    assert doc["day"] == "2026-11-28" and doc["start_ms"] == at(0, 0) and doc["end_ms"] == at(0, 0, date(2026, 11, 29))
    assert set(doc["summary"]) == {"text", "model", "stale"}
    hour = doc["hours"][1]
    assert set(hour) == {"start_ms", "end_ms", "label", "events", "counts", "summary", "salient"}
    assert hour["label"] == "14:00-15:00" and hour["end_ms"] - hour["start_ms"] == 3_600_000
    assert hour["salient"][0] == {"id": 8, "start_ms": at(14, 20), "end_ms": at(14, 20) + 4000, "time": "14:20",
                                  "local": "2026-11-28 14:20:00", "modality": "visual",
                                  "content": "Red bus number 12 to the City Centre", "media": True}


def test_a_dense_day_tells_few_events_per_hour_and_says_when_it_was_cut(store):
    add(store, [(at(10, 0) + i * 1000, "speech", f"item {i} of the stocktake in aisle {i % 40}") for i in range(500)])
    d = day_digest(store, DAY, per_hour=5)
    assert len(d.hours[0].salient) == 5 and d.hours[0].events == 500 and not d.truncated
    cut = day_digest(store, DAY, max_events=100)
    assert cut.truncated and cut.events == 100


NOW = datetime(2026, 12, 2, 15, 0).astimezone()  # a Wednesday


@pytest.mark.parametrize("text, day", [
    ("2026-11-28", date(2026, 11, 28)), ("today", date(2026, 12, 2)), ("yesterday", date(2026, 12, 1)),
    ("saturday", date(2026, 11, 28)), ("Monday", date(2026, 11, 30)), ("last wednesday", date(2026, 11, 25)),
    ("nov 28", date(2026, 11, 28)), (" 2026-11-28 ", date(2026, 11, 28)),
])
def test_a_day_is_read_as_people_type_it(text, day):
    assert parse_day(text, NOW) == day


@pytest.mark.parametrize("text, message", [
    ("blurgh", "cannot read the day 'blurgh'"), ("", "cannot read the day ''"),
    ("2026-13-45", "not a calendar day"), ("2026-11-28T14:00", "a day as YYYY-MM-DD"),
    ("9999-12-31", "out of range"),
])
def test_a_day_that_cannot_be_read_is_a_usage_error(text, message):
    with pytest.raises(UsageError, match=message) as raised:
        parse_day(text, NOW)
    assert raised.value.exit_code == 2 and "\n" not in str(raised.value)


def test_the_log_days_run_from_the_first_event_to_the_latest(afternoon, store):
    assert log_days(afternoon) == (DAY, date(2026, 11, 29))
    assert log_days(Store.open(None)) is None


def test_a_recording_an_event_names_is_no_kept_frame(store: Store) -> None:
    add(store, [(at(10, 0), "speech", "Remember, the house keys are in the blue bowl")], media="/home/me/glasses.mp4")
    add(store, [(at(10, 1), "text", "PHARMACY Open 9-18")], media="frames/0001.jpg.enc")
    hours = day_digest(store, DAY).to_json()["hours"]
    media = {e["content"]: e["media"] for h in hours for e in h["salient"]}
    assert media == {"Remember, the house keys are in the blue bowl": False, "PHARMACY Open 9-18": True}
