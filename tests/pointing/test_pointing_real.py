"""End to end with the real hand landmarker, labeler and OCR on composed scenes and the chess video."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.pointing import scenes

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def models() -> tuple[object, object, object]:
    """(hand tracker, labeler, reader), loaded once."""
    if not scenes.VIDEO.is_file():
        pytest.skip(f"shared chess video not found at {scenes.VIDEO}")
    from egocli.core.config import load_settings
    from egocli.models import registry
    from egocli.pointing.hands import load_hands

    settings = load_settings()
    return load_hands(), registry.load("labeler", settings), registry.load("ocr", settings)


def _resolve(image: np.ndarray, models: tuple, intent: str = "what"):  # noqa: ANN202
    from egocli.pointing.resolve import resolve

    hands, labeler, reader = models
    return resolve(image, hands, labeler, reader, intent=intent, chess=False)


def test_real_hand_points_at_the_cup_not_the_cat_beside_it(models: tuple) -> None:
    scene = scenes.pointing_scene(42, 30, [("coffee", 2.2, 0.0), ("cat", 2.2, 2.6)], scale=1.5, size=170)
    result = _resolve(scene.image, models)
    assert result.mode == "pointing" and result.note == ""
    assert result.best is not None and result.question is None
    assert scenes.hit(result.best.candidate.box, scene.boxes["coffee"])
    assert result.best.candidate.description in ("espresso", "cup", "tea cup", "coffee mug")
    assert result.sure


def test_the_first_hit_along_the_finger_wins(models: tuple) -> None:
    scene = scenes.pointing_scene(42, -20, [("cat", 2.0, 0.0), ("coffee", 4.6, 0.0)], scale=1.5, size=170)
    result = _resolve(scene.image, models)
    assert result.question is None
    assert scenes.hit(result.best.candidate.box, scene.boxes["cat"])


def test_two_things_side_by_side_make_a_question_and_the_reply_picks_one(models: tuple) -> None:
    from egocli.pointing.resolve import choose

    scene = scenes.pointing_scene(105, 0, [("coffee", 1.6, -0.75), ("cat", 1.6, 0.75)], scale=2.0, size=170)
    result = _resolve(scene.image, models)
    assert result.answer is None and result.question is not None
    options = result.question.options
    assert len(options) == 2 and result.question.question.startswith("Do you mean")
    assert len({o.position for o in options}) == 2  # named apart by position
    by_thing = {("cat" if scenes.hit(result.candidates[o.candidate].candidate.box, scene.boxes["cat"])
                 else "coffee"): o for o in options}
    assert set(by_thing) == {"cat", "coffee"}
    chosen = choose(result, f"the one {by_thing['cat'].position}")
    assert scenes.hit(chosen.best.candidate.box, scene.boxes["cat"])
    assert scenes.hit(choose(result, by_thing["coffee"].key).best.candidate.box, scene.boxes["coffee"])
    assert json.dumps(result.to_json())  # plain data a tool can wrap


def test_read_me_this_reads_the_card_the_finger_points_at(models: tuple) -> None:
    scene = scenes.pointing_scene(42, 0, [("text:EXIT", 2.2, 0.0), ("text:OPEN", 2.2, -2.8)], scale=1.5,
                                  size=170)
    result = _resolve(scene.image, models, intent="read")
    assert result.mode == "pointing"
    assert result.best is not None and result.best.candidate.kind == "text"
    assert "EXIT" in result.text().upper() and "OPEN" not in result.text().upper()


def test_no_hand_falls_back_to_the_centre_of_the_view_and_says_so(models: tuple) -> None:
    image = scenes.canvas()
    box = scenes.put(image, scenes.object_patch("coffee", 220), np.array([480.0, 360.0]))
    scenes.put(image, scenes.object_patch("cat", 160), np.array([120.0, 120.0]))
    result = _resolve(image, models)
    assert result.mode == "centre" and result.note.startswith("No hand")
    assert scenes.hit(result.best.candidate.box, box)
    assert result.best.candidate.description in ("espresso", "cup", "tea cup", "coffee mug")


def test_a_grasping_hand_is_not_pointing(models: tuple) -> None:
    frame = scenes.video_frames()[20].copy()  # a frame with no hand, for the store of frames
    hands, _, _ = models
    assert hands.detect(frame) == []
    from egocli.pointing.resolve import find_target

    grasp = scenes.hand_source(105)[1].copy()
    grasp[9:21, :2] = grasp[5, :2] + (grasp[9:21, :2] - grasp[5, :2]) * 0.3  # fold the other fingers in
    grasp[5:9, :2] = grasp[5, :2] + (grasp[5:9, :2] - grasp[5, :2]) * np.array([[0.3], [0.3], [0.3], [0.3]])
    ray, note = find_target([grasp], 640, 480)
    assert ray is None and "not pointing" in note


@pytest.mark.parametrize(("frame", "square"), [(42, "e4"), (105, "c6")])
def test_chess_video_fingertip_and_ray_land_on_the_square_being_played(models: tuple, frame: int,
                                                                         square: str) -> None:
    """1. e4 (frame 42) and 2... Nc6 (frame 105); square centres from upstream's warp points."""
    from egocli.pointing.geometry import is_pointing, pointing_ray

    hands = models[0]
    found = hands.detect(scenes.video_frames()[frame])
    assert found and is_pointing(found[0].points)
    ray = pointing_ray(found[0].points, 640, 480)
    # upstream warp [[140,5],[506,10],[507,377],[137,374]], rotation 270: ranks 8..1 left to right,
    # files a..h bottom to top
    file, rank = "abcdefgh".index(square[0]), int(square[1])
    centre = np.array([140 + (8 - rank + 0.5) * 366 / 8, 377 - (file + 0.5) * 370 / 8])
    assert np.linalg.norm(ray.tip - centre) < 46 / 2 * 1.2
    t, off = ray.along(centre)
    assert off < 46 / 2


def test_remember_this_stores_a_visual_event_with_the_crop(models: tuple, tmp_path: Path) -> None:
    from egocli.pointing.service import remember
    from egocli.store import EventFilter, Store

    scene = scenes.pointing_scene(42, 30, [("coffee", 2.2, 0.0)], scale=1.5, size=170)
    result = _resolve(scene.image, models, intent="remember")
    store = Store.open(tmp_path / "log.db")
    media = tmp_path / "media"
    event_id = remember(store, media, scene.image, result, at_ms=1_700_000_000_000)
    events = list(store.events(EventFilter(modalities=("visual",))))
    assert [e.id for e in events] == [event_id]
    assert "espresso" in events[0].content
    crop = media / events[0].media_path
    assert crop.is_file() and crop.stat().st_size > 1000
    assert events[0].meta["pointing"]["kind"] == "object"
    assert [hit[0].id for hit in store.search("espresso")] == [event_id]  # what `ask` retrieves from


def test_cli_what_json_and_question(models: tuple, tmp_path: Path, cli) -> None:  # noqa: ANN001
    import cv2

    scene = scenes.pointing_scene(105, 0, [("coffee", 1.6, -0.75), ("cat", 1.6, 0.75)], scale=2.0, size=170)
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), scene.image)
    asked = cli("what", str(path), "--no-ocr", "--no-chess")
    assert asked.exit_code == 0, asked.stderr
    assert asked.stdout.startswith("Do you mean") and "--reply" in asked.stdout
    crop = tmp_path / "crop.jpg"
    answered = cli("what", str(path), "--no-ocr", "--no-chess", "--reply", "2", "--crop", str(crop), "--json")
    assert answered.exit_code == 0, answered.stderr
    doc = json.loads(answered.stdout)
    assert doc["answer"]["kind"] == "object" and doc["confidence"] > 0 and crop.is_file()
    assert set(doc["timings_ms"]) >= {"landmarks", "candidates", "total"}
    missing = cli("what", str(tmp_path / "nope.png"))
    assert missing.exit_code != 0 and "no such file" in missing.stderr


def test_chess_board_in_view_names_the_piece_and_square(models: tuple) -> None:
    """A board photo (no hand): the centre of the view falls between e4's rook and f5's bishop."""
    import cv2

    from egocli.pointing.resolve import resolve

    photo = scenes.PHOTOS / "IMG_4701_2.JPG"  # FEN 8/8/8/5B2/4r3/8/8/8
    if not photo.is_file():
        pytest.skip(f"shared chess photos not found at {scenes.PHOTOS}")
    hands, labeler, _ = models
    result = resolve(cv2.imread(str(photo)), hands, labeler, None, chess=True)
    assert result.mode == "centre"
    named = [result.best] if result.question is None else [result.candidates[o.candidate]
                                                           for o in result.question.options]
    assert named and all(s.candidate.kind == "square" for s in named)
    assert {s.candidate.description for s in named} <= {"black rook on e4", "white bishop on f5"}
