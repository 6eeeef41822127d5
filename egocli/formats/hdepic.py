"""HD-EPIC high-level annotations (activity CSVs + complete_recipes.json) as one source per video.

Video ids like `P01-20240202-110250` give each recording's wall-clock start (taken as UTC).
Only the log files are read; question files (and their answer-leaking `metadata`) are never touched.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

from egocli.core.errors import InputError
from egocli.formats import ImportedSource
from egocli.store.records import NewEvent

VIDEO_ID = re.compile(r"^(P\d{2})-(\d{8})-(\d{6})$")
FORMAT_VERSION = "hd-epic-2"


def video_start_ms(video_id: str) -> int:
    """Wall-clock start of a video from its id (P01-20240202-110250 -> 2024-02-02T11:02:50Z)."""
    m = VIDEO_ID.match(video_id)
    if not m:
        raise InputError(f"not an HD-EPIC video id: {video_id!r}")
    dt = datetime.strptime(m.group(2) + m.group(3), "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)
    return int(dt.timestamp() * 1000)


def _sec(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _activity_rows(folder: Path) -> dict[str, list[tuple[float, float | None, str]]]:
    rows: dict[str, list[tuple[float, float | None, str]]] = defaultdict(list)
    files = sorted(folder.glob("activities/*_recipe_timestamps.csv")) or sorted(folder.glob("*_recipe_timestamps.csv"))
    for path in files:
        with path.open(encoding="utf-8", newline="") as fh:
            for line, row in enumerate(csv.DictReader(fh), start=2):
                start = _sec(row.get("start_time"))
                if start is None or not row.get("video_id"):
                    raise InputError(f"{path}:{line}: missing video_id or start_time")
                label = row.get("high_level_activity_label", "").strip()
                recipe = row.get("recipe_id", "").strip()
                rows[row["video_id"]].append((start, _sec(row.get("end_time")), f"{label}|{recipe}"))
    return rows


def _recipe_events(folder: Path) -> dict[str, list[tuple[float, float, str, str]]]:
    path = folder / "complete_recipes.json"
    if not path.exists():
        return {}
    try:
        recipes = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as ex:
        raise InputError(f"{path}: not JSON: {ex}") from ex
    out: dict[str, list[tuple[float, float, str, str]]] = defaultdict(list)
    for recipe in recipes.values():
        name = recipe.get("name", "?")
        steps = recipe.get("steps", {})
        for capture in recipe.get("captures", []):
            for step_id, spans in capture.get("step_times", {}).items():
                for s in spans:
                    out[s["video"]].append((s["start"], s["end"], "step", f"{name} step: {steps.get(step_id, step_id)}"))
            for step_id, spans in capture.get("prep_times", {}).items():
                for s in spans:
                    out[s["video"]].append((s["start"], s["end"], "prep",
                                            f"{name} prep for step: {steps.get(step_id, step_id)}"))
            for ing in capture.get("ingredients", {}).values():
                amount = " ".join(str(ing.get(k)) for k in ("amount", "amount_unit") if ing.get(k) not in (None, "N/A"))
                what = f"{amount} {ing.get('name', '?')}".strip()
                for s in ing.get("add", []):
                    out[s["video"]].append((s["start"], s["end"], "ingredient", f"added {what} to {name}"))
                for s in ing.get("weigh", []):
                    out[s["video"]].append((s["start"], s["end"], "ingredient", f"weighed {what} for {name}"))
    return out


def _recipe_names(folder: Path) -> dict[str, str]:
    path = folder / "complete_recipes.json"
    if not path.exists():
        return {}
    return {key: r.get("name", key) for key, r in json.loads(path.read_text(encoding="utf-8")).items()}


def read_dir(path: Path) -> list[ImportedSource]:
    """One ImportedSource per video id found in the activity CSVs and complete_recipes.json."""
    activities = _activity_rows(path)
    recipe_events = _recipe_events(path)
    names = _recipe_names(path)
    if not activities and not recipe_events:
        raise InputError(f"{path}: no *_recipe_timestamps.csv or complete_recipes.json (not an HD-EPIC folder)")
    sources = []
    for video in sorted(set(activities) | set(recipe_events)):
        if not VIDEO_ID.match(video):
            continue
        sources.append(_source(video, activities.get(video, []), recipe_events.get(video, []), names))
    return sources


def _source(video: str, acts: list[tuple[float, float | None, str]], recs: list[tuple[float, float, str, str]],
            names: dict[str, str]) -> ImportedSource:
    start = video_start_ms(video)
    known = [t for a in acts for t in a[:2] if t is not None] + [t for r in recs for t in r[:2]]
    last = max(known, default=0.0)
    events = []
    for t0, t1, packed in acts:
        label, recipe = packed.split("|", 1)
        recipe_name = names.get(f"{video[:3]}_{recipe}") if recipe else None
        text = label + (f" (recipe {recipe_name})" if recipe_name else "")
        events.append(NewEvent(start + int(t0 * 1000), start + int((t1 if t1 is not None else last) * 1000),
                               "activity", text))
    for t0, t1, kind, text in recs:
        events.append(NewEvent(start + int(t0 * 1000), start + int(t1 * 1000), kind, text))
    events.sort(key=lambda e: (e.start_ms, e.end_ms, e.content))
    digest = hashlib.sha256(FORMAT_VERSION.encode())
    for e in events:
        digest.update(f"{e.start_ms}|{e.end_ms}|{e.modality}|{e.content}\n".encode())
    return ImportedSource(name=video, kind="hd-epic", start_ms=start, duration_ms=int(last * 1000),
                          fingerprint=digest.hexdigest(), events=events,
                          meta={"participant": video[:3], "format": FORMAT_VERSION})
