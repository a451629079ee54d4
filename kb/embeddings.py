"""Embedders behind the `core.providers.Embedder` protocol, plus cosine top-k.

- `StaticEmbedder`: the bundled model2vec distillation of all-MiniLM-L6-v2
  (data/models/minilm-l6-static/, rebuilt by scripts/build_embedding_model.py). Loaded with
  `tokenizers` + `safetensors` + numpy only: no torch, no model2vec, no network. It reproduces
  `model2vec.StaticModel.encode`: tokenise without special tokens, drop [UNK], look up each
  token's vector, mean-pool, L2-normalise. A text with no known token embeds as the zero vector.
- `OpenAIEmbedder`: `client.embeddings.create` in batches; the caller builds the client.

Vectors from different `model_id`s never mix: the id names the model exactly.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from safetensors.numpy import load_file
from tokenizers import Tokenizer

if TYPE_CHECKING:
    import openai

STATIC_MODEL_NAME = "minilm-l6-static"
WEIGHTS_FILE = "model.safetensors"
TOKENIZER_FILE = "tokenizer.json"
CONFIG_FILE = "config.json"
DEFAULT_MAX_LENGTH = 512
#: Token vectors gathered at once while pooling (x dim x 4 bytes: 16 MiB at dim 256).
_GATHER_TOKENS = 1 << 14

#: Output sizes of OpenAI's embedding models at their default `dimensions`.
OPENAI_DIMS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}


def _normalise_rows(matrix: NDArray[np.float32]) -> NDArray[np.float32]:
    """Scale each row to unit L2 norm in place; all-zero rows stay zero."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    np.divide(matrix, norms, out=matrix, where=norms > 0)
    return matrix


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class StaticEmbedder:
    """A static (token-lookup) embedding model: mean of token vectors, L2-normalised."""

    def __init__(
        self,
        vectors: NDArray[Any],
        tokenizer: Tokenizer,
        model_id: str,
        max_length: int | None = DEFAULT_MAX_LENGTH,
        batch_size: int = 4096,
    ) -> None:
        if vectors.ndim != 2:
            raise ValueError(f"vectors must be 2-D, got shape {vectors.shape}")
        if tokenizer.get_vocab_size(with_added_tokens=True) != vectors.shape[0]:
            raise ValueError(
                f"tokenizer has {tokenizer.get_vocab_size(with_added_tokens=True)} tokens "
                f"but there are {vectors.shape[0]} vectors"
            )
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        self._vectors: NDArray[np.float32] = np.ascontiguousarray(vectors, dtype=np.float32)
        self._model_id = model_id
        self._max_length = max_length
        self._batch_size = batch_size

        tokenizer.no_padding()
        if max_length is None:
            tokenizer.no_truncation()
        else:
            tokenizer.enable_truncation(max_length)
        self._tokenizer = tokenizer
        unk = getattr(tokenizer.model, "unk_token", None)
        self._unk_id: int | None = tokenizer.token_to_id(unk) if unk is not None else None
        # model2vec first cuts each text to max_length * (median token length) characters.
        lengths = [len(token) for token in tokenizer.get_vocab(with_added_tokens=True)]
        self._max_chars = (
            None if max_length is None else max_length * int(np.median(np.array(lengths)))
        )

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dim(self) -> int:
        return int(self._vectors.shape[1])

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        if isinstance(texts, str):
            raise TypeError("embed takes a sequence of texts, not one str")
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(texts), self._batch_size):
            batch = list(texts[start : start + self._batch_size])
            out[start : start + len(batch)] = self._embed_batch(batch)
        return out

    def _embed_batch(self, texts: list[str]) -> NDArray[np.float32]:
        if self._max_chars is not None:
            texts = [text[: self._max_chars] for text in texts]
        encodings = self._tokenizer.encode_batch_fast(texts, add_special_tokens=False)
        id_lists = [encoding.ids for encoding in encodings]
        counts = np.fromiter((len(ids) for ids in id_lists), dtype=np.int64, count=len(id_lists))
        flat = np.fromiter(
            (i for ids in id_lists for i in ids), dtype=np.int64, count=int(counts.sum())
        )
        if self._unk_id is not None:
            known = flat != self._unk_id
            owners = np.repeat(np.arange(len(id_lists)), counts)[known]
            flat = flat[known]
            counts = np.bincount(owners, minlength=len(id_lists))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        # `flat` holds each text's tokens as one contiguous run. Texts of equal token count
        # form a dense (texts, length) id matrix: one gather and one sum per length, in
        # chunks of at most _GATHER_TOKENS tokens (np.add.reduceat is ~10x slower here).
        starts = np.cumsum(counts) - counts
        for length in np.unique(counts[counts > 0]):
            same = np.flatnonzero(counts == length)
            step = max(1, _GATHER_TOKENS // int(length))
            for i in range(0, same.size, step):
                chunk = same[i : i + step]
                ids = flat[starts[chunk, None] + np.arange(length)]
                out[chunk] = self._vectors[ids].sum(axis=1) / np.float32(length)
        return _normalise_rows(out)


def load_static_embedder(model_dir: Path, batch_size: int = 4096) -> StaticEmbedder:
    """Load a model2vec-format static model (config.json, model.safetensors, tokenizer.json)."""
    model_dir = Path(model_dir)
    weights_path = model_dir / WEIGHTS_FILE
    if not weights_path.is_file():
        raise FileNotFoundError(
            f"no {WEIGHTS_FILE} in {model_dir}: run scripts/build_embedding_model.py"
        )
    config = json.loads((model_dir / CONFIG_FILE).read_text(encoding="utf-8"))
    tensors = load_file(str(weights_path))
    if "embeddings" not in tensors:
        raise ValueError(f"{weights_path} has no 'embeddings' tensor")
    if "mapping" in tensors or "weights" in tensors:
        raise ValueError(f"{weights_path}: vocabulary-quantised models are not supported")
    tokenizer = Tokenizer.from_file(str(model_dir / TOKENIZER_FILE))
    model_id = f"{STATIC_MODEL_NAME}@{_sha256(weights_path)[:12]}"
    return StaticEmbedder(
        tensors["embeddings"],
        tokenizer,
        model_id=model_id,
        max_length=config.get("max_length", DEFAULT_MAX_LENGTH),
        batch_size=batch_size,
    )


class OpenAIEmbedder:
    """OpenAI's embeddings endpoint through a client the caller built (key, base URL, retries)."""

    def __init__(
        self,
        client: openai.OpenAI,
        model: str = "text-embedding-3-small",
        batch_size: int = 256,
        dim: int | None = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        self._client = client
        self._model = model
        self._batch_size = batch_size
        self._dim: int | None = dim if dim is not None else OPENAI_DIMS.get(model)

    @property
    def model_id(self) -> str:
        return f"openai:{self._model}"

    @property
    def dim(self) -> int:
        if self._dim is None:
            raise RuntimeError(
                f"dimension of {self._model!r} is not known until the first embed() call; "
                "pass dim= to OpenAIEmbedder"
            )
        return self._dim

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        if isinstance(texts, str):
            raise TypeError("embed takes a sequence of texts, not one str")
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        empty = [i for i, text in enumerate(texts) if not text]
        if empty:
            raise ValueError(f"OpenAI rejects empty input strings (at positions {empty[:10]})")
        batches = [
            self._embed_batch(list(texts[start : start + self._batch_size]))
            for start in range(0, len(texts), self._batch_size)
        ]
        return _normalise_rows(np.concatenate(batches, axis=0))

    def _embed_batch(self, texts: list[str]) -> NDArray[np.float32]:
        response = self._client.embeddings.create(
            input=texts, model=self._model, encoding_format="base64"
        )
        items = sorted(response.data, key=lambda item: item.index)
        if [item.index for item in items] != list(range(len(texts))):
            raise ValueError(
                f"embeddings response has indices {[item.index for item in items][:10]}... "
                f"for {len(texts)} inputs"
            )
        matrix = np.stack([_decode_vector(item.embedding) for item in items])
        if self._dim is None:
            self._dim = int(matrix.shape[1])
        elif matrix.shape[1] != self._dim:
            raise ValueError(
                f"{self.model_id} returned {matrix.shape[1]}-d vectors, expected {self._dim}"
            )
        return matrix


def _decode_vector(embedding: str | Sequence[float]) -> NDArray[np.float32]:
    """A vector as the API sends it: base64 of little-endian float32, or a list of floats."""
    if isinstance(embedding, str):
        return np.frombuffer(base64.b64decode(embedding), dtype="<f4").astype(np.float32)
    return np.asarray(embedding, dtype=np.float32)


def cosine_top_k(query: NDArray[Any], matrix: NDArray[Any], k: int) -> list[tuple[int, float]]:
    """The k rows of `matrix` most cosine-similar to `query`, best first, as (row, cosine).

    Ties go to the lower row index; zero vectors score 0. Inputs need not be normalised.
    """
    q = np.asarray(query, dtype=np.float32)
    if q.ndim == 2 and q.shape[0] == 1:
        q = q[0]
    m = np.asarray(matrix, dtype=np.float32)
    if q.ndim != 1:
        raise ValueError(f"query must be one vector, got shape {q.shape}")
    if m.ndim != 2 or (m.shape[0] and m.shape[1] != q.shape[0]):
        raise ValueError(f"matrix shape {m.shape} does not fit a query of dim {q.shape[0]}")
    k = min(k, m.shape[0])
    if k <= 0:
        return []
    q_norm = float(np.linalg.norm(q))
    row_norms = np.linalg.norm(m, axis=1)
    scores = m @ q
    denom = row_norms * q_norm
    scores = np.divide(scores, denom, out=np.zeros_like(scores), where=denom > 0)
    if k < scores.shape[0]:
        kth = np.partition(scores, -k)[-k]
        candidates = np.flatnonzero(scores >= kth)
    else:
        candidates = np.arange(scores.shape[0])
    order = np.lexsort((candidates, -scores[candidates]))[:k]
    return [(int(candidates[i]), float(scores[candidates[i]])) for i in order]
