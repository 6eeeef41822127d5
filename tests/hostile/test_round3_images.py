"""Hostile review round 3, item 2: image decompression bombs.

A 30000x30000 PNG of 875 KB made cv2.imdecode take GBs (`egocli chess bomb.png` 5.4 GB, serve 9.2 GB
after a frame then {"type":"chess"}). Every decode now reads the header first and refuses an image over
40 MP; these tests measure the child's peak RSS (getrusage / VmHWM) while it meets the bomb."""

from __future__ import annotations

import asyncio
import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from egocli.perception.image import ImageTooLarge, image_size, read_image, to_bgr
from egocli.stream.client import WsClient
from egocli.stream.protocol import KIND_JPEG, pack
from tests.hostile.conftest import egocli_script
from tests.waiting import message

SIDE = 30000
ERROR = f"image is {SIDE}x{SIDE} (900 MP); the limit is 40 MP"
PEAK_MB = 600
"""The most a child may reach while refusing the bomb (the bomb decoded is 2.7 GB of BGR)."""


def png_bomb(side: int) -> bytes:
    """A valid grey PNG of side x side zero pixels, deflated (30000 -> 875 KB)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    deflate, row = zlib.compressobj(9), bytes(side + 1)
    idat = b"".join([deflate.compress(row) for _ in range(side)] + [deflate.flush()])
    ihdr = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


@pytest.fixture(scope="module")
def bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bomb") / "bomb.png"
    path.write_bytes(png_bomb(SIDE))
    return path


_LAUNCH = ("import os, subprocess, sys\n"
           "p = subprocess.Popen(sys.argv[1:])\n"
           "_, status, usage = os.wait4(p.pid, 0)\n"
           "sys.stderr.write('\\nPEAK-KB %d\\n' % usage.ru_maxrss)\n"
           "sys.exit(os.waitstatus_to_exitcode(status))\n")
"""A small launcher: Linux carries a parent's peak RSS into the children it forks (a full test run makes
pytest gigabytes large), so the command is started by a fresh small process and measured there."""


def _run_peak(argv: list[str], env: dict[str, str], stdin: bytes | None = None) -> tuple[int, str, float]:
    """(exit code, stderr, peak RSS in MB) of `argv` alone, read from its own rusage (wait4) by the launcher."""
    proc = subprocess.Popen([sys.executable, "-S", "-c", _LAUNCH, *argv], env=env,
                            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    if stdin is not None and proc.stdin is not None:
        try:
            proc.stdin.write(stdin)
        except BrokenPipeError:
            pass
        proc.stdin.close()
    err = proc.stderr.read().decode(errors="replace")
    code = proc.wait()
    text, _, peak = err.rstrip().rpartition("\nPEAK-KB ")
    return code, text, int(peak) / 1024


@pytest.mark.parametrize("command", [["chess", "{bomb}"], ["chess", "calibrate", "{bomb}"], ["what", "{bomb}"]])
def test_cli_refuses_the_bomb_from_its_header_with_little_memory(bomb, db, env, command):
    argv = [egocli_script(), "--db", str(db), *(a.format(bomb=bomb) for a in command)]
    code, err, peak = _run_peak(argv, env)
    assert code == 2, err
    assert err.strip().splitlines()[-1] == f"Error: {bomb}: {ERROR}", err
    assert peak < PEAK_MB, f"peak RSS {peak:.0f} MB"


def test_chess_from_stdin_and_ingest_refuse_the_bomb(bomb, db, env):
    code, err, peak = _run_peak([egocli_script(), "--db", str(db), "chess", "-"], env, bomb.read_bytes())
    assert (code, err.strip().splitlines()[-1]) == (2, f"Error: {ERROR}"), err
    assert peak < PEAK_MB, f"peak RSS {peak:.0f} MB"
    code, err, peak = _run_peak([egocli_script(), "--db", str(db), "ingest", str(bomb)], env)
    assert code == 1 and f"{bomb}: {ERROR}" in err and "0 ok, 1 failed" in err, err  # a batch: N ok, M failed
    assert peak < PEAK_MB, f"peak RSS {peak:.0f} MB"


def test_mcp_chess_analyse_refuses_the_bomb_and_hides_whether_a_path_exists(bomb, db, env, tmp_path):
    pytest.importorskip("mcp")
    (tmp_path / "notes.txt").write_text("not an image")
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "h", "version": "0"}}}
    calls = [{"jsonrpc": "2.0", "id": i, "method": "tools/call",
              "params": {"name": "chess_analyse", "arguments": {"frame": str(path)}}}
             for i, path in enumerate([bomb, tmp_path / "missing.png", tmp_path / "notes.txt"], 1)]
    lines = [init, {"jsonrpc": "2.0", "method": "notifications/initialized"}, *calls,
             {"jsonrpc": "2.0", "id": {"an": "object"}, "method": "tools/list"}, {"jsonrpc": "2.0", "id": 9, "method": "ping"}]
    proc = subprocess.Popen([egocli_script(), "--db", str(db), "mcp", "--llm", "fake"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("".join(json.dumps(line) + "\n" for line in lines).encode())
    proc.stdin.flush()
    out = [json.loads(proc.stdout.readline()) for _ in range(6)]
    peak = int(next(line for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines()
                    if line.startswith("VmHWM")).split()[1]) / 1024
    proc.stdin.close()
    proc.wait(60)
    by_id = {json.dumps(o.get("id")): o for o in out}
    texts = [by_id[str(i)]["result"]["content"][0]["text"] for i in (1, 2, 3)]
    assert all(by_id[str(i)]["result"]["isError"] for i in (1, 2, 3)), out
    assert texts[0] == f"error: {bomb}: {ERROR}", texts
    assert texts[1] == f"error: {tmp_path / 'missing.png'}: not a readable image or video", texts
    assert texts[2] == f"error: {tmp_path / 'notes.txt'}: not a readable image or video", texts
    assert by_id["null"]["error"]["code"] == -32600, out  # the object id: an error with id null, not silence
    assert "result" in by_id["9"], out  # and the session goes on
    assert peak < PEAK_MB, f"peak RSS {peak:.0f} MB"


def test_serve_refuses_the_bomb_as_a_frame_and_keeps_the_session(bomb, serve):
    server = serve()

    async def go() -> tuple[dict, dict]:
        client = WsClient()
        await client.connect(server.url, token=server.token, video=False)
        await client.ws.send_bytes(pack(KIND_JPEG, bomb.read_bytes()))
        await client.send({"type": "chess", "id": 1})
        refused = await message(client, lambda m: m.get("type") in ("error", "chess_result") and
                                (m.get("id") == 1 or m.get("ref") == 1), 90, "the chess request answered")
        await client.send({"type": "ping", "id": 2})
        alive = await message(client, lambda m: m.get("type") == "pong", 30, "a pong after the bomb")
        await client.close()
        return refused, alive

    refused, alive = asyncio.run(go())
    assert refused["type"] == "error" and ERROR in refused["message"], refused
    assert alive["type"] == "pong"
    status = Path(f"/proc/{server.proc.pid}/status").read_text().splitlines()
    peak = int(next(line for line in status if line.startswith("VmHWM")).split()[1]) / 1024
    assert server.proc.poll() is None
    assert peak < PEAK_MB + 400, f"serve peak RSS {peak:.0f} MB"  # serve's own models take ~300 MB at rest


def test_headers_give_the_exact_size_and_images_under_the_limit_still_decode(tmp_path):
    image = np.random.default_rng(1).integers(0, 255, (37, 53, 3), np.uint8)
    for ext in (".png", ".jpg", ".webp", ".bmp", ".ppm", ".gif"):
        data = cv2.imencode(ext, image)[1].tobytes()
        assert image_size(data) == (53, 37), ext
        assert to_bgr(data).shape == (37, 53, 3), ext
    progressive = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])[1].tobytes()
    assert image_size(progressive) == (53, 37)
    big = cv2.imencode(".png", np.zeros((4000, 10001), np.uint8))[1].tobytes()  # 40.004 MP: one row too many
    with pytest.raises(ImageTooLarge, match=r"image is 10001x4000 \(40.1 MP\); the limit is 40 MP"):
        to_bgr(big)
    (tmp_path / "ok.png").write_bytes(cv2.imencode(".png", np.zeros((4000, 10000), np.uint8))[1].tobytes())
    assert read_image(tmp_path / "ok.png").shape == (4000, 10000, 3)
