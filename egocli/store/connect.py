"""Making a connection to the log: stdlib sqlite3 or SQLCipher, read-write or read-only, and
the checks that refuse a log this egocli cannot use."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlite_utils import Database

from egocli.core.errors import StoreError
from egocli.store.schema import known_names, migrations


def db_errors() -> tuple[type[Exception], ...]:
    """Database error classes of the stdlib sqlite3 and, once loaded, SQLCipher's."""
    cipher = sys.modules.get("sqlcipher3.dbapi2")
    return (sqlite3.DatabaseError, cipher.DatabaseError) if cipher else (sqlite3.DatabaseError,)


def connect(path: Path, key: str | None, encrypted: bool, readonly: str = "") -> Any:
    """A connection: stdlib sqlite3 for plain logs, SQLCipher when a key is given or needed;
    readonly: '' (read-write), or the URI parameters of a read-only open."""
    if encrypted and key is None:
        raise StoreError(f"{path}: the event log is encrypted: set EGOCLI_KEY (or not an egocli database)")
    target, uri = (f"file:{quote(str(path.resolve()))}?{readonly}", True) if readonly else (str(path), False)
    if key is None or (path.exists() and not encrypted):
        return sqlite3.connect(target, timeout=30, isolation_level=None, uri=uri)
    try:
        from sqlcipher3 import dbapi2 as sqlcipher
    except ImportError as ex:
        raise StoreError("encryption needs the sqlcipher3-binary package (pip install sqlcipher3-binary)") from ex
    conn = sqlcipher.connect(target, timeout=30, isolation_level=None, uri=uri)
    conn.execute("PRAGMA cipher_log_level = NONE")
    conn.execute("PRAGMA key = '" + key.replace("'", "''") + "'")
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlcipher.DatabaseError:
        conn.close()
        raise StoreError(f"{path}: wrong key for the encrypted event log (or not an egocli database)") from None
    return conn


def refuse_pending(db: Database, path: Path | None) -> None:
    """A read-only log must already have every migration: nothing can be applied to it."""
    pending = migrations.pending(db)
    if pending:
        raise StoreError(f"{path}: read-only, and {len(pending)} schema migration(s) are pending; "
                         "open it once with write access to upgrade it")


def refuse_newer(db: Database, path: Path | None) -> None:
    """Refuse a file that is not an egocli log, or was written by a newer egocli."""
    if "_sqlite_migrations" not in db.table_names():
        if db.table_names() and "events" not in db.table_names():
            raise StoreError(f"{path}: an SQLite file, but not an egocli event log")
        return
    applied = {r["name"] for r in db.query(
        "SELECT name FROM _sqlite_migrations WHERE migration_set = 'egocli'")}
    unknown = applied - set(known_names())
    if unknown:
        raise StoreError(
            f"{path}: written by a newer egocli (schema {len(applied)}, this one knows "
            f"{len(known_names())}); upgrade egocli")
