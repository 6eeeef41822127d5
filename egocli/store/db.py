"""The event log: one SQLite file (WAL), migrations applied when it opens."""

from __future__ import annotations

import sqlite3
import weakref
from collections.abc import Iterable, Iterator
import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from egocli.core.errors import InputError, NotFound, StoreError
from egocli.store import files
from egocli.store.connect import connect, db_errors, refuse_newer, refuse_pending
from egocli.store.ftsquery import MAX_SEARCH_WORDS, fts_query  # noqa: F401 - re-exported
from egocli.store.records import Event, NewEvent, Source, check_event, insert_row, meta_json
from egocli.store.schema import known_names, migrations
from egocli.store.cleanup import drop_emptied_sources
from egocli.core.timeutil import now_ms
from egocli.core.words import STOPWORDS as STOPWORDS  # noqa: F401 - re-exported (bench/store.py)

_EVENT_COLS = ("e.id, e.start_ms, e.end_ms, e.modality, e.source_id, e.content, e.media_path, "
               "e.media_offset_ms, e.meta, s.name AS source_name")
INSERT_TRIGGER = ("CREATE TRIGGER events_ai AFTER INSERT ON events BEGIN"
                  " INSERT INTO events_fts(rowid, content) VALUES (new.id, new.content); END")
_FROM = "events e LEFT JOIN sources s ON s.id = e.source_id"


@dataclass(frozen=True)
class EventFilter:
    """Which events a listing, search, export or forget applies to."""

    since_ms: int | None = None
    """Events ending at or after this time."""
    until_ms: int | None = None
    """Events starting before this time."""
    modalities: tuple[str, ...] = ()
    """Only these modalities (empty: all)."""
    source: str | None = None
    """A source name or numeric id."""
    limit: int | None = None
    """At most this many rows."""
    source_id: int | None = None
    """Only this source id."""

    def where(self) -> tuple[str, list[Any]]:
        """SQL WHERE clause (over alias e / s) and its parameters."""
        clauses: list[str] = ["1=1"]
        params: list[Any] = []
        if self.since_ms is not None:
            clauses.append("e.start_ms >= ?")
            params.append(self.since_ms)
        if self.until_ms is not None:
            clauses.append("e.start_ms < ?")
            params.append(self.until_ms)
        if self.modalities:
            clauses.append(f"e.modality IN ({','.join('?' * len(self.modalities))})")
            params.extend(self.modalities)
        if self.source is not None:
            if self.source.isdigit():
                clauses.append("(e.source_id = ? OR s.name = ?)")
                params.extend([int(self.source), self.source])
            else:
                clauses.append("s.name = ?")
                params.append(self.source)
        if self.source_id is not None:
            clauses.append("e.source_id = ?")
            params.append(self.source_id)
        return " AND ".join(clauses), params


class Store:
    """The event log. Open with Store.open(path); every write is one transaction."""

    def __init__(self, db: Database, path: Path | None, key: str | None = None, readonly: bool = False) -> None:
        self.db = db
        self.path = path
        self.key = key
        """The SQLCipher passphrase (kept in memory only) when the log is encrypted."""
        self.readonly = readonly
        """True when the file could not be written, so it was opened read-only."""
        self._release: Any = None

    @classmethod
    def open(cls, path: str | Path | None, create: bool = True, key: str | None = None) -> Store:
        """Open (or create) the log at path (None: in memory), applying migrations.

        With a key, a new log is created encrypted (SQLCipher) and an encrypted one is opened;
        a plain log ignores the key. A file this process cannot write is opened read-only."""
        if path is None or str(path) == ":memory:":
            return cls._init(Database(memory=True), None)
        path = Path(path)
        files.check_path(path)
        with files.opening(path):  # no other thread reads the header while this connection is made
            encrypted = files.is_encrypted(path)
            new = not path.exists()
            if new:
                if not create:
                    raise StoreError(f"{path}: no such log (a command that writes creates it, e.g. egocli log add)")
                if not path.parent.is_dir():
                    files.private_dir(path.parent)
            with files.private_umask() if new else contextlib.nullcontext():
                store = cls._open_file(path, key, encrypted)
            if not store.readonly:
                files.make_private(path)
            store._release = weakref.finalize(store, files.release, files.register(path, encrypted))
        return store

    @classmethod
    def _open_file(cls, path: Path, key: str | None, encrypted: bool) -> Store:
        """Connect and migrate; a file this process cannot write is opened read-only (immutable
        when not even a shared-memory file can be made beside it)."""
        modes = [""] if files.writable(path) else ["mode=ro", "immutable=1"]
        for mode in modes:
            try:
                conn = connect(path, key, encrypted, mode)
                store = cls._init(Database(conn), path, bool(mode))
                break
            except (StoreError,) + db_errors() as ex:
                if mode != modes[-1]:
                    continue
                if isinstance(ex, StoreError):
                    raise
                raise StoreError(f"{path}: cannot open the event log: {ex}") from ex
        store.key = None if isinstance(conn, sqlite3.Connection) else key
        return store

    @property
    def encrypted(self) -> bool:
        """True when the log is an SQLCipher database."""
        return self.key is not None

    @classmethod
    def _init(cls, db: Database, path: Path | None, readonly: bool = False) -> Store:
        try:
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA secure_delete = ON")  # deleted rows are overwritten, not left in free pages
            if path is not None and not readonly:
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = NORMAL")
            db.execute("PRAGMA cache_size = -65536")
            refuse_newer(db, path)
            if readonly:
                refuse_pending(db, path)
            else:
                migrations.apply(db)
                db.execute(f"PRAGMA user_version = {len(known_names())}")
        except db_errors() as ex:
            raise StoreError(f"{path or ':memory:'}: not a usable event log: {ex}") from ex
        return cls(db, path, readonly=readonly)

    def close(self) -> None:
        """Close the connection."""
        self.db.close()
        if self._release is not None:
            self._release()

    @property
    def conn(self) -> sqlite3.Connection:
        """The raw sqlite3 connection."""
        return self.db.conn

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN ... COMMIT, or ROLLBACK on any exception (nesting joins the outer one)."""
        conn = self.conn
        if conn.in_transaction:
            yield conn
            return
        if self.readonly:
            raise StoreError(f"{self.path}: the event log is read-only here (file or folder not writable)")
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def schema_version(self) -> int:
        """How many schema migrations are applied (visible in `egocli stats`)."""
        return len(migrations.applied(self.db))

    # ---- sources -------------------------------------------------------
    def add_source(self, kind: str, name: str, path: str | None = None, sha256: str | None = None,
                   start_ms: int | None = None, duration_ms: int | None = None,
                   status: str = "pending", meta: dict[str, Any] | None = None) -> Source:
        """Create a source row and return it."""
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO sources(kind, name, path, sha256, start_ms, duration_ms, status, created_ms,"
                " meta) VALUES (?,?,?,?,?,?,?,?,?)",
                (kind, name, path, sha256, start_ms, duration_ms, status, now_ms(),
                 meta_json(meta or {})),
            )
        source_id = cur.lastrowid
        assert source_id is not None, "an INSERT sets lastrowid"
        return self.get_source(source_id)

    def get_source(self, source_id: int) -> Source:
        """One source by id."""
        rows = list(self.db.query("SELECT * FROM sources WHERE id = ?", [source_id]))
        if not rows:
            raise NotFound(f"no source with id {source_id}")
        return Source.from_row(rows[0])

    def find_source(self, kind: str | None = None, sha256: str | None = None,
                    name: str | None = None, path: str | None = None) -> Source | None:
        """The newest source matching all given fields, or None."""
        clauses, params = ["1=1"], []
        for col, val in (("kind", kind), ("sha256", sha256), ("name", name), ("path", path)):
            if val is not None:
                clauses.append(f"{col} = ?")
                params.append(val)
        rows = list(self.db.query(
            f"SELECT * FROM sources WHERE {' AND '.join(clauses)} ORDER BY id DESC LIMIT 1", params))
        return Source.from_row(rows[0]) if rows else None

    def update_source(self, source_id: int, **fields: Any) -> None:
        """Set columns of a source (meta is JSON-encoded)."""
        if "meta" in fields:
            fields["meta"] = meta_json(fields["meta"])
        cols = ", ".join(f"{k} = ?" for k in fields)
        with self.transaction() as conn:
            conn.execute(f"UPDATE sources SET {cols} WHERE id = ?", [*fields.values(), source_id])

    def forget_source(self, source_id: int) -> list[str]:
        """Delete a source and all its events; returns media paths no longer referenced."""
        _, media = self.forget(EventFilter(source_id=source_id))
        with self.transaction() as conn:
            conn.execute("DELETE FROM sources WHERE id = ?", [source_id])
        return media

    def sources(self) -> list[Source]:
        """All sources, oldest first."""
        return [Source.from_row(r) for r in self.db.query("SELECT * FROM sources ORDER BY id")]

    # ---- events --------------------------------------------------------
    def add_events(self, events: Iterable[NewEvent], source_id: int | None = None) -> list[int]:
        """Insert events in one transaction; returns their ids."""
        rows = [insert_row(check_event(ev), source_id) for ev in events]
        if not rows:
            return []
        with self.transaction() as conn:
            first = conn.execute("SELECT coalesce(max(id), 0) FROM events").fetchone()[0]
            with self._batched_fts(conn, len(rows)):
                conn.executemany(
                    "INSERT INTO events(start_ms, end_ms, modality, source_id, content, media_path,"
                    " media_offset_ms, meta) VALUES (?,?,?,?,?,?,?,?)", rows)
        # rowids are max(id)+1 each while this connection holds the write lock: contiguous
        return list(range(first + 1, first + len(rows) + 1))

    def bulk_insert(self, rows: Iterable[tuple[int, int, str, int | None, str, str]]) -> int:
        """Fast path: (start_ms, end_ms, modality, source_id, content, meta_json) tuples."""
        rows = list(rows)
        with self.transaction() as conn:
            with self._batched_fts(conn, len(rows)):
                conn.executemany(
                    "INSERT INTO events(start_ms, end_ms, modality, source_id, content, meta)"
                    " VALUES (?,?,?,?,?,?)", rows)
        return len(rows)

    @contextlib.contextmanager
    def _batched_fts(self, conn: sqlite3.Connection, n: int) -> Iterator[None]:
        """For large batches, index the new rows in one statement instead of a trigger per row.

        The insert trigger is dropped and re-created inside the caller's transaction, so other
        connections never see it missing."""
        if n < 64:
            yield
            return
        first = conn.execute("SELECT coalesce(max(id), 0) FROM events").fetchone()[0]
        conn.execute("DROP TRIGGER events_ai")
        yield
        conn.execute("INSERT INTO events_fts(rowid, content) SELECT id, content FROM events WHERE id > ?",
                     [first])
        conn.execute(INSERT_TRIGGER)

    def get_event(self, event_id: int) -> Event:
        """One event by id."""
        rows = list(self.db.query(f"SELECT {_EVENT_COLS} FROM {_FROM} WHERE e.id = ?", [event_id]))
        if not rows:
            raise NotFound(f"no event with id {event_id}")
        return Event.from_row(rows[0])

    def existing(self, ids: Iterable[int]) -> set[int]:
        """The ids among these that are still events in the log (not forgotten or expired)."""
        wanted = list(ids)
        found: set[int] = set()
        for i in range(0, len(wanted), 500):
            part = wanted[i:i + 500]
            marks = ",".join("?" * len(part))
            found.update(row["id"] for row in self.db.query(f"SELECT id FROM events WHERE id IN ({marks})", part))
        return found

    def events(self, flt: EventFilter = EventFilter(), newest_first: bool = False) -> Iterator[Event]:
        """Events matching a filter, in time order."""
        where, params = flt.where()
        order = "DESC" if newest_first else "ASC"
        sql = f"SELECT {_EVENT_COLS} FROM {_FROM} WHERE {where} ORDER BY e.start_ms {order}, e.id {order}"
        if flt.limit is not None:
            sql += f" LIMIT {int(flt.limit)}"
        for row in self.db.query(sql, params):
            yield Event.from_row(row)

    def neighbours(self, event_id: int, n: int) -> list[Event]:
        """The event and up to n events either side of it in time."""
        ev = self.get_event(event_id)
        before = self.db.query(
            f"SELECT {_EVENT_COLS} FROM {_FROM} WHERE (e.start_ms, e.id) < (?, ?)"
            " ORDER BY e.start_ms DESC, e.id DESC LIMIT ?", [ev.start_ms, ev.id, n])
        after = self.db.query(
            f"SELECT {_EVENT_COLS} FROM {_FROM} WHERE (e.start_ms, e.id) > (?, ?)"
            " ORDER BY e.start_ms, e.id LIMIT ?", [ev.start_ms, ev.id, n])
        return [*reversed([Event.from_row(r) for r in before]), ev, *(Event.from_row(r) for r in after)]

    def search(self, query: str, flt: EventFilter = EventFilter()) -> list[tuple[Event, float, str]]:
        """Full-text search, best (lowest BM25) first: (event, score, highlighted snippet).

        Ordering by the FTS5 `rank` column (BM25) rather than a bm25() expression lets FTS5
        sort inside the virtual table: about 2x faster at 1M events."""
        where, params = flt.where()
        limit = int(flt.limit) if flt.limit is not None else 50
        sql = (
            f"SELECT {_EVENT_COLS}, events_fts.rank AS score,"
            " snippet(events_fts, 0, '[', ']', '…', 16) AS snip"
            " FROM events_fts JOIN events e ON e.id = events_fts.rowid LEFT JOIN sources s ON s.id = e.source_id"
            f" WHERE events_fts MATCH ? AND {where} ORDER BY events_fts.rank LIMIT {limit}"
        )
        try:
            rows = list(self.db.query(sql, [fts_query(query), *params]))
        except db_errors() as ex:
            raise StoreError(f"search failed: {ex}") from ex
        return [(Event.from_row(r), r["score"], r["snip"]) for r in rows]

    def times(self, since_ms: int, until_ms: int) -> list[tuple[int, int]]:
        """(start, end) of the events starting in [since, until), in time order: when the wearer was recording."""
        sql = "SELECT start_ms, end_ms FROM events WHERE start_ms >= ? AND start_ms < ? ORDER BY start_ms"
        return [(int(a), int(b)) for a, b in self.conn.execute(sql, [since_ms, until_ms])]

    def size_hint(self) -> int:
        """An upper bound on how many events there are (the highest id: instant, where count(*) reads the
        whole table); 0 for an empty log."""
        return int(self.conn.execute("SELECT coalesce(max(id), 0) FROM events").fetchone()[0])

    def last_start_ms(self) -> int | None:
        """When the newest event began (by the start index: instant); None for an empty log."""
        last: int | None = self.conn.execute("SELECT max(start_ms) FROM events").fetchone()[0]
        return last

    def count(self, flt: EventFilter = EventFilter()) -> int:
        """How many events match a filter."""
        where, params = flt.where()
        return int(self.conn.execute(f"SELECT count(*) FROM {_FROM} WHERE {where}", params).fetchone()[0])

    def forget(self, flt: EventFilter) -> tuple[int, list[str]]:
        """Delete matching events (and their FTS rows); returns (count, media paths to remove)."""
        where, params = flt.where()
        with self.transaction() as conn:
            sub = f"SELECT e.id FROM {_FROM} WHERE {where}"
            media = [r[0] for r in conn.execute(
                f"SELECT DISTINCT media_path FROM events WHERE id IN ({sub}) AND media_path IS NOT NULL",
                params)]
            touched = [r[0] for r in conn.execute(
                f"SELECT DISTINCT source_id FROM events WHERE id IN ({sub}) AND source_id IS NOT NULL", params)]
            cur = conn.execute(f"DELETE FROM events WHERE id IN ({sub})", params)
            count = cur.rowcount
            drop_emptied_sources(conn, touched)
            still = {r[0] for r in conn.execute(
                "SELECT DISTINCT media_path FROM events WHERE media_path IS NOT NULL")}
        if count:
            self.scrub()
        return count, [m for m in media if m not in still]

    def scrub(self) -> None:
        """Leave no trace of deleted events in the file: rewrite the search index without their
        words (freed pages are zeroed: secure_delete is on) and fold the WAL back into the file."""
        with self.transaction() as conn:
            conn.execute("INSERT INTO events_fts(events_fts) VALUES ('optimize')")
        if self.path is not None and not self.conn.in_transaction:
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    def stats(self) -> dict[str, Any]:
        """Counts per modality and per local day, sources and file size."""
        per_modality = dict(self.conn.execute(
            "SELECT modality, count(*) FROM events GROUP BY modality ORDER BY count(*) DESC").fetchall())
        per_day = dict(self.conn.execute("SELECT date(start_ms / 1000, 'unixepoch', 'localtime') AS d, count(*)"
                                         " FROM events GROUP BY d ORDER BY d").fetchall())
        span = self.conn.execute("SELECT min(start_ms), max(end_ms), count(*) FROM events").fetchone()
        size = 0 if self.path is None else \
            sum(p.stat().st_size for suffix in ("", "-wal") if (p := Path(str(self.path) + suffix)).exists())
        return {
            "events": span[2], "first_ms": span[0], "last_ms": span[1],
            "per_modality": per_modality, "per_day": per_day,
            "sources": len(self.sources()), "db_bytes": size, "schema_version": self.schema_version(),
            "path": str(self.path or ":memory:"),
        }
