"""The installed `egocli` console script: usage errors, Rich markup on a real terminal, global options
after the command, Click-style help. These differ from what CliRunner sees, so they run as processes."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests import console
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "afternoon.srt"
SCRIPT = shutil.which("script")


@pytest.fixture
def egocli(tmp_path: Path):
    """Run the installed console script with this checkout on PYTHONPATH; returns CompletedProcess."""
    exe = console.egocli()
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}

    def run(*args: object, tty: bool = False, extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        argv = [str(exe), *map(str, args)]
        if tty:  # a real pseudo-terminal: Rich renders (and would parse markup) only there
            argv = [SCRIPT, "-qec", shlex.join(argv), "/dev/null"]
        return subprocess.run(argv, capture_output=True, text=True, env={**env, **(extra_env or {})}, timeout=120)

    run.exe = exe
    return run


@pytest.mark.parametrize("argv, message", [
    (["log", "list", "--bogus"], "No such option: --bogus"),
    (["lgo"], "No such command 'lgo'"),
    (["ingest"], "Missing argument 'PATHS'"),
    (["log", "list", "--limit", "abc"], "Invalid value for '--limit'"),
    (["log", "lsit"], "No such command 'lsit'"),
])
def test_usage_errors_print_usage_and_exit_2(egocli, db, argv, message):
    res = egocli("--db", db, *argv)
    assert res.returncode == 2, res.stderr
    assert res.stderr.startswith("Usage: egocli"), res.stderr
    assert f"Error: {message}" in res.stderr
    assert "unexpected" not in res.stderr and res.stdout == ""


def test_egoerror_still_exits_1_with_one_line(egocli, db):
    assert egocli("--db", db, "log", "add", "a note", "-q").returncode == 0
    res = egocli("--db", db, "log", "show", "999")
    assert res.returncode == 1 and res.stderr == "Error: no event with id 999\n"


@pytest.mark.skipif(SCRIPT is None, reason="util-linux `script` is needed for a pseudo-terminal")
def test_brackets_survive_on_a_terminal(egocli, db, tmp_path):
    assert egocli("--db", db, "import", EXAMPLE, "--start", "2026-11-28T13:00").returncode == 0
    hit = egocli("--db", db, "log", "search", "keys", tty=True)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", hit.stdout)  # the matched word is in colour, not in brackets
    assert hit.returncode == 0 and "Putting the house keys in the blue bowl" in plain and "[keys]" not in plain
    egocli("--db", db, "log", "add", "see [bold]the[/bold] [red]manual[/red]", "--at", "2026-11-28T18:00")
    listed = egocli("--db", db, "log", "list", "-n", "1", tty=True)
    assert "see [bold]the[/bold] [red]manual[/red]" in listed.stdout
    assert "(config: [privacy] redact)" in " ".join(egocli("ingest", "--help", tty=True).stdout.split())
    assert "the [start, end] character" in " ".join(egocli("log", "search", "--help", tty=True).stdout.split())
    models = egocli("models", "list", tty=True, extra_env={"EGOCLI_LLM": str(tmp_path / "[q4]" / "m.gguf")})
    assert "[q4]" in models.stdout


def test_global_options_after_the_command(egocli, tmp_path):
    first, second = tmp_path / "a.db", tmp_path / "b.db"
    res = egocli("log", "add", "parked on level 3", "--at", "2026-11-29T08:00", "--db", second, "-q")
    assert res.returncode == 0 and res.stderr == ""  # -q after the command silences the status line
    assert egocli("--db", first, "log", "list", "--db", second).stdout.count("parked on level 3") == 1
    quiet = egocli("--db", first, "log", "list", "--db", second, "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == "" and "parked" in quiet.stdout
    assert egocli("--db", second, "stats", "--verbose").returncode == 0
    assert egocli("--db", first, "stats", "--bogus").returncode == 2  # the check above can fail


def _commands(command, path=()):
    sub = getattr(command, "commands", None)
    if sub is None:
        yield path, command
        return
    yield path, command
    for name, child in sub.items():
        yield from _commands(child, (*path, name))


# Commands whose modules other helpers own this round (their help examples are theirs to add).
NOT_MINE = {("ask",), ("eval",), ("chess",)}


def test_help_is_click_style_with_examples():
    from typer.main import get_command

    from egocli.cli.app import app

    root = get_command(app)
    runner = CliRunner()
    for path, command in _commands(root):
        text = runner.invoke(app, [*path, "--help"]).stdout
        for leak in ("<bool>", "<str>", "<int>", "<float>", "list[", "<Path>"):
            assert leak not in text, (path, leak, text)
        assert "{" not in text.splitlines()[0], text  # the usage line: PATHS..., not {paths}...
        if path and not hasattr(command, "commands") and path not in NOT_MINE:
            assert "Example" in text, path
    top = runner.invoke(app, ["--help"]).stdout
    order = [top.index(f"\n  {name} ") for name in ("import", "ingest", "log", "ask", "stats", "eval")]
    assert order == sorted(order)
    assert "--model" not in runner.invoke(app, ["do", "--help"]).stdout
    for path in (["do"], ["mcp"], ["serve"], ["ask"]):
        assert "--llm MODEL" in runner.invoke(app, [*path, "--help"]).stdout, path
