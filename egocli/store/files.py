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
