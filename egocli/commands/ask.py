"""`egocli ask`: answer a question over the log with T-CoT + HCC, voting and citations."""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, LLM, open_store, settings, time_ms
from egocli.core.errors import UsageError
if TYPE_CHECKING:
    from egocli.reasoning import asker


def parse_videos(values: list[str] | None) -> dict[int, str]:
    """--video N=SOURCE flags as {N: SOURCE}."""
    out = {}
    for value in values or []:
        number, sep, source = value.partition("=")
        if not sep or not number.strip().isdigit() or not source.strip():
            raise UsageError(f"--video takes N=SOURCE (e.g. 1=P01-20240202-110250), not {value!r}")
        out[int(number)] = source.strip()
    return out


def _read_question(question: str | None) -> str:
    if question in (None, "-"):
        if sys.stdin.isatty():
            raise UsageError("no question (give it as an argument or on stdin)")
        question = sys.stdin.read()
    if not question.strip():
        raise UsageError("empty question")
    return question.strip()


def render(result: asker.Answer, explain: bool, streamed: bool = False) -> None:
    """Print the answer (and with --explain the context and the votes) on stdout."""
    if explain:
        ui.emit_text(f"Question: {result.rewritten}\nScope: {result.context.scope.label}\n")
        ui.emit_text(result.context.text + "\n")
        for instruction, letter in result.votes:
            ui.emit_text(f"vote {letter or '-'}  <- {instruction}")
        if result.scores:
            ui.emit_text("scores " + "  ".join(f"{'ABCDE'[i]} {s:.2f}" for i, s in enumerate(result.scores)))
        ui.emit_text(f"decided by: {result.decided_by}")
    if result.letter:
        conf = f" (confidence {result.confidence:.0%}, {len(result.votes)} votes)" if result.confidence else ""
        ui.emit_text(f"{result.letter}. {result.text}{conf}")
    elif not streamed:
        ui.emit_text(result.text)
    for c in result.citations:
        where = f" {c.offset}" if c.offset else ""
        ui.emit_text(f"  #{c.event_id} {c.time}{where}  {c.content[:100]}")


def to_json(result: asker.Answer) -> dict[str, Any]:
    """The answer as one JSON document."""
    ctx = result.context
    return {"question": result.question, "rewritten": result.rewritten, "answer": result.text,
            "letter": result.letter, "confidence": result.confidence, "relevant": ctx.relevant,
            "votes": [{"instruction": i, "letter": v} for i, v in result.votes],
            "citations": [asdict(c) for c in result.citations], "scope": ctx.scope.label,
            "context": ctx.text, "context_event_ids": [e.id for e in ctx.storyline.events],
            "scores": list(result.scores), "decided_by": result.decided_by,
            "prompt_tokens": result.prompt_tokens, "output_tokens": result.output_tokens,
            "latency_s": round(result.latency_s, 3)}


def ask(ctx: typer.Context,
        question: str = typer.Argument(None, help="The question (or - / nothing to read it from stdin)."),
        choice: list[str] = typer.Option(None, "--choice", "-c", help="A multiple-choice option (repeat, up to 5)."),
        at: str = typer.Option(None, "--at", help="Ask as of this time (default now)."),
        since: str = typer.Option(None, "--since", help="Only events from this time."),
        until: str = typer.Option(None, "--until", help="Only events before this time."),
        video: list[str] = typer.Option(None, "--video", help="Bind 'video N' in <TIME> tags: N=SOURCE."),
        votes: int = typer.Option(5, "--votes", help="Prompt variants to majority-vote."),
        budget: int = typer.Option(None, "--budget",
                                   help="Context tokens for summaries and events (default 500, 800 with --choice)."),
        no_hcc: bool = typer.Option(False, "--no-hcc", help="No summaries in the context."),
        no_tcot: bool = typer.Option(False, "--no-tcot", help="No T-CoT windows: an even sample of the scope."),
        baseline: str = typer.Option(None, "--baseline",
                                     help="'recent': no retrieval, T-CoT or HCC; the newest events before the question "
                                          "(in the bound videos) fill the budget. For comparisons."),
        no_symbolic: bool = typer.Option(False, "--no-symbolic", help="No evidence check per option or computed "
                                         "answers to open questions: the model alone."),
        no_llm: bool = typer.Option(False, "--no-llm", help="No model: the symbolic answer (or a template) alone."),
        explain: bool = typer.Option(False, "--explain", help="Print the context and each variant's vote."),
        llm: str = LLM, json_: bool = JSON) -> None:
    """Answer a question about the log, citing the events it rests on."""
    if votes < 1 or (budget is not None and budget < 100):
        raise UsageError("--votes must be at least 1 and --budget at least 100")
    from egocli.reasoning import asker
    from egocli.reasoning.service import AskService

    req = asker.AskRequest(_read_question(question), tuple(choice or ()), time_ms("--at", at),
                           time_ms("--since", since), time_ms("--until", until), parse_videos(video), votes, budget, not no_hcc, not no_tcot,
                           baseline, not no_symbolic, not no_llm)
    store = open_store(ctx, create=False)
    scope = AskService.scope(store, req)  # checks the question and scope before loading any model
    with ui.Waiting("Loading models...") as waiting:
        service = AskService.from_settings(settings(ctx), warn=ui.warn, with_llm=req.llm)
        waiting.update("Preparing the log (vectors, summaries)...")
        prepared = service.prepare(store, req, scope)
        if prepared.missing and _first_today(ctx, "summaries-missing"):
            ui.warn(f"{prepared.missing} summaries missing in this scope: run `egocli summarize` "
                    "(said once a day)")
        evidence = service.evidence(store, req, scope)
        stream = not json_ and not req.choices and sys.stdout.isatty() and not explain
        if req.llm:
            waiting.update("Waiting for the language model to load...")
            service.llm()
        n = len(evidence.storyline.events)
        waiting.update(f"Reading {n} event{'s' * (n != 1)} and {len(evidence.summaries)} summaries"
                       + (f", {req.votes} votes..." if req.choices else "..."))

        shown: list[str] = []

        def show(token: str) -> None:
            waiting.done()
            shown.append(token)
            print(token, end="", flush=True)

        result = service.answer(evidence, req, on_token=show if stream else None)
    if json_:
        ui.emit_json(to_json(result))
        return
    if shown:
        print()
    # Printed again only if what streamed is not the final answer (it was corrected after streaming).
    render(result, explain, streamed=bool(shown) and "".join(shown).strip() == result.text.strip())


def _first_today(ctx: typer.Context, topic: str) -> bool:
    """Whether advice on `topic` is due for this log today (it is given once a day per log)."""
    from egocli.cli import notices

    cfg = settings(ctx)
    return notices.first_today(cfg.home, topic, str(Path(cfg.db).resolve()) if cfg.db else ":memory:")


def register(app: typer.Typer) -> None:
    """Attach `ask` to the root app."""
    app.command("ask", short_help="Answer a question about the log, citing its events.")(ask)
