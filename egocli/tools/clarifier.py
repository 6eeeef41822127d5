"""The clarifier: one short question instead of a guess when a request (or a plan) is underspecified.

Two deterministic checks around the model's plan: before it, a request whose only object is a bare
pronoun ("remind me about it", "what is this?"); after it, calls whose arguments are empty or not
grounded in the request (a reminder time the user never said).
"""

from __future__ import annotations

import re
from typing import Any

from egocli.core.words import REQUEST_FILLER
from egocli.tools.reminders import in_users_words

_WORD = re.compile(r"[a-z0-9']+")
DEICTIC = frozenset("it this that these those there here him her them".split())
_TIME_HINT = re.compile(
    r"\d|\b(today|tonight|tomorrow|morning|noon|midday|afternoon|evening|midnight|minutes?|hours?|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|weekend|later today)\b", re.I)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def precheck(request: str) -> str | None:
    """A clarifying question when the request refers to something it never names; else None."""
    words = _words(request)
    if not words:
        return "What would you like me to do?"
    deictic = [w for w in words if w in DEICTIC]
    content = [w for w in words if w not in DEICTIC and w not in REQUEST_FILLER and not _TIME_HINT.match(w)]
    if not deictic or content:
        return None
    if "remind" in words or "reminder" in words:
        return "What should I remind you about, and when?"
    if "note" in words or "save" in words:
        return "What should the note say?"
    return f"What do you mean by '{deictic[0]}'? Describe it or point the camera at it."


_FEN = re.compile(r"[pnbrqkPNBRQK1-8]+(?:/[pnbrqkPNBRQK1-8]+){7}"
                  r"(?:\s+[wb](?:\s+(?:-|[KQkq]{1,4}))?(?:\s+(?:-|[a-h][36]))?(?:\s+\d+){0,2})?")


def normalise(request: str, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """Arguments completed from the user's own words: a FEN the model copied only in part becomes
    the user's whole FEN (side to move, castling...), a reminder's text gets the user's casing ('call Mum',
    where the model wrote 'call mum'). Nothing is invented, nothing else changes."""
    if tool == "reminder_add" and isinstance(args.get("text"), str):
        return {**args, "text": in_users_words(args["text"], request)}
    fen = args.get("fen") if tool == "chess_analyse" else None
    if not isinstance(fen, str) or not fen.strip():
        return args
    for match in _FEN.finditer(request):
        full = match.group(0).strip()
        if full != fen.strip() and full.startswith(fen.strip()):
            return {**args, "fen": full}
    return args


def _empty(value: Any) -> bool:
    return isinstance(value, str) and not value.strip()


def postcheck(request: str, tool: str, args: dict[str, Any]) -> str | None:
    """A clarifying question when a validated call lacks something only the user can say; else None."""
    if tool == "reminder_add":
        if _empty(args.get("text")):
            return "What should I remind you about?"
        if _empty(args.get("due")) or not _TIME_HINT.search(request):
            return f"When should I remind you to {args['text'].strip()}?"
    if tool == "note_add" and _empty(args.get("text")):
        return "What should the note say?"
    if tool == "chess_analyse" and _empty(args.get("fen")) and _empty(args.get("frame")):
        return "Which position? Give me a FEN, or look at the board."
    fen = args.get("fen") if tool == "chess_analyse" else None
    if isinstance(fen, str) and fen.strip() and fen.split()[0] not in request:  # a position the user never gave
        return "Should I read the board from the camera, or can you give me the FEN?"
    if tool == "memory_search" and _empty(args.get("query")):
        return "What should I look for?"
    if tool == "memory_ask" and _empty(args.get("question")):
        return "What would you like to know?"
    return None



_YES = re.compile(r"^(yes|yeah|yep|yup|sure|ok|okay|confirm|confirmed|correct|right|affirmative|absolutely|"
                  r"of course)?( ?(do it|go ahead|do that|that's right))?$")
_NO = re.compile(r"^(no|nope|nah|cancel|stop|never mind|nevermind|negative|not now|no way)?"
                 r"( ?(don't|do not)( do it| do that)?)?$")
_POLITE = re.compile(r"\b(please|thanks|thank you)\b")


def yes_no(reply: str) -> bool | None:
    """True for a plain yes, False for a plain no, None for anything else (not an answer to a yes/no question)."""
    text = " ".join(_words(reply))
    text = " ".join(_POLITE.sub(" ", text).split())
    if not text:
        return None
    if _YES.match(text):
        return True
    if _NO.match(text):
        return False
    return None
