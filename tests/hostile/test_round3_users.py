"""Hostile review round 3, item 3: another user of this machine (uid 65534 via setpriv; the suite runs
as root) can neither use the loopback servers nor read the log: `serve` and `timeline` require this
user's secret (kept 0600 in the egocli home, printed in their URL), and the home is 0700, the log,
its WAL/SHM, media and the secret 0600."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostile.conftest import Served, egocli_script, fake_env

OTHER = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def _as_other(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*OTHER, *argv], capture_output=True, text=True, timeout=60)


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder every user may enter (pytest's tmp folders are 0700, which would hide the log anyway)."""
    if os.getuid() != 0 or shutil.which("setpriv") is None or shutil.which("curl") is None:
        pytest.skip("needs root, setpriv and curl to act as another user")
    folder = Path(tempfile.mkdtemp(prefix="egocli-users-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _curl(url: str, *extra: str) -> str:
    """The HTTP status another user gets."""
    done = _as_other("curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", *extra, url)
    return done.stdout


def test_another_user_gets_401_from_serve_and_cannot_read_the_log(open_folder):
    home = open_folder / "home"
    env = fake_env(home)
    db = home / "egocli.db"
    run = [egocli_script(), "--db", str(db)]
    added = subprocess.run([*run, "log", "add", "the spare key is under the mat"],
                           capture_output=True, text=True, env=env, timeout=60)
    assert added.returncode == 0, added.stderr
    server = Served(db, env)
    try:
        assert server.token and len(server.token) >= 32, server.stderr
        other = {
            "events": _curl(server.url + "/api/events"),
            "search": _curl(server.url + "/api/timeline/search?q=key"),
            "forget": _curl(server.url + "/api/timeline/forget", "-X", "POST", "-H", "Content-Type: application/json",
                            "-d", json.dumps({"since_ms": 0, "until_ms": 2**40, "confirm": True})),
            "guessed": _curl(server.url + "/api/events", "-H", "Authorization: Bearer guess"),
            "read_db": _as_other("cat", str(db)).returncode,
            "read_token": _as_other("cat", str(home / "server-token")).returncode,
        }
        mine = _curl_as_me(server.url + "/api/timeline/search?q=key", server.token)
    finally:
        server.stop()
    assert other == {"events": "401", "search": "401", "forget": "401", "guessed": "401",
                     "read_db": 1, "read_token": 1}, other
    assert mine == "200"
    modes = {p.name: _mode(p) for p in home.iterdir() if p.is_file()}
    assert _mode(home) == 0o700
    assert modes["egocli.db"] == 0o600 and modes["server-token"] == 0o600, modes
    assert all(m & 0o077 == 0 for m in modes.values()), modes
    listed = subprocess.run([*run, "log", "search", "spare key"], capture_output=True, text=True, env=env, timeout=60)
    assert "under the mat" in listed.stdout  # the forget another user posted did nothing


def _curl_as_me(url: str, token: str = "") -> str:
    header = ["-H", f"Authorization: Bearer {token}"] if token else []  # else the ?token= in url
    return subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", *header, url],
                          capture_output=True, text=True, timeout=60).stdout


def test_a_log_made_by_an_older_egocli_is_tightened_and_its_wal_is_private(open_folder):
    db = open_folder / "old.db"
    env = fake_env(open_folder / "home")
    run = [egocli_script(), "--db", str(db)]
    assert subprocess.run([*run, "log", "add", "first"], env=env, capture_output=True, timeout=60).returncode == 0
    db.chmod(0o644)  # what egocli made before
    reader = subprocess.Popen([*run, "timeline", "--port", "0"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        url = _first_url(reader)
        wal = [p for p in open_folder.iterdir() if p.name.startswith("old.db-")]
        other = _as_other("cat", str(db)).returncode
        plain = _curl(re.sub(r"\?.*", "", url).replace("/timeline", "/api/timeline/search?q=first"))
        given = _curl_as_me(url.replace("/timeline?", "/api/timeline/search?q=first&"))
    finally:
        reader.terminate()
        reader.wait(30)
    assert "token=" in url, url
    assert _mode(db) == 0o600 and other == 1
    assert all(_mode(p) & 0o077 == 0 for p in wal), [(p.name, oct(_mode(p))) for p in wal]
    assert plain == "401" and given == "200", (plain, given)


def _first_url(proc: subprocess.Popen[str]) -> str:
    found: list[str] = []
    done = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("http"):
                found.append(line.strip())
                break
        done.set()

    threading.Thread(target=read, daemon=True).start()
    done.wait(60)
    assert found, "timeline printed no URL"
    return found[0]


def test_media_files_are_written_private(open_folder):
    from egocli.privacy.crypto import write_media

    plain = write_media(open_folder / "media" / "frames" / "1.jpg", b"\xff\xd8 a frame", None)
    sealed = write_media(open_folder / "media" / "frames" / "2.jpg", b"\xff\xd8 a frame", b"k" * 32)
    assert (_mode(plain), _mode(sealed), _mode(open_folder / "media")) == (0o600, 0o600, 0o700)
    assert _as_other("cat", str(plain)).returncode == 1


def test_an_encrypted_log_is_private_too(open_folder):
    pytest.importorskip("sqlcipher3")
    home = open_folder / "home"
    env = {**fake_env(home), "EGOCLI_KEY": "correct horse"}
    db = home / "sealed.db"
    for argv in (["init", "--encrypt"], ["log", "add", "the safe code is 1234"]):
        done = subprocess.run([egocli_script(), "--db", str(db), *argv], env=env, capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr
    assert (_mode(home), _mode(db)) == (0o700, 0o600)
    assert _as_other("cat", str(db)).returncode == 1


def test_a_shared_sticky_home_stays_open_to_everyone_and_the_secret_stays_private(open_folder):
    """EGOCLI_HOME=/tmp (as root) made /tmp 0700, shutting every other user out of it; a sticky folder
    (here a fresh 1777 one standing in for /tmp) keeps its mode, the secret in it is still 0600."""
    shared = open_folder / "tmp"
    shared.mkdir()
    shared.chmod(0o1777)
    env = fake_env(shared)
    run = [egocli_script(), "--db", str(open_folder / "log.db")]
    assert subprocess.run([*run, "log", "add", "first"], env=env, capture_output=True, timeout=60).returncode == 0
    reader = subprocess.Popen([*run, "timeline", "--port", "0"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        url = _first_url(reader)
    finally:
        reader.terminate()
        reader.wait(30)
    assert "token=" in url, url
    assert _mode(shared) == 0o1777, oct(_mode(shared))
    assert _mode(shared / "server-token") == 0o600 and _as_other("cat", str(shared / "server-token")).returncode == 1
