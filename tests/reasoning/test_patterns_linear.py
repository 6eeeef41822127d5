"""No pattern of the question grammar backtracks without end: every compiled pattern in reasoning/ and core/,
and each rule of the fast path, is matched against long questions that almost fit (many words, none of the words
a pattern waits for), under an alarm. 'what did i take from hereford station up to the county hospital' once
hung `ask` for minutes: a word repeated with an optional space between ('([\\w'-]+ ?)+?') splits a word every way."""

from __future__ import annotations

import importlib
import pkgutil
import re
import signal

import pytest

import egocli.core
import egocli.reasoning
from egocli.reasoning import fastpath, understand
from egocli.reasoning.scope import parse_scope

SECONDS = 5
"""A pattern that runs this long on a 40-word question is exponential (a linear one takes microseconds)."""
OPENERS = ("what did ", "what does the ", "how many ", "where did i ", "did i ", "is the ", "when did i ",
           "how much did ", "why did ", "what was i doing after ", "which came first ", "")
BODIES = (" ".join(["the", "county", "hospital", "station", "up", "from"] * 7),
          "abcdefghij" * 6 + " " + "x y " * 20,
          "it's-a well-known co-op's half-price ham " * 6)


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    out = [(f"fastpath rule {i} ({rule.form})", rule.pattern) for i, rule in enumerate(fastpath.RULES)]
    for package in (egocli.reasoning, egocli.core):
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                inside = value.values() if isinstance(value, dict) else value if isinstance(value, (tuple, list)) \
                    else (value,)
                for item in inside:
                    item = getattr(item, "pattern", item) if not isinstance(item, re.Pattern) else item
                    if isinstance(item, re.Pattern):
                        out.append((f"{info.name}.{name}", item))
    return out


class _Slow(Exception):
    pass


def _alarm(*_):
    raise _Slow


@pytest.mark.parametrize("body", BODIES)
def test_no_pattern_backtracks_without_end(body):
    old = signal.signal(signal.SIGALRM, _alarm)
    slow = []
    try:
        for where, pattern in _patterns():
            for opener in OPENERS:
                signal.alarm(SECONDS)
                try:
                    pattern.search(opener + body)
                except _Slow:
                    slow.append(f"{where}: {opener!r}")
                finally:
                    signal.alarm(0)
    finally:
        signal.signal(signal.SIGALRM, old)
    assert not slow, slow


def test_the_question_that_hung_reads_a_plan_at_once():
    question = "what did i take from hereford station up to the county hospital"
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS)
    try:
        plan = understand.by_rules(question, parse_scope(question, 0))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert plan is not None and "hospital" in plan.action
