"""Verbs and the things they act on: actions.py's parsing, and open questions over narrated actions (real
store, real MiniLM) that terms alone answered wrongly: a verb of the same class, a compound that is another
thing, repeated narrations that are each an action, where a thing was put, a stay the log never names."""

from __future__ import annotations

import pytest

from egocli.reasoning import actions, asker, terms
from egocli.store import NewEvent, Store
from egocli.core.timeutil import parse_time_ms

from .minilm import indexed


def test_a_phrase_is_its_verb_class_and_the_head_of_what_it_acts_on():
    assert actions.parse("got the carafe") == actions.Action("take", "caraf", "get")
    assert actions.parse("removed the onion").verb == actions.parse("take out the onion").verb
    assert actions.parse("sliced the chicken").verb == actions.parse("chop chicken").verb == "cut"
    assert actions.parse("turned on my kettle").verb == "turn_on" != actions.parse("turn off the kettle").verb
    assert actions.parse("at the dentist") == actions.Action(None, "dentist", None)
    assert actions.parse("take my blood pressure pill").head == "medication"  # synonyms folded
    assert actions.parse("egg down", verb_first=False).head == terms.stem("egg")  # a particle is not the thing
    assert actions.parse("turned down the hob").particle == "down"  # right after the verb: part of it
    assert actions.parse("get my umbrella back") == actions.Action("take", "umbrella", "get", None)
    assert actions.parse("had my diabetes pills").verb == "take"  # having a medicine is taking it
    assert actions.parse("have a cup of tea").verb is None  # not having anything else
    assert actions.parse("have one of my tablets").head == "medication"  # 'one of' takes part of the tablets
    assert actions.whole("have one of my tablets") == "have my tablets"


@pytest.fixture()
def doses(tmp_path):
    from .conftest import day_log

    return day_log(tmp_path / "doses.db", [
        ("2026-12-05T07:16", "visual", "a white metformin tablet swallowed with a spoonful of porridge"),
        ("2026-12-05T10:44", "speech", "Nurse Shah: let's switch you to the slow-release metformin, two tablets a day"),
        ("2026-12-05T11:30", "visual", "the boxes of metformin put away in the cupboard above the kettle"),
        ("2026-12-05T18:36", "visual", "a white metformin tablet taken with the first mouthful of mash"),
    ])


def test_having_a_medicine_counts_the_doses_not_the_lines_naming_it(doses):
    from .conftest import said

    at = parse_time_ms("2026-12-05T21:00")
    assert said(doses, "how many of my diabetes pills have I had today?", at).startswith("2 times")
    assert "18:36" in said(doses, "when did I last have one of my diabetes tablets?", at)


def test_verbs_in_events_open_a_clause_or_are_inflected():
    assert actions.verbs_of("boarding tram 4, standing by the doors") == {"take"}
    assert "take" not in actions.verbs_of("put pan on board")  # the noun 'board'
    assert actions.verbs_of("hi Sam, how's the move going?", "speech") >= {"speak"}
    assert actions.verbs_of("Mum's hallway, hugging Jo goodbye", "visual") >= {"look"}


def test_a_particle_after_the_thing_still_makes_the_phrasal_verb():
    assert actions.parse("turn the tap off") == actions.Action("turn_off", "tap", "turn", None)
    assert actions.parse("switched the oven on").verb == "turn_on"
    assert actions.verbs_of("turn tap off, then dry hands") == {"turn_off", "dry"}
    # a preposition after the thing is where, not part of the verb
    assert actions.parse("put the kettle on the hob").verb == "put"
    assert actions.parse("take the pan out of the oven").verb == "take"


def test_an_ing_word_naming_a_thing_is_no_act():
    # the tools of real kitchen narrations: a cutting board is not cutting, a frying pan not frying
    assert actions.verbs_of("wash cutting board") == {"wash"}
    assert actions.verbs_of("put pan on chopping board") == {"put"}
    assert actions.verbs_of("take frying pan") == {"take"}
    assert actions.verbs_of("pick up cutting board") == {"take"}
    # the same words as acts: after a verb that takes one, opening a clause, or before a thing
    assert actions.verbs_of("continue cutting the onion") == {"cut"}
    assert actions.verbs_of("after cutting onion, wash knife") == {"cut", "wash"}
    assert actions.verbs_of("I was cutting bread") == {"cut"}
    assert actions.verbs_of("cutting bread") == {"cut"}


def test_compounds_are_other_things():
    texts = ["remove onion skin", "remove onion skin", "remove onion", "put olive oil away"]
    compound = actions.compounds(texts, "onion")
    assert compound == {"skin"}
    assert actions.names_head("remove onion", "onion", compound)
    assert not actions.names_head("remove onion skin", "onion", compound)
    assert actions.compounds(["tram 4 home", "boarding tram number 4"], "tram") == set()  # once is not a compound


def test_discrete_narrations_and_placings():
    assert actions.opens_with_verb("slice chicken", "cut") and not actions.opens_with_verb("walking the dog", "walk")
    assert actions.places("put glass into cupboard", "glass")
    assert not actions.places("move glass", "glass")  # moved, but to nowhere said
    assert not actions.places("wash glass in sink", "glass")  # no verb of placing


AT = parse_time_ms("2026-11-20T19:00:00")
KITCHEN = [  # (clock, seconds, text): narrated actions, a few seconds each, as annotators write them
    ("14:15:00", 3, "turn on tap"), ("14:15:05", 3, "get carafe"), ("14:15:09", 4, "pour coffee"),
    ("14:15:20", 2, "set down carafe"), ("14:15:23", 2, "get cover"),
    ("14:16:00", 3, "slice chicken"), ("14:16:04", 3, "slice chicken"), ("14:16:10", 3, "slice chicken"),
    ("14:16:20", 3, "remove onion skin"), ("14:16:25", 3, "remove onion skin"), ("14:16:31", 2, "remove onion"),
    ("14:16:34", 2, "remove onion"), ("14:16:40", 2, "put glass into cupboard"), ("14:17:00", 2, "move glass"),
    ("14:17:10", 3, "put olives in fridge"), ("14:17:20", 2, "pick up olive oil"),
    ("14:17:30", 2, "put away olive oil"), ("14:17:40", 4, "scrub the pan"), ("14:18:00", 4, "cleaning the pan"),
    ("14:19:00", 2, "put lid on olive oil"), ("14:40:00", 2, "wash hands"),
]


@pytest.fixture(scope="module")
def kitchen() -> tuple[Store, object]:
    store = Store.open(None)
    day = "2026-11-20T"
    store.add_events([NewEvent(parse_time_ms(day + c), parse_time_ms(day + c) + s * 1000, "text", t)
                      for c, s, t in KITCHEN])
    return store, indexed(store)


def _ask(kitchen, question: str) -> asker.Answer:
    store, emb = kitchen
    req = asker.AskRequest(question, at_ms=AT, hcc=False, llm=False)
    return asker.answer(None, asker.assemble(store, req, emb), req)


@pytest.mark.slow
def test_repeated_narrations_are_each_an_action(kitchen):
    assert _ask(kitchen, "How often did I slice the chicken?").text.startswith("3 times")
    assert _ask(kitchen, "How many times did I cut the chicken today?").text.startswith("3 times")
    assert _ask(kitchen, "Count how many times I removed the onion.").text.startswith("2 times")


@pytest.mark.slow
def test_after_getting_a_thing_is_after_getting_it_not_after_setting_it_down(kitchen):
    ans = _ask(kitchen, "What did I do after I got the carafe?")
    assert "pour coffee" in ans.text and ans.citations[0].content == "pour coffee"


@pytest.mark.slow
def test_where_is_the_last_placing_not_the_last_mention(kitchen):
    ans = _ask(kitchen, "Where did I leave the glass?")
    assert ans.text.startswith("You left your glass") and ans.citations[0].content == "put glass into cupboard"
    assert "move glass" in ans.text  # the later sighting is said too
    ans = _ask(kitchen, "Where did I put the olives?")  # not the olive oil
    assert ans.citations[0].content == "put olives in fridge"


@pytest.mark.slow
def test_the_very_verb_before_one_of_its_class(kitchen):
    ans = _ask(kitchen, "When did I last scrub the pan?")
    assert ans.citations[0].content == "scrub the pan"
    ans = _ask(kitchen, "When did I last put away the olive oil?")  # 'put away', not any 'put'
    assert ans.citations[0].content == "put away olive oil"


@pytest.mark.slow
def test_a_stay_the_log_never_names_is_the_time_recorded(kitchen):
    ans = _ask(kitchen, "How long was I in the kitchen today?")
    assert ans.text.startswith('Nothing in the log names "in the kitchen"; you recorded 25 min 2 s')
    ans = _ask(kitchen, "How long was I in the kitchen?")  # no day: nothing to measure
    assert ans.text.startswith("Nothing in the log about")


def test_numbers_are_terms_whether_written_in_words_or_digits():
    assert terms.terms("level four, bay 47") == terms.terms("Level 4 bay 047") == ["level", "4", "bay", "47"]


@pytest.mark.slow
def test_options_that_differ_only_in_numbers(kitchen):
    store, emb = kitchen
    at = parse_time_ms("2026-11-20T18:00:00")
    store.add_events([NewEvent(at - 3_600_000, at - 3_600_000 + 4000, "speech", "parked on level four, bay 47")])
    emb = indexed(store)
    req = asker.AskRequest("Where did I park the car?", ("level 2 bay 14", "level 4 bay 47", "level 4 bay 12"),
                           at_ms=at, hcc=False, llm=False)
    ans = asker.answer(None, asker.assemble(store, req, emb), req)
    assert ans.letter == "B"


def test_my_thing_is_not_someone_elses(tmp_path):
    """'My mum' is not 'the girl and her mum'; "Dean's keys" are not mine; 'it's my mum' and 'Hiya, Mum' are."""
    from .conftest import day_log, said

    assert actions.owned("see my mum", "mother") and not actions.owned("see the mum", "mother")
    assert actions.theirs("the girl and her mum going out of the door", "mother")
    assert actions.theirs("Dean's keys on the hook", "key")
    assert not actions.theirs("it's my mum", "mum") and not actions.theirs("Hiya, Mum", "mum")
    assert not actions.theirs("her mum and my mum", "mum")  # mine named too
    store = day_log(tmp_path / "mums.db", [
        ("2028-01-13T15:26", "visual", "the girl and her mum going out of the door, the bell jangling"),
        ("2028-01-14T13:22", "visual", "Mum waving from the doorstep of the bungalow"),
    ])
    answer = said(store, "when did I last see my mum", parse_time_ms("2028-01-14T20:00"))
    assert "13:22" in answer and "15:26" not in answer, answer
    assert "15:26" in said(store, "when did I last see the girl's mum", parse_time_ms("2028-01-14T20:00"))
