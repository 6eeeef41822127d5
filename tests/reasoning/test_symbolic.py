"""The symbolic scorer on a constructed cooking video (real store, real MiniLM), alone and with a model."""

from __future__ import annotations

import pytest

from egocli.models.fake import ScriptedModel
from egocli.reasoning import asker, symbolic
from egocli.store import NewEvent, Store

from .conftest import AT
from .minilm import indexed

pytestmark = pytest.mark.slow
NAME = "kitchen-2026-11-20"
S = 1000
LOG = [  # (start s, end s, modality, text)
    (0, 400, "activity", "make tomato soup"),
    (410, 900, "activity", "bake the flatbread"),
    (905, 1300, "activity", "wash up and tidy the counter"),
    (30, 95, "step", "Tomato Soup step: chop the onions and the garlic finely"),
    (100, 160, "step", "Tomato Soup step: fry the onions in olive oil until soft"),
    (170, 260, "step", "Tomato Soup step: add the tomatoes and simmer for twenty minutes"),
    (270, 330, "step", "Tomato Soup step: blend the soup and season with salt and pepper"),
    (420, 520, "step", "Flatbread step: mix flour, yeast and warm water into a dough"),
    (600, 700, "step", "Flatbread step: roll out the dough and bake in a hot oven"),
    (101, 104, "ingredient", "added 2 tbsp olive oil to Tomato Soup"),
    (110, 113, "ingredient", "added 1 onion to Tomato Soup"),
    (175, 181, "ingredient", "added 400 g tomatoes to Tomato Soup"),
    (290, 292, "ingredient", "added 1 tsp salt to Tomato Soup"),
    (300, 302, "ingredient", "added black pepper to Tomato Soup"),
    (430, 436, "ingredient", "added 300 g flour to Flatbread"),
    (440, 442, "ingredient", "added 1 tsp yeast to Flatbread"),
]


def _tag(sec: float) -> str:
    h, rest = divmod(int(sec), 3600)
    m, s = divmod(rest, 60)
    return f"<TIME {h:02d}:{m:02d}:{s:02d}.000 video 1>"


def _span(a: float, b: float) -> str:
    return f"From {_tag(a)} to {_tag(b)}"


@pytest.fixture
def kitchen() -> tuple[Store, object]:
    store = Store.open(None)
    src = store.add_source("import", NAME, start_ms=AT, status="done")
    store.add_events([NewEvent(AT + a * S, AT + b * S, kind, text) for a, b, kind, text in LOG], source_id=src.id)
    return store, indexed(store)


def _ask(store, embedder, question, choices, **kw) -> asker.Answer:
    req = asker.AskRequest(question, tuple(choices), at_ms=AT + 10**8, videos={1: NAME}, hcc=False, **kw)
    llm = kw.pop("model", None) or ScriptedModel("E")
    return asker.answer(llm, asker.assemble(store, req, embedder), req)


def test_span_options_pick_the_span_where_the_thing_happened(kitchen):
    store, emb = kitchen
    choices = [_span(300, 302), _span(175, 181), _span(290, 292), _span(430, 436), _span(110, 113)]
    ans = _ask(store, emb, "When was the salt added to the tomato soup?", choices, llm=False)
    assert ans.letter == "C" and ans.decided_by == "symbolic"
    assert len(ans.scores) == 5 and ans.scores[2] == max(ans.scores)
    assert any("salt" in c.content for c in ans.citations)


def test_step_spans_against_the_quoted_steps_in_order(kitchen):
    store, emb = kitchen
    q = 'When did I do each of these steps: "fry the onions in olive oil", "roll out the dough"?'
    choices = [f"{_tag(600)} to {_tag(700)}, {_tag(100)} to {_tag(160)}",
               f"{_tag(100)} to {_tag(160)}, {_tag(600)} to {_tag(700)}",
               f"{_tag(30)} to {_tag(95)}, {_tag(420)} to {_tag(520)}"]
    ans = _ask(store, emb, q, choices, llm=False)
    assert ans.letter == "B"


def test_items_within_the_questions_span(kitchen):
    store, emb = kitchen
    q = f"Between {_tag(428)} and {_tag(445)}, which of these ingredients were added?"
    ans = _ask(store, emb, q, ["olive oil", "tomatoes", "yeast", "black pepper", "onions"], llm=False)
    assert ans.letter == "C"


def test_sequences_scored_by_order_agreement(kitchen):
    store, emb = kitchen
    choices = [["salt", "onion", "olive oil", "tomatoes"], ["olive oil", "onion", "tomatoes", "salt"],
               ["tomatoes", "olive oil", "salt", "onion"], ["onion", "salt", "tomatoes", "olive oil"]]
    ans = _ask(store, emb, "In what order were the ingredients added to the soup?",
               [", ".join(c) for c in choices], llm=False)
    assert ans.letter == "B"
    judgement = ans.context.checked.judgement
    assert judgement.mode == "sequence" and judgement.scores[1].score == pytest.approx(1.0)
    assert symbolic.kendall_tau([3, 2, 1]) == -1.0 and symbolic.kendall_tau([1, 2, 3]) == 1.0


def test_activity_while_a_step_is_found_by_time_overlap(kitchen):
    store, emb = kitchen
    ans = _ask(store, emb, "Which activity did I do while rolling the dough out for baking?",
               ["make tomato soup", "bake the flatbread", "wash up and tidy the counter"], llm=False)
    assert ans.letter == "B" and ans.context.checked.judgement.mode == "relation"


def test_things_that_happened_are_told_from_things_that_did_not(kitchen):
    store, emb = kitchen
    ans = _ask(store, emb, "Which of these dishes did I cook?",
               ["Lentil Curry and Naan", "Tomato Soup and Flatbread", "Pea Risotto"], llm=False)
    assert ans.letter == "B"


def test_a_clear_margin_decides_without_asking_the_model(kitchen):
    store, emb = kitchen
    model = ScriptedModel("A")
    req = asker.AskRequest("When was the salt added to the tomato soup?",
                           (_span(430, 436), _span(290, 292)), at_ms=AT + 10**8, videos={1: NAME}, hcc=False)
    ans = asker.answer(model, asker.assemble(store, req, emb), req)
    assert ans.letter == "B" and ans.decided_by == "symbolic" and model.calls == 0
    assert "Evidence per option:" in ans.context.text and "B (v1 4:50-4:52)" in ans.context.text


def test_unclear_evidence_lets_the_model_vote_with_the_scorer_as_prior(kitchen):
    store, emb = kitchen
    model = ScriptedModel("C", "B", "A", "B", "A")  # shown letters: each vote sees the options rotated by one
    req = asker.AskRequest("Which dish needed the most patience?", ("Tomato Soup", "Flatbread", "Washing up"),
                           at_ms=AT + 10**8, videos={1: NAME}, hcc=False, votes=5)
    ctx = asker.assemble(store, req, emb)
    ans = asker.answer(model, ctx, req)
    if ans.decided_by == "model":  # three model votes outweigh a prior worth 1.5 votes
        assert ans.letter == "C" and model.calls == 5 and [v for _, v in ans.votes] == list("CCCBB")
    else:
        assert ans.decided_by == "symbolic" and model.calls == 0


def test_no_symbolic_is_the_model_alone(kitchen):
    store, emb = kitchen
    model = ScriptedModel("A")
    req = asker.AskRequest("When was the salt added to the tomato soup?",
                           (_span(430, 436), _span(290, 292)), at_ms=AT + 10**8, videos={1: NAME}, hcc=False,
                           votes=3, symbolic=False)
    ans = asker.answer(model, asker.assemble(store, req, emb), req)
    assert ans.letter == "A" and ans.decided_by == "model" and model.calls == 3 and ans.scores == ()
    assert "Evidence per option" not in ans.context.text


def test_each_vote_sees_the_options_rotated_and_its_letter_is_mapped_back(kitchen):
    store, emb = kitchen
    model = ScriptedModel("A")  # a model that always says the first letter shown
    choices = ("Tomato Soup", "Flatbread", "Washing up")
    req = asker.AskRequest("Which dish did I cook first?", choices, at_ms=AT + 10**8, videos={1: NAME},
                           hcc=False, votes=3, symbolic=False)
    ans = asker.answer(model, asker.assemble(store, req, emb), req)
    assert [v for _, v in ans.votes] == ["A", "B", "C"]  # its "A" named a different option each time
    firsts = [p[-1]["content"].split("OPTIONS:\n", 1)[1].splitlines()[0] for p in model.prompts]
    assert [f.split(maxsplit=1)[1] for f in firsts] == list(choices)
    assert all(p[-1]["content"].split("OPTIONS:")[0] == model.prompts[0][-1]["content"].split("OPTIONS:")[0]
               for p in model.prompts)  # the log and question before the options are one shared prefix


def test_unparseable_options_fall_back_to_the_model(kitchen):
    store, emb = kitchen
    model = ScriptedModel("B")
    for choices in (["", "??"], ["<TIME 00:01:00.000 video 1> to <TIME 00:00:50.000 video 1>", ""]):
        req = asker.AskRequest("What happened?", tuple(choices), at_ms=AT + 10**8, videos={1: NAME}, hcc=False,
                               votes=1)
        ans = asker.answer(model, asker.assemble(store, req, emb), req)
        assert ans.letter in ("A", "B")
    req = asker.AskRequest("Which one?", ("", "", "!!"), at_ms=AT + 10**8, videos={1: NAME}, hcc=False, llm=False)
    ans = asker.answer(None, asker.assemble(store, req, emb), req)
    assert ans.letter is None and ans.text == asker.NOTHING and ans.decided_by == "none"


def test_duplicate_options_get_no_evidence_of_their_own(kitchen):
    store, emb = kitchen
    ans = _ask(store, emb, "Which of these dishes did I cook?", ["Pea Risotto", "Tomato Soup", "tomato  soup"],
               llm=False)
    assert ans.letter == "B" and ans.scores[2] == 0.0
