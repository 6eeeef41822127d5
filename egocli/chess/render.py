"""Plain-text rendering of a chess analysis: diagram, engine lines, explanation."""

from __future__ import annotations

from egocli.chess.analyse import Analysis, VideoAnalysis


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
    out = [f"FEN: {result.fen}", diagram(result.fen)]
    if result.seen is not None:
        out.append(f"camera: {result.view} side")
    if result.changed:
        out.append(f"repaired squares (to make the position legal): {', '.join(result.changed)}")
    if result.unsure:
        out.append(f"unsure squares: {', '.join(result.unsure)}")
    if result.status:
        out.append(f"game over: {result.status}")
    for n, line in enumerate(result.lines, 1):
        score = f"mate {line.mate:+d}" if line.mate is not None else f"{(line.cp or 0) / 100:+.2f}"
        out.append(f"{n}. {line.san[0]:<8} win {100 * line.win:5.1f}%  ({score})  {' '.join(line.san[:8])}")
    if result.explanation:
        out.append("")
        out.append(result.explanation)
    return "\n".join(out)


def _render_video(result: VideoAnalysis) -> str:
    out = [f"frames: {result.frames_read} sampled, board found in {result.frames_located}"]
    for pos in result.positions:
        out.append(f"{pos['time']:7.2f}s  {pos['move'] or '(position)':<8} {pos['fen']}")
    if not result.positions:
        out.append("no position was committed (board not found or not stable)")
    if result.final is not None:
        out += ["", render(result.final)]
    return "\n".join(out)
