"""`egocli eval`: multiple-choice benchmarks (HD-EPIC VQA format) against the current log."""

from __future__ import annotations

from pathlib import Path

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, open_store, settings
from egocli.core.errors import NotFound, UsageError

COLUMNS = ("file", "questions", "accuracy", "context_recall", "mean_latency_s", "tokens_per_question", "errors")


def eval_(ctx: typer.Context,
          files: list[Path] = typer.Argument(..., help="Question files ({id: {inputs, question, choices, correct_idx}})."),
          votes: int = typer.Option(5, "--votes", help="Prompt variants to majority-vote."),
          budget: int = typer.Option(None, "--budget", help="Context tokens (default as for `ask` with choices: 800)."),
          no_hcc: bool = typer.Option(False, "--no-hcc", help="Ablation: no summaries."),
          no_tcot: bool = typer.Option(False, "--no-tcot", help="Ablation: no T-CoT windows."),
          baseline: str = typer.Option(None, "--baseline",
                                       help="'recent': no retrieval, T-CoT or HCC; the newest events of the bound "
                                            "videos fill the budget (the stuffing baseline)."),
          limit: int = typer.Option(None, "--limit", help="At most N questions per file (spread over the file)."),
          json_: bool = JSON) -> None:
    """Accuracy overall and per file, context recall, mean latency and tokens per question."""
    from egocli.reasoning import asker
    from egocli.usecases import evaluate
    from egocli.reasoning.service import AS_IS, AskService

    if votes < 1 or (limit is not None and limit < 1):
        raise UsageError("--votes and --limit must be at least 1")
    if baseline is not None and baseline not in asker.BASELINES:
        raise UsageError(f"--baseline: unknown {baseline!r} (known: {', '.join(asker.BASELINES)})")
    for path in files:
        if not path.is_file():
            raise NotFound(f"{path}: no such file")
        evaluate.load_questions(path)
    store = open_store(ctx, create=False)
    service = AskService.from_settings(settings(ctx), AS_IS, warn=ui.warn)
    service.llm()  # a model that cannot load fails the command, not every question
    template = asker.AskRequest("?", votes=votes, budget=budget, hcc=not no_hcc, tcot=not no_tcot,
                                baseline=baseline)
    total = sum(min(len(evaluate.load_questions(p)), limit or 10**9) for p in files)
    results = list(ui.track(evaluate.run_with(store, service, files, template, limit), "questions", total=total))
    rep = evaluate.report(results)
    if json_:
        doc = rep.as_json()
        doc["questions"] = [{"id": r.item.qid, "file": r.item.file, "predicted": r.predicted,
                             "correct_idx": r.item.correct, "correct": r.correct, "recall": r.recall,
                             "latency_s": round(r.latency_s, 3), "error": r.error} for r in results]
        ui.emit_json(doc)
    else:
        ui.emit_rows(rep.rows, COLUMNS, "text", title="eval")
    failed = sum(r.error is not None for r in results)
    if failed:
        ui.warn(f"{failed} questions failed (see errors)")
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Attach `eval` to the root app."""
    app.command("eval", short_help="Score ask on question files: accuracy, recall, latency.")(eval_)
