"""Home or out, read from frames (egocli.reasoning.outings.scene), against where the day-sets' scripts put them.

    python bench/scenes.py                          # the dev day-sets, a table per set and in all
    python bench/scenes.py --sets salon,rounds      # chosen sets
    python bench/scenes.py --sets salon --show home:-   # the frames at home that read as neither

A script's "@place" lines (bench/sets/*_script.txt) say where its events happen: "@home" is at home, "@sleep" and
no marker are neither, any other place is away. Each frame ("HH:MM v ...") is read by outings.scene, as ask reads
the log's frames to find leaving home and getting back. The figures: of the frames at home, how many read home
(recall; the rest read nothing, or out), and of the frames away, how many read home (the errors that make a false
homecoming). Reading a frame takes no model and no store: the whole table prints in a second.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` and `egocli` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from egocli.reasoning import outings  # noqa: E402
from egocli.store import Event  # noqa: E402

SETS = Path(__file__).resolve().parent / "sets"
DEV = "errands,shifts,weekdays,visits,flatshare,market,terrace,everyday,salon,rounds"
"""The dev day-sets (the fresh ones are read as totals only, never frame by frame)."""


def frames(name: str) -> list[tuple[str, str]]:
    """A script's frames, each with where the script puts it: 'home', 'away' or 'none'."""
    out, where = [], None
    for line in (SETS / f"{name}_script.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("@"):
            where = line[1:].strip()
            continue
        parts = line.split(" ", 2)
        if line.startswith("#") or len(parts) < 3 or parts[1] != "v":
            continue
        truth = "home" if where == "home" else "none" if where in (None, "sleep") else "away"
        out.append((truth, parts[2]))
    return out


def read(text: str) -> str:
    """How ask reads a frame: 'home', 'out' or '-' (neither)."""
    return outings.scene(Event(id=0, start_ms=0, end_ms=0, modality="visual", source_id=None, content=text)) or "-"


def table(names: list[str], show: tuple[str, str] | None = None) -> Counter[tuple[str, str, str]]:
    """(set, where the script puts a frame, how it reads) -> frames; printing those of `show` as they go."""
    counts: Counter[tuple[str, str, str]] = Counter()
    for name in names:
        for truth, text in frames(name):
            got = read(text)
            counts[(name, truth, got)] += 1
            if show == (truth, got):
                print(f"{name:10s} {text}")
    return counts


def report(counts: Counter[tuple[str, str, str]], names: list[str]) -> list[str]:
    """A line per set and one for all: at home read home (of all at home), away read home (of all away)."""
    lines = ["| set | at home: read home | at home: read out | away: read home | away: read out |", "|---|---|---|---|---|"]
    for name in [*names, "all"]:
        mine: Counter[tuple[str, str]] = Counter()
        for (s, t, g), n in counts.items():
            mine[t, g] += n if name in ("all", s) else 0
        home, away = sum(n for (t, _), n in mine.items() if t == "home"), sum(n for (t, _), n in mine.items() if t == "away")
        lines.append(f"| {name} | {mine['home', 'home']}/{home} | {mine['home', 'out']}/{home} | "
                     f"{mine['away', 'home']}/{away} | {mine['away', 'out']}/{away} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=DEV, help=f"Comma-separated day-sets (default: the dev ones, {DEV}).")
    parser.add_argument("--show", default="", help="Print the frames of one cell, WHERE:READ (e.g. home:- or away:home).")
    args = parser.parse_args()
    names = [s for s in args.sets.split(",") if s]
    missing = [s for s in names if not (SETS / f"{s}_script.txt").exists()]
    if missing:
        parser.error(f"no script for {', '.join(missing)} in {SETS}")
    show = tuple(args.show.split(":", 1)) if args.show else None
    if show is not None and len(show) != 2:
        parser.error("--show takes WHERE:READ, e.g. home:- or away:home")
    print("\n".join(report(table(names, show), names)))  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
