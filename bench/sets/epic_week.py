"""The EPIC-KITCHENS week: narration CSVs placed one per day, with open questions whose gold answers are
computed from the narrations.

    python bench/sets/epic_week.py [--data ../shared/data/epic-kitchens] [--out .cache/lifelog/epic_week.json]

The narrations are CC BY-NC: nothing derived from them is committed. This module reads the CSVs at run time
and writes the set (day plan, questions, gold answers) to a git-ignored file. It knows nothing of the eight
files: any folder of EPIC-style CSVs (columns start_timestamp, stop_timestamp, narration, verb, verb_class,
noun, noun_class, all_nouns, all_noun_classes) gives a week of len(files) days, starting on --monday. Choices
are seeded (--seed), so the same files give the same set.

An action is a (verb, noun) pair of the annotations. Only "clear" actions are asked about: no other narration
pairs the same noun with a synonym verb (same verb class) or the same verb with a synonym noun (same noun
class), so "take the knife" cannot also mean a narrated "pick up knife". Gold answers are computed over the
events before the question's time (`at`), which always falls in a gap between two days' sessions.
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import random
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench.sets` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.sets import phrasing  # noqa: E402
from bench.sets.checker import has_word, plural  # noqa: E402
from bench.sets.phrasing import Action  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data" / "epic-kitchens"
OUT = ROOT / ".cache" / "lifelog" / "epic_week.json"
MONDAY = date(2026, 11, 16)
PARTICLES = {"up", "down", "on", "off", "out", "away", "back"}
"""Verb suffixes that read as particles ('pick-up knife' -> 'pick up the knife'); others need a second noun."""
PUT_VERBS = {"put-into", "put-in", "put-on", "put-onto", "place-in", "insert", "put-back", "put-to", "throw-into",
             "place", "put", "put-down", "put-away"}


@dataclass(frozen=True)
class Narration:
    """One narrated action placed in the week."""

    video: str
    """The CSV's stem."""
    day: int
    """0 = the first Monday."""
    start_ms: int
    """Absolute start, UTC epoch ms (what `egocli import --start` stores)."""
    end_ms: int
    """Absolute end."""
    text: str
    """The narration, as the event's content."""
    verb: str
    """Annotated verb ('pick-up')."""
    noun: str
    """Annotated main noun ('board:cutting')."""
    verb_class: str
    """Verb class id (synonyms share it)."""
    noun_class: str
    """Noun class id."""
    nouns: tuple[str, ...]
    """All nouns, main first."""

    @property
    def key(self) -> tuple[str, str]:
        """The action: (verb, noun)."""
        return self.verb, self.noun


@dataclass(frozen=True)
class Day:
    """One CSV placed on one day."""

    file: str
    """The CSV's path."""
    day: int
    """Day index from the first Monday."""
    start: str
    """Local wall-clock start, ISO (the `--start` given to `egocli import`)."""


def _clock_ms(text: str) -> int:
    hh, mm, ss = text.split(":")
    return int(round((int(hh) * 3600 + int(mm) * 60 + float(ss)) * 1000))


def plan_week(files: list[Path], seed: int, monday: date = MONDAY) -> list[Day]:
    """Files in a seeded order, one per day from monday, each starting at a seeded time of day."""
    rng = random.Random(f"{seed}-plan")
    order = sorted(files)
    rng.shuffle(order)
    days = []
    for i, path in enumerate(order):
        minute = rng.randrange(7 * 60, 19 * 60, 5)
        start = datetime.combine(monday + timedelta(days=i), datetime.min.time()) + timedelta(minutes=minute)
        days.append(Day(str(path), i, start.isoformat(timespec="minutes")))
    return days


def load(days: list[Day]) -> list[Narration]:
    """Every narration of the planned days, at its absolute time, in time order."""
    from egocli.core.timeutil import parse_time_ms

    out = []
    for d in days:
        anchor = parse_time_ms(d.start)
        with open(d.file, newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                nouns = tuple(ast.literal_eval(row["all_nouns"])) if row.get("all_nouns") else (row["noun"],)
                start = anchor + _clock_ms(row["start_timestamp"])
                end = anchor + _clock_ms(row["stop_timestamp"])
                out.append(Narration(Path(d.file).stem, d.day, start, max(end, start), row["narration"].strip(),
                                     row["verb"], row["noun"], row["verb_class"], row["noun_class"], nouns))
    return sorted(out, key=lambda n: (n.start_ms, n.text))


class Week:
    """The narrations of a week with the lookups question makers need."""

    def __init__(self, days: list[Day], narrations: list[Narration]) -> None:
        self.days = days
        self.all = narrations
        self.by_key: dict[tuple[str, str], list[Narration]] = defaultdict(list)
        for n in narrations:
            self.by_key[n.key].append(n)
        self.sessions = {d: (min(n.start_ms for n in ns), max(n.end_ms for n in ns))
                         for d, ns in _group(narrations, lambda n: n.day).items()}
        self._verbs_of_noun = _group(narrations, lambda n: n.noun)
        self._nouns_of_verb = _group(narrations, lambda n: n.verb)
        self.heads = defaultdict(set)
        for n in narrations:
            for noun in n.nouns:
                self.heads[noun.split(":")[0]].add(noun)

    def clear(self, key: tuple[str, str]) -> bool:
        """No synonym verb with this noun, and no synonym noun with this verb, anywhere in the week."""
        first = self.by_key[key][0]
        if any(n.verb_class == first.verb_class and n.verb != first.verb for n in self._verbs_of_noun[first.noun]):
            return False
        return not any(n.noun_class == first.noun_class and n.noun != first.noun
                       for n in self._nouns_of_verb[first.verb])

    def action(self, key: tuple[str, str]) -> Action | None:
        """The key as a phrasable action, or None: its verb needs a second noun, its noun is long, or the
        narrations do not say the verb and noun in words (the annotation then reads differently)."""
        verb, noun = key
        base, _, particle = verb.partition("-")
        if particle and particle not in PARTICLES or noun.count(":") > 1:
            return None
        texts = Counter(n.text.lower() for n in self.by_key[key])
        words = texts.most_common(1)[0][0].split()
        head = noun.split(":")[0]
        if not has_word(words[0], base) or not has_word(" ".join(words), head):
            return None
        if not particle and len(words) > 1 and words[1] in PARTICLES:
            particle = words[1]
        if base in ("put", "place") and not particle:
            return None  # 'when did I last put the glass?' needs a place: the where-form asks that
        many = any(plural(head) in t.split() for t in texts)
        short = head if ":" in noun and len(self.heads[head]) == 1 else None
        return Action(base, particle, phrasing.noun_text(noun), short, many)

    def before(self, key: tuple[str, str], at_ms: int) -> list[Narration]:
        """Occurrences of an action that started before at_ms."""
        return [n for n in self.by_key[key] if n.start_ms < at_ms]

    def gaps(self) -> list[tuple[int, int, int]]:
        """(day, from, to): the quiet time after each day's session, when questions are asked."""
        days = sorted(self.sessions)
        out = []
        for i, d in enumerate(days):
            end = self.sessions[d][1]
            nxt = self.sessions[days[i + 1]][0] if i + 1 < len(days) else end + 6 * 3_600_000
            out.append((d, end + 60_000, min(nxt - 60_000, end + 5 * 3_600_000)))
        return out

    def synonyms(self, kind: str, value: str) -> list[str]:
        """Words an answer may use for a verb or noun: the heads of every member of its annotated class."""
        if kind == "verb":
            cls = {n.verb_class for n in self.all if n.verb == value}
            members = {n.verb for n in self.all if n.verb_class in cls} | {value}
            return sorted({m.split("-")[0] for m in members})
        cls = {n.noun_class for n in self.all if n.noun == value}
        members = {n.noun for n in self.all if n.noun_class in cls} | {value}
        return sorted({m.split(":")[0] for m in members})


def _group(items, key) -> dict:
    out = defaultdict(list)
    for item in items:
        out[key(item)].append(item)
    return out


def _at(rng: random.Random, week: Week, after_day: int) -> int:
    """A seeded question time in the gap after a day's session."""
    gap = next(g for g in week.gaps() if g[0] == after_day)
    return rng.randrange(gap[1], max(gap[1] + 1, gap[2]), 60_000)


def build(data: Path = DATA, seed: int = 21, per_form: int = 10, monday: date = MONDAY) -> dict:
    """The whole set: day plan and questions with gold answers (a JSON-ready dict)."""
    files = sorted(data.glob("*.csv"))
    if not files:
        raise FileNotFoundError(f"no CSV files in {data}")
    days = plan_week(files, seed, monday)
    week = Week(days, load(days))
    from bench.sets import epic_forms

    questions = epic_forms.make_all(week, random.Random(f"{seed}-questions"), per_form)
    return {"seed": seed, "days": [d.__dict__ | {"file": Path(d.file).name} for d in days],
            "data": str(data), "questions": questions}


def main() -> None:
    """Write the generated set as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--per-form", type=int, default=10)
    args = parser.parse_args()
    doc = build(args.data, args.seed, args.per_form)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1))
    print(f"{len(doc['questions'])} questions over {len(doc['days'])} days -> {args.out}")


if __name__ == "__main__":
    main()
