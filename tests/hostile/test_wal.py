"""Issue 17.1: `serve` must never lose its WAL to a CLI running beside it.

On main, every Store.open read the file header with a plain Python file object; closing it
dropped all of the server process's POSIX locks on the log (one Store per thread), so the next
`egocli log list` to exit believed it was the last connection, checkpointed and unlinked
log.db-wal and log.db-shm while the server still wrote to them: /proc/PID/fd showed them
"(deleted)" and notes written afterwards were lost. The answer thread opens its own Store when
the first question comes, which is the second open in the server process."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import aiohttp


async def _one_session(url: str, n: int, token: str = "") -> int:
    """Open a WebSocket session, ask one question (the answer thread opens the log), say bye."""
    async with aiohttp.ClientSession() as http, http.ws_connect(url.replace("http", "ws") + "/ws",
                                                                   headers={"Authorization": f"Bearer {token}"}) as ws:
        await ws.send_str(json.dumps({"type": "hello", "audio": {"rate": 16000, "channels": 1}}))
        source_id = None
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue  # the spoken answer's audio
            data = json.loads(msg.data)
            if data["type"] == "welcome":
                source_id = data["source_id"]
                await ws.send_str(json.dumps({"type": "ask", "text": f"what did I note {n}?", "id": "q"}))
            elif data["type"] in ("answer", "error") and data.get("id") == "q":
                await ws.send_str(json.dumps({"type": "bye"}))
            elif data["type"] == "bye":
                break
        assert source_id is not None
        return source_id


def _sessions(url: str, count: int, out: list[int], token: str = "") -> None:
    async def go() -> None:
        for n in range(count):
            out.append(await asyncio.wait_for(_one_session(url, n, token), 60))
    asyncio.run(go())


def test_serve_with_cli_readers_and_writers_in_parallel_keeps_its_wal_and_every_write(run, serve, db):
    assert run("log", "add", "seed note").returncode == 0
    server = serve()
    gone: list[str] = []
    watching = threading.Event()

    def watch() -> None:
        while not watching.is_set():
            gone.extend(f for f in server.open_files() if str(db) in f and f.endswith("(deleted)"))
            time.sleep(0.01)  # the watcher's sampling period over /proc/PID/fd, not a wait for an event

    watcher = threading.Thread(target=watch)
    watcher.start()
    sources: list[int] = []
    notes = [f"parallel note number {i}" for i in range(6)]
    with ThreadPoolExecutor(4) as pool:
        live = pool.submit(_sessions, server.url, 3, sources, server.token)
        jobs = [pool.submit(run, "log", "add", note) for note in notes]
        jobs += [pool.submit(run, *cmd) for cmd in [("log", "list", "-n", "1"), ("stats",)] * 3]
        live.result(timeout=300)
        results = [j.result(timeout=300) for j in jobs]
    watching.set()
    watcher.join()
    assert [r.stderr for r in results if r.returncode != 0] == []
    assert gone == [], f"the server's WAL was unlinked under it: {sorted(set(gone))}"
    assert server.stop() == 0
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = {r[0] for r in conn.execute("SELECT content FROM events WHERE modality = 'note'")}
        status = dict(conn.execute("SELECT id, status FROM sources"))
    finally:
        conn.close()
    assert stored == {"seed note", *notes}
    # each session finished its source: 'done', or dropped because it logged nothing (issue #30 item 6)
    assert len(sources) == 3 and all(status.get(s, "done") == "done" for s in sources), status
