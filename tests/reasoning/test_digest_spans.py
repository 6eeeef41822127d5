"""A span told (digest.py) on a real store: a span counted from an occasion ('what have I done since lunch?'), the
events chosen so that a longer digest keeps a shorter one's, sounds heard around told last, and a frame that opens
with a place's name counted as a place gone to."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import digest, understand
from egocli.reasoning.scope import parse_scope
from egocli.store import Event, EventFilter

from .conftest import day_log, said

AT = parse_time_ms("2026-12-15T17:00")
AFTERNOON = [
    ("2026-12-15T10:30", "visual", "kitchen, a mug of tea and the laptop open"),
    ("2026-12-15T12:58", "visual", "garden centre café, a cheese and pickle toastie and a pot of tea on a tray"),
    ("2026-12-15T13:20", "text", "Greenfingers — jute twine 3.49 — gardening gloves 6.99 — TOTAL £10.48 — card"),
    ("2026-12-15T13:40", "speech", "(radio) a chilly start for most of us, with patches of fog"),
    ("2026-12-15T14:29", "speech", "Mum: Hello love! Did Owen tell you about the twenty-seventh?"),
    ("2026-12-15T15:04", "speech", "Tasha: Guess what. I got the job! The one at the library."),
    ("2026-12-15T15:15", "visual", "Hillside Motors on Mill Road, the van up on the ramp"),
    ("2026-12-15T15:17", "speech", "Dean: All done. Those front pads were nearly down to the metal."),
    ("2026-12-15T16:38", "visual", "back door step, rubbing the muddy spaniel down with an old towel"),
]


def _frame(text: str) -> Event:
    return Event(id=1, start_ms=0, end_ms=0, modality="visual", content=text, source_id=None)


def test_since_lunch_is_read_as_a_span_from_the_lunch():
    question = "what have i done since lunch today"
    plan = understand.by_rules(question, parse_scope(question, AT))
    assert plan is not None and (plan.form, plan.action, plan.relation) == ("digest", "lunch", "after")


def test_a_span_since_lunch_tells_the_afternoon_not_the_morning(tmp_path):
    answer = said(day_log(tmp_path / "a.db", AFTERNOON), "what've I done since lunch today?", AT)
    assert "twine" in answer and "Mum" in answer and "Tasha" in answer and "Hillside Motors" in answer, answer
    assert "10:30" not in answer and "laptop" not in answer, answer


def test_a_longer_digest_keeps_the_shorter_ones_events(tmp_path):
    store = day_log(tmp_path / "b.db", AFTERNOON)
    events = list(store.events(EventFilter()))
    short, long = digest.salient(events, 4), digest.salient(events, 6)
    assert len(short) == 4 and len(long) == 6 and set(e.id for e in short) <= set(e.id for e in long)


def test_a_sound_heard_around_is_told_after_what_people_said(tmp_path):
    store = day_log(tmp_path / "c.db", AFTERNOON)
    picked = digest.salient(list(store.events(EventFilter())), 7)
    assert not any(e.content.startswith("(radio)") for e in picked), [e.content for e in picked]


def test_a_frame_opening_with_a_name_names_the_place():
    assert digest.opens_with_place(_frame("Hillside Motors on Mill Road, the van up on the ramp")) == "Hillside Motors"
    assert digest.opens_with_place(_frame("the Co-op on Carr Lane, a basket with milk")) == "Co-op"
    assert digest.opens_with_place(_frame("Market Street, a pedestrian precinct")) == ""  # a street, no place
    assert digest.opens_with_place(_frame("Ellie at the kitchen table in her dressing gown")) == ""


MARKET = [
    ("2027-01-16T12:44", "text", "A-board — Chorlton Makers & Food Market — every Saturday 11-4 — cash & card"),
    ("2027-01-16T12:46", "visual", "strings of bunting flapping between the stalls"),
    ("2027-01-16T12:47", "visual", "a woman with a pram squeezing between the stalls"),
    ("2027-01-16T12:48", "visual", "a veg stall, a man in fingerless gloves weighing spinach into a paper bag"),
    ("2027-01-16T12:49", "speech", "Stallholder: Spinach, onions, tomatoes, bunch of coriander... four pound sixty."),
    ("2027-01-16T12:51", "visual", "a stall of knitted hats and scarves in bright colours"),
    ("2027-01-16T12:53", "text", "label — Fig & Black Pepper — hand-poured soy candle — £16"),
    ("2027-01-16T12:57", "visual", "strings of bunting flapping between the stalls"),
    ("2027-01-16T13:03", "speech", "Samosa lady: Two vegetable, three pounds. Chutney's on me."),
    ("2027-01-16T13:05", "visual", "a man with a dog on a lead looking at the cheese"),
]


def test_what_was_bought_at_a_place_is_told_from_its_stay_money_and_quantities_first(tmp_path):
    """The A-board names the market (its 'every Saturday' is opening hours, no plan); the stay runs on after it
    with no departure seen; the lines naming money or a quantity are what was bought."""
    answer = said(day_log(tmp_path / "m.db", MARKET), "what did i get at the market", parse_time_ms("2027-01-16T18:00"))
    assert "Spinach" in answer and "candle" in answer and "Samosa" in answer, answer
