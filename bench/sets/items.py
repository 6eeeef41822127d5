"""The questions of the life-log sets as one item type, loaded round-robin over (set, form)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from bench.sets import lifeweek
from egocli.usecases import evaluate


@dataclass(frozen=True)
class Item:
    """One question of a set, open or multiple choice."""

    set: str
    """'epic' or 'life'."""
    qid: str
    """Its id."""
    form: str
    """last, where, after, count, order, duration (open); span, thing, order (multiple choice)."""
    question: str
    """As asked."""
    at: str
    """Local ISO time it is asked at."""
    choices: tuple[str, ...] = ()
    """Options (multiple choice)."""
    correct: int | None = None
    """Right option's index (multiple choice)."""
    gold: dict | None = None
    """Gold answer (open)."""
    evidence: tuple[tuple[str | int, str], ...] = ()
    """(time, content) of the events the gold rests on: epoch ms, or local ISO."""

    @property
    def kind(self) -> str:
        """'mcq' or 'open'."""
        return "mcq" if self.choices else "open"


def load_items(base: Path, sets: list[str]) -> list[Item]:
    """Questions of the chosen sets, round-robin over (set, form) so a partial run stays balanced."""
    queues: dict[tuple[str, str], list[Item]] = {}
    if "epic" in sets:
        for q in json.loads((base / "epic_week.json").read_text())["questions"]:
            _add(queues, Item("epic", q["id"], q["form"], q["question"], q["at"], gold=q["gold"],
                              evidence=tuple(map(tuple, q["evidence"]))))
    if "life" in sets:
        for q in json.loads(lifeweek.OPEN.read_text()):
            _add(queues, Item("life", q["id"], q["form"], q["question"], q["at"], gold=q["gold"],
                              evidence=tuple(map(tuple, q["evidence"]))))
        raw = json.loads(lifeweek.MCQ.read_text())
        for q in evaluate.load_questions(lifeweek.MCQ):
            extra = raw[q.qid]
            _add(queues, Item("life", q.qid, "mc-" + extra["form"], q.question, extra["at"], q.choices, q.correct,
                              evidence=tuple(map(tuple, extra["evidence"]))))
    out: list[Item] = []
    for i in range(max((len(q) for q in queues.values()), default=0)):
        out += [q[i] for _, q in sorted(queues.items()) if i < len(q)]
    return out


def _add(queues: dict[tuple[str, str], list[Item]], item: Item) -> None:
    queues.setdefault((item.set, item.form), []).append(item)
