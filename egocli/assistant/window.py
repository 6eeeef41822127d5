"""Quick spoken answers from what just happened.

The recent log is kept as the system part of a chat prompt whose tokens are already evaluated in
llama.cpp's KV cache: each new event appends a line, and a background step evaluates just that
line while the server is idle. A question then costs only its own few tokens before the first
word of the answer, instead of the whole context (~70 prompt tokens/s on two cores).

Lines carry absolute clock times (relative ones would change every second and spoil the cache);
the question says what time it is now. When the window outgrows its budget the oldest lines are
dropped in one go, down to `keep` of the budget, so the full re-evaluation that follows is rare.
Questions about other times ("yesterday", "last Tuesday", "the last time I...") go to the ask
core, which searches the whole log.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from egocli.store import Event, NewEvent
from egocli.core.timeutil import local

if TYPE_CHECKING:
    from egocli.models.base import PrefixCachedModel

INSTRUCTIONS = (
    "You are egocli, the memory assistant of a person wearing camera glasses. Below are the newest "
    "entries of their log, oldest first: the clock time, then what was heard (speech), seen (camera) "
    "or read (text in view). Answer the person's question from these entries in one short spoken "
    "sentence, without preamble. If the entries do not say, answer that you did not catch that.\n\nLog:\n"
)
VERBS = {"speech": "heard", "visual": "saw", "text": "read", "note": "note", "reminder": "reminder"}
"""Modalities that go into the live window, and how a line names them."""
LINE_CHARS = 240
"""Longest event text kept in a line."""
_WORD = re.compile(r"[a-z0-9']+")
_MARK_SYSTEM, _MARK_USER = "\x00SYSTEM\x00", "\x00USER\x00"


@dataclass(frozen=True)
class Line:
    """One event in the live window."""

    event_id: int
    """The event's id in the log."""
    start_ms: int
    """When it happened."""
    text: str
    """The prompt line (ends with a newline)."""
    tokens: int
    """Its length in tokens."""
    content: str
    """The event's text (for citations)."""


def template_parts(model: PrefixCachedModel) -> tuple[str, str, str]:
    """(head, middle, tail) of the model's chat template around a system and a user message."""
    text = model.format_chat([{"role": "system", "content": _MARK_SYSTEM}, {"role": "user", "content": _MARK_USER}])
    if text.count(_MARK_SYSTEM) == 1 and text.count(_MARK_USER) == 1:
        head, rest = text.split(_MARK_SYSTEM)
        middle, tail = rest.split(_MARK_USER)
        return head, middle, tail
    return "<|im_start|>system\n", "<|im_end|>\n<|im_start|>user\n", "<|im_end|>\n<|im_start|>assistant\n"


def format_line(event: Event | NewEvent, event_id: int) -> str | None:
    """The window line for an event, or None for modalities that stay out (tool calls...)."""
    verb = VERBS.get(event.modality)
    text = " ".join(event.content.split())
    if verb is None or not text:
        return None
    if len(text) > LINE_CHARS:
        text = text[:LINE_CHARS].rsplit(" ", 1)[0] + " ..."
    return f"[{local(event.start_ms):%H:%M:%S}] {verb}: {text}\n"


def words(text: str) -> set[str]:
    """Content words of a text (lower case, short function words dropped)."""
    from egocli.core.words import STOPWORDS

    return {w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in STOPWORDS}


class LiveContext:
    """The recent log as a growing, pre-evaluated prompt prefix for one text model."""

    def __init__(self, model: PrefixCachedModel, budget: int = 700, keep: float = 0.6) -> None:
        self.model, self.budget, self.keep = model, budget, keep
        self.head, self.middle, self.tail = template_parts(model)
        self._count: Callable[[str], int] = model.count_tokens
        self._lines: list[Line] = []
        self._ids: set[int] = set()
        self._tokens = 0
        self._lock = threading.Lock()
        self.prefilled = model.kv_cache
        """Whether the model keeps a KV cache we can pre-fill (the fake model does not)."""

    # ---- the window ---------------------------------------------------
    def add(self, events: Sequence[Event | NewEvent], ids: Sequence[int]) -> int:
        """Append events (in any order; kept sorted by time) and return how many lines were added."""
        added = 0
        with self._lock:
            for ev, ev_id in sorted(zip(events, ids), key=lambda p: (p[0].start_ms, p[1])):
                line = format_line(ev, ev_id)
                if line is None or ev_id in self._ids:
                    continue
                item = Line(ev_id, ev.start_ms, line, self._count(line), ev.content)
                if self._lines and item.start_ms < self._lines[-1].start_ms:
                    self._lines.append(item)  # late arrival: a re-sort changes the cached prefix, rarely
                    self._lines.sort(key=lambda x: (x.start_ms, x.event_id))
                else:
                    self._lines.append(item)
                self._ids.add(ev_id)
                self._tokens += item.tokens
                added += 1
            if self._tokens > self.budget:
                self._trim()
        return added

    def _trim(self) -> None:
        while self._lines and self._tokens > self.keep * self.budget:
            gone = self._lines.pop(0)
            self._ids.discard(gone.event_id)
            self._tokens -= gone.tokens

    def keep_only(self, present: set[int]) -> int:
        """Drop lines whose events are gone from the log (forgotten, expired); returns how many."""
        with self._lock:
            gone = [line for line in self._lines if line.event_id not in present]
            if gone:
                self._lines = [line for line in self._lines if line.event_id in present]
                self._ids -= {line.event_id for line in gone}
                self._tokens -= sum(line.tokens for line in gone)
            return len(gone)

    def lines(self) -> list[Line]:
        """The window's lines, oldest first."""
        with self._lock:
            return list(self._lines)

    @property
    def tokens(self) -> int:
        """Tokens the window's lines take."""
        with self._lock:
            return self._tokens

    @property
    def since_ms(self) -> int | None:
        """Time of the oldest line (None: empty window)."""
        with self._lock:
            return self._lines[0].start_ms if self._lines else None

    def prefix(self) -> list[str]:
        """The prompt pieces that stay the same from question to question."""
        with self._lock:
            return [self.head + INSTRUCTIONS, *(line.text for line in self._lines)]

    def warm(self, step: int = 48) -> int:
        """Evaluate up to `step` tokens of the prefix not yet in the KV cache; returns how many remain."""
        if not self.prefilled:
            return 0
        return int(self.model.warm(self.prefix(), limit=step))

    # ---- answers --------------------------------------------------------
    def question(self, question: str, now_ms: int, older: Sequence[Event] = ()) -> str:
        """The user turn: older entries retrieved from the log, the time now, the question."""
        parts = []
        if older:
            parts.append("Older entries that may matter:\n" + "".join(
                line for ev in older if (line := format_line(ev, ev.id)) is not None) + "\n")
        parts.append(f"It is now {local(now_ms):%H:%M:%S}. {question.strip()}")
        return "".join(parts)

    def answer(self, question: str, now_ms: int, older: Sequence[Event] = (), max_tokens: int = 60) -> Iterator[str]:
        """Stream the answer's text pieces."""
        user = self.question(question, now_ms, older)
        if self.prefilled:
            yield from self.model.stream([*self.prefix(), self.middle + user + self.tail], max_tokens=max_tokens,
                                         stop=["\n\n"])
            return
        system = "".join(self.prefix())[len(self.head):]
        yield from self.model.generate([{"role": "system", "content": system}, {"role": "user", "content": user}],
                                       max_tokens=max_tokens, stop=["\n\n"])

    def cite(self, question: str, answer: str, older: Sequence[Event] = (), limit: int = 3) -> list[Line]:
        """Window lines (and older entries) sharing the most content words with question and answer."""
        wanted = words(question) | words(answer)
        pool = self.lines() + [Line(ev.id, ev.start_ms, "", 0, ev.content) for ev in older]
        scored = [(len(wanted & words(line.content)), -i, line) for i, line in enumerate(pool)]
        best = sorted((s for s in scored if s[0] > 0), key=lambda s: (s[0], -s[1]), reverse=True)
        return [line for _, _, line in best[:limit]]
