"""What a question asks, as data: the typed plan every open question becomes before anything is computed, and
what a form's computation is given (the log, the scope, the embedder).

A plan is made by rules (understand.py's fast path) or by the model under a JSON-schema grammar; either way
the registry (forms.py) computes its answer from the store and the model at most phrases it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from egocli.models.base import Embedder
from egocli.reasoning import voice
from egocli.reasoning.scope import Scope
from egocli.reasoning.tcot import Renderer
from egocli.store import Event, Store

RELATIONS = ("", "after", "before", "between", "first", "last", "arrive", "leave", "stay")
"""What `QuestionPlan.relation` may be: how the action stands to the other one, or which end of a list."""


@dataclass(frozen=True)
class QuestionPlan:
    """A question understood: which form it is and the slots that form reads."""

    form: str
    """The form's name in the registry (forms.FORMS): 'last', 'count', 'next', 'digest', ..."""
    action: str = ""
    """What was done or asked about, in the user's words: 'take my blood pressure tablet', 'passport'."""
    other: str = ""
    """The second action of a two-action form (order, which, gap): 'went to the pharmacy'."""
    relation: str = ""
    """'after', 'before' or 'between' (next, order, gap), 'first' or 'last' (which, edge, list), 'arrive', 'leave'
    or 'stay' (guest: when someone came, left, how long they stayed), 'whether' (said:
    'did Helen say X?' asks a yes or no, read by the rules only); or ''."""
    by: str = "rules"
    """Who made the plan: 'rules' (the fast path) or 'model' (the grammar-constrained parse)."""


@dataclass
class Asked:
    """What a form computes from: the log, the question's scope and the embedder (None: words only)."""

    store: Store
    """The event log."""
    scope: Scope
    """Where and from when the question looks."""
    embedder: Embedder | None = None
    """Sentence embedder for matching by meaning."""
    question: str = ""
    """The question as asked (a span's words when its scope names no time: 'summarize my morning')."""

    @cached_property
    def stamp(self) -> Callable[[int, int | None], str]:
        """How a time is said in an answer: stamp(ms, source_id), an offset in a bound video ('v1 4:30'), else
        as people say it from the moment of asking ('yesterday at 12:30')."""
        renderer = Renderer(self.scope.videos, self.scope.at_ms)

        def stamp(ms: int, source_id: int | None) -> str:
            if source_id in renderer.videos:
                return renderer.stamp(ms, source_id)
            return voice.when(ms, self.scope.at_ms)
        return stamp


@dataclass(frozen=True)
class Finding:
    """What the log says to an open question of a known form."""

    form: str
    """The name of the form that computed it (forms.FORMS)."""
    text: str
    """The answer as a template sentence (used when no model phrases it)."""
    events: tuple[Event, ...]
    """Events cited, the one whose time the answer gives first; empty when nothing matched."""
    facts: str
    """The computed facts, for the model to phrase."""
    found: bool = True
    """Whether the log held what was asked (False: nothing did; `events` then holds at most the closest one, cited
    as not the same)."""

    @property
    def answered(self) -> bool:
        """Whether it answers from events about the question (not a found-nothing with or without a closest)."""
        return self.found and bool(self.events)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", tidy(self.text))


def tidy(text: str) -> str:
    """An answer's sentence cleaned where log lines were set into it: one full stop where a quoted line ended
    with its own ('ten..', 'ten.;'), no 'at on Saturday' or 'at today at', a capital first letter."""
    text = re.sub(r"(?<!\.)\.\.(?!\.)", ".", text)
    text = re.sub(r"(?<!\.)\.\s*([;,)])", r"\1", text)
    text = re.sub(r"\bat (on \w+ at|today at|yesterday at|on \d+ \w+ at)\b", r"\1", text)
    return text[:1].upper() + text[1:]
