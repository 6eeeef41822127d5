"""Who owes whom, on a real store: a note, a claim, an owning up, a promise and the wearer's own words to whoever
spoke last; a debt paid back since is no longer owed."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms

from .conftest import day_log, said

DAY = [
    ("2027-01-07T11:05", "speech", "Stan: And your window cleaner came about eleven. I paid him for you."),
    ("2027-01-07T11:06", "speech", "Ten pound, right. Thanks, Stan."),
    ("2027-01-07T14:49", "speech", "Owen: And you still owe me thirty quid for your half of Mum's present."),
    ("2027-01-07T15:50", "speech", "Callum: Don't worry, I'll put a fiver in the collection for you."),
    ("2027-01-07T15:51", "speech", "You're a star. I owe you five quid, then."),
    ("2027-01-07T18:30", "text", "Flat group chat — Me: bill's in, £186.60 for the quarter. £62.20 each to me please"),
    ("2027-01-07T18:35", "speech", "Marcus: I'll do mine Monday when I get paid, is that alright?"),
    ("2027-01-07T18:38", "note", "owe Karen £15 for the art set"),
    ("2027-01-07T19:10", "speech", "Tasha: thanks for the twenty, I'll pay you back tomorrow, promise"),
    ("2027-01-07T20:00", "text", "Tasha: just sent your £20 back x"),
]


def test_debts_each_way_and_settled_ones_left_out(tmp_path):
    store = day_log(tmp_path / "debts.db", DAY)
    at = parse_time_ms("2027-01-07T21:00")
    mine = said(store, "who do i owe money to", at)
    for who, amount in (("Stan", "£10"), ("Owen", "£30"), ("Callum", "£5"), ("Karen", "£15")):
        assert f"{who}, {amount}" in mine
    assert said(store, "how much do i owe owen", at).startswith("You owe Owen, £30")
    theirs = said(store, "who still owes me money", at)
    assert "Marcus, £62.20" in theirs and "Tasha" not in theirs  # Tasha paid it back
    assert said(store, "how much does tasha owe me", at).startswith("I can't see tasha owing you anything")
