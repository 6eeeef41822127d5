"""Answers as speech: streamed tokens cut into sentences to speak as soon as each ends, and the reply."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_SENTENCE_END = re.compile(r"[.!?;:]\s")
_CLAUSE_END = re.compile(r"[.!?;:,]\s")
PHRASE_OPENERS = frozenset({"to", "that", "what", "which", "who", "when", "where", "because", "and", "but",
                            "so", "with", "while", "after", "before", "since", "about"})
"""Words a first spoken piece may end before (a natural pause in speech)."""
PHRASE_MIN_WORDS = 4
"""Words the first piece needs before such a break."""


class SentenceSplitter:
    """Collects streamed tokens and hands out whole sentences as soon as they end."""

    def __init__(self, emit: Callable[[str], None], min_chars: int = 12) -> None:
        self.emit, self.min_chars, self.buffer, self.emitted = emit, min_chars, "", 0

    def feed(self, token: str) -> None:
        """Add a token; emits any finished sentence. The first piece may end sooner, at a clause or
        before a word that opens a phrase ("...asked people | to ask..."), so speech starts early."""
        if not self.emitted and token[:1].isspace() and self._phrase_break():
            return self.feed(token)
        self.buffer += token
        ends = _CLAUSE_END if not self.emitted else _SENTENCE_END
        for match in ends.finditer(self.buffer):
            if match.end() >= self.min_chars:
                sentence, self.buffer = self.buffer[:match.end()].strip(), self.buffer[match.end():]
                self._out(sentence)
                break
        return None

    def _phrase_break(self) -> bool:
        """Emit the words before the buffer's last (complete) word when that word opens a phrase."""
        words = self.buffer.split()
        if len(words) <= PHRASE_MIN_WORDS or words[-1].lower() not in PHRASE_OPENERS:
            return False
        cut = self.buffer.rstrip().rfind(words[-1])
        head, self.buffer = self.buffer[:cut].strip(), self.buffer[cut:]
        self._out(head)
        return True

    def finish(self) -> None:
        """Emit whatever is left."""
        rest, self.buffer = self.buffer.strip(), ""
        if rest:
            self._out(rest)

    def _out(self, sentence: str) -> None:
        if sentence:
            self.emitted += 1
            self.emit(sentence)


@dataclass
class Reply:
    """An answer for a live session."""

    text: str
    """The answer text."""
    citations: list[dict[str, Any]] = field(default_factory=list)
    """Events it rests on: event_id, time, offset, content."""
    spoken: int = 0
    """Sentences sent to playback."""
    interrupted: bool = False
    """Generation was stopped by barge-in or a newer question."""
    route: str = "log"
    """'live' (the pre-filled recent window) or 'log' (the ask core searching the whole log)."""


class AnswerCancelled(Exception):
    """Raised inside the model's token callback to stop generating."""
