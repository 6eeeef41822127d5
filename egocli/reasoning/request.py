"""What an ask takes and gives: the request, the assembled context, citations and the answer (value
objects shared by the ask steps in egocli.reasoning.asker and the service, and by their callers)."""

from __future__ import annotations

from dataclasses import dataclass, field

from egocli.reasoning import hcc, neuro, retrieval, tcot
from egocli.reasoning.scope import Scope
from egocli.store.summaries import Summary

NOTHING = "Nothing relevant in the log."
OPEN_BUDGET = 500
"""Default context tokens for an open question: it rests on a line or two, and prefill time is the latency."""
CHOICE_BUDGET = 800
"""Default context tokens with choices: evidence for (or against) up to five options. On 66 HD-EPIC
questions 800 scored as well as 1200 (28/66 each, 900: 30/66) at 27% less prompt time; 1200 finds the
gold span more often (context recall 0.76 vs 0.64), so `--budget 1200` is there for slow, careful runs."""


@dataclass(frozen=True)
class AskRequest:
    """A question and how to answer it."""

    question: str
    """The question as typed."""
    choices: tuple[str, ...] = ()
    """Multiple-choice options (up to five); empty for an open question."""
    at_ms: int | None = None
    """When the question is asked from (default now)."""
    since_ms: int | None = None
    """Only look at events from this time."""
    until_ms: int | None = None
    """Only look at events before this time."""
    videos: dict[int, str] = field(default_factory=dict)
    """'video N' -> source name or id."""
    votes: int = 5
    """Prompt variants majority-voted (multiple choice)."""
    budget: int | None = None
    """Context tokens (summaries + storyline); None: OPEN_BUDGET for open questions, CHOICE_BUDGET with choices."""
    hcc: bool = True
    """Prepend query-aware summaries."""
    tcot: bool = True
    """Pick windows around anchors and hits (off: an even sample of the scope)."""
    baseline: str | None = None
    """'recent': no retrieval, T-CoT or HCC, just the newest events before the question up to the budget."""
    symbolic: bool = True
    """Check options against their own evidence and compute open-question forms in code (neuro.py)."""
    llm: bool = True
    """Ask the model (off: the symbolic answer, or a template, alone)."""
    model_plan: bool = True
    """Let the model plan an open question the rules read no answer for (neuro._second_reading)."""
    model_reading: bool = True
    """Let the model read the context before a computed plan's 'not that I can see' (asker._read_before_no)."""

    @property
    def tokens(self) -> int:
        """The context budget in effect."""
        if self.budget is not None:
            return self.budget
        return CHOICE_BUDGET if self.choices else OPEN_BUDGET


@dataclass(frozen=True)
class Context:
    """Everything assembled before the model runs."""

    scope: Scope
    """The question's scope."""
    question: str
    """The question rewritten explicitly."""
    storyline: tcot.Storyline
    """T-CoT windows and their events."""
    summaries: list[Summary]
    """HCC summaries prepended."""
    hits: list[retrieval.Hit]
    """Retrieved events, best first."""
    relevant: bool
    """False when nothing in the scope matches the question."""
    checked: neuro.Checked | None = None
    """The symbolic part: per-option scores and evidence, or an open question's computed finding."""

    @property
    def text(self) -> str:
        """The context the model reads."""
        parts = []
        if self.summaries:
            parts.append("Summaries:\n" + hcc.render(self.summaries))
        if self.checked is not None and self.checked.block:
            parts.append(self.checked.block)
        if self.storyline.text:
            parts.append("Events:\n" + self.storyline.text)
        return "\n\n".join(parts)


@dataclass(frozen=True)
class Citation:
    """An event an answer rests on (`egocli log show ID`)."""

    event_id: int
    """Event id."""
    time: str
    """Local time."""
    offset: str | None
    """'v1 4:30' inside a bound video."""
    content: str
    """The event's text."""


@dataclass(frozen=True)
class Answer:
    """An answer with its evidence."""

    question: str
    """The question as asked."""
    rewritten: str
    """The explicit question the model saw."""
    letter: str | None
    """The chosen option letter (multiple choice)."""
    text: str
    """The option's text, or the model's sentence."""
    confidence: float | None
    """Vote share of the winning letter."""
    votes: list[tuple[str, str | None]]
    """(variant instruction, letter) per variant."""
    citations: list[Citation]
    """Events the answer rests on."""
    context: Context
    """The assembled context."""
    prompt_tokens: int
    """Prompt tokens over all variants."""
    output_tokens: int
    """Generated tokens over all variants."""
    latency_s: float
    """Seconds from question to answer."""
    scores: tuple[float, ...] = ()
    """The symbolic scorer's score per option (empty without it)."""
    decided_by: str = "model"
    """Which part chose: 'model', 'symbolic' (scorer or computed finding), 'template' or 'none'."""
