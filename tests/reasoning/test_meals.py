"""Meals (meals.py), on a real store: found by the hours they are eaten in and what the lines show, not by their
name; a slice of toast eaten standing up is no meal beside one made and eaten; a drink of tea is no tea."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import meals, understand

from .conftest import day_log, said

DAY = [
    ("2026-12-14T07:04", "visual", "kitchen, the man in the green uniform eating toast standing up by the counter"),
    ("2026-12-14T07:29", "visual", "kitchen table, two boiled eggs with toast soldiers and a mug of coffee"),
    ("2026-12-14T09:45", "visual", "a robin perched on the handle of the garden fork"),
    ("2026-12-14T13:20", "visual", "window table, a bowl of leek and potato soup with a crusty roll"),
    ("2026-12-14T14:47", "speech", "Owen: Mum wants us all at hers for lunch on the twenty-seventh"),
    ("2026-12-14T16:02", "visual", "kitchen, Ellie eating toast and laughing at a phone"),
    ("2026-12-14T16:30", "visual", "a mug of tea steaming on the bench"),
    ("2026-12-14T17:40", "visual", "kitchen, making spaghetti bolognese, the sauce bubbling in the big pan"),
    ("2026-12-14T18:05", "visual", "kitchen table, eating spaghetti bolognese with Ellie"),
    ("2026-12-14T18:10", "text", "menu on the fridge: fish pie on Friday"),
]
AT = parse_time_ms("2026-12-14T21:00")


@pytest.fixture()
def store(tmp_path):
    return day_log(tmp_path / "log.db", DAY)


@pytest.mark.parametrize("question, meal", [
    ("what did I have for breakfast?", "breakfast"),
    ("what was my tea tonight", "tea"),
    ("what did we have for our tea last night", "tea"),
    ("What did I make for dinner on Monday?", "dinner"),
    ("what time did I have lunch yesterday", "lunch"),
])
def test_questions_about_a_meal_are_read_as_one(question, meal):
    plan = understand.by_rules(question)
    assert plan is not None and (plan.form, plan.action) == ("meal", meal)


def test_did_i_have_lunch_stays_a_yes_or_no():
    assert understand.by_rules("did I have lunch at the garden centre").form == "exists"


def test_a_meal_is_the_sitting_made_and_eaten_not_a_snack(store):
    assert said(store, "what did we have for tea tonight?", AT).startswith(
        "You had your tea today at 18:05: kitchen table, eating spaghetti bolognese")


def test_breakfast_is_the_plate_not_someone_elses_toast_or_the_garden(store):
    assert said(store, "what did I have for breakfast?", AT).startswith("You had your breakfast today at 07:29")


def test_lunch_is_what_was_eaten_not_a_lunch_talked_about(store):
    answer = said(store, "what time did I have lunch today", AT)
    assert answer.startswith("You had your lunch today at 13:20") and "soup" in answer


def test_a_meal_not_yet_eaten_is_not_guessed(store):
    answer = said(store, "what did I have for breakfast?", parse_time_ms("2026-12-14T06:00"))
    assert answer.startswith(("Not that I can see", "Nothing"))


def test_the_meal_of_a_phrase():
    assert meals.meal_of("my tea") == "tea" and meals.meal_of("a cup") is None


SUNDAY = [
    ("2027-10-24T07:13", "speech", "Maureen: Dinner'll be at one today. I've got a nice bit of beef."),
    ("2027-10-24T12:05", "speech", "Maureen: Right. Dinner'll be half one now, not one."),
    ("2027-10-24T12:08", "visual", "a woman at the kitchen window lifting an egg cup off the windowsill"),
    ("2027-10-24T13:32", "visual", "a kitchen table set for two, plates of roast beef, Yorkshire puddings, gravy"),
    ("2027-10-24T13:45", "visual", "a bowl of apple crumble with custard"),
    ("2027-10-24T14:15", "visual", "a small red hatchback at the kerb, a woman at the wheel, a seat belt pulled across"),
    ("2027-10-24T14:28", "text", "sign — Brookfoot Garden Centre — Plants • Gifts • Café"),
    ("2027-10-24T18:40", "visual", "sandwiches of cold roast beef with horseradish on two plates"),
]


def test_the_logs_own_words_say_when_dinner_is_and_an_egg_cup_is_no_food(tmp_path):
    store = day_log(tmp_path / "sunday.db", SUNDAY)
    at = parse_time_ms("2027-10-24T20:00")
    dinner = said(store, "what did we have for sunday dinner", at)
    assert "13:32" in dinner and "Yorkshire" in dinner, dinner  # 'Dinner'll be half one': the midday meal
    after = said(store, "what did we do after dinner today", at)
    assert "14:15" in after and "Garden Centre" in after, after  # what was done next, and the place reached
