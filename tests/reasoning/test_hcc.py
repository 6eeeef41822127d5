"""HCC summaries: built incrementally, invalidated when events change, picked per question."""

from __future__ import annotations

from collections import Counter

from egocli.reasoning import asker, hcc
from egocli.store import NewEvent
from egocli.store import summaries as sql

from .conftest import AT, build_log


def _levels(chunks):
    return Counter(c.level for c in chunks)


def test_build_then_nothing_left_to_do(store):
    build_log(store, days=2)
    todo = hcc.plan(store)
    hours = {e.start_ms // 3_600_000 for e in store.events()}
    assert _levels(todo)["hour"] == len(hours) and _levels(todo)["day"] >= 2 and _levels(todo)["week"] >= 1
    built = list(hcc.build(store, hcc.ExtractiveSummarizer()))
    assert len(built) == len(todo)
    assert hcc.plan(store) == []


def test_new_event_invalidates_only_its_hour_day_and_week(store):
    build_log(store, days=2)
    list(hcc.build(store, hcc.ExtractiveSummarizer()))
    t = AT - 5 * 3_600_000 + 60_000
    store.add_events([NewEvent(t, t + 1000, "speech", "the plumber arrives on friday")])
    stale = hcc.plan(store)
    assert _levels(stale) == {"hour": 1, "day": 1, "week": 1}
    assert all(c.start_ms <= t < c.end_ms for c in stale)
    list(hcc.build(store, hcc.ExtractiveSummarizer()))
    hour = [s for s in sql.get_summaries(store, "hour", t, t + 1) if s.start_ms <= t][0]
    assert "plumber" in hour.text and hour.event_count == 7


def test_summaries_of_emptied_chunks_are_dropped(store):
    build_log(store, days=1)
    list(hcc.build(store, hcc.ExtractiveSummarizer()))
    before = sql.summary_count(store)["hour"]
    store.conn.execute("DELETE FROM events WHERE start_ms < ?", (AT - 23 * 3_600_000,))
    left = len({e.start_ms // 3_600_000 for e in store.events()})
    list(hcc.build(store, hcc.ExtractiveSummarizer()))
    assert sql.summary_count(store)["hour"] == left < before


def test_relevant_summaries_are_prepended_within_budget(store):
    build_log(store)
    list(hcc.build(store, hcc.ExtractiveSummarizer()))
    ctx = asker.assemble(store, asker.AskRequest("what did Doctor Okafor say about the scan?", at_ms=AT, budget=600))
    assert ctx.summaries and "Summaries:" in ctx.text
    assert any("Okafor" in s.text for s in ctx.summaries)
    assert sum(len(s.text) for s in ctx.summaries) * 2 // 7 <= 600 // 4


def test_a_partial_range_is_not_mistaken_for_stale(store):
    build_log(store, days=2)
    list(hcc.build(store, hcc.ExtractiveSummarizer()))
    assert hcc.plan(store, AT - 5 * 3_600_000, AT - 3_600_000) == []


def test_the_extractive_summary_cuts_lines_at_a_word() -> None:
    from egocli.reasoning.summarizers import clip

    line = "Putting the house keys in the blue bowl on the shelf by the door, next to the umbrella stand."
    assert clip(line, 40) == "Putting the house keys in the blue bowl…"
    assert clip("Lights off.", 40) == "Lights off"
    summary = hcc.ExtractiveSummarizer(width=30).summarize(["Watering can filled at the kitchen sink, then left.",
                                                            "Lights off."], "an hour")
    assert summary == "Watering can filled at the…; Lights off"
