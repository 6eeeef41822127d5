"""The tools egocli's assistant can call: memory, notes, reminders, chess and the clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from egocli.core.errors import EgoError, InputError, ModelError
from egocli.models.base import Embedder
from egocli.store import EventFilter, NewEvent
from egocli.core.timeutil import format_local, local
from egocli.tools import reminders as rem
from egocli.tools.registry import ToolContext, ToolError, ToolRegistry, ToolResult

REGISTRY = ToolRegistry()
tool = REGISTRY.tool
HIDDEN_FROM_MEMORY = ("tool",)
"""Modalities memory_search leaves out: `tool` events (the audit trail before it had its own table)."""


def _when(ms: int) -> str:
    return local(ms).strftime("%a %d %b %H:%M")


@tool()
def now(ctx: ToolContext) -> ToolResult:
    """The current date and time."""
    at = local(ctx.now())
    return ToolResult({"local": at.isoformat(timespec="seconds"), "weekday": at.strftime("%A")},
                      f"It is {at.strftime('%H:%M on %A %d %B %Y')}.")


@tool()
def memory_search(ctx: ToolContext, query: str, limit: int = 5) -> ToolResult:
    """Search the lifelog for events matching words.

    Args:
        query: words to look for, e.g. "car keys"
        limit: how many events to return (1-20)
    """
    if not 1 <= limit <= 20:
        raise ToolError("limit must be between 1 and 20")
    hits = [(ev, snip) for ev, _, snip in ctx.store.search(query, EventFilter(limit=limit * 3))
            if ev.modality not in HIDDEN_FROM_MEMORY][:limit]
    rows = [{"id": ev.id, "time": format_local(ev.start_ms), "modality": ev.modality, "content": ev.content}
            for ev, _ in hits]
    if not rows:
        return ToolResult(rows, f"Nothing in the log matches {query!r}.")
    best = hits[0][0]
    return ToolResult(rows, f"Found {len(rows)} event(s) for {query!r}; the best is from {_when(best.start_ms)}: "
                            f"{best.content[:120]}")


@tool()
def memory_ask(ctx: ToolContext, question: str) -> ToolResult:
    """Answer a question about what I saw, said or did, from the lifelog.

    Args:
        question: the question in full, e.g. "where did I put my keys?"
    """
    from egocli.reasoning import asker
    from egocli.reasoning.service import AS_IS, AskService

    if ctx.llm_loader is None:
        raise ToolError("no language model is available to answer questions")
    if ctx.store.count() == 0:
        return ToolResult({"answer": asker.NOTHING, "citations": []}, asker.NOTHING)
    req = asker.AskRequest(question, at_ms=ctx.now(), budget=800)
    result = AskService(ctx.llm_loader, _embedder(ctx), preparation=AS_IS).ask(ctx.store, req)
    cites = [{"id": c.event_id, "time": c.time, "content": c.content} for c in result.citations]
    return ToolResult({"answer": result.text, "citations": cites}, result.text)


def _embedder(ctx: ToolContext) -> Embedder | None:
    if ctx.settings is None:
        return None
    from egocli.models import registry

    try:
        return registry.load_embedder(ctx.settings)
    except ModelError:
        return None


@tool(side_effects=True, confirm=lambda a: f"Save the note {a['text']!r}?")
def note_add(ctx: ToolContext, text: str) -> ToolResult:
    """Save a note in the lifelog.

    Args:
        text: the note, in the user's words
    """
    if not text.strip():
        raise ToolError("the note is empty")
    at = ctx.now()
    nid = ctx.store.add_events([NewEvent(at, at, "note", text.strip(), meta={"by": "assistant"})])[0]
    return ToolResult({"id": nid, "text": text.strip()}, f"Noted: {text.strip()}")


@tool()
def note_list(ctx: ToolContext, limit: int = 10) -> ToolResult:
    """List the most recent notes.

    Args:
        limit: how many notes (1-50)
    """
    if not 1 <= limit <= 50:
        raise ToolError("limit must be between 1 and 50")
    notes = list(ctx.store.events(EventFilter(modalities=("note",), limit=limit), newest_first=True))
    rows = [{"id": ev.id, "time": format_local(ev.start_ms), "text": ev.content} for ev in notes]
    if not rows:
        return ToolResult(rows, "You have no notes.")
    return ToolResult(rows, f"{len(rows)} note(s); the latest: {notes[0].content[:120]}")


@tool(side_effects=True, confirm=lambda a: f"Delete note #{a['note_id']} for good?")
def note_delete(ctx: ToolContext, note_id: int) -> ToolResult:
    """Delete one note by its id.

    Args:
        note_id: the note's id, from note_list
    """
    text = rem.delete_note(ctx.store, note_id)
    return ToolResult({"id": note_id, "text": text}, f"Deleted note #{note_id}: {text[:80]}")


def _confirm_reminder(args: dict[str, Any]) -> str:
    where = f" in {args['place']}" if args.get("place") else ""
    return f"Set a reminder to {args['text']!r} at {args['due']}{where}?"


@tool(side_effects=True, confirm=_confirm_reminder)
def reminder_add(ctx: ToolContext, text: str, due: str, place: str = "") -> ToolResult:
    """Set a reminder.

    Args:
        text: what to remind about, e.g. "meet my mentor"
        due: when, as HH:MM (24h), "tomorrow HH:MM", "in 20 minutes" or YYYY-MM-DDTHH:MM
        place: where, if said
    """
    try:
        due_ms = rem.parse_due(due, ctx.now())
    except EgoError as ex:
        raise ToolError(str(ex)) from ex
    r = rem.add_reminder(ctx.store, text, due_ms, place, ctx.now())
    where = f" in {r.place}" if r.place else ""
    return ToolResult(r.to_json(), f"Reminder set for {rem.when_said(r.due_ms, ctx.now())}: {r.text}{where}.")


@tool()
def reminder_list(ctx: ToolContext, include_done: bool = False) -> ToolResult:
    """List reminders, soonest first.

    Args:
        include_done: also list reminders already done
    """
    items = rem.reminders(ctx.store, include_done)
    rows = [r.to_json() for r in items]
    if not rows:
        return ToolResult(rows, "You have no open reminders.")
    first = items[0]
    return ToolResult(rows, f"{len(rows)} reminder(s); next: {first.text} at {_when(first.due_ms)}.")


@tool(side_effects=True, confirm=lambda a: f"Mark reminder #{a['reminder_id']} as done?")
def reminder_done(ctx: ToolContext, reminder_id: int) -> ToolResult:
    """Mark a reminder as done.

    Args:
        reminder_id: the reminder's id, from reminder_list
    """
    r = rem.mark_done(ctx.store, reminder_id, ctx.now())
    return ToolResult(r.to_json(), f"Marked done: {r.text}.")


@tool()
def chess_analyse(ctx: ToolContext, fen: str = "", frame: str = "") -> ToolResult:
    """Best moves for a chess position, from a FEN or a camera frame.

    Args:
        fen: the position as FEN, if the user gave one
        frame: an image path, or "latest" for the last camera frame
    """
    from egocli.chess.analyse import ChessOptions, analyse, analyse_image
    from egocli.chess.analyse import UnreadablePosition as Unreadable
    from egocli.chess.types import Analysis, VideoAnalysis

    if not fen.strip() and not frame.strip():
        raise ToolError("give a FEN or a frame")
    options = ChessOptions(multipv=3, seconds=0.3, model=_chess_model(ctx))
    result: Analysis | VideoAnalysis
    source: str | None = None
    try:
        if not fen.strip() and frame.strip().lower() == "latest" and ctx.camera is not None:
            image = ctx.camera()  # a live session: the frame the camera sees now
            if image is None:
                raise ToolError("no camera frame yet")
            result = analyse_image(image, options)
        else:
            source = _frame_path(ctx, frame) if frame.strip() else None
            result = analyse(source, fen.strip() or None, options, coach_model=None)
    except Unreadable as ex:  # never hide what was seen
        raise ToolError(f"{ex} (seen: {ex.analysis.fen_seen})") from None
    except InputError as ex:
        if not fen.strip() and str(ex).startswith(f"{source}: "):  # one message for missing and unreadable
            raise ToolError(f"{frame.strip()}: not a readable image or video") from None
        raise
    data = result.to_json()
    position = result if isinstance(result, Analysis) else None  # a video's moves are in data, not a best move
    if position is not None and position.status:
        return ToolResult(data, f"The game is over: {position.status}.")
    lines = position.lines if position is not None else []
    if not lines:
        return ToolResult(data, "The engine found no move.")
    best = lines[0]
    return ToolResult(data, f"Best move: {best.san[0]} (expected score {100 * best.expected:.0f}%).")


def _chess_model(ctx: ToolContext) -> Path | None:
    """The user's calibrated square classifier if there is one (as `egocli chess --model auto`), else None."""
    if ctx.settings is None:
        return None
    from egocli.chess.calibrate import active_model

    return active_model(ctx.settings.home)


def _frame_path(ctx: ToolContext, frame: str) -> str:
    """An image path, or for 'latest' the newest stored camera frame in the log."""
    if frame.strip().lower() != "latest":
        return frame.strip()
    for ev in ctx.store.events(EventFilter(modalities=("visual",), limit=200), newest_first=True):
        if ev.media_path and Path(ev.media_path).suffix.lower() in (".jpg", ".jpeg", ".png", ".webp"):
            path = Path(ev.media_path)
            if not path.is_absolute() and ctx.settings is not None:
                path = ctx.settings.media_dir / path
            return str(path)
    raise ToolError("no camera frame in the log to look at")


ALL = tuple(REGISTRY.tools)
REGISTRY.allow("cli", ALL)
REGISTRY.allow("serve", ALL)
REGISTRY.allow("mcp", tuple(n for n in ALL if n != "note_delete"))
