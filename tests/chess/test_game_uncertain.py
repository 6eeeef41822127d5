"""A move the frames cannot tell from another legal move is flagged uncertain with that move, never silently
guessed; a later move that only one of them allows settles it; a clearly seen game has no flag. Frames are
per-square probabilities made from positions (the tracker's input), so these run without images."""

from __future__ import annotations

import chess
import numpy as np

from egocli.chess.game import UNCERTAIN, GameTracker
from egocli.chess.recognise import fen_to_grid
from egocli.chess.render import move_label
from egocli.chess.squares import CLASSES

PROMOTION = ["e4", "d5", "exd5", "c6", "dxc6", "Nf6", "cxb7", "Nbd7"]


def frame(placement: str, blur: dict[str, dict[str, float]] | None = None, sure: float = 0.9) -> np.ndarray:
    """(8, 8, 13) probabilities: `sure` on each square's class, the rest spread; `blur` sets squares' classes."""
    grid = fen_to_grid(placement)
    probs = np.full((8, 8, len(CLASSES)), (1 - sure) / (len(CLASSES) - 1))
    probs[np.arange(8)[:, None], np.arange(8)[None, :], grid] = sure
    for name, classes in (blur or {}).items():
        square = chess.parse_square(name)
        row, col = 7 - square // 8, square % 8
        probs[row, col] = 0.01
        for symbol, p in classes.items():
            probs[row, col, CLASSES.index(symbol)] = p
        probs[row, col] /= probs[row, col].sum()
    return probs


def follow(moves: list[str], blurs: dict[int, dict[str, dict[str, float]]] | None = None, still: int = 4,
           upto: int | None = None) -> GameTracker:
    """Track `still` frames of each position of the game (blurs: ply -> squares read unsurely after it)."""
    board, game, t = chess.Board(), GameTracker(), 0.0
    positions = [board.board_fen()]
    for san in moves:
        board.push_san(san)
        positions.append(board.board_fen())
    for ply, placement in enumerate(positions[:upto]):
        for _ in range(still):
            game.add(t, frame(placement, (blurs or {}).get(ply)))
            t += 0.2
    return game


def test_a_clearly_seen_game_has_no_uncertain_move() -> None:
    moves = follow(PROMOTION + ["bxa8=Q"], still=6).moves()  # a piece's type needs more than a second to count
    assert [m.san for m in moves] == PROMOTION + ["bxa8=Q"]
    assert not any(m.uncertain for m in moves) and all(m.margin >= UNCERTAIN for m in moves)


def test_a_promotion_the_classifier_cannot_read_is_flagged_with_the_other_pieces() -> None:
    blur = {len(PROMOTION) + 1: {"a8": {"Q": 0.3, "N": 0.3, "R": 0.2, "B": 0.2}}}
    last = follow(PROMOTION + ["bxa8=N"], blur).moves()[-1]
    assert last.uncertain and last.san.startswith("bxa8=") and last.margin < UNCERTAIN
    assert {last.san, *last.alternatives} == {"bxa8=Q", "bxa8=N", "bxa8=R", "bxa8=B"}
    assert last.alternatives[-1] in ("bxa8=R", "bxa8=B")  # the likeliest first
    label = move_label({"move": last.san, "fen": last.fen, "uncertain": True, "alternatives": list(last.alternatives)})
    assert label.startswith(f"5. {last.san}? (or ") and label.endswith(")")


def test_a_bishop_seen_nowhere_is_uncertain_until_a_later_move_needs_it_on_c4() -> None:
    game = ["e4", "e5", "Bc4", "Nc6", "Bxf7+"]
    unseen = {name: {".": 0.5, "B": 0.5} for name in ("e2", "d3", "c4", "b5", "a6")}
    blurs = {3: unseen, 4: unseen}  # after Bc4 and after Nc6: the bishop could be on any of its squares
    early = follow(game, blurs, upto=5).moves()  # the video ends before Bxf7+
    assert [m.san for m in early][:2] == ["e4", "e5"] and early[2].uncertain
    assert {early[2].san, *early[2].alternatives} >= {"Bc4"} and len(early[2].alternatives) >= 1
    settled = follow(game, blurs).moves()
    assert [m.san for m in settled] == game and not settled[2].uncertain  # only from c4 does it reach f7


def test_the_tracker_says_which_moves_were_taken_without_doubt() -> None:
    moves = follow(["e4", "e5"]).moves()
    assert [(m.san, m.uncertain, m.alternatives) for m in moves] == [("e4", False, ()), ("e5", False, ())]
    assert all(isinstance(m.margin, float) and isinstance(m.uncertain, bool) for m in moves)


def test_on_a_set_whose_types_it_misreads_every_promotion_is_flagged_with_all_it_could_be() -> None:
    import chess as pychess

    start = pychess.Board()
    blind = {pychess.square_name(s): {symbol: 1 / 6 for symbol in ("PNBRQK" if p.color else "pnbrqk")}
             for s, p in start.piece_map().items()}  # the first frames: every man's type a guess
    moves = follow(PROMOTION + ["bxa8=Q"], {0: blind}, still=6).moves()  # the queen itself is seen clearly
    last = moves[-1]
    assert last.san == "bxa8=Q" and last.uncertain and set(last.alternatives[:3]) == {"bxa8=R", "bxa8=B", "bxa8=N"}
    # then the pawn's promotions on the squares it could also have reached, when a square's colour is misread too
    assert {"b8=Q", "bxc8=Q"} <= set(last.alternatives)
    assert not any(m.uncertain for m in moves[:-1])  # the other moves need no type
