"""The numpy MiniLM embedder: same vectors as sentence-transformers, and useful rankings."""

from __future__ import annotations

import numpy as np
import pytest

from egocli.models import registry

SENTENCES = ["I put the car keys in the blue bowl by the front door.",
             "The pasta needs eleven minutes in salted boiling water.",
             "My sister called about the birthday party on Saturday.",
             "The laptop battery was at twenty percent after the meeting.",
             "Tokyo is the capital of Japan.",
             ""]


@pytest.fixture(scope="module")
def embedder(real_settings):
    return registry.load("embedder", real_settings())


def test_vectors_are_normalised_float32(embedder) -> None:
    vectors = embedder.embed(SENTENCES[:5])
    assert vectors.dtype == np.float32 and vectors.shape == (5, 384) and embedder.dim == 384
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embedder.embed([]).shape == (0, 384)


def test_relevant_sentence_ranks_first(embedder) -> None:
    query = embedder.embed(["where did I leave my keys?"])[0]
    scores = embedder.embed(SENTENCES[:5]) @ query
    assert int(np.argmax(scores)) == 0
    cooking = embedder.embed(["how long do I cook spaghetti"])[0]
    assert int(np.argmax(embedder.embed(SENTENCES[:5]) @ cooking)) == 1


def test_batching_does_not_change_vectors(embedder) -> None:
    together = embedder.embed(SENTENCES)
    alone = np.stack([embedder.embed([s])[0] for s in SENTENCES])
    assert np.allclose(together, alone, atol=1e-5)


@pytest.mark.slow
def test_matches_sentence_transformers(embedder, real_settings) -> None:
    st = pytest.importorskip("sentence_transformers", reason="sentence-transformers not installed (reference only)")
    folder = registry.resolve("embedder", real_settings()).path
    texts = SENTENCES + ["word " * 400]  # the last one is truncated at 256 tokens by both
    reference = st.SentenceTransformer(str(folder), device="cpu").encode(texts, normalize_embeddings=True)
    ours = embedder.embed(texts)
    cosine = np.sum(ours * reference, axis=1) / np.linalg.norm(reference, axis=1)
    assert float(np.min(cosine)) > 1 - 1e-4
