"""First contact through the console script: bare `egocli` is help on stdout (exit 0) with where to start,
command summaries are whole sentences, and bad values say which option or argument they came from."""

from __future__ import annotations

import pytest

from tests.doorstep import egocli, imported, needs_terminal

GROUPS = [[], ["log"], ["models"], ["sources"], ["reminders"], ["config"], ["privacy"], ["retention"]]


def _summaries(help_text: str) -> list[str]:
    """The lines of the Commands section."""
    lines = help_text.split("\nCommands:\n", 1)[1].splitlines() if "\nCommands:\n" in help_text else []
    return [line for line in lines if line.startswith("  ")]


def test_bare_egocli_prints_help_on_stdout_and_says_where_to_start():
    res = egocli()
    assert res.code == 0 and res.err == "", res.err
    assert res.out.startswith("Usage: egocli") and "Commands:" in res.out
    words = " ".join(res.out.split())
    assert "Start here: `egocli doctor`" in words and "egocli import" in words and "egocli ingest" in words
    group = egocli("log")
    assert group.code == 0 and group.out.startswith("Usage: egocli log") and group.err == ""


@pytest.mark.parametrize("group", GROUPS, ids=lambda g: " ".join(g) or "egocli")
def test_command_summaries_are_not_cut(group):
    text = egocli(*group, "--help", columns=80).out
    summaries = _summaries(text)
    assert summaries, text
    for line in summaries:
        assert not line.rstrip().endswith("..."), line
        assert len(line) <= 80, line


@needs_terminal
def test_summaries_fit_a_narrow_terminal_too():
    shown = egocli("--help", tty=True, columns=80)
    assert not [line for line in _summaries(shown.plain) if line.rstrip().endswith("...")]


@pytest.mark.parametrize("argv, option", [
    (["log", "list", "--since", "blurgh"], "--since"),
    (["log", "list", "--until", "the day after never"], "--until"),
    (["log", "search", "bus", "--since", "blurgh"], "--since"),
    (["log", "add", "a note", "--at", "blurgh"], "--at"),
    (["import", "examples/afternoon.srt", "--start", "blurgh"], "--start"),
    (["summarize", "--since", "blurgh"], "--since"),
    (["ask", "--no-llm", "where are my keys?", "--at", "blurgh"], "--at"),
])
def test_a_time_that_cannot_be_read_names_its_option(db, argv, option):
    imported(db)
    res = egocli("--db", db, *argv)
    assert res.code == 2, res.err
    assert res.err.startswith(f"Error: {option}: cannot read the time"), res.err
    assert res.err.count("\n") == 1, res.err


@pytest.mark.parametrize("argv, message", [
    (["log", "show", "abc"], "Invalid value for 'EVENT_ID': 'abc' is not a valid integer."),
    (["log", "list", "-n", "ten"], "Invalid value for '--limit' / '-n': 'ten' is not a valid integer."),
    (["reminders", "done", "x1"], "is not a valid integer."),
])
def test_a_value_of_the_wrong_type_is_a_click_usage_error(db, argv, message):
    imported(db)
    res = egocli("--db", db, *argv)
    assert res.code == 2, res.err
    assert res.err.startswith("Usage: egocli") and "Try 'egocli" in res.err
    assert message in res.err and "Input should" not in res.err, res.err
