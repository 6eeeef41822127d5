"""Masking personal data in text: phone numbers, e-mail addresses, card numbers, custom patterns.

Only kinds and counts of what was masked are ever reported, never the masked text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from egocli.core.errors import ConfigError

_DIGIT_WORDS = "zero|oh|one|two|three|four|five|six|seven|eight|nine"
_PATTERNS: dict[str, str] = {
    "email": r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}",
    "card": r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])",
    "phone": (r"(?<![\w+])(?:\+\d{1,3}[\s.-]{0,2})?(?:\(\d{1,4}\)[\s.-]?)?\d{2,5}(?:[\s.-]{0,2}\d{2,5}){1,5}(?![\w])"
              rf"|\b(?:(?:{_DIGIT_WORDS})[\s,.-]+){{6,}}(?:{_DIGIT_WORDS})\b"),
}
BUILTIN_KINDS = tuple(_PATTERNS)
"""Built-in kinds, in the order they are applied."""
_DATE = re.compile(r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}")


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def _plausible(kind: str, match: str) -> bool:
    """Filters regex hits: cards pass the Luhn check, phones have 7-15 digits and are not dates."""
    if kind == "card":
        return _luhn(_digits(match))
    if kind == "phone":
        digits = _digits(match)
        if not digits:  # spoken digits ("five five five ...")
            return True
        return 7 <= len(digits) <= 15 and not _DATE.fullmatch(match.strip())
    return True


@dataclass
class TextRedactor:
    """Replaces matches of the enabled kinds with [kind]; counts what it replaced."""

    kinds: Sequence[str] = BUILTIN_KINDS
    """Built-in kinds to mask."""
    custom: dict[str, str] = field(default_factory=dict)
    """Extra kinds: name -> regular expression."""

    def __post_init__(self) -> None:
        unknown = [k for k in self.kinds if k not in _PATTERNS]
        if unknown:
            raise ConfigError(f"[privacy] kinds: unknown {', '.join(unknown)} (known: {', '.join(BUILTIN_KINDS)})")
        self._compiled: list[tuple[str, re.Pattern[str]]] = [
            (k, re.compile(_PATTERNS[k], re.IGNORECASE)) for k in self.kinds]
        for name, pattern in self.custom.items():
            try:
                self._compiled.append((name, re.compile(pattern)))
            except re.error as ex:
                raise ConfigError(f"[privacy.custom] {name}: not a valid regular expression: {ex}") from ex

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """Non-overlapping (start, end, kind) spans to mask, in text order."""
        taken: list[tuple[int, int, str]] = []
        for kind, rx in self._compiled:
            for m in rx.finditer(text):
                if m.end() > m.start() and _plausible(kind, m.group()) and \
                        not any(a < m.end() and m.start() < b for a, b, _ in taken):
                    taken.append((m.start(), m.end(), kind))
        return sorted(taken)

    def redact(self, text: str) -> tuple[str, dict[str, int]]:
        """The text with every match replaced by [kind], and {kind: count}."""
        spans = self.spans(text)
        if not spans:
            return text, {}
        out: list[str] = []
        pos = 0
        counts: dict[str, int] = {}
        for a, b, kind in spans:
            out += [text[pos:a], f"[{kind}]"]
            counts[kind] = counts.get(kind, 0) + 1
            pos = b
        out.append(text[pos:])
        return "".join(out), counts

    def redact_pieces(self, pieces: Sequence[str], joiner: str = " ") -> tuple[list[str], dict[str, int]]:
        """Mask pieces (ASR words, OCR regions) as one text: a number split over pieces is still found.

        The part of each piece inside a match becomes [kind]."""
        spans = self.spans(joiner.join(pieces))
        counts: dict[str, int] = {}
        for _, _, kind in spans:
            counts[kind] = counts.get(kind, 0) + 1
        out, start = [], 0
        for piece in pieces:
            end = start + len(piece)
            cut = [(max(a, start) - start, min(b, end) - start, k) for a, b, k in spans if a < end and start < b]
            text, pos = [], 0
            for a, b, kind in cut:
                text += [piece[pos:a], f"[{kind}]"]
                pos = b
            out.append("".join(text) + piece[pos:])
            start = end + len(joiner)
        return out, counts


def merge_counts(*parts: dict[str, int]) -> dict[str, int]:
    """Add count dicts together."""
    total: dict[str, int] = {}
    for part in parts:
        for k, v in part.items():
            total[k] = total.get(k, 0) + v
    return total

