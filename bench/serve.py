"""Benchmark `egocli serve`: WebRTC and WebSocket in the same run.

Prints: control round trip p50/p95; end of a push-to-talk question -> first answer audio at the
client p50/p95 (default models unless --fake), answered from the pre-filled live window, and the
same over WebSocket on a baseline server whose answers go through the ask core with nothing
pre-filled (the ratio is printed); first video frame at the server after connect; how many
concurrent streaming clients keep up (server receives >= 90% of the frames sent).

    .venv/bin/python bench/serve.py [--fake] [--llm qwen0.5b] [--questions 3] [--clients 1,2,4,8] [--no-baseline]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import threading
import time
import wave
from pathlib import Path

import numpy as np

from egocli.assistant.serve_options import ServeOptions
from egocli.assistant.serve import serve
from egocli.core.config import load_settings
from egocli.store import Store
from egocli.stream.client import RtcClient, WsClient

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
TRANSPORTS = {"webrtc": RtcClient, "websocket": WsClient}
QUESTIONS = ["What did the president ask people to do?", "What did I just hear about the country?",
             "Who was the speech addressed to?", "What should people ask themselves?",
             "What did he say not to ask?"]
"""Short questions answered from recent speech, asked in turn (so no answer reuses a cached prompt)."""


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


class Server:
    """The server in a background thread."""

    def __init__(self, db: Path, models: dict[str, str], max_sessions: int = 16, live_budget: int = 700) -> None:
        self.settings = load_settings(db=db, home=db.parent / "home", models=models)
        self.options = ServeOptions.of(port=0, ice_loopback=True, max_sessions=max_sessions, live_budget=live_budget)
        self.db, self.url, self.ready = db, "", threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)
        self.thread.start()
        assert self.ready.wait(120)

    async def _main(self) -> None:
        self.loop, self.stop_event = asyncio.get_running_loop(), asyncio.Event()
        await serve(self.settings, self.options, self.stop_event, self._up)

    def _up(self, url: str) -> None:
        self.url = url.rstrip("/")
        self.ready.set()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.stop_event.set)
        self.thread.join(300)


def jfk() -> np.ndarray:
    with wave.open(str(DATA / "audio" / "jfk.wav")) as fh:
        pcm = np.frombuffer(fh.readframes(fh.getnframes()), "<i2").astype(np.float32) / 32768
    return np.concatenate([np.zeros(16000, np.float32), pcm, np.zeros(16000, np.float32)])


def frames() -> list[np.ndarray]:
    import av

    with av.open(str(DATA / "video" / "1.mp4")) as container:
        return [f.to_ndarray(format="bgr24") for f in container.decode(video=0)]


async def round_trips(kind: str, url: str, n: int = 200) -> list[float]:
    client = TRANSPORTS[kind]()
    await client.connect(url, video=False)
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        await client.send({"type": "ping", "t": i})
        await client.wait_for("pong", timeout=5, t=i)
        times.append((time.perf_counter() - t0) * 1000)
    await client.close()
    return times


async def seed(url: str, wait_live: bool) -> None:
    """Put JFK's words in the log (so the question has something to answer from); with wait_live,
    also wait until the server answers from its pre-filled live window."""
    client = WsClient()
    await client.connect(url, video=False)
    client.feed.say(jfk())
    await asyncio.wait_for(client.feed.drained.wait(), 30)
    await client.wait_for("event", timeout=60, modality="speech")
    for ref in range(60 if wait_live else 1):
        await client.send({"type": "ask", "id": ref, "text": "What did I just hear?"})
        answer = await client.wait_for("answer", timeout=300, id=ref)
        if answer.get("route") == "live" or not wait_live:
            break
        await asyncio.sleep(2)
    await client.close()


async def answer_latency(kind: str, url: str, questions: list[np.ndarray], n: int) -> list[float]:
    client = TRANSPORTS[kind]()
    await client.connect(url, video=False)
    client.feed.say(np.zeros(16000, np.float32))
    await asyncio.wait_for(client.feed.drained.wait(), 5)
    out = []
    for i in range(n):
        await client.send({"type": "ptt", "on": True})
        client.feed.say(questions[i % len(questions)])
        await asyncio.wait_for(client.feed.drained.wait(), 30)
        end = client.feed.drained_at
        await client.send({"type": "ptt", "on": False})
        deadline = time.monotonic() + 120
        while (first := client.first_audio_after(end)) is None and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        if first is not None:
            out.append((first - end) * 1000)
        await asyncio.sleep(0.5)
        await client.send({"type": "stop"})
        await asyncio.sleep(0.5)
    await client.close()
    return out


async def streaming(kind: str, url: str, clients: int, video: list[np.ndarray], seconds: float = 8.0) -> None:
    peers = [TRANSPORTS[kind]() for _ in range(clients)]
    for peer in peers:
        peer.feed.frames, peer.feed.fps = video, 15.0
    await asyncio.gather(*(p.connect(url) for p in peers))
    await asyncio.sleep(seconds)
    await asyncio.gather(*(p.close() for p in peers))


def source_counts(db: Path, since_id: int) -> list[dict]:
    store = Store.open(db)
    try:
        return [{**s.meta, "duration_ms": s.duration_ms} for s in store.sources() if s.id > since_id]
    finally:
        store.close()


def last_source_id(db: Path) -> int:
    store = Store.open(db)
    try:
        return max((s.id for s in store.sources()), default=0)
    finally:
        store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fake", action="store_true", help="fake LLM/TTS/vision (transport cost only)")
    ap.add_argument("--llm", default=None, help="LLM for answers (default: the registry default)")
    ap.add_argument("--questions", type=int, default=3)
    ap.add_argument("--clients", default="1,2,4,8")
    ap.add_argument("--no-baseline", action="store_true", help="skip the baseline server without the live window")
    args = ap.parse_args()
    models = {"labeler": "fake", "ocr": "fake"} if not args.fake else \
        {r: "fake" for r in ("llm", "tts", "labeler", "ocr", "embedder")}
    if args.llm:
        models["llm"] = args.llm
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        server = Server(db, models)
        try:
            asyncio.run(_run(server, args))
        finally:
            server.stop()


async def _run(server: Server, args: argparse.Namespace) -> None:
    from egocli.models import registry
    from egocli.perception.audio import resample

    print(f"models: {server.settings.models or 'defaults'}")
    await seed(server.url, wait_live=True)
    tts = registry.load("tts", server.settings)
    question = [resample(np.asarray(a, np.float32), int(r), 16000) for a, r in (tts.speak(q) for q in QUESTIONS)]
    live: dict[str, list[float]] = {}
    for kind in TRANSPORTS:
        rt = await round_trips(kind, server.url)
        print(f"{kind:9s} round trip        p50 {pct(rt, 50):7.2f} ms   p95 {pct(rt, 95):7.2f} ms  (n={len(rt)})")
        live[kind] = lat = await answer_latency(kind, server.url, question, args.questions)
        print(f"{kind:9s} utterance->audio  p50 {pct(lat, 50):7.0f} ms   p95 {pct(lat, 95):7.0f} ms  (n={len(lat)},"
              f" pre-filled live window)")
    if not args.no_baseline:
        base_db = server.db.parent / "baseline.db"
        baseline = Server(base_db, dict(server.settings.models), live_budget=0)
        try:
            await seed(baseline.url, wait_live=False)
            lat = await answer_latency("websocket", baseline.url, question, args.questions)
        finally:
            baseline.stop()
        print(f"websocket utterance->audio  p50 {pct(lat, 50):7.0f} ms   p95 {pct(lat, 95):7.0f} ms  (n={len(lat)},"
              f" baseline: ask core over the log, nothing pre-filled)")
        print(f"baseline / live p50: {pct(lat, 50) / max(1.0, pct(live['websocket'], 50)):.1f}x")
    video = frames()
    for kind in TRANSPORTS:
        for n in (int(x) for x in args.clients.split(",")):
            before = last_source_id(server.db)
            await streaming(kind, server.url, n, video)
            await asyncio.sleep(1.0)
            stats = source_counts(server.db, before)
            first = [s.get("first_frame_ms", 0) for s in stats]
            fps = [s.get("received", 0) / max(1, s["duration_ms"] - f) * 1000 for s, f in zip(stats, first)]
            ok = bool(fps) and min(fps) >= 0.9 * 15.0
            print(f"{kind:9s} {n:2d} clients @15 fps: received {np.mean(fps):5.1f} fps/client (min {min(fps):5.1f}),"
                  f" first frame {np.median(first):5.0f} ms after offer -> {'sustained' if ok else 'BACKLOG'}")


if __name__ == "__main__":
    main()
