"""Encryption at rest: an SQLCipher log is unreadable without its key and fully working with it."""

from __future__ import annotations

import json
import sqlite3

import pytest

from egocli.core.errors import StoreError
from egocli.privacy import crypto
from egocli.store import Store

pytest.importorskip("sqlcipher3")
KEY = "correct horse battery staple"


def _raw(db) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def test_encrypted_log_works_fully_with_the_key(cli, db, monkeypatch):
    monkeypatch.setenv("EGOCLI_KEY", KEY)
    res = cli("init", "--encrypt")
    assert res.exit_code == 0 and "encrypted" in res.stdout
    assert cli("log", "add", "the spare key is under the blue flowerpot").exit_code == 0
    hits = json.loads(cli("log", "search", "flowerpots", "--json").stdout)  # FTS5 with porter stemming
    assert [h["content"] for h in hits] == ["the spare key is under the blue flowerpot"]
    assert cli("retention", "set", "30d").exit_code == 0
    report = json.loads(cli("privacy", "report", "--json").stdout)
    assert report["encrypted"] is True and report["events"] == 1
    assert b"flowerpot" not in _raw(db) and b"SQLite format 3" not in _raw(db)
    with pytest.raises(sqlite3.DatabaseError):
        sqlite3.connect(db).execute("SELECT * FROM events").fetchall()


def test_without_or_with_a_wrong_key_one_line_errors(cli, db, monkeypatch):
    monkeypatch.setenv("EGOCLI_KEY", KEY)
    cli("init", "--encrypt")
    cli("log", "add", "a secret")
    monkeypatch.delenv("EGOCLI_KEY")
    res = cli("log", "list")
    assert res.exit_code == 1
    assert res.stderr.strip() == f"Error: {db}: the event log is encrypted: set EGOCLI_KEY (or not an egocli database)"
    monkeypatch.setenv("EGOCLI_KEY", "not it")
    res = cli("log", "list")
    assert res.exit_code == 1
    assert res.stderr.strip() == f"Error: {db}: wrong key for the encrypted event log (or not an egocli database)"


def test_init_refuses_an_existing_log_and_a_missing_key(cli, db, monkeypatch):
    monkeypatch.delenv("EGOCLI_KEY", raising=False)
    res = cli("init", "--encrypt", input="")
    assert res.exit_code == 2 and "set EGOCLI_KEY" in res.stderr
    cli("log", "add", "plain")
    res = cli("init", "--encrypt")
    assert res.exit_code == 1 and "already exists (not encrypted)" in res.stderr


def test_media_files_are_encrypted_with_a_key_derived_from_the_passphrase(tmp_path):
    store = Store.open(tmp_path / "m.db", key=KEY)
    key = crypto.media_key(store)
    written = crypto.write_media(tmp_path / "f.jpg", b"\xff\xd8 a jpeg", key)
    assert written.name == "f.jpg.enc" and b"a jpeg" not in written.read_bytes()
    store.close()
    again = Store.open(tmp_path / "m.db", key=KEY)
    assert crypto.read_media(written, crypto.media_key(again)) == b"\xff\xd8 a jpeg"
    with pytest.raises(StoreError, match="cannot decrypt"):
        crypto.read_media(written, bytes(32))
    assert crypto.media_key(Store.open(tmp_path / "plain.db")) is None


def test_ingest_into_an_encrypted_log_encrypts_kept_frames(cli, db, tmp_path, monkeypatch, face_frame):
    from tests.privacy.conftest import write_video

    monkeypatch.setenv("EGOCLI_KEY", KEY)
    monkeypatch.setenv("EGOCLI_LABELER", "fake")
    monkeypatch.setenv("EGOCLI_OCR", "fake")
    cli("init", "--encrypt")
    res = cli("ingest", write_video(tmp_path / "v.mp4", [face_frame] * 3), "--no-audio", "--keep-frames")
    assert res.exit_code == 0, res.stderr
    ev = json.loads(cli("log", "list", "--jsonl", "-m", "visual").stdout.splitlines()[0])
    frame = tmp_path / "log-media" / ev["media_path"]
    assert frame.name.endswith(".jpg.enc")
    store = Store.open(db, key=KEY)
    assert crypto.read_media(frame, crypto.media_key(store))[:2] == b"\xff\xd8"
