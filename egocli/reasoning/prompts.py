"""Prompts: one shared context prefix, the question rewritten explicitly, options as A-E, variant last."""

from __future__ import annotations

import re
from collections.abc import Sequence

from egocli.core.lexicon import lexicon
from egocli.models.base import Message
from egocli.reasoning.answer import letters_for
from egocli.reasoning.scope import Scope, rewrite_tags
from egocli.core.timeutil import local

SYSTEM = ("You answer questions about the user's own life log, recorded by smart glasses. "
          "Use only the log given. Times like 'v1 4:30' are offsets into video 1.")

MCQ_VARIANTS = (
    "Which option is correct? Reply with its letter.",
    "Compare each option with the log entries at those times or with those words, then reply with the letter "
    "of the option the log supports.",
    "Look for the log lines that match the question. Which option do they confirm? Letter only.",
    "Rule out the options that contradict the log. The remaining option's letter is:",
    "Answer as the person who lived this log would: which letter is right?",
)
OPEN_SYSTEM = ("You answer questions about the user's own life log, recorded by their smart glasses. Each log line "
               "is something the user (\"I\") did, saw, heard or said, with its time (24-hour clock). "
               "Use only the log given. "
               "Times like 'v1 4:30' are offsets into video 1.")
"""Open questions: saying that the lines are the user's own doings stops small models abstaining on them."""
OPEN_INSTRUCTION = ("Copy the log line that answers the question, then answer what was asked (where, what, who...) "
                    "in one sentence that also says when it happened, speaking to the user as \"you\", as:\n"
                    "Line: <the log line>\nAnswer: <your answer>\n"
                    "If no log line answers the question, reply exactly: nothing relevant in the log.")
"""Quote first, then answer: the copied line grounds the answer and is checked against the context."""


def normalise_choice(choice: str | Sequence[str]) -> str:
    """One option as a single line: lists joined with commas, time tags as `v1 4:30`."""
    text = ", ".join(str(c) for c in choice) if isinstance(choice, list | tuple) else str(choice)
    text = re.sub(r"\s*\(video \d+\)", "", rewrite_tags(text))
    return re.sub(r"\s+", " ", text).strip()


def options_block(choices: Sequence[str]) -> str:
    """'A. ...' lines for up to five choices."""
    letters = letters_for(len(choices))
    return "\n".join(f"{letter}. {normalise_choice(c)}" for letter, c in zip(letters, choices))


def rewrite_question(question: str, scope: Scope) -> str:
    """An explicit version of the question: time tags rewritten, 'this video' and relative days named."""
    text = rewrite_tags(question.strip())
    if len(scope.videos) == 1:
        text = re.sub(r"\bthis video\b", "video 1", text, flags=re.I)
    if scope.windows and scope.notes and not scope.videos:
        lo = max(min(w[0] for w in scope.windows), 0)
        hi = max(w[1] for w in scope.windows)
        fmt = "%a %d %b %Y %H:%M"
        span = f"{local(lo).strftime(fmt)} to {local(min(hi, scope.at_ms)).strftime(fmt)}" if lo else \
            f"before {local(scope.at_ms).strftime(fmt)}"
        text += f" (time scope: {span})"
    if scope.backwards:
        text += " (the most recent time counts)"
    return text


def prefix(context: str, question: str, choices: Sequence[str], at_ms: int) -> str:
    """The part every variant shares: log, the moment of asking, question and options."""
    asked = local(at_ms).strftime("%a %d %b %Y %H:%M")
    body = f"LOG\n{context}\n\nNow: {asked}\nQUESTION: {question}"
    if choices:
        body += "\nOPTIONS:\n" + options_block(choices)
    return body


def messages(shared: str, instruction: str, system: str = SYSTEM) -> list[Message]:
    """Chat messages for one variant: the shared prefix first, the variant's instruction last."""
    return [{"role": "system", "content": system}, {"role": "user", "content": f"{shared}\n\n{instruction}"}]


def variants(votes: int) -> list[str]:
    """The first `votes` MCQ instructions (cycled when more are asked for)."""
    return [MCQ_VARIANTS[i % len(MCQ_VARIANTS)] for i in range(max(votes, 1))]


def rotation(variant: int, count: int) -> list[int]:
    """The order variant `variant` shows `count` options in: rotated by one per variant, so over the votes each
    option stands at each letter (a 1.5B model leans to "A": with the right option third on the bundled
    example it voted the first one 3 to 2). Shown letter k is option order[k]."""
    return [(k + variant) % count for k in range(count)] if count else []


def open_messages(shared: str) -> list[Message]:
    """Chat messages for an open question (instruction last: moving it into the system message, ahead of
    the log, made the 1.5B model skip the copied line and guess)."""
    return messages(shared, OPEN_INSTRUCTION, OPEN_SYSTEM)


PICK_SYSTEM = ("You read lines from a person's life log and pick the one line that answers their question. "
               "Reply with the number of that line only. Reply 0 if no line answers it.")
"""Choosing among the best retrieved lines: a number under a grammar, no words of the model's own."""


def pick_messages(question: str, at: str, lines: Sequence[tuple[str, str]]) -> list[Message]:
    """The chat asking which of the numbered lines ((local time, text), in the order shown) answers a question."""
    shown = "\n".join(f"{i}. [{when}] {text}" for i, (when, text) in enumerate(lines, 1))
    return [{"role": "system", "content": PICK_SYSTEM},
            {"role": "user", "content": f"Asked {at}: {question}\n\nLines:\n{shown}\n\nWhich line answers the question?"}]


def pick_grammar(count: int) -> str:
    """A GBNF grammar whose only outputs are 0 (none) to `count`."""
    return "root ::= " + " | ".join(f'"{i}"' for i in range(count + 1))


_WHETHER = frozenset(lexicon().words["yes_no_openers"])


def asks_whether(question: str) -> bool:
    """Whether a question asks yes or no by its first word ('did', 'has', 'was' ...: the lexicon's)."""
    first = question.strip().lower().split()[:1]
    return bool(first) and first[0] in _WHETHER
