"""Set-up helpers: doctor, config get/set/path, sources list/remove, shell completion, mcp --print-config."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests import console
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "afternoon.srt"


def test_doctor_one_line_per_check_and_exit_1_when_broken(cli, monkeypatch, tmp_path):
    monkeypatch.setenv("EGOCLI_LLM", str(tmp_path / "missing.gguf"))
    monkeypatch.setenv("EGOCLI_STOCKFISH", str(tmp_path / "no-stockfish"))
    res = cli("doctor")
    assert res.exit_code == 1
    lines = {line.split()[1] if not line.split()[1] == "model" else " ".join(line.split()[1:3]): line.split()[0]
             for line in res.stdout.splitlines()}
    assert lines["database"] == "warn"  # not created yet: not broken
    assert lines["stockfish"] == "fail" and lines["model llm"] == "fail" and lines["model narrator"] == "ok"
    assert {"espeak-ng", "disk", "model embedder", "model asr", "model tts"} <= set(lines)
    assert "Error: " in res.stderr and "stockfish" in res.stderr and "model llm" in res.stderr


def test_doctor_json_all_fakes(cli, monkeypatch):
    for role in ("LLM", "SUMMARIZER", "EMBEDDER", "ASR", "LABELER", "OCR", "TTS"):
        monkeypatch.setenv(f"EGOCLI_{role}", "fake")
    cli("import", EXAMPLE, "--start", "2026-11-28T13:00")
    res = cli("doctor", "--json")
    checks = {c["name"]: c for c in json.loads(res.stdout)}
    assert checks["database"]["status"] == "ok" and "(26 events)" in checks["database"]["detail"]
    assert all(checks[f"model {r}"]["status"] == "ok" for r in ("llm", "embedder", "asr", "tts"))
    assert res.exit_code == (1 if any(c["status"] == "fail" for c in checks.values()) else 0)


def test_config_set_get_path(cli, isolated_home):
    path = cli("config", "path").stdout.strip()
    assert path == str(isolated_home / "config.toml")
    isolated_home.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("# my settings\n[privacy]\nredact = true\n")
    assert cli("config", "set", "privacy.redact", "false").exit_code == 0
    assert cli("config", "set", "models.llm", "qwen0.5b").exit_code == 0
    assert cli("config", "get", "privacy.redact").stdout == "false\n"
    assert cli("config", "get", "models.llm").stdout == "qwen0.5b\n"
    text = Path(path).read_text()
    assert text.startswith("# my settings\n") and 'llm = "qwen0.5b"' in text
    assert cli("config", "get", "ask.budget").exit_code == 1
    bad = cli("config", "set", "models.painter", "x")
    assert bad.exit_code == 2 and "models.ROLE takes a role" in bad.stderr
    cli("config", "set", "models.llm", "fake")
    rows = {r["role"]: r for r in map(json.loads, cli("models", "list", "--jsonl").stdout.splitlines())}
    assert rows["llm"]["backend"] == "fake"  # the setting is read back by egocli itself


def test_sources_list_and_remove(cli):
    cli("import", EXAMPLE, "--start", "2026-11-28T13:00")
    rows = [json.loads(x) for x in cli("sources", "list", "--jsonl").stdout.splitlines()]
    assert [(r["name"], r["events"], r["kind"]) for r in rows] == [("afternoon.srt", 26, "import")]
    assert cli("sources", "remove", "afternoon.srt").exit_code == 2  # not confirmed
    res = cli("sources", "remove", "afternoon.srt", "--yes")
    assert res.exit_code == 0 and "26 event(s)" in res.stdout
    assert cli("sources", "list", "--json").stdout.strip() == "[]"
    assert cli("sources", "remove", "afternoon.srt", "--yes").exit_code == 1
    assert cli("import", EXAMPLE, "--start", "2026-11-28T13:00").stdout.startswith("imported")


def test_mcp_print_config(cli, db):
    doc = json.loads(cli("mcp", "--print-config", "--allow-writes", "--llm", "fake").stdout)
    server = doc["mcpServers"]["egocli"]
    assert server["args"] == ["--db", str(db.resolve()), "mcp", "--allow-writes", "--llm", "fake"]


def test_shell_completion_installs_and_completes(tmp_path):
    exe = console.egocli()
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOME": str(tmp_path), "SHELL": "/bin/bash",
           "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}  # Typer's hook: the shell named, not detected
    res = subprocess.run([exe, "--install-completion", "bash"], capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 0, res.stderr
    assert "egocli.sh" in (tmp_path / ".bashrc").read_text()
    env.update(COMP_WORDS="egocli log li", COMP_CWORD="2", _EGOCLI_COMPLETE="complete_bash")
    res = subprocess.run([exe], capture_output=True, text=True, env=env, timeout=60)
    assert res.stdout.split() == ["list"]
