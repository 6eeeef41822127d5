"""The coach speaks of expected scores, knows the phase and the main line, and rejects advice that does not
fit the position (opening advice in a king-and-pawn ending)."""

from __future__ import annotations

import chess

from egocli.chess.coach import explain, template, facts, validate
from egocli.chess.phase import game_phase
from egocli.chess.render import line_text
from egocli.chess.types import EngineLine
from egocli.models.fake import EchoModel, ScriptedModel

PAWN_ENDING = "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1"
"""King and pawn against king, White to move."""
DRAWN = [EngineLine(san=["Kd3", "Kd5", "e4+"], uci=["e3d3", "e6d5", "e2e4"], cp=0, mate=None, expected=0.5,
                    wdl=(0.0, 1.0, 0.0))]
"""Scripted engine lines (not the engine's verdict on PAWN_ENDING): a dead draw."""


def test_phases() -> None:
    assert game_phase(chess.Board()) == "opening"
    assert game_phase(chess.Board(PAWN_ENDING)) == "king and pawn ending"
    assert game_phase(chess.Board("6k1/5ppp/8/8/8/8/r4PPP/3R2K1 w - - 0 1")) == "endgame"
    middle = "r1bq1rk1/1pp2ppp/2np1n2/8/2BQP3/2N4P/1PP2PP1/R1B2RK1 w - - 0 1"
    assert game_phase(chess.Board(middle)) == "middlegame"


def test_opening_advice_in_a_pawn_ending_is_rejected() -> None:
    board = chess.Board(PAWN_ENDING)
    bad = validate("Kd3 supports quick development of the centre; then castle.", board, DRAWN)
    assert "development (in an ending)" in bad and "castle (no castling rights)" in bad
    assert validate("The knight on d3 would help.", board, DRAWN) == ["knight (none on the board)"]
    assert validate("Kd3 keeps the opposition: the king leads the pawn.", board, DRAWN) == []


def test_a_promotion_in_the_line_allows_talking_of_a_queen() -> None:
    board = chess.Board("8/4P3/8/8/8/2k5/8/4K3 w - - 0 1")
    lines = [EngineLine(san=["e8=Q"], uci=["e7e8q"], cp=900, mate=None, expected=1.0)]
    assert validate("e8=Q makes a new queen on e8.", board, lines) == []


def test_rejected_advice_falls_back_and_the_prompt_carries_phase_and_main_line() -> None:
    board = chess.Board(PAWN_ENDING)
    rejected: list[str] = []
    model = ScriptedModel("Kd3 is good: quick development of the centre.")
    result = explain(board, DRAWN, model, on_reject=lambda text, bad: rejected.append(text))
    assert result.source == "template" and model.calls == 2 and len(rejected) == 2
    echoed: list[str] = []  # the echo model answers with the prompt itself, kept or rejected
    echo = explain(board, DRAWN, EchoModel(), attempts=1, on_reject=lambda text, bad: echoed.append(text))
    prompt = echoed[0] if echoed else echo.text
    assert "phase: king and pawn ending" in prompt and "main line: Kd3 Kd5 e4+" in prompt


def test_a_dead_draw_is_an_expected_score_not_a_win_chance() -> None:
    text = template(facts(chess.Board(PAWN_ENDING), DRAWN[0]))
    assert "an expected score of 50% (win 0%, draw 100%, loss 0%)" in text and "to win" not in text
    line = line_text(1, DRAWN[0])
    assert "expected score  50% (W/D/L 0/100/0%)" in line and "win" not in line
