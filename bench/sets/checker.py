"""Scores an open answer against a gold answer in code (no LLM), one rule per gold kind.

Gold kinds (a dict with "kind" and its fields):

- ``time``: ``{"ms": epoch ms, "tolerance_s": 60}`` (or ``"time"``: a local ISO time). Correct when the
  answer's first clock time ("09:01", "9:01:40", "9.01 am", "21:05") lies within the tolerance of the gold
  time, the stated precision counting in the answer's favour ("09:01" covers 09:01:00-09:01:59): an answer
  listing every time it knows gets no credit for a later one. If the answer names a day ("Tuesday", "Tue",
  "2026-11-17", "17 Nov", "today", "yesterday", "3 days ago", relative to the question's time), the nearest
  one before that clock time (else the first after it) must be the gold's day; with no day named it counts
  only when the gold is on the day the question is asked.
- ``count``: ``{"n": int}``. The first number in the answer that is not part of a clock time or a date
  ("3", "three", "twice", "once", "never"/"not at all" = 0) must equal n.
- ``yesno``: ``{"yes": bool}``. The first yes-word ("yes", "yeah", "correct") or no-word ("no", "not",
  "didn't", "never", "did not") decides; without either, an answer restating the order of the question's
  two actions decides (asked "did I take the clothes before I turned on the kettle?", "I took the clothes
  before I turned on the kettle" and "I turned on the kettle after taking the clothes" are yes, "I took the
  clothes after ..." is no), and a bare "you did" is a yes.
- ``words``: ``{"all": [[alternative, ...], ...]}``. Every group must have one alternative in the answer, as a
  word (letters around it end the match), an alternative's plural or its past/gerund forms counting. A
  parenthesis starting "(after ..." or "(before ..." names the moment the answer was counted from, not the
  answer, and is left out.
- ``first``: ``{"first": [alternative, ...], "then": [...]}``. The answer names one of the first's
  alternatives before any of the then's ('Which came first, X or Y?': "the onion first, then the pan").
- ``duration``: ``{"ms": int, "rel": 0.3, "abs_s": 5}``. A duration in the answer ("45 seconds", "2 minutes",
  "1 min 20 s", "an hour and a half", or two clock times "from 09:01:10 to 09:01:40") within
  max(abs_s, rel x gold) of the gold.

Any answer saying there is nothing relevant ("Nothing relevant in the log.") is wrong for every kind:
every gold answer here is in the log.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from egocli.core.timeutil import local

NOTHING = re.compile(r"\bnothing relevant\b|\bno (?:relevant )?(?:record|information|mention)\b|\bi (?:do not|don't) know\b",
                     re.I)
ANCHOR = re.compile(r"\((?:after|before|following)\b[^)]*\)", re.I)
"""'(after X at 14:22)': an answer's note of what it was counted from, which is not the answer."""
_CLOCK = re.compile(r"(?<![\d:.])(\d{1,2})[:.](\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(am|pm|a\.m\.|p\.m\.)?(?![\d])", re.I)
_DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DAY_MONTH = re.compile(r"(?<![:.\d])(\d{1,2})(?:st|nd|rd|th)?\s+(" + "|".join(_MONTHS) + r")[a-z]*\b", re.I)
_MONTH_DAY = re.compile(r"\b(" + "|".join(_MONTHS) + r")[a-z]*\s+(\d{1,2})(?:st|nd|rd|th)?\b(?![:.]\d)", re.I)
_WEEKDAY = re.compile(r"\b(mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?\b", re.I)
_RELATIVE = re.compile(r"\b(today|this (?:morning|afternoon|evening)|tonight|yesterday|last night|(\d+|two|three|four|"
                       r"five|six|seven) days ago)\b", re.I)
_NUMBER_WORDS = {"zero": 0, "none": 0, "never": 0, "once": 1, "one": 1, "a single": 1, "twice": 2, "two": 2,
                 "three": 3, "thrice": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15}
_YES = re.compile(r"\b(yes|yeah|yep|correct|indeed)\b", re.I)
_NO = re.compile(r"\b(no|not|didn't|did not|never|nope|afterwards|only after)\b", re.I)
_UNITS = {"second": 1, "sec": 1, "s": 1, "minute": 60, "min": 60, "m": 60, "hour": 3600, "hr": 3600, "h": 3600,
          "day": 86400}
_DURATION = re.compile(r"(?:\b(an?|one|two|three|four|five|ten|twenty|thirty|forty|fifty|half an?)\s+"
                       r"|(?<![\w.:])(\d+(?:\.\d+)?)\s*)"
                       r"(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?)\b", re.I)
"""A number then its unit: a word number stands alone before a unit word ('a minute', not the 'a' in 'was' or the
'hairdresser' before "'s"); a digit starts a number ('41 minutes', '5m')."""


def is_nothing(answer: str) -> bool:
    """Whether the answer says the log holds nothing on the question."""
    return bool(NOTHING.search(answer))


def check(answer: str, gold: dict, at_ms: int, question: str = "") -> bool:
    """Whether an open answer matches its gold answer (see the module docstring for the rules); the question
    helps read a yes/no answer that restates the order instead of saying yes or no."""
    if not answer.strip() or is_nothing(answer):
        return False
    kind = gold["kind"]
    if kind == "time":
        return check_time(answer, gold["ms"], at_ms, gold.get("tolerance_s", 60))
    if kind == "count":
        return first_number(answer) == gold["n"]
    if kind == "yesno":
        return yes_no(answer, question) is gold["yes"]
    if kind == "words":
        said = ANCHOR.sub(" ", answer)
        return all(any(has_word(said, alt) for alt in group) for group in gold["all"])
    if kind == "first":
        said = ANCHOR.sub(" ", answer)
        return _first_at(said, gold["first"]) < _first_at(said, gold["then"])
    if kind == "duration":
        got = duration_s(answer)
        limit = max(gold.get("abs_s", 5), gold.get("rel", 0.3) * gold["ms"] / 1000)
        return got is not None and abs(got - gold["ms"] / 1000) <= limit
    raise ValueError(f"unknown gold kind {kind!r}")


def _first_at(answer: str, words: list[str]) -> float:
    """Where the answer first names one of the words (any of their forms); infinity when it names none."""
    spots = [m.start() for w in words for form in word_forms(w)
             for m in re.finditer(rf"(?<![a-z]){re.escape(form)}(?![a-z])", answer.lower())]
    return min(spots, default=float("inf"))


def clock_times(answer: str) -> list[tuple[int, int, int | None, int]]:
    """(hour, minute, second or None, end index) of each clock time in the text, 24-hour."""
    out = []
    for m in _CLOCK.finditer(answer):
        hour, minute = int(m.group(1)), int(m.group(2))
        second = int(m.group(3)) if m.group(3) else None
        ampm = (m.group(4) or "").lower().replace(".", "")
        hour += 12 if ampm == "pm" and hour < 12 else 0
        hour = 0 if ampm == "am" and hour == 12 else hour
        if hour < 24 and minute < 60 and (second is None or second < 60):
            out.append((hour, minute, second, m.start()))
    return out


def named_days(answer: str, at_ms: int) -> list[tuple[int, date]]:
    """(position, date) of each day the text names, resolved against the question's time."""
    asked = local(at_ms).date()
    found: list[tuple[int, date]] = []
    for m in _ISO.finditer(answer):
        found.append((m.start(), date(int(m.group(1)), int(m.group(2)), int(m.group(3)))))
    for m in _DAY_MONTH.finditer(answer):
        found.append((m.start(), _month_day(asked, _MONTHS.index(m.group(2)[:3].lower()) + 1, int(m.group(1)))))
    for m in _MONTH_DAY.finditer(answer):
        found.append((m.start(), _month_day(asked, _MONTHS.index(m.group(1)[:3].lower()) + 1, int(m.group(2)))))
    for m in _WEEKDAY.finditer(answer):
        back = (asked.weekday() - [d[:3] for d in _DAYS].index(m.group(1).lower())) % 7
        found.append((m.start(), asked - timedelta(days=back)))
    for m in _RELATIVE.finditer(answer):
        word = m.group(1).lower()
        back = 1 if word in ("yesterday", "last night") else _count_word(m.group(2)) if m.group(2) else 0
        found.append((m.start(), asked - timedelta(days=back)))
    return sorted(found, key=lambda p: p[0])


def _month_day(asked: date, month: int, day: int) -> date:
    try:
        guess = date(asked.year, month, day)
    except ValueError:
        return date(1, 1, 1)
    return guess if guess <= asked + timedelta(days=1) else guess.replace(year=asked.year - 1)


def _count_word(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBER_WORDS.get(word.lower(), 0)


def check_time(answer: str, gold_ms: int, at_ms: int, tolerance_s: int = 60) -> bool:
    """The answer's first clock time within tolerance of the gold, on the gold's day (see module docstring)."""
    gold = local(gold_ms)
    days = named_days(answer, at_ms)
    for hour, minute, second, pos in clock_times(answer)[:1]:
        before = [d for p, d in days if p <= pos]
        day = before[-1] if before else days[0][1] if days else local(at_ms).date()
        if day != gold.date():
            continue
        lo = datetime.combine(day, datetime.min.time()).replace(hour=hour, minute=minute, second=second or 0,
                                                                tzinfo=gold.tzinfo)
        hi = lo + timedelta(seconds=0 if second is not None else 59)
        if lo - timedelta(seconds=tolerance_s) <= gold <= hi + timedelta(seconds=tolerance_s):
            return True
    return False


def first_number(answer: str) -> int | None:
    """The first count the text states, skipping clock times, dates and ordinal days."""
    text = _CLOCK.sub(" ", _ISO.sub(" ", _DAY_MONTH.sub(" ", _MONTH_DAY.sub(" ", answer))))
    text = re.sub(r"\bnot at all\b|\bno times?\b", " zero ", text, flags=re.I)
    words = "|".join(sorted(map(re.escape, _NUMBER_WORDS), key=len, reverse=True))
    m = re.search(rf"(?<![\w.])(\d+)(?![\w.]|\.\d)|\b({words})\b", text, re.I)
    if m is None:
        return None
    return int(m.group(1)) if m.group(1) else _NUMBER_WORDS[m.group(2).lower()]


def yes_no(answer: str, question: str = "") -> bool | None:
    """True for a yes-answer, False for a no-answer (whichever word comes first); with neither, an answer that
    restates the order of the question's two actions ("did I X before Y?" - "I did X before Y" / "Y came after
    X" are yes); a bare "you did" is a yes; None when it says none of these."""
    yes, no = _YES.search(answer), _NO.search(answer)
    if yes and (not no or yes.start() < no.start()):
        return True
    if no:
        return False
    restated = _restated(answer, question)
    if restated is not None:
        return restated
    return True if re.search(r"\b(you|i) did\b", answer, re.I) else None


_PLAIN = {"did", "does", "the", "my", "you", "your", "before", "after", "then", "first", "this", "that", "with",
          "today", "yesterday", "earlier", "have", "was", "were", "which", "when"}


def _content(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in _PLAIN}


def _restated(answer: str, question: str) -> bool | None:
    """Whether the answer claims the question's first action came first, from which action it names before
    its 'before'/'after'; None when that cannot be told."""
    said, asked = re.search(r"\b(before|after)\b", answer, re.I), re.search(r"\bbefore\b", question, re.I)
    if said is None or asked is None:
        return None
    first, then = _content(question[: asked.start()]), _content(question[asked.end():])
    head = _content(answer[: said.start()])
    x, y = len(head & (first - then)), len(head & (then - first))
    if x == y:
        return None
    return (said.group(1).lower() == "before") == (x > y)


_IRREGULAR = {"take": ("took", "taken", "taking"), "put": ("put", "put", "putting"), "cut": ("cut", "cut", "cutting"),
              "get": ("got", "gotten", "getting"), "throw": ("threw", "thrown", "throwing"),
              "shake": ("shook", "shaken", "shaking"), "break": ("broke", "broken", "breaking"),
              "hang": ("hung", "hung", "hanging"), "leave": ("left", "left", "leaving"),
              "set": ("set", "set", "setting"), "tear": ("tore", "torn", "tearing"),
              "drink": ("drank", "drunk", "drinking"), "eat": ("ate", "eaten", "eating"),
              "hold": ("held", "held", "holding"), "make": ("made", "made", "making"),
              "buy": ("bought", "bought", "buying"), "pay": ("paid", "paid", "paying"),
              "see": ("saw", "seen", "seeing"), "say": ("said", "said", "saying"), "go": ("went", "gone", "going"),
              "tell": ("told", "told", "telling"), "give": ("gave", "given", "giving"),
              "meet": ("met", "met", "meeting"), "ride": ("rode", "ridden", "riding"),
              "lose": ("lost", "lost", "losing"), "find": ("found", "found", "finding"),
              "send": ("sent", "sent", "sending"), "write": ("wrote", "written", "writing"),
              "speak": ("spoke", "spoken", "speaking"), "bring": ("brought", "brought", "bringing"),
              "stir": ("stirred", "stirred", "stirring"), "chop": ("chopped", "chopped", "chopping"),
              "flip": ("flipped", "flipped", "flipping"), "grab": ("grabbed", "grabbed", "grabbing"),
              "scrub": ("scrubbed", "scrubbed", "scrubbing"), "drop": ("dropped", "dropped", "dropping"),
              "snip": ("snipped", "snipped", "snipping"), "tip": ("tipped", "tipped", "tipping"),
              "dip": ("dipped", "dipped", "dipping"), "wrap": ("wrapped", "wrapped", "wrapping"),
              "stop": ("stopped", "stopped", "stopping"), "plug": ("plugged", "plugged", "plugging"),
              "wear": ("wore", "worn", "wearing"), "stick": ("stuck", "stuck", "sticking"),
              "sweep": ("swept", "swept", "sweeping"), "spread": ("spread", "spread", "spreading"),
              "grind": ("ground", "ground", "grinding"), "shut": ("shut", "shut", "shutting"),
              "split": ("split", "split", "splitting"), "keep": ("kept", "kept", "keeping"),
              "choose": ("chose", "chosen", "choosing"), "freeze": ("froze", "frozen", "freezing"),
              "bend": ("bent", "bent", "bending"), "lay": ("laid", "laid", "laying"), "run": ("ran", "run", "running"),
              "blow": ("blew", "blown", "blowing"), "feed": ("fed", "fed", "feeding"), "hit": ("hit", "hit", "hitting"),
              "let": ("let", "let", "letting"), "sit": ("sat", "sat", "sitting"), "stand": ("stood", "stood", "standing"),
              "wring": ("wrung", "wrung", "wringing"), "fall": ("fell", "fallen", "falling"),
              "begin": ("began", "begun", "beginning"), "have": ("had", "had", "having"), "do": ("did", "done", "doing"),
              "read": ("read", "read", "reading"), "catch": ("caught", "caught", "catching")}


def verb_forms(verb: str) -> tuple[str, str, str]:
    """(past, participle, gerund) of an English verb: a table of irregular and doubling verbs, else the rules."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("e") and not verb.endswith("ee"):
        return verb + "d", verb + "d", verb[:-1] + "ing"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ied", verb[:-1] + "ied", verb + "ing"
    if re.fullmatch(r"[^aeiou]+[aeiou][^aeiouwxy]", verb):  # one syllable ending consonant-vowel-consonant
        return verb + verb[-1] + "ed", verb + verb[-1] + "ed", verb + verb[-1] + "ing"
    return verb + "ed", verb + "ed", verb + "ing"


def plural(noun: str) -> str:
    """The plural of a noun (last word), by the common rules."""
    if re.search(r"(s|x|z|ch|sh|o)$", noun) and not noun.endswith(("oo", "eo")):
        return noun + "es"
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    if noun.endswith("fe"):
        return noun[:-2] + "ves"
    return noun + "s"


def word_forms(word: str) -> set[str]:
    """A word and the forms an answer may use for it: plural, third person, past, participle, gerund."""
    word = word.lower()
    last = word.split()[-1]
    head = word[: len(word) - len(last)]
    forms = {last, plural(last), last + "s", *verb_forms(last)}
    return {head + f for f in forms}


def has_word(answer: str, word: str) -> bool:
    """Whether the answer uses the word (or one of its forms) as a whole word or phrase."""
    text = answer.lower()
    return any(re.search(rf"(?<![a-z{'0-9' if f[:1].isdigit() else ''}]){re.escape(f)}(?![a-z{'0-9' if f[-1:].isdigit() else ''}])",
                         text) for f in word_forms(word))  # a number is no part of another ('9' is not in '19:49')


_AMOUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10, "twenty": 20,
            "thirty": 30, "forty": 40, "fifty": 50}


def _amount(word: str) -> float:
    word = word.lower()
    if word.startswith("half"):
        return 0.5
    return float(word) if word[0].isdigit() else float(_AMOUNTS.get(word, 0))


def duration_s(answer: str) -> float | None:
    """Seconds of the first duration the answer states (its units summed, "and a half" counted), else the
    span between its first two clock times."""
    found = []
    for m in _DURATION.finditer(answer):  # the first duration only: its units side by side ("1 h 5 min")
        if found and not re.fullmatch(r"[\s,]*(?:and\s+)?", answer[found[-1].end():m.start()]):
            break
        found.append(m)
    if found:
        total = sum(_amount(m.group(1) or m.group(2)) * _UNITS[_unit(m.group(3))] for m in found)
        if re.search(r"\band a half\b", answer, re.I):
            total += _UNITS[_unit(found[-1].group(3))] / 2
        return total
    clocks = clock_times(answer)
    if len(clocks) >= 2:
        (h1, m1, s1, _), (h2, m2, s2, _) = clocks[:2]
        return float((h2 * 3600 + m2 * 60 + (s2 or 0)) - (h1 * 3600 + m1 * 60 + (s1 or 0)))
    return None


def _unit(word: str) -> str:
    word = word.lower()
    return word if word in _UNITS else word.rstrip("s") if word.rstrip("s") in _UNITS else word[:3].rstrip("s")
