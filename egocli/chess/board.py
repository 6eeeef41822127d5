"""Board localisation: find the 8x8 lattice of squares in a photo and warp it to a grid."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from egocli.core.errors import InputError

WORK_SIDE = 800
"""Long side, in pixels, of the grey image the lattice search runs on."""


MIN_AGREEMENT = 0.75
"""Share of the 64 cells whose brightness must follow the light/dark chequer for a board to count."""


class NoBoardError(InputError):
    """The image has no chessboard that could be located."""


@dataclass(frozen=True)
class BoardLocation:
    """Where the board is in an image."""

    corners: np.ndarray
    """4x2 float32 image points of the playing area: top-left, top-right, bottom-right, bottom-left."""
    homography: np.ndarray
    """3x3 map from lattice coordinates (0..8, 0..8; x right, y down) to image pixels."""
    squares_seen: int
    """How many of the 64 squares were found as clean quadrilaterals (a confidence cue)."""


def _quads(gray: np.ndarray) -> list[np.ndarray]:
    """Candidate square outlines (4x2 float arrays) from several binarisations of the image."""
    import cv2

    out: list[np.ndarray] = []
    area_min = (gray.shape[0] * gray.shape[1]) * 0.00012
    area_max = (gray.shape[0] * gray.shape[1]) * 0.03
    kernel = np.ones((3, 3), np.uint8)
    for block in (31, 61):
        binary = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, 2)
        for mask in (binary, 255 - binary):
            for erode in (1, 3):
                eroded = cv2.erode(mask, kernel, iterations=erode)
                contours, _ = cv2.findContours(eroded, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
                for cnt in contours:
                    quad = _as_quad(cnt, area_min, area_max, erode)
                    if quad is not None:
                        out.append(quad)
    return out


def _as_quad(cnt: Any, area_min: float, area_max: float, grow: int) -> np.ndarray | None:
    import cv2

    area = cv2.contourArea(cnt)
    if not area_min < area < area_max:
        return None
    hull = cv2.convexHull(cnt)
    if area < 0.85 * cv2.contourArea(hull):
        return None
    poly = cv2.approxPolyDP(hull, 0.1 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float32)
    if len(poly) != 4:
        return None
    sides = np.linalg.norm(poly - np.roll(poly, 1, axis=0), axis=1)
    if sides.min() < 0.4 * sides.max():
        return None
    centre = poly.mean(axis=0)
    radius = np.linalg.norm(poly - centre, axis=1).mean()
    return centre + (poly - centre) * (1 + (grow + 1) / max(radius, 1.0))


def _fit(cells: np.ndarray, points: np.ndarray) -> np.ndarray | None:
    import cv2

    if len(cells) < 4:
        return None
    h, _ = cv2.findHomography(cells.astype(np.float32), points.astype(np.float32), 0)
    return h


def _project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.c_[pts, np.ones(len(pts))] @ h.T
    with np.errstate(divide="ignore", invalid="ignore"):
        return p[:, :2] / p[:, 2:3]


def _grow(seed: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """From one seed quad, assign lattice cells to quad centres; (H, cells, centre idx) or None."""
    import cv2

    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    h = cv2.getPerspectiveTransform(unit, seed.astype(np.float32))
    for reach in (1.6, 2.6, 4.6, 9.0, 12.0):
        try:
            lat = _project(np.linalg.inv(h), centres) - 0.5
        except np.linalg.LinAlgError:
            return None
        lat = np.nan_to_num(lat, nan=1e6, posinf=1e6, neginf=-1e6)
        cells = np.round(lat)
        ok = (np.abs(lat - cells).max(axis=1) < 0.22) & (np.abs(cells).max(axis=1) <= reach)
        if ok.sum() < 5:
            return None
        new = _fit(cells[ok] + 0.5, centres[ok])
        if new is None:
            return None
        h = new
    return h, cells[ok].astype(int), np.flatnonzero(ok)


def _cell_means(gray: np.ndarray, h: np.ndarray, lo: int, hi: int) -> dict[tuple[int, int], float]:
    """Median grey level at the sides of each lattice cell in [lo, hi)^2 (where pieces rarely cover)."""
    offsets = np.array([[dx, dy] for dx in (0.1, 0.9) for dy in (0.15, 0.5, 0.85)])
    keys = [(i, j) for i in range(lo, hi) for j in range(lo, hi)]
    pts = _project(h, (np.array(keys, float)[:, None, :] + offsets[None]).reshape(-1, 2))
    pts = np.nan_to_num(pts, nan=-1.0, posinf=-1.0, neginf=-1.0).reshape(len(keys), len(offsets), 2)
    xs, ys = pts[..., 0].astype(int), pts[..., 1].astype(int)
    inside = ((xs >= 0) & (ys >= 0) & (xs < gray.shape[1]) & (ys < gray.shape[0])).all(axis=1)
    return {k: float(np.median(gray[ys[n], xs[n]])) for n, k in enumerate(keys) if inside[n]}


def _window_score(signed: dict[tuple[int, int], float], i0: int, j0: int) -> tuple[float, float]:
    """(|sum of parity-signed contrasts|, share of cells agreeing with the window's parity)."""
    values = np.array([signed.get((i, j), 0.0) for i in range(i0, i0 + 8) for j in range(j0, j0 + 8)])
    total = float(values.sum())
    agree = float(np.mean(np.sign(values) == np.sign(total))) if total else 0.0
    return abs(total), agree


def _extent(gray: np.ndarray, h: np.ndarray, cells: np.ndarray) -> tuple[int, int, float]:
    """The lattice offset (i0, j0) of the 8x8 window that looks most like a chequered board, and its agreement."""
    lo, hi = int(cells.min()) - 8, int(cells.max()) + 9
    means = _cell_means(gray, h, lo, hi)
    if not means:
        raise NoBoardError("no chessboard found")
    mid = float(np.median(list(means.values())))
    signed = {k: (v - mid) * (-1) ** (k[0] + k[1]) for k, v in means.items()}
    occupied = {tuple(c) for c in cells}
    spread = float(np.std(list(means.values())))
    best, best_score, best_agree = (0, 0), -np.inf, 0.0
    (imin, jmin), (imax, jmax) = cells.min(axis=0), cells.max(axis=0)
    for i0 in range(min(imin, imax - 8), max(imin + 1, imax - 6)):
        for j0 in range(min(jmin, jmax - 8), max(jmin + 1, jmax - 6)):
            contrast, agree = _window_score(signed, i0, j0)
            seen = sum((i, j) in occupied for i in range(i0, i0 + 8) for j in range(j0, j0 + 8))
            score = contrast + 0.3 * spread * seen
            if score > best_score:
                best, best_score, best_agree = (i0, j0), score, agree
    return best[0], best[1], best_agree


def _order(corners: np.ndarray) -> np.ndarray:
    """Order four points top-left, top-right, bottom-right, bottom-left (clockwise on screen)."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    ring = corners[np.argsort(angles)]  # clockwise on screen starting near the left
    start = int(np.argmin(ring.sum(axis=1)))
    return np.roll(ring, -start, axis=0).astype(np.float32)


def _common_size_seeds(areas: np.ndarray, count: int) -> list[int]:
    """Quads of the most common sizes: on a cluttered background (tiles, paper, text) most quads are not
    squares of the board and the median area misses them, but the board's 32 same-sized squares stand out."""
    size_bin = np.floor(np.log(np.maximum(areas, 1.0)) / 0.2).astype(int)
    values, counts = np.unique(size_bin, return_counts=True)
    seeds: list[int] = []
    for value in values[np.argsort(-counts, kind="stable")][:4]:
        seeds += [int(k) for k in np.flatnonzero(size_bin == value)[:count // 2]]
    return seeds


def _best_lattice(gray: np.ndarray, quads: list[np.ndarray], seeds: list[int], tries: int = 6) -> tuple | None:
    """(score, homography, (i0, j0), squares inside) of the best board grown from the seed quads, or None;
    the `tries` largest lattices are checked for a chequered 8x8 window."""
    centres = np.array([q.mean(axis=0) for q in quads])
    candidates = []
    for k in seeds:
        grown = _grow(quads[k], centres)
        if grown is not None and len({tuple(c) for c in grown[1]}) >= 12:
            candidates.append((len({tuple(c) for c in grown[1]}), int(k), grown[0], grown[1]))
    best: tuple[float, np.ndarray, tuple[int, int], int] | None = None
    for count, _, h, cells in sorted(candidates, key=lambda c: (-c[0], c[1]))[:tries]:
        try:
            i0, j0, agree = _extent(gray, h, cells)
        except NoBoardError:  # this lattice runs off the image; another candidate may not
            continue
        inside = sum(1 for c in {tuple(c) for c in cells} if i0 <= c[0] < i0 + 8 and j0 <= c[1] < j0 + 8)
        if agree >= MIN_AGREEMENT and (best is None or inside * agree > best[0]):
            best = (inside * agree, h, (i0, j0), inside)
    return best


def locate_board(image: np.ndarray, seeds: int = 40) -> BoardLocation:
    """Find the board in a BGR image; raises NoBoardError when no 8x8 lattice is found."""
    import cv2

    scale = WORK_SIDE / max(image.shape[:2])
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    quads = _quads(gray)
    if len(quads) < 8:
        raise NoBoardError("no chessboard found")
    areas = np.array([cv2.contourArea(q) for q in quads])
    near_median = [int(k) for k in np.argsort(np.abs(areas - np.median(areas)))[:seeds]]
    best = _best_lattice(gray, quads, near_median)
    if best is None:
        extra = [k for k in _common_size_seeds(areas, seeds) if k not in near_median]
        best = _best_lattice(gray, quads, near_median + extra, tries=16)
    if best is None:
        raise NoBoardError("no chessboard found")
    _, h, (i0, j0), inside = best
    lattice = np.array([[i0, j0], [i0 + 8, j0], [i0 + 8, j0 + 8], [i0, j0 + 8]], np.float64)
    corners = _order(_project(h, lattice) / scale)
    full = cv2.getPerspectiveTransform(np.array([[0, 0], [8, 0], [8, 8], [0, 8]], np.float32), corners)
    return BoardLocation(corners=corners, homography=full, squares_seen=inside)
