"""Forgotten sources import again, skipped files say why, --replace, folders, recordings, future events."""

from __future__ import annotations

import json
import os
import shutil
import time

from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "afternoon.srt"
START = ("--start", "2026-11-28T13:00:00+00:00")


def _stats(cli) -> dict:
    return json.loads(cli("stats", "--json").stdout)


def test_forgetting_a_source_lets_it_be_imported_again(cli):
    assert cli("import", EXAMPLE, *START).exit_code == 0
    assert cli("log", "forget", "--source", "afternoon.srt", "--yes").stdout == "forgot 26 event(s)\n"
    assert _stats(cli)["sources"] == 0
    again = cli("import", EXAMPLE, *START)
    assert again.exit_code == 0 and again.stdout.startswith("imported\t26\t")
    assert cli("log", "forget", "--all", "--yes").exit_code == 0
    assert cli("import", EXAMPLE, *START).stdout.startswith("imported\t26\t")
    assert _stats(cli)["events"] == 26 and _stats(cli)["sources"] == 1


def test_a_skipped_file_says_why_and_replace_imports_again(cli):
    cli("import", EXAMPLE, *START)
    skipped = cli("import", EXAMPLE, *START)
    assert skipped.stdout.startswith("skipped\t0\t")
    assert "already imported as source #1 (afternoon.srt); --replace imports it again" in skipped.stderr
    cli("log", "forget", "--since", "2026-11-28T14:00:00Z", "--yes")
    assert _stats(cli)["events"] < 26
    assert cli("import", EXAMPLE, *START).stdout.startswith("skipped")  # part of it is still there
    replaced = cli("import", EXAMPLE, *START, "--replace")
    assert replaced.exit_code == 0 and replaced.stdout.startswith("replaced\t26\t")
    assert _stats(cli)["events"] == 26 and _stats(cli)["sources"] == 1


def test_replace_swaps_a_changed_file_at_the_same_path(cli, tmp_path):
    path = tmp_path / "day.srt"
    shutil.copy(EXAMPLE, path)
    cli("import", path, *START)
    path.write_text(EXAMPLE.read_text().replace("blue bowl", "green bowl"))
    assert cli("import", path, *START, "--replace").stdout.startswith("replaced\t26")
    hits = json.loads(cli("log", "search", "bowl", "--json").stdout)
    assert hits and all("green" in h["content"] for h in hits)
    assert _stats(cli)["events"] == 26


def test_forgetting_part_of_a_source_keeps_it(cli):
    cli("import", EXAMPLE, *START)
    cli("log", "forget", "--modality", "speech", "--yes")
    assert _stats(cli)["sources"] == 1


def test_a_folder_imports_its_transcripts(cli, tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    shutil.copy(EXAMPLE, folder / "a.srt")
    (folder / "b.jsonl").write_text('{"start": 0, "content": "a note", "modality": "note"}\n')
    (folder / "readme.txt").write_text("not a transcript")
    res = cli("import", folder, *START)
    assert res.exit_code == 0, res.stderr
    assert [line.split("\t")[0] for line in res.stdout.splitlines()] == ["imported", "imported"]
    empty = tmp_path / "empty"
    empty.mkdir()
    res = cli("import", empty)
    assert res.exit_code == 1 and "a folder without .srt, .vtt, .csv or .jsonl files" in res.stderr


def test_recordings_and_transcripts_point_to_the_other_command(cli, tmp_path):
    video = REPO / "examples" / "glasses.mp4"
    res = cli("import", video)
    assert res.exit_code == 1 and f"use `egocli ingest {video}`" in res.stderr
    res = cli("ingest", EXAMPLE)
    assert res.exit_code == 2 and f"use `egocli import {EXAMPLE}`" in res.stderr
    clips = tmp_path / "clips"
    clips.mkdir()
    shutil.copy(video, clips / "a.mp4")
    res = cli("import", clips)
    assert res.exit_code == 1 and f"a folder of recordings, not transcripts: use `egocli ingest {clips}`" in res.stderr


def test_events_in_the_future_are_warned_about(cli, tmp_path):
    path = tmp_path / "now.srt"
    shutil.copy(EXAMPLE, path)
    os.utime(path, (time.time(), time.time()))  # anchored at mtime: the events run hours ahead
    res = cli("import", path)
    assert res.exit_code == 0
    assert "Warning: " in res.stderr and "events lie in the future" in res.stderr and "give --start" in res.stderr
    quiet = cli("import", EXAMPLE, *START)
    assert "future" not in quiet.stderr
