"""Reminders in the log: due-time parsing, done marks, `egocli reminders list/export --ics`, tools."""

from __future__ import annotations

import json

import pytest

from egocli.core.errors import InputError
from egocli.store import Store
from egocli.core.timeutil import parse_time_ms
from egocli.tools import reminders
from egocli.tools.builtin import REGISTRY

from .conftest import NOW


@pytest.mark.parametrize("text, expected", [
    ("15:00", "2026-11-30T15:00"), ("3 pm", "2026-11-30T15:00"), ("at 4:15pm", "2026-11-30T16:15"),
    ("tomorrow at 7 am", "2026-12-01T07:00"), ("tomorrow 09:30", "2026-12-01T09:30"),
    ("09:00", "2026-12-01T09:00"),  # already past today: tomorrow
    ("2026-12-24T18:00", "2026-12-24T18:00"),
])
def test_due_times(text, expected):
    assert reminders.parse_due(text, NOW) == parse_time_ms(expected)


def test_relative_and_bad_due_times():
    assert reminders.parse_due("in 20 minutes", NOW) == NOW + 20 * 60_000
    assert reminders.parse_due("in 2 hours", NOW) == NOW + 2 * 3_600_000
    with pytest.raises(InputError):
        reminders.parse_due("whenever", NOW)
    with pytest.raises(InputError):
        reminders.parse_due("  ", NOW)


def test_done_is_a_new_event_and_the_state_is_folded(store):
    a = reminders.add_reminder(store, "water the plants", NOW + 3_600_000, "", NOW)
    b = reminders.add_reminder(store, "meet my mentor", NOW + 600_000, "Meeting Room 1", NOW)
    assert [r.id for r in reminders.reminders(store)] == [b.id, a.id]  # soonest first
    reminders.mark_done(store, b.id, NOW + 1000)
    assert [r.id for r in reminders.reminders(store)] == [a.id]
    assert [r.done for r in reminders.reminders(store, include_done=True)] == [True, False]
    assert reminders.due(store, NOW + 3_600_000) == [reminders.reminders(store)[0]]
    assert store.count() == 3
    with pytest.raises(Exception, match="no reminder with id 999"):
        reminders.mark_done(store, 999, NOW)


def _unfold(ics: str) -> list[str]:
    assert ics.endswith("\r\n") and "\n" not in ics.replace("\r\n", "")
    raw = ics.split("\r\n")[:-1]
    assert all(len(line.encode()) <= 75 for line in raw)
    lines: list[str] = []
    for line in raw:
        if line.startswith(" "):
            lines[-1] += line[1:]
        else:
            lines.append(line)
    return lines


def test_ics_is_valid_icalendar(store):
    long = "bring the signed lease, two passport photos, the deposit receipt; and ask about parking, bins " * 2
    reminders.add_reminder(store, long.strip(), parse_time_ms("2026-12-01T09:30"), "Café Müller, 2nd floor", NOW)
    lines = _unfold(reminders.to_ics(reminders.reminders(store), NOW))
    assert lines[:3] == ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//egocli//reminders//EN"]
    assert lines[-1] == "END:VCALENDAR"
    for block in ("VCALENDAR", "VEVENT", "VALARM"):
        assert lines.count(f"BEGIN:{block}") == lines.count(f"END:{block}") == 1
    fields = dict(line.split(":", 1) for line in lines if not line.startswith(("BEGIN", "END")))
    utc = parse_time_ms("2026-12-01T09:30")
    from egocli.core.timeutil import from_ms
    assert fields["DTSTART"] == from_ms(utc).strftime("%Y%m%dT%H%M%SZ")
    assert fields["LOCATION"] == "Café Müller\\, 2nd floor"
    assert fields["SUMMARY"].startswith("bring the signed lease\\, two passport photos\\, the deposit receipt\\;")
    assert fields["UID"].startswith("egocli-reminder-")


def test_reminder_tools_round_trip(ctx, store):
    added = REGISTRY.tools["reminder_add"].func(ctx, text="stretch", due="in 20 minutes", place="")
    listed = REGISTRY.tools["reminder_list"].func(ctx, include_done=False)
    assert listed.data[0]["id"] == added.data["id"] and "stretch" in listed.summary
    REGISTRY.tools["reminder_done"].func(ctx, reminder_id=added.data["id"])
    assert REGISTRY.tools["reminder_list"].func(ctx, include_done=False).data == []


def test_cli_reminders_list_and_export(cli, db, tmp_path):
    store = Store.open(db)
    reminders.add_reminder(store, "meet my mentor", parse_time_ms("2026-12-01T15:00"), "Meeting Room 1", NOW)
    store.close()
    res = cli("reminders", "list", "--json")
    assert res.exit_code == 0, res.stderr
    [row] = json.loads(res.stdout)
    assert (row["text"], row["place"], row["done"]) == ("meet my mentor", "Meeting Room 1", False)
    out = tmp_path / "r.ics"
    res = cli("reminders", "export", "--ics", "-o", str(out))
    assert res.exit_code == 0, res.stderr
    assert "SUMMARY:meet my mentor" in _unfold(out.read_bytes().decode("utf-8"))
    res = cli("reminders", "export")  # ICS is the only format: --ics is optional
    assert res.exit_code == 0 and "SUMMARY:meet my mentor" in _unfold(res.stdout.replace("\n", "\r\n"))
