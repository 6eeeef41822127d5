"""Hostile review round 3, unprobed: `egocli agent` with a hostile Janus peer.

A wearer sending oversized data-channel messages (binary and text, past the 16 KB control limit) gets
errors back and the session goes on to answer; a "Janus" that accepts the WebSocket and never answers
leaves the agent retrying with back-off and stopping cleanly, never hung."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from aiohttp import web

from egocli.stream.janus_agent import AgentOptions, RoomAgent
from egocli.stream.janus_client import JanusGlasses
from tests.stream.test_janus import ROOMS, Agents, janus  # noqa: F401 - the real-Janus fixture
from tests.waiting import until


@pytest.mark.slow
def test_oversized_data_channel_messages_get_errors_and_the_session_answers_on(janus, tmp_path):  # noqa: F811
    async def scenario() -> dict[str, Any]:
        agents = Agents(janus.url, tmp_path / "home")
        agents.start(ROOMS[0], tmp_path / "log.db")
        glasses = JanusGlasses()
        await glasses.connect(janus.url, ROOMS[0], display="hostile", video=False, timeout=60)
        errors_before = len([m for m in glasses.inbox if m.get("type") == "error"])
        glasses.channel.send(b"\0" * 60_000)  # binary, past the control limit
        glasses.channel.send("x" * 60_000)  # text, past the control limit
        glasses.channel.send('{"type": "ask", "id": 1, "text": "' + "y" * 20_000 + '"}')
        errors = await until(lambda: e if len(e := [m for m in glasses.inbox if m.get("type") == "error"])
                             >= errors_before + 3 else None, 30, "three errors back")
        await glasses.send({"type": "ask", "id": 2, "text": "What time is it now?"})
        answer = await glasses.wait_for("answer", timeout=60, id=2)
        alive = not glasses.janus.closed.is_set()
        await glasses.close()
        await agents.close()
        return {"errors": errors[errors_before:], "answer": answer, "alive": alive}

    got = asyncio.run(scenario())
    assert [e["code"] for e in got["errors"]] == ["too_large"] * 3, got["errors"]
    assert got["answer"]["text"].strip() and got["alive"]


def test_a_janus_that_never_answers_leaves_the_agent_retrying_and_it_stops_cleanly(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="egocli.stream.janus_agent")
    from egocli.assistant.serve_options import ServeOptions
    from egocli.assistant.agent import run_agent
    from egocli.core.config import load_settings
    from tests.serving import FAKES

    async def silent(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(protocols=("janus-protocol",))
        await ws.prepare(request)
        async for _ in ws:  # reads everything, answers nothing
            pass
        return ws

    async def scenario() -> tuple[int, float]:
        app = web.Application()
        app.router.add_get("/", silent)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        stop = asyncio.Event()
        rooms: list[RoomAgent] = []
        settings = load_settings(db=tmp_path / "log.db", home=tmp_path / "home", models=FAKES)
        options = AgentOptions(f"ws://127.0.0.1:{port}/", ROOMS[0], retry_max_s=1.0)
        task = asyncio.ensure_future(run_agent(settings, ServeOptions.of(port=0), options, stop, rooms.append))
        await until(lambda: sum("retrying" in r.getMessage() for r in caplog.records) >= 2, 60,
                    "two retries logged against a silent Janus")
        loop = asyncio.get_running_loop()
        asked = loop.time()
        stop.set()
        await asyncio.wait_for(task, 30)
        took = loop.time() - asked
        await runner.cleanup()
        return len(rooms), took

    agents, took = asyncio.run(scenario())
    assert agents == 1 and took < 30
    assert not any(r.levelno >= logging.ERROR for r in caplog.records), [r.getMessage() for r in caplog.records]
