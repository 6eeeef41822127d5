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


LENT = [
    ("2027-10-23T15:20", "speech", "Liam: Grandad, can you lend us twenty quid for petrol? I'll pay you back Friday."),
    ("2027-10-23T15:21", "speech", "Go on then. Don't tell your nan."),
    ("2027-10-23T15:22", "note", "Liam owes me £20 — paying back Friday"),
    ("2027-10-23T10:53", "note", "owe Trevor £19 for half the fence panel"),
    ("2027-10-24T11:29", "speech", "Stan: Morning. Here, before I forget, that two quid for the quiz."),
    ("2027-10-24T12:30", "note", "paid Trevor £19 fence"),
]


def test_lending_and_paying_back_said_in_other_words(tmp_path):
    store = day_log(tmp_path / "lent.db", sorted(LENT))
    at = parse_time_ms("2027-10-24T20:00")
    assert said(store, "did i lend liam some money", at).startswith("Yes")  # he owes it: it was lent
    assert not said(store, "did i lend stan any money", at).startswith("Yes")
    assert said(store, "has liam paid me back that twenty yet", at).startswith("No")  # only owed
    assert said(store, "did liam actually pay me back the twenty quid in the end", at).startswith("No")
    assert said(store, "has stan paid me back for the quiz", at).startswith("Yes")  # 'Here, ... two quid'
    assert said(store, "did I give trevor his money for the fence in the end", at).startswith("Yes")
