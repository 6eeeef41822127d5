"""Feedback on long work, through the console script: summarize progress on a terminal, `what` without
native log lines and with its question asked inline, `serve` stopping on SIGTERM and saying so."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from egocli.models.nativelog import native_logs_silenced
from tests import console
from tests.conftest import REPO
from tests.waiting import wait_until

EXAMPLE = REPO / "examples" / "afternoon.srt"
SCRIPT = shutil.which("script")
EXE = console.egocli()
needs_console = pytest.mark.skipif(SCRIPT is None, reason="needs util-linux `script`")


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "160", **extra}


def _pty(argv: list[str], stdin: str = "", **env: str) -> str:
    """Run in a pseudo-terminal; what the terminal showed, carriage returns as new lines."""
    cmd = [SCRIPT, "-qec", shlex.join(map(str, argv)), "/dev/null"]
    run = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=_env(**env), timeout=300)
    return run.stdout.replace("\r", "\n")


def test_native_log_lines_are_dropped_and_the_rest_kept(capfd):
    with native_logs_silenced():
        os.write(2, b"W0000 00:00:1796127707.607962   32148 inference_feedback_manager.cc:121] Feedback\n")
        os.write(2, b"INFO: Created TensorFlow Lite XNNPACK delegate for CPU.\n")
        os.write(2, b"Error: something egocli said\n")
        sys.stderr.write("a Python warning\n")
    err = capfd.readouterr().err  # (pytest's sys.stderr is not fd 2, so the order may differ here)
    assert sorted(err.splitlines()) == ["Error: something egocli said", "a Python warning"]


_ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")
_WRITING = re.compile(r"^  (hour|day|week) of (\S+ \S+), (\d+) events\b.*?\s(\d+)/(\d+)\s", re.M)


@needs_console
def test_summarize_shows_summaries_per_level_and_each_written_one_out_of_its_own_budget(db):
    subprocess.run([EXE, "--db", db, "import", EXAMPLE, "--start", "2026-11-28T13:00", "-q"], env=_env(), check=True)
    shown = _ANSI.sub("", _pty([EXE, "--db", db, "summarize"], EGOCLI_SUMMARIZER="fake", EGOCLI_EMBEDDER="fake"))
    last = {name: re.findall(rf"^{name} summaries\b.*?(\d+)/(\d+)", shown, re.M)[-1] for name in ("hour", "day", "week")}
    assert last == {"hour": ("5", "5"), "day": ("1", "1"), "week": ("1", "1")}  # done of to do, per level
    written = {(level, start, int(total)) for level, start, _, _, total in _WRITING.findall(shown)}
    # the fake model writes as much as it may: each summary it wrote shows its level's budget filled, no more
    assert {(level, total) for level, _, total in written} == {("hour", 32), ("day", 90)}
    assert all(int(done) <= int(total) for *_, done, total in _WRITING.findall(shown))
    assert ("hour", "2026-11-28 13:00", 32) in written and re.search(r"^  hour of 2026-11-28 13:00, 10 events.* 32/32 ",
                                                                       shown, re.M)
    assert "embedding" in shown and re.search(r"embedding .* 26/\?", shown)  # events, not batches
    assert "7 summaries built" in shown


@needs_console
def test_summarize_progress_is_hidden_by_quiet_and_in_a_pipe(tmp_path):
    fakes = {"EGOCLI_SUMMARIZER": "fake", "EGOCLI_EMBEDDER": "fake"}
    for name in ("quiet", "piped"):
        subprocess.run([EXE, "--db", tmp_path / f"{name}.db", "import", EXAMPLE, "--start", "2026-11-28T13:00", "-q"],
                       env=_env(), check=True)
    quiet = _ANSI.sub("", _pty([EXE, "--db", tmp_path / "quiet.db", "-q", "summarize"], **fakes))
    assert "7 summaries built" in quiet
    assert not re.search(r"(hour|day|week) summaries|hour of|embedding|Loading", quiet), quiet
    piped = subprocess.run([EXE, "--db", tmp_path / "piped.db", "summarize"], capture_output=True, text=True,
                           env=_env(**fakes), timeout=120)
    assert piped.returncode == 0 and "7 summaries built" in piped.stdout
    assert piped.stderr == "", piped.stderr  # no bar on a stderr that is not a terminal


@pytest.mark.slow
@needs_console
def test_what_asks_inline_on_a_terminal_and_prints_no_native_logs(tmp_path, db):
    from tests.pointing import scenes

    if not scenes.VIDEO.is_file():
        pytest.skip(f"shared chess video not found at {scenes.VIDEO}")
    import cv2

    scene = scenes.pointing_scene(105, 0, [("coffee", 1.6, -0.75), ("cat", 1.6, 0.75)], scale=2.0, size=170)
    image = tmp_path / "two.png"
    cv2.imwrite(str(image), scene.image)
    piped = subprocess.run([EXE, "--db", db, "what", image, "--no-ocr", "--no-chess"], capture_output=True,
                           text=True, env=_env(), timeout=300)
    assert piped.returncode == 0 and "(answer with --reply" in piped.stdout
    assert "W0000" not in piped.stderr and "TensorFlow Lite" not in piped.stderr, piped.stderr
    shown = _pty([EXE, "--db", db, "what", image, "--no-ocr", "--no-chess"], stdin="2\n")
    assert "Which one?" in shown and "--reply" not in shown
    assert "confidence" in shown.split("Which one?", 1)[1]  # answered after the inline question


@pytest.mark.slow
@needs_console
def test_serve_stops_on_sigterm_while_models_load(db):
    proc = subprocess.Popen([EXE, "--db", db, "serve", "--port", "0"], stderr=subprocess.PIPE, text=True,
                            env=_env())
    assert "serving http://127.0.0.1:" in proc.stderr.readline()
    # the warm-up creates the (fresh) log on the writer thread, then loads the models one by one, seconds each:
    # the log appearing is the sign that the loads are starting now
    wait_until(lambda: Path(db).exists(), 30, "serve's warm-up creating the log")
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=10)  # it used to wait ~25 s for the loads to finish
    finally:
        proc.kill()
    assert proc.returncode == 0 and "stopped: sessions closed, log written" in err
