"""The tool implementations against a real in-memory log (and real Stockfish for chess)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from egocli.models.fake import EchoModel
from egocli.store import EventFilter, NewEvent
from egocli.tools import audit
from egocli.tools.builtin import REGISTRY
from egocli.tools.registry import ToolError

from .conftest import NOW


def _call(ctx, name, **args):
    return REGISTRY.tools[name].func(ctx, **args)


def test_now_uses_the_context_clock(ctx):
    result = _call(ctx, "now")
    assert result.data["weekday"] == "Monday" and result.summary == "It is 14:05 on Monday 30 November 2026."


def test_memory_search_leaves_the_audit_trail_out(ctx, store):
    store.add_events([NewEvent(NOW - 5000, NOW - 5000, "visual", "car keys in the red drawer")])
    audit.record(store, NOW, "memory_search", {"query": "car keys"}, "ok", context="cli", summary="car keys")
    result = _call(ctx, "memory_search", query="car keys", limit=5)
    assert [r["content"] for r in result.data] == ["car keys in the red drawer"]
    assert "red drawer" in result.summary
    assert _call(ctx, "memory_search", query="zebra", limit=5).data == []
    with pytest.raises(ToolError, match="between 1 and 20"):
        _call(ctx, "memory_search", query="keys", limit=500)


def test_notes_add_list_delete(ctx, store):
    first = _call(ctx, "note_add", text="locker code 4471")
    ctx.fixed_now_ms = NOW + 1000
    _call(ctx, "note_add", text="buy oat milk")
    assert [r["text"] for r in _call(ctx, "note_list", limit=10).data] == ["buy oat milk", "locker code 4471"]
    _call(ctx, "note_delete", note_id=first.data["id"])
    assert [r["text"] for r in _call(ctx, "note_list", limit=10).data] == ["buy oat milk"]
    store.add_events([NewEvent(NOW, NOW, "visual", "a cat")])
    cat = next(store.events(EventFilter(modalities=("visual",)))).id
    with pytest.raises(Exception, match="not a note"):
        _call(ctx, "note_delete", note_id=cat)


def test_memory_ask_uses_the_ask_core(ctx, store):
    store.add_events([NewEvent(NOW - 60_000, NOW - 55_000, "visual", "putting the mug down on the windowsill")])
    with pytest.raises(ToolError, match="no language model"):
        _call(ctx, "memory_ask", question="what did I just put down?")
    ctx.llm_loader = EchoModel
    result = _call(ctx, "memory_ask", question="what did I just put down?")
    assert result.summary == result.data["answer"] and result.summary


@pytest.mark.skipif(not (shutil.which("stockfish") or Path("/usr/games/stockfish").exists()),
                    reason="stockfish not installed")
def test_chess_from_fen_finds_the_mate(ctx):
    result = _call(ctx, "chess_analyse", fen="6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", frame="")
    assert result.data["lines"][0]["san"][0] == "Rd8#"
    assert result.summary.startswith("Best move: Rd8#")


def test_chess_needs_a_position(ctx):
    with pytest.raises(ToolError, match="FEN or a frame"):
        _call(ctx, "chess_analyse", fen="", frame="")
    with pytest.raises(ToolError, match="no camera frame"):
        _call(ctx, "chess_analyse", fen="", frame="latest")


def test_chess_latest_in_a_live_session_means_the_camera_not_the_log(store):
    from egocli.tools.registry import ToolContext

    seen: list[str] = []
    live = ToolContext(store, None, "serve", fixed_now_ms=NOW, camera=lambda: seen.append("asked") or None)
    with pytest.raises(ToolError, match="no camera frame yet"):
        _call(live, "chess_analyse", fen="", frame="latest")
    assert seen == ["asked"]
