"""Pointing pose and ray geometry on hand-made landmark sets (no model)."""

from __future__ import annotations

import numpy as np

from egocli.pointing.geometry import is_pointing, pointing_ray
from egocli.pointing.resolve import intent_of


def _hand(index_straight: bool, others_straight: bool, dz: float = 0.0) -> np.ndarray:
    """A right hand, wrist at (300, 400), fingers up the image; z only on the index finger."""
    points = np.zeros((21, 3))
    points[0] = (300, 400, 0)
    for finger, x in zip(range(5), (250, 280, 300, 320, 340), strict=True):
        base = 1 + 4 * finger
        straight = index_straight if finger == 1 else others_straight
        for k in range(4):
            if straight or finger == 0 or k == 0:
                points[base + k] = (x, 340 - 25 * k, dz * k / 3 if finger == 1 else 0.0)
            else:  # curled: the finger folds back towards the palm
                points[base + k] = (x, 325 + 8 * k, 0.0)
    return points


def test_pose_needs_index_out_and_the_others_curled() -> None:
    assert is_pointing(_hand(True, False))
    assert not is_pointing(_hand(True, True))  # open hand
    assert not is_pointing(_hand(False, False))  # fist


def test_flat_ray_runs_along_the_finger_to_the_image_edge() -> None:
    ray = pointing_ray(_hand(True, False), 640, 480)
    assert np.allclose(ray.direction, (0, -1), atol=1e-6)
    assert ray.tilt == 0.0
    s = ray.param_at(200)
    assert s is not None and np.allclose(ray.project(s), (280, 265 - 200), atol=0.5)
    assert ray.scale(s) == 1.0


def test_depth_tilts_the_ray_into_the_scene_and_stops_it_at_the_vanishing_point() -> None:
    flat = pointing_ray(_hand(True, False), 640, 480)
    away = pointing_ray(_hand(True, False, dz=60.0), 640, 480)  # tip 60 px-equivalents deeper than the MCP
    assert away.tilt > 0 and away.finger > flat.finger
    s = away.param_at(60)
    assert s is not None and away.scale(s) < 1.0  # further along = smaller
    # the ray's image ends at MCP + (tip - MCP) * f / dz = 75 px * 554 / 60 above the MCP: ~690 px
    assert away.param_at(400) is not None and away.param_at(800) is None
    assert flat.param_at(800) is not None


def test_intent_from_what_was_said() -> None:
    assert intent_of("what is this?") == "what"
    assert intent_of("read me this") == "read"
    assert intent_of("What does this say") == "read"
    assert intent_of("remember this") == "remember"
    assert intent_of(None) == "what"
