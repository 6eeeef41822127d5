"""A video that starts from the initial position is followed as a game (legal moves only), on the real
Scholar's Mate video read by the real classifier; any other video is read frame by frame as before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import chess
import cv2
import numpy as np
import pytest

from egocli.chess.analyse import analyse
from egocli.chess.game import GameTracker
from egocli.chess.types import ChessOptions
from egocli.chess.video import FRAMES_REASON, GAME_REASON, BoardReader, sample_frames

VIDEO = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "chess" / "webcam" / "scholarsmate.avi"
GAME = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
"""The game in the video, read by eye frame by frame: the queen leaves d1 for h5 at 3.8-4.2 s, before Black's
knight goes to c6 (5.0 s), and the bishop leaves f1 for c4 at 7.6-8.4 s. shared/data/chess/webcam/README.md
gives 2. Bc4 Nc6 3. Qh5, which reaches the same end but is not what the frames show."""
FINAL = "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR"
Frames = list[tuple[float, np.ndarray]]


@pytest.fixture(scope="module")
def seen() -> Frames:
    """(seconds, (8, 8, 13) probabilities) of every sampled frame, as the packaged classifier reads them."""
    if not VIDEO.is_file():
        pytest.skip(f"shared video not found at {VIDEO}")
    reader, out = BoardReader(ChessOptions()), []
    for seconds, frame in sample_frames(VIDEO, 5.0):
        recognition, _ = reader.read(frame)
        out.append((seconds, recognition.probs))
    return out


def follow(frames: Frames) -> GameTracker:
    game = GameTracker()
    for seconds, probs in frames:
        game.add(seconds, probs)
    return game


def test_the_tracked_game_reaches_the_final_position(seen: Frames) -> None:
    game = follow(seen)
    assert [m.san for m in game.moves()] == GAME
    assert not any(m.uncertain for m in game.moves())  # every move is seen clearly: none is flagged
    assert game.board.board_fen() == FINAL and game.board.turn == chess.BLACK and game.board.is_checkmate()
    assert [round(m.seconds, 1) for m in game.moves()] == sorted(round(m.seconds, 1) for m in game.moves())


def at(frames: Frames, seconds: float) -> int:
    return next(k for k, (t, _) in enumerate(frames) if t >= seconds - 1e-6)


@pytest.mark.parametrize(("splice_at", "source", "count"), [
    (6.0, 0.2, 5),     # the initial position back for a second after 2...Nc6: pawns cannot move back
    (12.0, 0.2, 3),    # the same while a hand is over the board, just before the mate
    (3.0, 16.6, 10),   # two seconds of the final position in the opening: five moves at once
])
def test_an_illegal_jump_does_not_corrupt_the_tracked_position(seen: Frames, splice_at: float, source: float,
                                                                 count: int) -> None:
    k, jump = at(seen, splice_at), seen[at(seen, source)][1]
    spliced = seen[:k] + [(seen[k][0], jump)] * count + seen[k:]
    before = [m.san for m in follow(seen[:k]).moves()]
    during = follow(spliced[:k + count])
    assert [m.san for m in during.moves()] == before  # the jump bought no moves, not even legal ones there and back
    game = follow(spliced)
    assert [m.san for m in game.moves()] == GAME and game.board.board_fen() == FINAL


def run_cli(*args: str) -> tuple[int, dict]:
    """(exit code, --json output) of the installed console script."""
    exe = Path(sys.executable).with_name("egocli")
    done = subprocess.run([str(exe), "chess", *args, "--json", "--no-explain", "--time", "0.05", "--multipv", "1"],
                          check=False, capture_output=True, text=True, timeout=600)
    return done.returncode, json.loads(done.stdout)


@pytest.mark.slow
def test_the_cli_follows_the_video_as_a_game_and_says_so() -> None:
    if not VIDEO.is_file():
        pytest.skip(f"shared video not found at {VIDEO}")
    code, data = run_cli(str(VIDEO), "--no-self-calibrate")
    assert code == 0 and data["reading"] == "game" and data["reading_reason"] == GAME_REASON
    assert [p["move"] for p in data["positions"]] == [None, *GAME]
    final = data["final"]
    assert final["fen"].split()[0] == FINAL and final["status"] == "checkmate"
    assert final["turn"] == "black" and final["turn_source"] == "moves" and "7 moves seen" in final["turn_reason"]
    _, frames = run_cli(str(VIDEO), "--no-self-calibrate", "--frame-by-frame")  # exit 1 when it reads nonsense
    assert frames["reading"] == "frames" and frames["reading_reason"] == "read frame by frame, as asked"


@pytest.mark.slow
def test_a_video_that_does_not_start_from_the_initial_position_is_read_frame_by_frame(tmp_path: Path) -> None:
    if not VIDEO.is_file():
        pytest.skip(f"shared video not found at {VIDEO}")
    late = tmp_path / "late.avi"  # the video's last four seconds: the final position, no start
    writer = cv2.VideoWriter(str(late), cv2.VideoWriter_fourcc(*"MJPG"), 5.0, (640, 480))
    for seconds, frame in sample_frames(VIDEO, 5.0):
        if seconds >= 13.0:
            writer.write(frame)
    writer.release()
    result = analyse(str(late), None, ChessOptions(explain=False, seconds=0.05, multipv=1))
    assert result.reading == "frames" and result.reading_reason == FRAMES_REASON
    assert result.calibration is None and result.frames_read == 19
    assert result.positions and result.positions[0]["move"] is None  # committed by the vote buffer, as before
