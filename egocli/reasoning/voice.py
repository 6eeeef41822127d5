"""How computed answers are said: to the user as 'you', times as people say them ('yesterday at 12:30'), the
user's own phrase turned round ('my keys' -> 'your keys'), one full stop at the end."""

from __future__ import annotations

import re
from egocli.core.lexicon import lexicon
from egocli.core.timeutil import local
from egocli.reasoning import actions, kinds, terms

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


def day_named(text: str, said_ms: int, at_ms: int) -> str:
    """The day a line names, said in full from the moment of asking ('ready Tue after 3pm', read on Monday the 14th
    and asked that evening: 'tomorrow, Tuesday 15 December'), when it names one day and does not say it in full
    already; else ''."""
    from egocli.reasoning.coming import said_days

    spans = said_days(text, said_ms)
    if not spans or spans[0][0] != spans[0][1]:
        return ""
    day, today = spans[0][0], local(at_ms).date()
    full = f"{day.strftime('%A')} {day.day} {day.strftime('%B')}"
    if full.split()[0].lower() in text.lower() and day.strftime("%B").lower() in text.lower():
        return ""
    ahead = (day - today).days
    near = {0: "today, ", 1: "tomorrow, ", -1: "yesterday, "}.get(ahead, "")
    return f"{near}{full}{'' if day.year == today.year else f' {day.year}'}"


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


_OF_WORDS = lexicon().words["thing_of"]
"""Words after a first word that make it a thing ('a letter from the bank'), not an act."""
_DETERMINERS = lexicon().words["person_articles"]
"""Words after a verb we do not know that make it one ('clean the car'); 'blood test' is a thing."""
_JOINS = lexicon().words["person_joins"]
"""Words that join people ('Lisa and Ellie left')."""


def did(edge: str, phrase: str, when: str, content: str) -> str:
    """'You last took your tablet yesterday at 09:00: Lisinopril tablet with water.' (for an act); 'Your first
    note: today at 08:10: ...' (for a thing)."""
    first = phrase.split()[0].lower()
    if kinds.asked(phrase) is not None and first not in kinds.ACTS:  # 'call from the doctors': a thing of a kind
        return sentence(f"Your {edge} {you(phrase).removeprefix('your ')}: {when}: {content}")
    if (split := subject(phrase)) is not None:  # 'Dad phoned': Dad last phoned ...
        who, act = split
        return sentence(f"{who} {edge} {past(you(act))} {when}: {content}")
    if terms.gerund(first) and terms.stem(first) in actions.CLASS:  # 'reading at the cafe'
        return sentence(f"You were {edge} {you(phrase)} {when}: {content}")
    said = phrase.lower().split()
    known = terms.stem(first) in actions.CLASS or is_verb(first)
    nounish = not known and (len(said) == 1 or said[1] in _OF_WORDS  # 'letter from the bank', 'email about it'
                             or (said[1] not in _DETERMINERS and not first.endswith("ed")))  # 'blood test'
    if ((actions.parse(phrase).verb is not None or known) and not nounish) or first.endswith("ed"):
        return sentence(f"You {edge} {past(you(phrase))} {when}: {content}")
    return sentence(f"Your {edge} {you(phrase).removeprefix('your ')}: {when}: {content}")


def subject(phrase: str) -> tuple[str, str] | None:
    """(who, what they did) of a phrase that says someone else did it ('Dad phoned', 'the takeaway got here'):
    a first word that is no verb and no preposition, then a verb among the next three; else None."""
    said = phrase.split()
    def verb(word: str) -> bool:
        w = word.lower()
        return is_verb(w) or terms.stem(w) in actions.CLASS or (w.endswith("ed") and len(w) > 4)
    if len(said) < 2 or verb(said[0]) or said[0].lower() in actions.PREPOSITIONS or terms.gerund(said[0]) \
            or said[1].lower() in _DETERMINERS:  # 'charge my phone': a verb we do not know
        return None
    at = next((i for i in range(1, min(len(said), 4)) if verb(said[i])), 0)
    if not at or any(w.lower() in actions.PREPOSITIONS - _JOINS for w in said[1:at]):
        return None
    who = " ".join(you(w) if you(w) != w.lower() else w for w in said[:at])  # 'my sister': your sister
    return who[:1].upper() + who[1:], " ".join(said[at:])


def thing(phrase: str) -> str:
    """The thing a where-phrase names, as said back: 'put my keys' -> 'keys', 'find the lanyard' -> 'lanyard'."""
    head, _, rest = phrase.partition(" ")
    if rest and (is_verb(head) or terms.stem(head.lower()) in actions.CLASS) and not terms.gerund(head):
        phrase = rest  # the model's plan may keep the verb of 'where did I put my keys'
    return you(phrase).removeprefix("your ").removeprefix("the ")


def was(thing: str) -> str:
    """'was' or 'were' after a thing ('your keys were', 'your purse was')."""
    last = thing.split()[-1] if thing.split() else ""
    return "were" if last.endswith("s") and not last.endswith(("ss", "'s", "us")) else "was"


def looser(phrase: str) -> list[str]:
    """The thing of a phrase named more loosely, in order: cut at the first word that starts a clause or a place
    ('keys when I got in', 'card with the date on' -> 'keys', 'card'), then without the words before its last
    ('irene's new flowers' -> 'new flowers', 'flowers'), then without the words after its first ('cash mrs okafor
    gave me' -> 'cash'): a thing the log names without whose it is or which one."""
    said = thing(phrase).split()
    cut = next((i for i, w in enumerate(said) if i and w in _CLAUSE), len(said))
    said = said[:cut]
    tails = [said[i:] for i in range(1, len(said))]
    heads = [said[:i] for i in range(len(said) - 1, 0, -1)]
    out = [" ".join(said)] if said and _names_a_thing(said[-1]) else []
    out += [" ".join(w) for w in [*tails, *heads] if _names_a_thing(w[-1])]
    return [p for p in dict.fromkeys(out) if p != thing(phrase)]


def _names_a_thing(word: str) -> bool:
    """Whether a word may end a thing's name: no stop word, possessive, verb or word of three letters or fewer."""
    return len(word) > 2 and word not in terms.STOP and not word.endswith("'s") and not is_verb(word) \
        and terms.stem(word) not in actions.CLASS and word not in _MODIFIERS


_MODIFIERS = frozenset("new old big small little other same last first next spare".split())
"""Words that say which one, never the thing."""
_CLAUSE = frozenset("when while after before that which who whose with from on in at into i you me he she they we "
                    "my your his her our their".split())
"""Words that start a clause or a place after a thing ('the keys when I got in', 'the card with the date on')."""


_PLAIN_OPENERS = frozenset("you your the it there a an this that he she they his her their today yesterday by on at "
                           "in last about".split())


_PLACING = frozenset("in on at by under behind inside beside next".split())


def seems(text: str, lead: str = "It seems") -> str:
    """A reading said as one, not as a computed fact: 'It seems Tasha came and got you at 15:04.', 'It seems to be
    in the red drawer.'"""
    first = text.split(maxsplit=1)[0].lower().rstrip(",:") if text.strip() else ""
    lead = f"{lead} to be" if lead == "It seems" and first in _PLACING else lead
    return f"{lead} {text[:1].lower() + text[1:] if first in _PLAIN_OPENERS else text}"


AS_READ = "If I'm reading this right,"
"""How an answer computed from the model's plan of the question opens: the plan is the 1.5B model's reading of
words the rules could not read, so the answer is said as resting on it. On the first 200 questions of the dev sets
(errands, shifts, weekdays, visits, flatshare, market) the model's plans turned 5 hedged answers right and 7 into
wrong ones said as fact."""
