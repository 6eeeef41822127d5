"""Retention removes exactly the expired events, their media and every summary that covered them."""

from __future__ import annotations

import json

from egocli.privacy import retention
from egocli.store import NewEvent, Store
from egocli.store.summaries import Summary, get_summaries, put_summary

HOUR, DAY = 3_600_000, 86_400_000
NOW = 1_764_000_000_000 - 1_764_000_000_000 % DAY + 12 * HOUR  # a UTC noon


def _summary(level: str, start: int, length: int) -> Summary:
    return Summary(level, start, start + length, f"{level} summary", "fake", NOW, "h", 1)


def _log(tmp_path):
    store = Store.open(tmp_path / "r.db")
    media = tmp_path / "r-media"
    (media / "frames").mkdir(parents=True)
    (media / "frames" / "old.jpg").write_bytes(b"jpeg")
    events = [  # (age, modality, media)
        (40 * DAY, "speech", None), (40 * DAY, "visual", "frames/old.jpg"), (10 * DAY, "visual", None),
        (10 * DAY, "speech", None), (2 * HOUR, "visual", None), (2 * HOUR, "note", None)]
    ids = store.add_events([NewEvent(NOW - age, NOW - age + 1000, m, f"{m} {age // DAY}d", media_path=p)
                            for age, m, p in events])
    for ev_age in (40 * DAY, 10 * DAY, 2 * HOUR):
        start = NOW - ev_age - (NOW - ev_age) % HOUR
        put_summary(store, _summary("hour", start, HOUR))
        put_summary(store, _summary("day", start - start % DAY, DAY))
    return store, media, ids


def test_expiry_by_modality_and_for_everything(tmp_path):
    store, media, ids = _log(tmp_path)
    retention.set_rule(store, "7d", "visual")
    result = retention.apply(store, media, at_ms=NOW)
    assert {e.id for e in store.events()} == set(ids) - {ids[1], ids[2]}
    assert result.events == 2 and result.media == ["frames/old.jpg"]
    assert not (media / "frames" / "old.jpg").exists()
    starts = {(s.level, s.start_ms) for s in get_summaries(store)}
    assert len(starts) == 2  # the 40-day and 10-day hour+day summaries covered removed events
    assert all(NOW - start < 2 * DAY for _, start in starts)

    retention.set_rule(store, "30d")
    assert retention.pending(store, NOW) == 1
    retention.apply(store, media, at_ms=NOW)
    assert [e.content for e in store.events()] == ["speech 10d", "visual 0d", "note 0d"]
    assert retention.apply(store, media, at_ms=NOW).events == 0  # idempotent


def test_modality_rule_overrides_the_rule_for_everything(tmp_path):
    store, media, ids = _log(tmp_path)
    retention.set_rule(store, "1h")
    retention.set_rule(store, "1y", "note")
    retention.apply(store, media, at_ms=NOW)
    assert [e.id for e in store.events()] == [ids[5]]


def test_forgetting_events_drops_their_summaries(tmp_path):
    """Any deletion (log forget, a failed ingest) drops covering summaries, not only retention."""
    store, _, ids = _log(tmp_path)
    before = len(get_summaries(store))
    from egocli.store import EventFilter

    store.forget(EventFilter(since_ms=NOW - 3 * HOUR))
    assert len(get_summaries(store)) == before - 2


def test_cli_set_show_apply_and_every_command_applies(cli, db):
    old = "2020-01-01T10:00:00Z"
    assert cli("log", "add", "an old note", "--at", old).exit_code == 0
    assert cli("log", "add", "a new note").exit_code == 0
    res = cli("retention", "set", "30d", "--yes")
    assert res.exit_code == 0 and "removed 1 expired event(s)" in res.stdout
    assert json.loads(cli("retention", "show", "--json").stdout) == [{"modality": "*", "max_age": "30d"}]
    cli("log", "add", "another old one", "--at", old)  # added, then expired when the next command opens the log
    assert [json.loads(x)["content"] for x in cli("log", "list", "--jsonl").stdout.splitlines()] == ["a new note"]
    assert json.loads(cli("retention", "apply", "--json").stdout)["events"] == 0
    bad = cli("retention", "set", "soon")
    assert bad.exit_code == 2 and "not an age" in bad.stderr
