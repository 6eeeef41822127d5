"""The word lists egocli ignores when it matches text: one home for every stop-word list.

`STOPWORDS` is the list: full-text queries, retrieval terms and live-answer citations drop it. The
other lists are what particular matchers ignore on top of (or instead of) it; each keeps the exact
words its matcher was tuned with, since changing one changes which events are cited or retrieved.
"""

from __future__ import annotations

STOPWORDS = frozenset(
    "a an and are as at be by did do does for from had has have he her his how i if in is it its me my "
    "of on or our she so that the their them then there they this to was we were what when where which "
    "who why will with you your".split())
"""Function words: dropped from search queries and retrieval terms (no content to match on)."""

CITATION_FILLER = frozenset(
    "the and video are was were you your with for from that this then there they have had has not but "
    "into onto its his her their our".split())
"""Words of three letters or more too common to tie an answer to an event (answer citations)."""

QUESTION_FILLER = frozenset(
    "what when where which who whom whose does did have last time that this with from about there were "
    "today yesterday morning afternoon evening night week ago hours minutes days".split())
"""Words that say when or how a question asks, not what about (is a quoted event on the question's topic?)."""

REQUEST_FILLER = frozenset(
    "a an and are as at be by can could did do does for from had has have how i i'd i'm if in is me my "
    "of on or please should so the to was were what what's whats where which who why will with would you "
    "your remind reminder tell show say said about again later something thing stuff one just "
    "now then when set note save add ok okay hey can't mean put leave left".split())
"""Words of a request to the assistant that name no object (with the pronouns: "remind me about it"
names nothing, so the clarifier asks)."""
