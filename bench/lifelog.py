"""Life-log question sets, resumable: an EPIC-KITCHENS week (open questions) and a constructed week (open and
multiple-choice), every config on the same questions, one JSONL row per question x config.

    export EGOCLI_HOME=.cache/lifelog
    python bench/lifelog.py build                      # both logs through `egocli import` + `summarize --extractive`
    nice -n 19 python bench/lifelog.py run --out .cache/lifelog/rows.jsonl --threads 1 [--configs full,recent]
    python bench/lifelog.py table --out .cache/lifelog/rows.jsonl       # re-scored with today's checker and golds
    python bench/lifelog.py recall [--configs full,recent]  # context recall per config, no LLM (quick)

Sets: `epic` (bench/sets/epic_week.py generates it from ../shared/data/epic-kitchens into $EGOCLI_HOME, never
into the repository: CC BY-NC) and `life` (bench/sets/lifeweek*.json, committed). Each set has its own log
($EGOCLI_HOME/epic.db, life.db). Every question carries the time it is asked at (`--at`).

Configs: full, no-symbolic, no-llm, no-tcot, no-hcc, votes1, recent (the recent-events baseline). votes1 is derived from full's first prompt variant for multiple-choice questions, as in
bench/hdepic.py; an open question has one variant, so its votes1 row is full's.

Scoring: multiple choice by the chosen letter; open answers by bench/sets/checker.py (time within tolerance,
count, yes/no, required words, duration), never by a model. `table` re-scores stored answers with the current
checker. Recall is the share of the gold's evidence events shown in the assembled context.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script; a PYTHONPATH naming the checkout keeps its order
    sys.path.insert(0, str(ROOT))

from bench import runs  # noqa: E402
from bench.sets import epic_week, lifeweek, report  # noqa: E402
from bench.sets.items import Item, load_items  # noqa: E402
from egocli.reasoning import asker  # noqa: E402

FULL = asker.AskRequest("?", votes=5)
CONFIG_NAMES = ("full", "no-symbolic", "no-llm", "no-tcot", "no-hcc", "votes1", "recent", "no-plan", "no-reading")


def configs() -> dict[str, asker.AskRequest]:
    """Every config, by name."""
    return {"full": FULL, "no-symbolic": replace(FULL, symbolic=False), "no-llm": replace(FULL, llm=False),
            "no-tcot": replace(FULL, tcot=False), "no-hcc": replace(FULL, hcc=False),
            "votes1": replace(FULL, votes=1),
            "no-plan": replace(FULL, model_plan=False), "no-reading": replace(FULL, model_reading=False), "recent": replace(FULL, hcc=False, tcot=False, baseline="recent")}


def home() -> Path:
    """$EGOCLI_HOME (required: the logs and the generated EPIC set live there)."""
    value = os.environ.get("EGOCLI_HOME")
    if not value:
        sys.exit("Error: set EGOCLI_HOME (e.g. .cache/lifelog): the logs are built there")
    return Path(value).expanduser()


def _egocli() -> list[str]:
    found = shutil.which("egocli", path=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))
    return [found] if found else [sys.executable, "-m", "egocli"]


def _cli(db: Path, *args: str) -> None:
    cmd = [*_egocli(), "--db", str(db), *args]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"Error: {' '.join(cmd)} failed: {done.stderr.strip()[-400:]}")


def build(base: Path, data: Path = epic_week.DATA, seed: int = 21) -> None:
    """Both logs through the `egocli` console script, the EPIC set generated beside them."""
    base.mkdir(parents=True, exist_ok=True)
    doc = epic_week.build(data, seed)
    (base / "epic_week.json").write_text(json.dumps(doc, indent=1))
    for day in doc["days"]:
        _cli(base / "epic.db", "import", str(data / day["file"]), "--start", day["start"])
    _cli(base / "life.db", "import", str(lifeweek.EVENTS))
    for name in ("epic.db", "life.db"):
        _cli(base / name, "summarize", "--extractive")
    print(f"built {base / 'epic.db'} ({len(doc['questions'])} questions) and {base / 'life.db'}")


class LazyModel:
    """The LLM, loaded on first use: a run of configs that never call it (no-llm) never loads it."""

    def __init__(self, settings) -> None:
        self._settings = settings
        self._model = None

    def __getattr__(self, name: str):
        if self._model is None:
            from egocli.models import registry

            self._model = registry.load("llm", self._settings)
        return getattr(self._model, name)


def _settings(db: Path, threads: int | None):
    from egocli.core.config import load_settings

    settings = load_settings(db=db)
    if threads:
        llm = {**settings.section("llm"), "threads": threads}
        settings = replace(settings, options={**settings.options, "llm": llm})
    return settings


def answer_one(store, llm, embedder, item: Item, template: asker.AskRequest) -> dict:
    """Ask one question under one config; the row's answer, prediction, recall and cost (not yet scored)."""
    from egocli.core.errors import EgoError
    from egocli.reasoning.answer import LETTERS
    from egocli.core.timeutil import parse_time_ms

    at_ms = parse_time_ms(item.at)
    req = replace(template, question=item.question, choices=item.choices, at_ms=at_ms)
    started = time.perf_counter()
    try:  # through the ask service, as `egocli ask` answers: scope, evidence (the plan), answer
        from egocli.reasoning.service import AS_IS, AskService

        ans = AskService.using(llm, embedder, preparation=AS_IS).ask(store, req)
        ctx = ans.context
    except EgoError as ex:
        return {"answer": None, "predicted": None, "recall": 0.0, "latency_s": time.perf_counter() - started,
                "tokens": 0, "votes": [], "error": str(ex)}
    return {"answer": ans.text, "predicted": LETTERS.index(ans.letter) if ans.letter else None,
            "recall": report.recall(ctx.storyline.events, item.evidence), "latency_s": round(ans.latency_s, 3),
            "tokens": ans.prompt_tokens + ans.output_tokens, "votes": [v for _, v in ans.votes], "error": None,
            "decided_by": ans.decided_by, "plan_by": plan.by if (plan := _plan(ctx)) is not None else None}


def _plan(ctx):
    """The plan an open question was answered by (None: multiple choice, or no form read)."""
    return ctx.checked.plan if ctx.checked is not None else None


def chosen(text: str) -> list[str]:
    """The configs of a comma-separated list, in the canonical order; an unknown name stops the run."""
    wanted = [c.strip() for c in text.split(",") if c.strip()]
    unknown = [c for c in wanted if c not in CONFIG_NAMES]
    if unknown:
        sys.exit(f"Error: unknown config(s) {', '.join(unknown)} (known: {', '.join(CONFIG_NAMES)})")
    return [c for c in CONFIG_NAMES if c in wanted]


def run(args: argparse.Namespace) -> None:
    """Every chosen config on every question, appending rows, until done or past --until (UTC HH:MM)."""
    from egocli.models import registry
    from egocli.store import Store

    available = configs()
    names = chosen(args.configs)
    if not names:
        sys.exit("Error: no config chosen (--configs full,recent,...)")
    base = home()
    missing = [s for s in args.sets.split(",") if not (base / f"{s}.db").exists()]
    if missing:
        sys.exit(f"Error: no {', '.join(missing)} log in {base}: run `python bench/lifelog.py build` first")
    done, version, stop = runs.done(args.out, "set"), report.method_version(), runs.deadline(args.until)
    embedder, llm, stores = None, None, {}
    with args.out.open("a", encoding="utf-8") as sink:
        for n, item in enumerate(load_items(base, args.sets.split(","))[: args.limit], 1):
            if item.set not in stores:
                settings = _settings(base / f"{item.set}.db", args.threads)
                stores[item.set] = Store.open(settings.db, create=False)
                embedder = registry.load("embedder", settings) if embedder is None else embedder
                llm = LazyModel(settings) if llm is None else llm
            full_row = None
            for name in [c for c in names if (version, c, item.set, item.qid) not in done]:
                if stop is not None and time.time() > stop:
                    print(f"stopped at --until after {n - 1} questions")
                    return
                if name == "votes1" and full_row is not None:
                    row = report.first_vote(full_row)
                else:
                    got = answer_one(stores[item.set], llm, embedder, item, available[name])
                    row = report.scored({"version": version, "config": name, **report.describe(item), **got})
                full_row = row if name == "full" else full_row
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                print(f"{n:3d} {item.set:4s} {item.form:11s} {name:11s} {'ok ' if row['correct'] else 'bad'} "
                      f"recall={row['recall']:.2f} {row['latency_s'] or 0:5.1f}s  {item.question[:50]!r} -> "
                      f"{(row['answer'] or row['error'] or '')[:70]!r}", flush=True)


def recall_table(args: argparse.Namespace) -> None:
    """Context recall only (no LLM): the share of gold evidence each config's context shows, per set and form."""
    from egocli.models import registry
    from egocli.store import Store
    from egocli.core.timeutil import parse_time_ms

    available = configs()
    names = [c for c in chosen(args.configs) if c != "votes1"]
    base, embedder, stores = home(), None, {}
    got: dict[tuple[str, str, str], list[float]] = {}
    for item in load_items(base, args.sets.split(","))[: args.limit]:
        if item.set not in stores:
            settings = _settings(base / f"{item.set}.db", None)
            stores[item.set] = Store.open(settings.db, create=False)
            embedder = registry.load("embedder", settings) if embedder is None else embedder
        for name in names:
            req = replace(available[name], question=item.question, choices=item.choices, at_ms=parse_time_ms(item.at))
            shown = asker.assemble(stores[item.set], req, embedder).storyline.events
            for group in (item.kind, item.form):
                got.setdefault((item.set, group, name), []).append(report.recall(shown, item.evidence))
    print("| set | questions | n | " + " | ".join(names) + " |")
    print("|---|---|---|" + "---|" * len(names))
    for key in sorted({(s, g) for s, g, _ in got}):
        values = [got[(*key, n)] for n in names]
        print(f"| {key[0]} | {key[1]} | {len(values[0])} | " + " | ".join(f"{sum(v) / len(v):.2f}" for v in values) + " |")


def main() -> None:
    """Parse arguments; build, run or tabulate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("build", "run", "table", "recall"))
    parser.add_argument("--out", type=Path, nargs="+", help="JSONL rows (run: one, appended; table: one or more).")
    parser.add_argument("--configs", default=",".join(CONFIG_NAMES), help="Comma-separated configs.")
    parser.add_argument("--sets", default="epic,life", help="Comma-separated sets: epic, life.")
    parser.add_argument("--limit", type=int, default=None, help="At most N questions (round-robin order).")
    parser.add_argument("--until", default=None, help="Stop starting new rows after this UTC time (HH:MM).")
    parser.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: config.toml's).")
    parser.add_argument("--data", type=Path, default=epic_week.DATA, help="build: the EPIC-KITCHENS CSV folder.")
    parser.add_argument("--seed", type=int, default=21, help="build: the EPIC set's seed.")
    parser.add_argument("--version", default=None, help="table: rows of this version (default: the most common).")
    args = parser.parse_args()
    if set(args.sets.split(",")) - {"epic", "life"}:
        parser.error(f"--sets takes epic and/or life, not {args.sets!r}")
    if args.command == "build":
        build(home(), args.data, args.seed)
    elif args.command == "recall":
        recall_table(args)
    elif not args.out:
        parser.error("--out is required")
    elif args.command == "run":
        if len(args.out) != 1:
            parser.error("run writes one --out file")
        args.out = args.out[0]
        args.out.parent.mkdir(parents=True, exist_ok=True)
        run(args)
    else:
        base = Path(os.environ["EGOCLI_HOME"]).expanduser() if os.environ.get("EGOCLI_HOME") else None
        report.table([line for out in args.out for line in out.read_text().splitlines() if line.strip()],
                     CONFIG_NAMES, args.version, base)


if __name__ == "__main__":
    main()
