"""Waiting on what a test can observe, never for a fixed time: a check polled until it holds or a
deadline passes, then a failure that says what never happened.

The deadline is a bound for a broken build, not a timing the test asserts: a test passes as soon as
the behaviour happens. Where the code under test takes a Clock, tests move a ManualClock instead
(egocli.assistant.fake)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

POLL_S = 0.02
"""How often a check is looked at again (it reads state another thread or process changes)."""


def _failed(what: str, timeout: float, seen: Callable[[], object] | None) -> AssertionError:
    detail = f"; seen: {seen()!r}" if seen is not None else ""
    return AssertionError(f"{what}: not within {timeout:g} s{detail}")


async def until(check: Callable[[], T], timeout: float, what: str, seen: Callable[[], object] | None = None) -> T:
    """The first truthy value of check(), looked at between the event loop's other work."""
    deadline = time.monotonic() + timeout
    while not (value := check()):
        if time.monotonic() > deadline:
            raise _failed(what, timeout, seen)
        await asyncio.sleep(POLL_S)
    return value


def wait_until(check: Callable[[], T], timeout: float, what: str, seen: Callable[[], object] | None = None,
               poll_s: float = POLL_S) -> T:
    """The first truthy value of check(), for tests without an event loop (subprocesses, browsers)."""
    deadline = time.monotonic() + timeout
    while not (value := check()):
        if time.monotonic() > deadline:
            raise _failed(what, timeout, seen)
        time.sleep(poll_s)
    return value


def inbox_types(client: object) -> list[object]:
    """The types of the messages a stream client has received (for failure messages)."""
    return [m.get("type") for m in getattr(client, "inbox", [])]


async def message(client: object, match: Callable[[dict], bool], timeout: float, what: str) -> dict:
    """The first message a stream client received (so far or within timeout) that match() accepts."""
    inbox: list[dict] = getattr(client, "inbox")
    return await until(lambda: next((m for m in inbox if match(m)), None), timeout, what,
                       seen=lambda: inbox_types(client))


def page_until(driver: object, script: str, timeout: float,
               status: str = "return document.getElementById('status').textContent") -> object:
    """The first truthy value of a script run in a browser page (selenium), polled; the failure shows what
    the page's status line said."""
    run = getattr(driver, "execute_script")
    return wait_until(lambda: run(script), timeout, f"page never satisfied: {script}", seen=lambda: run(status),
                      poll_s=0.2)
