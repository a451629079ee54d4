"""What the drafting model sees of a topic: theory chunks and figure captions from the bundled
knowledge base or the knowledge store, each with its id."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Literal, Protocol

from core.ids import digest
from kb.knowledge import Chunk, KnowledgeBase
from kb.references import ReferenceQuestion
from kb.syllabus import Topic


@dataclass(frozen=True)
class ContextItem:
    """A piece of retrieved context the model may cite by id: a theory chunk or a figure."""

    context_id: str
    kind: Literal["chunk", "figure"]
    title: str
    text: str


class ContextSource(Protocol):
    """Retrieval for the draft step: a topic's context and its style examples."""

    def context(self, topic: Topic) -> tuple[ContextItem, ...]: ...

    def examples(self, topic: Topic) -> tuple[ReferenceQuestion, ...]: ...


_IMAGE = re.compile(r'!\[(?P<alt>[^\]]*)\]\((?P<path>[^)\s]+)(?:\s+"(?P<title>[^"]*)")?\)')


def figure_id_of(path: str) -> str:
    """The id of a bundled figure from its path in a chunk: `../figures/x.svg` → `fig-x`."""
    return "fig-" + Path(path).stem


def chunk_context(chunk: Chunk) -> tuple[ContextItem, ...]:
    """A chunk as context, its Markdown images replaced by `[figure <id>]` and listed after it."""
    figures: list[ContextItem] = []

    def cite(m: re.Match[str]) -> str:
        fid = figure_id_of(m.group("path"))
        caption = (m.group("title") or m.group("alt") or "").strip()
        figures.append(ContextItem(fid, "figure", caption, m.group("alt").strip()))
        return f"[figure {fid}]"

    text = _IMAGE.sub(cite, chunk.text)
    return (ContextItem(chunk.chunk_id, "chunk", chunk.title, text), *figures)


@dataclass(frozen=True)
class BundledContext:
    """Context from the bundled knowledge base: the topic's chunks (with their figures), and
    style examples from the reference questions of its subject (none bundled; imported ones)."""

    kb: KnowledgeBase
    references: tuple[ReferenceQuestion, ...] = ()
    max_chunks: int = 3
    max_examples: int = 3

    @cached_property
    def _chunks_by_topic(self) -> dict[str | None, list[Chunk]]:
        by_topic: dict[str | None, list[Chunk]] = {}
        for chunk in sorted(self.kb.chunks.values(), key=lambda c: c.chunk_id):
            by_topic.setdefault(chunk.topic_id, []).append(chunk)
        return by_topic

    def context(self, topic: Topic) -> tuple[ContextItem, ...]:
        chunks = self._chunks_by_topic.get(topic.topic_id, [])
        return tuple(item for c in chunks[: self.max_chunks] for item in chunk_context(c))

    def examples(self, topic: Topic) -> tuple[ReferenceQuestion, ...]:
        same_subject = [
            r for r in self.references if r.subject.lower() == topic.subject.value.lower()
        ]
        if not same_subject:
            return ()
        names = {topic.name.lower(), topic.topic_id.lower(), topic.chapter_name.lower()}
        # Questions of the topic first; each topic starts at its own place in the rest.
        turn = int(digest(topic.topic_id, 8), 16) % len(same_subject)
        rotated = same_subject[turn:] + same_subject[:turn]
        ranked = sorted(rotated, key=lambda r: r.topic.lower() not in names)
        return tuple(ranked[: self.max_examples])


class SearchHit(Protocol):
    """What the context source reads of a knowledge-store hit (kb.store.Hit)."""

    @property
    def id(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def where(self) -> str: ...


class ContextSearch(Protocol):
    """The knowledge store's retrieval (kb.store.KnowledgeStore.search), as the drafter uses it."""

    def search(
        self,
        kind: Literal["chunks", "figures", "references", "questions"],
        text: str,
        k: int = 5,
        mode: Literal["fts", "vector", "hybrid"] = "hybrid",
        filters: Mapping[str, str | None] | None = None,
    ) -> Sequence[SearchHit]: ...


@dataclass
class StoreContext:
    """Context from the knowledge store: the topic's best chunks and captioned figures by hybrid
    retrieval (full text and vectors fused) on the topic's name and chapter, so books ingested
    with `qforge kb ingest` ground the drafts too. A topic the store holds nothing for gets the
    `fallback`'s context (the bundled knowledge base); style examples come from it as well.

    Each topic is searched once per run (its context is then the same for every request, which
    keeps prompts, and so provider caches and reruns, stable). Only the pool fill's calling
    thread asks, so the store is never searched from two threads at once.
    """

    store: ContextSearch
    fallback: ContextSource
    max_chunks: int = 3
    max_figures: int = 2
    _found: dict[str, tuple[ContextItem, ...]] = field(default_factory=dict, repr=False)

    def context(self, topic: Topic) -> tuple[ContextItem, ...]:
        if topic.topic_id not in self._found:
            self._found[topic.topic_id] = self._search(topic) or self.fallback.context(topic)
        return self._found[topic.topic_id]

    def _search(self, topic: Topic) -> tuple[ContextItem, ...]:
        query = f"{topic.name}. {topic.chapter_name}"
        only = {"topic_id": topic.topic_id}
        chunks = self.store.search("chunks", query, k=self.max_chunks, filters=only)
        if not chunks:
            return ()
        figures = self.store.search("figures", query, k=self.max_figures, filters=only)
        return (
            *(ContextItem(h.id, "chunk", h.where, _IMAGE.sub(r"\g<alt>", h.text)) for h in chunks),
            *(ContextItem(h.id, "figure", h.text, h.text) for h in figures),
        )

    def examples(self, topic: Topic) -> tuple[ReferenceQuestion, ...]:
        return self.fallback.examples(topic)
