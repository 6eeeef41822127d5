"""`egocli log search` returns the text as stored: no [brackets] in a pipe, --json or --jsonl (the matched
words are spans in `match`), colour only on a terminal, a hint for a [modality] tag, no empty table."""

from __future__ import annotations

import json
import re

from tests.doorstep import egocli, imported, needs_terminal

BUS = "Outside on the street, a red bus passes, sign reads 'Route 12 City Centre'."
RECEIPT = "Receipt on the counter: total 12.40 euros."


def test_a_pipe_gets_the_content_as_stored(db):
    imported(db)
    bus = egocli("--db", db, "log", "search", "bus")
    assert bus.code == 0, bus.err
    assert bus.out.rstrip("\n").split("\t")[-1] == BUS
    money = egocli("--db", db, "log", "search", "12.40")
    lines = money.out.splitlines()
    assert lines[0].split("\t")[-1] == RECEIPT and "[" not in money.out


def test_json_and_jsonl_carry_the_content_and_the_matched_spans(db):
    imported(db)
    [hit, other] = json.loads(egocli("--db", db, "log", "search", "12.40", "--json").out)
    assert hit["content"] == RECEIPT and other["content"] == BUS
    assert [hit["content"][a:b] for a, b in hit["match"]] == ["12", "40"]
    assert [other["content"][a:b] for a, b in other["match"]] == ["12"]
    rows = [json.loads(line) for line in egocli("--db", db, "log", "search", "bus", "--jsonl").out.splitlines()]
    assert [r["content"] for r in rows] == [BUS]
    assert [BUS[a:b] for a, b in rows[0]["match"]] == ["bus"]


def test_brackets_in_the_log_are_not_taken_for_a_match(db):
    egocli("--db", db, "log", "add", "[x] paid [12] at the [bus] stop", "--at", "2026-11-28T18:00", "-q")
    [hit] = json.loads(egocli("--db", db, "log", "search", "bus", "--json").out)
    assert hit["content"] == "[x] paid [12] at the [bus] stop"
    assert [hit["content"][a:b] for a, b in hit["match"]] == ["bus"]


@needs_terminal
def test_a_terminal_shows_the_match_in_colour_not_brackets(db):
    imported(db)
    shown = egocli("--db", db, "log", "search", "bus", tty=True)
    assert shown.code == 0
    assert "[bus]" not in shown.out and "a red bus passes" in " ".join(shown.plain.split())
    assert re.search(r"\x1b\[[0-9;]+mbus\x1b\[0m", shown.out), shown.out  # the word alone is styled
    money = egocli("--db", db, "log", "search", "12.40", tty=True)
    assert "total 12.40 euros" in money.plain and "[12]" not in money.out


def test_a_modality_tag_gets_a_hint(db):
    imported(db)
    res = egocli("--db", db, "log", "search", "[speech]")
    hints = [line for line in res.err.splitlines() if "--modality" in line]
    assert len(hints) == 1 and "--modality speech" in hints[0], res.err
    plain = egocli("--db", db, "log", "search", "bus")
    assert "--modality" not in plain.err


@needs_terminal
def test_an_empty_result_draws_no_table(db):
    imported(db)
    for argv in (["log", "search", "zebra"], ["log", "list", "--since", "2026-11-29T00:00"]):
        shown = egocli("--db", db, *argv, tty=True)
        assert "no events match" in shown.plain, shown.out
        assert not any(c in shown.out for c in "┏━┃└"), shown.out
    piped = egocli("--db", db, "log", "search", "zebra")
    assert piped.out == "" and piped.err == "no events match\n"
