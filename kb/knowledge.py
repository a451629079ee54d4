"""Theory chunks (Markdown with front matter) and fact tables (JSON) of the knowledge base."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

from core.records import Record, Subject

CHUNKS_DIR = Path("kb") / "chunks"
FACTS_DIR = Path("kb") / "facts"
CAUSES_DIR = Path("kb") / "causes"


class Chunk(Record):
    chunk_id: str
    subject: Subject
    topic_id: str | None = None
    topic_hint: str = ""
    title: str
    source: str
    licence: str
    text: str


class Fact(Record):
    entity: str
    value: str
    chunk_id: str
    # The fact's own syllabus topic when it is not its table's (a relation can span topics).
    topic_id: str | None = None


class FactTable(Record):
    relation_id: str
    subject: Subject
    topic_hint: str
    topic_id: str | None
    ncert_chapter: str = ""
    entity_label: str
    value_label: str
    forward_stem: str
    reverse_stem: str | None
    pair_separator: str
    facts: tuple[Fact, ...]

    def is_fact(self, entity: str, value: str) -> bool:
        return any(f.entity == entity and f.value == value for f in self.facts)

    def topic_of(self, fact: Fact) -> str | None:
        return fact.topic_id or self.topic_id

    @functools.cached_property
    def topic_ids(self) -> list[str]:
        """The topics the table's facts are filed under, the table's own first."""
        return _topics_in_order(self.topic_id, [self.topic_of(f) for f in self.facts])

    def facts_of(self, topic_id: str) -> tuple[Fact, ...]:
        return tuple(f for f in self.facts if self.topic_of(f) == topic_id)


class Cause(Record):
    """A true assertion, the reason that explains it, and a false twin of each.

    The chunk states `assertion because reason` in one sentence; the false twins change a content
    word (not just the word order), so no chunk sentence supports them.
    """

    assertion: str
    reason: str
    false_assertion: str
    false_reason: str
    chunk_id: str
    topic_id: str | None = None  # the cause's own topic when it is not its table's


class CauseTable(Record):
    """Cause-and-effect facts of one topic: the source of assertion–reason questions."""

    relation_id: str
    subject: Subject
    topic_id: str
    ncert_chapter: str
    causes: tuple[Cause, ...]

    def topic_of(self, cause: Cause) -> str:
        return cause.topic_id or self.topic_id

    @functools.cached_property
    def topic_ids(self) -> list[str]:
        """The topics the table's causes are filed under, the table's own first."""
        return _topics_in_order(self.topic_id, [self.topic_of(c) for c in self.causes])

    def causes_of(self, topic_id: str) -> tuple[Cause, ...]:
        return tuple(c for c in self.causes if self.topic_of(c) == topic_id)


def _topics_in_order(own: str | None, tags: list[str | None]) -> list[str]:
    rest = sorted({t for t in tags if t is not None and t != own})
    return ([own] if own is not None and own in tags else []) + rest


def parse_front_matter(text: str) -> tuple[dict[str, str], str]:
    """Split `---`-delimited `key: value` front matter from the body."""
    if not text.startswith("---\n"):
        raise ValueError("missing front matter")
    head, sep, body = text[4:].partition("\n---\n")
    if not sep:
        raise ValueError("front matter is not closed by ---")
    meta: dict[str, str] = {}
    for line in head.splitlines():
        if not line.strip():
            continue
        key, colon, value = line.partition(":")
        if not colon:
            raise ValueError(f"front matter line without a colon: {line!r}")
        meta[key.strip()] = value.strip()
    return meta, body.strip()


def load_chunk(path: Path) -> Chunk:
    meta, body = parse_front_matter(path.read_text(encoding="utf-8"))
    try:
        return Chunk.model_validate({**meta, "text": body})
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from exc


@dataclass(frozen=True)
class KnowledgeBase:
    chunks: dict[str, Chunk]
    fact_tables: tuple[FactTable, ...]
    cause_tables: tuple[CauseTable, ...] = ()
    # What is computed from the contents above and kept with them (the solver's sentence
    # indexes: `kb.retrieval.subject_index`); never part of what the knowledge base is.
    derived: dict[object, object] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    def chunks_for(self, subject: Subject) -> list[Chunk]:
        return [c for c in self.chunks.values() if c.subject == subject]


def load_knowledge_base(data_dir: Path) -> KnowledgeBase:
    """All bundled chunks, fact and cause tables; every fact must cite an existing chunk.

    Loaded once per folder and state of its files (a changed, added or removed file loads it
    again), so every service built in one process shares one knowledge base and what is
    derived from it."""
    files = sorted(
        p for d in (CHUNKS_DIR, FACTS_DIR, CAUSES_DIR) for p in (data_dir / d).glob("*.*")
    )
    stamp = tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in files)
    return _loaded(data_dir.resolve(), stamp)


@functools.lru_cache(maxsize=4)
def _loaded(data_dir: Path, stamp: tuple[tuple[str, int, int], ...]) -> KnowledgeBase:
    chunks = {c.chunk_id: c for c in map(load_chunk, sorted((data_dir / CHUNKS_DIR).glob("*.md")))}
    tables = tuple(
        FactTable.model_validate(json.loads(p.read_text(encoding="utf-8")))
        for p in sorted((data_dir / FACTS_DIR).glob("*.json"))
    )
    causes = tuple(
        CauseTable.model_validate(json.loads(p.read_text(encoding="utf-8")))
        for p in sorted((data_dir / CAUSES_DIR).glob("*.json"))
    )
    cited = [(t.relation_id, f.chunk_id) for t in tables for f in t.facts]
    cited += [(t.relation_id, c.chunk_id) for t in causes for c in t.causes]
    for relation_id, chunk_id in cited:
        if chunk_id not in chunks:
            raise ValueError(f"{relation_id}: fact cites unknown chunk {chunk_id}")
    return KnowledgeBase(chunks=chunks, fact_tables=tables, cause_tables=causes)
