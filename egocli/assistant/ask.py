"""Answers from the whole log for live sessions: a small Protocol, and the one ask service behind it.

The assistant depends only on `LogAnswers`; the server passes an implementation down. `AskPipeline`
calls egocli.reasoning.service the way serve always has asked (one vote, no summaries, vectors for
new events, `answer_budget` tokens)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from egocli.core.errors import ModelError
from egocli.models.base import Embedder, PrefixCachedModel
from egocli.store import Store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LogAnswer:
    """An answer from the log."""

    text: str
    """The answer text."""
    citations: list[dict[str, Any]] = field(default_factory=list)
    """Events it rests on: event_id, time, offset, content."""


class LogAnswers(Protocol):
    """Answers a question over the whole log, streaming the answer's tokens."""

    def answer(self, store: Store, question: str, at_ms: int, on_token: Callable[[str], None]) -> LogAnswer:
        """The answer; raising from on_token stops generation (and propagates); EgoError on failure."""
        ...


class AskPipeline:
    """LogAnswers through egocli.reasoning.asker: retrieval over the log, one vote, no summaries."""

    def __init__(self, llm: Callable[[], PrefixCachedModel], embedder: Callable[[], Embedder], budget: int = 400) -> None:
        self._llm, self._embedder, self.budget = llm, embedder, budget

    def answer(self, store: Store, question: str, at_ms: int, on_token: Callable[[str], None]) -> LogAnswer:
        """Prepare the scope's vectors, then answer from the assembled context (the ask service)."""
        from egocli.reasoning.asker import AskRequest
        from egocli.reasoning.service import VECTORS, AskService

        service = AskService(self._llm, self._embedder_or_none(), preparation=VECTORS)
        req = AskRequest(question, at_ms=at_ms, votes=1, budget=self.budget, hcc=False)
        result = service.ask(store, req, on_token)
        return LogAnswer(result.text, [asdict(c) for c in result.citations])

    def _embedder_or_none(self) -> Embedder | None:
        try:
            return self._embedder()
        except ModelError as ex:
            log.info("answers use words only: %s", ex)
            return None
