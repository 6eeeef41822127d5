"""The event log's schema, as an ordered list of sqlite-utils migrations."""

from __future__ import annotations

from sqlite_utils import Database, Migrations

migrations = Migrations("egocli")


@migrations()
def m001_events_and_sources(db: Database) -> None:
    """Sources (recordings, imports, live sessions) and their timestamped events."""
    db.executescript(
        """
        CREATE TABLE sources (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            name TEXT NOT NULL,
            path TEXT,
            sha256 TEXT,
            start_ms INTEGER,
            duration_ms INTEGER,
            status TEXT NOT NULL DEFAULT 'pending',
            progress_ms INTEGER NOT NULL DEFAULT 0,
            created_ms INTEGER NOT NULL,
            meta TEXT NOT NULL DEFAULT '{}'
        );
        CREATE UNIQUE INDEX sources_sha256 ON sources(kind, sha256) WHERE sha256 IS NOT NULL;
        CREATE INDEX sources_name ON sources(name);
        CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            start_ms INTEGER NOT NULL,
            end_ms INTEGER NOT NULL,
            modality TEXT NOT NULL,
            source_id INTEGER REFERENCES sources(id),
            content TEXT NOT NULL,
            media_path TEXT,
            media_offset_ms INTEGER,
            meta TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX events_start ON events(start_ms);
        CREATE INDEX events_source_start ON events(source_id, start_ms);
        CREATE INDEX events_modality_start ON events(modality, start_ms);
        CREATE VIRTUAL TABLE events_fts USING fts5(
            content, content='events', content_rowid='id', tokenize='porter unicode61'
        );
        CREATE TRIGGER events_ai AFTER INSERT ON events BEGIN
            INSERT INTO events_fts(rowid, content) VALUES (new.id, new.content);
        END;
        CREATE TRIGGER events_ad AFTER DELETE ON events BEGIN
            INSERT INTO events_fts(events_fts, rowid, content) VALUES ('delete', old.id, old.content);
        END;
        CREATE TRIGGER events_au AFTER UPDATE OF content ON events BEGIN
            INSERT INTO events_fts(events_fts, rowid, content) VALUES ('delete', old.id, old.content);
            INSERT INTO events_fts(rowid, content) VALUES (new.id, new.content);
        END;
        """
    )


@migrations()
def m002_summaries(db: Database) -> None:
    """HCC summaries: one row per (level, chunk start), with a hash of the events it covers."""
    db.executescript(
        """
        CREATE TABLE summaries (
            id INTEGER PRIMARY KEY,
            level TEXT NOT NULL,
            start_ms INTEGER NOT NULL,
            end_ms INTEGER NOT NULL,
            text TEXT NOT NULL,
            model TEXT NOT NULL,
            built_ms INTEGER NOT NULL,
            events_hash TEXT NOT NULL,
            event_count INTEGER NOT NULL,
            vec BLOB
        );
        CREATE UNIQUE INDEX summaries_level_start ON summaries(level, start_ms);
        CREATE INDEX summaries_start ON summaries(start_ms);
        """
    )


@migrations()
def m003_event_vectors(db: Database) -> None:
    """Sentence embeddings of events (int8, L2-normalised), clustered by (model, time) for scoped scans."""
    db.executescript(
        """
        CREATE TABLE event_vectors (
            model TEXT NOT NULL,
            start_ms INTEGER NOT NULL,
            event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
            source_id INTEGER,
            vec BLOB NOT NULL,
            PRIMARY KEY (model, start_ms, event_id)
        ) WITHOUT ROWID;
        CREATE INDEX event_vectors_event ON event_vectors(event_id);
        """
    )


@migrations()
def m004_privacy(db: Database) -> None:
    """Retention rules, privacy settings (media salt), and summaries dropped with the events they cover.

    The trigger looks back 8 days from a deleted event: HCC chunks are at most a week long."""
    db.executescript(
        """
        CREATE TABLE retention_rules (
            modality TEXT PRIMARY KEY,
            max_age_ms INTEGER NOT NULL,
            set_ms INTEGER NOT NULL
        );
        CREATE TABLE privacy_settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        CREATE TRIGGER events_ad_summaries AFTER DELETE ON events BEGIN
            DELETE FROM summaries WHERE start_ms > old.start_ms - 691200000
                AND start_ms <= old.end_ms AND end_ms > old.start_ms;
        END;
        """
    )


AUDIT_CAP = 1000
"""Rows the tool-call audit keeps: the newest; older ones are dropped as new ones come."""


@migrations()
def m005_tool_audit(db: Database) -> None:
    """The tool-call audit in a table of its own: audit rows are not memories, so search, ask, summaries and
    the timeline (which read only events) never see them. The assistant's `tool` events move there (the
    newest AUDIT_CAP), with their vectors; `repeats` counts calls folded into a row by the rate limit."""
    db.executescript(
        f"""
        CREATE TABLE tool_audit (
            id INTEGER PRIMARY KEY,
            at_ms INTEGER NOT NULL,
            tool TEXT NOT NULL,
            status TEXT NOT NULL,
            context TEXT NOT NULL,
            content TEXT NOT NULL,
            meta TEXT NOT NULL DEFAULT '{{}}',
            repeats INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX tool_audit_at ON tool_audit(at_ms);
        CREATE TEMP TABLE moved AS SELECT id FROM events WHERE modality = 'tool'
            AND source_id IN (SELECT id FROM sources WHERE kind = 'assistant' AND name = 'assistant');
        INSERT INTO tool_audit (at_ms, tool, status, context, content, meta)
            SELECT start_ms, COALESCE(json_extract(meta, '$.tool'), ''), COALESCE(json_extract(meta, '$.status'), ''),
                   COALESCE(json_extract(meta, '$.context'), ''), content, meta
            FROM events WHERE id IN (SELECT id FROM moved) ORDER BY start_ms, id;
        DELETE FROM tool_audit WHERE id <= (SELECT id FROM tool_audit ORDER BY id DESC LIMIT 1 OFFSET {AUDIT_CAP});
        DELETE FROM event_vectors WHERE event_id IN (SELECT id FROM moved);
        DELETE FROM events WHERE id IN (SELECT id FROM moved);
        DROP TABLE moved;
        DELETE FROM sources WHERE kind = 'assistant' AND name = 'assistant'
            AND id NOT IN (SELECT source_id FROM events WHERE source_id IS NOT NULL);
        """
    )


@migrations()
def m006_audit_forgets_with_the_events(db: Database) -> None:
    """A note or reminder forgotten (log forget, retention) takes the audit rows that quote it along: the
    words of a note_add stay nowhere once the note is gone (they are in the audit row's arguments)."""
    db.executescript(
        """
        CREATE TRIGGER events_ad_audit AFTER DELETE ON events
        WHEN old.modality IN ('note', 'reminder') AND length(old.content) > 0 BEGIN
            DELETE FROM tool_audit WHERE instr(meta, old.content) > 0 OR instr(content, old.content) > 0;
        END;
        """
    )


def known_names() -> list[str]:
    """Names of every migration this version of egocli knows, in order."""
    return [m.name for m in migrations.pending(Database(memory=True))]
