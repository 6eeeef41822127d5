"""`ask` as a use-case: scope -> retrieval -> T-CoT storyline + HCC summaries -> voted answer + citations."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace

from egocli.core.errors import InputError, UsageError
from egocli.models.base import Embedder, PrefixCachedModel
from egocli.reasoning import exchange, hcc, neuro, prompts, retrieval, spelling, tcot, terms, voice, waking, wearer
from egocli.reasoning.grounding import grounded_event, on_topic, quotes_summary, times_agree  # noqa: F401 - re-exported
from egocli.reasoning.answer import ANSWER_MARK, extract_letter, grammar, letters_for, majority, split_open
from egocli.reasoning.plan import Finding
from egocli.reasoning.scope import TIME_TAG, Scope, bind_videos, parse_scope, parse_tags
from egocli.reasoning.understand import Parser
from egocli.store import Event, Store
from egocli.core.timeutil import format_local, now_ms
from egocli.core.words import CITATION_FILLER

from egocli.reasoning.request import (CHOICE_BUDGET, NOTHING, OPEN_BUDGET, Answer, AskRequest, Citation,  # noqa: F401
                                     Context)

MAX_QUESTION_CHARS = 2000
"""Longest question (with its choices' room, it must leave the context window space for the log)."""


def scope_of(store: Store, req: AskRequest) -> Scope:
    """Check a question and find where in the log it looks (no model needed): the first step of an answer."""
    if not req.question.strip():
        raise UsageError("empty question")
    if len(req.question) > MAX_QUESTION_CHARS:
        raise UsageError(f"the question is {len(req.question)} characters long; at most {MAX_QUESTION_CHARS} "
                         "fit the model's context beside the log")
    if req.choices and len(req.choices) > 5:
        raise UsageError("at most 5 choices (A-E)")
    if store.size_hint() == 0:
        raise InputError("the event log is empty: import or ingest something first")
    if req.baseline is not None and req.baseline not in BASELINES:
        raise UsageError(f"unknown baseline {req.baseline!r} (known: {', '.join(BASELINES)})")
    at_ms = req.at_ms if req.at_ms is not None else asked_now(store)
    return parse_scope(req.question, at_ms, list(req.choices), bind_videos(store, req.videos), req.since_ms,
                       req.until_ms, waking.nights(store, at_ms, req.question))


def asked_now(store: Store) -> int:
    """The moment a question with no --at is asked from: now, or the log's newest event when the log's clock runs
    ahead (an import anchored at a file's time, a camera set fast): what is recorded has happened."""
    return max(now_ms(), store.last_start_ms() or 0)


def gather(store: Store, req: AskRequest, scope: Scope, embedder: Embedder | None = None,
           parser: Parser | None = None) -> Context:
    """The evidence in a scope: retrieval hits, T-CoT windows around them and HCC summaries (no model call but
    the parser's, when the fast path cannot read an open question's form)."""
    if req.baseline is not None:
        return _baseline(store, req, scope)
    req = replace(req, question=spelling.corrected(store, req.question))  # 'hosptial' is the log's 'hospital'
    terms.WEARER.set(wearer.names(store))  # 'Ken: ...' is the wearer's own line where every voice is named
    text = retrieval.query_text(req.question, req.choices)
    qvec = embedder.embed([text])[0] if embedder is not None else None
    hits = retrieval.retrieve(store, req.question, scope, embedder, req.choices, qvec=qvec)
    summaries = hcc.select(store, scope, req.question, req.tokens // 4, embedder, qvec) if req.hcc else []
    checked = neuro.check(store, scope, req.question, req.choices, embedder, parser) if req.symbolic else None
    used = sum(tcot.approx_tokens(s.text) + 8 for s in summaries) + (checked.tokens if checked else 0)
    story = tcot.build(store, scope, hits, [req.question, *req.choices], req.tokens - used, req.tcot)
    is_relevant = bool(scope.tags) or bool(retrieval.relevant(hits)) or (bool(scope.videos) and bool(story.events))
    return Context(scope, prompts.rewrite_question(req.question, scope), story, summaries, hits, is_relevant,
                   checked)


def assemble(store: Store, req: AskRequest, embedder: Embedder | None = None) -> Context:
    """Scope, retrieval, storyline and summaries for a question (no model call)."""
    return gather(store, req, scope_of(store, req), embedder)


BASELINES = ("recent",)
"""Context-building baselines `--baseline` accepts."""


def _baseline(store: Store, req: AskRequest, scope: Scope) -> Context:
    story = tcot.recent(store, scope, req.tokens)
    return Context(scope, prompts.rewrite_question(req.question, scope), story, [], [], bool(story.events))


def _overlaps(ev: Event, spans: list[tuple[int, int, int]]) -> bool:
    return any(ev.source_id == src and ev.start_ms <= b + 1000 and ev.end_ms >= a - 1000 for a, b, src in spans)


def cite(ctx: Context, text: str, chosen: str | None = None, limit: int = 5) -> list[Citation]:
    """Events in the context that support the answer: inside the chosen option's times, else sharing its words."""
    events = ctx.storyline.events
    picked: list[Event] = []
    if chosen and TIME_TAG.search(chosen) and ctx.scope.videos:
        videos = {v.number: v for v in ctx.scope.videos}
        spans = tcot.tag_spans([chosen], [parse_tags([chosen], videos)])
        picked = [e for e in events if _overlaps(e, spans)]
    if not picked:
        words = set(re.findall(r"[a-z0-9]{3,}", (chosen or text).lower())) - CITATION_FILLER
        scored = [(len(words & set(re.findall(r"[a-z0-9]{3,}", e.content.lower()))), e) for e in events]
        best = max((s for s, _ in scored), default=0)
        floor = max(1, min(2, best), (best + 1) // 2)  # one shared word is not evidence when others share more
        picked = [e for s, e in sorted(scored, key=lambda p: -p[0]) if s >= floor]
    if not picked:
        shown = {e.id for e in events}
        picked = [h.event for h in ctx.hits if h.event.id in shown]
    return [citation(ctx, ev) for ev in picked[:limit]]


def citation(ctx: Context, ev: Event) -> Citation:
    """An event as cited: local time, and its offset when it is inside a bound video."""
    renderer = tcot.Renderer(ctx.scope.videos, ctx.scope.at_ms)
    offset = renderer.stamp(ev.start_ms, ev.source_id) if ev.source_id in renderer.videos else None
    return Citation(ev.id, format_local(ev.start_ms), offset, ev.content)


def answer(llm: PrefixCachedModel | None, ctx: Context, req: AskRequest,
           on_token: Callable[[str], None] | None = None) -> Answer:
    """Run the model on an assembled context: voted letter for choices, a sentence otherwise."""
    started = time.perf_counter()
    if ctx.checked is not None or not req.llm:
        decided = _checked(llm if req.llm else None, ctx, req, started, on_token)
        if decided is not None:
            return decided
    if not ctx.relevant or (not ctx.storyline.events and not ctx.summaries):
        return Answer(req.question, ctx.question, None, NOTHING, None, [], [], ctx, 0, 0,
                      time.perf_counter() - started)
    if llm is None:  # no model and nothing computed: the best retrieved event, or nothing
        return _template(ctx, req, started)
    if req.choices:
        return _vote(llm, ctx, req, started)
    return _pick(llm, ctx, req, started, on_token) or _free(llm, ctx, req, started, on_token)


PICK_AMONG = 4
"""How many of the best retrieved lines the model may choose among (the one that answers is among the best four for
92 of the 118 dev questions no form computes; the best one for 65)."""


def _pick(llm: PrefixCachedModel, ctx: Context, req: AskRequest, started: float,
          on_token: Callable[[str], None] | None) -> Answer | None:
    """An open question no form computes: the model chooses which of the best PICK_AMONG lines answers it (a number
    under a grammar), asked twice with the lines in opposite orders, and that line stands in for the answer only when
    both choices agree (a 1.5B model leans to the first line shown: asked once it took 6 right lines and lost 3 right
    ones on the dev sets; agreeing twice, 4 right and none lost); else None. Not for a question asking whether."""
    lines = _ranked(ctx)[:PICK_AMONG]
    if len(lines) < 2 or prompts.asks_whether(req.question):
        return None
    at, grammar_ = format_local(ctx.scope.at_ms), prompts.pick_grammar(len(lines))
    picked = []
    for order in (lines, lines[::-1]):
        msgs = prompts.pick_messages(req.question, at, [(format_local(e.start_ms), e.content) for e in order])
        reply = "".join(llm.generate(msgs, max_tokens=2, temperature=0.0, grammar=grammar_)).strip()
        picked.append(order[int(reply) - 1] if reply.isdigit() and 0 < int(reply) <= len(order) else None)
    if picked[0] is None or picked[0] is not picked[1]:
        return None
    text = _with_time(picked[0], ctx)
    if on_token is not None:
        on_token(text)
    return Answer(req.question, ctx.question, None, text, None, [], [citation(ctx, picked[0])], ctx, 0, 0,
                  time.perf_counter() - started, decided_by="model")


def _free(llm: PrefixCachedModel, ctx: Context, req: AskRequest, started: float,
          on_token: Callable[[str], None] | None) -> Answer:
    """An open question no form computes, answered by the model from the context and said as its reading ('It
    seems ...'): on the fresh nights set such answers turned 1 hedged answer right and 5 wrong, said as fact."""
    told = [False]

    def said(piece: str) -> None:
        if on_token is not None:
            on_token(piece if told[0] or not _a_reading(piece) else voice.seems(piece.lstrip()))
            told[0] = True
    read = _open(llm, ctx, req, prompts.prefix(ctx.text, ctx.question, req.choices, ctx.scope.at_ms), started,
                 said if on_token is not None else None)
    return replace(read, text=voice.seems(read.text)) if _a_reading(read.text) else read


def _a_reading(text: str) -> bool:
    """Whether a free answer is the model's reading of a line (not nothing, no line standing in, no 'no')."""
    first = text.split(maxsplit=1)[0].lower().strip(",.:") if text.strip() else ""
    return bool(first) and first not in ("no", "not", "nothing", "it") and text != NOTHING and \
        not text.startswith(STAND_IN)


def _checked(llm: PrefixCachedModel | None, ctx: Context, req: AskRequest, started: float,
             on_token: Callable[[str], None] | None = None) -> Answer | None:
    """The answer with the symbolic part (neuro.py): options chosen by the scorer, or by the model's votes
    with the scorer as a prior; an open question's computed finding, phrased (and checked before it is
    shown, so it streams as one piece). None: answer as before."""
    checked = ctx.checked
    if not req.choices:
        if checked is None or checked.finding is None:
            return None if llm is not None else _template(ctx, req, started)
        if llm is not None and req.model_reading and not checked.finding.answered and ctx.relevant \
                and ctx.storyline.events and not prompts.asks_whether(req.question):
            read = _read_before_no(llm, ctx, req, checked.finding, started, on_token)
            if read is not None:
                return read
        text, prompt_tokens, out_tokens, by = neuro.phrase(llm, checked.finding, req.question)
        if checked.plan is not None and checked.plan.by == "model" and checked.finding.answered:
            text = voice.seems(text, voice.AS_READ)
        if on_token is not None:
            on_token(text)
        cites = [citation(ctx, ev) for ev in checked.finding.events]
        return Answer(req.question, ctx.question, None, text, None, [], cites, ctx, prompt_tokens, out_tokens,
                      time.perf_counter() - started, decided_by="symbolic" if by == "template" else "model")
    ballot = None
    if llm is not None and not neuro.decisive(checked) and ctx.relevant and ctx.storyline.events:
        ballot = _vote(llm, ctx, req, started)
    decision = neuro.choose(checked, [v for _, v in ballot.votes] if ballot else None, len(req.choices))
    if decision.letter is None and ballot is None:
        return None if llm is not None else _template(ctx, req, started)
    letters = letters_for(len(req.choices))
    chosen = req.choices[letters.index(decision.letter)] if decision.letter else None
    text = prompts.normalise_choice(chosen) if chosen is not None else NOTHING
    judgement = checked.judgement if checked is not None else None
    share = None if decision.letter is None else \
        (sum(v == decision.letter for _, v in ballot.votes) / len(ballot.votes) if ballot else
         judgement.shares()[letters.index(decision.letter)] if judgement is not None else None)  # votes' or scorer's
    scores = tuple(s.score for s in checked.judgement.scores) if checked and checked.judgement else ()
    return Answer(req.question, ctx.question, decision.letter, text, share, ballot.votes if ballot else [],
                  cite(ctx, text, chosen) if chosen is not None else [], ctx,
                  ballot.prompt_tokens if ballot else 0, ballot.output_tokens if ballot else 0,
                  time.perf_counter() - started, scores, decision.decided_by)


def _read_before_no(llm: PrefixCachedModel, ctx: Context, req: AskRequest, finding: Finding,
                    started: float, on_token: Callable[[str], None] | None) -> Answer | None:
    """The model's own reading of the context when the computed plan found nothing ('when did Hannah first get in
    touch?' over 'incoming call - Hannah Pike'): the log often says in other words what the plan's words did not
    find. Kept only when it rests on a line of the context, is no 'no' and speaks to the wearer; said as a reading
    ('It seems ...'): on the weekdays set 16 of the 26 it gave were right (4 of them wrong before) and 10 wrong.
    None: the plan's honest 'not that I can see' stands. Not for a question asking whether: there the 1.5B
    model's reading turned 13 right 'no' answers into a wrong 'Yes' ('did we win the quiz?') for 6 gained.
    A reading of another line than the plan's closest one is said beside it: on a fresh set the closest line
    held the answer where the model read another ('how much do I owe Stan?')."""
    read = _open(llm, ctx, req, prompts.prefix(ctx.text, ctx.question, req.choices, ctx.scope.at_ms), started, None,
                 need_line=True)
    if read.text == NOTHING or read.text.startswith(STAND_IN) or not read.citations or \
            neuro.polarity(read.text) == "no" or neuro.as_the_wearer(read.text):
        return None
    text = voice.seems(read.text)
    closest = finding.events[0] if finding.events else None
    cites = read.citations
    if closest is not None and closest.id != cites[0].event_id:
        text = f"{text} {finding.text}"
        cites = [*cites[:1], citation(ctx, closest), *cites[1:4]]
    if on_token is not None:
        on_token(text)
    return replace(read, text=text, citations=cites, decided_by="model")


def _template(ctx: Context, req: AskRequest, started: float) -> Answer:
    """Without the model and without a symbolic answer: the best retrieved event, or nothing."""
    best = best_hit(ctx) if ctx.relevant and not req.choices else None
    text = _with_time(best, ctx) if best is not None else NOTHING
    cites = [citation(ctx, best)] if best is not None else []
    return Answer(req.question, ctx.question, None, text, None, [], cites, ctx, 0, 0,
                  time.perf_counter() - started, decided_by="template" if best is not None else "none")


def _with_time(ev: Event, ctx: Context) -> str:
    """An event standing in for an answer nothing computed, said as such: its words and when, as people say it
    ('The closest I can find: toast bread, yesterday at 18:41.'); a line of the log is not a fact about the
    question."""
    named = voice.day_named(ev.content, ev.start_ms, ctx.scope.at_ms)  # 'Wed 20 Jan' said as the day it is
    reply = exchange.reply(ctx.storyline.events, ev)
    said = ev.content.rstrip(". ") + (f" — {reply.content.rstrip('. ')}" if reply is not None else "")
    return voice.sentence(f"{STAND_IN} {said}, "
                          f"{voice.when(ev.start_ms, ctx.scope.at_ms)}" + (f" (that day: {named})" if named else ""))



STAND_IN = "The closest I can find:"
"""How an answer opens when a line of the log stands in for it."""
def _open(llm: PrefixCachedModel, ctx: Context, req: AskRequest, shared: str, started: float,
          on_token: Callable[[str], None] | None, need_line: bool = False) -> Answer:
    """A sentence for an open question: the model copies the line it rests on, then answers;
    a line that is not in the context means it found nothing (only the answer part is streamed; with
    `need_line`, an answer that copies no line of the context is nothing too)."""
    msgs = prompts.open_messages(shared)
    llm.prime_system(msgs[0]["content"])  # the fixed system turn (no personal data) from the KV file: ~0.8 s saved
    buffered, source, shown = "", None, False
    streamed: list[str] = []
    pieces = llm.generate(msgs, max_tokens=160, temperature=0.0, stop=["\n\n"])
    for piece in pieces:
        if streamed:
            streamed.append(piece)
            if on_token is not None and (shown or piece.strip()):
                on_token(piece if shown else piece.lstrip())
                shown = True
            continue
        buffered += piece
        if not ANSWER_MARK.search(buffered):
            continue
        line, rest = split_open(buffered)
        if line is None:  # an answer without a copied line: kept whole, shown at the end
            continue
        source = grounded_event(ctx.storyline.events, line)
        if source is None or not on_topic(source, ctx):
            break
        streamed.append(rest)
        if on_token is not None and rest:
            on_token(rest)
            shown = True
    pieces.close()
    reply = buffered + "".join(streamed[1:])
    line, text = split_open(reply)
    if line is not None and source is None:
        source = grounded_event(ctx.storyline.events, line)
    grounded = (line is None and not need_line) or source is not None
    declined = "nothing relevant" in reply.lower()  # (an empty text may just be a reply cut at a misquote)
    misquoted = line is not None and (not on_topic(source, ctx) if source is not None else quotes_summary(line, ctx))
    if not declined and misquoted and (best := best_hit(ctx)) is not None:
        source, streamed = best, []  # the model quoted the wrong line: the best retrieved event answers
        text = _with_time(best, ctx)
        if on_token is not None:
            on_token(text)
    elif not grounded or declined or not text:
        text = NOTHING
    elif source is not None and not ANSWER_MARK.search(reply):  # a copied line and no answer: the event speaks
        text = _with_time(source, ctx)
    elif on_token is not None and not streamed:
        on_token(text)
    cites = [] if text == NOTHING else _with_source(ctx, source, cite(ctx, text))
    if cites and not times_agree(text, cites):  # a time the cited events do not have: the event speaks instead
        ev = source or next(e for e in ctx.storyline.events if e.id == cites[0].event_id)
        text, cites = _with_time(ev, ctx), [citation(ctx, ev)]
    return Answer(req.question, ctx.question, None, text, None, [], cites, ctx,
                  llm.count_tokens(msgs[0]["content"] + msgs[1]["content"]), llm.count_tokens(reply),
                  time.perf_counter() - started)


def best_hit(ctx: Context) -> Event | None:
    """The retrieved event shown in the context that best answers (for 'last time' questions, the newest
    of the strong ones), or None when nothing relevant was retrieved."""
    ranked = _ranked(ctx)
    return ranked[0] if ranked else None


def _ranked(ctx: Context) -> list[Event]:
    """The retrieved events shown in the context, best answer first (`best_hit`)."""
    shown = {e.id for e in ctx.storyline.events}
    ranked = [h.event for h in retrieval.answer_order(ctx.hits, ctx.scope.backwards) if h.event.id in shown]
    ranked = retrieval.typed_first(ctx.question, ranked)  # 'who moved my keys?': a line where someone is
    if retrieval.asks_coming(ctx.question):  # a plan's latest word stands
        ranked = retrieval.newest_word(ctx.question, ranked)
    return ranked


def _with_source(ctx: Context, source: Event | None, cites: list[Citation], limit: int = 5) -> list[Citation]:
    if source is None:
        return cites
    own = citation(ctx, source)
    return [own, *(c for c in cites if c.event_id != source.id)][:limit]


def _vote(llm: PrefixCachedModel, ctx: Context, req: AskRequest, started: float) -> Answer:
    """Each variant votes on its own rotation of the options (the log and question before them stay one cached
    prefix); its letter is mapped back to the option's own letter."""
    letters = letters_for(len(req.choices))
    rule = grammar(len(req.choices))
    votes, prompt_tokens, out_tokens = [], 0, 0
    llm.prime_system(prompts.SYSTEM)
    for i, instruction in enumerate(prompts.variants(req.votes)):
        order = prompts.rotation(i, len(req.choices))
        shown = [req.choices[j] for j in order]
        msgs = prompts.messages(prompts.prefix(ctx.text, ctx.question, shown, ctx.scope.at_ms), instruction)
        reply = "".join(llm.generate(msgs, max_tokens=2, temperature=0.0, grammar=rule))
        said = extract_letter(reply, len(letters))
        votes.append((instruction, letters[order[letters.index(said)]] if said else None))
        prompt_tokens += llm.count_tokens(msgs[0]["content"] + msgs[1]["content"])
        out_tokens += max(1, llm.count_tokens(reply))
    result = majority([v for _, v in votes])
    chosen = req.choices[letters.index(result.letter)] if result.letter else None
    text = prompts.normalise_choice(chosen) if chosen is not None else NOTHING
    cites = cite(ctx, text, chosen) if chosen is not None else []
    return Answer(req.question, ctx.question, result.letter, text, result.share if result.letter else None,
                  votes, cites, ctx, prompt_tokens, out_tokens, time.perf_counter() - started)


def ask(store: Store, llm: PrefixCachedModel, req: AskRequest, embedder: Embedder | None = None,
        on_token: Callable[[str], None] | None = None) -> Answer:
    """Assemble the context and answer."""
    started = time.perf_counter()
    ctx = assemble(store, req, embedder)
    result = answer(llm, ctx, req, on_token)
    return _with_latency(result, time.perf_counter() - started)


def _with_latency(result: Answer, seconds: float) -> Answer:
    return replace(result, latency_s=seconds)
