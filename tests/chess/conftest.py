"""Shared fixtures for the chess tests: the labelled photos in ../shared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "chess"


@pytest.fixture(scope="session")
def photos() -> Path:
    """The labelled phone photos (skip when ../shared is not beside the repo)."""
    folder = DATA / "photos"
    if not (folder / "labels.json").is_file():
        pytest.skip(f"shared chess photos not found at {folder}")
    return folder


@pytest.fixture(scope="session")
def photo_labels(photos: Path) -> dict[str, str]:
    """File name -> FEN placement."""
    return {e["file"]: e["fen"].split()[0] for e in json.loads((photos / "labels.json").read_text())}


@pytest.fixture(autouse=True)
def _own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty egocli home (no calibrated classifier from the user's own runs), inherited by subprocesses."""
    monkeypatch.setenv("EGOCLI_HOME", str(tmp_path_factory.mktemp("home")))
