"""Square crops from a located board, the 13-class square classifier (ONNX) and board orientation."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from egocli.chess.board import BoardLocation
from egocli.core.errors import ModelError

CLASSES = ".PNBRQKpnbrqk"
"""Class index -> piece symbol ('.' is an empty square), the classifier's output order."""
CELL = 48
"""Pixels per square in the warped board (48 keeps a queen's crown apart from a king's cross)."""
CROP_W, CROP_H = CELL * 3 // 2, CELL * 9 // 4
"""Crop size: the square, a quarter square each side, one square above (tall pieces) and a quarter below."""
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = CELL // 2, CELL * 5 // 4, CELL // 2
"""Warped-board margins so crops of edge squares stay inside the warp."""
MODEL_PATH = Path(__file__).with_name("squares.onnx")
"""The packaged classifier, trained by scripts/train_squares.py (`egocli chess calibrate` makes another)."""


def warp_board(image: np.ndarray, location: BoardLocation, jitter: np.ndarray | None = None) -> np.ndarray:
    """Warp the board to a top-down image, far edge at the top, with margins for piece tops."""
    import cv2

    width, height = 8 * CELL + 2 * MARGIN_X, 8 * CELL + MARGIN_TOP + MARGIN_BOTTOM
    src = location.corners.astype(np.float32) + (0 if jitter is None else jitter.astype(np.float32))
    dst = np.array([[MARGIN_X, MARGIN_TOP], [MARGIN_X + 8 * CELL, MARGIN_TOP],
                    [MARGIN_X + 8 * CELL, MARGIN_TOP + 8 * CELL], [MARGIN_X, MARGIN_TOP + 8 * CELL]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(image, matrix, (width, height), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def square_crops(warped: np.ndarray) -> np.ndarray:
    """64 crops (row-major from the top-left of the warp) as uint8 (64, CROP_H, CROP_W, 3)."""
    out = np.empty((64, CROP_H, CROP_W, 3), np.uint8)
    for row in range(8):
        for col in range(8):
            x0 = MARGIN_X + col * CELL - CELL // 4
            y0 = MARGIN_TOP + row * CELL - CELL
            out[row * 8 + col] = warped[y0:y0 + CROP_H, x0:x0 + CROP_W]
    return out


def to_tensor(crops: np.ndarray) -> np.ndarray:
    """Crops (N, H, W, 3) BGR uint8 -> float32 (N, 3, H, W) RGB in [-1, 1], the network's input."""
    rgb = crops[..., ::-1].astype(np.float32) / 127.5 - 1.0
    return np.ascontiguousarray(rgb.transpose(0, 3, 1, 2))


@lru_cache(maxsize=4)
def _session(path: str, mtime_ns: int):  # noqa: ANN202 - onnxruntime type is optional at import time
    try:
        import onnxruntime as ort
    except ImportError as ex:
        raise ModelError("chess: onnxruntime is not installed (pip install onnxruntime)") from ex
    if not Path(path).exists():
        raise ModelError(f"chess: square classifier not found at {path}")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    try:
        return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    except Exception as ex:  # noqa: BLE001 - onnxruntime raises its own exception types
        raise ModelError(f"chess: {path} is not a square classifier ({str(ex).splitlines()[0][:120]})") from ex


def classify_squares(crops: np.ndarray, model_path: Path = MODEL_PATH) -> np.ndarray:
    """Class probabilities (64, 13) for the 64 crops, in warp (image) order."""
    try:
        mtime = model_path.stat().st_mtime_ns  # a recalibrated file at the same path is loaded afresh
    except OSError:
        raise ModelError(f"chess: square classifier not found at {model_path}") from None
    session = _session(str(model_path), mtime)
    logits = session.run(None, {session.get_inputs()[0].name: to_tensor(crops)})[0]
    logits = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(logits)
    return probs / probs.sum(axis=1, keepdims=True)


def light_on_even(warped: np.ndarray) -> bool:
    """True when squares with even (row + col) in the warp are the light ones."""
    import cv2

    gray = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY).astype(np.float32)
    even: list[float] = []
    odd: list[float] = []
    for row in range(8):
        for col in range(8):
            y, x = MARGIN_TOP + row * CELL, MARGIN_X + col * CELL
            inner, edge = CELL // 8, CELL // 16
            sides = np.r_[gray[y + inner:y + CELL - inner, x + edge:x + 3 * edge].ravel(),
                          gray[y + inner:y + CELL - inner, x + CELL - 3 * edge:x + CELL - edge].ravel()]
            (even if (row + col) % 2 == 0 else odd).append(float(np.median(sides)))
    return float(np.median(even)) > float(np.median(odd))


def grid_to_board(grid: np.ndarray, quarter_turns: int) -> np.ndarray:
    """Re-index an (8, 8, ...) warp grid into board order: [rank 8..1][file a..h] after turning."""
    return np.rot90(grid, k=quarter_turns, axes=(0, 1))


def candidate_turns(light_even: bool) -> tuple[int, int]:
    """The two quarter-turn counts consistent with a light square at each player's right hand."""
    # In board order (rank 8 at top, file a at left) square (0, 0) = a8 is light: even sum is light.
    return (0, 2) if light_even else (1, 3)


VIEW_MARGIN = 2.5
"""Rows by which White's pieces must sit above Black's before the camera is taken to be on Black's side."""


def choose_turns(probs: np.ndarray, light_even: bool, view: str = "auto") -> int:
    """Quarter turns mapping the warp to board order: square colours fix the axis; White's side unless
    the pieces clearly say otherwise (White's men well above Black's, as in an opening seen from Black)."""
    fixed = {"white": 0, "left": 1, "black": 2, "right": 3}
    if view in fixed:
        return fixed[view]
    near, far = candidate_turns(light_even)
    grid = probs.reshape(8, 8, len(CLASSES))
    white = grid_to_board(grid[..., 1:7].sum(axis=2), near)
    black = grid_to_board(grid[..., 7:13].sum(axis=2), near)
    if white.sum() < 4 or black.sum() < 4:
        return near
    rows = np.arange(8)[:, None]
    lead = float((white * rows).sum() / white.sum() - (black * rows).sum() / black.sum())
    return far if lead < -VIEW_MARGIN else near
