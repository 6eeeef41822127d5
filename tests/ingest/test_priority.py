"""The video threads yield to speech recognition when both run, and only then (issue 19)."""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

import numpy as np
import pytest

from egocli.core.config import load_settings
from egocli.ingest.pipeline import IngestOptions, Ingestor, RegistryModels
from egocli.ingest.workers import VIDEO_NICE
from egocli.store import Store
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "glasses.mp4"
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice is Linux's")]


class _NotingLabeler:
    """The real labeler; each call notes the nice level of the thread it runs in."""

    def __init__(self, inner: Any, levels: set[int]) -> None:
        self.inner, self.levels, self.name = inner, levels, inner.name

    def labels(self, image: np.ndarray, top_k: int = 5) -> list[tuple[str, float]]:
        self.levels.add(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return self.inner.labels(image, top_k)


class _Watched:
    """The registry's real models, the labeler watched."""

    def __init__(self, levels: set[int]) -> None:
        self.inner, self.levels = RegistryModels(load_settings()), levels

    def load(self, role: str) -> Any:
        model = self.inner.load(role)
        return _NotingLabeler(model, self.levels) if role == "labeler" else model

    def configured(self, role: str) -> bool:
        return self.inner.configured(role)


def test_video_threads_run_below_speech_only_while_speech_is_transcribed(tmp_path):
    main = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen: dict[bool, set[int]] = {}
    for audio in (True, False):
        seen[audio] = set()
        store = Store.open(tmp_path / f"log-{audio}.db")
        results = list(Ingestor(store, _Watched(seen[audio]), tmp_path, IngestOptions(audio=audio)).run([EXAMPLE]))
        assert results[-1].status == "ingested" and results[-1].events.get("text")  # the signs: one text event each
    assert seen[True] == {min(19, main + VIDEO_NICE)} and min(seen[True]) > main
    assert seen[False] == {main}
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == main  # the caller's thread untouched
