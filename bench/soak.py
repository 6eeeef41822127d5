"""Soak `egocli serve`: a WebSocket client reconnecting every second (hello, ping, a typed question,
bye) against the installed console script with fake models, for --minutes. Prints the server's RSS,
open file descriptors, sessions and live sources at the start (after a one-minute warm-up) and the
end, and the end/start ratios (the baseline is the same server's own state at the start of the run).

    .venv/bin/python bench/soak.py [--minutes 10] [--every 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

FAKES = ("LLM", "SUMMARIZER", "EMBEDDER", "ASR", "LABELER", "OCR", "TTS", "NARRATOR")
HELLO = {"type": "hello", "audio": {"rate": 16000, "channels": 1}}


def _egocli() -> str:
    return str(Path(sys.executable).with_name("egocli"))


def _proc_state(pid: int) -> dict[str, int]:
    status = Path(f"/proc/{pid}/status").read_text()
    rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
    return {"rss_kb": rss, "fds": len(os.listdir(f"/proc/{pid}/fd"))}


def _load() -> float:
    return os.getloadavg()[0]


async def _one_session(url: str, token: str, n: int) -> bool:
    async with aiohttp.ClientSession() as http, \
            http.ws_connect(url.replace("http", "ws", 1) + "/ws", headers={"Authorization": f"Bearer {token}"}) as ws:
        await ws.send_str(json.dumps(HELLO))
        if json.loads((await ws.receive(timeout=20)).data).get("type") != "welcome":
            return False
        await ws.send_str(json.dumps({"type": "ping", "t": n}))
        if n % 5 == 0:
            await ws.send_str(json.dumps({"type": "ask", "id": f"q{n}", "text": "what did I do today?"}))
        await ws.send_str(json.dumps({"type": "bye"}))
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT or json.loads(msg.data).get("type") == "bye":
                break
    return True


async def _health(url: str, token: str) -> dict[str, int]:
    async with aiohttp.ClientSession() as http, \
            http.get(url + "/api/health", headers={"Authorization": f"Bearer {token}"}) as resp:
        return await resp.json()


async def soak(url: str, token: str, pid: int, minutes: float, every: float) -> None:
    ok = failed = 0
    n = 0
    warm_until = time.monotonic() + min(60.0, minutes * 60 / 5)
    end = time.monotonic() + minutes * 60
    start_state: dict[str, int] | None = None
    while time.monotonic() < end:
        began = time.monotonic()
        try:
            ok += await _one_session(url, token, n)
        except (aiohttp.ClientError, asyncio.TimeoutError) as ex:
            failed += 1
            print(f"session {n} failed: {type(ex).__name__}: {ex}", file=sys.stderr)
        n += 1
        if start_state is None and time.monotonic() >= warm_until:
            start_state = _proc_state(pid)
            print(f"start (after warm-up, {n} sessions, load {_load():.2f}): {start_state}", flush=True)
        await asyncio.sleep(max(0.0, every - (time.monotonic() - began)))
    await asyncio.sleep(2)
    end_state = _proc_state(pid)
    health = await _health(url, token)
    print(f"end ({n} sessions: {ok} ok, {failed} failed; load {_load():.2f}): {end_state}; open sessions "
          f"{health['sessions']}")
    if start_state:
        print(f"ratio end/start: RSS {end_state['rss_kb'] / start_state['rss_kb']:.3f}, "
              f"fds {end_state['fds'] / start_state['fds']:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--every", type=float, default=1.0, help="Seconds between reconnects.")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "EGOCLI_HOME": str(Path(tmp) / "home"), **{f"EGOCLI_{r}": "fake" for r in FAKES}}
        db = Path(tmp) / "log.db"
        proc = subprocess.Popen([_egocli(), "--db", str(db), "serve", "--port", "0", "--live-budget", "0"],
                                env=env, stderr=subprocess.PIPE, text=True)
        assert proc.stderr is not None
        line = ""
        while "serving" not in line:
            line = proc.stderr.readline()
            if not line:
                raise SystemExit("serve did not start")
        m = re.search(r"(http://\S+?/)\?token=(\S+)", line)
        assert m, line
        print(f"serve pid {proc.pid}, load at start {_load():.2f}", flush=True)
        try:
            asyncio.run(soak(m.group(1).rstrip("/"), m.group(2), proc.pid, args.minutes, args.every))
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(60)
        done = subprocess.run([_egocli(), "--db", str(db), "sources", "list", "--json"], env=env,
                              capture_output=True, text=True)
        sources = json.loads(done.stdout or "[]")
        print(f"live sources after the run: {len(sources)} ({sum(1 for s in sources if s.get('events', 0) == 0)} "
              f"without events); statuses {sorted({s['status'] for s in sources})}")


if __name__ == "__main__":
    main()
