"""`ask` end to end with the fake model (plumbing), citations, bad input and the CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from egocli.cli.app import app
from egocli.core.errors import InputError, UsageError
from egocli.models.fake import EchoModel, ScriptedModel
from egocli.reasoning import asker
from egocli.store import NewEvent, Store
from egocli.core.timeutil import format_local

from .conftest import AT, build_log


def test_citations_point_at_real_events(store):
    ids = build_log(store)
    req = asker.AskRequest("Where did I put the car keys?", ("red drawer", "blue bowl"), at_ms=AT, votes=3,
                           symbolic=False)  # the model's votes (tests/reasoning/test_symbolic.py: the scorer's)
    result = asker.ask(store, ScriptedModel("A", "B", "A"), req)  # shown letters: the 2nd vote sees B first
    assert result.letter == "A" and result.confidence == 1.0 and len(result.votes) == 3
    assert result.citations and result.citations[0].event_id == ids["keys"]
    for c in result.citations:
        ev = store.get_event(c.event_id)
        assert c.time == format_local(ev.start_ms) and c.content == ev.content


def test_nothing_relevant_instead_of_a_guess(store):
    build_log(store)
    result = asker.ask(store, EchoModel(), asker.AskRequest("What did the saxophone teacher play?", at_ms=AT))
    assert result.text == asker.NOTHING and result.letter is None and result.prompt_tokens == 0


def test_open_question_streams_tokens(store):
    build_log(store)
    pieces = []
    result = asker.ask(store, EchoModel(), asker.AskRequest("where are the car keys?", at_ms=AT), on_token=pieces.append)
    assert pieces and "".join(pieces).strip() == result.text
    assert "red drawer" in result.text  # the echo model repeats the prompt, which holds the needle


def test_a_misquoted_line_gives_way_to_the_best_retrieved_event(store):
    ids = build_log(store)
    req = asker.AskRequest("where are the car keys?", at_ms=AT, symbolic=False)  # the model's own answer path
    store.add_events([NewEvent(AT - 3 * 3_600_000 + 60_000, AT - 3 * 3_600_000 + 65_000, "visual",
                               "Watering the tomato plants on the balcony")],
                     source_id=store.find_source(name="needles").id)
    assert "tomato" in asker.assemble(store, req).text
    unrelated = "Line: [Thu 26 Nov 15:01] visual: Watering the tomato plants on the balcony\nAnswer: On the balcony."
    pieces = []
    result = asker.ask(store, ScriptedModel(unrelated), req, on_token=pieces.append)
    assert result.citations[0].event_id == ids["keys"]
    # a line of the log standing in for the model's answer is said as such, not as a computed fact
    assert result.text.startswith("The closest I can find: Putting the car keys in the red drawer")
    assert "".join(pieces) == result.text


def test_a_quoted_line_on_topic_is_kept(store):
    ids = build_log(store)
    reply = ("Line: [Wed 25 Nov 16:00] visual: Taking the blue blood pressure pill with a glass of orange juice\n"
             "Answer: You took it yesterday at 16:00.")
    result = asker.ask(store, ScriptedModel(reply), asker.AskRequest("when did I take my pill?", at_ms=AT))
    assert result.text == "You took it yesterday at 16:00." and result.citations[0].event_id == ids["pills"]


def test_a_refusal_stays_a_refusal(store):
    build_log(store)
    result = asker.ask(store, ScriptedModel("nothing relevant in the log."),
                       asker.AskRequest("where are the car keys?", at_ms=AT, symbolic=False))
    assert result.text == asker.NOTHING and result.citations == []


@pytest.mark.parametrize("req, error", [
    (asker.AskRequest("   "), UsageError),
    (asker.AskRequest("x", tuple("ABCDEF")), UsageError),
])
def test_bad_requests(store, req, error):
    build_log(store, days=1)
    with pytest.raises(error):
        asker.assemble(store, req)


def test_empty_log_is_an_input_error(store):
    with pytest.raises(InputError, match="empty"):
        asker.assemble(store, asker.AskRequest("anything?"))


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.setenv("EGOCLI_LLM", "fake")
    monkeypatch.setenv("EGOCLI_EMBEDDER", "fake")
    monkeypatch.setenv("EGOCLI_HOME", str(tmp_path))
    path = tmp_path / "log.db"
    st = Store.open(path)
    ids = build_log(st, days=1)
    st.close()
    return str(path), ids


def test_cli_json_with_question_on_stdin(db):
    path, ids = db
    res = CliRunner().invoke(app, ["--db", path, "ask", "--at", "2026-11-26T18:00", "-c", "red drawer",
                                   "-c", "under the mat", "--votes", "2", "--json"],
                             input="where did I leave the car keys?\n")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["letter"] == "A" and doc["citations"][0]["event_id"] == ids["keys"]
    assert ids["keys"] in doc["context_event_ids"]


def test_cli_explain_prints_context_and_votes(db):
    path, _ = db
    res = CliRunner().invoke(app, ["--db", path, "ask", "car keys?", "--at", "2026-11-26T18:00", "-c", "red drawer",
                                   "-c", "sofa", "--explain", "--votes", "3", "--no-symbolic"])
    assert res.exit_code == 0, res.output
    # the fake model says the first letter shown; the second vote sees the options the other way round
    assert "Events:" in res.stdout and "A. red drawer" in res.stdout
    assert res.stdout.count("vote A") == 2 and res.stdout.count("vote B") == 1


@pytest.mark.parametrize("args, code, message", [
    (["ask", ""], 2, "empty question"),
    (["ask", "what at <TIME 00:00:01.000 video 3>?"], 2, "'video 3'"),
    (["ask", "x", "--since", "2026-11-26T10:00", "--until", "2026-11-26T09:00"], 2, "--since must be before"),
    (["ask", "x", "--video", "one"], 2, "N=SOURCE"),
    (["ask", "x", "--video", "1=nope"], 1, "no source named 'nope'"),
])
def test_cli_bad_input(db, args, code, message):
    path, _ = db
    res = CliRunner().invoke(app, ["--db", path, *args])
    assert res.exit_code == code
    assert message in res.stderr and res.stderr.startswith("Error:")


def test_cli_missing_model_file_is_one_line(db, monkeypatch):
    path, _ = db
    monkeypatch.setenv("EGOCLI_LLM", "/nonexistent/model.gguf")
    res = CliRunner().invoke(app, ["--db", path, "ask", "car keys?", "--at", "2026-11-26T18:00"])
    assert res.exit_code == 1 and "model file not found" in res.stderr


def test_cli_empty_log(tmp_path, monkeypatch):
    monkeypatch.setenv("EGOCLI_LLM", "fake")
    path = tmp_path / "empty.db"
    Store.open(path).close()
    res = CliRunner().invoke(app, ["--db", str(path), "ask", "anything?"])
    assert res.exit_code == 1 and "event log is empty" in res.stderr


def test_cli_summarize_then_ask_uses_summaries(db):
    path, _ = db
    res = CliRunner().invoke(app, ["--db", path, "summarize", "--extractive", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["summaries_built"] > 24
    again = CliRunner().invoke(app, ["--db", path, "summarize", "--extractive", "--json"])
    assert json.loads(again.stdout)["summaries_built"] == 0
    store = Store.open(path)
    store.add_events([NewEvent(AT - 60_000, AT - 50_000, "note", "bought stamps")])
    store.close()
    third = CliRunner().invoke(app, ["--db", path, "summarize", "--extractive", "--json"])
    assert json.loads(third.stdout)["summaries_built"] == 3


def test_open_answer_rests_on_the_copied_line_and_streams_only_the_answer(store):
    ids = build_log(store)
    model = ScriptedModel("Line: [16:00] visual: Taking the blue blood pressure pill with a glass of orange juice\n"
                          "Answer: With orange juice, yesterday at 16:00.")
    pieces = []
    result = asker.ask(store, model, asker.AskRequest("What did I take the pill with?", at_ms=AT),
                       on_token=pieces.append)
    assert result.text == "With orange juice, yesterday at 16:00." == "".join(pieces)
    assert result.citations[0].event_id == ids["pills"]


def test_open_answer_on_a_line_not_in_the_context_is_nothing(store):
    build_log(store)
    model = ScriptedModel("Line: [16:01] speech: The scan cost 1200 dollars\nAnswer: The scan cost $1,200.")
    pieces = []
    result = asker.ask(store, model, asker.AskRequest("What did the doctor say the scan cost?", at_ms=AT),
                        on_token=pieces.append)
    assert result.text == asker.NOTHING and not result.citations and pieces == []


def test_recent_baseline_takes_the_newest_events_before_the_question(store):
    build_log(store)
    late = store.add_events([NewEvent(AT + 60_000, AT + 65_000, "note", "after the question")])
    req = asker.AskRequest("Where did I put the car keys?", at_ms=AT, budget=300, baseline="recent")
    ctx = asker.assemble(store, req)
    shown = [e.start_ms for e in ctx.storyline.events]
    assert ctx.relevant and not ctx.summaries and late[0] not in {e.id for e in ctx.storyline.events}
    assert max(shown) == AT - 600_000 and len(shown) >= 8  # the filler every 10 minutes, newest first
    assert ctx.storyline.tokens <= 300
    with pytest.raises(UsageError, match="unknown baseline"):
        asker.assemble(store, asker.AskRequest("x?", at_ms=AT, baseline="oldest"))


def test_cli_recent_baseline_skips_retrieval(db):
    path, ids = db
    res = CliRunner().invoke(app, ["--db", path, "ask", "car keys?", "--at", "2026-11-26T18:00", "--baseline", "recent",
                                   "--budget", "400", "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert "Summaries:" not in doc["context"] and ids["keys"] in doc["context_event_ids"]  # 3 h ago: recent enough
    bad = CliRunner().invoke(app, ["--db", path, "ask", "x?", "--baseline", "oldest"])
    assert bad.exit_code == 2 and "unknown baseline 'oldest'" in bad.stderr


def test_a_time_the_cited_event_does_not_have_gives_way_to_the_event(store):
    """An open answer said 'I put my house keys ... at 10:00 AM' citing an event of 13:02: the time an answer
    gives must be a cited event's time, checked in code."""
    ids = build_log(store)
    wrong = ("Line: [Thu 26 Nov 15:00] visual: Putting the car keys in the red drawer of the hallway cabinet\n"
             "Answer: You put them in the red drawer at 10:00 AM.")
    req = asker.AskRequest("where are the car keys?", at_ms=AT, symbolic=False)
    result = asker.ask(store, ScriptedModel(wrong), req)
    assert result.citations[0].event_id == ids["keys"]
    assert result.text.startswith("The closest I can find: Putting the car keys in the red drawer")
    assert "15:00" in result.text and "10:00" not in result.text
    right = wrong.replace("10:00 AM", "15:00 on Thursday")
    said = asker.ask(store, ScriptedModel(right), req).text  # the model's reading, said as one
    assert said == "It seems you put them in the red drawer at 15:00 on Thursday."
    assert asker.times_agree("You took it at 3.00 pm.", asker.ask(store, ScriptedModel(right), req).citations)


def test_a_question_asked_at_a_past_moment_reads_nothing_after_it(tmp_path):
    """`--at` is the moment of asking: the log after it does not exist yet for the answer or its sources."""
    from egocli.core.timeutil import parse_time_ms

    from .conftest import day_log, said

    store = day_log(tmp_path / "log.db", [
        ("2026-12-04T09:00", "text", "a sticker on the back of the router box in the hall: wifi password BLUE42"),
        ("2026-12-04T15:00", "text", "wifi password: RED77"),
    ])
    early = said(store, "what's the wifi password", parse_time_ms("2026-12-04T12:00"))
    assert "BLUE42" in early and "RED77" not in early
    assert "RED77" in said(store, "what's the wifi password", parse_time_ms("2026-12-04T18:00"))


def test_a_log_whose_clock_runs_ahead_is_read_whole_when_no_moment_is_given(tmp_path):
    """An import anchored at a fresh checkout's file time lies hours 'in the future': with no --at, what is
    recorded has happened, so the question is asked from the newest event, not from the wall clock."""
    from egocli.core.timeutil import now_ms

    from .conftest import day_log

    ahead = now_ms() + 3 * 3_600_000
    store = day_log(tmp_path / "log.db", [
        (format_local(ahead).replace(" ", "T"), "speech", "Tom: did you see the message from your daughter?"),
    ])
    req = asker.AskRequest("What did Tom ask me?", hcc=False, llm=False)
    assert "daughter" in asker.answer(None, asker.assemble(store, req, None), req).text
