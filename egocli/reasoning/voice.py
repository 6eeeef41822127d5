"""How computed answers are said: to the user as 'you', times as people say them ('yesterday at 12:30'), the
user's own phrase turned round ('my keys' -> 'your keys'), one full stop at the end."""

from __future__ import annotations

import re
from egocli.core.lexicon import lexicon
from egocli.core.timeutil import local
from egocli.reasoning import terms

_PERSON = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "we": "you", "us": "you",
           "our": "your", "ours": "yours", "i'm": "you're", "i've": "you've", "am": "are"}
"""First person -> second, word by word."""


def when(ms: int, at_ms: int) -> str:
    """A time as people say it, from the moment of asking: 'today at 13:02', 'yesterday at 12:30',
    'on Tuesday at 09:05' (this past week), 'on 17 Nov at 09:05'."""
    t, now = local(ms), local(at_ms)
    clock = t.strftime("%H:%M")
    days = (now.date() - t.date()).days
    if days == 0:
        return f"today at {clock}"
    if days == 1:
        return f"yesterday at {clock}"
    if 1 < days < 7:
        return f"on {t.strftime('%A')} at {clock}"
    return f"on {t.day} {t.strftime('%b')}{'' if t.year == now.year else t.strftime(' %Y')} at {clock}"


def you(phrase: str) -> str:
    """The user's phrase said back to them: 'my blood pressure tablet' -> 'your blood pressure tablet'."""
    return re.sub(r"[a-z']+", lambda m: _PERSON.get(m.group(0), m.group(0)), phrase.lower())


def is_verb(word: str) -> bool:
    """Whether the lexicon knows a word as a verb (one with a past of its own, or said the same in the past)."""
    word = word.lower()
    return word in _PAST_OF or word in _PAST_OF.values() or word in lexicon().words["same_past"]


def past(phrase: str) -> str:
    """A phrase whose first word is a verb, in the past: 'take my pills' -> 'took my pills', 'water the plants'
    -> 'watered the plants'; a phrase already past (or not starting with a verb it knows) is left as it is."""
    head, _, rest = phrase.partition(" ")
    word = head.lower()
    if word in _PAST_OF and word not in _PAST_OF.values():  # 'feed' -> 'fed' (ending in -ed is no past)
        return f"{_PAST_OF[word]} {rest}".strip()
    if word.endswith("ed") or word in _PAST_OF.values() or not word.isalpha():
        return phrase
    if word == "be":
        done = "were"
    elif word in lexicon().words["same_past"]:
        done = word
    elif word in _PAST_OF:
        done = _PAST_OF[word]
    elif word.endswith("e"):
        done = word + "d"
    elif re.search(r"[^aeiou]y$", word):
        done = word[:-1] + "ied"
    elif terms.gerund(word):
        return phrase
    elif re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", word):  # one syllable ending vowel-consonant: 'flip' -> 'flipped'
        done = word + word[-1] + "ed"
    else:
        done = word + "ed"
    return f"{done} {rest}".strip()


_PAST_OF: dict[str, str] = {}
for _form, _base in lexicon().irregular.items():
    _PAST_OF.setdefault(_base, _form)  # the first form listed for a verb is its simple past ('took', not 'taken')


def sentence(text: str) -> str:
    """A sentence with its first letter up and one full stop at the end (none doubled after a quoted line)."""
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"[.\s]+$", "", text)
    if not text:
        return text
    end = "" if text[-1] in "?!" else "."
    return text[0].upper() + text[1:] + end


def say_duration(ms: int) -> str:
    """A duration as the answers say it: "45 s", "2 min 5 s", "1 h 20 min", "3 days 2 h"."""
    minutes, seconds = divmod(max(ms, 0) // 1000, 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    if days:
        return f"{days} day{'s' if days > 1 else ''} {hours} h" if hours else f"{days} day{'s' if days > 1 else ''}"
    if hours:
        return f"{hours} h {minutes} min"
    return (f"{minutes} min {seconds} s" if seconds else f"{minutes} min") if minutes else f"{seconds} s"
