"""The eval harness: HD-EPIC-style multiple-choice files run against the log, with accuracy and recall."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from egocli.core.errors import EgoError, InputError
from egocli.models.base import Embedder, PrefixCachedModel
from egocli.reasoning import asker, tcot
from egocli.reasoning.answer import LETTERS
from egocli.reasoning.scope import BoundVideo, parse_tags
from egocli.reasoning.service import AS_IS, AskService
from egocli.store import Store

QUESTION_KEYS = ("inputs", "question", "choices", "correct_idx")
"""The only fields read from a question: anything else (e.g. HD-EPIC's answer-leaking `metadata`) is ignored."""


@dataclass(frozen=True)
class EvalQuestion:
    """One multiple-choice question."""

    qid: str
    """Its id in the file."""
    file: str
    """The file's stem."""
    videos: dict[int, str]
    """'video N' -> video id (a source name)."""
    question: str
    """The question text."""
    choices: tuple[str, ...]
    """Options, in order (lists flattened to text)."""
    correct: int
    """Index of the right option."""


@dataclass(frozen=True)
class EvalResult:
    """How one question went."""

    item: EvalQuestion
    """The question."""
    predicted: int | None
    """Chosen index (None: no answer or an error)."""
    correct: bool
    """Whether it matched."""
    recall: bool
    """Whether the gold time span (or the bound videos) was inside the assembled context."""
    latency_s: float
    """Seconds for this question."""
    tokens: int
    """Prompt + output tokens."""
    confidence: float | None = None
    """Vote share."""
    error: str | None = None
    """Why it failed, if it did."""
    votes: tuple[str | None, ...] = ()
    """The letter each prompt variant voted for, in variant order."""


def load_questions(path: Path) -> list[EvalQuestion]:
    """Questions of one file in the HD-EPIC VQA format (`metadata` is never read)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as ex:
        raise InputError(f"{path}: cannot read questions: {ex}") from ex
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected an object of questions keyed by id")
    out = []
    for qid, raw in data.items():
        item: dict[str, Any] = {k: raw.get(k) for k in QUESTION_KEYS} if isinstance(raw, dict) else {}
        try:
            videos = {int(k.split()[-1]): v["id"] for k, v in item["inputs"].items()}
            choices = tuple(", ".join(c) if isinstance(c, list) else str(c) for c in item["choices"])
            out.append(EvalQuestion(str(qid), path.stem, videos, str(item["question"]), choices,
                                    int(item["correct_idx"])))
        except (KeyError, TypeError, ValueError, AttributeError) as ex:
            raise InputError(f"{path}: question {qid}: missing or bad field ({ex})") from ex
    return out


def _gold_recall(ctx: asker.Context, item: EvalQuestion, videos: dict[int, BoundVideo]) -> bool:
    """True when every gold span (right option, else the question) has an event shown in the context."""
    texts = [item.choices[item.correct]] if "<TIME" in item.choices[item.correct] else [item.question]
    spans = tcot.tag_spans(texts, [parse_tags(texts, videos)]) if "<TIME" in texts[0] else []
    events = ctx.storyline.events
    if not spans:
        shown = {e.source_id for e in events}
        return all(v.source_id in shown for v in videos.values())
    return all(any(e.source_id == src and e.start_ms <= b + 1000 and e.end_ms >= a - 1000 for e in events)
               for a, b, src in spans)


def run_one(store: Store, llm: PrefixCachedModel, item: EvalQuestion, template: asker.AskRequest,
            embedder: Embedder | None = None) -> EvalResult:
    """Answer one question with these models and score it (see `run_one_with`)."""
    return run_one_with(store, AskService.using(llm, embedder, preparation=AS_IS), item, template)


def run_one_with(store: Store, service: AskService, item: EvalQuestion, template: asker.AskRequest) -> EvalResult:
    """Answer one question through the ask service and score it. Videos of the question that the log has no
    source for (HD-EPIC lists videos without annotations) are left unbound; a time tag naming one is then
    an error row."""
    present = {n: ref for n, ref in item.videos.items() if store.find_source(name=ref) is not None}
    req = replace(template, question=item.question, choices=item.choices, videos=present)
    try:
        if item.videos and not present:
            raise InputError(f"none of the question's videos is in the log ({', '.join(item.videos.values())})")
        scope = service.scope(store, req)
        service.prepare(store, req, scope)
        ctx = service.evidence(store, req, scope)
        ans = service.answer(ctx, req)
    except EgoError as ex:
        return EvalResult(item, None, False, False, 0.0, 0, error=str(ex))
    pred = LETTERS.index(ans.letter) if ans.letter else None
    bound = {v.number: v for v in ctx.scope.videos}
    return EvalResult(item, pred, pred == item.correct, _gold_recall(ctx, item, bound), ans.latency_s,
                      ans.prompt_tokens + ans.output_tokens, ans.confidence, votes=tuple(v for _, v in ans.votes))


def run(store: Store, llm: PrefixCachedModel, files: Sequence[Path], template: asker.AskRequest,
        embedder: Embedder | None = None, limit: int | None = None) -> Iterator[EvalResult]:
    """Results question by question with these models (see `run_with`)."""
    return run_with(store, AskService.using(llm, embedder, preparation=AS_IS), files, template, limit)


def run_with(store: Store, service: AskService, files: Sequence[Path], template: asker.AskRequest,
             limit: int | None = None) -> Iterator[EvalResult]:
    """Results question by question (at most `limit` per file, taken evenly across the file)."""
    for path in files:
        items = load_questions(path)
        if limit is not None and len(items) > limit:
            step = len(items) / limit
            items = [items[int(i * step)] for i in range(limit)]
        for item in items:
            yield run_one_with(store, service, item, template)


def interleave(files: Sequence[Path]) -> list[EvalQuestion]:
    """Questions of all files taken round-robin (file 1's first, file 2's first, ...), so that any
    prefix of the list is balanced across files."""
    queues = [load_questions(path) for path in files]
    out: list[EvalQuestion] = []
    for i in range(max((len(q) for q in queues), default=0)):
        out.extend(q[i] for q in queues if i < len(q))
    return out


def as_row(result: EvalResult) -> dict:
    """One result as a JSON-ready row."""
    return {"id": result.item.qid, "file": result.item.file, "predicted": result.predicted,
            "correct_idx": result.item.correct, "correct": result.correct, "recall": result.recall,
            "latency_s": round(result.latency_s, 3), "tokens": result.tokens,
            "confidence": result.confidence, "error": result.error, "votes": list(result.votes)}


@dataclass
class Report:
    """Accuracy and the rest, overall and per file."""

    rows: list[dict] = field(default_factory=list)
    """One row per file, then 'all'."""

    def as_json(self) -> dict:
        """A JSON-ready document."""
        return {"files": self.rows[:-1], "overall": self.rows[-1] if self.rows else {}}


def _row(name: str, results: Sequence[EvalResult]) -> dict:
    n = len(results) or 1
    return {"file": name, "questions": len(results),
            "accuracy": round(sum(r.correct for r in results) / n, 4),
            "context_recall": round(sum(r.recall for r in results) / n, 4),
            "mean_latency_s": round(sum(r.latency_s for r in results) / n, 3),
            "tokens_per_question": round(sum(r.tokens for r in results) / n, 1),
            "errors": sum(r.error is not None for r in results)}


def report(results: Sequence[EvalResult]) -> Report:
    """Aggregate results per file and overall."""
    files: dict[str, list[EvalResult]] = {}
    for r in results:
        files.setdefault(r.item.file, []).append(r)
    return Report([*(_row(name, rs) for name, rs in files.items()), _row("all", list(results))])


