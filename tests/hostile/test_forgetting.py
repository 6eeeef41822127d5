"""Issue 17.7: what retention or forget removes must not stay readable in the log's files.

On main the deleted events' words stayed in the FTS index's segment pages (events_fts_data)
and in freed pages: `strings log.db` still showed them after `retention set 1d` or `log forget`."""

from __future__ import annotations

from pathlib import Path


def _on_disk(db: Path) -> bytes:
    """Every byte egocli keeps for the log: the file, its WAL and its shared-memory index."""
    return b"".join(p.read_bytes() for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists())


def test_expired_and_forgotten_words_are_gone_from_the_file(run, db):
    old = [f"zanzibarquokka {i} met the courier at the harbour" for i in range(40)]
    jsonl = "".join(f'{{"start": {-(3 * 86400) + i}, "content": "{t}"}}\n' for i, t in enumerate(old))
    assert run("log", "add", "-", input=jsonl).returncode == 0
    assert run("log", "add", "kept snowleopard note").returncode == 0
    secrets = "".join(f'{{"start": {i}, "content": "vantablackotter secret {i}", "modality": "secret"}}\n'
                      for i in range(20))
    assert run("log", "add", "-", input=secrets).returncode == 0
    assert b"zanzibarquokk" in _on_disk(db) and b"vantablackott" in _on_disk(db)  # the check can fail

    res = run("retention", "set", "1d", "--yes")
    assert res.returncode == 0 and "removed 40 expired" in res.stdout, res.stderr
    res = run("log", "forget", "--modality", "secret", "--yes")
    assert res.returncode == 0 and "forgot 20" in res.stdout, res.stderr

    data = _on_disk(db)
    assert b"zanzibarquokk" not in data
    assert b"vantablackott" not in data
    assert b"snowleopard" in data
    hits = run("log", "search", "snowleopard")
    assert hits.returncode == 0 and "snowleopard" in hits.stdout
