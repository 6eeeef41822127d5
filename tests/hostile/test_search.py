"""Found while finishing issue 17: one full-text search could pin a CPU for hours.

FTS5's cost grows with the square of the query terms that match (8,000 copies of one word
took over a second; the 5 MB argument "keys keys ..." that MCP tests send would have taken
hours). On main every copy of a word became its own OR-ed term and nothing bounded their
number; now each word is searched once and a search holds at most 64 different words."""

from __future__ import annotations

import json

MANY = "the search has 65 different words; at most 64 are searched for"


def test_repeated_words_count_once_and_too_many_words_are_refused(run):
    assert run("log", "add", "the car keys are in the red drawer").returncode == 0
    found = run("log", "search", "Keys " * 20_000 + "drawer", "--jsonl")
    assert found.returncode == 0, found.stderr
    assert [json.loads(line)["content"] for line in found.stdout.splitlines()] == [
        "the car keys are in the red drawer"]
    many = run("log", "search", " ".join(f"word{i}" for i in range(65)))
    assert (many.returncode, many.stdout, many.stderr) == (2, "", f"Error: {MANY}\n")
    syntax = run("log", "search", " OR ".join(['"keys"'] * 100))
    assert (syntax.returncode, syntax.stderr) == (2, "Error: the search has 100 terms; at most 64 are searched for\n")
    within = run("log", "search", " ".join(f"word{i}" for i in range(63)) + " drawer")
    assert within.returncode == 0 and "the car keys are in the red drawer\n" in within.stdout, within.stderr  # as stored
