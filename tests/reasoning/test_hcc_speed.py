"""HCC summaries made cheap by method: compact hour inputs, no model call where it adds nothing, days and weeks
from the finer summaries, short replies, the system turn shared between calls. No timings here (bench/summarize.py)."""

from __future__ import annotations

import importlib.util

import pytest

from egocli.models.fake import ScriptedModel
from egocli.reasoning import hcc
from egocli.core.timeutil import local
from egocli.store import Event, NewEvent
from egocli.store import summaries as sql

from .conftest import AT

HOUR = 3_600_000
DAY_START = AT - 18 * HOUR  # local midnight of the day before AT's evening
SCENERY = ["typing on the laptop at the desk", "water cooler by the lifts", "a dusty plant by the window"]


def _day(store, hours: range = range(8, 18), per_hour: int = 30, needles: dict[int, str] | None = None) -> None:
    """A busy working day: every hour full of the same office scenery; in some hours a happening, said at :17,
    noted at :41 and read on the screen at :50 (more than a summary's worth of words)."""
    events = []
    for h in hours:
        for i in range(per_hour):
            t = DAY_START + h * HOUR + i * HOUR // per_hour
            events.append(NewEvent(t, t + 4000, "visual", SCENERY[i % len(SCENERY)]))
    for h, text in (needles or {}).items():
        t = DAY_START + h * HOUR
        events += [NewEvent(t + 17 * 60_000, t + 17 * 60_000 + 5000, "speech", text),
                   NewEvent(t + 41 * 60_000, t + 41 * 60_000, "note", f"noted: {text}"),
                   NewEvent(t + 50 * 60_000, t + 50 * 60_000 + 3000, "text", f"on the screen: {text}")]
    store.add_events(events)


def _hour(store, h: int) -> sql.Summary:
    return next(s for s in sql.get_summaries(store, "hour") if s.start_ms == DAY_START + h * HOUR)


def test_an_hour_reads_each_text_once_its_happenings_first_then_what_filled_it():
    desk, cooler = "typing on the laptop at the desk", "water cooler by the lifts"
    things = ["paper", "ink", "chair", "desk lamp", "cable", "screen", "mouse", "stapler", "toner", "keyboard",
              "headset", "bin", "clock", "kettle"]
    events = [Event(i, AT + i * 60_000, AT + i * 60_000 + 1, "visual", None, desk if i % 5 else cooler)
              for i in range(25)]
    events += [Event(100 + i, AT + (i * 4 + 1) * 60_000, AT + (i * 4 + 1) * 60_000 + 1, "speech", None,
                     f"Priya said the {thing} order arrives on the {i + 1}th") for i, thing in enumerate(things)]
    events.append(Event(200, AT + 30 * 60_000, AT + 30 * 60_000 + 1, "visual", None, "hmm"))
    events.append(Event(201, AT + 31 * 60_000, AT + 31 * 60_000 + 1, "visual", None, "hmm"))
    lines, new = hcc.hour_lines(sorted(events, key=lambda e: e.start_ms), frozenset({desk, cooler}))
    assert len(lines) == hcc.HOUR_LINES and new == hcc.HOUR_LINES - 1
    assert lines[-1] == f"mostly: {desk} (x20); {cooler} (x5)"
    assert all(line.startswith("Priya said") for line in lines[:-1])  # 'hmm' (x2) says least
    said = [int(line.split("on the ")[1].rstrip("th")) for line in lines[:-1]]
    assert said == sorted(said)  # in time order


def test_an_hour_of_scenery_alone_is_kept_verbatim_without_the_model(store):
    _day(store, needles={10: "Helen said the budget review moves to Thursday at two"})
    model = ScriptedModel("Helen moved the budget review to Thursday at two.", "A day at the desk.")
    list(hcc.build(store, hcc.LlmSummarizer(model)))
    quiet, busy = _hour(store, 9), _hour(store, 10)
    assert quiet.model == hcc.VERBATIM and "typing on the laptop" in quiet.text
    assert busy.model == model.name and busy.text == "Helen moved the budget review to Thursday at two."
    assert len(model.prompts) == 1  # ten hours, one with something new
    assert sql.get_summaries(store, "day")[0].text == busy.text  # the other hours tell the day nothing
    assert hcc.plan(store) == []


def test_the_day_is_written_from_the_hour_summaries_and_a_week_of_one_day_repeats_it(store):
    _day(store, needles={h: f"Marcus asked for the report on project {h} by Friday" for h in range(8, 18)})
    replies = [f"Worked at the desk; Marcus asked for the project {h} report." for h in range(8, 18)]
    told = "A desk day of reports for Marcus: " + ", ".join(f"project {h} by 2026-12-04 {h}:30" for h in range(8, 18))
    model = ScriptedModel(*replies, told)
    list(hcc.build(store, hcc.LlmSummarizer(model)))
    day_prompt = model.prompts[-1][1]["content"]
    assert all(reply in day_prompt for reply in replies)
    assert "water cooler" not in day_prompt  # the raw events are not read again
    week, day = sql.get_summaries(store, "week")[0], sql.get_summaries(store, "day")[0]
    assert week.text == day.text == told and hcc.approx_tokens(told) > hcc.SHORT["week"]
    assert len(model.prompts) == 11  # ten hours and the day; the week cost no call


def test_hour_summaries_are_short_and_a_list_comes_back_as_one_line(store):
    _day(store, hours=range(8, 12), needles={9: "the plumber comes on Friday at eight to fix the boiler",
                                             10: "Dr Okafor's surgery rang: the scan is on the twelfth"})
    model = ScriptedModel("- Plumber booked for Friday\n- Boiler to be fixed",
                          "Summary: the surgery rang about the scan")
    summarizer = hcc.LlmSummarizer(model)
    list(hcc.build(store, summarizer))
    assert _hour(store, 9).text == "Plumber booked for Friday; Boiler to be fixed"
    assert _hour(store, 10).text == "the surgery rang about the scan"
    assert summarizer.hour_tokens < summarizer.max_tokens


def test_a_reply_cut_off_by_max_tokens_ends_at_its_last_clause(store):
    _day(store, hours=range(8, 12), needles={9: "the plumber comes on Friday at eight to fix the boiler"})
    words = " ".join(f"word{i}" for i in range(60))
    model = ScriptedModel("The plumber comes on Friday at eight to fix the boiler and check the radiators,"
                          f" then {words}")
    list(hcc.build(store, hcc.LlmSummarizer(model, hour_tokens=30)))
    assert _hour(store, 9).text == "The plumber comes on Friday at eight to fix the boiler and check the radiators."


def test_calls_share_the_system_turn_so_each_reads_only_its_own_lines(store):
    _day(store, hours=range(8, 12),
         needles={h: f"Anna booked the table for {h} people at Luigi's" for h in range(8, 12)})
    model = ScriptedModel("Booked a table at Luigi's.")
    list(hcc.build(store, hcc.LlmSummarizer(model)))
    assert model.primed and len(model.prompts) == 4  # the day of four one-line hours is those lines
    for chat, fresh in zip(model.prompts, model.fresh):
        whole, system = model.prompt_tokens([model.format_chat(chat)]), model.prompt_tokens([chat[0]["content"]])
        assert fresh <= len(whole) - len(system)  # the system text was not evaluated again


def test_a_late_event_rebuilds_its_hour_day_and_week_only(store):
    _day(store, needles={10: "Helen said the budget review moves to Thursday at two"})
    list(hcc.build(store, hcc.LlmSummarizer(ScriptedModel("Budget review moved to Thursday."))))
    t = DAY_START + 14 * HOUR + 5 * 60_000
    store.add_events([NewEvent(t, t + 1000, "note", "ring the garage about the MOT")])
    assert sorted(c.level for c in hcc.plan(store)) == ["day", "hour", "week"]
    list(hcc.build(store, hcc.LlmSummarizer(ScriptedModel("Rang the garage about the MOT."))))
    assert hcc.plan(store) == []
    assert "MOT" in _hour(store, 14).text


def _smollm2():
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python not installed")
    from egocli.core.config import load_settings
    from egocli.models import registry

    settings = load_settings(models={"summarizer": "smollm2"})
    present, note = registry.status(registry.resolve("summarizer", settings))
    if not present:
        pytest.skip(f"smollm2: {note}")
    return registry.load("summarizer", settings)


@pytest.mark.slow
def test_a_real_model_writes_short_hour_summaries_and_a_day_from_them(store):
    model = _smollm2()
    needles = {9: "Helen said the budget review moves to Thursday at two",
               10: "Marcus: travel claims need a receipt attached from now on",
               11: "buying a cheese and pickle sandwich at the bakery on Bridge Street",
               12: "Anna booked a table for six at Luigi's on the twelfth"}
    _day(store, hours=range(9, 13), per_hour=20, needles=needles)
    summarizer = hcc.LlmSummarizer(model)
    built = list(hcc.build(store, summarizer))
    assert {s.level for s in built} == {"hour", "day", "week"} and all(s.text.strip() for s in built)
    assert 4 <= summarizer.calls <= 5  # the four hours, and the day unless their summaries are already short
    for h in needles:
        assert _hour(store, h).model == model.name
        assert model.count_tokens(_hour(store, h).text) <= summarizer.hour_tokens + 2
    assert sql.get_summaries(store, "week")[0].text == sql.get_summaries(store, "day")[0].text
    assert list(model.kv_dir.glob("*.kv"))  # the fixed system turn was evaluated once and kept
    assert hcc.plan(store) == []
