"""`egocli day`'s digest without a model: how long a day of N events takes to tell.

Usage: python bench/day.py [--events 5000] [--hours 16] [--runs 5]
One synthetic day (a third of it the same desk scenery, the rest varied sentences over the modalities),
in a log file on disk; prints the best and median time of `day_digest` and how many hours and events it told.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from datetime import date, datetime
from pathlib import Path

from egocli.store import NewEvent, Store
from egocli.usecases.day import day_digest

WORDS = ("kitchen desk laptop Maria Tom pharmacy bus tram coffee window garden email phone book keys bowl shelf "
         "receipt rain umbrella street market bread cheese meeting budget review").split()
MODALITIES = ("visual",) * 5 + ("speech",) * 3 + ("text", "note")
DAY = date(2026, 11, 30)


def fill(store: Store, events: int, hours: int, seed: int = 1) -> None:
    """`events` events spread evenly over `hours` hours from 06:00 of DAY."""
    rnd = random.Random(seed)
    lo = int(datetime(DAY.year, DAY.month, DAY.day, 6).astimezone().timestamp() * 1000)
    rows = []
    for i in range(events):
        t = lo + i * (hours * 3_600_000 // events)
        text = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(5, 14))).capitalize()
        rows.append(NewEvent(t, t + 4000, rnd.choice(MODALITIES), "Typing on the laptop at the desk" if i % 3 == 0
                             else text))
    store.add_events(rows)


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=5000)
    ap.add_argument("--hours", type=int, default=16)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(Path(tmp) / "day.db")
        fill(store, args.events, args.hours)
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            told = day_digest(store, DAY)
            times.append(time.perf_counter() - t0)
        store.close()
    print(f"day_digest: {told.events} events, {len(told.hours)} hours, "
          f"{sum(len(h.salient) for h in told.hours)} salient events told")
    print(f"best {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms over {args.runs} runs")


if __name__ == "__main__":
    main()
