"""The scorer and the model together: the per-option evidence block the model reads, and who decides.

The combination (documented in docs/ask.md): when the model is not used (`--no-llm`), the scorer's top
option is the answer. Otherwise, when the scorer's margin is clear (top score at least CLEAR_MARGIN
above the runner-up, relative to the top) and the top score is at least MIN_SCORE, the scorer decides
and the model is not asked. Otherwise the model votes (with the evidence block in its context) and each
option's total is its votes plus PRIOR_VOTES times its softmax share of the scorer's scores (temperature
PRIOR_TEMPERATURE): the scorer's ranking is a prior worth up to PRIOR_VOTES votes, so that of five votes the
model needs about four to overrule a scorer that leads, and ties go the scorer's way. On the 305 HD-EPIC
questions the scorer alone was right on 227 of the 229 with a clear margin (0.25), and on 68 of the 76 without
one; its wrong answers all had a margin of 0.05 or less.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from egocli.reasoning import choices as opts
from egocli.reasoning.answer import letters_for
from egocli.reasoning.evidence import strip_tags
from egocli.reasoning.symbolic import Judgement, softmax
from egocli.reasoning.tcot import Renderer, approx_tokens

CLEAR_MARGIN = 0.1
"""Relative margin from which the scorer alone decides."""
MIN_SCORE = 0.2
"""A top score below this is too weak to decide alone, whatever the margin."""
PRIOR_VOTES = 2.5
"""What the scorer's ranking is worth, in model votes, when the model decides."""
PRIOR_TEMPERATURE = 0.05
"""Softmax temperature turning scores (0..1) into the prior's shares."""
EVENT_WIDTH = 70


@dataclass(frozen=True)
class Decision:
    """The chosen option and which part chose it."""

    letter: str | None
    """A-E, or None when neither part found an answer."""
    decided_by: str
    """'symbolic' (the scorer alone), 'model' (votes, with the scorer as prior) or 'none'."""
    totals: tuple[float, ...] = ()
    """Per option: votes + prior (model), or the scores (symbolic)."""


def clear(judgement: Judgement | None) -> bool:
    """Whether the scorer's evidence is decisive on its own."""
    if judgement is None or judgement.best is None:
        return False
    return judgement.scores[judgement.best].score >= MIN_SCORE and judgement.margin >= CLEAR_MARGIN


def symbolic_only(judgement: Judgement | None) -> Decision:
    """The scorer's top option, or no answer when no option has evidence."""
    if judgement is None or judgement.best is None:
        return Decision(None, "none", tuple(s.score for s in judgement.scores) if judgement else ())
    return Decision(judgement.scores[judgement.best].letter, "symbolic", tuple(s.score for s in judgement.scores))


def with_votes(judgement: Judgement | None, votes: Sequence[str | None], count: int) -> Decision:
    """Votes plus the scorer's prior; ties go to the earlier option."""
    letters = letters_for(count)
    scores = [s.score for s in judgement.scores] if judgement is not None and judgement.best is not None else []
    shares = softmax(scores, PRIOR_TEMPERATURE) if scores else [0.0] * count
    totals = [sum(v == letter for v in votes) + PRIOR_VOTES * shares[i] for i, letter in enumerate(letters)]
    if max(totals, default=0.0) <= 0:
        return Decision(None, "none", tuple(totals))
    best = max(range(count), key=lambda i: (totals[i], -i))
    return Decision(letters[best], "model", tuple(totals))


def _label(o: opts.Option, renderer: Renderer) -> str:
    if o.kind == opts.SPANS:
        shown = [f"{renderer.stamp(s.start_ms, s.source_id)}-{renderer.stamp(s.end_ms, s.source_id).split(' ')[-1]}"
                 for s in o.spans[:3]]
        return ", ".join(shown) + (f" +{len(o.spans) - 3} more" if len(o.spans) > 3 else "")
    return " ".join(strip_tags(o.text).split()[:8])


def block(judgement: Judgement, renderer: Renderer, budget: int = 260) -> str:
    """A compact evidence block, one line per option: 'A (v1 6:22-6:40): [v1 6:22] step: ...'."""
    parsed = {o.index: o for o in judgement.options}
    lines = []
    per_line = max(budget // max(len(judgement.scores), 1), 30)
    for i, s in enumerate(judgement.scores):
        o = parsed.get(i)
        head = f"{s.letter} ({_label(o, renderer)})" if o is not None else s.letter
        if not s.events:
            lines.append(f"{head}: nothing found in the log")
            continue
        found = []
        for ev in s.events[:4]:
            text = ev.content if len(ev.content) <= EVENT_WIDTH else ev.content[:EVENT_WIDTH].rstrip() + "..."
            found.append(f"[{renderer.stamp(ev.start_ms, ev.source_id)}] {text}")
        line = f"{head}: " + "; ".join(found)
        while approx_tokens(line) > per_line and len(found) > 1:
            found.pop()
            line = f"{head}: " + "; ".join(found)
        lines.append(line)
    return "\n".join(lines)

