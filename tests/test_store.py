import sqlite3

import pytest

from egocli.core.errors import StoreError
from egocli.store import EventFilter, NewEvent, Store
from egocli.store.schema import known_names


def _events(n, t0=1_700_000_000_000, text="walking the dog"):
    return [NewEvent(t0 + i * 1000, t0 + i * 1000 + 500, "visual", f"{text} {i}") for i in range(n)]


def test_migrations_idempotent(tmp_path):
    path = tmp_path / "a.db"
    s = Store.open(path)
    s.add_events(_events(3))
    s.close()
    s2 = Store.open(path)
    assert s2.schema_version() == len(known_names())
    assert s2.count() == 3
    assert s2.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_fts_stays_in_sync_after_forget_and_update(tmp_path):
    s = Store.open(tmp_path / "a.db")
    ids = s.add_events(_events(5))
    assert len(s.search("dog")) == 5
    count, _ = s.forget(EventFilter(since_ms=1_700_000_000_000 + 2000))
    assert count == 3
    assert sorted(e.id for e, _, _ in s.search("dog")) == ids[:2]
    s.conn.execute("UPDATE events SET content = 'feeding the cat' WHERE id = ?", [ids[0]])
    assert [e.id for e, _, _ in s.search("cat")] == [ids[0]]
    assert [e.id for e, _, _ in s.search("dog")] == [ids[1]]
    # the FTS index agrees with the table (integrity-check raises on mismatch)
    s.conn.execute("INSERT INTO events_fts(events_fts) VALUES ('integrity-check')")


def test_failed_write_rolls_back(tmp_path):
    s = Store.open(tmp_path / "a.db")
    s.add_events(_events(2))

    def bad():
        yield from _events(3, text="partial")
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        s.add_events(bad())
    assert s.count() == 2
    assert s.search("partial") == []


def test_not_sqlite_file_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello, this is not a database at all")
    with pytest.raises(StoreError, match="not an SQLite file"):
        Store.open(path)
    assert path.read_text() == "hello, this is not a database at all"


def test_foreign_sqlite_file_is_refused(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE customers (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="not an egocli event log"):
        Store.open(path)


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "a.db"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO _sqlite_migrations(migration_set, name, applied_at)"
                 " VALUES ('egocli', 'm999_from_the_future', '2030-01-01')")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer egocli"):
        Store.open(path)


def test_neighbours_and_filters(tmp_path):
    s = Store.open(tmp_path / "a.db")
    ids = s.add_events(_events(10))
    around = s.neighbours(ids[5], 2)
    assert [e.id for e in around] == ids[3:8]
    flt = EventFilter(since_ms=1_700_000_000_000 + 3000, until_ms=1_700_000_000_000 + 6000)
    assert [e.id for e in s.events(flt)] == ids[3:6]
    assert [e.id for e in s.events(EventFilter(limit=2), newest_first=True)] == ids[:-3:-1]


def test_large_batches_are_indexed_and_keep_the_trigger(tmp_path):
    s = Store.open(tmp_path / "a.db")
    ids = s.add_events(_events(500, text="batch kettle"))
    assert ids == list(range(1, 501))
    assert s.count() == 500 and len(s.search("kettle", EventFilter(limit=1000))) == 500
    with pytest.raises(sqlite3.IntegrityError):
        s.bulk_insert([(1, 2, "visual", 9999, "orphan row", "{}")] * 100)  # no source 9999: rolls back
    one = s.add_events([NewEvent(5, 6, "note", "single teapot")])
    assert [e.id for e, _, _ in s.search("teapot")] == one
    s.conn.execute("INSERT INTO events_fts(events_fts) VALUES ('integrity-check')")
