"""HD-EPIC ablation table, resumable: every config on the same questions, one JSONL row per question x config.

    EGOCLI_HOME=.cache/hdepic egocli import --format hd-epic ../shared/data/hd-epic
    EGOCLI_HOME=.cache/hdepic egocli summarize --extractive
    EGOCLI_HOME=.cache/hdepic nice -n 19 python bench/hdepic.py run --out .cache/hdepic/ablation.jsonl [--until 08:55]
    python bench/hdepic.py table --out .cache/hdepic/ablation.jsonl

Questions are taken round-robin across the 11 files (a partial run stays balanced) and all configs run on
a question before the next one starts (every config covers the same questions). Rows already in --out are
skipped, so a killed run resumes where it stopped. Each row records a fingerprint of egocli/reasoning's
source, so `table` never mixes rows of different method versions unless --any-version is given.
Only inputs/question/choices/correct_idx are read from the question files (never `metadata`).

`no-llm` loads no model (the symbolic scorer answers alone), so `--configs no-llm` runs all 305 questions in
minutes. `votes1` is not run separately when `full` ran: its prediction is full's first prompt variant, which is the
same prompt decoded greedily (rows say `"derived": "full"`, and carry no latency of their own; bench/ask.py
times 1 vote against 5). `--shard K/N` takes every N-th question from the K-th, so N runners (one llama.cpp
thread each) can share the cores; give `table` all their files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script
    sys.path.insert(0, str(ROOT))

from bench import runs  # noqa: E402
from egocli.reasoning import asker  # noqa: E402
from egocli.usecases import evaluate

HDEPIC = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "hd-epic"
REASONING = Path(__file__).resolve().parents[1] / "egocli" / "reasoning"
FULL = asker.AskRequest("?", votes=5)
CONFIGS = {
    "full": FULL,
    "no-hcc": replace(FULL, hcc=False),
    "votes1": replace(FULL, votes=1),  # derived from full's first variant when full ran
    "no-tcot": replace(FULL, tcot=False),
    "no-symbolic": replace(FULL, symbolic=False),  # the model alone, as before issue 21
    "no-llm": replace(FULL, llm=False),  # the symbolic scorer alone: fast, no model loaded
    "recent": replace(FULL, hcc=False, tcot=False, symbolic=False, baseline="recent"),
    "budget600": replace(FULL, budget=600),
    "budget1200": replace(FULL, budget=1200),  # the former default: more context recall, the same accuracy on 66 questions
}


def method_version() -> str:
    """A short fingerprint of the reasoning code the rows were produced with."""
    digest = hashlib.sha1()
    for path in sorted(REASONING.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def run(args: argparse.Namespace) -> None:
    """Answer questions config by config, appending rows, until done or past --until (UTC HH:MM)."""
    from egocli.core.config import load_settings
    from egocli.models import registry
    from egocli.store import Store

    settings = load_settings()
    store = Store.open(settings.db, create=False)
    configs = [c for c in CONFIGS if c in args.configs.split(",")]
    llm = registry.load("llm", settings) if any(CONFIGS[c].llm for c in configs) else None
    embedder = registry.load("embedder", settings)
    version = method_version()
    done = runs.done(args.out, "file")
    stop = runs.deadline(args.until)
    items = evaluate.interleave(sorted((args.data / "questions").glob("*.json")))[: args.limit]
    shard, shards = (int(x) for x in args.shard.split("/"))
    items = items[shard::shards]
    with args.out.open("a", encoding="utf-8") as sink:
        for n, item in enumerate(items, 1):
            full_row = None
            for name in configs:
                if (version, name, item.file, item.qid) in done:
                    continue
                if stop is not None and time.time() > stop:
                    print(f"stopped at --until after {n - 1} questions")
                    return
                if name == "votes1" and full_row is not None and full_row["votes"]:
                    row = _first_vote(full_row)
                else:
                    result = evaluate.run_one(store, llm, item, CONFIGS[name], embedder)
                    row = {"version": version, "config": name, **evaluate.as_row(result)}
                full_row = row if name == "full" else full_row
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                print(f"{n:3d} {item.file[:34]:34s} {name:8s} {'ok ' if row['correct'] else 'bad'} "
                      f"recall={int(row['recall'])} {row['latency_s'] or 0:5.1f}s {row['tokens']} tok", flush=True)


def _first_vote(full: dict) -> dict:
    """The votes1 row implied by a full row: its first variant's letter (same prompt, greedy decoding)."""
    letter = full["votes"][0]
    predicted = "ABCDE".index(letter) if letter else None
    return {**full, "config": "votes1", "predicted": predicted, "correct": predicted == full["correct_idx"],
            "confidence": 1.0 if letter else None, "votes": [letter], "latency_s": None,
            "tokens": full["tokens"] // max(len(full["votes"]), 1), "derived": "full"}


def table(args: argparse.Namespace) -> None:
    """Print the ablation table over the questions every config completed (markdown)."""
    rows = [json.loads(line) for out in args.out for line in out.read_text().splitlines() if line.strip()]
    if not args.any_version:
        versions = [r["version"] for r in rows]
        keep = args.version or max(set(versions), key=versions.count)
        rows = [r for r in rows if r["version"] == keep]
        print(f"method version {keep} ({len(rows)} rows)")
    by_config: dict[str, dict[tuple[str, str], dict]] = {}
    for r in rows:
        by_config.setdefault(r["config"], {})[(r["file"], r["id"])] = r
    common = set.intersection(*(set(v) for v in by_config.values())) if by_config else set()
    files = {f for f, _ in common}
    print(f"n = {len(common)} questions completed by every config, from {len(files)} files\n")
    print("| config | accuracy (95% CI) | context recall | mean latency | tokens/question |")
    print("|---|---|---|---|---|")
    for name in CONFIGS:
        got = [by_config[name][key] for key in sorted(common)] if name in by_config else []
        if not got:
            continue
        k, n = sum(r["correct"] for r in got), len(got)
        lo, hi = runs.wilson(k, n)
        recall = sum(r["recall"] for r in got) / n
        timed = [r["latency_s"] for r in got if r.get("latency_s") is not None]
        latency = f"{sum(timed) / len(timed):.1f} s" if timed else "(derived)"
        tokens = sum(r["tokens"] for r in got) / n
        print(f"| {name} | {k}/{n} = {k / n:.1%} ({lo:.0%}-{hi:.0%}) | {recall:.2f} | {latency} | {tokens:.0f} |")
    _per_file(by_config, common)


def _per_file(by_config: dict[str, dict[tuple[str, str], dict]], common: set[tuple[str, str]]) -> None:
    names = [name for name in CONFIGS if name in by_config]
    print("\n| file | n | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for file in sorted({f for f, _ in common}):
        keys = [key for key in common if key[0] == file]
        cells = [f"{sum(by_config[name][key]['correct'] for key in keys)}" for name in names]
        print(f"| {file} | {len(keys)} | " + " | ".join(cells) + " |")


def main() -> None:
    """Parse arguments and run or tabulate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("run", "table"))
    parser.add_argument("--out", type=Path, nargs="+", required=True,
                        help="JSONL file of rows (run: one, appended, resumable; table: one or more).")
    parser.add_argument("--shard", default="0/1", help="run: K/N, every N-th question starting at the K-th.")
    parser.add_argument("--data", type=Path, default=HDEPIC, help="The HD-EPIC folder (with questions/).")
    parser.add_argument("--configs", default=",".join(CONFIGS), help="Comma-separated subset of configs.")
    parser.add_argument("--limit", type=int, default=None, help="At most N questions (round-robin order).")
    parser.add_argument("--until", default=None, help="Stop starting new rows after this UTC time (HH:MM).")
    parser.add_argument("--version", default=None, help="table: rows of this method version only.")
    parser.add_argument("--any-version", action="store_true", help="table: mix method versions.")
    args = parser.parse_args()
    if args.command == "run":
        if len(args.out) != 1:
            parser.error("run writes one --out file")
        args.out = args.out[0]
        run(args)
    else:
        table(args)


if __name__ == "__main__":
    main()
