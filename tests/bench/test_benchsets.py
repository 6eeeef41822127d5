"""The life-log evaluation sets: generated deterministically, every gold answer supported by the log as
`egocli import` stores it, and the runner working end to end on a fast config."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from bench.sets import checker, epic_week, everyday, lifeweek, lifeweek_mcq, lifeweek_questions
from egocli.reasoning.scope import parse_scope
from egocli.store import Store
from egocli.core.timeutil import local, parse_time_ms
from tests import console

REPO = Path(__file__).resolve().parents[2]
EPIC = REPO.parent / "shared" / "data" / "epic-kitchens"
needs_epic = pytest.mark.skipif(not EPIC.is_dir(), reason=f"shared EPIC-KITCHENS narrations not found at {EPIC}")
FAST = {"EGOCLI_EMBEDDER": "fake", "EGOCLI_LLM": "fake", "EGOCLI_SUMMARIZER": "fake"}


def egocli(*args: str) -> subprocess.CompletedProcess:
    """The installed console script (this checkout's package on PYTHONPATH), with fake models."""
    exe = console.egocli()
    env = {**os.environ, **FAST, "PYTHONPATH": str(REPO)}
    return subprocess.run([exe, *args], capture_output=True, text=True, env=env, check=False)


def imported(db: Path, *args: str) -> None:
    """`egocli --db DB import ...`, which must succeed."""
    done = egocli("--db", str(db), "import", *args)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def epic_doc() -> dict:
    """The EPIC week set with the default seed."""
    if not EPIC.is_dir():
        pytest.skip(f"shared EPIC-KITCHENS narrations not found at {EPIC}")
    return epic_week.build(EPIC, 21)


@needs_epic
def test_epic_set_is_deterministic_and_seeded(epic_doc: dict) -> None:
    assert epic_week.build(EPIC, 21) == epic_doc
    assert epic_week.build(EPIC, 22)["questions"] != epic_doc["questions"]
    questions = epic_doc["questions"]
    forms = Counter(q["form"] for q in questions)
    assert len(questions) >= 40
    assert all(forms[f] >= 6 for f in ("last", "where", "after", "count", "order")), forms
    assert len({q["question"] for q in questions}) == len(questions)
    assert [d["day"] for d in epic_doc["days"]] == list(range(8))


@needs_epic
def test_epic_set_works_on_any_folder_of_narrations(tmp_path: Path) -> None:
    for name in ("P02_04.csv", "P25_05.csv", "P22_12.csv"):
        (tmp_path / name).symlink_to(EPIC / name)
    doc = epic_week.build(tmp_path, 5, per_form=4)
    assert len(doc["days"]) == 3 and len(doc["questions"]) >= 15


def _csv_rows(doc: dict) -> list[dict]:
    """Every narration row with its absolute start, read straight from the CSVs (not through the generator)."""
    rows = []
    for day in doc["days"]:
        anchor = parse_time_ms(day["start"])
        with open(EPIC / day["file"], newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                hh, mm, ss = row["start_timestamp"].split(":")
                row["t"] = anchor + round((int(hh) * 3600 + int(mm) * 60 + float(ss)) * 1000)
                row["day"] = day["day"]
                rows.append(row)
    return rows


@needs_epic
def test_epic_gold_answers_are_in_the_imported_log(epic_doc: dict, tmp_path: Path) -> None:
    db = tmp_path / "epic.db"
    for day in epic_doc["days"]:
        imported(db, str(EPIC / day["file"]), "--start", day["start"])
    events = list(Store.open(db, create=False).events())
    assert len(events) == sum(1 for _ in _csv_rows(epic_doc))
    by_key = {(e.start_ms, e.content): e for e in events}
    rows = _csv_rows(epic_doc)
    for q in epic_doc["questions"]:
        shown = [by_key.get((t, text)) for t, text in q["evidence"]]
        assert all(shown) and all(e.start_ms < q["at_ms"] for e in shown), q["id"]
        _check_epic_gold(q, shown, events, rows)


def _check_epic_gold(q: dict, shown: list, events: list, rows: list[dict]) -> None:
    gold, at = q["gold"], q["at_ms"]
    day_of = {r["t"]: r["day"] for r in rows}
    if gold["kind"] == "time":
        hit = shown[0]
        assert gold["ms"] == hit.start_ms
        assert not [e for e in events if e.content == hit.content and hit.start_ms < e.start_ms < at], q["id"]
        assert checker.check(f"on {local(hit.start_ms):%A at %H:%M}", gold, at)
    elif gold["kind"] == "count":
        same = [r for r in rows if (r["verb"], r["noun"]) == tuple(q["action"]) and r["t"] < at]
        scoped = re.search(r"\b(today|yesterday|on \w+day)\b", q["question"])
        direct = [r for r in same if not scoped or r["day"] == day_of[shown[0].start_ms]]
        assert gold["n"] == len(direct) == len(shown), q["id"]
        assert checker.check(f"{gold['n']} times", gold, at)
    elif q["form"] == "exists":
        window = parse_scope(q["question"], at).windows[0]  # the day asked about
        that_day = [r for r in rows if (r["verb"], r["noun"]) == tuple(q["action"]) and window[0] <= r["t"] < window[1]]
        assert bool(that_day) is gold["yes"] and (not gold["yes"] or len(that_day) == len(shown)), q["id"]
        assert checker.check("Yes." if gold["yes"] else "No.", gold, at)
    elif gold["kind"] == "first":
        early, late = sorted(shown, key=lambda e: e.start_ms)
        said = f"{early.content} first, then {late.content}"
        assert checker.check(said, gold, at) and not checker.check(f"{late.content} first", gold, at), q["id"]
    elif q["form"] == "ago":
        hit = shown[0]
        assert gold["ms"] == at - hit.start_ms, q["id"]
        assert not [e for e in events if e.content == hit.content and hit.start_ms < e.start_ms < at], q["id"]
    elif gold["kind"] == "yesno":
        a, b = shown
        assert (a.start_ms < b.start_ms) is gold["yes"], q["id"]
        assert checker.check("Yes." if gold["yes"] else "No.", gold, at)
    elif gold["kind"] == "words":
        answer = shown[-1].content  # where: the put itself; after/before: the neighbouring action
        assert checker.check(answer, gold, at), (q["id"], answer, gold)
    else:
        day = [e for e in events if day_of[e.start_ms] == day_of[shown[0].start_ms]]
        span = shown[0].end_ms - shown[0].start_ms if len(shown) == 1 else \
            max(e.end_ms for e in day) - min(e.start_ms for e in day)
        assert gold["ms"] == span, q["id"]


def test_lifeweek_files_are_what_the_builder_writes() -> None:
    events, mcq, open_ = lifeweek.build()
    assert lifeweek.EVENTS.read_text() == "".join(json.dumps(e.as_json()) + "\n" for e in events)
    assert json.loads(lifeweek.MCQ.read_text()) == mcq
    assert json.loads(lifeweek.OPEN.read_text()) == open_
    assert lifeweek.build() == (events, mcq, open_)
    assert 300 <= len(events) <= 2500 and {e.modality for e in events} == {"visual", "speech", "text", "note"}
    assert len(mcq) >= 30 and len(open_) >= 30
    assert {q["form"] for q in mcq.values()} == {"span", "thing", "order"}
    assert {q["form"] for q in open_} == {"last", "where", "after", "count", "order", "duration"}


@pytest.fixture(scope="module")
def life_events(tmp_path_factory: pytest.TempPathFactory) -> list:
    """The committed week as `egocli import` stores it."""
    db = tmp_path_factory.mktemp("life") / "life.db"
    imported(db, str(lifeweek.EVENTS))
    return list(Store.open(db, create=False).events())


def _found(events: list, pattern: str, modality: str | None = None, day: str | None = None,
           before: int | None = None) -> list:
    rx = re.compile(pattern, re.IGNORECASE)
    return [e for e in events if rx.search(e.content) and (modality is None or e.modality == modality)
            and (day is None or local(e.start_ms).date().isoformat() == day) and (before is None or e.start_ms < before)]


def test_lifeweek_open_golds_hold_in_the_imported_log(life_events: list) -> None:
    assert len(life_events) == len(lifeweek.EVENTS.read_text().splitlines())
    index = {(e.start_ms, e.content) for e in life_events}
    specs = {qid: rule for qid, _, _, _, rule in lifeweek_questions.OPEN}
    for q in json.loads(lifeweek.OPEN.read_text()):
        at, gold, rule = parse_time_ms(q["at"]), q["gold"], specs[q["id"]]
        assert all((parse_time_ms(t), text) in index for t, text in q["evidence"]), q["id"]
        if rule[0] == "last":
            newest = _found(life_events, rule[1], rule[2], before=at)[-1]
            assert parse_time_ms(gold["time"]) == newest.start_ms, q["id"]
            assert checker.check(f"on {local(newest.start_ms):%A at %H:%M}", {**gold, "ms": newest.start_ms}, at)
        elif rule[0] == "count":
            assert gold["n"] == len(_found(life_events, rule[1], rule[2], rule[3], at)), q["id"]
        elif rule[0] == "order":
            a = _found(life_events, rule[1], day=rule[3], before=at)
            b = _found(life_events, rule[2], day=rule[3], before=at)
            assert gold["yes"] is (a[-1].start_ms < b[0].start_ms) and (a[0].start_ms < b[0].start_ms) is gold["yes"]
        elif rule[0] == "words":
            assert any(checker.check(text, gold, at) for _, text in q["evidence"]), q["id"]
        else:
            first, last = (parse_time_ms(t) for t, _ in q["evidence"])
            assert gold["ms"] == last - first > 0


def test_lifeweek_choice_golds_hold_in_the_imported_log(life_events: list) -> None:
    index = {(e.start_ms, e.content) for e in life_events}
    questions = json.loads(lifeweek.MCQ.read_text())
    for qid, q in questions.items():
        assert len(q["choices"]) == 5 and len({json.dumps(c) for c in q["choices"]}) == 5, qid
        assert 0 <= q["correct_idx"] < 5 and set(q) >= {"inputs", "question", "choices", "correct_idx", "at"}
        assert all((parse_time_ms(t), text) in index for t, text in q["evidence"]), qid
    for qid, _, _, (pattern, day, _style) in lifeweek_mcq.SPANS:
        q = questions[qid]
        hit = _found(life_events, pattern, day=day)[0]
        clock = re.findall(r"\d{2}:\d{2}", q["choices"][q["correct_idx"]])
        assert clock[0] <= f"{local(hit.start_ms):%H:%M}" <= clock[1], qid
        for i, option in enumerate(q["choices"]):  # no other option holds an event of the same kind
            lo, hi = re.findall(r"\d{2}:\d{2}", option)
            same_day = [e for e in _found(life_events, pattern) if i != q["correct_idx"]
                        and (day is None or local(e.start_ms).date().isoformat() == day)]
            assert not any(lo <= f"{local(e.start_ms):%H:%M}" < hi and (day or option.startswith(
                f"{local(e.start_ms):%A}")) for e in same_day), (qid, option)
    for qid, _, at, items, day in lifeweek_mcq.ORDERS:
        q = questions[qid]
        firsts = sorted((_found(life_events, p, day=day, before=parse_time_ms(at))[0].start_ms, name)
                        for name, p in items)
        assert q["choices"][q["correct_idx"]] == [name for _, name in firsts], qid


def test_lifeweek_choices_load_through_egocli_eval() -> None:
    from egocli.usecases import evaluate

    items = evaluate.load_questions(lifeweek.MCQ)
    assert len(items) >= 30 and all(len(i.choices) == 5 for i in items)


@needs_epic
def test_runner_builds_runs_resumes_and_tabulates(tmp_path: Path) -> None:
    env = {**os.environ, **FAST, "EGOCLI_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO)}
    out = tmp_path / "rows.jsonl"
    runner = [sys.executable, str(REPO / "bench" / "lifelog.py")]
    build = subprocess.run([*runner, "build"], capture_output=True, text=True, env=env, check=False)
    assert build.returncode == 0, build.stderr
    cmd = [*runner, "run", "--out", str(out), "--limit", "12", "--configs", "recent,full,votes1,no-llm"]
    first = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    assert first.returncode == 0, first.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    configs = {r["config"] for r in rows}
    assert {"recent", "full", "votes1"} <= configs
    assert ("no-llm" in configs) or "skipped no-llm" in first.stderr
    assert len(rows) == 12 * len(configs) and {r["set"] for r in rows} == {"epic", "life"}  # 9 epic forms first
    assert all(isinstance(r["correct"], bool) and 0 <= r["recall"] <= 1 for r in rows)
    again = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    assert again.returncode == 0 and len(out.read_text().splitlines()) == len(rows)
    table = subprocess.run([*runner, "table", "--out", str(out)], capture_output=True, text=True, env=env, check=True)
    assert "### set epic" in table.stdout and "### set life" in table.stdout and "| recent |" in table.stdout
    recall = subprocess.run([*runner, "recall", "--limit", "14", "--configs", "full,recent"], capture_output=True,
                            text=True, env=env, check=True)
    assert "| epic | open |" in recall.stdout and "| life |" in recall.stdout


def test_runner_refuses_unknown_configs(tmp_path: Path) -> None:
    env = {**os.environ, **FAST, "EGOCLI_HOME": str(tmp_path), "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, str(REPO / "bench" / "lifelog.py"), "run", "--out",
                           str(tmp_path / "r.jsonl"), "--configs", "fulll"], capture_output=True, text=True, env=env)
    assert done.returncode != 0 and "unknown config" in done.stderr


def test_table_rescores_old_rows_with_todays_gold_only_for_the_same_question() -> None:
    from bench.sets import report

    today = json.loads(lifeweek.OPEN.read_text())[0]
    row = {"set": "life", "id": today["id"], "kind": "open", "question": today["question"], "at": today["at"],
           "gold": {"kind": "count", "n": 99}, "answer": f"on {today['gold']['time'][11:16]}", "correct_idx": None}
    golds = report.current_golds(None)
    assert report.scored(report.refreshed(row, golds))["correct"]
    assert not report.scored(report.refreshed({**row, "question": "something else?"}, golds))["correct"]


@pytest.mark.parametrize("name", sorted(everyday.DAYS))
def test_each_days_set_is_its_script_and_its_questions_and_probes_rest_on_its_log(name):
    """The committed NAME.jsonl is what the script builds, and every question (probes included) has its
    evidence in the log before it is asked, a known gold kind and a gold its evidence says."""
    days = everyday.DAYS[name]
    events = days.build_events()
    assert days.events.read_text(encoding="utf-8") == everyday.jsonl(events)
    questions = days.all_questions()
    assert questions and everyday.check(events, questions) == []
    assert len({q["id"] for q in questions}) == len(questions)


def test_frames_read_home_or_out_against_where_the_scripts_put_them():
    """bench/scenes.py, run as a user runs it: a table per set and in all; few frames away read as home."""
    done = subprocess.run([sys.executable, str(REPO / "bench" / "scenes.py"), "--sets", "salon,rounds"],
                          capture_output=True, text=True, check=True)
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:6]]
            for line in done.stdout.splitlines()[2:]}
    assert set(rows) == {"salon", "rounds", "all"}
    home_read, home = map(int, rows["all"][0].split("/"))
    away_home, away = map(int, rows["all"][2].split("/"))
    assert home > 100 and away > 200 and home_read > home // 4 and away_home < away // 20
    bad = subprocess.run([sys.executable, str(REPO / "bench" / "scenes.py"), "--sets", "nope"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "no script for nope" in bad.stderr
