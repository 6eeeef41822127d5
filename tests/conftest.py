"""Shared fixtures: an isolated EGOCLI_HOME, a CLI runner, paths to ../shared/data."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own EGOCLI_HOME; model overrides from the environment are cleared."""
    home = tmp_path / "home"
    monkeypatch.setenv("EGOCLI_HOME", str(home))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    for var in ("EGOCLI_DB", "EGOCLI_LLM", "EGOCLI_SUMMARIZER", "EGOCLI_EMBEDDER", "EGOCLI_ASR",
                "EGOCLI_LABELER", "EGOCLI_OCR", "EGOCLI_TTS", "EGOCLI_NARRATOR"):
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A path for a fresh event log."""
    return tmp_path / "log.db"


@pytest.fixture
def cli(db: Path) -> Callable[..., object]:
    """Run `egocli --db <db> ARGS...`; returns the click Result (stdout and stderr apart)."""
    from egocli.cli.app import app

    runner = CliRunner()

    def run(*args: str, input: str | None = None, use_db: bool = True) -> object:
        argv = (["--db", str(db)] if use_db else []) + [str(a) for a in args]
        return runner.invoke(app, argv, input=input, catch_exceptions=False)

    return run


@pytest.fixture
def shared_data() -> Path:
    """../shared/data beside the repo (skips when the checkout has no shared folder)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared test data not found at {SHARED_DATA}")
    return SHARED_DATA
