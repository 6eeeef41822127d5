"""Free text -> a safe FTS5 query for the log's full-text search."""

from __future__ import annotations

from egocli.core.errors import StoreError, UsageError
from egocli.store.records import clean_text
from egocli.core.words import STOPWORDS  # fts_query drops them

MAX_SEARCH_WORDS = 64
"""The most different words (or FTS5 terms) one full-text search may hold."""
_OPERATORS = frozenset({"AND", "OR", "NOT", "NEAR"})


def fts_query(text: str) -> str:
    """Turn free text into a safe FTS5 query: each word quoted once, OR-ed for recall, stop words dropped.

    Text that already uses FTS5 syntax (quotes, AND/OR/NOT, NEAR, a trailing *) is passed
    through unchanged. More than MAX_SEARCH_WORDS words is refused: FTS5's cost grows with the
    square of the matching terms (8,000 of them took over a second, a million would take hours)."""
    stripped = clean_text(text).strip()
    if not stripped:
        raise StoreError("empty search")
    words = [w for w in "".join(c if c.isalnum() or c in "'-" else " " for c in stripped).split() if w]
    syntax = any(tok in stripped for tok in ('"', " AND ", " OR ", " NOT ", "NEAR(")) or stripped.endswith("*")
    words = [w for w in words if w not in _OPERATORS] if syntax else _distinct(words)
    if len(words) > MAX_SEARCH_WORDS:
        raise UsageError(f"the search has {len(words):,} {'terms' if syntax else 'different words'}; "
                         f"at most {MAX_SEARCH_WORDS} are searched for")
    if syntax:
        return stripped
    if not words:
        raise StoreError(f"nothing to search for in {text!r}")
    words = [w for w in words if w.lower() not in STOPWORDS] or words
    return " OR ".join('"' + w.replace('"', '') + '"' for w in words)


def _distinct(words: list[str]) -> list[str]:
    """Each word once (first spelling, first place); FTS5 matches case-insensitively anyway."""
    first: dict[str, str] = {}
    for w in words:
        first.setdefault(w.lower(), w)
    return list(first.values())
