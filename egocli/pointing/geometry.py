"""Pointing pose and the pointing ray, with the landmarks' relative depth used for perspective.

Landmarks (MediaPipe hand model): 0 wrist; index finger 5 MCP, 6 PIP, 7 DIP, 8 tip; middle 9-12,
ring 13-16, pinky 17-20. x, y are image pixels; z is MediaPipe's relative depth (0 at the wrist,
smaller = nearer the camera), scaled here to pixels like x (z * image width), so a z step of one
"pixel" is as long in space as one pixel of x at the hand's depth.

Pose: a finger's *straightness* is |tip - MCP| / (sum of its three bone lengths), 1.0 when straight;
its *reach* is |tip - wrist| / |PIP - wrist|, above 1 when the tip sticks out past the middle joint.
The hand points when the index is straight and reaching, the middle finger is curled (or clearly
shorter than the index), and at least two of middle, ring and pinky are curled.

The ray: its image is the line through the index MCP and tip (the direction is the principal axis of
landmarks 5-8, oriented towards the tip), because a straight line in space projects to a straight
line through the projections of its points. What the 2D landmarks cannot tell is how the ray goes in
depth; the relative depth dz = z(tip) - z(MCP) does. Put the camera at the origin with focal length
f (pixels; a 60 degree horizontal field of view is assumed, f = 0.866 W) and the MCP at depth 1.
Then the tip is at depth Zt = 1 + dz / f, and the 3D points are

    P_m = ((u_m - c_x) / f, (v_m - c_y) / f, 1),   P_t = ((u_t - c_x) / f * Zt, (v_t - c_y) / f * Zt, Zt).

The ray is P(s) = P_m + s (P_t - P_m), s >= 1 beyond the tip; its image is (f X / Z + c_x, f Y / Z + c_y),
and something at P(s) looks 1 / Z(s) as large as it would at the MCP's depth. This "tilt" of the ray
into the scene (dz > 0: the finger points away from the wearer) does two things that help:
- the image of the ray stops at the vanishing point MCP + (tip - MCP) * f / dz instead of running to the
  image border, so objects beyond it cannot be picked;
- steps of equal length in space crowd together towards that point, and the crops taken along the ray
  shrink with 1 / Z(s), so a far object is looked at in a crop of its own size.
A dz within TILT_NOISE of the finger's 2D length is treated as 0 (MediaPipe's z is noisy), and the
tilt is capped at MAX_TILT (the ray at most ~63 degrees out of the image plane).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

INDEX = (5, 6, 7, 8)
FINGERS = {"index": (5, 6, 7, 8), "middle": (9, 10, 11, 12), "ring": (13, 14, 15, 16), "pinky": (17, 18, 19, 20)}
STRAIGHT, REACH = 0.85, 1.05
"""An extended index finger: straightness and reach at least these."""
CURLED_STRAIGHT, CURLED_REACH = 0.75, 0.97
"""A curled finger: straightness or reach below these."""
FOV_DEG = 60.0
"""Assumed horizontal field of view of the camera, for the focal length."""
TILT_NOISE, MAX_TILT = 0.15, 2.0
"""|dz| / 2D finger length below TILT_NOISE counts as flat; above MAX_TILT is clipped."""


def finger_shape(points: np.ndarray, finger: str) -> tuple[float, float]:
    """(straightness, reach) of one finger from (21, 2+) landmark pixels."""
    mcp, pip, dip, tip = (points[i, :2] for i in FINGERS[finger])
    bones = float(np.linalg.norm(pip - mcp) + np.linalg.norm(dip - pip) + np.linalg.norm(tip - dip))
    straight = float(np.linalg.norm(tip - mcp) / max(bones, 1e-6))
    wrist = points[0, :2]
    reach = float(np.linalg.norm(tip - wrist) / max(float(np.linalg.norm(pip - wrist)), 1e-6))
    return straight, reach


def is_pointing(points: np.ndarray) -> bool:
    """True when the hand's pose is a pointing index finger (see the module docstring)."""
    shapes = {name: finger_shape(points, name) for name in FINGERS}
    straight, reach = shapes["index"]
    if straight < STRAIGHT or reach < REACH:
        return False
    curled = [n for n in ("middle", "ring", "pinky")
              if shapes[n][0] < CURLED_STRAIGHT or shapes[n][1] < CURLED_REACH]
    middle_down = "middle" in curled or reach - shapes["middle"][1] >= 0.15
    return middle_down and len(curled) >= 2


@dataclass(frozen=True)
class Ray:
    """The pointing ray of one hand in image and (relative) camera space."""

    tip: np.ndarray
    """Index fingertip, image pixels (x, y)."""
    direction: np.ndarray
    """Unit 2D direction of the ray's image at the tip."""
    finger: float
    """Finger length MCP -> tip in pixels at the hand's depth (3D, so foreshortening does not shrink it)."""
    start: np.ndarray
    """Camera-space MCP (depth 1)."""
    step: np.ndarray
    """Camera-space vector MCP -> tip."""
    focal: float
    """Focal length in pixels."""
    centre: tuple[float, float]
    """Principal point (image centre)."""

    @property
    def tilt(self) -> float:
        """Depth change per finger length, relative to the MCP depth (0: the ray lies in the image plane)."""
        return float(self.step[2])

    def project(self, s: float) -> np.ndarray:
        """Image point of the ray at parameter s (s = 1 is the tip)."""
        p = self.start + s * self.step
        return np.array([self.focal * p[0] / p[2] + self.centre[0], self.focal * p[1] / p[2] + self.centre[1]])

    def scale(self, s: float) -> float:
        """Apparent size at parameter s relative to the fingertip's depth."""
        return float((self.start[2] + self.step[2]) / (self.start[2] + s * self.step[2]))

    def param_at(self, distance: float) -> float | None:
        """The s whose image lies `distance` pixels beyond the tip, or None past the vanishing point."""
        d = np.asarray(self.project(1.0))
        lo, hi = 1.0, 1.0 + 1.0
        while np.linalg.norm(self.project(hi) - d) < distance:
            lo, hi = hi, hi * 2
            if hi > 1e4 or self.start[2] + hi * self.step[2] <= 1e-6:
                return None
        for _ in range(40):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if np.linalg.norm(self.project(mid) - d) < distance else (lo, mid)
        return (lo + hi) / 2

    def along(self, point: np.ndarray) -> tuple[float, float]:
        """(distance along the ray's image from the tip, distance off it) of an image point."""
        v = np.asarray(point, float) - self.tip
        t = float(v @ self.direction)
        off = float(abs(v[0] * self.direction[1] - v[1] * self.direction[0]))
        return t, off

    def to_json(self) -> dict[str, object]:
        """Plain data for --json."""
        return {"tip": [round(float(x), 1) for x in self.tip],
                "direction": [round(float(x), 3) for x in self.direction],
                "finger_px": round(self.finger, 1), "tilt": round(self.tilt, 3)}


def pointing_ray(points: np.ndarray, width: int, height: int) -> Ray:
    """The ray of a hand from (21, 3) landmarks (x, y pixels; z in pixels relative to the wrist)."""
    finger = points[list(INDEX)]
    mcp, tip = finger[0], finger[3]
    xy = finger[:, :2] - finger[:, :2].mean(axis=0)
    axis = np.linalg.svd(xy, full_matrices=False)[2][0]
    if axis @ (tip[:2] - mcp[:2]) < 0:
        axis = -axis
    flat = float(np.linalg.norm(tip[:2] - mcp[:2]))
    dz = float(tip[2] - mcp[2])
    ratio = dz / max(flat, 1e-6)
    dz = 0.0 if abs(ratio) < TILT_NOISE else float(np.clip(ratio, -MAX_TILT, MAX_TILT) * flat)
    focal = width / (2 * np.tan(np.radians(FOV_DEG / 2)))
    cx, cy = width / 2, height / 2
    # Straighten the image line to the fitted axis: the MCP is put back on the axis through the tip.
    mcp_xy = tip[:2] - axis * flat
    start = np.array([(mcp_xy[0] - cx) / focal, (mcp_xy[1] - cy) / focal, 1.0])
    zt = 1.0 + dz / focal
    end = np.array([(tip[0] - cx) / focal * zt, (tip[1] - cy) / focal * zt, zt])
    return Ray(tip=tip[:2].astype(float), direction=axis.astype(float), finger=float(np.hypot(flat, dz)),
               start=start, step=end - start, focal=float(focal), centre=(cx, cy))
