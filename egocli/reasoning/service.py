"""The ask service: the one owner of answering a question over the log.

`egocli ask`, `egocli eval`, the `memory_ask` tool and live sessions all answer through it. It owns
model loading, preparing the log, assembling the context and running the model. The defaults live
in two places only: `AskRequest` (budgets, votes, summaries, windows) and `Preparation` (what is
done to the log first); callers differ only in the request they build and the preparation they pick.

    service = AskService.from_settings(settings)        # LLM loads on a thread, the embedder now
    service = AskService.using(llm, embedder, preparation=VECTORS)   # models already loaded
    answer = service.ask(store, AskRequest("where are my keys?"), on_token=print)

`on_token` receives the answer's text as it is generated (open questions); raising from it stops
the model (a live session cancels a spoken answer that way). `ask` runs four steps in order; each
is a method of its own, so a caller can show progress between them, and a new step (a symbolic
scorer over the evidence, say) can go between `evidence` and `answer`:

    scope = AskService.scope(store, req)          # check the question, find its time scope (no model:
                                                  #   usage errors come before any model loads)
    prepared = service.prepare(store, req, scope) # embed unindexed events, build missing summaries
    ctx = service.evidence(store, req, scope)     # retrieval -> T-CoT windows + HCC summaries
    answer = service.answer(ctx, req, on_token)   # the model: a grounded sentence, or a voted letter

The service holds no store: each call takes one, so threads with their own SQLite connection can
share one service.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

from egocli.core.errors import ModelError
from egocli.models.base import Embedder, PrefixCachedModel, TextModel
from egocli.reasoning import asker, hcc, neuro
from egocli.reasoning.asker import Answer, AskRequest, Context
from egocli.reasoning.preparation import prepare_scope
from egocli.reasoning.plan import QuestionPlan
from egocli.reasoning.scope import Scope
from egocli.reasoning.understand import Parser, model_parser
from egocli.store import Store

if TYPE_CHECKING:
    from egocli.core.config import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Preparation:
    """What the service does to the log before it answers."""

    embed: bool = True
    """Embed the scope's events that have no vector yet (needs an embedder)."""
    summaries: bool = True
    """Build the scope's missing HCC summaries when only a few are missing (needs a summarizer)."""
    max_embed: int = 2000
    """At most this many events embedded per question."""
    max_chunks: int = 2
    """Build summaries only when at most this many are missing; more: `egocli summarize`."""


FULL = Preparation()
"""`egocli ask`: vectors, and the few summaries a scope lacks."""
VECTORS = Preparation(summaries=False)
"""Live sessions: vectors only, nobody waits for a summary to be written."""
AS_IS = Preparation(embed=False, summaries=False)
"""`egocli eval` and the `memory_ask` tool: the log as it is."""


@dataclass(frozen=True)
class Prepared:
    """What `prepare` did."""

    built: int
    """Summaries built."""
    missing: int
    """Summaries still missing in scope (too many to build now: run `egocli summarize`)."""


class AskService:
    """Answers questions over the log with one LLM (loaded on first use), an optional embedder and summarizer."""

    def __init__(self, llm: Callable[[], PrefixCachedModel], embedder: Embedder | None = None,
                 summarizer: Callable[[], TextModel] | None = None, preparation: Preparation = FULL) -> None:
        self._llm = llm
        self.embedder = embedder
        """Sentence embedder for retrieval (None: words only)."""
        self._summarizer = summarizer
        self.preparation = preparation
        """What is done to the log before answering."""
        self._parser: Parser | None = None

    @classmethod
    def using(cls, llm: PrefixCachedModel, embedder: Embedder | None = None,
              summarizer: TextModel | None = None, preparation: Preparation = FULL) -> AskService:
        """A service over models already loaded."""
        return cls(lambda: llm, embedder, (lambda: summarizer) if summarizer is not None else None, preparation)

    @classmethod
    def from_settings(cls, settings: Settings, preparation: Preparation = FULL,
                      warn: Callable[[str], None] = log.warning, background: bool = True,
                      with_llm: bool = True) -> AskService:
        """A service over the configured models. The LLM loads on a second thread (with `background`) while
        this one loads the embedder and goes on preparing the log and assembling the context; llama.cpp
        and numpy release the GIL, so on two cores the two overlap. An embedder that cannot load is
        reported through `warn` and retrieval uses words only; the LLM's load error is raised by `llm()`.
        Without `with_llm` (ask --no-llm) the LLM is never loaded."""
        from egocli.models import registry

        llm: Callable[[], PrefixCachedModel] = partial(registry.load_llm, settings)
        if not with_llm:
            llm = _no_llm
        elif background:
            from concurrent.futures import ThreadPoolExecutor

            pool = ThreadPoolExecutor(1, thread_name_prefix="egocli-llm")
            llm = pool.submit(registry.load_llm, settings).result
            pool.shutdown(wait=False)
        try:
            embedder: Embedder | None = registry.load_embedder(settings)
        except ModelError as ex:
            warn(f"{ex}; retrieval uses words only")
            embedder = None
        summarizer = (lambda: registry.load_summarizer(settings)) if preparation.summaries else None
        return cls(llm, embedder, summarizer, preparation)

    def llm(self) -> PrefixCachedModel:
        """The answering model (waits for a background load and raises its error)."""
        return self._llm()

    # ---- the steps, in order ---------------------------------------------
    @staticmethod
    def scope(store: Store, req: AskRequest) -> Scope:
        """Check the question and find its time scope (no model needed: `AskService.scope(store, req)`
        reports a bad question before any model loads)."""
        return asker.scope_of(store, req)

    def prepare(self, store: Store, req: AskRequest, scope: Scope) -> Prepared:
        """Embed the scope's unindexed events and build the few summaries it lacks, as `preparation` says."""
        plan = self.preparation
        summarizer = self._hcc_summarizer() if plan.summaries and req.hcc else None
        embedder = self.embedder if plan.embed else None
        if embedder is None and summarizer is None:
            return Prepared(0, 0)
        built, missing = prepare_scope(store, scope, summarizer, embedder, plan.max_chunks, plan.max_embed)
        return Prepared(built, missing)

    def evidence(self, store: Store, req: AskRequest, scope: Scope) -> Context:
        """Retrieval hits, the T-CoT windows around them and HCC summaries: the context the model reads. An
        open question the fast path cannot read is parsed by the model (loaded for it, if not yet)."""
        parser = self.parser if req.llm and req.symbolic and req.model_plan and not req.choices else None
        return asker.gather(store, req, scope, self.embedder, parser)

    def parser(self, question: str) -> QuestionPlan | None:
        """The model's plan of a question (understand.model_parser over this service's LLM, made once)."""
        if self._parser is None:
            self._parser = model_parser(self.llm())
        return self._parser(question)

    def answer(self, ctx: Context, req: AskRequest, on_token: Callable[[str], None] | None = None) -> Answer:
        """Run the model on the context: a grounded sentence (streamed to on_token), or a voted letter (with the
        symbolic check first, unless req.symbolic is off; without req.llm no model is asked)."""
        finding = ctx.checked.finding if ctx.checked is not None and not req.choices else None
        needed = req.llm and (finding is None or neuro.phrasable(finding))  # a computed list needs no model
        return asker.answer(self.llm() if needed else None, ctx, req, on_token)

    # ---- all of them -------------------------------------------------------
    def ask(self, store: Store, req: AskRequest, on_token: Callable[[str], None] | None = None) -> Answer:
        """Answer a question: scope, prepare, evidence, answer. Latency counts from the evidence on."""
        scope = self.scope(store, req)
        self.prepare(store, req, scope)
        started = time.perf_counter()
        ctx = self.evidence(store, req, scope)
        result = self.answer(ctx, req, on_token)
        return replace(result, latency_s=time.perf_counter() - started)

    def _hcc_summarizer(self) -> Callable[[], hcc.Summarizer] | None:
        make = self._summarizer
        if make is None:
            return None
        return lambda: hcc.LlmSummarizer(make())


def _no_llm() -> PrefixCachedModel:
    raise ModelError("this question is answered without a language model (--no-llm)")
