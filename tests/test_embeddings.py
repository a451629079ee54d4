"""Embedders: the bundled static model (no torch, no network) and OpenAI's endpoint, served
for real by a local HTTP fake on 127.0.0.1."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import openai
import pytest

from core.providers import Embedder
from core.settings import REPO_ROOT
from kb.embeddings import (
    OpenAIEmbedder,
    StaticEmbedder,
    cosine_top_k,
    load_static_embedder,
)
from tests.fake_openai import FakeOpenAI, serving

MODEL_DIR = REPO_ROOT / "data" / "models" / "minilm-l6-static"


@pytest.fixture(scope="module")
def static() -> StaticEmbedder:
    return load_static_embedder(MODEL_DIR)


# --- the static model -------------------------------------------------------------------


def test_model_dir_is_small_and_complete() -> None:
    files = {p.name: p.stat().st_size for p in MODEL_DIR.iterdir() if p.is_file()}
    assert {"config.json", "model.safetensors", "tokenizer.json"} <= set(files)
    assert sum(files.values()) <= 16_000_000


def test_static_embedder_identity(static: StaticEmbedder) -> None:
    digest = hashlib.sha256((MODEL_DIR / "model.safetensors").read_bytes()).hexdigest()
    assert static.model_id == f"minilm-l6-static@{digest[:12]}"
    assert static.dim == 256
    embedder: Embedder = static  # mypy checks the protocol
    assert embedder.embed(["x"]).shape == (1, embedder.dim)


def test_static_vectors_are_normalised_float32(static: StaticEmbedder) -> None:
    texts = ["photosynthesis in chloroplasts", "Ohm's law for a resistor", "a", "cells " * 1000]
    vectors = static.embed(texts)
    assert vectors.dtype == np.float32
    assert vectors.shape == (4, 256)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    empty = static.embed([])
    assert empty.shape == (0, 256) and empty.dtype == np.float32


def test_text_without_known_tokens_is_the_zero_vector(static: StaticEmbedder) -> None:
    vectors = static.embed(["", "   ", "cell"])
    assert not vectors[:2].any()
    assert np.linalg.norm(vectors[2]) == pytest.approx(1.0, abs=1e-5)


def test_static_is_deterministic_and_batch_independent(static: StaticEmbedder) -> None:
    texts = [f"the {w} of the cell membrane" for w in ["structure", "fluidity", "transport"]]
    texts += ["osmosis", "active transport needs ATP and carrier proteins", ""]
    once = static.embed(texts)
    np.testing.assert_array_equal(once, static.embed(texts))
    # A text's vector does not depend on its neighbours or on the internal batch size.
    np.testing.assert_allclose(static.embed([texts[4]])[0], once[4], atol=1e-6)
    small_batches = load_static_embedder(MODEL_DIR, batch_size=2)
    np.testing.assert_allclose(small_batches.embed(texts), once, atol=1e-6)


def test_static_matches_model2vec_reference(static: StaticEmbedder) -> None:
    """The build script stored model2vec's own StaticModel.encode output for these sentences."""
    reference = json.loads((MODEL_DIR / "model2vec_reference.json").read_text(encoding="utf-8"))
    assert reference["weights_sha256"][:12] == static.model_id.split("@")[1]
    expected = np.asarray(reference["vectors"], dtype=np.float32)
    got = static.embed(reference["sentences"])
    assert got.shape == expected.shape
    zero = ~expected.any(axis=1)
    assert zero.any() and not got[zero].any()
    cosines = (got[~zero] * expected[~zero]).sum(axis=1) / (
        np.linalg.norm(got[~zero], axis=1) * np.linalg.norm(expected[~zero], axis=1)
    )
    assert cosines.min() >= 1 - 1e-5


@pytest.mark.parametrize(
    ("anchor", "near", "far"),
    [
        (
            "photosynthesis in chloroplasts",
            "light reactions in the thylakoid",
            "Ohm's law for a resistor",
        ),
        (
            "current through a resistor",
            "voltage drop across a conductor",
            "enzymes in the small intestine",
        ),
        ("acid base titration", "pH of a buffer solution", "migration of birds"),
        (
            "kidney nephron filtration",
            "urine formation in the glomerulus",
            "projectile motion under gravity",
        ),
    ],
)
def test_static_semantic_sanity(static: StaticEmbedder, anchor: str, near: str, far: str) -> None:
    a, n, f = static.embed([anchor, near, far])
    assert float(a @ n) > float(a @ f) + 0.1


def test_static_retrieval_with_cosine_top_k(static: StaticEmbedder) -> None:
    corpus = [
        "Ohm's law relates voltage, current and resistance",
        "the Calvin cycle fixes carbon dioxide in the stroma",
        "Newton's laws of motion",
        "chlorophyll absorbs red and blue light in the thylakoid membrane",
    ]
    matrix = static.embed(corpus)
    top = cosine_top_k(static.embed(["photosynthesis in chloroplasts"])[0], matrix, k=2)
    assert {i for i, _ in top} == {1, 3}


def test_cosine_top_k_orders_and_breaks_ties_by_index() -> None:
    matrix = np.array([[1, 0], [0, 1], [1, 1], [2, 0], [0, 0], [-1, 0]], dtype=np.float32)
    top = cosine_top_k(np.array([3.0, 0.0]), matrix, k=4)
    assert [i for i, _ in top] == [0, 3, 2, 1]
    assert [s for _, s in top] == pytest.approx([1.0, 1.0, 2**-0.5, 0.0])
    assert [i for i, _ in cosine_top_k(np.array([1.0, 0.0]), matrix, k=100)] == [0, 3, 2, 1, 4, 5]
    assert cosine_top_k(np.array([1.0, 0.0]), matrix, k=0) == []
    assert cosine_top_k(np.array([1.0, 0.0]), np.zeros((0, 2)), k=3) == []
    with pytest.raises(ValueError):
        cosine_top_k(np.ones(3), matrix, k=1)


# --- OpenAI, against a real local HTTP server --------------------------------------------

FAKE_DIMS = {"text-embedding-3-small": 1536}
FAKE_DEFAULT_DIM = 8


def fake_vector(text: str, dim: int) -> np.ndarray:
    """Deterministic, deliberately un-normalised vector for `text`."""
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    return (np.random.default_rng(seed).normal(size=dim) * 7).astype(np.float32)


def embeddings_route(server: FakeOpenAI, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    dim = FAKE_DIMS.get(body["model"], FAKE_DEFAULT_DIM)
    data = []
    for index, text in enumerate(body["input"]):
        vector = fake_vector(text, dim)
        if body.get("encoding_format") == "base64":
            embedding: Any = base64.b64encode(vector.astype("<f4").tobytes()).decode()
        else:
            embedding = vector.tolist()
        data.append({"object": "embedding", "index": index, "embedding": embedding})
    data.reverse()  # the client must order by `index`, not by position
    usage = {"prompt_tokens": len(body["input"]), "total_tokens": len(body["input"])}
    return 200, {"object": "list", "model": body["model"], "data": data, "usage": usage}


@pytest.fixture
def fake_openai() -> Iterator[tuple[FakeOpenAI, openai.OpenAI]]:
    with serving({"/v1/embeddings": embeddings_route}) as running:
        yield running


def expected(texts: list[str], dim: int) -> np.ndarray:
    m = np.stack([fake_vector(t, dim) for t in texts])
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_openai_batches_in_order_and_normalises(fake_openai: tuple[FakeOpenAI, Any]) -> None:
    server, client = fake_openai
    embedder = OpenAIEmbedder(client, model="fake-embed", batch_size=4)
    texts = [f"text number {i}" for i in range(10)]
    vectors = embedder.embed(texts)
    assert [len(r["input"]) for r in server.requests] == [4, 4, 2]
    assert [t for r in server.requests for t in r["input"]] == texts
    assert {r["model"] for r in server.requests} == {"fake-embed"}
    assert vectors.dtype == np.float32 and vectors.shape == (10, FAKE_DEFAULT_DIM)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    np.testing.assert_allclose(vectors, expected(texts, FAKE_DEFAULT_DIM), atol=1e-6)
    assert embedder.model_id == "openai:fake-embed"
    assert embedder.dim == FAKE_DEFAULT_DIM


def test_openai_default_model(fake_openai: tuple[FakeOpenAI, Any]) -> None:
    server, client = fake_openai
    embedder: Embedder = OpenAIEmbedder(client)
    assert embedder.model_id == "openai:text-embedding-3-small"
    assert embedder.dim == 1536  # known before any request
    assert embedder.embed([]).shape == (0, 1536)
    assert server.requests == []
    texts = [f"q{i}" for i in range(300)]
    vectors = embedder.embed(texts)
    assert [len(r["input"]) for r in server.requests] == [256, 44]
    np.testing.assert_allclose(vectors, expected(texts, 1536), atol=1e-6)


def test_openai_unknown_model_learns_its_dim(fake_openai: tuple[FakeOpenAI, Any]) -> None:
    _, client = fake_openai
    embedder = OpenAIEmbedder(client, model="fake-embed")
    with pytest.raises(RuntimeError):
        _ = embedder.dim
    embedder.embed(["hello"])
    assert embedder.dim == FAKE_DEFAULT_DIM
    assert embedder.embed([]).shape == (0, FAKE_DEFAULT_DIM)


def test_openai_rejects_wrong_dim_and_empty_text(fake_openai: tuple[FakeOpenAI, Any]) -> None:
    server, client = fake_openai
    with pytest.raises(ValueError, match="expected 4"):
        OpenAIEmbedder(client, model="fake-embed", dim=4).embed(["hello"])
    with pytest.raises(ValueError, match="empty"):
        OpenAIEmbedder(client, model="fake-embed").embed(["ok", ""])
    assert len(server.requests) == 1  # the empty text was refused before any request


def test_openai_http_errors_surface(fake_openai: tuple[FakeOpenAI, Any]) -> None:
    server, _ = fake_openai
    wrong_key = server.client(api_key="nope")
    with pytest.raises(openai.NotFoundError):
        OpenAIEmbedder(wrong_key, model="fake-embed").embed(["hello"])
    wrong_key.close()
