"""Agents behind a real Janus: simulated glasses (aiortc) publish speech and frames into their
own VideoRoom, the room's agent runs the live assistant and answers back through Janus."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from egocli.assistant.agent import run_agent
from egocli.assistant.serve_options import ServeOptions
from egocli.core.config import load_settings
from egocli.core.errors import StoreError
from egocli.store import EventFilter, Store
from egocli.stream.janus_agent import AgentOptions, RoomAgent
from egocli.stream.janus_client import JanusGlasses
from egocli.stream.janus_local import LocalJanus, janus_binary
from tests import console
from tests.serving import FAKES
from tests.waiting import until

ROOMS = (1001, 1002)


@pytest.fixture
def janus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A real Janus on loopback with its own generated configuration and two rooms.

    Janus gathers ICE candidates on this host's own address only (never on loopback), and so do
    the aiortc peers here: other tests' loopback-only ICE patch (process-wide) is undone."""
    if janus_binary() is None:
        pytest.skip("janus is not installed (/usr/bin/janus; apt-get install -y janus)")
    import aioice.ice

    gateway = LocalJanus(tmp_path / "janus", rooms=ROOMS)
    gateway.write_config()
    monkeypatch.setattr(aioice.ice, "get_host_addresses", lambda use_ipv4, use_ipv6: [gateway.media_ip] if use_ipv4 else [])
    gateway.start()
    yield gateway
    gateway.stop()


def _events(db: Path, modality: str) -> list[Any]:
    store = Store.open(db)
    try:
        return list(store.events(EventFilter(modalities=(modality,))))
    finally:
        store.close()


def _sources(db: Path, key: str | None = None) -> list[Any]:
    store = Store.open(db, key=key)
    try:
        return store.sources()
    finally:
        store.close()


class Agents:
    """Agents running in this event loop, one per (room, log)."""

    def __init__(self, url: str, home: Path) -> None:
        self.url, self.home = url, home
        self.stop = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.rooms: list[RoomAgent] = []
        """Each started agent's RoomAgent, as run_agent hands it out."""

    def start(self, room: int, db: Path, keepalive_s: float = 25.0) -> None:
        """Start the agent of one room writing to one log."""
        settings = load_settings(db=db, home=self.home, models=FAKES)
        options = ServeOptions.of(port=0, heartbeat_s=1.0)
        agent = AgentOptions(self.url, room, keepalive_s=keepalive_s)
        self.tasks.append(asyncio.ensure_future(run_agent(settings, options, agent, self.stop, self.rooms.append)))

    async def close(self) -> None:
        """Stop every agent (each finishes its session and log writes) and surface their errors."""
        self.stop.set()
        await asyncio.wait_for(asyncio.gather(*self.tasks), 60)


@pytest.mark.slow
def test_each_wearer_is_heard_and_answered_in_their_own_room_and_log(janus, jfk, video_frames, tmp_path):
    db_a, db_b = tmp_path / "ana.db", tmp_path / "ben.db"

    async def scenario() -> dict[str, Any]:
        agents = Agents(janus.url, tmp_path / "home")
        agents.start(ROOMS[0], db_a)
        agents.start(ROOMS[1], db_b)
        ana, ben = JanusGlasses(), JanusGlasses()
        ana.feed.frames, ana.feed.fps = video_frames, 5.0
        welcome_a = await ana.connect(janus.url, ROOMS[0], display="ana")
        welcome_b = await ben.connect(janus.url, ROOMS[1], display="ben")
        ana.feed.say(jfk)
        await asyncio.wait_for(ana.feed.drained.wait(), 30)
        heard = await ana.wait_for("transcript", timeout=30, final=True)
        ben.channel.send("{not json")  # a hostile or broken message: an error back, the session goes on
        broken = await ben.wait_for("error", timeout=20)
        await ben.send({"type": "ask", "id": 5, "text": "What time is it now?"})
        answer = await ben.wait_for("answer", timeout=60, id=5)
        # answer audio comes back through Janus on the agent's feed
        audio_b = await until(lambda: ben.first_audio_after(answer["_at"] - 5), 20, "answer audio through Janus")
        got = {"broken": broken, "welcome_a": welcome_a, "welcome_b": welcome_b, "heard": heard, "answer": answer,
               "audio_b": audio_b,
               "ana_answers": [m for m in ana.inbox if m.get("type") == "answer"],
               "ben_transcripts": [m for m in ben.inbox if m.get("type") == "transcript"]}
        await ana.close()
        await ben.close()
        await agents.close()
        return got

    got = asyncio.run(scenario())
    assert got["welcome_a"]["session"] != got["welcome_b"]["session"]
    assert got["broken"]["code"] == "bad_json"
    assert got["heard"]["text"].strip()
    assert got["answer"]["text"].strip() and got["audio_b"] is not None, "no answer audio through Janus"
    assert got["ana_answers"] == [] and got["ben_transcripts"] == [], "a message reached the other wearer"
    speech_a, speech_b = _events(db_a, "speech"), _events(db_b, "speech")
    assert got["heard"]["text"] in [e.content for e in speech_a]
    assert speech_b == [], "ana's speech landed in ben's log"
    (src_a,) = _sources(db_a)
    assert src_a.meta["transport"] == "janus" and f"room {ROOMS[0]}" in src_a.meta["peer"]
    assert _sources(db_b) == [], "ben's session logged nothing, so it leaves no source"
    assert _events(db_a, "visual"), f"no visual events from the glasses' camera: {src_a.meta}"


@pytest.mark.slow
def test_two_wearers_talking_at_once_past_many_keepalives_each_get_their_own_spoken_answers(janus, jfk, tmp_path):
    """Janus answers a keepalive with an 'ack' alone; taken for 'a reply follows', every keepalive timed out
    (10 s) and each agent and wearer lost its Janus session mid-conversation (bench/wearers.py, N >= 2)."""
    dbs = {room: tmp_path / f"wearer-{room}.db" for room in ROOMS}
    speech = jfk[:16000 * 4]  # a second of silence, then three of speech

    async def wearer(room: int, remarks: int) -> dict[str, Any]:
        glasses = JanusGlasses()
        await glasses.connect(janus.url, room, display=f"wearer-{room}", video=False, timeout=60, keepalive_s=1.0)
        for n in range(1, remarks + 1):  # said aloud, not asked: logged as speech
            glasses.feed.say(speech)
            await until(lambda: len(_finals(glasses, question=False)) >= n, 30, f"room {room}: remark {n} heard")
        heard = []
        for asked in range(1, 3):  # asked by push-to-talk, then the answer's first audible audio
            await glasses.send({"type": "ptt", "on": True})
            glasses.feed.say(speech)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(glasses.feed.drained.wait(), 30)
            released = time.monotonic()
            await glasses.send({"type": "ptt", "on": False})
            with contextlib.suppress(AssertionError):  # not heard: counted in `heard` and said by the test
                await until(lambda: glasses.first_audio_after(released), 30, "the answer's audio")
            heard.append(glasses.first_audio_after(released) is not None)
            # this question is over once its answer message is in: only then the next one
            with contextlib.suppress(AssertionError):
                await until(lambda: len(_answers(glasses)) >= asked, 60, f"room {room}: answer {asked}")
        got = {"heard": heard, "alive": not glasses.janus.closed.is_set(), "remarks": _finals(glasses, False)}
        await glasses.close()
        return got

    async def scenario() -> list[dict[str, Any]]:
        agents = Agents(janus.url, tmp_path / "home")
        for room, db in dbs.items():
            agents.start(room, db, keepalive_s=1.0)
        try:
            return list(await asyncio.gather(wearer(ROOMS[0], 1), wearer(ROOMS[1], 2)))
        finally:
            await agents.close()

    for room, got in zip(ROOMS, asyncio.run(scenario()), strict=True):
        assert got["alive"], f"room {room}: the wearer's Janus session was dropped"
        assert all(got["heard"]), f"room {room}: answers heard per question {got['heard']}"
        (source,) = _sources(dbs[room])  # one session: the agent never lost Janus and reconnected
        assert source.status == "done" and f"room {room}" in source.meta["peer"]
        logged = _events(dbs[room], "speech")
        assert len(logged) == len(got["remarks"]) == ROOMS.index(room) + 1, "speech missing or in another's log"


def _answers(glasses: JanusGlasses) -> list[dict[str, Any]]:
    return [m for m in glasses.inbox if m.get("type") == "answer"]


def _finals(glasses: JanusGlasses, question: bool) -> list[dict[str, Any]]:
    return [m for m in glasses.inbox if m.get("type") == "transcript" and m.get("final") and m["question"] is question]


@pytest.mark.slow
def test_a_restarted_agent_resumes_its_wearers_log_and_a_second_agent_is_refused(janus, jfk, tmp_path, caplog):
    db = tmp_path / "ana.db"
    caplog.set_level(logging.WARNING, logger="egocli.stream.janus_agent")

    async def talk(agents: Agents) -> str:
        ana = JanusGlasses()
        await ana.connect(janus.url, ROOMS[0], display="ana", video=False)
        ana.feed.say(jfk)
        heard = await ana.wait_for("transcript", timeout=40, final=True)
        await ana.close()
        return str(heard["text"])

    async def scenario() -> tuple[str, str, bool]:
        first = Agents(janus.url, tmp_path / "home")
        first.start(ROOMS[0], db)
        said_before = await talk(first)
        await first.close()
        second = Agents(janus.url, tmp_path / "home")
        second.start(ROOMS[0], db)
        said_after = await talk(second)
        # a rival agent for the same room never publishes there while the room has its agent
        rival = RoomAgent(_NoApp(), AgentOptions(janus.url, ROOMS[0], retry_max_s=1.0))
        stop_rival = asyncio.Event()
        task = asyncio.ensure_future(rival.run(stop_rival))
        # refused twice (it retries after a second): what it does while the room has its agent
        await until(lambda: len(_refusals(caplog)) >= 2, 30, "the rival agent refused twice",
                    seen=lambda: [r.getMessage() for r in caplog.records][-5:])
        rival_published = rival.publications > 0 or rival.ready.is_set()
        stop_rival.set()
        await asyncio.wait_for(task, 20)
        await second.close()
        return said_before, said_after, rival_published

    before, after, rival_published = asyncio.run(scenario())
    sources = _sources(db)
    assert len(sources) == 2 and all(s.status == "done" for s in sources)
    speech = _events(db, "speech")
    assert {e.source_id for e in speech} == {s.id for s in sources}, "one of the two sessions logged no speech"
    assert before in [e.content for e in speech] and after in [e.content for e in speech]
    assert not rival_published


def _refusals(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The agents' 'room N already has an agent; retrying' warnings (said to the operator on stderr)."""
    return [r for r in caplog.records if r.name == "egocli.stream.janus_agent" and "retrying" in r.getMessage()
            and ("already has an agent" in r.getMessage() or "another agent" in r.getMessage())]


class _NoApp:
    """An Application with no sessions (the rival agent must never get as far as one)."""

    def new_session(self, transport: str, peer: str, send: Any = None) -> Any:
        raise AssertionError("the rival agent opened a session")

    def open_sessions(self) -> int:
        return 0

    async def recent(self, limit: int) -> list[dict[str, Any]]:
        return []

    async def warm(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None


def test_unreachable_janus_is_retried_without_touching_the_log(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="egocli.stream.janus_agent")

    async def scenario() -> bool:
        stop = asyncio.Event()
        settings = load_settings(db=tmp_path / "x.db", home=tmp_path / "home", models=FAKES)
        agent = AgentOptions("ws://127.0.0.1:9", ROOMS[0], retry_max_s=0.5)
        task = asyncio.ensure_future(run_agent(settings, ServeOptions.of(port=0), agent, stop))
        await until(lambda: task.done() or len(_retries(caplog)) >= 3, 30, "three reconnection attempts",
                    seen=lambda: [r.getMessage() for r in caplog.records][-5:])
        alive = not task.done()
        stop.set()
        await asyncio.wait_for(task, 20)
        return alive

    assert asyncio.run(scenario()), "the agent gave up instead of retrying"
    assert len(_retries(caplog)) >= 3


def _retries(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "egocli.stream.janus_agent" and "retrying" in r.getMessage()]


def _egocli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([console.egocli(), *args], check=False, capture_output=True, text=True, cwd=cwd, timeout=60)


def test_agent_usage_errors_through_the_console_script(tmp_path):
    (tmp_path / "shared.toml").write_text('janus = "ws://127.0.0.1:8188"\n[rooms.1]\ndb = "a.db"\n'
                                          '[rooms.2]\ndb = "./a.db"\n')
    (tmp_path / "ok.toml").write_text('[rooms.1]\ndb = "a.db"\n')
    cases = [
        (["agent", "--room", "1"], "give --janus and --db"),
        (["agent", "--room", "1", "--rooms", "shared.toml"], "share the log"),
        (["agent", "--room", "3", "--rooms", "ok.toml"], "room 3 is not in"),
        (["agent", "--room", "1", "--rooms", "ok.toml", "--janus", "http://x"], "expected a ws://"),
        (["agent", "--room", "1", "--rooms", "missing.toml"], "missing.toml"),
    ]
    for args, message in cases:
        result = _egocli(*args, cwd=tmp_path)
        assert result.returncode == 2, (args, result.stderr)
        assert result.stderr.startswith("Error: ") and message in result.stderr, (args, result.stderr)
    assert not (tmp_path / "a.db").exists(), "a refused agent created a log"


@pytest.mark.slow
def test_the_agent_command_answers_through_janus_into_an_encrypted_log_and_stops_on_sigterm(janus, tmp_path):
    import os
    import signal

    env = {**os.environ, "EGOCLI_HOME": str(tmp_path / "home"), "EGOCLI_KEY": "wearer passphrase",
           **{f"EGOCLI_{role.upper()}": name for role, name in FAKES.items()}}
    subprocess.run([console.egocli(), "--db", "ana.db", "init", "--encrypt"], cwd=tmp_path, env=env, check=True,
                   capture_output=True)
    (tmp_path / "rooms.toml").write_text(f'janus = "{janus.url}"\n[rooms.{ROOMS[0]}]\ndb = "ana.db"\n')
    agent = subprocess.Popen([console.egocli(), "agent", "--rooms", "rooms.toml", "--room", str(ROOMS[0])],
                             cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)

    async def ask() -> dict[str, Any]:
        glasses = JanusGlasses()
        await glasses.connect(janus.url, ROOMS[0], display="ana", video=False, timeout=90)
        await glasses.send({"type": "ask", "id": 1, "text": "Are you there?"})
        answer = await glasses.wait_for("answer", timeout=60, id=1)
        agent.send_signal(signal.SIGTERM)
        bye = await glasses.wait_for("bye", timeout=60)
        await glasses.close(bye=False)
        return {"answer": answer, "bye": bye}

    try:
        got = asyncio.run(ask())
        _, stderr = agent.communicate(timeout=90)
    finally:
        if agent.poll() is None:
            agent.kill()
            agent.wait()
    assert agent.returncode == 0, stderr
    assert got["answer"]["text"].strip() and got["bye"]["reason"] == "agent stopped"
    with pytest.raises(StoreError, match="encrypted"):
        _sources(tmp_path / "ana.db")
    assert _sources(tmp_path / "ana.db", key="wearer passphrase") == []  # it asked, logged nothing: no source


@pytest.mark.slow
def test_the_agent_comes_back_after_janus_restarts(janus, tmp_path):
    db = tmp_path / "ana.db"

    async def ask(n: int) -> str:
        glasses = JanusGlasses()
        await glasses.connect(janus.url, ROOMS[0], display="ana", video=False, timeout=60)
        await glasses.send({"type": "ask", "id": n, "text": "Are you there?"})
        answer = await glasses.wait_for("answer", timeout=60, id=n)
        await glasses.close()
        return str(answer["text"])

    async def scenario() -> tuple[str, str]:
        agents = Agents(janus.url, tmp_path / "home")
        agents.start(ROOMS[0], db)
        first = await ask(1)
        (room,) = agents.rooms
        await asyncio.get_running_loop().run_in_executor(None, janus.stop)
        await until(lambda: not room.ready.is_set(), 30, "the agent noticed Janus was gone")
        await asyncio.get_running_loop().run_in_executor(None, janus.start)
        second = await ask(2)
        publications = room.publications
        await agents.close()
        return first, second, publications

    first, second, publications = asyncio.run(scenario())
    assert first.strip() and second.strip()
    assert publications == 2, "the agent did not publish again after Janus came back"
    assert _sources(db) == []  # two sessions that only asked leave no empty sources behind


def test_serve_refuses_a_janus_address_that_is_not_a_websocket(tmp_path):
    result = _egocli("--db", "x.db", "serve", "--janus", "http://janus.example:8188", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.startswith("Error: --janus: not a Janus WebSocket"), result.stderr
    assert not (tmp_path / "x.db").exists()


def test_janus_takes_a_signed_token_instead_of_the_api_secret_until_it_expires(tmp_path):
    from egocli.stream.janus import JanusError, JanusSession, signed_token

    if janus_binary() is None:
        pytest.skip("janus is not installed (/usr/bin/janus; apt-get install -y janus)")
    gateway = LocalJanus(tmp_path / "janus", rooms=ROOMS, api_secret="server-side", token_secret="signing")

    async def attempt(token: str | None = None, secret: str | None = None) -> str:
        janus = JanusSession(gateway.url, secret, token)
        try:
            await janus.connect()
            await janus.attach()
        except JanusError as ex:
            return str(ex)
        finally:
            await janus.close()
        return "ok"

    async def scenario() -> list[str]:
        return [await attempt(signed_token("signing", ttl_s=60)), await attempt(secret="server-side"),
                await attempt(), await attempt(signed_token("signing", ttl_s=-1)),
                await attempt(signed_token("guessed", ttl_s=60)),
                await attempt(signed_token("signing", ttl_s=60, plugins=("janus.plugin.echotest",)))]

    gateway.start()
    try:
        results = asyncio.run(scenario())
    finally:
        gateway.stop()
    assert results[:2] == ["ok", "ok"]
    assert all("Unauthorized" in r for r in results[2:5]), results
    assert "can't access plugin" in results[5], results
