"""Money between the wearer and someone else, on a real store: paid back or not, when, how much, in cash; a
promise, a request or a debt moves nothing."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms

from .conftest import day_log, said

DAYS = [
    ("2026-12-14T08:29", "text", "Tasha: morning!! any chance you could lend me £20 till tomorrow?"),
    ("2026-12-14T08:32", "text", "Banking app — Payment sent — £20.00 to Natasha Reid — ref: petrol"),
    ("2026-12-14T12:42", "visual", "taking a twenty pound note out of the wallet and handing it to Kieran"),
    ("2026-12-14T12:55", "speech", "Mrs Okafor: There's eighty-five in there, that's the four hours. Thank you, dear"),
    ("2026-12-14T12:57", "visual", "counting four twenty-pound notes and a five-pound note out of a white envelope"),
    ("2026-12-14T14:49", "speech", "Owen: And you still owe me thirty quid for your half of Mum's present"),
    ("2026-12-14T19:25", "speech", "Tasha: Thank you so much for the twenty, I'll pay you back tomorrow, promise"),
    ("2026-12-15T10:40", "text", "Banking app — You've received £240.00 from A LINDQVIST — ref HG-0412"),
    ("2026-12-15T14:04", "text", "Tasha: just sent your £20 back, thank you lovely x"),
]


def test_who_paid_whom_when_and_how(tmp_path):
    store = day_log(tmp_path / "money.db", DAYS)
    evening, next_day = parse_time_ms("2026-12-14T21:00"), parse_time_ms("2026-12-15T18:00")
    assert said(store, "has tasha paid me back?", evening).startswith("No: I can't see Tasha paying you")
    assert said(store, "has Tasha paid me back yet", next_day).startswith("Yes: Tasha paid you today at 14:04")
    assert said(store, "when did Tasha pay me back?", next_day).startswith("Tasha paid you today at 14:04")
    assert said(store, "what time did mr lindqvist's money come in", next_day).startswith(
        "Mr Lindqvist paid you today at 10:40")
    assert "eighty-five" in said(store, "how much did mrs okafor pay me", evening)
    assert said(store, "did mrs okafor pay me in cash", evening).startswith("Yes")
    assert said(store, "did mr lindqvist pay me in cash", next_day).startswith("Not by cash")
    assert said(store, "have I paid owen back the thirty yet", next_day).startswith("No: I can't see you paying Owen")
    assert said(store, "has kieran paid me back", next_day).startswith("No")
    # what the debt was for said after 'back': still the wearer paying Owen, which Owen's claim is not
    assert said(store, "have i paid owen back for mum's present", next_day).startswith("No: I can't see you paying Owen")


def test_a_bank_names_a_flatmate_by_initial_and_a_payment_by_what_for(tmp_path):
    """'N GALLAGHER' is Niamh when no one else who speaks starts with N; 'for the electric' must be said in the
    transfer or around it."""
    store = day_log(tmp_path / "flat.db", [
        ("2027-01-15T20:41", "speech", "Niamh: I'll take mine off what I owe you for the electric."),
        ("2027-01-15T20:45", "speech", "Marcus: I'll do mine Monday when I get paid, is that alright?"),
        ("2027-01-16T11:14", "text", "Banking app — You've received £53.00 from N GALLAGHER — ref: electric minus chinese"),
        ("2027-01-16T11:20", "text", "Banking app — You've received £10.00 from M BELL — ref: pizza"),
    ])
    at = parse_time_ms("2027-01-16T12:00")
    assert said(store, "has niamh paid me her share", at).startswith("Yes: Niamh paid you today at 11:14")
    assert said(store, "has niamh paid me for the electric", at).startswith("Yes")
    assert said(store, "has marcus paid me for the electric yet", at).startswith(
        "No: I can't see Marcus paying you for electric")


def test_a_message_saying_money_back_is_its_sender_paying(tmp_path):
    """'text — Dougie: 30 back now pal' is Dougie paying the wearer back: the message's sender, and 'back' with an
    amount hands money over; 'back Friday' in the wearer's note with no one speaking is the wearer lending."""
    store = day_log(tmp_path / "d.db", [
        ("2027-03-03T05:22", "note", "lent Dougie Firth 50 cash at the wholesale - back Friday"),
        ("2027-03-04T11:53", "text", "text — Dougie: 30 back now pal the other 20 saturday on the market. ta again"),
    ])
    answer = said(store, "what time did dougie's money come through", parse_time_ms("2027-03-04T20:00"))
    assert "11:53" in answer and not answer.startswith("No"), answer
    before = said(store, "has dougie paid me back", parse_time_ms("2027-03-04T10:00"))
    assert before.startswith("No"), before
