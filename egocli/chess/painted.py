"""Positions painted onto real board photos: a labelled photo's board is emptied (each occupied square
covered by an empty square of its colour from the same photo) and men cut from labelled photos of the same
set are pasted onto it, back to front, in a top-down canvas of the board where moving a man a square is a
translation. What the camera saw (set, light, viewpoint, a man's lean and shadow) stays real; only the
placement is made up. synthvideo.py turns the positions of a game into frames with hands and noise."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from egocli.chess.board import BoardLocation, locate_board
from egocli.chess.recognise import fen_to_grid
from egocli.chess.squares import CLASSES

CELL = 48
"""Canvas pixels per square."""
TOP, SIDE = 2 * CELL, CELL
"""Canvas margins above the board (a far man's top) and at the sides and bottom."""


@dataclass(frozen=True)
class Reach:
    """How far a man's picture reaches beyond its square in the canvas, in squares."""

    up: float = 0.35
    """Above its square (towards the top of the image): its height as the camera sees it."""
    side: float = 0.2
    """Left, right and below (a wide lens leans men outwards)."""


ABOVE = Reach()
"""A camera straight above the board."""
ANGLED = Reach(up=0.7, side=0.15)
"""A camera in front of the board and above it (a phone held by a player)."""


class SceneError(ValueError):
    """A labelled photo whose board is not found where its label says."""


class BoardScene:
    """One labelled photo in the canvas: where each square is, the board emptied, and its men cut out."""

    def __init__(self, image: np.ndarray, placement: str, reach: Reach = ABOVE, name: str = "photo") -> None:
        import cv2

        self.image, self.reach, self.name = image, reach, name
        self.location: BoardLocation = locate_board(image)
        corners = np.array([[SIDE, TOP], [SIDE + 8 * CELL, TOP], [SIDE + 8 * CELL, TOP + 8 * CELL],
                            [SIDE, TOP + 8 * CELL]], np.float32)
        self.to_canvas = cv2.getPerspectiveTransform(self.location.corners.astype(np.float32), corners)
        self.size = (2 * SIDE + 8 * CELL, TOP + 9 * CELL)
        self.canvas = cv2.warpPerspective(image, self.to_canvas, self.size, flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE)
        self.turns = _label_turns(image, self.location, placement, name)
        board = np.rot90(np.arange(64).reshape(8, 8), k=self.turns)  # board order -> canvas cell id
        self.cell_of = {(7 - r) * 8 + f: divmod(int(board[r, f]), 8)[::-1] for r in range(8) for f in range(8)}
        """chess square (a1 = 0) -> canvas cell (x, y)."""
        grid = fen_to_grid(placement)
        self.men = {self.cell_of[(7 - r) * 8 + f]: CLASSES[grid[r, f]] for r in range(8) for f in range(8)
                    if grid[r, f]}
        """canvas cell -> the man standing there, as labelled."""
        self.model = _SurfaceModel(self.canvas, [c for c in _BOARD if c not in self.men])
        self.masks = {cell: self._silhouette(cell) for cell in self.men}
        """canvas cell -> where its man is (0/1 over his box)."""
        self.empty = self._emptied()

    def box(self, cell: tuple[int, int]) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) canvas pixels a man on cell may cover."""
        x, y = cell
        r = self.reach
        return (max(0, int(SIDE + (x - r.side) * CELL)), max(0, int(TOP + (y - r.up) * CELL)),
                min(self.size[0], int(SIDE + (x + 1 + r.side) * CELL)),
                min(self.size[1], int(TOP + (y + 1 + r.side) * CELL)))

    def crowding(self, cell: tuple[int, int]) -> int:
        """How many other men's boxes overlap this man's box (0: he stands free)."""
        x0, y0, x1, y1 = self.box(cell)
        count = 0
        for other in self.men:
            bx0, by0, bx1, by1 = self.box(other)
            count += other != cell and bx0 < x1 and x0 < bx1 and by0 < y1 and y0 < by1
        return count

    def _silhouette(self, cell: tuple[int, int]) -> np.ndarray:
        """The man on cell: pixels of his box unlike the empty board there, joined to his square's middle,
        filled to their convex hull (a man seen from any side is a solid blob), other men's middles left out."""
        import cv2

        x0, y0, x1, y1 = self.box(cell)
        odd = (self.model.oddness(self.canvas, (x0, y0, x1, y1)) > ODD) | self.model.edges(self.canvas, (x0, y0, x1, y1))
        ys, xs = np.mgrid[y0:y1, x0:x1]
        board = (xs >= SIDE + 3) & (xs < SIDE + 8 * CELL - 3) & (ys < TOP + 8 * CELL - 3)
        odd &= board & ((ys >= TOP + 3) | (self.reach.up > 0.5))  # the board's own edge is no man
        for other in self.men:
            if other != cell:
                ox0, oy0, ox1, oy1 = _cell_box(other)
                odd[max(0, oy0 + CELL // 6 - y0):max(0, oy1 - CELL // 6 - y0),
                    max(0, ox0 + CELL // 6 - x0):max(0, ox1 - CELL // 6 - x0)] = False
        cx0, cy0, cx1, cy1 = _cell_box(cell)
        core = np.hypot(xs - (cx0 + cx1) / 2, ys - (cy0 + cy1) / 2) < CELL / 5
        mask = cv2.morphologyEx((odd | core).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) | core
        count, labels = cv2.connectedComponents(mask.astype(np.uint8))
        keep = np.isin(labels, [k for k in range(1, count) if (labels[core] == k).any()])
        points = cv2.findNonZero(keep.astype(np.uint8))
        hull = np.zeros(keep.shape, np.uint8)
        cv2.fillConvexPoly(hull, cv2.convexHull(points), 1)
        return hull

    def _emptied(self) -> np.ndarray:
        """The canvas with every man's pixels replaced from the nearest square of the same colour that no man
        touches (moved by whole squares, its light matched), or from the same margin."""
        import cv2

        touched = np.zeros(self.canvas.shape[:2], np.uint8)
        for cell, mask in self.masks.items():
            x0, y0, x1, y1 = self.box(cell)
            touched[y0:y1, x0:x1] |= mask[:y1 - y0, :x1 - x0]
        touched = cv2.dilate(touched, np.ones((5, 5), np.uint8))
        cells = [(x, y) for x in range(-1, 9) for y in range(-2, 9)]
        dirty = {c for c in cells if touched[slice(*_cell_box(c)[1::2]), slice(*_cell_box(c)[0::2])].any()}
        clean = [c for c in cells if c not in dirty]
        out = self.canvas.copy()
        for cell in sorted(dirty):
            donors = [d for d in clean if _same_kind(cell, d)]
            if not donors:
                continue
            donor = min(donors, key=lambda d: (abs(d[0] - cell[0]) + abs(d[1] - cell[1]), d))
            x0, y0, x1, y1 = _cell_box(cell)
            dx0, dy0, _, _ = _cell_box(donor)
            patch = self.canvas[dy0:dy0 + (y1 - y0), dx0:dx0 + (x1 - x0)].astype(np.float32)
            patch = np.clip(patch * self.model.surface(cell) / self.model.surface(donor), 0, 255)
            where = touched[y0:y1, x0:x1, None] > 0
            if cell in self.men and self.reach.up <= 0.5:  # from above a man's square is his: all of it goes
                where[:] = True
            out[y0:y1, x0:x1] = np.where(where, patch, out[y0:y1, x0:x1])
        return out

    @property
    def light(self) -> np.ndarray:
        """Median BGR of the empty light squares (to match the light of men from other photos)."""
        a1 = self.cell_of[0]
        return self.model.colour(((a1[0] + 1) % 8, a1[1]), mean=True)

    def cutout(self, cell: tuple[int, int], whole: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """(BGR patch, alpha 0..1) of the man on cell, over the box he may cover; `whole`: with all of his
        square (for a square of the same colour seen from above: nothing of him is lost to the mask)."""
        import cv2

        x0, y0, x1, y1 = self.box(cell)
        mask = self.masks[cell].astype(np.float32)
        if whole:
            cx0, cy0, cx1, cy1 = _cell_box(cell)
            mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0] = 1.0
        return self.canvas[y0:y1, x0:x1], cv2.GaussianBlur(mask, (3, 3), 0) if whole else cv2.GaussianBlur(mask, (5, 5), 0)


_BOARD = [(x, y) for x in range(8) for y in range(8)]
ODD = 5.0
"""Distance (in spreads of the empty surface's colour) beyond which a pixel is not the empty board."""


class _SurfaceModel:
    """The empty board's colour: per square colour, a plane over the board fitted to empty squares' medians,
    and the spread of pixels about it; the margins by their median."""

    def __init__(self, canvas: np.ndarray, empty: list[tuple[int, int]]) -> None:
        self.fits: dict[int, np.ndarray] = {}
        self.spread: dict[int, np.ndarray] = {}
        for parity in (0, 1):
            cells = [c for c in empty if (c[0] + c[1]) % 2 == parity] or [c for c in _BOARD if (c[0] + c[1]) % 2 == parity]
            inner = [_inner(canvas, c).reshape(-1, 3).astype(np.float32) for c in cells]
            medians = np.array([np.median(p, axis=0) for p in inner])
            design = np.array([[1.0, x, y] for x, y in cells]) if len(cells) >= 3 else np.ones((len(cells), 1))
            fit = np.linalg.lstsq(design, medians, rcond=None)[0]
            self.fits[parity] = fit if len(fit) == 3 else np.vstack([fit, np.zeros((2, 3))])
            deviation = np.concatenate([np.abs(p - m) for p, m in zip(inner, medians)])
            self.spread[parity] = np.maximum(1.4826 * np.median(deviation, axis=0), 8.0)
        self.ring = {c: _ring_median(canvas, c) for c in _BOARD}
        self.gradient = _gradient(canvas)
        quiet = [self.gradient[_cell_box(c)[1] + 4:_cell_box(c)[3] - 4, _cell_box(c)[0] + 4:_cell_box(c)[2] - 4]
                 for c in (empty or _BOARD)]
        self.edge = max(EDGE_FLOOR, EDGE * float(np.percentile(np.concatenate([q.ravel() for q in quiet]), 95)))
        margin = canvas[:TOP].reshape(-1, 3).astype(np.float32)
        self.margin = np.median(margin, axis=0)
        self.margin_spread = np.maximum(1.4826 * np.median(np.abs(margin - self.margin), axis=0), 3.0)

    def colour(self, cell: tuple[int, int], mean: bool = False) -> np.ndarray:
        """Expected BGR of the empty surface of a cell (a margin cell: the margins' median)."""
        if not (0 <= cell[0] < 8 and 0 <= cell[1] < 8):
            return np.maximum(self.margin, 1.0)
        fit = self.fits[(cell[0] + cell[1]) % 2]
        where = np.array([1.0, 3.5, 3.5]) if mean else np.array([1.0, *cell])
        return np.maximum(where @ fit, 1.0).astype(np.float32)

    def surface(self, cell: tuple[int, int]) -> np.ndarray:
        """The empty surface's BGR at a cell as its own edges show it (a margin cell: the margins' median)."""
        return np.maximum(self.ring[cell], 1.0) if cell in self.ring else np.maximum(self.margin, 1.0)

    def edges(self, canvas: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
        """Per pixel of the box, True on an edge stronger than the empty squares show (a man's outline where
        his colour is the square's), except along the squares' own borders."""
        x0, y0, x1, y1 = box
        strong = self.gradient[y0:y1, x0:x1] > self.edge
        ys, xs = np.mgrid[y0:y1, x0:x1]
        near_line = (np.abs((xs - SIDE + CELL // 2) % CELL - CELL // 2) < 3) | (np.abs((ys - TOP + CELL // 2) % CELL - CELL // 2) < 3)
        return strong & ~near_line

    def oddness(self, canvas: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
        """Per pixel of the box, its colour's distance from the empty surface there, in spreads."""
        import cv2

        x0, y0, x1, y1 = box
        pixels = cv2.GaussianBlur(canvas, (3, 3), 0)[y0:y1, x0:x1].astype(np.float32)
        expected = np.empty_like(pixels)
        spread = np.empty_like(pixels)
        ys, xs = np.mgrid[y0:y1, x0:x1]
        cx, cy = (xs - SIDE) // CELL, (ys - TOP) // CELL
        for x in range(int(cx.min()), int(cx.max()) + 1):
            for y in range(int(cy.min()), int(cy.max()) + 1):
                where = (cx == x) & (cy == y)
                on_board = 0 <= x < 8 and 0 <= y < 8
                expected[where] = self.ring[(x, y)] if on_board else self.colour((x, y))
                spread[where] = self.spread[(x + y) % 2] if on_board else self.margin_spread
        return np.sqrt((((pixels - expected) / spread) ** 2).mean(axis=2))


EDGE, EDGE_FLOOR = 2.0, 40.0
"""An edge is a man's when its gradient is EDGE times the empty squares' 95th percentile (and at least the floor)."""


def _gradient(canvas: np.ndarray) -> np.ndarray:
    import cv2

    grey = cv2.GaussianBlur(cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY), (3, 3), 0).astype(np.float32)
    return np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))


def _ring_median(canvas: np.ndarray, cell: tuple[int, int]) -> np.ndarray:
    """Median BGR of a band just inside a square's edges (where a man standing on it rarely reaches)."""
    x0, y0, x1, y1 = _cell_box(cell)
    band = CELL // 8
    inner = canvas[y0 + 2:y1 - 2, x0 + 2:x1 - 2].astype(np.float32)
    ring = np.concatenate([inner[:band].reshape(-1, 3), inner[-band:].reshape(-1, 3),
                           inner[band:-band, :band].reshape(-1, 3), inner[band:-band, -band:].reshape(-1, 3)])
    return np.median(ring, axis=0)


def _inner(canvas: np.ndarray, cell: tuple[int, int]) -> np.ndarray:
    x0, y0, x1, y1 = _cell_box(cell)
    return canvas[y0 + CELL // 6:y1 - CELL // 6, x0 + CELL // 6:x1 - CELL // 6]


def _cell_box(cell: tuple[int, int]) -> tuple[int, int, int, int]:
    x, y = cell
    return SIDE + x * CELL, TOP + y * CELL, SIDE + (x + 1) * CELL, TOP + (y + 1) * CELL


def _same_kind(cell: tuple[int, int], donor: tuple[int, int]) -> bool:
    """A donor for a board square is a board square of the same colour; for a margin, the same margin."""
    on_board = 0 <= cell[0] < 8 and 0 <= cell[1] < 8
    if on_board:
        return 0 <= donor[0] < 8 and 0 <= donor[1] < 8 and (cell[0] + cell[1] - donor[0] - donor[1]) % 2 == 0
    if cell[1] < 0:
        return donor[1] == cell[1]
    if cell[1] == 8:
        return donor[1] == 8 and 0 <= donor[0] < 8
    return donor[0] == cell[0] and 0 <= donor[1] < 8


def _label_turns(image: np.ndarray, location: BoardLocation, placement: str, name: str) -> int:
    """Quarter turns from the camera to board order that fit the label best (square colours fix two)."""
    from egocli.chess import squares as sq

    warped = sq.warp_board(image, location)
    probs = sq.classify_squares(sq.square_crops(warped)).reshape(8, 8, -1)
    truth = fen_to_grid(placement).reshape(64)
    kind = np.array([0] + [1] * 6 + [2] * 6)
    fits = []
    for turns in sq.candidate_turns(sq.light_on_even(warped)):
        board = sq.grid_to_board(probs, turns).reshape(64, -1)
        fits.append((float(np.log(np.clip(board[np.arange(64), truth], 1e-4, 1)).sum()),
                     int((kind[board.argmax(1)] == kind[truth]).sum()), turns))
    _, agree, turns = max(fits)
    if agree < 48:
        raise SceneError(f"{name}: the board found does not show the labelled position ({agree}/64 squares)")
    return turns


@dataclass
class GamePainter:
    """Paints placements onto one scene's emptied board with men cut from a bank of scenes of the same set."""

    background: BoardScene
    """The photo painted on (its viewpoint, board and light)."""
    bank: list[BoardScene]
    """Photos whose men are cut out (the background may be one of them)."""
    seed: int = 0
    """Which of several equally good cut-outs a man gets (fixed per man and square)."""

    def __post_init__(self) -> None:
        self._cache: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = {}

    def canvas(self, placement: str, lifted: int | None = None) -> np.ndarray:
        """The background's canvas with the placement's men (minus the one on square `lifted`)."""
        out = self.background.empty.astype(np.float32)
        grid = fen_to_grid(placement)
        men = [((7 - r) * 8 + f, CLASSES[grid[r, f]]) for r in range(8) for f in range(8) if grid[r, f]]
        men = [(s, m) for s, m in men if s != lifted]
        for square, man in sorted(men, key=lambda sm: self.background.cell_of[sm[0]][1]):  # back to front
            patch, alpha = self._man(man, square)
            x0, y0, x1, y1 = self.background.box(self.background.cell_of[square])
            alpha = alpha[:y1 - y0, :x1 - x0, None]
            out[y0:y1, x0:x1] = out[y0:y1, x0:x1] * (1 - alpha) + patch[:y1 - y0, :x1 - x0] * alpha
        return np.clip(out, 0, 255).astype(np.uint8)

    def frame(self, placement: str, lifted: int | None = None) -> np.ndarray:
        """The background photo with the painted board put back where it was (BGR, the photo's size)."""
        import cv2

        canvas = self.canvas(placement, lifted)
        scene = self.background
        h, w = scene.image.shape[:2]
        back = np.linalg.inv(scene.to_canvas)
        painted = cv2.warpPerspective(canvas, back, (w, h), flags=cv2.INTER_LINEAR)
        inside = np.zeros(canvas.shape[:2], np.float32)
        inside[4:-4, 4:-4] = 1.0
        alpha = cv2.warpPerspective(cv2.GaussianBlur(inside, (7, 7), 0), back, (w, h))[..., None]
        return (scene.image * (1 - alpha) + painted * alpha).astype(np.uint8)

    def _man(self, man: str, square: int) -> tuple[np.ndarray, np.ndarray]:
        key = (man, square)
        if key not in self._cache:
            self._cache[key] = self._pick(man, square)
        return self._cache[key]

    def _pick(self, man: str, square: int) -> tuple[np.ndarray, np.ndarray]:
        """A cut-out of `man` for `square`: the least crowded, same square colour, nearest, from the bank."""
        target = self.background.cell_of[square]
        colour = (target[0] + target[1]) % 2
        options: list[tuple[Any, ...]] = []
        for n, scene in enumerate(self.bank):
            for cell, there in scene.men.items():
                if there != man:
                    continue
                crowded = scene.crowding(cell)
                same = scene is self.background and cell == target
                options.append((not same, crowded, (cell[0] + cell[1]) % 2 != colour,
                                abs(cell[0] - target[0]) + abs(cell[1] - target[1]), n, cell))
        if not options:
            raise SceneError(f"no {man} in the photos of this set")
        options.sort()
        best = [o for o in options if o[:3] == options[0][:3]][:3]
        pick = best[(self.seed + square) % len(best)]
        scene = self.bank[pick[4]]
        patch, alpha = scene.cutout(pick[5], whole=not pick[2] and scene.reach.up <= 0.5)
        gain = self.background.light / np.maximum(scene.light, 1.0)
        return self._moved(patch.astype(np.float32) * gain, alpha, scene, pick[5], target)

    def _moved(self, patch: np.ndarray, alpha: np.ndarray, scene: BoardScene, cell: tuple[int, int],
               target: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        """The cut-out re-cut to the target square's box (the two boxes differ where they meet the edge)."""
        sx0, sy0, sx1, sy1 = scene.box(cell)
        tx0, ty0, tx1, ty1 = self.background.box(target)
        dx, dy = (target[0] - cell[0]) * CELL, (target[1] - cell[1]) * CELL
        out_patch = np.zeros((ty1 - ty0, tx1 - tx0, 3), np.float32)
        out_alpha = np.zeros((ty1 - ty0, tx1 - tx0), np.float32)
        x0, y0 = max(tx0, sx0 + dx), max(ty0, sy0 + dy)
        x1, y1 = min(tx1, sx1 + dx), min(ty1, sy1 + dy)
        if x1 > x0 and y1 > y0:
            out_patch[y0 - ty0:y1 - ty0, x0 - tx0:x1 - tx0] = patch[y0 - dy - sy0:y1 - dy - sy0, x0 - dx - sx0:x1 - dx - sx0]
            out_alpha[y0 - ty0:y1 - ty0, x0 - tx0:x1 - tx0] = alpha[y0 - dy - sy0:y1 - dy - sy0, x0 - dx - sx0:x1 - dx - sx0]
        return out_patch, out_alpha

