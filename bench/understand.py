"""Does `ask` understand people's phrasing? Canonical questions and their paraphrases, asked per config.

Resumable, one JSONL row per question x config.

    export EGOCLI_HOME=.cache/lifelog           # shares epic.db and life.db with bench/lifelog.py
    python bench/understand.py build            # epic.db, life.db, everyday.db (a log that exists is kept: --force)
    nice -n 19 python bench/understand.py run [--configs no-llm,full] [--sets epic,life,everyday] [--limit N]
    python bench/understand.py table            # per set and config: canonical vs paraphrased accuracy, ...

Sets, each with its own log in $EGOCLI_HOME:

- `epic`: the EPIC-KITCHENS week (bench/sets/epic_week.py, generated at build from ../shared/data/epic-kitchens
  into $EGOCLI_HOME/epic_week.json: CC BY-NC, never committed) and 5 paraphrases of each question from the
  templates of bench/sets/paraphrase.py ($EGOCLI_HOME/epic_paraphrases.json); log epic.db.
- `life`: the constructed week's 40 open questions (bench/sets/lifeweek_open.json) and 5 hand-written
  paraphrases of each (bench/sets/lifeweek_paraphrases.json); log life.db.
- `everyday`: two ordinary days (bench/sets/everyday*.{txt,jsonl,json}), questions only in their own words (no
  paraphrases); log everyday.db.
- `errands`: two days of a retired woman (bench/sets/errands*), 90 questions in varied everyday wording,
  written by someone who had not seen egocli answer; log errands.db.
- `shifts`: a man's shift at a hardware shop and a Sunday with his father and daughter (bench/sets/shifts*), 117
  questions, written by someone who had read neither egocli's code nor its answers; log shifts.db.
- `weekdays`: two days of a self-employed gardener (bench/sets/weekdays*), 190 questions written the same way,
  committed before egocli was first run on them; log weekdays.db.
- `visits`: two days of a retired man with low vision and a mild memory problem (bench/sets/visits*), 150
  questions written the same way, committed before egocli was first run on them; log visits.db.
- `flatshare`: two days of a woman with ADHD and memory trouble in a shared flat, hybrid office work
  (bench/sets/flatshare*), 150 questions written the same way, committed before egocli was first run on them;
  log flatshare.db.
- `market`: two days of a market stallholder with diabetes and early hearing loss who cares for his wife, a
  wheelchair user (bench/sets/market*), 150 questions written the same way, committed before egocli was first run on
  them; log market.db.
- `garden`: two days of a retired teacher of 71 with macular degeneration and mild memory trouble who lives alone,
  keeps an allotment and helps at a food bank (bench/sets/garden*), 150 questions written the same way, committed
  before egocli was first run on them; log garden.db.
- `school`: two days of a father of 39 with memory, attention and headache trouble after a head injury, on a phased
  return to an office job, who does the school run for his two children while his partner works shifts
  (bench/sets/school*), 150 questions written the same way, committed before egocli was first run on them; log
  school.db.
- `nights`: two days of a hospital night porter of 52 with sleep apnoea, tinnitus and mild memory trouble after a
  stroke, a shift across midnight and a night off, his days turned upside down (bench/sets/nights*), 150 questions
  written the same way, committed before egocli was first run on them; log nights.db.
- `clinic`: two days of a library assistant of 46 with relapsing multiple sclerosis (fatigue, blurred sight, lost
  words) who helps her widowed father: a clinic day by train, a swimming gala and a barbecue moved twice
  (bench/sets/clinic*), 150 questions written the same way, committed before egocli was first run on them; log
  clinic.db.
- `depot`: two days of a parcel van driver of 38 with ADHD (a round from the depot, then a day off with a GP review
  and an MOT), and `terrace`: two days of a retired bus mechanic of 74 with early Alzheimer's and his wife
  (bench/sets/depot*, terrace*), 170 questions each (the forms above and 20 "other" questions of kinds a person
  would ask), written the same way, committed before egocli was first run on them; logs depot.db, terrace.db.
- `bakery`: two days of an early-shift supermarket baker of 55 with type 1 diabetes and dyslexia (a shift with an
  oven fault and a hypo, then a day off with the practice nurse and his grandchildren), and `campus`: two days of a
  student of 20 with epilepsy in a shared flat (lectures moved, a café shift, an aura, a bill split four ways)
  (bench/sets/bakery*, campus*), 170 questions each in the same mix, written the same way by helpers who read
  neither egocli's code nor its answers, committed before egocli was first run on them (session 28); logs
  bakery.db, campus.db.
- `salon`: two days of a hairdresser of 44 with fibromyalgia who rents a chair in a salon (a day of clients, then a
  day off with the GP, her mother's shopping and parcels), and `rounds`: two days of a home-care worker of 51 with
  type 2 diabetes and ADHD (a split shift of visits by car, then a day off with the diabetes nurse, the garage and a
  grandson) (bench/sets/salon*, rounds*), 130 questions each weighted to the weakest forms (count, yes, no, last,
  leave, arrive, after, before ...), written by helpers who read neither egocli's code nor its answers, committed
  before egocli was first run on them (session 31). Dev sets: their answers are read. Logs salon.db, rounds.db.

Probes: a day-set may have NAME_probes.json, more questions of the weakest forms (before, after, last, count,
dur, leave, arrive, yes/no) over the same log, ids PREFIX-p-FORM-NN, written in session 30 by helpers who read
only the logs, committed before egocli was run on them; they are asked with their set.

`--limit N` takes the first N canonical questions of each set (round-robin over forms) with all their
paraphrases, so the gap compares the same questions. Rows carry `canonical` (the canonical id), `variant`
("canonical" or "paraphrase"), the answer, `correct`, `strict`, `hedged` and `latency_s`.

Scoring (re-applied by `table` to stored answers, with today's golds when the question is unchanged): the
checker of bench/sets/checker.py, reading a yes/no answer that restates the order against the canonical
question's wording (the same meaning: its rule needs a 'before' to split on); and, unlike the checker alone,
an answer saying it found nothing is right for a "no" gold (`strict` is the checker alone). A wrong answer that
does not hedge (bench/sets/hedge.py) is confident-wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script; a PYTHONPATH naming the checkout keeps its order
    sys.path.insert(0, str(ROOT))

from bench import runs  # noqa: E402
from bench.sets import checker, epic_week, everyday, hedge, lifeweek, paraphrase  # noqa: E402

SETS = ("epic", "life", "everyday", "errands", "shifts", "weekdays", "visits", "flatshare", "market", "garden",
        "school", "nights", "clinic", "depot", "terrace", "bakery", "campus", "salon", "rounds")
LIFE_PARAPHRASES = ROOT / "bench" / "sets" / "lifeweek_paraphrases.json"
DEFAULT_CONFIGS = "no-llm,full"


def home() -> Path:
    """$EGOCLI_HOME (required: the logs and the generated EPIC set live there)."""
    value = os.environ.get("EGOCLI_HOME")
    if not value:
        sys.exit("Error: set EGOCLI_HOME (e.g. .cache/lifelog): the logs are built there")
    return Path(value).expanduser()


# ---------------------------------------------------------------------------------------------------- build


def build(base: Path, sets: list[str], data: Path, seed: int, force: bool) -> None:
    """Each chosen set's log through `egocli import` + `summarize --extractive`; a log that exists is kept
    (importing twice would double its events) unless --force. The EPIC set and its paraphrases are generated
    beside the logs every time (from the kept epic_week.json when the log is kept)."""
    from bench import lifelog

    base.mkdir(parents=True, exist_ok=True)
    for name in sets:
        db = base / f"{name}.db"
        if force:
            for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
                path.unlink(missing_ok=True)
        keep = db.exists()
        if name == "epic":
            doc_path = base / "epic_week.json"
            if keep and not doc_path.exists():
                sys.exit(f"Error: {db} exists without the epic_week.json it was built from: build --force")
            if keep:
                doc = json.loads(doc_path.read_text())
            else:
                doc = epic_week.build(data, seed)
                doc_path.write_text(json.dumps(doc, indent=1))
            made = paraphrase.make_all(doc["questions"])
            (base / "epic_paraphrases.json").write_text(json.dumps(made, indent=1))
            if not keep:
                for day in doc["days"]:
                    lifelog._cli(db, "import", str(data / day["file"]), "--start", day["start"])
            print(f"epic: {len(doc['questions'])} questions, {len(made)} paraphrases -> {base}")
        elif name == "life":
            if not keep:
                lifelog._cli(db, "import", str(lifeweek.EVENTS))
            print(f"life: {len(json.loads(lifeweek.OPEN.read_text()))} questions, "
                  f"{len(json.loads(LIFE_PARAPHRASES.read_text()))} paraphrases")
        else:
            days = everyday.DAYS[name]
            events = days.build_events()
            if not days.events.exists() or days.events.read_text(encoding="utf-8") != everyday.jsonl(events):
                sys.exit(f"Error: bench/sets/{days.events.name} differs from its script: run python bench/sets/everyday.py")
            problems = everyday.check(events, days.all_questions())
            if problems:
                sys.exit(f"Error: {name} questions: " + "; ".join(problems[:5]))
            if not keep:
                lifelog._cli(db, "import", str(days.events))
            print(f"{name}: {len(days.all_questions())} questions")
        if not keep:
            lifelog._cli(db, "summarize", "--extractive")
            print(f"built {db}")
        else:
            print(f"kept {db} (--force rebuilds it)")


# ---------------------------------------------------------------------------------------------------- questions


def _round_robin(questions: list[dict]) -> list[dict]:
    """Questions in round-robin order over their forms (a --limit stays balanced)."""
    queues: dict[str, list[dict]] = {}
    for q in questions:
        queues.setdefault(q["form"], []).append(q)
    out: list[dict] = []
    for i in range(max((len(q) for q in queues.values()), default=0)):
        out += [q[i] for _, q in sorted(queues.items()) if i < len(q)]
    return out


def load_set(base: Path | None, name: str) -> list[tuple[dict, list[dict]]]:
    """(canonical question, its paraphrases) of one set, canonical questions round-robin over forms."""
    if name == "epic":
        if base is None or not (base / "epic_week.json").exists():
            return []
        canon = json.loads((base / "epic_week.json").read_text())["questions"]
        para_path = base / "epic_paraphrases.json"
        paras = json.loads(para_path.read_text()) if para_path.exists() else paraphrase.make_all(canon)
    elif name == "life":
        canon = json.loads(lifeweek.OPEN.read_text())
        paras = json.loads(LIFE_PARAPHRASES.read_text())
    else:
        canon, paras = everyday.DAYS[name].all_questions(), []
    by_canon: dict[str, list[dict]] = {}
    for p in paras:
        by_canon.setdefault(p["canonical"], []).append(p)
    return [(q, by_canon.get(q["id"], [])) for q in _round_robin(canon)]


def plan(base: Path, sets: list[str], limit: int | None) -> list[tuple[str, dict, dict | None]]:
    """(set, question, canonical or None) to ask: each set's first `limit` canonical questions with their
    paraphrases right after them, the sets interleaved group by group."""
    groups = {name: load_set(base, name)[:limit] for name in sets}
    out: list[tuple[str, dict, dict | None]] = []
    for i in range(max((len(g) for g in groups.values()), default=0)):
        for name in sets:
            if i < len(groups[name]):
                q, paras = groups[name][i]
                out += [(name, q, None)] + [(name, p, q) for p in paras]
    return out


# ---------------------------------------------------------------------------------------------------- scoring


def _ms(value: str | int) -> int:
    from egocli.core.timeutil import parse_time_ms

    return value if isinstance(value, int) else parse_time_ms(value)


def score(row: dict) -> dict:
    """The row with `strict` (the checker, against the canonical question's wording), `correct` (strict, or a
    found-nothing answer to a "no" gold) and `hedged` set."""
    gold, answer = row["gold"], row.get("answer")
    if "time" in gold and "ms" not in gold:
        gold = {**gold, "ms": _ms(gold["time"])}
    strict = bool(answer) and checker.check(answer, gold, _ms(row["at"]), row.get("canonical_question") or row["question"])
    nothing_right = bool(answer) and gold["kind"] == "yesno" and not gold["yes"] and hedge.says_nothing(answer)
    return {**row, "strict": strict, "correct": strict or nothing_right, "hedged": hedge.hedged(answer)}


def current_golds(base: Path | None) -> dict[tuple[str, str], tuple[str, dict]]:
    """(set, id) -> (question, gold) of today's sets, paraphrases included."""
    out = {}
    for name in SETS:
        for q, paras in load_set(base, name):
            for item in (q, *paras):
                out[(name, item["id"])] = (item["question"], item["gold"])
    return out


# ---------------------------------------------------------------------------------------------------- run


def run(args: argparse.Namespace) -> None:
    """Every chosen config on every planned question, appending rows, until done or past --until (UTC HH:MM)."""
    from bench import lifelog
    from bench.sets import report
    from bench.sets.items import Item
    from egocli.models import registry
    from egocli.store import Store

    available = lifelog.configs()
    names = lifelog.chosen(args.configs)
    if not names:
        sys.exit("Error: no config chosen (--configs no-llm,full,...)")
    base = home()
    missing = [s for s in args.sets if not (base / f"{s}.db").exists()]
    if missing:
        sys.exit(f"Error: no {', '.join(missing)} log in {base}: run `python bench/understand.py build` first")
    todo = plan(base, args.sets, args.limit)
    done, version, stop = runs.done(args.out, "set"), report.method_version(), runs.deadline(args.until)
    embedder, llm, stores = None, None, {}
    with args.out.open("a", encoding="utf-8") as sink:
        for n, (name, q, canon) in enumerate(todo, 1):
            if name not in stores:
                settings = lifelog._settings(base / f"{name}.db", args.threads)
                stores[name] = Store.open(settings.db, create=False)
                embedder = registry.load("embedder", settings) if embedder is None else embedder
                llm = lifelog.LazyModel(settings) if llm is None else llm
            item = Item(name, q["id"], q["form"], q["question"], q["at"], gold=q["gold"],
                        evidence=tuple(map(tuple, q.get("evidence", []))))
            described = {"version": version, "set": name, "id": q["id"], "canonical": (canon or q)["id"],
                         "variant": "paraphrase" if canon else "canonical", "form": q["form"], "question": q["question"],
                         "canonical_question": (canon or q)["question"], "at": q["at"], "gold": q["gold"]}
            full_row = None
            for config in [c for c in names if (version, c, name, q["id"]) not in done]:
                if stop is not None and time.time() > stop:
                    print(f"stopped at --until after {n - 1} questions")
                    return
                if config == "votes1" and full_row is not None:  # an open question has one variant: full's row
                    row = {**full_row, "config": "votes1", "latency_s": None, "derived": "full"}
                else:
                    got = lifelog.answer_one(stores[name], llm, embedder, item, available[config])
                    row = score({**described, "config": config, **got})
                full_row = row if config == "full" else full_row
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                mark = "ok " if row["correct"] else "bad" if row["hedged"] else "BAD"
                print(f"{n:4d} {name:8s} {q['id']:22s} {config:8s} {mark} {row['latency_s'] or 0:5.1f}s  "
                      f"{q['question'][:50]!r} -> {(row['answer'] or row['error'] or '')[:70]!r}", flush=True)


# ---------------------------------------------------------------------------------------------------- table


def _pct(k: int, n: int) -> str:
    return f"{k}/{n} = {k / n:.0%}" if n else "-"


def table(lines: list[str], version: str | None, base: Path | None, by_form: bool) -> None:
    """Per set and config: canonical and paraphrased accuracy, the gap in points, confident-wrong answers
    (canonical + paraphrased), p50 latency; paraphrases count only where their canonical row is there too."""
    from bench.lifelog import CONFIG_NAMES

    golds = current_golds(base)
    rows = []
    for line in lines:
        row = json.loads(line)
        question, gold = golds.get((row["set"], row["id"]), (None, None))
        rows.append(score({**row, "gold": gold} if question == row["question"] else row))
    versions = [r["version"] for r in rows]
    keep = version or (max(set(versions), key=versions.count) if versions else None)
    rows = [r for r in rows if r["version"] == keep]
    print(f"method version {keep} ({len(rows)} rows)\n")
    print("| set | config | canonical | paraphrased | gap (points) | confident-wrong | p50 latency |")
    print("|---|---|---|---|---|---|---|")
    order = {c: i for i, c in enumerate(CONFIG_NAMES)}
    for name in [s for s in SETS if any(r["set"] == s for r in rows)]:
        for config in sorted({r["config"] for r in rows if r["set"] == name}, key=lambda c: order.get(c, 99)):
            mine = [r for r in rows if r["set"] == name and r["config"] == config]
            canon = {r["canonical"]: r for r in mine if r["variant"] == "canonical"}
            paras = [r for r in mine if r["variant"] == "paraphrase" and r["canonical"] in canon]
            kc, kp = sum(r["correct"] for r in canon.values()), sum(r["correct"] for r in paras)
            gap = f"{(kc / len(canon) - kp / len(paras)) * 100:+.0f}" if canon and paras else "-"
            wrong = [r for r in [*canon.values(), *paras] if not r["correct"] and not r["hedged"]]
            cw_c = sum(r["variant"] == "canonical" for r in wrong)
            timed = [r["latency_s"] for r in [*canon.values(), *paras] if r.get("latency_s") is not None]
            p50 = f"{statistics.median(timed):.1f} s" if timed else "-"
            print(f"| {name} | {config} | {_pct(kc, len(canon))} | {_pct(kp, len(paras))} | {gap} | "
                  f"{cw_c} + {len(wrong) - cw_c} | {p50} |")
    if by_form:
        _form_table(rows, order)


def _form_table(rows: list[dict], order: dict[str, int]) -> None:
    print("\n| set | form | config | canonical | paraphrased |")
    print("|---|---|---|---|---|")
    keys = sorted({(r["set"], r["form"], r["config"]) for r in rows},
                  key=lambda k: (SETS.index(k[0]) if k[0] in SETS else 9, k[1], order.get(k[2], 99)))
    for name, form, config in keys:
        mine = [r for r in rows if (r["set"], r["form"], r["config"]) == (name, form, config)]
        canon = {r["canonical"]: r for r in mine if r["variant"] == "canonical"}
        paras = [r for r in mine if r["variant"] == "paraphrase" and r["canonical"] in canon]
        print(f"| {name} | {form} | {config} | {_pct(sum(r['correct'] for r in canon.values()), len(canon))} | "
              f"{_pct(sum(r['correct'] for r in paras), len(paras))} |")


# ---------------------------------------------------------------------------------------------------- main


def main() -> None:
    """Parse arguments; build, run or tabulate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="Logs and generated sets live in $EGOCLI_HOME (required).")
    parser.add_argument("command", choices=("build", "run", "table"))
    parser.add_argument("--out", type=Path, nargs="+",
                        help="JSONL rows (run: one, appended; table: one or more). Default $EGOCLI_HOME/understand.jsonl.")
    parser.add_argument("--configs", default=DEFAULT_CONFIGS, help=f"Comma-separated configs (default {DEFAULT_CONFIGS}).")
    parser.add_argument("--sets", default=",".join(SETS), help="Comma-separated sets: " + ", ".join(SETS) + ".")
    parser.add_argument("--limit", type=int, default=None,
                        help="At most N canonical questions per set (with their paraphrases).")
    parser.add_argument("--until", default=None, help="run: stop starting new rows after this UTC time (HH:MM).")
    parser.add_argument("--threads", type=int, default=None, help="run: llama.cpp threads (default: config.toml's).")
    parser.add_argument("--data", type=Path, default=epic_week.DATA, help="build: the EPIC-KITCHENS CSV folder.")
    parser.add_argument("--seed", type=int, default=21, help="build: the EPIC set's seed.")
    parser.add_argument("--force", action="store_true", help="build: rebuild logs that exist.")
    parser.add_argument("--version", default=None, help="table: rows of this version (default: the most common).")
    parser.add_argument("--by-form", action="store_true", help="table: also per form.")
    args = parser.parse_args()
    args.sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    if not args.sets or set(args.sets) - set(SETS):
        parser.error(f"--sets takes some of {', '.join(SETS)}, not {','.join(args.sets)!r}")
    if args.command == "build":
        build(home(), args.sets, args.data, args.seed, args.force)
        return
    outs = args.out or [home() / "understand.jsonl"]
    if args.command == "run":
        if len(outs) != 1:
            parser.error("run writes one --out file")
        args.out = outs[0]
        args.out.parent.mkdir(parents=True, exist_ok=True)
        run(args)
    else:
        base = Path(os.environ["EGOCLI_HOME"]).expanduser() if os.environ.get("EGOCLI_HOME") else None
        lines = [line for out in outs if out.exists() for line in out.read_text().splitlines() if line.strip()]
        table(lines, args.version, base, args.by_form)


if __name__ == "__main__":
    main()
