"""Rows of the life-log runner: scoring, resuming, and the accuracy tables per set, form and config."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from bench import runs
from bench.sets import checker, lifeweek
from bench.sets.items import Item

ROOT = Path(__file__).resolve().parents[2]
SCORING = {"checker.py", "report.py"}
"""Re-applied by `table` to stored answers, so they are not part of a row's version."""


def method_version() -> str:
    """A short fingerprint of egocli/reasoning and of the sets (their code and files, not the scoring code):
    `table` never mixes rows of different versions."""
    digest = hashlib.sha1()
    paths = sorted((ROOT / "egocli" / "reasoning").glob("*.py")) + \
        sorted(p for p in (ROOT / "bench" / "sets").iterdir() if p.is_file() and p.name not in SCORING)
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def _ms(value: str | int) -> int:
    from egocli.core.timeutil import parse_time_ms

    return value if isinstance(value, int) else parse_time_ms(value)


def recall(shown: Sequence, evidence: Sequence[tuple[str | int, str]]) -> float:
    """Share of the evidence events (time, content) present among the context's events."""
    if not evidence:
        return 0.0
    have = {(e.start_ms // 1000, e.content) for e in shown}
    return sum((_ms(t) // 1000, text) in have for t, text in evidence) / len(evidence)


def describe(item: Item) -> dict:
    """The item's fields a row carries (enough to re-score it)."""
    return {"set": item.set, "id": item.qid, "form": item.form, "kind": item.kind, "question": item.question,
            "at": item.at, "gold": item.gold, "correct_idx": item.correct}


def scored(row: dict) -> dict:
    """The row with `correct` set: the letter for multiple choice, the checker for open answers."""
    if row["kind"] == "mcq":
        return {**row, "correct": row["predicted"] is not None and row["predicted"] == row["correct_idx"]}
    gold = row["gold"]
    if "time" in gold and "ms" not in gold:
        gold = {**gold, "ms": _ms(gold["time"])}
    ok = row["answer"] is not None and checker.check(row["answer"], gold, _ms(row["at"]), row["question"])
    return {**row, "correct": ok}


def first_vote(full: dict) -> dict:
    """The votes1 row implied by a full row: for multiple choice its first variant's letter (same prompt, greedy
    decoding); an open question has one variant, so the row is full's."""
    row = {**full, "config": "votes1", "latency_s": None, "derived": "full"}
    if full["kind"] != "mcq" or not full["votes"]:
        return row
    letter = full["votes"][0]
    predicted = "ABCDE".index(letter) if letter else None
    return scored({**row, "predicted": predicted, "votes": [letter],
                   "tokens": full["tokens"] // max(len(full["votes"]), 1)})


def current_golds(base: Path | None) -> dict[tuple[str, str], tuple[str, dict]]:
    """(set, id) -> (question, gold) of today's sets: the committed week, and the generated EPIC set in base."""
    out = {("life", q["id"]): (q["question"], q["gold"]) for q in json.loads(lifeweek.OPEN.read_text())}
    epic = base / "epic_week.json" if base is not None else None
    if epic is not None and epic.exists():
        out |= {("epic", q["id"]): (q["question"], q["gold"]) for q in json.loads(epic.read_text())["questions"]}
    return out


def refreshed(row: dict, golds: dict[tuple[str, str], tuple[str, dict]]) -> dict:
    """The row with today's gold when today's set asks the same question (a corrected gold applies to old rows)."""
    question, gold = golds.get((row["set"], row["id"]), (None, None))
    return {**row, "gold": gold} if row["kind"] == "open" and question == row["question"] else row


def table(lines: Sequence[str], order: Sequence[str], version: str | None = None, base: Path | None = None) -> None:
    """Markdown tables: per set x config, then per set/form x config (rows re-scored with today's checker and
    golds); only questions every config of the set answered are counted."""
    golds = current_golds(base)
    rows = [scored(refreshed(json.loads(line), golds)) for line in lines]
    versions = [r["version"] for r in rows]
    keep = version or (max(set(versions), key=versions.count) if versions else None)
    rows = [r for r in rows if r["version"] == keep]
    print(f"method version {keep} ({len(rows)} rows)")
    for name in sorted({r["set"] for r in rows}):
        _set_table(name, [r for r in rows if r["set"] == name], order)


def _set_table(name: str, rows: list[dict], order: Sequence[str]) -> None:
    by_config: dict[str, dict[str, dict]] = {}
    for r in rows:
        by_config.setdefault(r["config"], {})[r["id"]] = r
    common = set.intersection(*(set(v) for v in by_config.values()))
    names = [c for c in order if c in by_config]
    print(f"\n### set {name}: {len(common)} questions answered by every config ({', '.join(names)})\n")
    print("| config | kind | accuracy (95% CI) | recall | mean latency | tokens/q |")
    print("|---|---|---|---|---|---|")
    for config in names:
        for kind in ("open", "mcq"):
            got = [by_config[config][i] for i in sorted(common) if by_config[config][i]["kind"] == kind]
            if got:
                k, n = sum(r["correct"] for r in got), len(got)
                lo, hi = runs.wilson(k, n)
                timed = [r["latency_s"] for r in got if r.get("latency_s") is not None]
                latency = f"{sum(timed) / len(timed):.1f} s" if timed else "(derived)"
                print(f"| {config} | {kind} | {k}/{n} = {k / n:.0%} ({lo:.0%}-{hi:.0%}) | "
                      f"{sum(r['recall'] for r in got) / n:.2f} | {latency} | {sum(r['tokens'] for r in got) / n:.0f} |")
    forms = sorted({by_config[names[0]][i]["form"] for i in common}) if names else []
    print("\n| form | n | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for form in forms:
        ids = [i for i in common if by_config[names[0]][i]["form"] == form]
        cells = [str(sum(by_config[c][i]["correct"] for i in ids)) for c in names]
        print(f"| {form} | {len(ids)} | " + " | ".join(cells) + " |")
