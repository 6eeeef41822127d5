import json
import sqlite3

from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "afternoon.srt"


def _import_example(cli):
    res = cli("import", EXAMPLE, "--start", "2026-11-28T13:00:00+00:00")
    assert res.exit_code == 0, res.stderr
    return res


def test_add_list_search_show(cli):
    assert cli("log", "add", "took the blue pill", "--at", "2026-11-29T08:00:00Z").exit_code == 0
    assert cli("log", "add", "watered the tomatoes", "--at", "2026-11-29T09:00:00Z").exit_code == 0
    res = cli("log", "list", "--jsonl", "--oldest")
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["content"] for r in rows] == ["took the blue pill", "watered the tomatoes"]
    assert rows[0]["start"] == "2026-11-29T08:00:00.000Z" and rows[0]["modality"] == "note"
    hits = json.loads(cli("log", "search", "pill", "--json").stdout)
    assert len(hits) == 1 and hits[0]["content"] == "took the blue pill" and hits[0]["match"] == [[14, 18]]
    shown = cli("log", "show", str(rows[1]["id"]), "--context", "1")
    assert "took the blue pill" in shown.stdout and "watered the tomatoes" in shown.stdout


def test_plain_output_is_tab_separated_when_piped(cli):
    cli("log", "add", "a note", "--at", "2026-11-29T08:00:00Z")
    line = cli("log", "list").stdout.strip()
    assert line.split("\t")[2:] == ["note", "manual", "a note"]


def test_add_jsonl_from_stdin_all_or_nothing(cli):
    good = '{"start": "2026-11-29T10:00:00Z", "content": "parked on level 3", "modality": "note"}\n'
    bad = good + '{"start": "2026-11-29T10:01:00Z"}\n'
    res = cli("log", "add", "-", input=bad)
    assert res.exit_code == 1
    assert "<stdin>:2" in res.stderr and "content" in res.stderr
    assert cli("log", "list", "--json").stdout.strip() == "[]"
    assert cli("log", "add", "-", input=good).exit_code == 0
    assert "parked" in cli("log", "list").stdout


def test_import_is_idempotent_and_searchable(cli):
    first = _import_example(cli)
    assert first.stdout.startswith("imported\t26")
    again = _import_example(cli)
    assert again.stdout.startswith("skipped\t0")
    stats = json.loads(cli("stats", "--json").stdout)
    assert stats["events"] == 26 and stats["sources"] == 1 and stats["schema_version"] >= 1
    assert stats["per_modality"] == {"visual": 20, "speech": 6}
    top = json.loads(cli("log", "search", "where did I put my keys", "--json").stdout)[0]
    assert "blue bowl" in top["content"] and top["start"] == "2026-11-28T13:02:10.000Z"


def test_time_filters_and_bad_range(cli):
    _import_example(cli)
    res = cli("log", "list", "--since", "2026-11-28T14:00:00Z", "--until", "2026-11-28T15:00:00Z", "--jsonl")
    times = [json.loads(x)["start"] for x in res.stdout.splitlines()]
    assert times and all("T14:" in t for t in times)
    bad = cli("log", "list", "--since", "2026-11-28T15:00:00Z", "--until", "2026-11-28T14:00:00Z")
    assert bad.exit_code == 2 and bad.stderr.startswith("Error: --since must be before --until")
    garbage = cli("log", "list", "--since", "whenever")
    assert garbage.exit_code == 2 and "cannot read the time" in garbage.stderr


def test_export_formats_round_trip(cli, tmp_path):
    _import_example(cli)
    srt = cli("log", "export", "--format", "srt").stdout
    assert srt.startswith("1\n00:00:00,000 --> 00:00:06,000\n[speech] Okay, lunch is done.")
    vtt = cli("log", "export", "--format", "vtt", "--limit", "2").stdout
    assert vtt.startswith("WEBVTT\n\n")
    csv_text = cli("log", "export", "--format", "csv").stdout
    assert csv_text.splitlines()[0] == "id,start,end,modality,source,content" and len(csv_text.splitlines()) == 27
    out = tmp_path / "again.srt"
    out.write_text(srt)
    other_db = tmp_path / "other.db"
    from typer.testing import CliRunner
    from egocli.cli.app import app
    res = CliRunner().invoke(app, ["--db", str(other_db), "import", str(out), "--start", "2026-11-28T13:00:00Z"])
    assert res.exit_code == 0
    stats = json.loads(CliRunner().invoke(app, ["--db", str(other_db), "stats", "--json"]).stdout)
    assert stats["per_modality"] == {"visual": 20, "speech": 6}
    assert cli("log", "export", "--format", "docx").exit_code == 2


def test_forget_needs_confirmation_and_clears_search(cli):
    _import_example(cli)
    refused = cli("log", "forget", "--source", "afternoon.srt")
    assert refused.exit_code == 2 and "not confirmed: 26 event(s) kept" in refused.stderr
    assert cli("log", "forget").exit_code == 2  # no filter, no --all
    done = cli("log", "forget", "--until", "2026-11-28T14:00:00Z", "--yes")
    assert done.exit_code == 0 and done.stdout.strip() == "forgot 10 event(s)"
    assert json.loads(cli("log", "search", "pharmacist", "--json").stdout) == []
    assert json.loads(cli("stats", "--json").stdout)["events"] == 16


def test_bad_db_file_is_untouched(cli, tmp_path):
    not_db = tmp_path / "diary.txt"
    not_db.write_text("dear diary")
    from typer.testing import CliRunner
    from egocli.cli.app import app
    res = CliRunner().invoke(app, ["--db", str(not_db), "log", "list"])
    assert res.exit_code == 1
    assert res.stderr.strip() == f"Error: {not_db}: not an egocli database (not an SQLite file)"
    assert not_db.read_text() == "dear diary"


def test_show_missing_event(cli):
    cli("log", "add", "one note")  # a log without that event (a missing log is "no such log")
    res = cli("log", "show", "4242")
    assert res.exit_code == 1 and res.stderr.strip() == "Error: no event with id 4242"


def test_db_from_env(tmp_path, monkeypatch):
    from typer.testing import CliRunner
    from egocli.cli.app import app
    path = tmp_path / "env.db"
    monkeypatch.setenv("EGOCLI_DB", str(path))
    assert CliRunner().invoke(app, ["log", "add", "from env"]).exit_code == 0
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT content FROM events").fetchall() == [("from env",)]
