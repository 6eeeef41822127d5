"""Shared fixtures for the reasoning tests: constructed logs and the shared HD-EPIC folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from egocli.store import NewEvent, Store
from egocli.core.timeutil import parse_time_ms

HDEPIC = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "hd-epic"
AT = parse_time_ms("2026-11-26T18:00:00")
FILLER = ["typing on the laptop at the desk", "walking along the corridor", "drinking water from a glass",
          "reading emails on the phone", "looking out of the window at the garden"]


@pytest.fixture
def store() -> Store:
    """An empty in-memory log."""
    return Store.open(None)


def build_log(store: Store, days: int = 3, per_hour: int = 6) -> dict[str, int]:
    """Filler events every 10 minutes for `days` days before AT, plus three needles; returns their ids."""
    start = AT - days * 86_400_000
    events = []
    for i in range(days * 24 * per_hour):
        t = start + i * 3_600_000 // per_hour
        events.append(NewEvent(t, t + 30_000, "visual", FILLER[i % len(FILLER)]))
    store.add_events(events)
    src = store.add_source("import", "needles", status="done")
    needles = {
        "pills": NewEvent(AT - 26 * 3_600_000, AT - 26 * 3_600_000 + 5000, "visual",
                          "Taking the blue blood pressure pill with a glass of orange juice"),
        "doctor": NewEvent(AT - 50 * 3_600_000, AT - 50 * 3_600_000 + 60_000, "speech",
                           "Doctor Okafor said to come back in three weeks for the scan"),
        "keys": NewEvent(AT - 3 * 3_600_000, AT - 3 * 3_600_000 + 5000, "visual",
                         "Putting the car keys in the red drawer of the hallway cabinet"),
    }
    ids = store.add_events(needles.values(), source_id=src.id)
    return dict(zip(needles, ids))


def day_log(path: Path | None, rows: list[tuple[str, str, str]], name: str = "day") -> Store:
    """A log of (local ISO time, modality, text) rows, each 4 s long, in one imported source."""
    store = Store.open(path)
    add_rows(store, rows, name)
    return store


def add_rows(store: Store, rows: list[tuple[str, str, str]], name: str = "more") -> None:
    """Rows as day_log makes them, in a source of their own."""
    src = store.add_source("import", name)
    store.add_events([NewEvent(parse_time_ms(t), parse_time_ms(t) + 4000, m, c) for t, m, c in rows], src.id)


def said(store: Store, question: str, at_ms: int) -> str:
    """The answer's text to a question asked at a moment, without a model or summaries."""
    from egocli.reasoning import asker

    req = asker.AskRequest(question, at_ms=at_ms, hcc=False, llm=False)
    return asker.answer(None, asker.assemble(store, req, None), req).text
