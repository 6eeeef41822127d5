"""Visits: a stay, an arrival and a departure computed from how narrations say them, when the events name the
place otherwise than the question does ('the barber's' is 'Snip Shop' at the door), on a real store."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import visits
from egocli.store import Store

from .conftest import add_rows, day_log, said

AT = parse_time_ms("2026-12-03T21:00")
DAY = [
    ("2026-12-03T08:05", "visual", "kitchen, toast and a mug of tea"),
    ("2026-12-03T09:02", "visual", "pulling the front door shut and locking the front door, bag on the shoulder"),
    ("2026-12-03T09:20", "visual", "walking into Snip Shop, two chairs and a radio playing"),
    ("2026-12-03T09:24", "visual", "barber's chair, a towel round the neck, Tom with the clippers"),
    ("2026-12-03T09:40", "speech", "Tom: shorter at the sides?"),
    ("2026-12-03T10:05", "visual", "leaving Snip Shop, cold wind on the neck"),
    ("2026-12-03T10:30", "visual", "the Central Library reading room, newspapers on a long table"),
    ("2026-12-03T11:10", "visual", "library shelves, the cookery section"),
    ("2026-12-03T12:15", "visual", "leaving the Central Library with two books"),
    ("2026-12-03T12:40", "visual", "unlocking the front door, letting myself in, bags on the hall floor"),
    ("2026-12-03T18:30", "visual", "putting on a coat and leaving the house"),
    ("2026-12-03T18:45", "visual", "the Red Lion pub, a pint on the bar"),
    ("2026-12-03T20:10", "visual", "leaving the Red Lion, walking home"),
    ("2026-12-03T20:25", "visual", "letting myself into the flat, the heating on"),
]


@pytest.fixture()
def store(tmp_path):
    return day_log(tmp_path / "log.db", DAY)


def _ask(store: Store, question: str) -> str:
    return said(store, question, AT)


@pytest.mark.parametrize("phrase, want", [
    ("arrive home from work", visits.Move("arrive", "", "work")),
    ("arrive back from the shops", visits.Move("arrive", "", "shops")),
    ("leave the barber's", visits.Move("leave", "barber")),
    ("go out", visits.Move("leave", "")),
    ("arrive at the office", visits.Move("arrive", "office")),
    ("leave my keys on the table", None),
    ("slice the bread", None),
    ("come home", visits.Move("arrive", "")),  # the lexicon's 'come_home' matched stem to stem ('com_home')
    ("come back from the shops", visits.Move("arrive", "", "shops")),
    ("knock off", visits.Move("leave", "work")),
])
def test_a_phrase_names_its_move(phrase, want):
    assert visits.move(phrase) == want


def test_a_stay_runs_from_the_arrival_to_the_departure_named_otherwise(store):
    said = _ask(store, "How long was I at the barber's?")
    assert said.startswith("45 min") and "09:20" in said and "10:05" in said


def test_a_stay_seen_once_says_when_not_how_long(tmp_path):
    """One mention of a stay is a moment of it: its clip's few seconds are no length."""
    once = day_log(tmp_path / "once.db", [*DAY[:2], ("2026-12-03T15:00", "visual", "the plumber under the sink")])
    said = _ask(once, "How long was the plumber here?")
    assert said.startswith("I can't tell how long: I only see one moment of it") and "15:00" in said, said


def test_a_stay_closed_by_the_name_read_there(store):
    said = _ask(store, "how long was I at the pub?")
    assert said.startswith("1 h 25 min"), said


def test_leaving_a_place_the_departure_does_not_name_as_asked(store):
    assert "10:05" in _ask(store, "When did I leave the barber's?")


def test_arrivals_home_after_a_place_and_departures_from_home(store):
    assert "12:40" in _ask(store, "What time did I get back from the library?")
    assert "20:25" in _ask(store, "when did I get home from the pub")
    assert _ask(store, "How many times did I go out today?").startswith("2 times")


def test_a_digest_tells_where_the_day_went(tmp_path):
    scenery = [(f"2026-12-03T{8 + i // 6:02d}:{(i % 6) * 10:02d}", "visual", f"a street with parked cars and a {w}")
               for i, w in enumerate("lamp bin bench tree sign van bike fence gate wall hedge kerb".split())]
    named = [("2026-12-03T08:55", "visual", "walking into Snip Shop, two chairs and a radio playing"),
             ("2026-12-03T09:35", "visual", "leaving Snip Shop, cold wind on the neck"),
             ("2026-12-03T09:45", "visual", "the Central Library reading room, newspapers on a long table")]
    store = day_log(tmp_path / "busy.db", sorted(scenery + named))
    said = _ask(store, "What did I do this morning?")
    assert "Snip Shop" in said and "Central Library" in said


def test_where_was_i_at_a_time_names_the_place_of_the_visit(store):
    add_rows(store, [("2026-12-03T19:25", "visual", "a half-full glass on a sticky table"),
                     ("2026-12-03T19:33", "visual", "darts on a board")])
    said = _ask(store, "where was i at about 7:30 this evening")
    assert said.startswith("At the Red Lion pub") and "darts" in said


def test_a_clock_said_in_words_names_where_one_was(store):
    assert "Central Library" in _ask(store, "Where was I at half ten this morning?").split(".")[0]
    assert "Central Library" in _ask(store, "where was i at quarter to eleven today").split(".")[0]


def test_days_and_months_in_capitals_are_no_place_names():
    from egocli.reasoning import terms

    assert terms.names("taking the THU morning tablet from the pill box") == set()
    assert terms.names("walking into Clip & Curl on Monday") == {"Clip & Curl"}


def test_a_letter_read_at_home_is_no_visit_to_its_sender(tmp_path):
    store = day_log(tmp_path / "bank.db", [
        ("2026-12-03T08:20", "text", "Parkway Bank — Dear customer, your savings bond matures on 4 January"),
        ("2026-12-03T09:48", "visual", "hallway, coat on, a cheque in the handbag"),
        ("2026-12-03T10:10", "visual", "Parkway Bank on the High Street, waiting in the queue for the counter"),
        ("2026-12-03T10:22", "note", "Parkway Bank adviser Mon 14 Dec 11:00"),
        ("2026-12-03T10:26", "visual", "leaving Parkway Bank, the cash zipped into the purse"),
    ])
    assert _ask(store, "how long was i in the bank").startswith("16 min")


def test_where_was_i_names_the_place_not_the_person_seen_there(tmp_path):
    store = day_log(tmp_path / "at.db", [
        ("2026-12-13T09:30", "visual", "St Luke's eye clinic reception on Level 2, checking Dad in at the desk"),
        ("2026-12-13T09:31", "speech", "Dad: is it always this busy?"),
        ("2026-12-13T10:15", "visual", "a nurse calling Dad in for a vision test"),
    ])
    answer = said(store, "where was I at twenty past ten", parse_time_ms("2026-12-13T20:00"))
    assert answer.startswith("At St Luke's eye clinic reception")


def test_what_happened_at_a_place_is_told_from_the_stay_not_from_a_letter_about_it(tmp_path):
    """The clinic's letter read at breakfast names it; the stay there runs from its sign to leaving, and only that
    stretch is told ('what happened at the eye clinic', 'what did I do at Mrs Okafor's')."""
    store = day_log(tmp_path / "clinic.db", [
        ("2027-01-06T08:12", "text", "letter - Kingsmead Hospital Eye Clinic - Wednesday 6 January at 10.40am"),
        ("2027-01-06T09:15", "speech", "Joy: Right, I'll see you tomorrow. Mind yourself on that bus"),
        ("2027-01-06T10:06", "text", "sign - Lister Wing - Eye Clinic Level 2 - Audiology Level 1"),
        ("2027-01-06T10:12", "speech", "Receptionist: Take a seat, the nurse will call you for your drops first"),
        ("2027-01-06T10:40", "visual", "a dark room, a scan of the back of the eye, the consultant at the screen"),
        ("2027-01-06T11:15", "speech", "Mr Osei: we'll do the injection today, a little scratch"),
        ("2027-01-06T11:30", "visual", "leaving the eye clinic, the lift doors opening"),
        ("2027-01-06T13:00", "visual", "kitchen, a cup of tea"),
    ])
    told = said(store, "what happened at the eye clinic", parse_time_ms("2027-01-06T18:00"))
    assert "drops" in told and "scan" in told and "injection" in told
    assert "Joy" not in told and "cup of tea" not in told


def test_what_was_bought_at_a_place_is_told_from_the_stay_there(tmp_path):
    """'What did I get at the market?' when no line says 'get' of a thing: what the stay at the market held. A
    question of another verb ('what did we win at the quiz?') is not told as a stay."""
    store = day_log(tmp_path / "market.db", [
        ("2027-01-16T11:40", "text", "A-board - Chorlton Makers & Food Market - every Saturday 11-4"),
        ("2027-01-16T11:48", "speech", "Two of the spinach samosas, please, and the lime candle"),
        ("2027-01-16T11:55", "visual", "a paper bag of coriander and onions from the veg stall"),
        ("2027-01-16T12:20", "visual", "leaving the market, walking up Beech Road"),
        ("2027-01-16T19:30", "visual", "the Crown, the quiz sheets on the table"),
    ])
    told = said(store, "what did i get at the market", parse_time_ms("2027-01-16T21:00"))
    assert "samosas" in told and "coriander" in told and "quiz" not in told
    assert not said(store, "what did we win at the quiz?", parse_time_ms("2027-01-16T21:00")).startswith("At quiz")


def test_a_place_only_narrated_lasts_the_recording_made_there(tmp_path):
    """A kitchen video's narrations name the kitchen now and then; nothing in it shows another place, so the stay
    is the recording, not its first and last mentions. In a log that also shows another place, it is not."""
    rows = [(f"2026-11-18T12:{m:02d}", "text", f"step {m} of the recipe") for m in range(35, 60, 3)]
    rows += [("2026-11-18T12:38", "text", "put board on kitchen counter"),
             ("2026-11-18T13:00", "text", "wipe the kitchen counter"), ("2026-11-18T13:08", "text", "rinse table")]
    kitchen = day_log(tmp_path / "kitchen.db", sorted(rows))
    at = parse_time_ms("2026-11-18T17:00")
    assert said(kitchen, "How long was I in the kitchen today?", at).startswith("33 min")
    out = day_log(tmp_path / "out.db", sorted([*rows, ("2026-11-18T12:50", "text", "sign - Fenwick Library")]))
    assert said(out, "How long was I in the kitchen today?", at).startswith("22 min")


def test_a_place_named_on_the_way_is_not_yet_reached(tmp_path):
    """The market's name painted on one's own van on the drive in is no arrival; the sign read there is."""
    store = day_log(tmp_path / "van.db", [
        ("2026-12-03T04:13", "visual", "the drive in the dark, a white van with CALDERFORD MARKET painted on the side"),
        ("2026-12-03T06:06", "text", "sign - Calderford Market - Wednesday and Saturday"),
        ("2026-12-03T06:20", "visual", "the market square, unloading crates of apples"),
    ])
    assert "06:06" in _ask(store, "what time did i get to the market this morning")


def test_a_way_of_getting_about_with_a_way_out_is_a_departure(tmp_path):
    """'cycling out of the Greenfingers car park' ends the stay (the lexicon's movers with its ways out), though no
    word of the leaving list says it; the mentions there before it do not."""
    store = day_log(tmp_path / "bike.db", [
        ("2026-12-03T12:48", "visual", "Greenfingers Garden Centre, pushing the bike into the cycle rack by the entrance"),
        ("2026-12-03T12:58", "visual", "garden centre café, a toastie and a pot of tea on a tray"),
        ("2026-12-03T13:19", "visual", "garden centre till, a ball of twine and gloves on the counter"),
        ("2026-12-03T13:30", "visual", "cycling out of the Greenfingers car park onto the main road"),
        ("2026-12-03T13:52", "visual", "back garden, wheeling the bike into the shed"),
    ])
    answer = _ask(store, "how long was i at the garden centre")
    assert "42 min" in answer and "13:30" in answer


def test_a_road_sign_is_on_the_way_a_pub_sign_is_there_and_doors_are_no_other_place(tmp_path):
    """A road sign pointing to the garden centre is no arrival there (the sign at its gate is); 'walking out through
    sliding doors to the car park' leaves it (doors and where one went name no other place), not the car pulling
    out of the Co-op on the way home; a pub sign read at the door is the arrival at the pub."""
    store = day_log(tmp_path / "signs.db", [
        ("2026-12-03T14:15", "visual", "a small red hatchback at the kerb, a woman at the wheel"),
        ("2026-12-03T14:22", "text", "road sign — Brookfoot Garden Centre — next left"),
        ("2026-12-03T14:28", "text", "sign — Brookfoot Garden Centre — Plants • Gifts • Café"),
        ("2026-12-03T14:49", "text", "receipt — Brookfoot Garden Centre — Tulip bulbs £4.99 — TOTAL £4.99"),
        ("2026-12-03T15:38", "visual", "walking out through sliding doors to the car park, a carrier bag in one hand"),
        ("2026-12-03T15:48", "text", "sign — Co-op — Bradford Road — open 7am-10pm"),
        ("2026-12-03T15:53", "visual", "back in the passenger seat, the milk on a lap, the car pulling out"),
        ("2026-12-03T19:46", "visual", "the bus stopping by a stone pub with hanging baskets"),
        ("2026-12-03T19:47", "text", "pub sign — The Red Lion — QUIZ NIGHT every Saturday 8pm"),
        ("2026-12-03T19:56", "text", "answer sheet — The Red Lion Quiz — Round 1"),
    ])
    assert "14:28" in _ask(store, "what time did we get to the garden centre")
    assert "15:38" in _ask(store, "what time did we leave the garden centre")
    assert "1 h 10 min" in _ask(store, "how long were we at the garden centre")
    assert "19:47" in _ask(store, "what time did we get to the red lion")


def test_getting_home_after_a_place_never_seen_left_is_no_earlier_homecoming(tmp_path):
    """The quiz is seen (its answer sheet) but no leaving it: 'when did we get home after the quiz' is not the
    homecoming of the afternoon before it."""
    store = day_log(tmp_path / "quiz.db", [
        ("2026-12-03T13:36", "visual", "letting myself in, the shopping bag on the kitchen floor"),
        ("2026-12-03T19:47", "text", "pub sign — The Red Lion — QUIZ NIGHT every Saturday 8pm"),
        ("2026-12-03T19:56", "text", "answer sheet — The Red Lion Quiz — Round 1"),
        ("2026-12-03T22:11", "visual", "the back seat of a taxi, the pub's lit windows sliding away"),
    ])
    assert "13:36" not in _ask(store, "what time did we get home after the quiz")


def test_a_stay_seen_for_an_hour_and_never_left_lasts_at_least_that_long(tmp_path):
    """The chapel seen at 10:25 and its door pushed open at 11:42, nothing after: at least 1 h 17 min, said as such,
    not 'I can't tell how long'."""
    store = day_log(tmp_path / "chapel.db", [
        ("2026-12-06T10:25", "visual", "a stone chapel with a noticeboard outside the railings"),
        ("2026-12-06T10:28", "visual", "inside a chapel, rows of pews, a wooden hymn board on the wall"),
        ("2026-12-06T11:05", "speech", "Minister: Our last hymn is two hundred and sixty."),
        ("2026-12-06T11:42", "visual", "a chapel door pushed open into daylight, the street beyond"),
    ])
    answer = said(store, "how long were we at chapel", parse_time_ms("2026-12-06T13:00"))
    assert answer.startswith("It seems at least 1 h 17 min")


def test_someone_elses_message_naming_a_place_is_not_being_there(tmp_path):
    store = day_log(tmp_path / "ray.db", [
        ("2026-12-05T09:15", "text", "Shanice: I'm at Ray's already, door's on the latch, come straight in x"),
        ("2026-12-05T09:34", "visual", "Ray's front door on the latch, stepping into the hallway"),
        ("2026-12-05T09:41", "speech", "Ray: you two are late"),
    ])
    answer = said(store, "what time did I get to Ray's?", parse_time_ms("2026-12-05T12:00"))
    assert "09:34" in answer and "09:15" not in answer, answer


def test_getting_to_someones_place_is_their_home_seen_from_outside_just_before(tmp_path):
    """At Joan's, she speaks at 08:41; the bungalow seen at 08:32 (its key safe, no name) is getting there. A row of
    houses seen before a shop's sign is no arrival at the shop."""
    store = day_log(tmp_path / "round.db", [
        ("2028-03-06T08:25", "visual", "driving along Sandringham Drive, the wipers going"),
        ("2028-03-06T08:32", "visual", "a bungalow at number 6 with a ramp up to the front door and a key safe"),
        ("2028-03-06T08:38", "visual", "the key safe clicking open, a door key on a red ribbon"),
        ("2028-03-06T08:41", "speech", "Joan: you're early, Lorraine, is it shower day?"),
        ("2028-03-06T09:12", "speech", "Joan: I've taken them, look, down the hatch"),
        ("2028-03-06T09:33", "visual", "a terraced house in Forest Town, a purple Fiesta outside"),
        ("2028-03-06T09:41", "speech", "Ray: you two are late, I've been lying here since six"),
        ("2028-03-06T10:02", "visual", "walking past a row of terraced houses in the rain"),
        ("2028-03-06T10:09", "text", "shop sign — Co-op — Forest Town"),
        ("2028-03-06T11:58", "visual", "driving home from Chestnut Grove, the radio on"),
    ])
    at = parse_time_ms("2028-03-06T12:00")
    assert "08:32" in said(store, "what time did I get to joan's", at)
    assert "09:33" in said(store, "what time did I get to ray's", at)
    assert "10:09" in said(store, "what time did I get to the co-op", at)
    assert "11:58" not in said(store, "how long was I at joan's", at)  # Ray's house came next, not the drive home
