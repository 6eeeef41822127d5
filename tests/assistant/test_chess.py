"""The chess button over the WebSocket: the newest frame's board analysed."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from egocli.stream.client import WsClient
from egocli.stream.protocol import KIND_JPEG, pack

PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "data" / "chess" / "photos"
STOCKFISH = Path("/usr/games/stockfish")


@pytest.mark.slow
@pytest.mark.skipif(not STOCKFISH.exists(), reason="Debian stockfish not installed")
def test_chess_button_analyses_the_newest_frame(live_server):
    labels = json.loads((PHOTOS / "labels.json").read_text()) if PHOTOS.is_dir() else pytest.skip("no photos")
    photo = next(e for e in labels if {"K", "k"} <= set(e["fen"].split()[0]))  # kings: an analysable position
    server = live_server()

    async def go() -> tuple[dict, dict]:
        client = WsClient()
        await client.connect(server.url, video=False)
        await client.send({"type": "chess", "id": "early"})
        early = await client.wait_for("error", timeout=10, ref="early")
        await client.ws.send_bytes(pack(KIND_JPEG, (PHOTOS / photo["file"]).read_bytes()))
        await asyncio.sleep(0.2)
        await client.send({"type": "chess", "id": 1})
        for _ in range(900):  # a result, or an error saying why there is none
            replies = [m for m in client.inbox if (m["type"], m.get("id"), m.get("ref")) in
                       (("chess_result", 1, None), ("error", None, 1))]
            if replies:
                break
            await asyncio.sleep(0.1)
        result = replies[0] if replies else {"type": "nothing within 90 s"}
        await client.close()
        return early, result

    early, result = asyncio.run(go())
    assert early["code"] == "no_frame"
    assert result["type"] == "chess_result", result
    # what was seen is the labelled placement; the analysed FEN may be repaired to a legal position
    assert result["fen_seen"].split()[0] == photo["fen"].split()[0]
    assert result["fen"].split()[0] == result["fen_seen"].split()[0] or result["changed"]
    assert result["lines"] and result["lines"][0]["san"]
