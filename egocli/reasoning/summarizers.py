"""The summarizers HCC writes its summaries with: a local text model (one sentence an hour, three a day or
week, the fixed system turn first so that llama.cpp's KV cache keeps it between calls) or, with no model,
the lines that say most. A model summary can yield to more urgent work between steps (`Interrupted`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from egocli.models.base import PrefixCachedModel, TextModel

VERBATIM = "extractive"
"""The `model` recorded for a summary kept verbatim from its input, or picked from it (no model ran)."""
LABEL = re.compile(r"^\[[^\]]*\]\s*")
"""The '[14:00] ' label a finer summary's line starts with."""
WARM_STEP = 32
"""Prompt tokens a yielding summary evaluates between two looks at whether to give way (~0.3 s on 2 cores)."""
_WORD = re.compile(r"[a-z0-9]+")
_STOP = re.compile(r"(?<!\.)\.$")
_LEAD = re.compile(r"^\s*(?:summary\s*:|[-*\u2022]|\d+[.)])\s*", re.I)
_TIMES = re.compile(r" \(x(\d+)\)$")
_SYSTEM = ("You summarise a personal activity log. Its lines are what was seen, heard, read or noted, in time"
           " order; a line 'mostly: ...' is the scenery that filled the time, (xN) how often it was seen. Write"
           " plain sentences, no list, no preamble: what was done, said or decided, with its names, places,"
           " objects and amounts; leave the scenery out unless nothing else happened; never add anything.")
_ASK = {"hour": " Tell the hour in one sentence of at most 20 words.",
        "day": " Tell the day in at most 3 short sentences (60 words), morning to night.",
        "week": " Tell the week in at most 3 short sentences (60 words), day by day."}


class Interrupted(Exception):
    """A summary given up half-way because other work wants the model (nothing is stored; build it later)."""


class Summarizer(Protocol):
    """Turns lines (events or finer summaries) into a short summary of one span."""

    name: str

    def summarize(self, lines: Sequence[str], span: str, level: str = "day") -> str:
        """A few sentences about the span (`level`: hour, day or week)."""
        ...


def verbatim(lines: Sequence[str]) -> str:
    """Lines kept as their own summary: one line without its label, several joined with '; ' (a full stop
    before the join dropped)."""
    if len(lines) == 1:
        return LABEL.sub("", lines[0])
    return "; ".join(_STOP.sub("", line) for line in lines)


class LlmSummarizer:
    """A summarizer backed by a local text model (the 'summarizer' role)."""

    def __init__(self, model: TextModel, max_tokens: int = 90, hour_tokens: int = 32,
                 on_piece: Callable[[], None] | None = None, give_way: Callable[[], bool] | None = None) -> None:
        self.model = model
        self.name = model.name
        self.max_tokens = max_tokens
        """Tokens a day or week summary is written in at most."""
        self.hour_tokens = hour_tokens
        """Tokens an hour summary is written in at most."""
        self.on_piece = on_piece
        """Called for each piece the model writes (a progress bar)."""
        self.give_way = give_way
        """Asked between steps of the work (every WARM_STEP prompt tokens, every piece written): True stops
        it with Interrupted (serve's background summaries give way to a question). None: never asked."""
        self.calls = 0
        """Model calls made so far."""

    def budget(self, level: str) -> int:
        """Tokens a summary of this level is written in at most."""
        return self.hour_tokens if level == "hour" else self.max_tokens

    def summarize(self, lines: Sequence[str], span: str, level: str = "day") -> str:
        """Ask the model for one sentence (an hour) or at most 3 (a day or week)."""
        limit = self.budget(level)
        system = _SYSTEM + _ASK.get(level, _ASK["day"])
        messages = [{"role": "system", "content": system},
                    {"role": "user", "content": f"{span}:\n" + "\n".join(lines)}]
        if isinstance(self.model, PrefixCachedModel) and self.model.kv_cache:
            self.model.prime_system(system)  # fixed text: kept on disk between runs, never personal data
            if self.give_way is not None:
                self._read_in_steps(self.model, self.model.format_chat(messages))
        pieces = []
        self.calls += 1
        reply = self.model.generate(messages, max_tokens=limit, temperature=0.0, stop=["\n\n"])
        try:
            for piece in reply:
                pieces.append(piece)
                if self.on_piece is not None:
                    self.on_piece()
                if self.give_way is not None and self.give_way():
                    raise Interrupted(f"{level} summary of {span} given up after {len(pieces)} pieces")
        finally:
            reply.close()  # the model's lock is released now, not when the generator is collected
        return _tidy("".join(pieces), span, cut=len(pieces) >= limit) or verbatim(lines[:3])

    def _read_in_steps(self, model: PrefixCachedModel, prompt: str) -> None:
        """Evaluate the prompt into the KV cache a few tokens at a time, giving way between steps (what is
        evaluated stays cached: `generate` on the same chat reads only what is left)."""
        if self.give_way is not None and self.give_way():
            raise Interrupted("gave way before the prompt was read")
        while model.warm([prompt], limit=WARM_STEP) > 0:
            if self.give_way is not None and self.give_way():
                raise Interrupted("gave way while the prompt was read")


def _tidy(reply: str, span: str, cut: bool) -> str:
    """A reply as one paragraph without the span's label echoed, bullets or a 'Summary:' lead; one cut off by
    max_tokens ends at its last full sentence or clause (when that keeps a third of it)."""
    reply = reply.strip()
    if reply.lower().startswith(span.lower()):
        reply = reply[len(span):].lstrip(" :,-")
    text = ""
    for part in filter(None, (_LEAD.sub("", line).strip() for line in reply.splitlines())):
        text += part if not text else (" " if text.endswith((".", "!", "?", ";", ":")) else "; ") + part
    if cut and not text.endswith((".", "!", "?")):
        end = max(text.rfind(". "), text.rfind("; "), text.rfind(", "))
        if end > len(text) // 3:
            text = text[:end].rstrip() + "."
    return text


class ExtractiveSummarizer:
    """A model-free summarizer: the lines that say most (said or noted, new words, not repeated), in order."""

    name = VERBATIM

    def __init__(self, keep: int = 5, width: int = 90) -> None:
        self.keep = keep
        self.width = width

    def summarize(self, lines: Sequence[str], span: str, level: str = "day") -> str:
        """The `keep` lines with most words per repeat (first seen order), clipped."""
        texts = list(dict.fromkeys(LABEL.sub("", line) for line in lines))

        def says(text: str) -> float:
            m = _TIMES.search(text)
            return len(set(_WORD.findall(text.lower()))) / (int(m.group(1)) if m else 1)

        top = set(sorted(texts, key=says, reverse=True)[: self.keep])
        return "; ".join(clip(t, self.width) for t in texts if t in top)


def clip(text: str, width: int) -> str:
    """A line of at most `width` characters, cut at a word with '…' when longer; its closing stop dropped (the
    lines are joined by '; ')."""
    text = text.strip().rstrip(".;")
    if len(text) <= width:
        return text
    cut = text[: width - 1]
    if text[width - 1] != " " and " " in cut:  # the last word runs on: leave it out
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:.") + "…"
