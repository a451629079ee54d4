"""Is every fact and cause filed under the right syllabus topic? A check against the tagger.

Each fact (and cause) carries a topic: its own, or its table's. The tag is confirmed by one of:

- `tagger`: the similarity tagger's best topic for the sentence that states the fact is the tag;
- `chunk`: the chunk that states the fact is filed under the tag, and the tag is among the
  tagger's `CHUNK_RANK` best topics for the sentence (so a chunk about one topic cannot carry a
  fact about another under its own tag);
- `reviewed`: a reviewer read the fact and the topic and recorded the tag, with a reason, in
  `data/kb/tag_reviews/`.

The tagger here is the one ingestion uses (`kb.tagging`), scoring the sentence against each
topic's name and the bundled chunks filed under it, within the fact's subject. The chunk that
states the fact speaks for its topic only through its other sentences (with the stating
sentence in, it would vouch for its own tag).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from core.providers import Embedder
from kb.knowledge import Chunk, KnowledgeBase
from kb.retrieval import content_tokens, sentences
from kb.syllabus import Syllabus
from kb.tagging import topic_text

REVIEWS_DIR = Path("kb") / "tag_reviews"
# How far down the tagger's ranking a chunk's own tag may sit and still be confirmed by it.
CHUNK_RANK = 5

Evidence = Literal["tagger", "chunk", "reviewed", "none"]


@dataclass(frozen=True)
class TagCheck:
    relation_id: str
    item: str  # `entity|value` of a fact, the assertion of a cause
    tag: str
    chunk_topic: str | None
    tagger_best: str
    tag_rank: int  # 1 = the tagger's best topic
    evidence: Evidence

    @property
    def confirmed(self) -> bool:
        return self.evidence != "none"


def load_tag_reviews(data_dir: Path) -> dict[tuple[str, str], str]:
    """(relation_id, item) → the reviewed topic id, from `data/kb/tag_reviews/*.json` (each a
    list of `relation_id`, `item`, `topic_id` and the reviewer's `reason`)."""
    reviews: dict[tuple[str, str], str] = {}
    for path in sorted((data_dir / REVIEWS_DIR).glob("*.json")):
        for r in json.loads(path.read_text(encoding="utf-8"))["reviews"]:
            reviews[r["relation_id"], r["item"]] = r["topic_id"]
    return reviews


def _without(chunk: Chunk, sentence: str) -> str:
    return f"{chunk.title}\n" + " ".join(s for s in sentences(chunk.text) if s != sentence)


def _stating_sentence(text: str, words: frozenset[str]) -> str:
    """The chunk sentence sharing the most content words with the item (the chunk if none)."""
    return max(sentences(text), key=lambda s: len(words & content_tokens(s)), default=text)


def check_tags(
    kb: KnowledgeBase,
    syllabus: Syllabus,
    embedder: Embedder,
    reviews: Mapping[tuple[str, str], str],
) -> list[TagCheck]:
    """Every fact's and cause's tag with the evidence that confirms it (or `none`)."""
    topics = [t for t in syllabus.topics.values() if not t.deleted]
    topic_index = {t.topic_id: i for i, t in enumerate(topics)}
    names = embedder.embed([topic_text(t) for t in topics])
    chunk_ids = [c.chunk_id for c in kb.chunks.values() if c.topic_id in topic_index]
    chunk_vectors = embedder.embed(
        [f"{kb.chunks[c].title}\n{kb.chunks[c].text}" for c in chunk_ids]
    )
    chunk_owner = np.array([topic_index[str(kb.chunks[c].topic_id)] for c in chunk_ids])
    subjects = np.array([t.subject.value for t in topics])

    items: list[tuple[str, str, str, str]] = []  # relation, item, tag, chunk_id
    texts: list[str] = []
    rests: list[str] = []  # the stating chunk without the sentence: the fact's neighbours
    for table in kb.fact_tables:
        for f in table.facts:
            items.append(
                (table.relation_id, f"{f.entity}|{f.value}", str(table.topic_of(f)), f.chunk_id)
            )
            words = content_tokens(f"{f.entity} {f.value}")
            texts.append(_stating_sentence(kb.chunks[f.chunk_id].text, words))
            rests.append(_without(kb.chunks[f.chunk_id], texts[-1]))
    for ctable in kb.cause_tables:
        for c in ctable.causes:
            items.append((ctable.relation_id, c.assertion, ctable.topic_of(c), c.chunk_id))
            words = content_tokens(f"{c.assertion} {c.reason}")
            texts.append(_stating_sentence(kb.chunks[c.chunk_id].text, words))
            rests.append(_without(kb.chunks[c.chunk_id], texts[-1]))
    vectors = embedder.embed(texts)
    by_rest = np.einsum("ij,ij->i", vectors, embedder.embed(rests))
    by_name = vectors @ names.T
    by_chunk = vectors @ chunk_vectors.T
    position = {c: i for i, c in enumerate(chunk_ids)}

    checks = []
    for (relation_id, item, tag, chunk_id), name_row, chunk_row, rest in zip(
        items, by_name, by_chunk, by_rest, strict=True
    ):
        scores = name_row.copy()
        row = chunk_row.copy()
        if chunk_id in position:
            # The stating chunk speaks for its topic only through its other sentences.
            row[position[chunk_id]] = rest
        np.maximum.at(scores, chunk_owner, row)
        scores[subjects != syllabus.topic(tag).subject.value] = -1.0
        order = np.argsort(-scores)
        rank = int(np.nonzero(order == topic_index[tag])[0][0]) + 1
        best = topics[int(order[0])].topic_id
        chunk_topic = kb.chunks[chunk_id].topic_id
        evidence: Evidence = "none"
        if reviews.get((relation_id, item)) == tag:
            evidence = "reviewed"
        elif best == tag:
            evidence = "tagger"
        elif chunk_topic == tag and rank <= CHUNK_RANK:
            evidence = "chunk"
        checks.append(TagCheck(relation_id, item, tag, chunk_topic, best, rank, evidence))
    return checks


def confusion_lines(checks: Sequence[TagCheck], top: int = 15) -> list[str]:
    """The tagger's agreement with the tags, and the (tag → tagger's best) pairs it confuses
    most: the report the issue asks for."""
    n = len(checks)
    first = sum(c.tag_rank == 1 for c in checks)
    within = sum(c.tag_rank <= CHUNK_RANK for c in checks)
    by: dict[str, int] = {}
    for c in checks:
        by[c.evidence] = by.get(c.evidence, 0) + 1
    lines = [
        f"{n} tags: the tagger's best topic is the tag for {first} ({first / max(n, 1):.0%}), "
        f"the tag is in its top {CHUNK_RANK} for {within} ({within / max(n, 1):.0%})",
        "confirmed by " + ", ".join(f"{k} {v}" for k, v in sorted(by.items())),
    ]
    pairs: dict[tuple[str, str], int] = {}
    for c in checks:
        if c.tag_rank > 1:
            pairs[c.tag, c.tagger_best] = pairs.get((c.tag, c.tagger_best), 0) + 1
    for (tag, best), k in sorted(pairs.items(), key=lambda p: -p[1])[:top]:
        lines.append(f"  {k:4} tagged {tag}, tagger says {best}")
    return lines
