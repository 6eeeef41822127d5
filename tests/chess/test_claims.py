"""The claim checker finds each checkable claim in a sentence and verifies it against the board: the issue's
false sentences about 3. Qh5 are caught, true ones pass."""

from __future__ import annotations

import chess

from egocli.chess.claims import CLAIM_FORMS, claims, context, false_claims
from egocli.chess.facts import threat
from egocli.chess.types import EngineLine

QH5 = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
G6 = [EngineLine(san=["g6", "Qf3", "Nf6"], uci=["g7g6", "h5f3", "g8f6"], cp=21, mate=None, expected=0.51)]


def ctx_for(fen: str, lines: list[EngineLine]):  # noqa: ANN201
    board = chess.Board(fen)
    return context(board, lines, threat(board), set())


def test_the_issues_false_sentences_are_caught() -> None:
    ctx = ctx_for(QH5, G6)
    bad = false_claims("Black should play g6 because it creates a strong pawn structure on the queenside. "
                       "The queen on h5 attacks the pawn on g7.", ctx)
    assert any("queenside" in b and "(side)" in b for b in bad)
    assert "queen on h5 attacks the pawn on g7 (attack)" in bad


def test_true_sentences_pass() -> None:
    ctx = ctx_for(QH5, G6)
    text = ("White threatens mate with Qxf7#: the queen on h5 attacks the pawn on f7. "
            "Black plays g6 on the kingside, attacking the queen on h5.")
    found = claims(text, ctx)
    assert {c.form for c in found} >= {"threat", "attack", "side", "placed", "move", "square"}
    assert all(c.true for c in found), [c for c in found if not c.true]


def test_pieces_checks_mates_and_outcomes_are_checked() -> None:
    scholars = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    ctx = ctx_for(scholars, [EngineLine(san=["Qxf7#"], uci=["h5f7"], cp=None, mate=1, expected=1.0)])
    assert false_claims("Qxf7# is checkmate: Black is mated and White wins.", ctx) == []
    assert false_claims("The white king is in check.", ctx) == ["white king is in check (in check)"]
    assert false_claims("The black knight on e5 is strong.", ctx) == ["black knight on e5 (placed)"]
    assert false_claims("Qxf7+ gives check.", ctx) == ["Qxf7+ (move)"]
    assert false_claims("Nxe5 wins a pawn.", ctx) == ["Nxe5 (move)"]
    assert false_claims("A strong position for Black.", ctx) == ["strong position for Black (advantage)"]
    assert false_claims("The knight on c6 is hanging.", ctx) == ["knight on c6 is hanging (hanging)"]


def test_the_forms_are_one_declared_table() -> None:
    forms = {form for form, _, _ in CLAIM_FORMS}
    assert forms >= {"placed", "attack", "defend", "check", "mate", "threat", "side", "hanging", "move", "square",
                     "fork", "pin", "in check", "outcome"}


MATE_IN_2 = "6k1/3K1ppp/r3p2P/8/P1rbb3/6Q1/8/8 w - - 1 48"
"""Lichess puzzle UZc8R after Black's move: White mates with Qb8+ Rc8 Qxc8#; Black threatens Raxa4."""
QB8 = [EngineLine(san=["Qb8+", "Rc8", "Qxc8#"], uci=["g3b8", "c4c8", "b8c8"], cp=None, mate=2, expected=1.0)]


def test_a_move_or_a_threat_said_of_a_side_must_be_that_sides() -> None:
    """The model's sentence on this puzzle (hand-read, December 2026): both sides wrong, every move legal for
    someone, and the checker passed it."""
    ctx = ctx_for(MATE_IN_2, QB8)
    assert false_claims("White threatens check with Qb8+, so Black plays Qb8+.", ctx) == [
        "White threatens check with Qb8+ (threat)", "Black plays Qb8+ (mover)"]
    assert false_claims("Black threatens Raxa4, so White plays Qb8+ and Black answers Rc8.", ctx) == []


def test_what_follows_a_move_is_said_of_the_nearest_move() -> None:
    ctx = ctx_for(MATE_IN_2, QB8)
    said = "Black threatens Raxa4, so White plays Qb8+, which gives check."  # the check is Qb8+'s, not Raxa4's
    assert false_claims(said, ctx) == []
    assert false_claims("White plays Qb8+, the queen from g3 to b8: it is checkmate.", ctx) == [
        "Qb8+, the queen from g3 to b8: it is checkmate (mate)"]
    assert false_claims("White mates at once with Qb8+.", ctx) == ["mates at once with Qb8+ (mate)"]
    assert false_claims("White plays Qb8+, giving check, then Black answers Rc8 and White mates with Qxc8#.",
                        ctx) == []


def test_a_move_said_to_stop_the_mate_must_stop_it() -> None:
    ctx = ctx_for(QH5, G6)
    assert false_claims("Black plays Bc5, which stops the mate.", ctx) == ["Bc5, which stops the mate (stops)"]
    assert false_claims("Black plays Nge7, stopping the mate.", ctx) == ["Nge7, stopping the mate (stops)"]
    assert false_claims("White threatens mate with Qxf7#, so Black plays g6, which stops the mate and attacks "
                        "the queen on h5.", ctx) == []


def test_two_pieces_said_to_hang_must_both_hang() -> None:
    board = "6k1/pp2p1P1/3pq2n/2r4P/3Q4/2P2R2/P2K4/8 w - - 1 32"  # puzzle y4WX4: Rc5 hits h5, Qe6 hits a2
    ctx = ctx_for(board, [EngineLine(san=["Rf8+", "Kh7", "Rh8#"], uci=["f3f8", "g8h7", "f8h8"], cp=None, mate=2,
                                     expected=1.0)])
    assert false_claims("The pawns on h5 and a2 are attacked and undefended.", ctx) == []
    assert false_claims("The pawn on h5 and the pawn on c3 are attacked and undefended.", ctx) == [
        "pawn on h5 and the pawn on c3 are attacked and undefended (hanging)"]


def test_a_move_said_to_be_against_a_piece_must_take_or_attack_it() -> None:
    """The model's sentence on puzzle IcFmo (December 2026): Nxb4 takes on b4 and does not reach b3."""
    ctx = ctx_for("7k/7p/2p2p2/1p6/pr6/1P1NBPP1/P6K/8 b - - 1 37",
                  [EngineLine(san=["axb3", "Nxb4", "b2"], uci=["a4b3", "d3b4", "b3b2"], cp=700, mate=None,
                              expected=1.0)])
    assert false_claims("White threatens Nxb4 against the undefended pawn on b3, so Black plays axb3.", ctx) == [
        "Nxb4 against the undefended pawn on b3 (attack)"]
    assert false_claims("White threatens Nxb4, taking the rook on b4.", ctx) == []
