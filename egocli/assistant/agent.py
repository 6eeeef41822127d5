"""`egocli agent` put together: the same live assistant as `egocli serve` (built by
assistant.serve.build), served to one wearer through a Janus VideoRoom instead of an HTTP server."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from egocli.assistant.serve_options import ServeOptions
from egocli.assistant.serve import build
from egocli.core.config import Settings
from egocli.stream.janus_agent import AgentOptions, RoomAgent
from egocli.stream.server import run_until_signal


async def run_agent(settings: Settings, options: ServeOptions, agent: AgentOptions, stop: asyncio.Event,
                    ready: Callable[[RoomAgent], None] | None = None) -> None:
    """Serve the wearer of one room until `stop` is set; the wearer's events go to settings' log only."""
    options.check()
    host = build(settings, options.but(max_sessions=1))
    room = RoomAgent(host, agent)
    if ready is not None:
        ready(room)
    await room.run(stop)


def run(settings: Settings, options: ServeOptions, agent: AgentOptions) -> None:
    """Blocking entry point: serve the room until SIGINT or SIGTERM."""
    run_until_signal(lambda stop: run_agent(settings, options, agent, stop))
