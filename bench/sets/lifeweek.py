"""The constructed life-log week (not a kitchen): script + seeded background -> events, and its questions.

    python bench/sets/lifeweek.py            # rewrites bench/sets/lifeweek.jsonl, lifeweek_mcq.json, lifeweek_open.json
    python bench/sets/lifeweek.py --check    # exits 1 when the committed files differ from a rebuild

The week is written by hand in lifeweek_script.txt (appointments, medication, errands, conversations, calls,
transport, where things were put); lifeweek_noise.txt holds background events per place, drawn with a fixed
seed into the time between scripted events. Questions are declared in lifeweek_questions.py with a regex for
the events they rest on; every gold answer (time, count, order, yes/no, the right option) is computed here
from the events, so it cannot drift from the log. Multiple-choice questions are written in HD-EPIC's shape
(`inputs`, `question`, `choices`, `correct_idx`) plus fields the runner reads (`at`, `form`, `evidence`);
`egocli eval` and `evaluate.load_questions` ignore the extra fields.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench.sets` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

HERE = Path(__file__).resolve().parent
SCRIPT, NOISE = HERE / "lifeweek_script.txt", HERE / "lifeweek_noise.txt"
EVENTS, MCQ, OPEN = HERE / "lifeweek.jsonl", HERE / "lifeweek_mcq.json", HERE / "lifeweek_open.json"
MODALITIES = {"v": "visual", "s": "speech", "t": "text", "n": "note"}
SEED = 2026


@dataclass(frozen=True)
class Ev:
    """One event of the week (local wall-clock times)."""

    start: datetime
    """Start, local naive time."""
    end: datetime
    """End."""
    modality: str
    """visual, speech, text or note."""
    content: str
    """What was seen, heard, read or noted."""
    scripted: bool
    """From the script (False: background)."""

    def as_json(self) -> dict:
        """The JSONL object `egocli import` reads."""
        return {"start": self.start.isoformat(), "end": self.end.isoformat(), "modality": self.modality,
                "content": self.content}


def _length(modality: str, text: str) -> timedelta:
    if modality == "speech":
        return timedelta(seconds=round(1 + 0.35 * len(text.split()), 1))
    return timedelta(seconds={"visual": 4, "text": 3}.get(modality, 0))


def read_script(path: Path = SCRIPT) -> list[tuple[datetime, str, str, str]]:
    """(time, modality, text, place) of every scripted line; place is the last '@place' marker."""
    out, day, place = [], None, "sleep"
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if m := re.fullmatch(r"# (\d{4}-\d{2}-\d{2})", line):
            day = datetime.fromisoformat(m.group(1))
        elif line.startswith("@"):
            place = line[1:]
        elif line and not line.startswith("#"):
            m = re.fullmatch(r"(\d{2}):(\d{2})(?::(\d{2}))? ([vstn]) (.+)", line)
            if m is None or day is None:
                raise ValueError(f"{path}:{lineno}: cannot read {line!r}")
            at = day.replace(hour=int(m.group(1)), minute=int(m.group(2)), second=int(m.group(3) or 0))
            out.append((at, MODALITIES[m.group(4)], m.group(5), place))
    return out


def read_noise(path: Path = NOISE) -> dict[str, list[tuple[str, str]]]:
    """Background lines per place."""
    pools: dict[str, list[tuple[str, str]]] = {}
    place = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            place = line[3:].strip()
            pools[place] = []
        elif line.strip() and not line.startswith("#") and place:
            pools[place].append((MODALITIES[line[0]], line[2:].strip()))
    return pools


def build_events(seed: int = SEED, script_path: Path = SCRIPT, noise_path: Path = NOISE) -> list[Ev]:
    """Scripted events plus background drawn every 2.5-8 minutes while awake, in time order."""
    rng = random.Random(seed)
    pools = read_noise(noise_path)
    script = read_script(script_path)
    events = [Ev(t, t + _length(m, text), m, text, True) for t, m, text, _ in script]
    for (t0, m0, text0, place), (t1, *_rest) in zip(script, script[1:]):
        pool = pools.get(place)
        t = t0 + _length(m0, text0) + timedelta(seconds=rng.randrange(60, 240))
        while pool and t + timedelta(seconds=60) < t1:
            modality, text = rng.choice(pool)
            events.append(Ev(t, t + _length(modality, text), modality, text, False))
            t += timedelta(seconds=rng.randrange(150, 480))
    return sorted(events, key=lambda e: (e.start, e.content))


def matches(events: list[Ev], pattern: str, modality: str | None = None, day: str | None = None,
            before: datetime | None = None) -> list[Ev]:
    """Events whose content matches the regex (case-insensitive), optionally of one modality, on one day
    (YYYY-MM-DD) and starting before a time."""
    rx = re.compile(pattern, re.I)
    return [e for e in events if rx.search(e.content) and (modality is None or e.modality == modality)
            and (day is None or e.start.date().isoformat() == day) and (before is None or e.start < before)]


def write(events: list[Ev], mcq: dict, open_: list[dict]) -> None:
    """Write the three committed files."""
    EVENTS.write_text("".join(json.dumps(e.as_json()) + "\n" for e in events), encoding="utf-8")
    MCQ.write_text(json.dumps(mcq, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    OPEN.write_text(json.dumps(open_, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def build(seed: int = SEED) -> tuple[list[Ev], dict, list[dict]]:
    """Events, multiple-choice questions (HD-EPIC shape, keyed by id) and open questions."""
    from bench.sets import lifeweek_questions

    events = build_events(seed)
    mcq = lifeweek_questions.multiple_choice(events, random.Random(f"{seed}-mcq"))
    open_ = lifeweek_questions.open_questions(events)
    return events, mcq, open_


def main() -> None:
    """Rebuild the committed files, or check them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="Compare with the committed files instead.")
    args = parser.parse_args()
    events, mcq, open_ = build()
    if args.check:
        same = (EVENTS.read_text() == "".join(json.dumps(e.as_json()) + "\n" for e in events)
                and json.loads(MCQ.read_text()) == mcq and json.loads(OPEN.read_text()) == open_)
        print("up to date" if same else "differs from a rebuild: run python bench/sets/lifeweek.py")
        sys.exit(0 if same else 1)
    write(events, mcq, open_)
    print(f"{len(events)} events ({sum(e.scripted for e in events)} scripted), {len(mcq)} multiple-choice and "
          f"{len(open_)} open questions")


if __name__ == "__main__":
    main()
