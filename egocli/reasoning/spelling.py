"""Words of a question typed wrong, read as the log's words ('how long were we at the hosptial', 'when did joy
find my magnifyer'): a word the log never holds, one slip from a word it does, is that word.

A slip is two neighbouring letters swapped; a letter missing, a letter too many or a letter typed for another
only in a long word (in a short one it turns one real word into another: 'carer' is not 'care', nor 'fennel'
'funnel'). A word of English (the embedder's vocabulary, models.catalog.english_words), of the lexicon (a
question word, a time word) or of the log is taken as meant: 'times' or 'spend' absent from a kitchen log are not
slips of 'tims' or 'send'; without the English vocabulary nothing is changed. The log's own search index says
which words it holds (stemmed, as the search reads them), so only the question's unknown words are looked up and
a year of events costs what a day does; of several repairs the one the log holds most often wins."""

from __future__ import annotations

import functools
import re
import string

from egocli.core.lexicon import apostrophes, lexicon
from egocli.core.words import STOPWORDS
from egocli.models.catalog import english_words
from egocli.store import Store
from egocli.store import windows as store_windows

SHORTEST = 5
"""Words shorter than this are left as typed: too many repairs of them are other words."""
LONG = 7
"""Words at least this long may also be repaired by a letter dropped, added or typed for another."""
_WORD = re.compile(r"[a-z]+")
_CAP = 1000
"""Events counted per word at most."""


@functools.cache
def _meant() -> frozenset[str]:
    """Words never taken for slips: English (empty when its vocabulary is not installed), the lexicon's and the
    search's stop words."""
    english = english_words()
    if not english:
        return frozenset()
    lex = lexicon()
    out: set[str] = set(STOPWORDS) | english
    for group in lex.words.values():
        out |= set(group)
    for key in ("weekdays", "months", "parts", "moments", "ordinals"):
        value = lex.time.get(key, ())
        out |= set(value.split() if isinstance(value, str) else value)
    return frozenset(out)


def _slips(word: str) -> list[str]:
    """Words one slip from `word`: swapped neighbours, and in a long word a letter dropped, added or changed."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    swaps = [a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1 and b[0] != b[1]]
    if len(word) < LONG:
        return swaps
    drops = [a + b[1:] for a, b in splits if b]
    adds = [a + c + b for a, b in splits for c in string.ascii_lowercase]
    subs = [a + c + b[1:] for a, b in splits if b for c in string.ascii_lowercase if c != b[0]]
    return list(dict.fromkeys(w for w in swaps + drops + adds + subs if w != word))


def corrected(store: Store, question: str) -> str:
    """The question with each word the log lacks, one slip from a word it holds, replaced by that word."""
    known = _meant()
    if not known:
        return question
    out = question
    for typed in dict.fromkeys(_WORD.findall(apostrophes(question.lower()))):
        if len(typed) < SHORTEST or typed in known or store_windows.match_count(store, typed, 1):
            continue
        best, best_n = None, 0
        for slip in _slips(typed):
            n = store_windows.match_count(store, slip, _CAP)
            if n > best_n:
                best, best_n = slip, n
        if best is not None:
            out = re.sub(rf"(?i)\b{typed}\b", best, out)
    return out
