"""N simulated wearers behind a local Janus, one `egocli agent` process each, beside `egocli serve`
with one direct WebRTC client: end of utterance (push-to-talk released) -> first answer audio.

    python bench/wearers.py --n 1,2,4,8 [--questions 5] [--fake] [--repack off] [--no-serve]
    python bench/wearers.py --n 1,2,4 --layout both --no-serve     # own models vs one shared llama-server

Each wearer streams a real clip at 15 fps (640x360) and asks jfk.wav's first sentence (4.3 s of
speech) by push-to-talk, released as the speech ends; the wearers' questions are spread evenly over one question's
cycle, not all at the same instant. Per wearer: answers heard / asked (a question unanswered after
--answer-timeout counts as no answer, a wearer that fails is reported, the run goes on), p50/p95,
camera frames sent / received by its agent / described, and its agent's PSS and private memory.
One uncounted warm-up question per wearer comes first. Janus, the agents and serve run in a
scratch folder (their logs, any core dump), removed afterwards unless --keep or something failed.
Models come from the usual configuration (EGOCLI_LLM, ...); --fake checks the harness only.
--layout shared (or both) also runs each N with one llama-server for the machine (`egocli models serve`,
a slot per prompt, --server-threads) and every agent's text model pointed at it, perception threads sized
to the cores left (bench/shared_server.py), then summarises both layouts: p50/p95 per wearer, memory per
wearer (its agent plus its share of the server), the largest N with p50 < 2 s and < 4 s.
Timing figures are meant to be taken with the machine otherwise idle."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import shared_server
from egocli.models.llamaserver import default_threads
from egocli.stream.client import Feed, RtcClient
from egocli.stream.janus_client import JanusGlasses
from egocli.stream.janus_local import LocalJanus, free_port

DATA = ROOT.parent / "shared" / "data"
EGOCLI = str(Path(sys.executable).with_name("egocli"))
"""The console script of this interpreter's environment (its bin/ need not be on PATH)."""
FAKES = ("llm", "tts", "labeler", "ocr", "embedder", "asr")
FPS = 15.0
P50_LIMIT_S = 2.0


@dataclass
class Result:
    """One wearer's (or the direct client's) figures: questions asked (warm-up not counted), seconds from
    release to the first audible answer per answered question, camera frames sent / received by its agent /
    described into the log, the agent's PSS and private memory (MiB) at the end, the most the simulated
    microphone fell behind or ran ahead of real time in a question (the harness starved of CPU: a row with a
    lag over ~0.2 s is not a valid figure), and why the wearer stopped early, if it did."""

    setup: str
    name: str
    asked: int = 0
    delays: list[float] = field(default_factory=list)
    sent: int = 0
    received: int = 0
    described: int = 0
    pss: float = math.nan
    private: float = math.nan
    lag: float = 0.0
    error: str = ""


class CountingFeed(Feed):
    """The wearer's microphone and camera, counting the camera frames sent."""

    def __init__(self) -> None:
        super().__init__()
        self.sent = 0

    def frame(self, index: int) -> np.ndarray | None:
        """Frame `index` of the loop (counted)."""
        self.sent = max(self.sent, index + 1)
        return super().frame(index)


@dataclass(frozen=True)
class Plan:
    """What every wearer does."""

    speech: np.ndarray
    frames: list[np.ndarray]
    questions: int
    answer_timeout: float
    connect_timeout: float = 300.0
    gap_s: float = 3.0

    @property
    def cycle_s(self) -> float:
        """About one question's length: speech, an answer, the pause."""
        return self.speech.size / 16000 + 2.0 + self.gap_s

    @property
    def budget_s(self) -> float:
        """The longest one wearer may take before it is given up on."""
        per_question = self.speech.size / 16000 + 15 + 2 * self.answer_timeout + self.gap_s
        return 2 * self.connect_timeout + (self.questions + 1) * per_question + 2 * self.cycle_s + 30


QUESTION_S = 4.4
"""jfk.wav's first sentence ('And so, my fellow Americans, ask not what your country can do for you'), its
speech ending at 4.3 s: one utterance to the live VAD, ended by the release, not by a pause (a pause of
0.7 s while push-to-talk is held ends an utterance that is answered at once, before the release)."""


def clip() -> np.ndarray:
    """A second of silence, then jfk.wav's first sentence, as 16 kHz float32 (released as it ends)."""
    import wave

    with wave.open(str(DATA / "audio" / "jfk.wav")) as fh:
        pcm = np.frombuffer(fh.readframes(fh.getnframes()), "<i2").astype(np.float32) / 32768.0
    return np.concatenate([np.zeros(16000, np.float32), pcm[:int(16000 * QUESTION_S)]])


def camera(limit: int = 150) -> list[np.ndarray]:
    """The first `limit` frames of a real clip (640x360), looped at 15 fps by each wearer."""
    import av

    with av.open(str(DATA / "video" / "1.mp4")) as container:
        out = []
        for frame in container.decode(video=0):
            out.append(frame.to_ndarray(format="bgr24"))
            if len(out) == limit:
                break
    return out


def memory_mib(pid: int) -> tuple[float, float]:
    """(PSS, private) of one process in MiB, from /proc/PID/smaps_rollup (NaN once it is gone)."""
    try:
        lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]
    except OSError:
        return math.nan, math.nan
    kib = {line.split(":")[0]: int(line.split()[1]) for line in lines}
    return kib["Pss"] / 1024.0, (kib["Private_Clean"] + kib["Private_Dirty"]) / 1024.0


def answers(client: Any) -> int:
    """Answer messages the client has received so far."""
    return sum(1 for m in client.inbox if m.get("type") == "answer")


async def ask(client: Any, plan: Plan, wait_s: float, result: Result) -> float | None:
    """One push-to-talk question; seconds from release to the first audible answer (None: none within
    --answer-timeout). Returns once the answer is complete (or wait_s more has passed) and a pause later,
    so a late answer's audio never counts for the next question."""
    before = answers(client)
    await client.send({"type": "ptt", "on": True})
    client.feed.say(plan.speech)
    said = time.monotonic()
    try:
        await asyncio.wait_for(client.feed.drained.wait(), plan.speech.size / 16000 + 15)
    except TimeoutError:
        raise RuntimeError("the microphone stopped sending (connection lost, or the harness starved)") from None
    released = time.monotonic()
    result.lag = max(result.lag, abs(released - said - plan.speech.size / 16000))
    await client.send({"type": "ptt", "on": False})
    deadline = released + plan.answer_timeout
    while (heard := client.first_audio_after(released)) is None and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    deadline = time.monotonic() + wait_s
    while answers(client) == before and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    await asyncio.sleep(plan.gap_s)
    return None if heard is None else heard - released


async def converse(client: Any, plan: Plan, offset_s: float, result: Result) -> None:
    """A warm-up question (models loading: waited for up to connect_timeout), then the counted ones."""
    await asyncio.sleep(offset_s)
    before = answers(client)
    await ask(client, plan, plan.connect_timeout, Result("", ""))
    if answers(client) == before:
        raise RuntimeError(f"no answer to the warm-up question within {plan.connect_timeout:.0f} s")
    for _ in range(plan.questions):
        result.asked += 1
        delay = await ask(client, plan, plan.answer_timeout, result)
        if delay is not None:
            result.delays.append(delay)


async def one_wearer(client: Any, connect: Any, plan: Plan, offset_s: float, result: Result) -> None:
    """Connect, converse and hang up within the plan's budget; failures go into `result.error`."""
    client.feed = CountingFeed()
    client.feed.frames, client.feed.fps = plan.frames, FPS

    async def session() -> None:
        try:
            await connect()
            await converse(client, plan, offset_s, result)
        finally:
            result.sent = client.feed.sent
            with contextlib.suppress(Exception):  # a half-made connection has parts missing
                await asyncio.wait_for(client.close(), 20)

    try:
        await asyncio.wait_for(session(), plan.budget_s)
    except Exception as ex:  # noqa: BLE001  (one wearer's failure is reported, the others go on)
        result.error = f"{type(ex).__name__}: {ex}"[:200]


def frames_logged(db: Path) -> tuple[int, int]:
    """(received, described) camera frames of every session in a wearer's log."""
    from egocli.store import Store

    if not db.exists():
        return 0, 0
    store = Store.open(db)
    try:
        metas = [s.meta for s in store.sources()]
    finally:
        store.close()
    return sum(m.get("received", 0) for m in metas), sum(m.get("described", 0) for m in metas)


class Scratch:
    """A scratch folder for one setup: the home, the logs, and the processes started there (always stopped)."""

    def __init__(self, base: Path, name: str, env: dict[str, str], config: str) -> None:
        self.folder = base / name
        (self.folder / "home").mkdir(parents=True)
        (self.folder / "home" / "config.toml").write_text(config)
        self.env = {**env, "EGOCLI_HOME": str(self.folder / "home")}
        self.procs: list[subprocess.Popen[bytes]] = []
        self.janus: LocalJanus | None = None

    def spawn(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        """Start `egocli ARGS` in the folder (core dumps land there), its stderr in NAME.log."""
        with (self.folder / f"{name}.log").open("wb") as err:
            proc = subprocess.Popen([EGOCLI, *(("-v",) if self.env.get("WEARERS_VERBOSE") else ()), *args], cwd=self.folder, env=self.env, stderr=err,
                                    stdout=subprocess.DEVNULL)
        self.procs.append(proc)
        return proc

    def stop(self) -> list[str]:
        """Stop every process started (SIGTERM, SIGKILL after 60 s) and Janus; what went wrong, if anything."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        problems = []
        for proc in self.procs:
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                problems.append(f"pid {proc.pid} did not stop on SIGTERM (killed)")
        if self.janus is not None:
            self.janus.stop()
        cores = sorted(str(p) for p in self.folder.rglob("core*") if p.is_file())
        return problems + [f"core dump: {c}" for c in cores]


def wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 120.0) -> None:
    """Wait until a process listens on a loopback port."""
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited ({proc.returncode})")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listened on port {port} within {timeout:.0f} s")


def run_janus(scratch: Scratch, n: int, plan: Plan) -> list[Result]:
    """Janus and n agents in the scratch folder, n wearers talking to them."""
    rooms = tuple(2000 + i for i in range(n))
    scratch.janus = LocalJanus(scratch.folder / "janus", rooms=rooms)
    scratch.janus.start()
    agents = [scratch.spawn(f"agent-{r}", "agent", "--janus", scratch.janus.url, "--room", str(r),
                            "--db", str(scratch.folder / f"wearer-{r}.db")) for r in rooms]
    results = [Result(f"janus N={n}", str(r)) for r in rooms]
    url = scratch.janus.url

    async def everyone() -> None:
        # aiortc encodes every outgoing frame in the loop's default executor (min(32, cores + 4) threads):
        # with more streams than threads, a wearer's microphone waits behind other wearers' video
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(2 * n + 4))
        glasses = [JanusGlasses() for _ in rooms]
        await asyncio.gather(*(
            one_wearer(g, lambda g=g, r=r: g.connect(url, r, display=f"wearer-{r}", timeout=plan.connect_timeout),
                       plan, i * plan.cycle_s / n, res)
            for i, (g, r, res) in enumerate(zip(glasses, rooms, results, strict=True))))

    asyncio.run(everyone())
    for agent, res in zip(agents, results, strict=True):
        res.pss, res.private = memory_mib(agent.pid)
    return results


def run_shared(scratch: Scratch, n: int, plan: Plan, port: int, args: argparse.Namespace,
               memory: dict[str, tuple[float, float]]) -> list[Result]:
    """One llama-server for the machine (its URL already in the agents' config.toml), then run_janus."""
    model = args.server_model or ("smollm2" if args.fake else None)
    server = scratch.spawn("llama-server", *shared_server.serve_args(port, n, args.server_threads, model))
    shared_server.wait_ready(port, server)
    results = run_janus(scratch, n, plan)
    for res in results:
        res.setup = f"shared N={n}"
    memory[f"janus N={n} shared"] = memory_mib(server.pid)
    return results


def run_serve(scratch: Scratch, plan: Plan) -> list[Result]:
    """`egocli serve` in the scratch folder with one direct WebRTC client."""
    port = free_port()
    server = scratch.spawn("serve", "--db", str(scratch.folder / "serve.db"), "serve", "--port", str(port))
    wait_port(port, server)
    result = Result("serve", "direct")
    client = RtcClient()

    async def connect() -> None:
        await client.connect(f"http://127.0.0.1:{port}")
        await client.wait_for("welcome", timeout=plan.connect_timeout)

    asyncio.run(one_wearer(client, connect, plan, 0.0, result))
    result.pss, result.private = memory_mib(server.pid)
    return [result]


def run_setup(base: Path, name: str, env: dict[str, str], config: str,
              go: Any) -> tuple[list[Result], list[str]]:
    """Run one setup in its scratch folder; its results and its problems (processes always stopped)."""
    scratch = Scratch(base, name, env, config)
    print(f"{name}: running in {scratch.folder}", file=sys.stderr, flush=True)
    results: list[Result] = []
    problems: list[str] = []
    try:
        results = go(scratch)
    except Exception as ex:  # noqa: BLE001  (a setup that fails is reported, the next one runs)
        problems.append(f"{type(ex).__name__}: {ex}"[:300])
    finally:
        problems[:0] = scratch.stop()
    for res in results:
        db = scratch.folder / ("serve.db" if res.name == "direct" else f"wearer-{res.name}.db")
        res.received, res.described = frames_logged(db)
    return results, problems


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (NaN for none)."""
    return float(np.percentile(values, q)) if values else math.nan


def row(res: Result) -> str:
    """One table line."""
    frames = f"{res.sent}/{res.received}/{res.described}"
    kept = f"{100 * res.received / res.sent:.0f}%" if res.sent else "-"
    line = (f"{res.setup:<11} {res.name:<7} {len(res.delays):>2}/{res.asked:<2} {pct(res.delays, 50):>6.2f} "
            f"{pct(res.delays, 95):>6.2f}  {frames:>15} {kept:>5} {res.pss:>7.0f} {res.private:>7.0f} {res.lag:>5.2f}")
    return line + (f"  ({res.error})" if res.error else "")


def keeps_up(results: list[Result], questions: int) -> bool:
    """Every wearer heard every answer, with a median under the limit."""
    return bool(results) and all(len(r.delays) == questions and pct(r.delays, 50) < P50_LIMIT_S for r in results)


def report(by_setup: dict[str, list[Result]], questions: int) -> None:
    """The table, and the largest N at which every wearer's p50 stays under the limit."""
    print(f"{'setup':<11} {'wearer':<7} {'answers':<5} {'p50 s':>6} {'p95 s':>6}  {'frames s/r/d':>15} "
          f"{'kept':>5} {'PSS':>7} {'private':>7} {'lag s':>5}  (memory MiB per agent; lag: the harness's)")
    for results in by_setup.values():
        for res in results:
            print(row(res))
    own = {name: results for name, results in by_setup.items() if name.startswith("janus") and "shared" not in name}
    fine = [int(name.split("=")[1]) for name, results in own.items() if keeps_up(results, questions)]
    print(f"largest N with every wearer answered {questions}/{questions} and p50 < {P50_LIMIT_S:.0f} s: "
          f"{max(fine) if fine else 'none'} (of {', '.join(n.split('=')[1] for n in own) or 'none run'})")


def main() -> None:
    """Parse flags, run each setup in turn, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", default="1,2,4,8", help="wearer counts, comma-separated (default 1,2,4,8)")
    parser.add_argument("--questions", type=int, default=5, help="counted questions per wearer")
    parser.add_argument("--answer-timeout", type=float, default=60.0, help="seconds before 'no answer'")
    parser.add_argument("--fake", action="store_true", help="fake models: check the harness only")
    parser.add_argument("--repack", choices=("on", "off"), default="on",
                        help="llama.cpp weight repacking in the agents ([llm] repack)")
    parser.add_argument("--no-serve", action="store_true", help="skip egocli serve with one direct client")
    parser.add_argument("--layout", choices=("own", "shared", "both"), default="own",
                        help="each agent loads its own models, or all share one llama-server, or both in turn")
    parser.add_argument("--server-threads", type=int, default=default_threads(),
                        help="llama-server's threads (shared layout; default half the cores, at least 2; the "
                             "agents' perception gets the rest)")
    parser.add_argument("--server-model", help="model the shared server runs (default: the packaged llm)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    parser.add_argument("--verbose", action="store_true", help="debug logs from the agents and serve")
    args = parser.parse_args()
    try:
        counts = [int(x) for x in args.n.replace(" ", ",").split(",") if x]
    except ValueError:
        parser.error(f"--n {args.n}: expected numbers like 1,2,4,8")
    env = {**os.environ, **({f"EGOCLI_{r.upper()}": "fake" for r in FAKES} if args.fake else {}),
           **({"WEARERS_VERBOSE": "1"} if args.verbose else {})}
    plan = Plan(clip(), camera(), args.questions, args.answer_timeout)
    base = Path(tempfile.mkdtemp(prefix="egocli-wearers-"))
    by_setup, problems, memory = run_all(base, env, counts, plan, args)
    report(by_setup, args.questions)
    if args.layout != "own":
        print("\n".join(shared_server.summary(by_setup, memory, args.questions)))
    for problem in problems:
        print(f"problem: {problem}")
    if args.keep or problems or any(r.error for rs in by_setup.values() for r in rs):
        print(f"scratch folder kept: {base}")
    else:
        shutil.rmtree(base, ignore_errors=True)


def run_all(base: Path, env: dict[str, str], counts: list[int], plan: Plan, args: argparse.Namespace
            ) -> tuple[dict[str, list[Result]], list[str], dict[str, tuple[float, float]]]:
    """serve (unless --no-serve), then Janus with each N (own models, a shared server, or both); results per
    setup, every problem, and the shared servers' memory."""
    config = f"[llm]\nrepack = {'true' if args.repack == 'on' else 'false'}\n"
    memory: dict[str, tuple[float, float]] = {}
    setups: list[tuple[str, Any, str, dict[str, str]]] = [] if args.no_serve else [
        ("serve", lambda s: run_serve(s, plan), config, env)]
    shared_env = {k: v for k, v in env.items() if k not in ("EGOCLI_LLM", "EGOCLI_SUMMARIZER")}
    for n in counts:
        if args.layout in ("own", "both"):
            setups.append((f"janus N={n}", lambda s, n=n: run_janus(s, n, plan), config, env))
        if args.layout in ("shared", "both"):
            port = free_port()
            url_config = shared_server.agent_config(config, f"http://127.0.0.1:{port}/v1", args.server_threads, n)
            setups.append((f"janus N={n} shared", lambda s, n=n, port=port: run_shared(s, n, plan, port, args, memory),
                           url_config, shared_env))
    by_setup: dict[str, list[Result]] = {}
    problems: list[str] = []
    for name, go, text, setup_env in setups:
        results, trouble = run_setup(base, name.replace(" ", "-").replace("=", ""), setup_env, text, go)
        by_setup[name] = results
        problems += [f"{name}: {t}" for t in trouble]
        print("\n".join(row(r) for r in results), file=sys.stderr, flush=True)
    return by_setup, problems, memory


if __name__ == "__main__":
    main()
