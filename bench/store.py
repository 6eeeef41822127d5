"""Event-log benchmark: bulk insert, time-range queries, FTS search, size — vs plain baselines.

Usage: python bench/store.py [--events 1000000] [--days 30] [--queries 200] [--encrypt]
Baselines measured in the same run: plain sqlite3 executemany into a bare table (no indexes,
no FTS) for inserts; a Python scan over the content strings for search.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sqlite3
import tempfile
import time
from pathlib import Path

from egocli.store import EventFilter, Store
from egocli.store.db import STOPWORDS

WORDS = ("kitchen kettle cup tea coffee door keys bowl shelf phone charger table chair window street bus "
         "pharmacy doctor pill refill metformin receipt card cash apple lemon cake milk bread fridge "
         "oven pan knife board onion garlic tomato basil pasta water sink tap towel book glasses coat "
         "umbrella rain park cafe friend maria tom daughter sunday monday meeting room mentor reminder "
         "laptop email message call talk walk sit stand open close put take pick leave find lose").split()
MODALITIES = ("visual", "speech", "text", "visual", "visual")
T0 = 1_767_225_600_000  # 2026-01-01T00:00Z


def vocabulary(size: int = 5000, seed: int = 5) -> tuple[list[str], list[float]]:
    """Words with Zipf weights (rank r has weight 1/r), as in natural text: function words are the
    most common, then real lifelog words, then made-up rarer ones."""
    rnd = random.Random(seed)
    made_up = {"".join(rnd.choices("bcdfghklmnprstvz", k=2) + rnd.choices("aeiou", k=1) +
                       rnd.choices("bcdfghklmnprstvz", k=2)) for _ in range(size * 2)}
    head = sorted(STOPWORDS) + list(WORDS)
    words = head + sorted(made_up - set(head))[:size - len(head)]
    return words, [1 / (r + 1) for r in range(len(words))]


def synth_rows(n: int, days: int, seed: int = 7):
    """(start, end, modality, source_id, content, meta) tuples spread evenly over `days`."""
    rnd = random.Random(seed)
    step = days * 86_400_000 / n
    words_, weights = vocabulary()
    cum = list(itertools.accumulate(weights))
    for i in range(n):
        start = T0 + int(i * step)
        words = rnd.choices(words_, cum_weights=cum, k=rnd.randint(6, 14))
        yield (start, start + 2000, MODALITIES[i % 5], None, " ".join(words), "{}")


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of values, in the values' unit."""
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def bench_insert(path: Path, rows: list[tuple], key: str | None = None) -> tuple[float, float]:
    """(egocli events/s, baseline events/s)."""
    store = Store.open(path, key=key)
    t = time.perf_counter()
    for k in range(0, len(rows), 100_000):
        store.bulk_insert(rows[k:k + 100_000])
    ego = len(rows) / (time.perf_counter() - t)
    store.close()
    base_path = path.with_name("baseline.db")
    conn = sqlite3.connect(base_path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, start_ms INT, end_ms INT, modality TEXT,"
                 " source_id INT, content TEXT, meta TEXT)")
    t = time.perf_counter()
    with conn:
        conn.executemany("INSERT INTO events(start_ms, end_ms, modality, source_id, content, meta)"
                         " VALUES (?,?,?,?,?,?)", rows)
    base = len(rows) / (time.perf_counter() - t)
    conn.close()
    return ego, base


def bench_queries(store: Store, rows: list[tuple], days: int, queries: int) -> dict[str, float]:
    """Latencies (ms) of 1-hour range queries and FTS searches, plus the Python-scan baseline."""
    rnd = random.Random(11)
    span = days * 86_400_000 - 3_600_000
    ranges, fts, scan = [], [], []
    for _ in range(queries):
        since = T0 + rnd.randrange(span)
        t = time.perf_counter()
        list(store.events(EventFilter(since_ms=since, until_ms=since + 3_600_000)))
        ranges.append((time.perf_counter() - t) * 1000)
    contents = [r[4] for r in rows]
    words, weights = vocabulary()
    content = [(w, x) for w, x in zip(words, weights) if w not in STOPWORDS]
    words, weights = [w for w, _ in content], [x for _, x in content]
    for i in range(queries):
        a, b = rnd.choices(words, weights=weights, k=2)
        t = time.perf_counter()
        store.search(f"where is the {a} and {b}", EventFilter(limit=20))
        fts.append((time.perf_counter() - t) * 1000)
        if i < 10:
            t = time.perf_counter()
            hits = [c for c in contents if a in c or b in c]
            hits.sort(key=lambda c: -(c.count(a) + c.count(b)))
            scan.append((time.perf_counter() - t) * 1000)
    return {"range_p50": pct(ranges, .5), "range_p95": pct(ranges, .95), "fts_p50": pct(fts, .5),
            "fts_p95": pct(fts, .95), "scan_p50": pct(scan, .5), "scan_p95": pct(scan, .95)}


def main() -> None:
    """Run the benchmark and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--encrypt", action="store_true", help="An SQLCipher log (egocli init --encrypt).")
    args = ap.parse_args()
    key = "bench passphrase" if args.encrypt else None
    rows = list(synth_rows(args.events, args.days))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        ego_rate, base_rate = bench_insert(path, rows, key)
        t = time.perf_counter()
        store = Store.open(path, key=key)
        open_ms = (time.perf_counter() - t) * 1000
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        q = bench_queries(store, rows, args.days, args.queries)
        size = path.stat().st_size
    per_m = size / args.events * 1e6 / 1e6
    print(f"events: {args.events:,} over {args.days} days; {'ENCRYPTED (SQLCipher)' if key else 'plain SQLite'},"
          f" open {open_ms:.0f} ms")
    print(f"insert: {ego_rate:,.0f} events/s (baseline plain executemany, no index/FTS: "
          f"{base_rate:,.0f}/s; ratio {ego_rate / base_rate:.2f}x) target >= 100,000/s")
    print(f"1-hour range query: p50 {q['range_p50']:.2f} ms, p95 {q['range_p95']:.2f} ms (target p50 <= 20 ms)")
    print(f"FTS search (2 Zipf-drawn words, OR, top 20): p50 {q['fts_p50']:.2f} ms, p95 {q['fts_p95']:.2f} ms "
          f"(baseline Python scan p50 {q['scan_p50']:.1f} ms; speed-up {q['scan_p50'] / q['fts_p50']:.0f}x)")
    print(f"size: {per_m:.0f} MB per million events")


if __name__ == "__main__":
    main()
