"""Ingest end to end with the real default models, resume after kill -9, and bad inputs."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import REPO
from tests.waiting import wait_until
from egocli.ingest.synthetic import loop_recording

EXAMPLE = REPO / "examples" / "glasses.mp4"
ORIGIN = "2026-11-28T10:00:00"  # the example's creation_time (UTC)
pytestmark = pytest.mark.slow


def _events(cli, *args):
    return [json.loads(x) for x in cli("log", "list", "--limit", "1000", "--jsonl", *args).stdout.splitlines()]


def _seconds(ev):
    return (np.datetime64(ev["start"].rstrip("Z")) - np.datetime64(ORIGIN)) / np.timedelta64(1, "ms") / 1000


def test_example_recording(cli):
    res = cli("ingest", EXAMPLE, "--json")
    assert res.exit_code == 0, res.stderr
    speech = _events(cli, "--modality", "speech")
    jfk = [e for e in speech if "ask not what your country can do for you" in e["content"].lower().replace(",", "")]
    assert len(jfk) == 1
    assert abs(_seconds(jfk[0]) - 2.0) <= 1.0  # the line starts 2 s into the recording
    keys = [e for e in speech if "blue bowl" in e["content"].lower()]
    assert keys and abs(_seconds(keys[0]) - 15.0) <= 1.0
    visual = _events(cli, "--modality", "visual")
    scenes = visual + _events(cli, "--modality", "text")  # a sign alone is one text event (issue #31)
    times = [_seconds(e) for e in scenes]
    for scene_start in (0.0, 6.0, 13.0):  # each new scene is described within a second
        assert any(0 <= t - scene_start <= 1.0 for t in times), (scene_start, times)
    assert not any(12.0 <= t < 13.0 for t in times)  # the dark second is skipped
    assert not any(19.0 <= t for t in times)  # the last scene: nothing recognised, no event
    assert len(scenes) <= 8  # still frames are not described again and again
    texts = " ".join(e["content"] for e in _events(cli, "--modality", "text")).upper()
    assert "PHARMACY" in texts and "BUS 12" in texts
    again = cli("ingest", EXAMPLE, "--json")
    assert json.loads(again.stdout)[0]["status"] == "skipped"
    assert len(_events(cli)) == len(speech) + len(visual) + len(_events(cli, "--modality", "text"))


def _comparable(db: Path) -> list[tuple]:
    """Events as (start, end, modality, words): ASR punctuation may differ after a seek, since
    AAC decoding is not bit-exact across seeks; times, modality and words must not."""
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT start_ms, end_ms, modality, content FROM events ORDER BY start_ms, modality")
    return [(a, b, m, re.sub(r"[^a-z0-9 ]", "", c.lower())) for a, b, m, c in rows]


def test_resume_after_kill_gives_the_same_events(tmp_path):
    long = tmp_path / "long.mp4"
    loop_recording(EXAMPLE, long, 4)
    env = {**os.environ, "EGOCLI_HOME": str(tmp_path / "home")}
    cmd = [sys.executable, "-m", "egocli", "--quiet", "ingest", str(long), "--start", "2026-11-29T08:00:00Z"]
    full, killed = tmp_path / "full.db", tmp_path / "killed.db"
    subprocess.run(cmd[:3] + ["--db", str(full)] + cmd[3:], env=env, check=True, capture_output=True)
    proc = subprocess.Popen(cmd[:3] + ["--db", str(killed)] + cmd[3:], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    def logged() -> int:
        try:
            with sqlite3.connect(killed, timeout=1) as conn:
                return conn.execute("SELECT count(*) FROM events").fetchone()[0]
        except sqlite3.OperationalError:  # not created or not migrated yet
            return 0

    wait_until(lambda: logged() >= 3 or proc.poll() is not None, 300, "three events written by the ingest",
               poll_s=0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(killed) as conn:
        status = conn.execute("SELECT status FROM sources").fetchone()[0]
    assert status == "pending", "the ingest finished before it could be killed"
    partial = len(_comparable(killed))
    subprocess.run(cmd[:3] + ["--db", str(killed)] + cmd[3:], env=env, check=True, capture_output=True)
    assert 0 < partial < len(_comparable(full))
    assert _comparable(killed) == _comparable(full)


def _wav(path: Path, samples: np.ndarray) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes((samples * 32767).astype(np.int16).tobytes())


def test_bad_inputs_each_named_rest_of_batch_continues(cli, tmp_path, shared_data):
    corrupt = tmp_path / "corrupt.mp4"
    corrupt.write_bytes(os.urandom(50_000))
    empty = tmp_path / "empty.mov"
    empty.write_bytes(b"")
    text = tmp_path / "notes.mkv"
    text.write_text("this is not a video, just some text\n" * 100)
    quiet = tmp_path / "quiet.wav"
    _wav(quiet, np.random.default_rng(0).normal(0, 0.001, 16000 * 3))
    truncated = tmp_path / "truncated.mp4"
    truncated.write_bytes(EXAMPLE.read_bytes()[: EXAMPLE.stat().st_size // 2])
    no_audio = shared_data / "video" / "3.mp4"
    res = cli("ingest", corrupt, empty, text, tmp_path / "missing.mp4", quiet, no_audio, truncated)
    assert res.exit_code == 1
    err = res.stderr
    for bad in (corrupt, empty, text, tmp_path / "missing.mp4"):
        assert any(line.startswith("Error:") and str(bad) in line for line in err.splitlines()), bad
    assert f"Warning: {no_audio}: no audio track" in err
    assert f"Warning: {quiet}: no speech found" in err
    assert f"Warning: {truncated}: audio decoding stopped at" in err  # what came before is kept
    assert "3 ok, 4 failed" in err
    sources = json.loads(cli("stats", "--json").stdout)
    assert sources["sources"] >= 2  # the good files went in
    names = {e["source"] for e in _events(cli)}
    assert {"3.mp4", "truncated.mp4"} <= names and "corrupt.mp4" not in names and "notes.mkv" not in names


def test_usage_errors(cli):
    assert cli("ingest", EXAMPLE, "--fps", "0").exit_code == 2
    res = cli("ingest", EXAMPLE, "--no-audio", "--no-video")
    assert res.exit_code == 2 and "nothing to ingest" in res.stderr
