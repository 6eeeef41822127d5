"""Whose log it is: where a transcript names every voice, the wearer's label is found from how often it speaks,
and that label's lines are the wearer's own; where the wearer speaks unlabelled, no label is taken for theirs."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import wearer

from .conftest import day_log, said


def _named_day() -> list[tuple[str, str, str]]:
    rows = [(f"2027-10-23T{8 + i // 6:02d}:{i % 6 * 10:02d}", "speech", f"Ken: Line number {i} about the garden.")
            for i in range(24)]
    rows += [(f"2027-10-23T{8 + i // 6:02d}:{i % 6 * 10 + 1:02d}", "speech", f"Maureen: Answer {i}.") for i in range(10)]
    rows += [("2027-10-23T14:30", "speech", "Trevor: A new panel's thirty-eight quid. Half each?"),
             ("2027-10-23T14:31", "speech", "Ken: Aye. I'll give it you when Maureen's back."),
             ("2027-10-23T14:40", "speech", "Mind your backs!")]
    return sorted(rows)


def test_the_busiest_named_voice_is_the_wearer_only_when_it_outspeaks_the_rest():
    lines = [c for _, _, c in _named_day()]
    assert wearer.found(lines) == {"ken"}
    unlabelled = lines + [f"I'll be back by {i}." for i in range(60)]  # the wearer speaks unlabelled here
    assert wearer.found(unlabelled) == frozenset()
    assert wearer.found(lines[:10]) == frozenset()  # too few lines to tell


def test_the_wearers_named_words_are_their_own(tmp_path):
    store = day_log(tmp_path / "named.db", _named_day())
    at = parse_time_ms("2027-10-23T20:00")
    owed = said(store, "who do i owe money to", at)
    assert owed.startswith("You owe Trevor"), owed  # Ken's promise to pay is the wearer's, to Trevor
