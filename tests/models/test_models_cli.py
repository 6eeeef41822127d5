"""`egocli models list|check` through the real CLI (typer's CliRunner)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ALL_FAKE = ("LLM", "SUMMARIZER", "EMBEDDER", "ASR", "LABELER", "OCR", "TTS", "NARRATOR")


def test_models_list_json_has_every_role(cli) -> None:
    result = cli("models", "list", "--json", use_db=False)
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [r["role"] for r in rows] == ["llm", "summarizer", "embedder", "asr", "labeler", "ocr", "tts", "narrator"]
    assert {"backend", "model", "file", "size", "licence", "present"} <= set(rows[0])


def test_models_check_with_fakes_passes(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    for role in ALL_FAKE:
        monkeypatch.setenv(f"EGOCLI_{role}", "fake")
    result = cli("models", "check", "--json", use_db=False)
    assert result.exit_code == 0, result.stderr
    assert {r["status"] for r in json.loads(result.stdout)} == {"ok"}


def test_missing_model_file_is_one_line_error_exit_1(cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    missing = tmp_path / "gone.gguf"
    monkeypatch.setenv("EGOCLI_LLM", str(missing))
    result = cli("models", "check", "llm", use_db=False)
    assert result.exit_code == 1
    error = result.stderr[result.stderr.index("Error:"):].replace("\n", "")
    assert error == f"Error: model check failed for llm (llm: model file not found: {missing})"


@pytest.mark.slow
def test_corrupt_model_file_names_role_and_path(cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.gguf"
    corrupt.write_bytes(b"GGUF" + bytes(range(256)) * 64)
    monkeypatch.setenv("EGOCLI_LLM", str(corrupt))
    result = cli("models", "check", "llm", "--json", use_db=False)
    assert result.exit_code == 1
    (row,) = json.loads(result.stdout)
    assert row["status"] == "failed" and row["error"].startswith(f"llm: cannot load model {corrupt}")
    assert "\n" not in row["error"]


def test_unknown_role_is_a_usage_error(cli) -> None:
    result = cli("models", "check", "painter", use_db=False)
    assert result.exit_code == 2 and "unknown role(s): painter" in result.stderr
