"""Issue 17.8: a log this process may not write can still be read.

On main every open wrote (journal mode, migrations, user_version), so `stats` and `log search`
on an immutable file or a read-only file in a read-only folder failed with "attempt to write a
readonly database"."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def immutable(db: Path) -> Iterator[callable]:
    """make(path): chattr +i (undone after the test); skips where the file system refuses."""
    done: list[Path] = []

    def make(path: Path) -> None:
        if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)],
                                                            capture_output=True).returncode:
            pytest.skip("chattr +i is not allowed here")
        done.append(path)

    yield make
    for path in done:
        subprocess.run(["chattr", "-i", str(path)], check=False)


def _seed(run, db: Path) -> None:
    assert run("log", "add", "the spare key is under the blue flowerpot").returncode == 0
    assert not Path(f"{db}-wal").exists()  # a clean exit folds the WAL back in


def test_an_immutable_log_can_be_searched_and_counted(run, db, immutable):
    _seed(run, db)
    immutable(db)
    stats = run("stats")
    assert stats.returncode == 0, stats.stderr
    assert "events\t1" in stats.stdout
    hits = run("log", "search", "flowerpot")
    assert hits.returncode == 0 and "flowerpot" in hits.stdout, hits.stderr
    res = run("log", "add", "another")
    assert res.returncode == 1 and "read-only" in res.stderr and "unexpected" not in res.stderr


def test_a_read_only_log_with_pending_migrations_says_so(run, db, immutable):
    _seed(run, db)
    conn = sqlite3.connect(db)
    with conn:
        last = conn.execute("SELECT max(rowid) FROM _sqlite_migrations").fetchone()[0]
        conn.execute("DELETE FROM _sqlite_migrations WHERE rowid = ?", (last,))
    conn.close()
    immutable(db)
    res = run("stats")
    assert res.returncode == 1
    assert "migration" in res.stderr and "pending" in res.stderr and "unexpected" not in res.stderr


def test_a_read_only_file_in_a_read_only_folder_opens_for_another_user(run, env):
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root to run the CLI as another user")
    folder = Path(tempfile.mkdtemp(prefix="egocli-ro-"))
    home = Path(tempfile.mkdtemp(prefix="egocli-home-"))
    try:
        db = folder / "log.db"
        _seed(run.__class__(db, env), db)
        db.chmod(0o444)
        folder.chmod(0o555)
        home.chmod(0o777)
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", run.script, "--db", str(db)]
        other = {**env, "EGOCLI_HOME": str(home)}
        for args in (["stats"], ["log", "search", "flowerpot"]):
            res = subprocess.run([*argv, *args], capture_output=True, text=True, env=other, timeout=120)
            assert res.returncode == 0, res.stderr
        assert "flowerpot" in res.stdout
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)
