"""The T-CoT invariant, checked for every window kind: a window contains the events it was built for."""

from __future__ import annotations

import pytest

from egocli.reasoning import asker, retrieval, tcot
from egocli.store import NewEvent, Store
from egocli.store import windows as store_windows

from .conftest import AT

CHORES = ["wiping the counter", "looking at the phone", "opening the fridge", "closing the cupboard door",
          "walking to the sink", "picking up a cloth", "turning on the tap", "drying hands on a towel"]
DAY = 86_400_000


def _dense_week(store: Store) -> dict[str, list[int]]:
    """Narrations every 5 s from 08:55 to 09:20 on five mornings, the action three times on Thursday
    (a few minutes apart) and once on Friday: the log of the issue's 'when did I last ...' defect."""
    needles: dict[str, list[int]] = {"thu": [], "fri": []}
    for day in range(5, 0, -1):
        base = AT - day * DAY - 9 * 3_600_000 + 5 * 60_000  # 08:55 of that day
        events = [NewEvent(base + i * 5000, base + i * 5000 + 4000, "narration", CHORES[i % len(CHORES)])
                  for i in range(300)]
        store.add_events(events)
        if day in (2, 1):
            offsets = [5 * 60_000 + 10_000] if day == 1 else [5 * 60_000 + 2_000, 8 * 60_000, 11 * 60_000]
            ids = store.add_events([NewEvent(base + o, base + o + 3000, "narration", "watering the basil plant")
                                    for o in offsets])
            needles["fri" if day == 1 else "thu"] += ids
    return needles


def _check(store: Store, story: tcot.Storyline) -> None:
    """Every window shows its own hits and, for each span it was built for, an event there (when the log
    has one); every event a window shows overlaps the window."""
    for w in story.windows:
        shown = {e.id for e in w.events}
        assert w.anchors <= shown, (w.reason, w.anchors - shown)
        for a, b in w.targets:
            assert w.start_ms <= a and b <= w.end_ms
            there = store_windows.overlapping(store, a, max(b, a + 1), w.source_id)
            if there:
                assert any(e.start_ms <= max(b, a + 1) and e.end_ms >= a for e in w.events), (w.reason, a, b)
        for e in w.events:
            assert e.start_ms <= w.end_ms and e.end_ms >= w.start_ms, (w.reason, e.id)


@pytest.mark.parametrize("budget", [120, 400, 1200])
def test_hit_windows_contain_their_hits_in_a_dense_log(store, budget):
    needles = _dense_week(store)
    req = asker.AskRequest("When did I last water the basil plant?", at_ms=AT, budget=budget, hcc=False)
    ctx = asker.assemble(store, req)
    hit_windows = [w for w in ctx.storyline.windows if w.reason == "hit"]
    assert hit_windows
    _check(store, ctx.storyline)
    shown = {e.id for e in ctx.storyline.events}
    assert needles["fri"][0] in shown  # the newest match, the answer, is always in the context
    if budget >= 400:
        assert set(needles["thu"]) <= shown


def test_merged_hit_window_keeps_every_hit_not_just_its_centre(store):
    """Three hits minutes apart merge into one window; ranking its events by the window's centre showed
    the minute between them and none of the hits."""
    needles = _dense_week(store)
    scope = asker.parse_scope("basil plant", AT)
    hits = retrieval.retrieve(store, "watering the basil plant", scope)
    story = tcot.build(store, scope, hits, ["watering the basil plant"], 400)
    merged = [w for w in story.windows if len(w.anchors) >= 3]
    assert merged and set(needles["thu"]) <= {e.id for e in merged[0].events}
    _check(store, story)


def test_hit_window_of_a_very_long_merged_span_still_holds_its_hits(store):
    """More events than one window query returns: the hits past that limit are fetched on their own."""
    events = [NewEvent(AT + i * 1000, AT + i * 1000 + 900, "narration", CHORES[i % len(CHORES)]) for i in range(900)]
    store.add_events(events)
    late = store.add_events([NewEvent(AT + 850_000, AT + 851_000, "narration", "feeding the goldfish")])[0]
    w = tcot.Window(AT, AT + 900_000, None, "hit", 1, targets=[(AT + 850_000, AT + 851_000)], anchors={late})
    kept = tcot.fill(store, [w], 200, tcot.Renderer((), AT).line)
    assert kept and late in {e.id for e in kept[0].events}


def test_tag_windows_contain_the_events_at_their_tags(store):
    src = store.add_source("import", "P09-20250101-100000", start_ms=AT, status="done")
    busy = [NewEvent(AT + i * 2000, AT + i * 2000 + 1500, "step", f"knead the dough, pass {i}") for i in range(1200)]
    store.add_events(busy, source_id=src.id)
    choices = ("From <TIME 00:00:10.000 video 1> to <TIME 00:12:00.000 video 1>",
               "From <TIME 00:25:00.000 video 1> to <TIME 00:25:03.000 video 1>",
               "<TIME 00:39:59.000 video 1>")
    req = asker.AskRequest("When was the dough kneaded?", choices, at_ms=AT + 10**8, videos={1: src.name},
                           budget=300, hcc=False)
    ctx = asker.assemble(store, req)
    assert {w.reason for w in ctx.storyline.windows} >= {"tag"}
    _check(store, ctx.storyline)


def test_overview_and_recent_windows_span_their_events(store):
    _dense_week(store)
    for req in (asker.AskRequest("what happened?", at_ms=AT, budget=300, hcc=False, tcot=False),
                asker.AskRequest("what happened?", at_ms=AT, budget=300, hcc=False, baseline="recent")):
        ctx = asker.assemble(store, req)
        assert ctx.storyline.windows and ctx.storyline.windows[0].reason in ("overview", "recent")
        _check(store, ctx.storyline)
