"""Chess value types shared by the use-case, video reading, rendering, the coach and calibration."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypedDict

TURN_SOURCES = ("fen", "given", "legal", "assumed", "moves")
"""How the side to move was decided: the FEN said so, --turn, the only legal side, White assumed, the moves seen."""


@dataclass(frozen=True)
class EngineLine:
    """One principal variation from the engine, scored for the side to move."""

    san: list[str]
    """The line in SAN, first move first."""
    uci: list[str]
    """The same line in UCI notation."""
    cp: int | None
    """Centipawns for the side to move (None when a mate score is given)."""
    mate: int | None
    """Moves to mate for the side to move (negative: being mated), else None."""
    expected: float
    """Expected score for the side to move, 0..1 (a win counts 1, a draw 1/2): not a chance to win."""
    wdl: tuple[float, float, float] | None = None
    """Win, draw and loss chances for the side to move (each 0..1) as the engine models them, if it reports them."""


MoveFacts = TypedDict("MoveFacts", {
    "side": str, "phase": str, "move": str, "piece": str, "from": str, "to": str, "captures": str | None,
    "check": bool, "mate": bool, "attacks": list[str], "defends": list[str], "main line": str, "score": str,
    "expected score": str,
})
"""Engine facts about the best move that the coach explains: the side to move ('White'/'Black'), the game
phase, the move in SAN, the piece moved and its squares, the piece captured (None), whether it checks or mates,
the opponent pieces it attacks and own pieces it defends ('knight on f6'), the main line in SAN, the score in
words and the expected score ('50% (win 2%, draw 96%, loss 2%)')."""


@dataclass(frozen=True)
class ChessOptions:
    """How to read the board and how hard to think."""

    turn: str | None = None
    """Side to move in a photo: 'white', 'black', or None to infer it from legality (a --fen carries its own)."""
    view: str = "auto"
    """Which side the camera sits on: 'white', 'black' or 'auto'."""
    multipv: int = 3
    """How many engine lines."""
    seconds: float = 0.5
    """Engine thinking time per position."""
    explain: bool = True
    """Ask the LLM coach for an explanation (else a template)."""
    frames: int = 10
    """Vote buffer length N (video)."""
    tau: float = 0.6
    """Vote threshold: share of the last N frames a class needs to be committed (video)."""
    fps: float = 5.0
    """Frames per second sampled from a video."""
    model: Path | None = None
    """Square classifier (ONNX); None for the packaged default."""
    self_calibrate: bool = True
    """Video: fine-tune on the first stable frames when they show the start position but the model is unsure."""
    follow_game: bool = True
    """Video: follow the game by its legal moves when the first frames show the initial position (False: read
    every video frame by frame)."""


@dataclass
class Analysis:
    """Everything the co-pilot found for one position."""

    fen: str | None
    """The legal position analysed (None when what was seen could not be made legal: see error)."""
    fen_seen: str | None = None
    """The position as recognised, before legality repair (None for --fen)."""
    turn: str | None = None
    """Side to move: 'white' or 'black'."""
    turn_source: str | None = None
    """How the side to move was decided (one of TURN_SOURCES)."""
    turn_reason: str | None = None
    """The decision in words, e.g. "White's king is in check"."""
    view: str | None = None
    """Camera side as decided ('white', 'black', 'left', 'right'), None for --fen."""
    changed: list[str] = field(default_factory=list)
    """Squares changed by legality repair."""
    unsure: list[str] = field(default_factory=list)
    """Squares the classifier could not read confidently."""
    lines: list[EngineLine] = field(default_factory=list)
    """Engine lines, best first."""
    phase: str | None = None
    """Game phase: 'opening', 'middlegame', 'endgame' or 'king and pawn ending'."""
    explanation: str | None = None
    """The coach's explanation of the best move."""
    explanation_source: str | None = None
    """'llm' or 'template'."""
    status: str = ""
    """'checkmate', 'stalemate' or '' when the game goes on."""
    error: str | None = None
    """Why the position seen cannot be analysed (no king, too many pieces...), else None."""

    def to_json(self) -> dict[str, Any]:
        """All fields as JSON-ready data (scores in percent)."""
        data = asdict(self)
        for line in data["lines"]:
            line["expected_score"] = round(100 * line.pop("expected"), 1)
            wdl = line.pop("wdl")
            line["wdl_percent"] = [round(100 * v, 1) for v in wdl] if wdl else None
        return data


@dataclass
class VideoAnalysis:
    """Positions along a video (followed as a game, or committed by the vote buffer), the moves between them,
    and the last one analysed."""

    positions: list[dict[str, Any]]
    """{time, fen, move} per position (move in SAN, None for the first or an unmatched jump)."""
    final: Analysis | None
    """Analysis of the last committed position (its error says why when it could not be analysed)."""
    frames_read: int
    """Frames sampled from the video."""
    frames_located: int
    """Sampled frames in which a board was found."""
    calibration: dict[str, Any] | None = None
    """Self-calibration from the first frames: {frames, seconds, confidence_before, confidence_after}, or None."""
    reading: str = "frames"
    """'game': followed as a game from the initial position (legal moves only); 'frames': read frame by frame."""
    reading_reason: str = ""
    """Why, in words."""

    def to_json(self) -> dict[str, Any]:
        """All fields as JSON-ready data."""
        return {"positions": self.positions, "final": self.final.to_json() if self.final else None,
                "frames_read": self.frames_read, "frames_located": self.frames_located,
                "calibration": self.calibration, "reading": self.reading, "reading_reason": self.reading_reason}
