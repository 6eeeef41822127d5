"""Benchmark `egocli ask`: retrieval + assembly on a synthetic 30-day, >= 1M-event log; end-to-end
latency with the default model; 5 votes vs 1; recent-events stuffing baseline; HD-EPIC accuracy.

    python bench/ask.py [--events 1000000] [--db /tmp/egocli-bench-ask.db] [--hdepic-limit 1] [--skip-llm]

Summaries for 1M events are built with the extractive summarizer (an LLM would need days on 2 cores).
Events are embedded once per distinct text (the synthetic log repeats its templates) and the vector
is stored for every event, so the vector table is full size.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from egocli.core.config import load_settings
from egocli.models import registry
from egocli.reasoning import asker, hcc, prompts
from egocli.usecases import evaluate
from egocli.store import Store, vectors
from egocli.core.timeutil import parse_time_ms

HDEPIC = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "hd-epic"
AT = parse_time_ms("2026-11-30T20:00:00")
DAY = 86_400_000
VERBS = ["walking past", "looking at", "picking up", "putting down", "talking about", "cleaning", "reading",
         "opening", "closing", "carrying", "photographing", "checking"]
THINGS = ["the laptop", "a coffee mug", "the front door", "a newspaper", "the bicycle", "a shopping bag",
          "the kettle", "a parcel", "the window", "a notebook", "the television", "a plant pot", "the fridge",
          "a set of headphones", "the bus stop sign", "a water bottle", "the bookshelf", "a jacket"]
PLACES = ["in the kitchen", "in the office", "on the street", "in the living room", "at the supermarket",
          "in the hallway", "at the station", "in the garden", "at the cafe", "in the bedroom"]
NEEDLES = [(2 * DAY + 5_000_000, "visual", "Putting the passport in the green folder under the piano lid"),
           (9 * DAY + 40_000_000, "speech", "Dr Nakamura said the knee scan is booked for the twelfth"),
           (20 * DAY + 30_000_000, "visual", "Taking the white allergy tablet with a glass of apple juice"),
           (29 * DAY + 60_000_000, "visual", "Parking the scooter on level four, bay 47, of the Elm Street garage")]
QUESTIONS = [("Where did I put the passport?", ()),
             ("When is the knee scan the doctor mentioned?", ()),
             ("When did I last take the allergy tablet?", ()),
             ("Where did I park the scooter yesterday?", ("level 4 bay 47", "level 2 bay 12", "street outside",
                                                          "home garage", "level 1 bay 3")),
             ("what did I pick up in the kitchen this morning?", ()),
             ("what was I reading at the cafe 3 days ago?", ()),
             ("what happened last week in the garden?", ()),
             ("did I open the fridge 2 hours ago?", ()),
             ("What did I take the allergy tablet with?", ("a glass of apple juice", "a cup of tea", "water",
                                                            "milk", "nothing"))]


def _texts() -> list[str]:
    rng = random.Random(5)
    return [f"{rng.choice(VERBS)} {rng.choice(THINGS)} {rng.choice(PLACES)}" for _ in range(3000)]


def build_log(path: Path, count: int, embedder) -> Store:
    """The synthetic log (reused when already built): events, needles, vectors, extractive summaries."""
    store = Store.open(path)
    if store.count() >= count:
        return store
    texts = sorted(set(_texts()))
    start = AT - 30 * DAY
    step = 30 * DAY // count
    rng = random.Random(7)
    t0 = time.perf_counter()
    rows = ((start + i * step, start + i * step + 2000, "visual", None, texts[rng.randrange(len(texts))], "{}")
            for i in range(count))
    store.bulk_insert(rows)
    needle_ids = store.add_events([asker_event(start + off, mod, text) for off, mod, text in NEEDLES])
    print(f"inserted {count} events + {len(needle_ids)} needles in {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    allt = texts + [t for _, _, t in NEEDLES]
    blobs = dict(zip(allt, vectors.quantise(embedder.embed(allt))))
    rows_v = [(embedder.name, t, i, src, blobs[c])
              for i, t, src, c in store.conn.execute("SELECT id, start_ms, source_id, content FROM events")]
    vectors.put_blobs(store, rows_v)
    print(f"embedded {len(allt)} distinct texts, stored {len(rows_v)} vectors in {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    built = sum(1 for _ in hcc.build(store, hcc.ExtractiveSummarizer(), embedder))
    print(f"built {built} extractive summaries in {time.perf_counter() - t0:.1f} s")
    return store


def asker_event(t: int, modality: str, text: str):
    """A NewEvent lasting 5 s."""
    from egocli.store import NewEvent

    return NewEvent(t, t + 5000, modality, text)


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def bench_assembly(store: Store, embedder, rounds: int = 3) -> None:
    """p50/p95 of retrieval + context assembly, and of the stuffing baseline."""
    times, base = [], []
    for _ in range(rounds):
        for question, choices in QUESTIONS:
            t0 = time.perf_counter()
            ctx = asker.assemble(store, asker.AskRequest(question, choices, at_ms=AT), embedder)
            times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            asker.assemble(store, asker.AskRequest(question, choices, at_ms=AT, baseline="recent"))
            base.append(time.perf_counter() - t0)
    print(f"retrieval+assembly over {store.count()} events: p50 {pct(times, .5) * 1000:.0f} ms, "
          f"p95 {pct(times, .95) * 1000:.0f} ms (n={len(times)}); last context {ctx.storyline.tokens} tokens")
    t0 = time.perf_counter()
    stale = hcc.plan(store)
    print(f"HCC staleness check over the whole log: {(time.perf_counter() - t0) * 1000:.0f} ms ({len(stale)} stale)")
    print(f"baseline recent-events stuffing: p50 {pct(base, .5) * 1000:.0f} ms, p95 {pct(base, .95) * 1000:.0f} ms")


def bench_llm(store: Store, llm, embedder, count: int = 4) -> None:
    """End-to-end latency with the default model and first streamed token, against the recent-events
    baseline on the same questions in the same run; then 5 votes vs 1."""
    runs: dict[str, list[tuple[float, float | None, int]]] = {"full": [], "recent": []}
    for question, choices in QUESTIONS[:count]:
        for name in runs:
            req = asker.AskRequest(question, choices, at_ms=AT, votes=5, baseline="recent" if name == "recent" else None)
            t0 = time.perf_counter()
            seen: list[float] = []
            result = asker.ask(store, llm, req, embedder, on_token=lambda _t: seen.append(time.perf_counter() - t0))
            took = time.perf_counter() - t0
            per_prompt = result.prompt_tokens // max(len(result.votes), 1)  # variants share all but the last line
            runs[name].append((took, seen[0] if seen else None, per_prompt))
            print(f"  {name:6s} {took:5.1f} s {per_prompt:5d} tok/prompt  {question!r} -> "
                  f"{result.letter or ''} {result.text[:80]!r}", flush=True)
    kinds = [bool(choices) for _, choices in QUESTIONS[:count]]
    for name, rows in runs.items():
        for label, keep in (("all", (True, False)), ("open", (False,)), ("choices", (True,))):
            picked = [r for r, kind in zip(rows, kinds) if kind in keep]
            if not picked:
                continue
            e2e = [r[0] for r in picked]
            first = [r[1] for r in picked if r[1] is not None]
            print(f"end-to-end {name:6s} {label:7s} (default model, 5 votes for choices): p50 "
                  f"{statistics.median(e2e):.1f} s, max {max(e2e):.1f} s, first streamed token p50 "
                  f"{statistics.median(first) if first else float('nan'):.1f} s, "
                  f"tokens/prompt {statistics.mean(r[2] for r in picked):.0f} (n={len(picked)})")
    full_p50 = statistics.median(r[0] for r in runs["full"])
    base_p50 = statistics.median(r[0] for r in runs["recent"])
    print(f"ratio full / recent-events baseline (p50 end-to-end): {full_p50 / base_p50:.2f}x")
    _votes_ratio(store, llm, embedder)


def bench_cli(db: Path, count: int = 7) -> None:
    """What a user waits for: `egocli ask` as a fresh process (Python start, model loading, the answer),
    on the open questions."""
    walls, inner = [], []
    for question, choices in [q for q in QUESTIONS if not q[1]][:count]:
        cmd = [sys.executable, "-m", "egocli", "--db", str(db), "ask", question, "--at", "2026-11-30T20:00:00",
               "--json"]
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
        walls.append(time.perf_counter() - t0)
        if out.returncode != 0:
            print(f"  cli failed ({out.returncode}): {out.stderr.strip()[-200:]}")
            return
        inner.append(json.loads(out.stdout)["latency_s"])
        print(f"  cli {walls[-1]:5.1f} s wall, {inner[-1]:5.1f} s answering  {question!r}", flush=True)
    print(f"egocli ask as a fresh process (open questions): p50 {statistics.median(walls):.1f} s wall, of which "
          f"p50 {statistics.median(inner):.1f} s assembling and answering (n={len(walls)})")


def _evict(llm) -> None:
    "".join(llm.generate([{"role": "user", "content": "Say ok."}], max_tokens=1))


def _votes_ratio(store: Store, llm, embedder) -> None:
    question, choices = QUESTIONS[3]
    req = asker.AskRequest(question, choices, at_ms=AT)
    ctx = asker.assemble(store, req, embedder)
    cost = {}
    for votes in (1, 5):
        _evict(llm)
        t0 = time.perf_counter()
        asker.answer(llm, ctx, replace(req, votes=votes))
        cost[votes] = time.perf_counter() - t0
    print(f"votes: 1 -> {cost[1]:.1f} s, 5 -> {cost[5]:.1f} s, ratio {cost[5] / cost[1]:.2f}x (shared KV prefix)")


def bench_hdepic(llm, embedder, limit: int) -> None:
    """Accuracy and context recall on HD-EPIC: full method vs recent-events stuffing (same questions)."""
    if not HDEPIC.is_dir():
        print("HD-EPIC data not found; skipped")
        return
    from egocli.usecases.importing import import_paths

    store = Store.open(None)
    list(import_paths(store, [HDEPIC], "hd-epic"))
    list(hcc.build(store, hcc.ExtractiveSummarizer()))
    files = sorted((HDEPIC / "questions").glob("*.json"))
    full = list(evaluate.run(store, llm, files, asker.AskRequest("?", votes=5), embedder, limit))
    base = list(evaluate.run(store, llm, files, asker.AskRequest("?", votes=5, baseline="recent"), embedder, limit))
    for name, rs in (("full T-CoT+HCC", full), ("recent stuffing", base)):
        row = evaluate.report(rs).rows[-1]
        print(f"HD-EPIC {name}: accuracy {row['accuracy']:.3f}, context recall {row['context_recall']:.3f}, "
              f"mean latency {row['mean_latency_s']:.1f} s, {row['tokens_per_question']:.0f} tokens/q, n={row['questions']}")
    print("(bench/hdepic.py runs the full ablation table, resumable)")


def main() -> None:
    """Run the benchmark and print figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--db", type=Path, default=Path("/tmp/egocli-bench-ask.db"))
    parser.add_argument("--hdepic-limit", type=int, default=1, help="Questions per HD-EPIC file (0: skip).")
    parser.add_argument("--skip-llm", action="store_true", help="Only retrieval/assembly figures.")
    parser.add_argument("--questions", type=int, default=len(QUESTIONS), help="Questions timed end to end.")
    args = parser.parse_args()
    settings = load_settings()
    embedder = registry.load("embedder", settings)
    store = build_log(args.db, args.events, embedder)
    bench_assembly(store, embedder)
    if args.skip_llm:
        return
    llm = registry.load("llm", settings)
    bench_llm(store, llm, embedder, args.questions)
    bench_cli(args.db)
    if args.hdepic_limit:
        bench_hdepic(llm, embedder, args.hdepic_limit)
    print(f"prompt order: context first, variant instruction last ({len(prompts.MCQ_VARIANTS)} variants)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
