"""Run the installed console script as a user does: in a pipe, or on a real terminal through util-linux
`script` (a pseudo-terminal: Rich renders tables and colour only there). Used by tests/test_doorstep_*.py."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import console
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "afternoon.srt"
SCRIPT = shutil.which("script")
needs_terminal = pytest.mark.skipif(SCRIPT is None, reason="util-linux `script` is needed for a pseudo-terminal")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@dataclass(frozen=True)
class Run:
    """What one run of the console script printed."""

    code: int
    """Its exit code."""
    out: str
    """stdout (in a terminal: everything the terminal showed, carriage returns removed)."""
    err: str
    """stderr ('' in a terminal, where it is mixed into out)."""

    @property
    def plain(self) -> str:
        """out without ANSI escapes (colours, cursor moves)."""
        return _ANSI.sub("", self.out)


def egocli(*args: object, tty: bool = False, columns: int = 200, stdin: str = "", **env: str) -> Run:
    """Run `egocli ARGS...` with this checkout on PYTHONPATH, in a pipe or (tty=True) on a terminal."""
    argv = [console.egocli(), *map(str, args)]
    if tty:
        argv = [SCRIPT, "-qec", shlex.join(argv), "/dev/null"]
    full_env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": str(columns), "TERM": "xterm-256color", **env}
    full_env.pop("NO_COLOR", None)
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=full_env, timeout=300)
    out = done.stdout.replace("\r\n", "\n").replace("\r", "\n") if tty else done.stdout
    return Run(done.returncode, out, done.stderr)


def imported(db: Path, start: str = "2026-11-28T13:00") -> Path:
    """The example afternoon imported into `db` from `start` (quietly, fake embedder); returns db."""
    res = egocli("--db", db, "import", EXAMPLE, "--start", start, "-q", EGOCLI_EMBEDDER="fake")
    assert res.code == 0, res.err
    return db
