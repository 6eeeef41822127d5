"""Listings: one JSONL record, newest first with a count, empty results said, reminders and models."""

from __future__ import annotations

import json

from egocli.store import Store
from egocli.core.timeutil import parse_time_ms
from egocli.tools import reminders
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "afternoon.srt"


def _import(cli):
    assert cli("import", EXAMPLE, "--start", "2026-11-28T13:00:00+00:00").exit_code == 0


def test_list_and_export_write_the_same_jsonl(cli):
    _import(cli)
    listed = [json.loads(x) for x in cli("log", "list", "--jsonl", "--oldest").stdout.splitlines()]
    exported = [json.loads(x) for x in cli("log", "export", "--format", "jsonl").stdout.splitlines()]
    assert listed == exported and len(listed) == 26
    assert set(listed[0]) == {"id", "start", "end", "time", "modality", "source", "source_id", "content",
                              "media_path", "media_offset_ms", "meta"}
    shown = json.loads(cli("log", "show", str(listed[2]["id"]), "--json").stdout)
    assert shown == listed[2]  # no stray "this" marker


def test_newest_first_with_a_count(cli):
    _import(cli)
    res = cli("log", "list", "-n", "3", "--jsonl")
    starts = [json.loads(x)["start"] for x in res.stdout.splitlines()]
    assert starts == sorted(starts, reverse=True) and starts[0] == "2026-11-28T17:30:00.000Z"
    assert "showing 3 of 26 events, newest first" in res.stderr
    oldest = cli("log", "list", "-n", "3", "--oldest", "--jsonl")
    assert json.loads(oldest.stdout.splitlines()[0])["start"] == "2026-11-28T13:00:00.000Z"
    assert "showing" not in cli("log", "list", "--jsonl").stderr


def test_empty_results_are_said(cli):
    _import(cli)
    res = cli("log", "list", "-m", "bogus")
    assert res.exit_code == 1 and "no events of modality 'bogus' (the log has: speech, visual)" in res.stderr
    res = cli("log", "list", "--source", "nosuch")
    assert res.exit_code == 1 and "no source 'nosuch'" in res.stderr
    res = cli("log", "search", "zebra")
    assert res.exit_code == 0 and res.stdout == "" and "no events match" in res.stderr
    res = cli("log", "list", "--since", "2030-01-01")
    assert res.exit_code == 0 and "no events match" in res.stderr
    assert cli("log", "list", "--source", "afternoon.srt", "-n", "1").exit_code == 0
    assert cli("log", "list", "--source", "1", "-n", "1").exit_code == 0


def test_since_accepts_what_people_type(cli):
    assert cli("log", "add", "breakfast", "--at", "today 8:00").exit_code == 0
    assert cli("log", "add", "old", "--at", "yesterday 9:00").exit_code == 0
    res = cli("log", "list", "--since", "this morning", "--jsonl")
    assert res.exit_code == 0, res.stderr
    assert [json.loads(x)["content"] for x in res.stdout.splitlines()] == ["breakfast"]


def test_stats_and_privacy_report_are_text_in_a_pipe(cli):
    _import(cli)
    lines = cli("stats").stdout.splitlines()
    assert "events\t26" in lines and "modality\tvisual\t20" in lines and "day\t2026-11-28\t26" in lines


def test_reminders_list_done_delete_and_export(cli, db):
    store = Store.open(db)
    first = reminders.add_reminder(store, "meet my mentor", parse_time_ms("2026-12-01T15:00"), "Room 1", 0)
    second = reminders.add_reminder(store, "call Ana", parse_time_ms("2026-12-02T09:00"), "", 0)
    store.close()
    text = cli("reminders", "list").stdout
    assert "False" not in text and "meet my mentor" in text
    rows = [json.loads(x) for x in cli("reminders", "list", "--jsonl").stdout.splitlines()]
    assert [r["id"] for r in rows] == [first.id, second.id] and rows[0]["done"] is False
    assert cli("reminders", "done", str(first.id)).stdout == "done: meet my mentor\n"
    assert [r["id"] for r in json.loads(cli("reminders", "list", "--json").stdout)] == [second.id]
    assert "yes" in cli("reminders", "list", "--all").stdout
    assert cli("reminders", "delete", str(second.id)).exit_code == 2  # not confirmed without a terminal
    assert cli("reminders", "delete", str(second.id), "--yes").exit_code == 0
    assert cli("reminders", "delete", str(second.id), "--yes").exit_code == 1
    res = cli("reminders", "list")
    assert res.stdout == "" and "no open reminders" in res.stderr
    ics = cli("reminders", "export", "--all").stdout
    assert "BEGIN:VCALENDAR" in ics and "SUMMARY:meet my mentor" in ics and "STATUS:COMPLETED" in ics
    assert "call Ana" not in ics


def test_models_list_jsonl(cli):
    rows = [json.loads(x) for x in cli("models", "list", "--jsonl").stdout.splitlines()]
    assert {"llm", "embedder", "asr"} <= {r["role"] for r in rows}
    assert all(isinstance(r["present"], bool) for r in rows)
