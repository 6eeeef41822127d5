"""After `egocli chess calibrate`, the assistant's `chess_analyse` tool and the live session's chess button read
the board with the user's calibrated classifier, as `egocli chess` does (real torch fine-tuning, real ONNX,
real Stockfish, a real server)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from egocli.core.config import load_settings
from egocli.store import Store
from egocli.tools.builtin import REGISTRY
from egocli.tools.registry import ToolContext, ToolError
from tests import console
from tests.serving import live_server  # noqa: F401 - the fixture

WEBCAM = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "chess" / "webcam"
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path(STOCKFISH).exists(), reason="stockfish not installed"),
              pytest.mark.skipif(not (WEBCAM / "chessBoard007.jpg").is_file(), reason="no shared webcam photos")]


def egocli(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "EGOCLI_HOME": str(home)}
    return subprocess.run([console.egocli(), "chess", *args], capture_output=True, text=True, env=env, timeout=600)


def seen_by_cli(home: Path, photo: Path, model: str) -> str:
    done = egocli(home, str(photo), "--json", "--no-explain", "--time", "0.05", "--model", model)
    return json.loads(done.stdout)["fen_seen"].split()[0]


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """(home calibrated on webcam photos 005 and 006, the CLI's reading of photo 007 with that calibration,
    its reading with the packaged classifier)."""
    home = tmp_path_factory.mktemp("calibrated") / "home"
    done = egocli(home, "calibrate", str(WEBCAM / "chessBoard005.jpg"), str(WEBCAM / "chessBoard006.jpg"))
    assert done.returncode == 0, done.stderr
    held_out = WEBCAM / "chessBoard007.jpg"
    return home, seen_by_cli(home, held_out, "auto"), seen_by_cli(home, held_out, "default")


def test_the_tool_reads_with_the_calibrated_model(calibrated: tuple[Path, str, str], tmp_path: Path) -> None:
    home, cli_calibrated, cli_default = calibrated
    assert cli_calibrated == START and cli_default != cli_calibrated  # the calibration changes what is seen
    tool = REGISTRY.tools["chess_analyse"].func
    ctx = ToolContext(Store.open(None), load_settings(home=home), "cli")
    result = tool(ctx, fen="", frame=str(WEBCAM / "chessBoard007.jpg"))
    assert result.data["fen_seen"].split()[0] == cli_calibrated
    assert result.summary.startswith("Best move: ")
    uncalibrated = ToolContext(Store.open(None), load_settings(home=tmp_path / "fresh"), "cli")
    with pytest.raises(ToolError) as raised:  # the packaged model misses a king here: said, with what it saw
        tool(uncalibrated, fen="", frame=str(WEBCAM / "chessBoard007.jpg"))
    assert "cannot be analysed" in str(raised.value) and f"(seen: {cli_default} " in str(raised.value)


def test_the_live_chess_button_reads_with_the_calibrated_model(calibrated: tuple[Path, str, str], tmp_path: Path,
                                                               live_server) -> None:  # noqa: F811
    from egocli.stream.client import WsClient
    from egocli.stream.protocol import KIND_JPEG, pack

    home, cli_calibrated, cli_default = calibrated
    model = tmp_path / "home" / "chess" / "squares-calibrated.onnx"  # the live server's home
    model.parent.mkdir(parents=True)
    shutil.copy(home / "chess" / "squares-calibrated.onnx", model)
    server = live_server()

    async def ask(client: WsClient, ref: int) -> dict:
        from tests.waiting import message

        await client.send({"type": "chess", "id": ref})
        return await message(client, lambda m: (m["type"], m.get("id"), m.get("ref")) in
                             (("chess_result", ref, None), ("error", None, ref)), 90,
                             f"chess request {ref}: a result, or an error saying why there is none")

    async def go() -> tuple[dict, dict]:
        client = WsClient()
        await client.connect(server.url, video=False)
        # one socket, read in order: the server has taken the frame before it reads the request after it
        await client.ws.send_bytes(pack(KIND_JPEG, (WEBCAM / "chessBoard007.jpg").read_bytes()))
        with_calibration = await ask(client, 1)
        model.unlink()  # as `egocli chess calibrate --reset` does, while the session runs
        without = await ask(client, 2)
        await client.close()
        return with_calibration, without

    with_calibration, without = asyncio.run(go())
    assert with_calibration["type"] == "chess_result", with_calibration
    assert with_calibration["fen_seen"].split()[0] == cli_calibrated and with_calibration["lines"]
    assert without["type"] == "error" and without["code"] == "chess", without
    assert without["fen_seen"].split()[0] == cli_default and "cannot be analysed" in without["message"]
