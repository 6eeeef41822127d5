"""The eval harness on small question files, and the HD-EPIC importer on the shared annotations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from egocli.cli.app import app
from egocli.formats import hdepic
from egocli.usecases.importing import import_paths
from egocli.reasoning import asker
from egocli.usecases import evaluate
from egocli.store import NewEvent, Store

from .conftest import HDEPIC

needs_hdepic = pytest.mark.skipif(not HDEPIC.is_dir(), reason="shared HD-EPIC data not present")


def _write_questions(path: Path) -> Path:
    questions = {
        "q1": {"inputs": {"video 1": {"id": "kitchen-1"}},
               "question": "What was added between <TIME 00:01:00.000 video 1> and <TIME 00:01:05.000 video 1>?",
               "choices": ["salt", "pepper", "sugar", "flour", "milk"], "correct_idx": 0,
               "metadata": ["never read", "x", "x", "x", "x"]},
        "q2": {"inputs": {"video 1": {"id": "kitchen-1"}},
               "question": "When was the pepper added?",
               "choices": ["<TIME 00:02:00.000 video 1> to <TIME 00:02:04.000 video 1>",
                           "<TIME 00:01:00.000 video 1> to <TIME 00:01:05.000 video 1>"], "correct_idx": 0},
    }
    path.write_text(json.dumps(questions), encoding="utf-8")
    return path


def _kitchen(store: Store) -> None:
    src = store.add_source("import", "kitchen-1", start_ms=1_700_000_000_000, status="done")
    t0 = src.start_ms
    store.add_events([NewEvent(t0 + 60_000, t0 + 64_000, "ingredient", "added salt to the soup"),
                      NewEvent(t0 + 120_000, t0 + 123_000, "ingredient", "added pepper to the soup")],
                     source_id=src.id)


def test_questions_never_expose_metadata(tmp_path):
    items = evaluate.load_questions(_write_questions(tmp_path / "q.json"))
    assert [i.qid for i in items] == ["q1", "q2"]
    assert not any("never read" in repr(i) for i in items)


def test_eval_scores_and_context_recall(tmp_path, store):
    _kitchen(store)
    from egocli.models.fake import EchoModel

    results = list(evaluate.run(store, EchoModel(), [_write_questions(tmp_path / "q.json")],
                                asker.AskRequest("?", votes=2, hcc=False, symbolic=False)))
    # the echo model always answers "A": right on q1 and q2 (both gold answers are A)
    assert [r.correct for r in results] == [True, True]
    assert all(r.recall for r in results)
    row = evaluate.report(results).rows[-1]
    assert row["accuracy"] == 1.0 and row["context_recall"] == 1.0 and row["tokens_per_question"] > 0


def test_videos_missing_from_the_log_are_left_unbound(tmp_path, store):
    """HD-EPIC lists videos that have no annotations; the question is still answered from the others,
    unless a time tag names a missing one (then it is an error row, not a guess)."""
    _kitchen(store)
    from egocli.models.fake import EchoModel

    base = {"inputs": {"video 1": {"id": "kitchen-1"}, "video 2": {"id": "kitchen-2"}},
            "question": "Which was added to the soup?", "choices": ["salt", "honey"], "correct_idx": 0}
    questions = {"ok": base, "tagged": {**base, "question": "What was added at <TIME 00:00:10.000 video 2>?"},
                 "none": {**base, "inputs": {"video 1": {"id": "kitchen-9"}}}}
    path = tmp_path / "q.json"
    path.write_text(json.dumps(questions), encoding="utf-8")
    ok, tagged, none = evaluate.run(store, EchoModel(), [path], asker.AskRequest("?", votes=1, hcc=False))
    assert ok.error is None and ok.correct and ok.recall
    assert tagged.error and "video 2" in tagged.error and not tagged.correct
    assert none.error and "kitchen-9" in none.error


def _eval_cli(tmp_path, monkeypatch, *flags: str):
    """Run `egocli eval` with fake models on the kitchen log and the two-question file."""
    monkeypatch.setenv("EGOCLI_LLM", "fake")
    monkeypatch.setenv("EGOCLI_EMBEDDER", "fake")
    db = tmp_path / "log.db"
    store = Store.open(db)
    _kitchen(store)
    store.close()
    qfile = _write_questions(tmp_path / "q.json")
    return CliRunner().invoke(app, ["--db", str(db), "eval", str(qfile), "--votes", "1", *flags])


def test_eval_cli_json(tmp_path, monkeypatch):
    res = _eval_cli(tmp_path, monkeypatch, "--limit", "1", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["overall"]["questions"] == 1 and doc["files"][0]["file"] == "q"


def test_eval_cli_rejects_missing_file(tmp_path):
    res = CliRunner().invoke(app, ["--db", str(tmp_path / "x.db"), "eval", str(tmp_path / "none.json")])
    assert res.exit_code == 1 and "no such file" in res.stderr


def test_video_start_from_id():
    assert hdepic.video_start_ms("P01-20240202-110250") == 1706871770000
    with pytest.raises(ValueError):
        hdepic.video_start_ms("P01-2024")


@needs_hdepic
def test_hdepic_import_one_source_per_video(store):
    results = list(import_paths(store, [HDEPIC], "hd-epic"))
    assert all(r.status == "imported" for r in results) and len(results) >= 140
    src = store.find_source(name="P01-20240202-110250")
    assert src.kind == "hd-epic" and src.start_ms == hdepic.video_start_ms(src.name)
    texts = [e.content for e in store.events() if e.source_id == src.id]
    assert any(t.startswith("Prepare Coffee") for t in texts) and "added milk to Nespresso" in texts
    again = list(import_paths(store, [HDEPIC], "hd-epic"))
    assert all(r.status == "skipped" for r in again)


@needs_hdepic
def test_hdepic_eval_plumbing_and_recall(store):
    from egocli.models.fake import EchoModel

    list(import_paths(store, [HDEPIC], "hd-epic"))
    files = [HDEPIC / "questions" / "ingredient_ingredient_retrieval.json",
             HDEPIC / "questions" / "recipe_rough_step_localization.json"]
    results = list(evaluate.run(store, EchoModel(), files, asker.AskRequest("?", votes=1), limit=3))
    assert len(results) == 6 and not [r.error for r in results if r.error]
    assert sum(r.recall for r in results) >= 5  # the gold spans land in the assembled context


def test_eval_cli_recent_baseline_and_bad_name(tmp_path, monkeypatch):
    res = _eval_cli(tmp_path, monkeypatch, "--baseline", "recent", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)  # both events of the bound video fit: the gold spans are in the context
    assert doc["overall"]["questions"] == 2 and doc["overall"]["context_recall"] == 1.0
    bad = CliRunner().invoke(app, ["--db", str(tmp_path / "log.db"), "eval", str(tmp_path / "q.json"),
                                   "--baseline", "oldest"])
    assert bad.exit_code == 2 and "unknown 'oldest'" in bad.stderr


def test_interleave_is_round_robin(tmp_path):
    first = _write_questions(tmp_path / "a.json")
    second = tmp_path / "b.json"
    second.write_text(json.dumps({"z": json.loads(first.read_text())["q1"]}), encoding="utf-8")
    assert [(q.file, q.qid) for q in evaluate.interleave([first, second])] == [("a", "q1"), ("b", "z"), ("a", "q2")]
