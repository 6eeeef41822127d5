"""T-CoT window selection on a constructed log: the needle lands in the context."""

from __future__ import annotations

from egocli.models.fake import HashEmbedder
from egocli.reasoning import asker, retrieval
from egocli.store import NewEvent, vectors

from .conftest import AT, build_log


def test_needle_lands_in_a_narrow_window(store):
    ids = build_log(store)
    ctx = asker.assemble(store, asker.AskRequest("When did I last take my blood pressure pill?", at_ms=AT,
                                                 budget=400, hcc=False))
    shown = [e.id for e in ctx.storyline.events]
    assert ids["pills"] in shown
    assert len(shown) < 20  # a window around the needle, not the whole 3-day log
    assert "blood pressure pill" in ctx.text


def test_relative_scope_excludes_needles_outside_it(store):
    ids = build_log(store)
    ctx = asker.assemble(store, asker.AskRequest("what did the doctor say this morning?", at_ms=AT, hcc=False))
    assert ids["doctor"] not in [e.id for e in ctx.storyline.events]
    ctx = asker.assemble(store, asker.AskRequest("what did the doctor say 2 days ago?", at_ms=AT, hcc=False))
    assert ids["doctor"] in [e.id for e in ctx.storyline.events]


def test_dense_retrieval_finds_the_needle_in_scope(store):
    ids = build_log(store)
    embedder = HashEmbedder()
    assert sum(retrieval.embed_missing(store, embedder)) == store.count()
    scope = asker.parse_scope("red drawer car keys", AT)
    hits = retrieval.retrieve(store, "red drawer car keys", scope, embedder)
    assert hits[0].event.id == ids["keys"] and hits[0].cosine is not None


def test_time_tag_window_shows_the_events_at_that_time(store):
    src = store.add_source("import", "P09-20250101-100000", start_ms=AT, status="done")
    filler = [NewEvent(AT + i * 20_000, AT + i * 20_000 + 5000, "step", f"stir the pot round {i}") for i in range(200)]
    store.add_events(filler, source_id=src.id)
    needle = store.add_events([NewEvent(AT + 2_000_005, AT + 2_003_000, "ingredient", "added saffron")],
                              source_id=src.id)[0]
    req = asker.AskRequest("What happened at <TIME 00:33:20.000 video 1>?", at_ms=AT + 10**8,
                           videos={1: "P09-20250101-100000"}, budget=300, hcc=False)
    ctx = asker.assemble(store, req)
    assert needle in [e.id for e in ctx.storyline.events]
    assert "[v1 33:20-33:23] ingredient: added saffron" in ctx.text
    assert "v1 33:20" in ctx.question


def test_no_tcot_samples_the_scope_evenly(store):
    build_log(store)
    ctx = asker.assemble(store, asker.AskRequest("When did I last take my blood pressure pill?", at_ms=AT,
                                                 budget=400, hcc=False, tcot=False))
    times = [e.start_ms for e in ctx.storyline.events]
    assert times == sorted(times) and times[-1] - times[0] > 86_400_000


def test_every_option_time_gets_evidence_when_one_span_is_long(store):
    """A long, dense first option used to take the whole budget; the options after it got nothing."""
    src = store.add_source("import", "P09-20250101-100000", start_ms=AT, status="done")
    busy = [NewEvent(AT + i * 2_000, AT + i * 2_000 + 1500, "step", f"knead the dough, pass {i}") for i in range(300)]
    late = [NewEvent(AT + 1_500_000, AT + 1_503_000, "ingredient", "added basil"),
            NewEvent(AT + 2_400_000, AT + 2_402_000, "ingredient", "added pepper")]
    store.add_events(busy + late, source_id=src.id)
    choices = ("From <TIME 00:00:00.000 video 1> to <TIME 00:10:00.000 video 1>",
               "From <TIME 00:25:00.000 video 1> to <TIME 00:25:03.000 video 1>",
               "From <TIME 00:40:00.000 video 1> to <TIME 00:40:02.000 video 1>")
    req = asker.AskRequest("When was the basil added?", choices, at_ms=AT + 10**8,
                           videos={1: src.name}, budget=400, hcc=False)
    ctx = asker.assemble(store, req)
    contents = [e.content for e in ctx.storyline.events]
    assert "added basil" in contents and "added pepper" in contents
    assert sum(c.startswith("knead") for c in contents) >= 5  # the long span still shows its middle
    assert ctx.storyline.tokens <= 400


def test_missing_vectors_are_found_whether_counted_first_or_not(store):
    build_log(store)
    embedder = HashEmbedder()
    for count_first in (0, 10**9):  # counting first (a large range) and the plain anti-join agree
        assert len(vectors.missing(store, embedder.name, count_first=count_first)) == store.count()
    assert sum(retrieval.embed_missing(store, embedder)) == store.count()
    newest = store.add_events([NewEvent(AT + 1000, AT + 2000, "speech", "the plumber comes on Friday")])[0]
    store.add_events([NewEvent(AT - 5000, AT - 4000, "visual", "a blue umbrella by the door")])
    for count_first in (0, 10**9):
        todo = vectors.missing(store, embedder.name, count_first=count_first)
        assert len(todo) == 2 and todo[0][0] == newest
        assert vectors.missing(store, embedder.name, AT, None, count_first=count_first) == todo[:1]
    assert sum(retrieval.embed_missing(store, embedder)) == 2
    assert vectors.missing(store, embedder.name, count_first=0) == []
