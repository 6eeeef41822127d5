"""Issue #30 item 5, the timeline API: out-of-range days, ids and times, an unreadable search and a boolean
time each get 400 with a message (they were 500s with OverflowError), and the log is untouched."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from egocli.store import Store
from egocli.usecases.timeline import Timeline
from tests.usecases.test_timeline import fill

HUGE = "9" * 23


@pytest.mark.parametrize("method, path, body", [
    ("get", "/api/timeline/day?day=9999-12-31", None),
    ("get", "/api/timeline/day?day=0000-01-01", None),
    ("get", "/api/timeline/density?from=9999-12-01&to=9999-12-31", None),
    ("get", f"/api/timeline/event/{HUGE}", None),
    ("get", f"/api/timeline/media/{HUGE}", None),
    ("get", "/api/timeline/event/1?context=" + HUGE, None),
    ("get", '/api/timeline/search?q="', None),
    ("get", "/api/timeline/search?q=bowl&limit=-5", None),
    ("post", "/api/timeline/forget", {"since_ms": 1e23, "until_ms": 2e23, "confirm": True}),
    ("post", "/api/timeline/forget", {"since_ms": 0, "until_ms": True, "confirm": True}),
])
def test_out_of_range_requests_are_400s_and_the_log_is_kept(tmp_path: Path, method, path, body) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from egocli.stream.timeline_routes import browse_app

    db, media = tmp_path / "log.db", tmp_path / "media"
    fill(db, media)
    timeline = Timeline(lambda: Store.open(db, create=False), media, lambda store: None)
    auth = {"Authorization": "Bearer s3cret"}

    async def run() -> tuple[int, dict]:
        async with TestClient(TestServer(browse_app(timeline, "s3cret"))) as client:
            resp = await (client.post(path, json=body, headers=auth) if method == "post"
                          else client.get(path, headers=auth))
            return resp.status, await resp.json()

    status, reply = asyncio.run(run())
    assert status == 400 and reply["message"] and "\n" not in reply["message"], (status, reply)
    store = Store.open(db, create=False)
    try:
        assert store.count() == 5
    finally:
        store.close()
