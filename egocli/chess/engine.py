"""Stockfish over UCI through python-chess: MultiPV lines with SAN moves, scores, W/D/L and expected scores."""

from __future__ import annotations

import logging
import math
import os
import shutil
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from egocli.chess.types import EngineLine
from egocli.core.errors import ModelError

LOG = logging.getLogger(__name__)
DEBIAN_PATH = "/usr/games/stockfish"
if TYPE_CHECKING:
    import chess
    import chess.engine

INSTALL_HINT = "install it with `sudo apt-get install stockfish` or set EGOCLI_STOCKFISH to the binary"


def expected_score(cp: int | None, mate: int | None) -> float:
    """Expected score for the side to move when the engine gives no W/D/L: Lichess's curve
    1 / (1 + exp(-0.00368208 * cp)); mates are 1 or 0."""
    if mate is not None:
        return 1.0 if mate > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-0.00368208 * (cp or 0)))


def find_stockfish() -> str:
    """Path of the Stockfish binary: EGOCLI_STOCKFISH, else PATH, else Debian's /usr/games/stockfish."""
    env = os.environ.get("EGOCLI_STOCKFISH")
    if env:
        if Path(env).is_file() and os.access(env, os.X_OK):
            return env
        raise ModelError(f"stockfish not found at EGOCLI_STOCKFISH={env}; {INSTALL_HINT}")
    found = shutil.which("stockfish") or (DEBIAN_PATH if Path(DEBIAN_PATH).is_file() else None)
    if not found:
        raise ModelError(f"stockfish not found; {INSTALL_HINT}")
    return found


class UciEngine:
    """A running UCI engine; use as a context manager."""

    def __init__(self, path: str | None = None, threads: int = 1, hash_mb: int = 32) -> None:
        import chess.engine

        self.path = path or find_stockfish()
        try:
            self._engine = chess.engine.SimpleEngine.popen_uci(self.path)
            wdl = {"UCI_ShowWDL": True} if "UCI_ShowWDL" in self._engine.options else {}
            self._engine.configure({"Threads": threads, "Hash": hash_mb, **wdl})
        except (OSError, chess.engine.EngineError) as ex:
            raise ModelError(f"stockfish at {self.path} could not start: {ex}") from ex

    def __enter__(self) -> UciEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Quit the engine process."""
        try:
            self._engine.quit()
        except Exception:  # noqa: BLE001 - the process may already be gone
            self._engine.close()

    def analyse(self, board: chess.Board, multipv: int = 3, seconds: float = 0.5,
                only: list[chess.Move] | None = None) -> list[EngineLine]:
        """The engine's best lines for a chess.Board, best first (`only`: among these first moves)."""
        import chess.engine

        if board.is_game_over():
            return []
        started = time.perf_counter()
        try:
            infos = self._engine.analyse(board, chess.engine.Limit(time=seconds), multipv=multipv, root_moves=only)
        except chess.engine.EngineError as ex:
            raise ModelError(f"stockfish failed: {ex}") from ex
        first = infos[0] if infos else {}
        LOG.debug("engine split: engine_s %.3f multipv %d limit_s %.2f depth %s nodes %s",
                  time.perf_counter() - started, multipv, seconds, first.get("depth"), first.get("nodes"))
        return [_line(board, info) for info in infos if info.get("pv")]


_prestarted: list[Future[UciEngine]] = []
"""The engine `prestarted` began, until `open_engine` takes it."""


@contextmanager
def prestarted() -> Iterator[None]:
    """Start Stockfish now, on a thread, for the next `open_engine()` inside the block: a command that will ask
    the engine runs in this block, so the engine's start (the process, its network, the UCI handshake) runs
    while the rest of the command imports and reads its input. An engine the block never took (bad input, a
    board that cannot be analysed) is quit when it ends: its thread would keep the process alive. python-chess
    is imported here, before the thread: imported on the thread, it shares the interpreter lock with the
    command's own imports and the process starts 0.1-0.2 s later; the command imports it anyway."""
    import chess.engine  # noqa: F401

    _close_unused()
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stockfish-start")
    _prestarted.append(pool.submit(UciEngine))
    pool.shutdown(wait=False)
    try:
        yield
    finally:
        _close_unused()


def open_engine() -> UciEngine:
    """The prestarted engine (once; its start-up error, if it failed), else a new one."""
    if _prestarted:
        return _prestarted.pop().result()
    return UciEngine()


def _close_unused() -> None:
    while _prestarted:
        started = _prestarted.pop()
        if started.exception() is None:
            started.result().close()


def _line(board: chess.Board, info: chess.engine.InfoDict) -> EngineLine:
    pov = info["score"].pov(board.turn)
    cp, mate = pov.score(), pov.mate()
    moves = info["pv"]
    wdl = None
    if info.get("wdl") is not None:
        w = info["wdl"].pov(board.turn)
        total = max(w.total(), 1)
        wdl = (round(w.wins / total, 4), round(w.draws / total, 4), round(w.losses / total, 4))
    expected = wdl[0] + wdl[1] / 2 if wdl else expected_score(cp, mate)
    return EngineLine(san=_san_line(board, moves), uci=[m.uci() for m in moves], cp=cp, mate=mate,
                      expected=round(expected, 4), wdl=wdl)


def _san_line(board: chess.Board, moves: list[chess.Move]) -> list[str]:
    copy = board.copy(stack=False)
    out = []
    for move in moves:
        out.append(copy.san(move))
        copy.push(move)
    return out
