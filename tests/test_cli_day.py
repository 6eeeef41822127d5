"""`egocli day` through the installed console script, over the bundled afternoon (examples/afternoon.srt):
the hours with their events, `--json`, the default day, an empty day, a day it cannot read, the summaries
`summarize --extractive` builds, and a narrow real terminal (`script`)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests import console
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "afternoon.srt"
SCRIPT = shutil.which("script")
HOURS = ["13:00-14:00", "14:00-15:00", "15:00-16:00", "16:00-17:00", "17:00-18:00"]


def run(home: Path, *args: object, tty: bool = False, columns: int = 200) -> subprocess.CompletedProcess:
    """The installed console script with this checkout on PYTHONPATH and its own EGOCLI_HOME."""
    argv = [console.egocli(), *map(str, args)]
    if tty:  # a real pseudo-terminal: what a user sees
        argv = [SCRIPT, "-qec", shlex.join(argv), "/dev/null"]
    env = {**os.environ, "PYTHONPATH": str(REPO), "EGOCLI_HOME": str(home), "COLUMNS": str(columns)}
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)


@pytest.fixture(scope="module")
def afternoon(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(home, log) with the bundled afternoon imported as examples/demo.sh does."""
    home = tmp_path_factory.mktemp("home")
    log = home / "demo.db"
    done = run(home, "--db", log, "import", EXAMPLE, "--start", "2026-11-28T13:00:00")
    assert done.returncode == 0, done.stderr
    return home, log


def test_the_day_lists_the_afternoons_hours_with_their_events(afternoon):
    home, log = afternoon
    res = run(home, "--db", log, "day", "2026-11-28")
    assert res.returncode == 0 and res.stderr == "", res.stderr
    lines = res.stdout.splitlines()
    assert lines[:2] == ["Saturday 28 November 2026", "26 events: visual 20, speech 6"]
    assert [line for line in lines if re.match(r"^\d\d:00-\d\d:00", line)] == HOURS
    assert "  13:00  [speech] Okay, lunch is done. I need to remember to call the pharmacy about the refill.  (#1)" in lines
    hour = lines[lines.index("14:00-15:00") + 1:lines.index("15:00-16:00")]
    assert all(re.match(r"^  14:\d\d  \[(speech|visual)\] .+  \(#\d+\)$", line) for line in hour if line), hour
    assert "  17:30  [visual] Lights off; the alarm clock is set for seven thirty.  (#26)" in lines


def test_json_parses_and_has_the_hours(afternoon):
    home, log = afternoon
    res = run(home, "--db", log, "day", "2026-11-28", "--json")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["day"] == "2026-11-28" and doc["events"] == 26 and doc["counts"] == {"visual": 20, "speech": 6}
    assert [h["label"] for h in doc["hours"]] == HOURS
    assert [h["events"] for h in doc["hours"]] == [10, 10, 3, 1, 2]
    first = doc["hours"][0]["salient"][0]
    assert first["id"] == 1 and first["time"] == "13:00" and first["modality"] == "speech" and not first["media"]
    assert doc["digest_from"] == "extractive" and doc["summary"] is None and doc["digest"]
    shown = run(home, "--db", log, "log", "show", str(doc["hours"][2]["salient"][0]["id"]), "--json")
    assert json.loads(shown.stdout)["content"] == doc["hours"][2]["salient"][0]["content"]  # the ids are the log's


def test_without_a_day_the_latest_with_events_is_told_and_named(afternoon):
    home, log = afternoon
    res = run(home, "--db", log, "day")
    assert res.returncode == 0 and res.stderr == "2026-11-28: the latest day with events\n"
    assert res.stdout == run(home, "--db", log, "day", "2026-11-28").stdout


def test_a_day_without_events_says_where_the_log_has_them(afternoon):
    home, log = afternoon
    res = run(home, "--db", log, "day", "2026-11-30")
    assert (res.returncode, res.stdout) == (0, "")
    assert res.stderr == "No events on 2026-11-30; the log has events from 2026-11-28 to 2026-11-28\n"
    doc = json.loads(run(home, "--db", log, "day", "2026-11-30", "--json", "-q").stdout)
    assert (doc["events"], doc["hours"], doc["digest_from"]) == (0, [], "none")


@pytest.mark.parametrize("text, message", [
    ("blurgh", "Error: cannot read the day 'blurgh' (try 2026-11-28, today, yesterday, monday, 'last friday', "
               "'nov 28')"),
    ("2026-02-30", "Error: 'DAY' is not a calendar day: '2026-02-30'"),
    ("9999-12-31", "Error: 'DAY' is out of range (days go from 0001-01-02 to 9999-12-30)"),
])
def test_a_day_it_cannot_read_is_one_line_and_exit_2(afternoon, text, message):
    home, log = afternoon
    res = run(home, "--db", log, "day", text)
    assert (res.returncode, res.stdout, res.stderr) == (2, "", message + "\n")


def test_the_summaries_summarize_builds_appear(afternoon, tmp_path):
    home, _ = afternoon
    log = tmp_path / "summed.db"
    assert run(home, "--db", log, "import", EXAMPLE, "--start", "2026-11-28T13:00:00").returncode == 0
    built = run(home, "--db", log, "summarize", "--extractive", "--no-embed")
    assert built.returncode == 0, built.stderr
    lines = run(home, "--db", log, "day", "2026-11-28").stdout.splitlines()
    assert any(line.startswith("13:00-14:00  ") and "lunch is done" in line for line in lines), lines
    assert "17:00-18:00  Putting the phone on the charger on the bedside table; Lights off; the alarm clock " \
           "is set for seven thirty" in lines
    doc = json.loads(run(home, "--db", log, "day", "2026-11-28", "--json").stdout)
    assert doc["digest_from"] == "summary" and doc["summary"]["model"] == "extractive"
    assert all(h["summary"]["text"] and not h["summary"]["stale"] for h in doc["hours"])
    added = run(home, "--db", log, "log", "add", "Maria called about the book club", "--at", "2026-11-28T13:50", "-q")
    assert added.returncode == 0, added.stderr
    stale = run(home, "--db", log, "day", "2026-11-28").stdout.split("\n\n")
    marked = [part.split("\n")[0] for part in stale if "(stale: `egocli summarize` rebuilds it)" in part.split("\n")[0]]
    assert len(marked) == 2 and marked[1].startswith("13:00-14:00  "), marked  # the day's line and its hour


@pytest.mark.skipif(SCRIPT is None, reason="util-linux `script` is needed for a pseudo-terminal")
def test_on_a_narrow_terminal_lines_wrap_and_brackets_survive(afternoon, tmp_path):
    home, _ = afternoon
    log = tmp_path / "narrow.db"
    assert run(home, "--db", log, "import", EXAMPLE, "--start", "2026-11-28T13:00:00").returncode == 0
    run(home, "--db", log, "log", "add", "see [bold]the[/bold] [red]manual[/red]", "--at", "2026-11-28T18:00", "-q")
    res = run(home, "--db", log, "day", "2026-11-28", tty=True, columns=60)
    lines = res.stdout.replace("\r", "").splitlines()
    assert res.returncode == 0 and max(map(len, lines)) <= 60, max(lines, key=len)
    at_one = lines.index("  13:00  [speech] Okay, lunch is done. I need to remember")
    assert lines[at_one + 1] == "         to call the pharmacy about the refill.  (#1)"
    assert "  18:00  [note] see [bold]the[/bold] [red]manual[/red]" in lines


def test_help_lists_day_after_timeline(tmp_path):
    res = run(tmp_path, "--help")
    names = [line.split()[0] for line in res.stdout.splitlines() if line.startswith("  ") and line.split()]
    assert names.index("day") == names.index("timeline") + 1


def test_an_empty_log_tells_today_and_says_it_is_empty(tmp_path):
    from datetime import date

    log = tmp_path / "empty.db"
    assert run(tmp_path, "--db", log, "log", "add", "a note", "-q").returncode == 0
    assert run(tmp_path, "--db", log, "log", "forget", "--since", "2000-01-01", "--yes", "-q").returncode == 0
    res = run(tmp_path, "--db", log, "day")
    assert (res.returncode, res.stdout) == (0, "")
    assert res.stderr == f"No events on {date.today().isoformat()}; the log is empty\n"
