"""`egocli ingest`: recordings (video, audio, folders) into events."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, open_store, settings, time_ms
from egocli.core.errors import UsageError

if TYPE_CHECKING:
    from egocli.core.config import Settings
    from egocli.ingest.indexing import BackgroundIndexer
    from egocli.ingest.pipeline import Ingestor, IngestResult
    from egocli.store import Store


def ingest(ctx: typer.Context,
           paths: list[Path] = typer.Argument(..., help="Video/audio files or folders of them."),
           start: str = typer.Option(None, "--start", help="Wall-clock start (default: container time, else mtime)."),
           fps: float = typer.Option(1.0, "--fps", help="Frames sampled per second of video."),
           source_name: str = typer.Option(None, "--source-name", help="Name of the new source."),
           keep_frames: bool = typer.Option(False, "--keep-frames", help="Store a small JPEG per kept frame."),
           no_audio: bool = typer.Option(False, "--no-audio", help="Skip the audio."),
           no_video: bool = typer.Option(False, "--no-video", help="Skip the video."),
           scene_threshold: float = typer.Option(None, "--scene-threshold",
                                                 help="Thumbnail change (0..1) that counts as a new scene [default: 0.10]."),
           no_redact: bool = typer.Option(False, "--no-redact",
                                          help="Store faces and personal data unmasked (config: [privacy] redact)."),
           no_text_gate: bool = typer.Option(False, "--no-text-gate",
                                             help="OCR every kept frame in full (slower; for comparison)."),
           profile: bool = typer.Option(False, "--profile", help="Print seconds per stage at the end (stderr)."),
           json_: bool = JSON) -> None:
    """Turn recordings into visual, text and speech events; resumable and idempotent.

    \b
    Examples:
      egocli ingest examples/glasses.mp4
      egocli ingest ~/glasses/2026-11-28/ --fps 1 --start "yesterday 15:00"
    """
    _refuse_transcripts(paths)
    from egocli.core import bounds

    bounds.finite(fps, "--fps", high=30, above=0)
    if scene_threshold is not None:
        bounds.finite(scene_threshold, "--scene-threshold", low=0, high=1)
    if no_audio and no_video:
        raise UsageError("--no-audio and --no-video together leave nothing to ingest")
    from egocli.ingest.pipeline import IngestOptions, Ingestor, RegistryModels
    from egocli.perception.frames import FrameRules
    from egocli.privacy.redact import RedactionPolicy

    cfg = settings(ctx)
    rules = FrameRules() if scene_threshold is None else FrameRules(scene_threshold=scene_threshold)
    opts = IngestOptions(fps=fps, start_ms=time_ms("--start", start), source_name=source_name,
                         keep_frames=keep_frames, audio=not no_audio, video=not no_video,
                         rules=rules, text_gate=not no_text_gate,
                         redaction=None if no_redact else RedactionPolicy.from_settings(cfg))
    store = open_store(ctx)
    _few_malloc_arenas()
    ingestor = Ingestor(store, RegistryModels(cfg), cfg.media_dir, opts)
    indexer = _indexer(cfg, store)
    results = _run_with_progress(ingestor, paths, indexer)
    if any(r.status == "ingested" for r in results):
        _index_rest(indexer)
    _report(results, json_)
    if profile:
        ui.err.print(_profile_table(results), markup=False, highlight=False)  # asked for: shown with --quiet too
    if any(r.status == "failed" for r in results):
        raise typer.Exit(1)


def _refuse_transcripts(paths: list[Path]) -> None:
    from egocli.usecases.importing import TRANSCRIPT_SUFFIXES

    for path in paths:
        if path.suffix.lower() in TRANSCRIPT_SUFFIXES:
            raise UsageError(f"{path}: a transcript, not a recording: use `egocli import {path}`")


def _few_malloc_arenas() -> None:
    """Two glibc malloc arenas instead of one per busy thread: with four threads holding different
    models' buffers, the extra arenas kept ~170 MB more resident (10-minute bench recording: 997 ->
    829 MB peak, the same CPU). A MALLOC_ARENA_MAX set by the user wins; not glibc: nothing."""
    import ctypes
    import os
    import sys

    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return
    try:
        ctypes.CDLL("libc.so.6").mallopt(-8, 2)  # -8: M_ARENA_MAX
    except (OSError, AttributeError):
        pass


def _indexer(cfg: Settings, store: Store) -> BackgroundIndexer:
    """Embeds the new events for `ask` while the ingest runs (see egocli/ingest/indexing.py)."""
    from egocli.ingest.indexing import BackgroundIndexer
    from egocli.models import registry
    from egocli.reasoning.retrieval import embed_missing

    return BackgroundIndexer(lambda: registry.load("embedder", cfg), lambda model: sum(embed_missing(store, model)))


def _index_rest(indexer: BackgroundIndexer) -> None:
    from egocli.core.errors import EgoError

    try:
        done = indexer.finish()
    except EgoError as ex:
        ui.warn(f"events stored but not indexed for meaning search: {ex}")
        return
    if indexer.error is not None:
        ui.warn(f"events stored but not indexed for meaning search: {indexer.error}")
    elif done:
        ui.status(f"indexed {done} event(s) for search by meaning")


def _run_with_progress(ingestor: Ingestor, paths: list[Path], indexer: BackgroundIndexer) -> list[IngestResult]:
    from egocli.ingest.pipeline import IngestResult, Progress

    results: list[IngestResult] = []
    with ui.progress_bars() as bars:
        tasks: dict[tuple[str, str], ui.TaskID] = {}
        for item in ingestor.run(paths):
            if isinstance(item, Progress):
                indexer.start()
                indexer.tick()
            if isinstance(item, IngestResult):
                results.append(item)
            elif bars is not None:
                key = (item.path, item.stage)
                if key not in tasks:
                    tasks[key] = bars.add_task(f"{Path(item.path).name[:14]} {item.stage}", total=item.total_ms / 1000)
                bars.update(tasks[key], completed=item.done_ms / 1000)
    return results


def _report(results: list[IngestResult], json_: bool) -> None:
    for r in results:
        for w in r.warnings:
            ui.warn(w)
        if r.status == "failed":
            ui.error(r.error or r.path)
    if json_:
        ui.emit_json([asdict(r) for r in results])
    else:
        for r in results:
            if r.status != "failed":
                counts = ", ".join(f"{v} {k}" for k, v in sorted(r.events.items())) or "no new events"
                ui.emit_text(f"{r.status}\t{r.path}\t{counts}")
    failed = sum(r.status == "failed" for r in results)
    ui.status(f"{len(results) - failed} ok, {failed} failed")


def _profile_table(results: list[IngestResult]) -> str:
    lines = []
    for r in results:
        lines.append(f"{r.path}: seconds per stage (threads overlap; totals exceed the wall time; CPU is the "
                     "stage thread's, ASR's is the process's while it ran: exact with --no-video)")
        for stage, row in r.timings.items():
            lines.append(f"  {stage:<20} {row['seconds']:8.2f} s  CPU {row.get('cpu', 0.0):8.2f} s  "
                         f"{int(row['calls']):6d} calls")
    return "\n".join(lines) or "no timings (nothing ingested)"


def register(app: typer.Typer) -> None:
    """Attach `ingest` to the root app."""
    app.command("ingest", short_help="Turn recordings into visual, text and speech events.")(ingest)
