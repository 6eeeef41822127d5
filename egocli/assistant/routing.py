"""How a live session's words are routed, and the state of a question the assistant asked back.

Routing is a few regexes, never a model call: a deictic question goes to pointing on the newest
frame, a tool-like request to the orchestrator, anything else to the ask core."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from egocli.perception.image import Frame

if TYPE_CHECKING:
    from egocli.pointing.resolve import Resolution

Ref = Any
"""The id a client gave its `ask` (echoed in the answer; any JSON value)."""
CONFIRM_TIMEOUT_S = 30.0
"""Seconds to wait for a yes or no; no answer means no."""
CLARIFY_TIMEOUT_S = 120.0
"""A clarification not answered within this long is dropped (the next utterance is a new request)."""
REMINDER_POLL_S = 3.0
"""Seconds between checks for due reminders."""
MAX_ROUNDS = 2
"""Clarifying questions asked for one request before giving up."""

_LEAD = (r"^\W*(?:(?:ok(?:ay)?|so|hey|um+|uh+|please|and|now|well)\W+)*"
         r"(?:(?:can|could|would|will)\s+you\s+)?(?:(?:please|tell\s+me|say)\s+)?")
_DEICTIC = re.compile(_LEAD + r"""(?:
      what(?:'s|\s+is|\s+are|'re)\s+(?:this|that|these|those)
    | what\s+(?:this|that|these|those)\s+(?:is|are)
    | what\s+am\s+i\s+(?:pointing\s+(?:at|to)|looking\s+at|holding)
    | what\s+(?:does|do)\s+(?:this|that|it|these)\s+say
    | read\s+(?:me\s+|out\s+)?(?:this|that|these|it)
    | remember\s+(?:this|that|these)
    | (?:identify|name)\s+(?:this|that)
    | what\s+(?:kind|type)\s+of\s+(?:thing|object)\s+is\s+(?:this|that)
    )\b(?P<rest>.*)$""", re.X | re.I)
_MEMORY_WORDS = frozenset("saw seen heard said did was were yesterday earlier ago before last today morning "
                          "evening afternoon week when".split())
_TOOLISH = re.compile(r"""\b(?:
      remind\s+me | set\s+(?:a\s+|an\s+)?(?:reminder|alarm|timer) | reminders? | to-?do
    | note\s+(?:that|down|this) | (?:add|take|make|save|write|keep)\s+(?:a\s+|this\s+as\s+a\s+)?note | notes
    | remember\s+that\s+\S+\s+\S+
    | mark\s+.{0,40}?\b(?:done|complete|completed|finished)
    | (?:delete|remove|forget|erase)\s+.{0,30}?\bnotes?
    | (?:analy[sz]e|evaluate|look\s+at)\s+.{0,20}?\b(?:board|position|game)
    | chess | fen | best\s+move | what\s+should\s+i\s+play
    | what\s+time\s+is\s+it | what(?:'s|\s+is)\s+the\s+(?:time|date) | what\s+day\s+is\s+(?:it|today)
    | search\s+(?:my\s+|the\s+)?(?:log|lifelog|memory)
    )\b""", re.X | re.I)


def route(text: str) -> str | None:
    """'pointing', 'tools' or None (a question for the ask core), from the words alone."""
    match = _DEICTIC.match(text)
    if match:
        rest = re.findall(r"[a-z]+", match.group("rest").lower())
        if len(rest) <= 3 and not _MEMORY_WORDS.intersection(rest):
            return "pointing"
    return "tools" if _TOOLISH.search(text) else None


@dataclass
class Pending:
    """A question this session's user has to answer before the request goes on."""

    kind: str
    """'confirm' (yes/no before a side effect), 'tools' or 'pointing' (a clarification)."""
    id: str
    """The id sent with the question; the client's confirm/reply carries it."""
    question: str
    """What was asked."""
    ref: Ref
    """The id of the ask that started the request."""
    request: str = ""
    """The request as understood so far (tools: with earlier questions and answers)."""
    asked: str = ""
    """The user's words that started it (the answer's `question`)."""
    spoken: bool = False
    """The request was spoken."""
    rounds: int = 1
    """Clarifying questions asked so far for this request."""
    future: asyncio.Future[bool] | None = None
    """Resolved with the user's yes/no (confirm)."""
    image: np.ndarray | None = None
    """The frame the pointing question is about."""
    resolution: Resolution | None = None
    """The ambiguous resolution (pointing)."""
    options: list[dict[str, str]] | None = None
    """The choices named in the question (pointing): [{key, text}]."""
    since: float = 0.0
    """When it was asked (the assistant's clock, seconds)."""


class Conversation(Protocol):
    """What the assistant needs of a live session (egocli.assistant.session.LiveSession, or a fake)."""

    id: str | None
    """The session id (None before it has a slot)."""
    source_id: int | None
    """The session's source in the log."""

    @property
    def frame(self) -> Frame | None:
        """The newest camera frame, or None."""
        ...

    async def send(self, msg: dict[str, Any]) -> None:
        """Deliver a control message to the client."""
        ...

    async def say(self, text: str) -> None:
        """Speak a short text on the session's playback."""
        ...
