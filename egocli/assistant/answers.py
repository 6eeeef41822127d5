"""Spoken answers to questions: about now from the pre-filled live window (quick), about other
times from the whole log (LogAnswers), each sentence spoken as soon as it is generated."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import numpy as np

from egocli.assistant.ask import LogAnswers
from egocli.assistant.prefill import LiveWindow
from egocli.assistant.services import LiveServices
from egocli.assistant.speech import AnswerCancelled, Reply, SentenceSplitter
from egocli.assistant.window import LiveContext
from egocli.core.errors import EgoError, ModelError
from egocli.store import Event
from egocli.core.timeutil import format_local

log = logging.getLogger(__name__)

Say = Callable[[np.ndarray], None]
"""Plays 16 kHz samples on the asking session."""


class LiveAnswerer:
    """Answers questions for live sessions (answer thread)."""

    def __init__(self, services: LiveServices, window: LiveWindow, log_answers: LogAnswers) -> None:
        self.services, self.window, self.log_answers = services, window, log_answers

    def answer(self, question: str, at_ms: int, say: Say, cancelled: Callable[[], bool] = lambda: False) -> Reply:
        """Answer a question, speaking each sentence as it is generated (answer thread).

        Questions about now go to the pre-filled live window (quick); questions naming other times
        search the whole log. Generation stops early when `cancelled()` turns true (barge-in, a
        newer question)."""
        splitter = SentenceSplitter(lambda s: say(self.services.speak(s)))

        def on_token(token: str) -> None:
            if cancelled():
                raise AnswerCancelled
            splitter.feed(token)

        live = self.window.context
        if live is not None and not needs_search(live, question, at_ms):
            return self._answer_live(live, question, at_ms, on_token, splitter, say)
        return self._answer_log(question, at_ms, on_token, splitter, say)

    def _drop_forgotten(self, live: LiveContext) -> None:
        """Take events forgotten since they entered the window (`log forget`, retention) out of it,
        so an answer never rests on something the user deleted."""
        ids = [line.event_id for line in live.lines()]
        if ids and (gone := live.keep_only(self.services.store().existing(ids))):
            log.info("live window: %d forgotten event(s) dropped", gone)

    def _older(self, question: str, before_ms: int | None) -> list[Event]:
        """Up to two events older than the live window that match the question's words."""
        from egocli.reasoning.retrieval import relevant, retrieve
        from egocli.reasoning.scope import Scope

        if before_ms is None:
            return []
        try:
            hits = retrieve(self.services.store(), question, Scope(windows=((-(2 ** 62), before_ms),)), None, k=4)
        except EgoError:
            return []
        return [h.event for h in relevant(hits)[:2]]

    def _answer_live(self, live: LiveContext, question: str, at_ms: int, on_token: Callable[[str], None],
                     splitter: SentenceSplitter, say: Say) -> Reply:
        t0 = time.perf_counter()
        self._drop_forgotten(live)
        older = self._older(question, live.since_ms)
        t1 = time.perf_counter()
        pieces: list[str] = []
        try:
            for piece in live.answer(question, at_ms, older):
                if not pieces:
                    log.debug("live answer: retrieval %.0f ms, first token %.0f ms", (t1 - t0) * 1000,
                              (time.perf_counter() - t1) * 1000)
                pieces.append(piece)
                on_token(piece)
        except AnswerCancelled:
            return Reply(splitter.buffer.strip() + " …", interrupted=True, route="live")
        text = "".join(pieces).strip() or "I did not catch that."
        cites = [{"event_id": line.event_id, "time": format_local(line.start_ms), "offset": None,
                  "content": line.content} for line in live.cite(question, text, older)]
        return self._spoken(Reply(text, cites, route="live"), splitter, say)

    def _answer_log(self, question: str, at_ms: int, on_token: Callable[[str], None],
                    splitter: SentenceSplitter, say: Say) -> Reply:
        try:
            found = self.log_answers.answer(self.services.store(), question, at_ms, on_token)
        except AnswerCancelled:
            return Reply(splitter.buffer.strip() + " …", interrupted=True)
        except EgoError as ex:
            if isinstance(ex, ModelError):
                raise
            reply = Reply(str(ex))
        else:
            reply = Reply(found.text, found.citations)
        return self._spoken(reply, splitter, say)

    def _spoken(self, reply: Reply, splitter: SentenceSplitter, say: Say) -> Reply:
        splitter.finish()
        if not splitter.emitted:
            say(self.services.speak(reply.text))
            splitter.emitted = 1
        reply.spoken = splitter.emitted
        return reply


def needs_search(live: LiveContext, question: str, at_ms: int) -> bool:
    """True when the question names a time the live window does not cover (or "the last time"), or is one
    whose answer the log computes (first/last time, how many, how long, before/after, where): those get the
    same evidence-checked answer as `egocli ask`, never a guess from the window."""
    from egocli.reasoning.forms import form_named
    from egocli.reasoning.scope import parse_scope
    from egocli.reasoning.understand import by_rules

    plan = by_rules(question)
    if plan is not None and form_named(plan.form).live:  # 'what did I just read?' is the window's
        return True
    since = live.since_ms
    try:
        scope = parse_scope(question, at_ms)
    except EgoError:
        return True
    if since is None or scope.backwards or scope.tags:
        return True
    return any(start < since for start, _ in scope.windows)
