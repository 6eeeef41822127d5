"""The stop-word lists egocli ignores when it matches text, by use; the words themselves are in the lexicon
(core/data/lexicon.toml, [stopwords]).

`STOPWORDS` is the list: full-text queries, retrieval terms and live-answer citations drop it. The
other lists are what particular matchers ignore on top of (or instead of) it; each keeps the exact
words its matcher was tuned with, since changing one changes which events are cited or retrieved.
"""

from __future__ import annotations

from egocli.core.lexicon import lexicon

_STOP = lexicon().stopwords
STOPWORDS = _STOP["search"]
"""Function words: dropped from search queries and retrieval terms (no content to match on)."""
CITATION_FILLER = _STOP["citation"]
"""Words of three letters or more too common to tie an answer to an event (answer citations)."""
QUESTION_FILLER = _STOP["question"]
"""Words that say when or how a question asks, not what about (is a quoted event on the question's topic?)."""
REQUEST_FILLER = _STOP["request"]
"""Words of a request to the assistant that name no object (with the pronouns: "remind me about it"
names nothing, so the clarifier asks)."""
