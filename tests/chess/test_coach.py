"""The coach keeps only explanations that name moves and squares from the engine's facts."""

from __future__ import annotations

import chess

from egocli.chess.coach import MAX_TOKENS, PROMPT_FACTS, SYSTEM, explain, validate
from egocli.chess.types import EngineLine
from egocli.models.fake import ScriptedModel

SCHOLARS = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
LINES = [EngineLine(san=["Qxf7#"], uci=["h5f7"], cp=None, mate=1, expected=1.0),
         EngineLine(san=["Qh4", "Be7"], uci=["h5h4", "f8e7"], cp=-93, mate=None, expected=0.41)]


def test_validation_rejects_an_illegal_move() -> None:
    board = chess.Board(SCHOLARS)
    assert validate("Play Nxe5 to win a pawn.", board, LINES) == ["Nxe5"]
    assert validate("Qxf7# mates: the queen on f7 is protected by the bishop on c4.", board, LINES) == []
    assert validate("The queen goes to a6.", board, LINES) == ["a6"]


def test_bad_explanation_falls_back_to_the_template() -> None:
    model = ScriptedModel("Play Nxe5 and then Qxe5.", "Castle with O-O and play d4 next.")
    result = explain(chess.Board(SCHOLARS), LINES, model)
    assert model.calls == 2
    assert result.source == "template"
    assert "Qxf7#" in result.text and "checkmate" in result.text


def test_good_explanation_is_kept() -> None:
    model = ScriptedModel("Qxf7# is checkmate. The queen takes on f7 and the bishop on c4 protects it.")
    result = explain(chess.Board(SCHOLARS), LINES, model)
    assert result.source == "llm" and result.text.startswith("Qxf7#")


QH5 = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
"""Issue 32's position: 1. e4 e5 2. Bc4 Nc6 3. Qh5, Black to move."""
G6 = [EngineLine(san=["g6", "Qf3", "Nf6"], uci=["g7g6", "h5f3", "g8f6"], cp=21, mate=None, expected=0.51)]


def test_the_issues_false_explanation_is_replaced_by_the_facts() -> None:
    said = ("Black should play g6 because it creates a strong pawn structure on the queenside. "
            "The queen on h5 attacks the pawn on g7.")
    result = explain(chess.Board(QH5), G6, ScriptedModel(said), attempts=1)
    assert result.source == "template" and any("g7" in f for f in result.false)
    assert result.text.startswith("White threatens mate with Qxf7#. Black's best move is g6")


def test_a_true_phrasing_that_forgets_the_mate_threat_is_not_kept() -> None:
    result = explain(chess.Board(QH5), G6, ScriptedModel("Black's best move is g6, attacking the queen on h5."),
                     attempts=1)
    assert result.source == "template" and "Qxf7# not named" in result.false


def test_a_true_phrasing_is_kept_with_its_claims_counted() -> None:
    said = "White threatens mate with Qxf7#. Black plays g6 on the kingside, attacking the queen on h5."
    result = explain(chess.Board(QH5), G6, ScriptedModel(said), attempts=1)
    assert result.source == "llm" and result.text == said and result.claims >= 6 and result.false == []


def test_the_model_reads_a_short_prompt_past_its_primed_system_turn() -> None:
    """Speed (issue 32.4): the fixed system turn with its examples is primed (kept on disk by the real model),
    and the user turn carries the context and at most PROMPT_FACTS facts, not the evaluation's long sentence."""
    model = ScriptedModel("White threatens mate with Qxf7#, so Black plays g6, which stops the mate.")
    result = explain(chess.Board(QH5), G6, model, attempts=1)
    user = model.prompts[0][1]["content"]
    assert model.primed == [SYSTEM] and model.prompts[0][0]["content"] == SYSTEM
    assert user.count("\n- ") <= PROMPT_FACTS and "expected score" not in user and "main line: g6 Qf3 Nf6" in user
    assert model.fresh[0] < 80  # the tokens evaluated past the primed turn (108 before, with the evaluation)
    assert result.source == "llm" and result.split["generated_tokens"] > 0 and "prompt_s" in result.split


def test_the_answer_ends_at_its_line_and_drops_a_sentence_the_token_cap_cut() -> None:
    first = "White threatens mate with Qxf7#, so Black plays g6, which stops the mate."
    runaway = ScriptedModel(first + "\nThen " + "more " * 2 * MAX_TOKENS)
    assert explain(chess.Board(QH5), G6, runaway, attempts=1).text == first
    cut = ScriptedModel(first + " Then the queen " + "goes on " * MAX_TOKENS)  # no sentence end before the cap
    assert explain(chess.Board(QH5), G6, cut, attempts=1).text == first
