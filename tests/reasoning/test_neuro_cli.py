"""`egocli ask` with the symbolic part: --explain shows per-option scores and who decided, --json carries
them, --no-symbolic and --no-llm give the ablations (through the installed console script)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from typer.testing import CliRunner

from egocli.cli.app import app
from egocli.store import Store
from tests import console

from .conftest import build_log


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


ASK = ["ask", "where did I leave the car keys?", "--at", "2026-11-26T18:00", "-c", "in the red drawer of the cabinet",
       "-c", "under the doormat", "--votes", "2"]


def test_explain_shows_scores_and_who_decided(db):
    path, _ = db
    res = CliRunner().invoke(app, ["--db", path, *ASK, "--explain"])
    assert res.exit_code == 0, res.output
    assert "Evidence per option:" in res.stdout and "scores A " in res.stdout
    assert "decided by: symbolic" in res.stdout and "A. in the red drawer" in res.stdout


def test_json_carries_scores_and_no_symbolic_drops_them(db):
    path, ids = db
    doc = json.loads(CliRunner().invoke(app, ["--db", path, *ASK, "--json"]).stdout)
    assert doc["letter"] == "A" and doc["decided_by"] == "symbolic"
    assert len(doc["scores"]) == 2 and doc["scores"][0] > doc["scores"][1]
    assert doc["citations"][0]["event_id"] == ids["keys"]
    doc = json.loads(CliRunner().invoke(app, ["--db", path, *ASK, "--json", "--no-symbolic"]).stdout)
    assert doc["scores"] == [] and doc["decided_by"] == "model" and len(doc["votes"]) == 2


def test_no_llm_through_the_console_script(db, tmp_path):
    exe = console.egocli()
    path, ids = db
    env = {**os.environ, "EGOCLI_LLM": "fake", "EGOCLI_EMBEDDER": "fake", "EGOCLI_HOME": str(tmp_path)}
    out = subprocess.run([exe, "--db", path, "ask", "how many times did I take my blood pressure pill?",
                          "--at", "2026-11-26T18:00", "--no-llm", "--json"], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["answer"].startswith("1 time") and doc["decided_by"] == "symbolic"
    assert doc["citations"][0]["event_id"] == ids["pills"] and doc["prompt_tokens"] == 0
