"""Issue 17.4, 17.5 and the file-borne parts of 17.9, through the installed console script.

On main: `import` of an SRT cue at 99999999 hours exited 0 and from then on stats, log list,
log show, log search and export all failed with "unexpected ValueError: year 13434 is out of
range"; `inf`/`1e30` CSV times, `1e20` JSONL seconds, a CSV field over 131072 characters and
deeply nested JSONL each aborted the whole batch with an "unexpected ..." error and no file or
line (earlier files committed without vectors, later ones skipped); `00:61:99` was reported as
"ends before it starts"; SRT cues without a blank line between them merged into one; a null
modality was stored as "None"; two parallel imports of one file failed with "UNIQUE constraint
failed" or stored it twice; `--db ""` became the current folder ("`.`: is a folder") and
`agent --db ""` started on it."""

from __future__ import annotations

import os
import re
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

EMPTY_DB = "--db is empty: give the path of a log file"
GOOD = "1\n00:00:01,000 --> 00:00:02,000\n{0} one\n\n2\n00:00:03,000 --> 00:00:04,000\n{0} two\n"
BAD = {
    "inf.csv": ("start,end,text\n0,1,fine\ninf,inf,x\n", 3),
    "huge.csv": ("start,end,text\n1e30,1e30,x\n", 2),
    "field.csv": ("start,text\n1,\"" + "a" * 140_000 + "\"\n", 2),
    "hours.srt": ("1\n99999999:00:00,000 --> 99999999:00:01,000\nx\n", 2),
    "clock.srt": ("1\n00:61:99,000 --> 00:62:00,000\nx\n", 2),
    "e20.jsonl": ('{"start": 1, "content": "ok"}\n{"start": 1e20, "content": "x"}\n', 2),
    "deep.jsonl": ('{"start": 1, "content": "x", "meta": ' + "[" * 50_000 + "]" * 50_000 + "}\n", 1),
    "nullmod.jsonl": ('{"start": 1, "content": "x", "modality": null}\n', 1),
    "longmod.jsonl": ('{"start": 1, "content": "x", "modality": "' + "m" * 5000 + '"}\n', 1),
}


def _query(db: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_a_batch_with_bad_files_reports_each_by_line_and_finishes_the_rest(run, db, tmp_path):
    names = ["g1.srt", *BAD, "g2.srt"]
    for name in names:
        text = BAD[name][0] if name in BAD else GOOD.format(name[:2])
        (tmp_path / name).write_text(text)
    res = run("import", *(tmp_path / n for n in names))
    assert res.returncode == 1
    errors = [line for line in res.stderr.splitlines() if line.startswith("Error:")]
    for name, (_, line) in BAD.items():
        mine = [e for e in errors if f"{tmp_path / name}:{line}:" in e]
        assert len(mine) == 1, (name, errors)
        assert "unexpected" not in mine[0] and "ends before it starts" not in mine[0]
    assert len(errors) == len(BAD)
    assert f"2 imported, {len(BAD)} failed" in res.stderr
    assert sorted(r[0] for r in _query(db, "SELECT content FROM events")) == ["g1 one", "g1 two", "g2 one", "g2 two"]
    assert _query(db, "SELECT count(DISTINCT event_id) FROM event_vectors") == [(4,)]


def test_cues_without_blank_lines_between_them_stay_apart(run, db, tmp_path):
    path = tmp_path / "tight.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:02,000\nfirst\n2\n00:00:03,000 --> 00:00:04,000\nsecond\n"
                    "00:00:05,000 --> 00:00:06,000\nthird\n")
    assert run("import", path).returncode == 0
    rows = _query(db, "SELECT content, end_ms - start_ms FROM events ORDER BY start_ms")
    assert rows == [("first", 1000), ("second", 1000), ("third", 1000)]


def test_times_outside_1970_to_2200_are_refused_on_the_way_in(run, db):
    before = run("log", "add", "kept")
    assert before.returncode == 0
    for line in ('{"start": -1e12, "content": "x"}', '{"start": "9999-01-01T00:00:00Z", "content": "x"}',
                 '{"start": "1969-12-31T00:00:00Z", "content": "x"}'):
        res = run("log", "add", "-", input=line + "\n")
        assert res.returncode != 0 and res.stderr.startswith("Error: <stdin>:1:"), res.stderr
        assert "unexpected" not in res.stderr
    res = run("log", "add", "-", input='{"start": 1, "content": "' + "w" * 1_500_000 + '"}\n')
    assert res.returncode == 1 and "limit 1000000" in res.stderr, res.stderr[:300]
    res = run("log", "add", "x", "--modality", "None at all")
    assert res.returncode != 0 and "modality" in res.stderr and "unexpected" not in res.stderr
    assert _query(db, "SELECT content FROM events") == [("kept",)]


def test_every_reader_survives_a_damaged_row(run, db, tmp_path):
    (tmp_path / "g.srt").write_text(GOOD.format("good"))
    assert run("import", tmp_path / "g.srt").returncode == 0
    conn = sqlite3.connect(db)
    with conn:  # rows an older egocli (or a hand edit) could have stored
        for start in (359_999_996_400_000_000, -10**15):
            conn.execute("INSERT INTO events(start_ms, end_ms, modality, content) VALUES (?, ?, 'text', 'good bad')",
                         (start, start))
    conn.close()
    bad_id = _query(db, "SELECT max(id) FROM events")[0][0]
    for args in (["stats"], ["stats", "--json"], ["log", "list"], ["log", "show", str(bad_id), "-C", "2"],
                 ["log", "search", "bad", "--json"], ["log", "export", "-f", "srt"]):
        res = run(*args)
        assert res.returncode == 0, (args, res.stderr)
        assert "unexpected" not in res.stderr


def test_undecodable_input_is_stored_or_refused_clearly(run, db):
    res = run("log", "add", os.fsdecode(b"note \xff\xfe end"))
    assert res.returncode == 0, res.stderr
    res = run("log", "add", "-", input=b'{"start": 1, "content": "caf\xe9"}\n')
    stored = [r[0] for r in _query(db, "SELECT content FROM events ORDER BY id")]
    assert stored[0].startswith("note ") and stored[0].endswith(" end")
    if res.returncode == 0:  # a C locale reads stdin with surrogateescape: stored with a replacement
        assert stored[1:] == ["caf?"], stored
    else:
        assert re.match(r"Error: <stdin>:1: .*UTF-8", res.stderr) and stored[1:] == [], res.stderr
    res = run("log", "search", os.fsdecode(b"caf\xe9"))
    assert res.returncode == 0 and "unexpected" not in res.stderr, res.stderr


def test_two_parallel_imports_of_one_file_store_and_embed_it_once(run, db, tmp_path):
    path = tmp_path / "same.srt"
    path.write_text(GOOD.format("same"))
    assert run("log", "add", "first").returncode == 0  # the log exists: both imports race on the same file
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda _: run("import", path), range(2)))
    assert [r.returncode for r in results] == [0, 0], [r.stderr for r in results]
    statuses = sorted(r.stdout.split("\t")[0] for r in results)
    assert statuses == ["imported", "skipped"]
    assert _query(db, "SELECT count(*) FROM events WHERE content LIKE 'same%'") == [(2,)]
    assert _query(db, "SELECT count(*), count(DISTINCT event_id) FROM event_vectors") == [(3, 3)]


def test_reading_a_missing_log_creates_nothing_and_odd_paths_are_clear(run, tmp_path):
    missing = tmp_path / "nowhere" / "log.db"
    for args in (["stats"], ["log", "search", "x"]):
        res = run(*args, db=missing)
        assert res.returncode == 1 and "no such log" in res.stderr, res.stderr
    assert not (tmp_path / "nowhere").exists()
    for bad in (tmp_path, ""):
        res = run("log", "add", "x", db=bad)
        assert res.returncode == 2 and res.stderr.startswith("Error: "), res.stderr
        assert "unexpected" not in res.stderr


def test_an_empty_db_is_a_usage_error_on_every_command(run, env):
    home = Path(env["EGOCLI_HOME"])
    for db, args in (("", ["stats"]), (" ", ["log", "list"]), ("", ["log", "add", "x"]), ("", ["ask", "hi"]),
                     ("", ["import", "a.srt"]), ("", ["mcp"]), ("", ["serve", "--port", "0"]),
                     ("", ["agent", "--janus", "ws://127.0.0.1:9", "--room", "1"])):
        res = run(*args, db=db)
        assert (res.returncode, res.stdout, res.stderr) == (2, "", f"Error: {EMPTY_DB}\n"), (args, res.stderr)
    after = run("stats", "--db", "")  # the flag given after the command, as help allows
    assert (after.returncode, after.stderr) == (2, f"Error: {EMPTY_DB}\n")
    assert not list(home.glob("**/*.db")), "nothing was opened or created in the default place"
