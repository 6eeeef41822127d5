"""Reports say what happened: an import of a file already in the log says so (not "1 ok"), summarize names
the summarizer it used (none when it built nothing), and a reminder keeps the user's words and says when."""

from __future__ import annotations

import json

import pytest

from egocli.models.fake import ScriptedModel
from egocli.store import Store
from egocli.tools import reminders
from egocli.tools.orchestrator import Orchestrator
from egocli.tools.registry import ToolContext
from tests.doorstep import EXAMPLE, egocli, imported, needs_terminal
from tests.tools.conftest import NOW, calls


@pytest.fixture
def ctx() -> ToolContext:
    """The CLI's tool context on an in-memory log, the clock fixed at NOW."""
    return ToolContext(Store.open(None), None, "cli", fixed_now_ms=NOW)


def test_importing_a_file_again_says_it_is_already_in_the_log(db):
    first = egocli("--db", db, "import", EXAMPLE, "--start", "2026-11-28T13:00", EGOCLI_EMBEDDER="fake")
    assert first.code == 0 and first.err.splitlines()[-1] == "1 imported", first.err
    again = egocli("--db", db, "import", EXAMPLE, "--start", "2026-11-28T13:00", EGOCLI_EMBEDDER="fake")
    assert again.code == 0, again.err
    assert again.err.splitlines()[-1] == "0 imported, 1 already in the log", again.err
    assert "ok" not in again.err.split()


@needs_terminal
def test_the_import_report_on_a_terminal(db):
    imported(db)
    shown = egocli("--db", db, "import", EXAMPLE, "--start", "2026-11-28T13:00", tty=True, EGOCLI_EMBEDDER="fake")
    assert "0 imported, 1 already in the log" in shown.plain and "1 ok" not in shown.plain


def test_summarize_reports_the_summarizer_it_used_and_none_when_it_built_nothing(db):
    imported(db)
    env = {"EGOCLI_SUMMARIZER": "fake", "EGOCLI_EMBEDDER": "fake"}
    built = json.loads(egocli("--db", db, "summarize", "--json", **env).out)
    assert built["summaries_built"] > 0 and built["summarizer"] not in (None, "extractive"), built
    nothing = egocli("--db", db, "summarize", "--json", **env)
    assert json.loads(nothing.out) == {"summaries_built": 0, "events_embedded": 0, "summarizer": None}
    text = egocli("--db", db, "summarize", **env)
    assert text.out == "0 summaries built, 0 events embedded\n", text.out
    extractive = egocli("--db", imported(db.with_name("other.db")), "summarize", "--extractive", "--json", **env)
    assert json.loads(extractive.out)["summarizer"] == "extractive"


def _reminder(ctx, request: str, planned: dict) -> tuple[str, reminders.Reminder]:
    out = Orchestrator(ScriptedModel(calls(("reminder_add", planned))), ctx, confirm=lambda q: True).run(request)
    assert out.status == "done", out
    [r] = [r for r in reminders.reminders(ctx.store) if r.id == out.steps[0].data["id"]]
    return out.reply, r


def test_a_reminder_keeps_the_users_casing_and_says_when(ctx):
    # NOW is Mon 30 Nov 2026 14:05; the model wrote the text in lower case, as its few-shot example does
    reply, r = _reminder(ctx, "remind me to call Mum at 6pm", {"text": "call mum", "due": "18:00", "place": ""})
    assert r.text == "call Mum"
    assert reply == "Reminder set for today at 18:00: call Mum."
    reply, r = _reminder(ctx, "Remind me to ring Dr Patel at 9am", {"text": "ring dr patel", "due": "09:00"})
    assert r.text == "ring Dr Patel" and reply == "Reminder set for tomorrow at 09:00: ring Dr Patel."
    reply, r = _reminder(ctx, "remind me to water the plants on Friday at noon",
                         {"text": "Water the plants", "due": "2026-12-04T12:00", "place": "the balcony"})
    assert r.text == "water the plants"  # the user's words where the model's are the same words
    assert reply == "Reminder set for Fri 04 Dec at 12:00: water the plants in the balcony."
    _, r = _reminder(ctx, "remind me about the thing for Ana at 5pm", {"text": "buy Ana a gift", "due": "17:00"})
    assert r.text == "buy Ana a gift"  # words the user never said stay the model's


@pytest.mark.slow
def test_do_sets_the_reminder_in_the_users_words_with_the_real_model(db):
    import importlib.util
    import re

    from egocli.core.config import load_settings
    from egocli.models import registry

    present, note = registry.status(registry.resolve("llm", load_settings()))
    if importlib.util.find_spec("llama_cpp") is None or not present:
        pytest.skip(f"the default LLM is not here: {note}")
    res = egocli("--db", db, "do", "--yes", "remind me to call Mum at 6pm")
    assert res.code == 0, res.err
    assert re.fullmatch(r"Reminder set for (today|tomorrow) at 18:00: call Mum\.\n", res.out), res.out
    [item] = json.loads(egocli("--db", db, "reminders", "list", "--json").out)
    assert item["text"] == "call Mum" and item["due"].endswith("18:00:00")
