"""Hostile review round 3, item 5: times, ids, counts and numbers out of range are one clear usage error
(exit 2, one line naming the option) from the one validation layer (egocli.core.bounds), never an
'unexpected OverflowError', 'year 0 is out of range', 'datatype mismatch' or a raw float error, and the
log is left as it was. Each case is from the issue's list, run through the installed console script."""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BIG = "99999999999999999999999"

CASES = [
    (["import", str(EXAMPLES / "afternoon.srt"), "--start", "0001-01-01T00:00"], "--start"),
    (["log", "list", "--since", "0001-01-01"], "--since"),
    (["ask", "--no-llm", "--since", "0001-01-01", "where are my keys?"], "--since"),
    (["ask", "--no-llm", "--at", "9999-12-31", "where are my keys?"], "--at"),
    (["log", "forget", "--since", "0001-01-01", "--until", "0002-01-01", "--yes"], "--since"),
    (["log", "show", BIG], "ID"),
    (["retention", "set", "99999999999999999999y", "--yes"], "age"),
    (["log", "list", "-n", BIG], "--limit"),
    (["log", "search", "keys", "-n", BIG], "--limit"),
    (["ingest", "--fps", "nan", str(EXAMPLES / "glasses.mp4")], "--fps"),
    (["ingest", "--fps", "inf", str(EXAMPLES / "glasses.mp4")], "--fps"),
    (["ingest", "--scene-threshold", "nan", str(EXAMPLES / "glasses.mp4")], "--scene-threshold"),
    (["ingest", "--scene-threshold", "-5", str(EXAMPLES / "glasses.mp4")], "--scene-threshold"),
]


def _listing(run) -> str:
    done = run("log", "export")
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("argv,option", CASES, ids=[" ".join(a[:3]) + f" {o}" for a, o in CASES])
def test_out_of_range_values_are_one_clear_usage_error_and_the_log_stays(run, argv, option):
    assert run("log", "add", "keys on the hook by the door", "--at", "2026-11-28T09:00").returncode == 0
    before = _listing(run)
    done = run(*argv)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("Error: ") and option in lines[0], done.stderr
    assert "unexpected" not in done.stderr and "Traceback" not in done.stderr
    assert _listing(run) == before


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_log_add_refuses_non_finite_numbers_in_meta(run, value):
    assert run("log", "add", "first").returncode == 0
    before = _listing(run)
    done = run("log", "add", "-", input=f'{{"start": "2026-11-28T09:00:00Z", "text": "x", "meta": {{"a": {value}}}}}\n')
    assert done.returncode == 2 and done.stderr.startswith("Error: ") and "meta" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert _listing(run) == before and "NaN" not in before


def test_retention_set_asks_before_removing_and_refuses_without_a_terminal(run):
    """Item 6: `retention set 1h` deleted 39 of 44 events unasked; now it asks like `log forget`."""
    assert run("log", "add", "an old note", "--at", "2026-01-01T09:00").returncode == 0
    assert run("log", "add", "a new note").returncode == 0
    before = _listing(run)
    refused = run("retention", "set", "1h", input="")
    assert refused.returncode == 2 and "not confirmed" in refused.stderr and "--yes" in refused.stderr, refused.stderr
    assert _listing(run) == before and "no retention rules" in run("retention", "show").stdout
    done = run("retention", "set", "1h", "--yes")
    assert done.returncode == 0 and "removed 1 expired" in done.stdout, done.stdout + done.stderr
    assert "an old note" not in _listing(run) and "a new note" in _listing(run)


@pytest.mark.parametrize("option", ["--since", "--until"])
def test_a_time_past_year_9999_is_quoted_once(run, option):
    """'9999-12-31T23:59' local is past the storable range: the message quotes the time once
    (it said --until: "'9999-12-31T23:59'" is out of range)."""
    done = run("log", "list", option, "9999-12-31T23:59")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (f"Error: {option}: the time '9999-12-31T23:59' is out of range "
                                   "(times go from year 1 to 9999)"), done.stderr
