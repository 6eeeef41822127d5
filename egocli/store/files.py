"""The log's file outside SQLite: what kind of file it is, whether it can be written, and the rule
that keeps a process from dropping its own SQLite locks.

On POSIX, closing *any* descriptor of a file releases *every* lock the process holds on it, so a
plain `open(db).read(16)` while another thread's connection is open silently unlocks that
connection (SQLite's "How To Corrupt An SQLite Database File", 2.2): a second process then
checkpoints and unlinks the WAL the first one still writes to. The header is therefore read
only while this process has no connection to the file, under one lock, and remembered (by
device and inode) for as long as any connection is open."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from egocli.core.errors import StoreError, UsageError

HEADER = b"SQLite format 3\x00"
_LOCK = threading.RLock()
_OPEN: dict[tuple[int, int], list[Any]] = {}
"""(st_dev, st_ino) -> [encrypted, connections open in this process]."""


PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
"""Modes of what egocli writes: the log, its WAL/SHM, media, secrets (file); the home and media folders."""
_SIDECARS = ("", "-wal", "-shm", "-journal")


@contextmanager
def private_umask() -> Iterator[None]:
    """Files and folders made inside come out 0600/0700 (SQLite makes the WAL and SHM with the log's mode)."""
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def private_dir(path: Path) -> Path:
    """Make a folder (and missing parents) only its owner can enter; tighten it when this user owns it,
    unless it is a shared sticky folder such as /tmp (the files egocli makes in it are 0600 anyway)."""
    with private_umask():
        path.mkdir(parents=True, exist_ok=True)
    if not _shared(path):
        _tighten(path, PRIVATE_DIR)
    return path


def _shared(path: Path) -> bool:
    """A sticky folder (/tmp, /var/tmp): made for every user of the machine, never to be closed to them."""
    try:
        return bool(os.stat(path).st_mode & stat.S_ISVTX)
    except OSError:
        return False


def make_private(db: Path) -> None:
    """Tighten the log and its -wal/-shm/-journal files to 0600 (a log made by an older egocli was 0644)."""
    for suffix in _SIDECARS:
        _tighten(db.with_name(db.name + suffix), PRIVATE_FILE)


def _tighten(path: Path, mode: int) -> None:
    try:
        st = os.stat(path)
        if st.st_uid == os.getuid() and st.st_mode & 0o777 & ~mode:
            os.chmod(path, mode)
    except OSError:
        pass  # gone meanwhile, or not ours to change


def write_private(path: Path, data: bytes) -> None:
    """Write a file only its owner can read (0600; its folder made 0700 when missing)."""
    private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    _tighten(path, PRIVATE_FILE)


def check_path(path: Path) -> None:
    """Refuse a log path that is empty or a folder, with a one-line reason."""
    if not str(path).strip():
        raise UsageError("the log path is empty (give --db FILE or set EGOCLI_DB)")
    if path.is_dir():
        raise UsageError(f"{path}: is a folder, not an event log file (give --db FOLDER/egocli.db)")


def _key(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _read_header(path: Path) -> bytes:
    with path.open("rb") as fh:  # safe: only called while this process has no connection to path
        return fh.read(16)


def is_encrypted(path: Path) -> bool:
    """True for an SQLCipher log (whole pages, no plain header); raises for any other non-SQLite file.

    Never opens the file while this process holds an SQLite connection to it."""
    with _LOCK:
        key = _key(path)
        if key is None or os.stat(path).st_size == 0:
            return False
        if key in _OPEN:
            return bool(_OPEN[key][0])
        try:
            head = _read_header(path)
        except OSError as ex:
            raise StoreError(f"{path}: cannot read the event log: {ex.strerror or ex}") from None
        if head == HEADER:
            return False
        if os.stat(path).st_size % 1024:
            raise StoreError(f"{path}: not an egocli database (not an SQLite file)")
        return True


@contextmanager
def opening(path: Path) -> Iterator[None]:
    """Hold the process-wide file lock while a connection to path is being made (header checks wait)."""
    with _LOCK:
        yield


def register(path: Path, encrypted: bool) -> tuple[int, int] | None:
    """Record one more open connection to path; returns the key to pass to release()."""
    with _LOCK:
        key = _key(path)
        if key is not None:
            entry = _OPEN.setdefault(key, [encrypted, 0])
            entry[1] += 1
        return key


def release(key: tuple[int, int] | None) -> None:
    """Record that a connection registered under key was closed."""
    with _LOCK:
        if key is None:
            return
        entry = _OPEN.get(key)
        if entry is not None:
            entry[1] -= 1
            if entry[1] <= 0:
                del _OPEN[key]


def writable(path: Path) -> bool:
    """False when this process cannot write the log (read-only file, folder or file system,
    or an immutable file); access() never opens the file, so no lock is touched."""
    if not path.exists():
        return True
    if not os.access(path, os.W_OK):
        return False
    side = [Path(f"{path}{s}") for s in ("-wal", "-shm")]
    return os.access(path.parent, os.W_OK) or all(p.exists() and os.access(p, os.W_OK) for p in side)
