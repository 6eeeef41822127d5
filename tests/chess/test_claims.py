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
