"""N simulated wearers behind a local Janus, one `egocli agent` process each: end of utterance
(push-to-talk released) -> first answer audio, p50/p95 per wearer, frames kept, agent memory.

    python bench/wearers.py --n 1 2 4 8 [--questions 5] [--fake] [--repack off]

Models come from the usual configuration (EGOCLI_LLM, EGOCLI_ASR, ...); --fake uses the fake
models (a check that the harness works, not a figure); --repack off runs the agents with
`[llm] repack = false` (weights shared through the page cache). Run it alone on the machine."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from egocli.stream.janus_client import JanusGlasses
from egocli.stream.janus_local import LocalJanus

JFK = ROOT.parent / "shared" / "data" / "audio" / "jfk.wav"
EGOCLI = str(Path(sys.executable).with_name("egocli"))
"""The console script of this interpreter's environment (its bin/ need not be on PATH)."""
FAKES = ("llm", "tts", "labeler", "ocr", "embedder", "asr")


def speech() -> np.ndarray:
    """jfk.wav as 16 kHz float32."""
    with wave.open(str(JFK)) as fh:
        return np.frombuffer(fh.readframes(fh.getnframes()), "<i2").astype(np.float32) / 32768.0


def memory_mib(pid: int) -> tuple[float, float]:
    """(PSS, private) of one process in MiB, from /proc/PID/smaps_rollup."""
    kib = {line.split(":")[0]: int(line.split()[1]) for line in
           Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]}
    return kib["Pss"] / 1024.0, (kib["Private_Clean"] + kib["Private_Dirty"]) / 1024.0


async def wearer(url: str, room: int, questions: int, audio: np.ndarray) -> list[float]:
    """One wearer asking by push-to-talk; seconds from release to the first audible answer."""
    glasses = JanusGlasses()
    glasses.feed.frames = [np.random.default_rng(i).integers(0, 255, (360, 640, 3), np.uint8) for i in range(8)]
    glasses.feed.fps = 15.0
    await glasses.connect(url, room, display=f"wearer-{room}", timeout=180)
    delays = []
    for n in range(questions):
        await glasses.send({"type": "ptt", "on": True})
        glasses.feed.say(audio)
        await glasses.feed.drained.wait()
        released = time.monotonic()
        await glasses.send({"type": "ptt", "on": False})
        deadline = released + 60
        while (heard := glasses.first_audio_after(released)) is None and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        if heard is not None:
            delays.append(heard - released)
        await asyncio.sleep(3.0)
    await glasses.close()
    return delays


def frames(db: Path) -> str:
    """Camera frames received and described by the wearer's sessions (from the log)."""
    from egocli.store import Store

    store = Store.open(db)
    try:
        metas = [s.meta for s in store.sources()]
    finally:
        store.close()
    return f"frames received {sum(m.get('received', 0) for m in metas)}, described {sum(m.get('described', 0) for m in metas)}"


def run(n: int, questions: int, fake: bool, repack: bool = True) -> None:
    """Start Janus and n agents, stream n wearers, print their figures."""
    folder = Path(tempfile.mkdtemp(prefix="wearers-"))
    rooms = tuple(2000 + i for i in range(n))
    janus = LocalJanus(folder / "janus", rooms=rooms).start()
    env = {**os.environ, "EGOCLI_HOME": str(folder / "home")}
    (folder / "home").mkdir()
    (folder / "home" / "config.toml").write_text(f"[llm]\nrepack = {str(repack).lower()}\n")
    if fake:
        env.update({f"EGOCLI_{r.upper()}": "fake" for r in FAKES})
    agents: list[subprocess.Popen] = []
    try:  # Janus and every agent started are stopped, whatever fails
        for r in rooms:
            agents.append(subprocess.Popen([EGOCLI, "agent", "--janus", janus.url, "--room", str(r),
                                            "--db", str(folder / f"wearer-{r}.db")], env=env,
                                           stderr=subprocess.DEVNULL))
        audio = speech()

        async def all_wearers() -> list[list[float]]:
            return await asyncio.gather(*(wearer(janus.url, r, questions, audio) for r in rooms))

        results = asyncio.run(all_wearers())
        memory = [memory_mib(a.pid) for a in agents]
    finally:
        for agent in agents:
            agent.send_signal(signal.SIGTERM)
        for agent in agents:
            agent.wait(120)
        janus.stop()
    for room, delays, (pss, private) in zip(rooms, results, memory, strict=True):
        mib = f"agent PSS {pss:.0f} MiB, private {private:.0f} MiB (repack {'on' if repack else 'off'})"
        if delays:
            p95 = sorted(delays)[max(0, round(0.95 * len(delays)) - 1)]
            print(f"N={n} room {room}: answers {len(delays)}/{questions} p50 {statistics.median(delays):.2f} s "
                  f"p95 {p95:.2f} s, {mib}, {frames(folder / f'wearer-{room}.db')}")
        else:
            print(f"N={n} room {room}: no answer audio, {mib}")


def main() -> None:
    """Parse flags and run each N in turn."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--questions", type=int, default=5)
    parser.add_argument("--fake", action="store_true", help="fake models: check the harness only")
    parser.add_argument("--repack", choices=("on", "off"), default="on",
                        help="llama.cpp weight repacking in the agents ([llm] repack)")
    args = parser.parse_args()
    for n in args.n:
        run(n, args.questions, args.fake, args.repack == "on")


if __name__ == "__main__":
    main()
