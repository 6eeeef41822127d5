"""`egocli ask` on a terminal shows its answer once (it streams it, and does not print it again), as in a
pipe; the 'summaries missing' advice is given once a day per log, not on every question."""

from __future__ import annotations

import pytest

from tests.doorstep import egocli, imported, needs_terminal

QUESTIONS = ["did I call anyone?", "did I go swimming?", "where did I put my keys?"]


@needs_terminal
@pytest.mark.parametrize("question", QUESTIONS)
def test_the_answer_is_shown_once_on_a_terminal_and_in_a_pipe(db, question):
    imported(db)
    piped = egocli("--db", db, "ask", "--no-llm", question, EGOCLI_EMBEDDER="fake")
    assert piped.code == 0, piped.err
    answer = piped.out.splitlines()[0]
    assert piped.out.count(answer) == 1
    shown = egocli("--db", db, "ask", "--no-llm", question, tty=True, EGOCLI_EMBEDDER="fake")
    assert shown.code == 0, shown.out
    assert shown.plain.count(answer) == 1, shown.plain


def test_missing_summaries_are_mentioned_once_a_day(db):
    imported(db, start="5h ago")  # events in the last day, in more hours than ask builds summaries for
    first = egocli("--db", db, "ask", "--no-llm", "did I call anyone?", EGOCLI_EMBEDDER="fake")
    assert first.code == 0 and "egocli summarize" in first.err, first.err
    again = egocli("--db", db, "ask", "--no-llm", "where did I put my keys?", EGOCLI_EMBEDDER="fake")
    assert again.code == 0 and "summar" not in again.err, again.err
    other = imported(db.with_name("other.db"), start="5h ago")  # another log: its own advice
    assert "egocli summarize" in egocli("--db", other, "ask", "--no-llm", "did I call anyone?",
                                        EGOCLI_EMBEDDER="fake").err
