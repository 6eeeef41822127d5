"""Kinds of event told by their content: emails, messages and calls counted, picked by sender and listed, on a
real store; what is said about a coming time is a plan; a line of intent is not the act."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import kinds
from egocli.store import Event, Store

from .conftest import day_log, said

AT = parse_time_ms("2026-12-05T19:30")
DAY = [
    ("2026-12-05T08:10", "text", "From: Jonas Berg - Subject: rota for next week"),
    ("2026-12-05T08:12", "text", "From: Library - Subject: your books are due back"),
    ("2026-12-05T09:00", "text", "From: Jonas Berg - Subject: the van is booked for Thursday"),
    ("2026-12-05T12:30", "visual", "phone screen: missed call from Lena"),
    ("2026-12-05T17:40", "text", "Message from Lena: running late, see you at 19:30"),
    ("2026-12-05T18:05", "speech", "I'll water the plants after dinner"),
]


@pytest.fixture()
def store(tmp_path):
    return day_log(tmp_path / "log.db", DAY)


def _ask(store: Store, question: str) -> str:
    return said(store, question, AT)


def test_a_phrase_names_its_kind_and_sender():
    assert kinds.asked("read emails") == kinds.Asked("email")
    assert kinds.asked("jonas's email") == kinds.Asked("email", "jonas")
    assert kinds.asked("email from jonas") == kinds.Asked("email", "jonas")
    assert kinds.asked("email about the budget") is None
    assert kinds.asked("water the plants") is None
    assert kinds.asked("had text messages") == kinds.Asked("message")  # the kind named twice
    assert kinds.asked("text messages from mum") == kinds.Asked("message", "mum")
    read = Event(id=1, start_ms=0, end_ms=0, modality="text", content="phone — Dean: Traffic on the A14, prob 9.30 now",
                 source_id=None)
    assert kinds.sender(read, "message") == "Dean"  # a message read off the phone's screen


def test_emails_counted_picked_and_listed(store):
    assert _ask(store, "How many emails did I get today?").startswith("3 times")
    assert "rota" in _ask(store, "What was Jonas's first email about?")
    assert "van is booked" in _ask(store, "what was jonas's last email about")
    listed = _ask(store, "Which emails came in this morning?")
    assert "rota" in listed and "books are due" in listed and "van" in listed


def test_calls_and_messages_by_their_sender(store):
    assert "Lena" in _ask(store, "Who rang me today?")
    assert "running late" in _ask(store, "What did Lena's message say?")


def test_intent_is_not_the_act(store):
    assert not _ask(store, "Did I water the plants today?").startswith("Yes")


def test_did_someone_say_gives_their_words_not_a_guess(tmp_path):
    store = day_log(tmp_path / "said.db", [
        ("2026-12-05T10:00", "speech", "Marta: the budget is tight, so no new laptops this quarter"),
        ("2026-12-05T11:00", "speech", "Marta: lunch is at one today")])
    said = _ask(store, "Did Marta say we could get new laptops?")
    assert "no new laptops" in said and not said.lower().startswith("yes")


RINGS = [
    ("2027-01-06T06:30", "visual", "bedroom, phone alarm buzzing on the bedside table"),
    ("2027-01-06T12:05", "visual", "a large-button mobile phone buzzing on the cafe table, a photo on the screen"),
    ("2027-01-06T12:05:20", "speech", "Karen: Hiya Dad, it's me. How did it go at the clinic?"),
    ("2027-01-06T14:40", "visual", "a large-button landline phone ringing on the side table"),
    ("2027-01-06T14:40:30", "speech", "Debbie: Hello, is that Mr Mallory? It's Debbie at Park Lane Surgery."),
    ("2027-01-06T16:00", "visual", "phone, calling Brian"),
    ("2027-01-06T18:33", "visual", "the mobile phone buzzing, the photo of the woman with red hair"),
    ("2027-01-06T18:33:20", "speech", "Karen: Dad, I can't do Saturday now."),
]


@pytest.fixture()
def rings(tmp_path):
    return day_log(tmp_path / "rings.db", RINGS)


def test_a_phone_ringing_is_a_call_from_whoever_speaks_first(rings):
    """Callers name themselves on the line, not on the screen; an alarm buzzing is no call."""
    at = parse_time_ms("2027-01-06T21:00")
    assert said(rings, "how many phone calls have I had today", at).startswith("4 times")
    assert said(rings, "how many times has Karen rung me today", at).startswith("2 times")
    assert said(rings, "when did the doctors ring", at).startswith("Your last call from the doctors: today at 14:40")
    listed = said(rings, "who phoned this afternoon", at)
    assert "Debbie" in listed and "Karen" in listed and "06:30" not in listed


def test_a_line_read_on_a_screen_that_opens_with_a_name_is_a_message_from_them(tmp_path):
    store = day_log(tmp_path / "texts.db", [
        ("2026-12-14T08:29", "text", "Tasha: morning!! any chance you could lend me £20 till tomorrow?"),
        ("2026-12-14T13:38", "text", "Sam: can you grab dog food on your way home?"),
        ("2026-12-14T14:00", "text", "bus shelter timetable: Route 14 every 20 min"),
        ("2026-12-14T19:25", "speech", "Tasha: thank you so much for the twenty"),
    ])
    at = parse_time_ms("2026-12-14T21:00")
    assert said(store, "how many texts did Tasha send me today", at).startswith("1 time")
    assert said(store, "how many messages have I had today", at).startswith("2 times")


def test_a_call_lasts_while_it_is_talked_on(rings):
    at = parse_time_ms("2027-01-06T21:00")
    assert said(rings, "how long was I on the phone to Debbie", at).startswith("34 s, from today at 14:40")
    assert said(rings, "how long was our Karen on the phone tonight", at).startswith("24 s, from today at 18:33")


def test_payments_are_counted_once_each_by_how_and_what_for(tmp_path):
    """A till's total, a card tapped and the machine's 'APPROVED' a minute apart are one payment; a bill to pay,
    a price on a board, money received and a transfer to a friend are none."""
    store = day_log(tmp_path / "pay.db", [
        ("2026-12-14T08:05", "text", "letter — Northgate Energy — Amount due: £84.60 — Please pay by 20 January"),
        ("2026-12-14T08:22", "text", "ticket machine — Route 14 — Adult single £2.00 — contactless — APPROVED"),
        ("2026-12-14T08:32", "text", "Banking app — Payment sent — £20.00 to Natasha Reid — ref: petrol"),
        ("2026-12-14T10:39", "visual", "paying six pounds twenty in cash at Hallam's"),
        ("2026-12-14T11:28", "visual", "giving the taxi driver a ten pound note and telling him to keep the change"),
        ("2026-12-14T15:17", "speech", "Dean: All done, the van's ready. That's three hundred and twelve forty."),
        ("2026-12-14T15:19", "text", "invoice — Hillside Motors — MOT test 54.85 — brake pads 257.55 — TOTAL £312.40"),
        ("2026-12-14T15:21", "visual", "tapping a bank card on the card machine on the counter"),
        ("2026-12-14T15:21:30", "text", "card machine — HILLSIDE MOTORS — £312.40 — APPROVED"),
        ("2026-12-14T19:18", "text", "chalkboard — QUIZ NIGHT every Monday 7.30 — £2 a head"),
        ("2026-12-14T19:30", "text", "Banking app — You've received £20.00 from N REID — ref: ta x"),
    ])
    at = parse_time_ms("2026-12-14T21:00")
    assert kinds.asked("pay by card") == kinds.Asked("payment", way="card")
    assert kinds.asked("pay for the van") == kinds.Asked("payment", about=("van",))
    assert kinds.asked("paid me back") is None and kinds.asked("pay kieran back") is None
    assert said(store, "how many times did I pay for something today", at).startswith("4 times")
    assert said(store, "how many times did i pay cash today", at).startswith("2 times (today at 10:39, today at 11:28)")
    assert said(store, "how many times did I pay by card", at).startswith("2 times (today at 08:22, today at 15:21)")
    assert said(store, "what time did I pay for the van", at).startswith("You last paid for the van today at 15:21")


def test_a_message_read_as_app_dash_sender_is_from_that_sender(tmp_path):
    """'text - Dad: ...' and 'WhatsApp - Jo: ...' are messages from Dad and Jo: 'did dad text me?' is yes, 'did
    Jo message me' is yes, and a message from someone else is no text from Dad."""
    store = day_log(tmp_path / "texts.db", [
        ("2027-01-15T13:10", "text", "WhatsApp — Jo: change of plan!! it's 7.30 at Dulcimer instead x"),
        ("2027-01-15T15:10", "text", "text — Dad: Mum says you're coming tomorrow. Bring an appetite x"),
        ("2027-01-15T16:00", "text", "text — Boots: Your prescription is ready to collect"),
    ])
    at = parse_time_ms("2027-01-15T20:00")
    assert said(store, "did dad text me", at).startswith("Yes: 1 time, the last today at 15:10: text — Dad")
    assert said(store, "did Jo message me today?", at).startswith("Yes")
    assert not said(store, "did Karen text me", at).startswith("Yes")


def test_who_got_in_touch_lists_what_came_in_of_the_kind_the_verb_sends(tmp_path):
    """'Who texted me?' lists the messages that came in, not the calls nor the wearer's own replies; 'who rang me?'
    the calls, not the one the wearer made."""
    log = day_log(tmp_path / "touch.db", [
        ("2026-12-05T09:20", "visual", "phone screen: incoming call — Hannah Pike"),
        ("2026-12-05T14:04", "text", "Tasha: just sent your £20 back, thank you lovely x"),
        ("2026-12-05T14:05", "text", "Me: got it, ta! yes please, 3 is perfect x"),
        ("2026-12-05T14:29", "visual", "phone screen: calling Mum"),
    ])
    texted = _ask(log, "who texted me today")
    assert "Tasha" in texted and "Hannah" not in texted and "got it" not in texted, texted
    rang = _ask(log, "who rang me today")
    assert "Hannah" in rang and "Mum" not in rang and "Tasha" not in rang, rang
    assert kinds.asked("incoming calls") == kinds.Asked("call", incoming=True)
    assert kinds.asked("call from hillside motors") == kinds.Asked("call", "hillside motors")  # a name of two words
    assert kinds.asked("email from ravi about the budget") is None  # about what: its content
    narrated = day_log(tmp_path / "narrated.db", [
        ("2026-12-05T18:32", "text", "Phone call with the pharmacy: they confirm the refill is Monday after ten.")])
    assert "pharmacy" in _ask(narrated, "who rang me today")  # a call narrated as one ('phone call with ...')
    narrated.close()
    log.close()


def test_a_call_seen_ringing_and_read_on_the_screen_is_one_call(tmp_path):
    """The phone buzzing, then 'incoming call - Jan' twenty seconds later: one call, twice in two days."""
    store = day_log(tmp_path / "calls.db", [
        ("2026-12-05T10:02:00", "visual", "a mobile phone buzzing on the kitchen table, its screen lit"),
        ("2026-12-05T10:02:20", "text", "phone — incoming call — Jan"),
        ("2026-12-05T10:03:00", "speech", "Jan: Hiya Dad, just checking in."),
        ("2026-12-06T15:04:00", "visual", "a phone buzzing on the café table"),
        ("2026-12-06T15:04:20", "text", "phone — incoming call — Jan"),
    ])
    told = said(store, "how many times has jan rung me this weekend", parse_time_ms("2026-12-06T20:00"))
    assert told.startswith("2 times")


def test_who_i_rang_are_the_calls_i_made_and_who_rang_me_those_that_came_in(tmp_path):
    store = day_log(tmp_path / "out.db", [
        ("2026-12-05T10:02:20", "text", "phone — incoming call — Jan"),
        ("2026-12-05T13:05:00", "text", "phone — calling Stan Booth"),
        ("2026-12-05T13:05:30", "speech", "Ken: Stan, it's Ken. Are we still on for tonight?"),
    ])
    at = parse_time_ms("2026-12-05T20:00")
    made = said(store, "who did i ring this afternoon", at)
    assert "Stan Booth" in made and "Jan" not in made
    came = said(store, "who rang me today", at)
    assert "Jan" in came and "Stan" not in came


CALLS = [
    ("2026-12-05T07:44", "text", "phone — incoming call — Mum"),
    ("2026-12-05T07:44:30", "speech", "Pat: Lisa, love, what time are you coming today?"),
    ("2026-12-05T07:45", "speech", "Half one, Mum. I've got the doctor's first."),
    ("2026-12-05T11:10", "visual", "phone screen: incoming call — Hillside Motors"),
    ("2026-12-05T11:10:20", "speech", "Dean: Hiya, it's Dean from Hillside, about the van."),
]


def test_a_caller_is_the_name_on_the_screen_or_who_speaks_not_whom_the_wearer_mentions(tmp_path):
    store = day_log(tmp_path / "calls.db", CALLS)
    from egocli.reasoning.scope import parse_scope

    def calls(phrase: str) -> list[str]:
        return [e.content for e in kinds.events(store, parse_scope("today", AT), phrase) or []]

    assert calls("call from mum") == ["phone — incoming call — Mum"]
    assert calls("call from the doctor") == []  # the wearer's own words on the call name the doctor's, not the caller
    assert calls("call from dean") == ["phone screen: incoming call — Hillside Motors"]  # he names himself
    assert kinds.sender(kinds.events(store, parse_scope("today", AT), "calls")[0], "call") == "Mum"


def test_saying_one_is_off_to_do_a_thing_is_not_doing_it():
    from egocli.reasoning import actions

    assert actions.NOT.search("Steve, I'm off to drop the car, then the bank and the nurse")
    assert not actions.NOT.search("driving off to the bank, the wipers going")


def test_a_call_with_someone_is_either_way_and_lasts_until_the_phone_says_it_ended(tmp_path):
    """'On the phone to Debbie' is the call the wearer made to her as much as one she made; the talk may pause for
    ten minutes while the line stays open: the phone's 'Call ended' line ends it."""
    store = day_log(tmp_path / "ended.db", [
        ("2026-12-05T19:30", "visual", "phone screen: calling Debbie"),
        ("2026-12-05T19:30:30", "speech", "Debbie: hiya, our kid! How's things?"),
        ("2026-12-05T19:31", "speech", "Debs, are you still coming up at Easter?"),
        ("2026-12-05T19:45", "speech", "Debbie: how's Steve's back?"),
        ("2026-12-05T19:52", "text", "Call ended — Debbie — 22 min"),
        ("2026-12-05T20:30", "text", "phone — incoming call — Debbie"),
        ("2026-12-05T20:30:20", "speech", "Debbie: forgot to say, bring the photos"),
    ])
    at = parse_time_ms("2026-12-05T20:00")
    assert kinds.asked("call with our debbie") == kinds.Asked("call", "debbie", either=True)
    assert said(store, "how long was I on the phone to our Debbie", at).startswith("22 min, from today at 19:30")
    assert said(store, "how long was my call with Debbie", at).startswith("22 min, from today at 19:30")
    assert said(store, "when did Debbie ring me", at).startswith("Not that I can see")  # the 19:30 call was the wearer's


def test_a_name_the_caller_says_is_someone_elses_is_not_who_rang(tmp_path):
    """'Is that Jordan Marsh's mum?' from the school names no call from Mum; 'it's Mum' would."""
    store = day_log(tmp_path / "owned.db", [
        ("2026-12-05T07:44", "text", "phone — incoming call — Mum"),
        ("2026-12-05T13:53", "text", "phone — incoming call — Kettering Science Academy"),
        ("2026-12-05T13:53:30", "speech", "School: Hello, is that Jordan Marsh's mum? It's Mrs Jeffs from the school."),
        ("2026-12-05T16:10", "visual", "a phone ringing on the worktop"),
        ("2026-12-05T16:10:20", "speech", "Hiya love, it's Mum. Did he get home all right?"),
    ])
    at = parse_time_ms("2026-12-05T18:00")
    assert said(store, "how many times has my mum rung today", at).startswith("2 times (today at 07:44, today at 16:10)")
