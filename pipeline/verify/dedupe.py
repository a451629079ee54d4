"""Near-duplicate gate between our own questions, aware of where each question came from.

Calibrated on our pairs with the bundled static embedder (cosine of stem + options, p5/p50/p95):
variants of one numerical template 0.955/0.984/0.995 (they differ only in the numbers, by design);
fact questions of one relation 0.655/0.85/0.963; questions of different templates or relations
0.045/0.295/0.569, none at 0.95. So the gate compares a draft only with questions of *other*
templates and relations, at 0.95: it catches one fact stated by two tables, or a hand-added
template that re-asks another's question, without blocking every parametric variant. Exact
repeats never get this far: they share a content-hash id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from core.records import Draft, Question, QuestionContent

OWN_NEAR_DUPLICATE = 0.95
SCREENED_MEMORY = 10_000  # vectors of screened drafts kept for `add`, so each is embedded once

Embed = Callable[[Sequence[str]], NDArray[np.float32]]


@dataclass
class _Bucket:
    ids: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    blocks: list[NDArray[np.float32]] = field(default_factory=list)
    _matrix: NDArray[np.float32] | None = None
    _sources: NDArray[np.str_] | None = None

    def source_array(self) -> NDArray[np.str_]:
        if self._sources is None or len(self._sources) != len(self.sources):
            self._sources = np.array(self.sources)
        return self._sources

    def matrix(self) -> NDArray[np.float32]:
        if self._matrix is None or len(self._matrix) != len(self.ids):
            self._matrix = np.vstack(self.blocks)
            self.blocks = [self._matrix]
        return self._matrix


class NearDuplicateGate:
    """Refuses a draft nearly identical to a stored question of another template or relation.

    Questions are compared within their syllabus unit, which keeps each check to a few hundred
    dot products however large the pool grows.
    """

    def __init__(self, embed: Embed, threshold: float = OWN_NEAR_DUPLICATE) -> None:
        self._embed = embed
        self.threshold = threshold
        self._buckets: dict[tuple[str, str], _Bucket] = {}
        self._screened: dict[str, NDArray[np.float32]] = {}

    def __len__(self) -> int:
        return sum(len(c.ids) for c in self._buckets.values())

    def add(self, questions: Iterable[Question]) -> None:
        """Remember stored questions (one embedding call per batch; screened drafts are free)."""
        batch = list(questions)
        texts = [q.content.comparable_text() for q in batch]
        missing = [t for t in texts if t not in self._screened]
        fresh = dict(zip(missing, self._embed(missing), strict=True)) if missing else {}
        for q, text in zip(batch, texts, strict=True):
            vector = self._screened.pop(text, None)
            bucket = self._buckets.setdefault(self._key(q.content), _Bucket())
            bucket.ids.append(q.question_id)
            bucket.sources.append(q.provenance.template_id)
            bucket.blocks.append((fresh[text] if vector is None else vector)[None, :])

    def screen(self, draft: Draft) -> str | None:
        """`near_duplicate_own: <id> (<cosine>)` when the draft repeats another source."""
        bucket = self._buckets.get(self._key(draft.content))
        if bucket is None:
            return None
        text = draft.content.comparable_text()
        vector = self._embed([text])[0]
        if len(self._screened) >= SCREENED_MEMORY:
            self._screened.clear()
        self._screened[text] = vector  # most screened drafts are accepted and added next
        scores = np.where(
            bucket.source_array() != draft.provenance.template_id, bucket.matrix() @ vector, -1.0
        )
        best = int(np.argmax(scores))
        if scores[best] >= self.threshold:
            return f"near_duplicate_own: {bucket.ids[best]} ({scores[best]:.3f})"
        return None

    @staticmethod
    def _key(content: QuestionContent) -> tuple[str, str]:
        return content.tag.subject.value, content.tag.unit_id
