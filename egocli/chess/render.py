"""Plain-text rendering of a chess analysis: diagram, engine lines, explanation."""

from __future__ import annotations

from typing import Any

from egocli.chess.types import Analysis, EngineLine, VideoAnalysis


def diagram(fen: str) -> str:
    """An ASCII board, rank 8 at the top, with coordinates."""
    import chess

    board = chess.Board(fen)
    rows = [f"{8 - r} " + " ".join(str(board).splitlines()[r].split()) for r in range(8)]
    return "\n".join(rows + ["  a b c d e f g h"])


def render(result: Analysis | VideoAnalysis) -> str:
    """Text for the terminal."""
    if isinstance(result, VideoAnalysis):
        return _render_video(result)
    if result.error:
        return "\n".join([f"FEN seen: {result.fen_seen}", diagram(result.fen_seen or "8/8/8/8/8/8/8/8"),
                          f"camera: {result.view} side" if result.view else "", result.error])
    assert result.fen is not None, "an analysis without an error has a legal FEN"
    out = [f"FEN: {result.fen}", diagram(result.fen)]
    if result.fen_seen is not None:
        out.append(f"camera: {result.view} side")
    out.append(f"to move: {result.turn} ({result.turn_reason or result.turn_source})")
    if result.changed:
        out.append(f"repaired squares (to make the position legal): {', '.join(result.changed)}; seen: "
                   f"{result.fen_seen}")
    if result.unsure:
        out.append(f"unsure squares: {', '.join(result.unsure)}")
    if result.status:
        out.append(f"game over: {result.status}")
    elif result.phase:
        out.append(f"phase: {result.phase}")
    out += [line_text(n, line) for n, line in enumerate(result.lines, 1)]
    if result.explanation:
        out.append("")
        out.append(result.explanation)
    return "\n".join(out)


def line_text(n: int, line: EngineLine) -> str:
    """'1. Kd2  +0.00  expected score 50% (W/D/L 0/100/0%)  Kd2 Kd7 ...' for one engine line."""
    score = f"mate {line.mate:+d}" if line.mate is not None else f"{(line.cp or 0) / 100:+.2f}"
    wdl = " (W/D/L {:.0f}/{:.0f}/{:.0f}%)".format(*(100 * v for v in line.wdl)) if line.wdl else ""
    return f"{n}. {line.san[0]:<8} {score:>7}  expected score {100 * line.expected:3.0f}%{wdl}  {' '.join(line.san[:8])}"


def _render_video(result: VideoAnalysis) -> str:
    out = [f"frames: {result.frames_read} sampled, board found in {result.frames_located}"]
    if result.reading_reason:
        out.append(f"positions: {result.reading_reason}")
    if result.reading == "game":
        out += [game_line(pos) for pos in result.positions]
        unsure = [move_label(pos) for pos in result.positions if pos.get("uncertain")]
        if unsure:
            out.append(f"uncertain: {'; '.join(unsure)}: the frames fit these moves almost equally well (a piece "
                       "type the classifier cannot tell apart); the likeliest is followed, check the board")
    else:
        out += [f"{pos['time']:7.2f}s  {pos['move'] or '(position)':<8} {pos['fen']}" for pos in result.positions]
    if not result.positions:
        out.append("no position was committed (board not found or not stable)")
    if result.calibration:
        cal = result.calibration
        out.insert(1, f"self-calibrated on {cal['frames']} start-position frames (confidence "
                      f"{cal['confidence_before']:.2f} -> {cal['confidence_after']:.2f})")
    if result.final is not None:
        out += ["", render(result.final)]
    return "\n".join(out)


def move_label(pos: dict[str, Any]) -> str:
    """'3. Qh5', '2... Nc6', and for an uncertain move '3. Qh5? (or Bc4)', from a followed game's position."""
    number, side = pos["fen"].split()[5], pos["fen"].split()[1]
    prefix = f"{number}." if side == "b" else f"{int(number) - 1}..."
    label = f"{prefix} {pos['move']}"
    if pos.get("uncertain"):
        label += "?" + (f" (or {', '.join(pos['alternatives'])})" if pos.get("alternatives") else " (or no move)")
    return label


def game_line(pos: dict[str, Any]) -> str:
    """One line of a followed game: time, move (numbered, '?' and its alternatives when uncertain), FEN."""
    label = move_label(pos) if pos["move"] else "(start)"
    return f"{pos['time']:7.2f}s  {label:<24} {pos['fen']}"
