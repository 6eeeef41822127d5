"""A game as a video of a real board: each position painted onto a labelled photo (painted.GamePainter),
held for a few frames, with a player's hand lifting the man and putting him down between positions, light
flicker, sensor noise and a shaking camera; seeded, so the same arguments give the same frames."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from egocli.chess.painted import CELL, SIDE, TOP, GamePainter

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


@dataclass(frozen=True)
class GameVideo:
    """A game's moves played on a painted board."""

    painter: GamePainter
    """The board photo and the men painted on it."""
    moves: tuple[str, ...]
    """The game in SAN from `start`."""
    start: str = START
    """The position before the first move (FEN)."""
    seed: int = 0
    """Noise, light, shake and where each hand comes from."""
    fps: float = 5.0
    """Frames per second."""
    steady: int = 3
    """Frames each position stands still between moves (the first and the last stand 3 more)."""
    hands: int = 2
    """Frames with a hand over the board per move: the man lifted, then the man put down (hand still there)."""
    noise: float = 4.0
    """Sensor noise (standard deviation, grey levels)."""

    def positions(self) -> list[tuple[str, int | None, int | None, bool]]:
        """(placement, lifted square or None, square the hand is over or None, White's hand) per frame."""
        import chess

        board = chess.Board(self.start)
        out: list[tuple[str, int | None, int | None, bool]] = [(board.board_fen(), None, None, True)] * (self.steady + 3)
        for san in self.moves:
            move = board.parse_san(san)
            white = board.turn == chess.WHITE
            before = board.board_fen()
            board.push(move)
            if self.hands:
                out.append((before, move.from_square, move.from_square, white))
                out += [(board.board_fen(), None, move.to_square, white)] * (self.hands - 1)
            out += [(board.board_fen(), None, None, white)] * self.steady
        out += [(board.board_fen(), None, None, True)] * 3
        return out

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        """(seconds, BGR frame) for the whole game."""
        for k, (placement, lifted, over, white) in enumerate(self.positions()):
            rng = np.random.default_rng([self.seed, k])
            frame = self.painter.frame(placement, lifted).astype(np.float32)
            if over is not None:
                frame = _hand(frame, self.painter, over, white, rng)
            yield k / self.fps, _camera(frame, rng, self.noise)

    def write(self, path: Path) -> Path:
        """Write the frames to an MJPG AVI at fps; returns path."""
        import cv2

        height, width = self.painter.background.image.shape[:2]
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), self.fps, (width, height))
        try:
            for _, frame in self.frames():
                writer.write(frame)
        finally:
            writer.release()
        return path


def _image_point(painter: GamePainter, square: int) -> np.ndarray:
    """Image pixels of a square's centre on the background photo."""
    scene = painter.background
    x, y = scene.cell_of[square]
    point = np.array([SIDE + (x + 0.5) * CELL, TOP + (y + 0.5) * CELL, 1.0]) @ np.linalg.inv(scene.to_canvas).T
    return point[:2] / point[2]


def _hand(frame: np.ndarray, painter: GamePainter, square: int, white: bool,
          rng: np.random.Generator) -> np.ndarray:
    """An arm in a sleeve from the player's side of the image to a hand over the square, and its shadow."""
    import cv2

    target = _image_point(painter, square)
    home = np.mean([_image_point(painter, s) for s in ((3, 4) if white else (59, 60))], axis=0)
    centre = np.mean([_image_point(painter, s) for s in (27, 28, 35, 36)], axis=0)
    cell = float(np.linalg.norm(_image_point(painter, 0) - _image_point(painter, 9))) / np.sqrt(2)
    way = (home - centre) / max(float(np.linalg.norm(home - centre)), 1.0)
    side = np.array([-way[1], way[0]]) * rng.uniform(-2.5, 2.5) * cell
    h, w = frame.shape[:2]
    hand = target + way * cell * rng.uniform(0.1, 0.5)
    edge = hand + way * 2 * (h + w) + side
    width = int(cell * rng.uniform(1.2, 1.6))
    shadow: np.ndarray = np.zeros((h, w), np.float32)
    offset = np.array([0.35, 0.35]) * cell
    cv2.line(shadow, tuple(map(int, edge + offset)), tuple(map(int, hand + offset)), 1.0, width)
    cv2.circle(shadow, tuple(map(int, hand + offset)), int(cell), 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), cell / 4)
    frame = frame * (1 - 0.45 * shadow[..., None])
    skin = np.array([rng.uniform(120, 170), rng.uniform(150, 185), rng.uniform(190, 235)], np.float32)
    sleeve = np.array(rng.uniform(10, 60, 3), np.float32)
    wrist = hand + way * cell * 1.6
    layer = np.zeros((h, w, 3), np.float32)
    alpha: np.ndarray = np.zeros((h, w), np.float32)
    cv2.line(layer, tuple(map(int, edge)), tuple(map(int, wrist)), sleeve.tolist(), width)
    cv2.line(alpha, tuple(map(int, edge)), tuple(map(int, wrist)), 1.0, width)
    cv2.line(layer, tuple(map(int, wrist)), tuple(map(int, hand)), skin.tolist(), int(width * 0.8))
    cv2.line(alpha, tuple(map(int, wrist)), tuple(map(int, hand)), 1.0, int(width * 0.8))
    angle = float(np.degrees(np.arctan2(way[1], way[0])))
    axes = (int(1.1 * cell), int(0.8 * cell))
    cv2.ellipse(layer, tuple(map(int, hand)), axes, angle, 0, 360, skin.tolist(), -1)
    cv2.ellipse(alpha, tuple(map(int, hand)), axes, angle, 0, 360, 1.0, -1)
    texture = rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    alpha = cv2.GaussianBlur(alpha, (5, 5), 0)[..., None]
    return frame * (1 - alpha) + (layer + texture) * alpha


def _camera(frame: np.ndarray, rng: np.random.Generator, noise: float) -> np.ndarray:
    """Light flicker, a shake of up to a pixel and sensor noise; uint8."""
    import cv2

    shift = np.array([[1, 0, rng.uniform(-1, 1)], [0, 1, rng.uniform(-1, 1)]], np.float32)
    frame = cv2.warpAffine(frame, shift, (frame.shape[1], frame.shape[0]), borderMode=cv2.BORDER_REPLICATE)
    frame = frame * rng.uniform(0.94, 1.06) + rng.normal(0, noise, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)
