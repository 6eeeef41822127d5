"""The chess button over the WebSocket: the newest frame's board analysed."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from egocli.stream.client import WsClient
from egocli.stream.protocol import KIND_JPEG, pack
from tests.waiting import message

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
        # one socket, read in order: the server has taken the frame before it reads the request after it
        await client.ws.send_bytes(pack(KIND_JPEG, (PHOTOS / photo["file"]).read_bytes()))
        await client.send({"type": "chess", "id": 1})
        result = await message(client, lambda m: (m["type"], m.get("id"), m.get("ref")) in
                               (("chess_result", 1, None), ("error", None, 1)), 90,
                               "a chess result, or an error saying why there is none")
        await client.close()
        return early, result

    early, result = asyncio.run(go())
    assert early["code"] == "no_frame"
    assert result["type"] == "chess_result", result
    # what was seen is the labelled placement; the analysed FEN may be repaired to a legal position
    assert result["fen_seen"].split()[0] == photo["fen"].split()[0]
    assert result["fen"].split()[0] == result["fen_seen"].split()[0] or result["changed"]
    assert result["lines"] and result["lines"][0]["san"]
