"""The hostile-review suite: the installed `egocli` console script as a separate process, a real
`egocli serve`, and helpers to read what ends up on disk."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import console

FAKES = ("LLM", "SUMMARIZER", "EMBEDDER", "ASR", "LABELER", "OCR", "TTS", "NARRATOR")


def egocli_script() -> str:
    """The installed console script (beside this interpreter, else on PATH)."""
    return console.egocli()


def fake_env(home: Path) -> dict[str, str]:
    """The environment of a CLI process: EGOCLI_HOME=home and fake models everywhere."""
    out = dict(os.environ)
    out.update({f"EGOCLI_{role}": "fake" for role in FAKES})
    out["EGOCLI_HOME"] = str(home)
    out.pop("EGOCLI_KEY", None)
    out.pop("EGOCLI_DB", None)
    return out


@pytest.fixture
def env(isolated_home: Path) -> dict[str, str]:
    """The environment of a CLI process: this test's EGOCLI_HOME and fake models everywhere."""
    return fake_env(isolated_home)


class Cli:
    """`egocli --db DB ARGS` as subprocesses."""

    def __init__(self, db: Path, env: dict[str, str]) -> None:
        self.db, self.env, self.script = db, env, egocli_script()

    def __call__(self, *args: str, input: str | bytes | None = None, db: Path | str | None = None,
                 timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """Run one command; stdout and stderr as text (undecodable bytes replaced)."""
        argv = [self.script, "--db", str(self.db if db is None else db), *map(str, args)]
        data = input.encode() if isinstance(input, str) else input
        done = subprocess.run(argv, input=data, capture_output=True, env=self.env, timeout=timeout)
        return subprocess.CompletedProcess(argv, done.returncode, done.stdout.decode(errors="replace"),
                                           done.stderr.decode(errors="replace"))


@pytest.fixture
def run(db: Path, env: dict[str, str]) -> Cli:
    """The CLI against this test's log."""
    return Cli(db, env)


class Served:
    """A real `egocli serve` process on a free loopback port."""

    def __init__(self, db: Path, env: dict[str, str], *args: str) -> None:
        argv = [egocli_script(), "--db", str(db), "serve", "--port", "0", "--live-budget", "0", *args]
        self.proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.stderr = ""
        self._said_where = threading.Event()  # set at the "serving http://..." line, or when stderr ends
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._said_where.wait(90)
        if not (m := re.search(r"http://[^/\s]+:(\d+)/(?:\?token=(\S+))?", self.stderr)):
            raise AssertionError(f"serve did not start: {self.stderr}")
        self.url = f"http://127.0.0.1:{m.group(1)}"
        self.token = m.group(2) or ""
        """The secret serve printed in its URL (--token's, else this user's from the egocli home)."""
        self.auth = {"Authorization": f"Bearer {self.token}"}

    def _read(self) -> None:
        assert self.proc.stderr is not None
        try:
            for line in iter(self.proc.stderr.readline, b""):
                self.stderr += line.decode(errors="replace")
                if "http://" in self.stderr:
                    self._said_where.set()
        finally:
            self._said_where.set()

    def open_files(self) -> list[str]:
        """Where the server's descriptors point now ('... (deleted)' for unlinked files)."""
        out = []
        fd_dir = Path(f"/proc/{self.proc.pid}/fd")
        for fd in list(fd_dir.iterdir()) if fd_dir.is_dir() else []:
            try:
                out.append(os.readlink(fd))
            except OSError:
                pass
        return out

    def stop(self) -> int:
        """SIGINT (a graceful stop) and wait; returns the exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._reader.join(5)
        return self.proc.returncode


@pytest.fixture
def serve(db: Path, env: dict[str, str]) -> Iterator[type]:
    """Factory: serve(*extra_args) -> a started Served (stopped after the test)."""
    started: list[Served] = []

    def start(*args: str) -> Served:
        started.append(Served(db, env, *args))
        return started[-1]

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the tests that need no settings of their own: two slots, one extra origin."""
    folder = tmp_path_factory.mktemp("served")
    started = Served(folder / "log.db", fake_env(folder / "home"), "--max-sessions", "2",
                     "--allow-origin", "https://glasses.example")
    yield started
    started.stop()
