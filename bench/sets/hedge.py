"""Whether an answer hedges: says it found nothing, is not sure, or offers only the nearest thing it has.

A wrong answer that does not hedge is a confident-wrong answer (bench/understand.py counts them): an assistant
on glasses that says "not that I can see" when it is unsure is more useful than one that states a wrong time.

    python bench/sets/hedge.py      # runs the examples below
"""

from __future__ import annotations

import re

NOTHING = re.compile(
    r"\bnothing\b(?! else)|\bno (?:record|mention|sign|evidence|information|entry|entries|note|event|events|trace|data)\b"
    r"|\bi (?:could ?n[o']t|can'?t|can ?not|cannot|did ?n[o']t|do ?n[o']t|was ?n[o']t able to|am unable to|was unable to) "
    r"(?:find|see|spot|locate)\b"
    r"|\bnot that i (?:can|could) (?:see|tell|find)\b"
    r"|\bnot (?:in|from|anywhere in) (?:the|your|my) (?:log|records?|notes|events)\b"
    r"|\b(?:the )?log (?:does ?n[o']t|did ?n[o']t|does not|did not) (?:say|show|mention|record)\b"
    r"|\b(?:does ?n[o']t|does not) (?:appear|show up) in\b|\bnone (?:found|recorded|logged)\b",
    re.I)
"""It says the log holds nothing on the question."""
UNSURE = re.compile(
    r"\bnot (?:sure|certain|clear)\b|\bunsure\b|\buncertain\b|\bunclear\b|\bhard to (?:say|tell)\b"
    r"|\b(?:can'?t|can ?not|cannot|could ?n[o']t) (?:tell|say|be sure|confirm|determine)\b|\bno way to (?:tell|know)\b"
    r"|\bi (?:do ?n[o']t|do not) know\b|\b(?:might|may|could) have\b|\bpossibly\b|\bperhaps\b|\bprobably\b|\bmaybe\b"
    r"|\bi (?:think|believe|guess)\b|\bit (?:seems|looks like|appears)\b|\bseems to\b|\bappears to\b|\blikely\b"
    r"|\b(?:the )?closest (?:is|was|match|thing|event|i (?:can|could) find)\b|\bthe nearest (?:is|was|thing|event|match)\b"
    r"|\bnot exactly\b|\bi only (?:see|have|found|know)\b|\bif i(?:'m| am) reading (?:this|it) right\b",
    re.I)
"""It says it is not sure, or gives the nearest thing instead of the thing asked."""


def says_nothing(answer: str) -> bool:
    """Whether the answer says it found nothing in the log."""
    return bool(NOTHING.search(_plain(answer)))


def hedged(answer: str | None) -> bool:
    """Whether the answer hedges (found nothing, not sure, only the closest thing); an empty answer hedges."""
    if not answer or not answer.strip():
        return True
    return says_nothing(answer) or bool(UNSURE.search(_plain(answer)))


def _plain(text: str | None) -> str:
    """Curly apostrophes as straight ones ("can\u2019t" -> "can't")."""
    return (text or "").replace("\u2019", "'")


EXAMPLES = [
    ("Nothing relevant in the log.", True), ("I couldn't find anything about the gym.", True),
    ("Not that I can see.", True), ("The closest is 14:05, when you opened the fridge.", True),
    ("I'm not sure; maybe around 9:30.", True), ("There's no record of you posting the card.", True),
    ("It seems you left it in the drawer.", True), ("You probably took it at 21:50.", True),
    ("You left the office at 17:42.", False), ("No, you didn't take it.", False), ("3 times.", False),
    ("Yes, at 07:55.", False), ("In the top desk drawer.", False),
    ("Nothing else happened after that: you went home.", False),
    ("No, you didn't see Anna: you phoned her at 13:00.", False), ("I can't see any gym visit today.", True),
    ("I can\u2019t find a record of that.", True),
]


def main() -> None:
    """Check the examples."""
    bad = [(text, want) for text, want in EXAMPLES if hedged(text) is not want]
    for text, want in bad:
        print(f"expected hedged={want}: {text!r}")
    print(f"{len(EXAMPLES) - len(bad)}/{len(EXAMPLES)} examples as expected")
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    main()
