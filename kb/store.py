"""The knowledge store on LanceDB: chunks, figure captions, reference questions, a manifest.

Every vector table is named after the model that made its vectors, so vectors of two models never
share a table. A document's figures and chunks are written before its manifest row; rows of any
document missing from the manifest (a crash mid-document) are removed by `repair` before ingesting.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

import lancedb
import numpy as np
import pyarrow as pa
from lancedb.index import FTS, Bitmap, IvfFlat
from lancedb.rerankers import RRFReranker
from numpy.typing import NDArray

from core.providers import Embedder
from core.records import Question, QuestionContent
from core.runlock import held

SearchMode = Literal["hybrid", "vector", "fts"]
FILTER_COLUMNS = ("subject", "unit_id", "chapter_id", "topic_id")
# Past this many rows an exact scan gets slow: LanceDB then keeps an IVF index of the vectors.
VECTOR_INDEX_MIN_ROWS = 20_000
# Reads look for other processes' writes (the nightly's) at most this often; writers, under the
# write lock, check out the latest version themselves.
REFRESH = timedelta(seconds=1)
DOCUMENTS = "documents"


def model_slug(model_id: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", model_id.lower()).strip("_")


def _sql(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def column_values(table: Any, column: str) -> list[Any]:
    """All values of one column (without reading the vectors)."""
    n = table.count_rows()
    if n == 0:
        return []
    return list(table.search().select([column]).limit(n).to_arrow().column(column).to_pylist())


def _strings(*names: str) -> list[pa.Field]:
    return [pa.field(n, pa.string()) for n in names]


def _searchable(dim: int, fields: list[pa.Field], tagged: bool) -> pa.Schema:
    """A vector table: its own fields, the text that was embedded, the syllabus tag when the
    content is tagged, then the model and its vector (in this order, as stored tables have it)."""
    tag = [
        *_strings("subject", "unit_id", "chapter_id", "topic_id"),
        pa.field("tag_confidence", pa.float32()),
        *_strings("tag_method", "syllabus_status"),
    ]
    return pa.schema(
        [
            *fields,
            pa.field("text", pa.string()),
            *(tag if tagged else []),
            pa.field("embedding_model", pa.string()),
            pa.field("vector", pa.list_(pa.float32(), dim)),
        ]
    )


def chunk_schema(dim: int) -> pa.Schema:
    fields = [
        *_strings("chunk_id", "doc_id", "source", "title", "section"),
        pa.field("page", pa.int32()),
        *_strings("licence"),
    ]
    return _searchable(dim, fields, tagged=True)


def figure_schema(dim: int) -> pa.Schema:
    fields = [
        *_strings("figure_id", "doc_id", "source", "section", "caption", "alt", "caption_source"),
        pa.field("captioned", pa.bool_()),
        pa.field("image_keys", pa.list_(pa.string())),
    ]
    return _searchable(dim, fields, tagged=True)


def reference_schema(dim: int) -> pa.Schema:
    fields = [
        *_strings("ref_id", "question"),
        pa.field("options", pa.list_(pa.string())),
        *_strings("answer", "subject", "topic", "source"),
    ]
    return _searchable(dim, fields, tagged=False)


def question_schema(dim: int) -> pa.Schema:
    """Stored questions, for near-duplicate checks of new drafts."""
    fields = _strings("question_id", "subject", "unit_id", "chapter_id", "topic_id")
    return _searchable(dim, fields, tagged=False)


def content_text(content: QuestionContent) -> str:
    """What a near-duplicate check compares: the stem and the options."""
    return content.comparable_text()


def question_text(question: Question) -> str:
    return content_text(question.content)


def question_rows(questions: Sequence[Question], embedder: Embedder) -> list[dict[str, Any]]:
    """LanceDB rows (vectors included) for stored questions."""
    if not questions:
        return []
    vectors = embedder.embed([question_text(q) for q in questions])
    return [
        {
            "question_id": q.question_id,
            "subject": q.content.tag.subject.value,
            "unit_id": q.content.tag.unit_id,
            "chapter_id": q.content.tag.chapter_id,
            "topic_id": q.content.tag.topic_id,
            "text": question_text(q),
            "embedding_model": embedder.model_id,
            "vector": v.tolist(),
        }
        for q, v in zip(questions, vectors, strict=True)
    ]


DOCUMENT_SCHEMA = pa.schema(
    [
        pa.field("source", pa.string()),
        pa.field("doc_id", pa.string()),
        pa.field("format", pa.string()),
        pa.field("title", pa.string()),
        pa.field("licence", pa.string()),
        pa.field("chunks", pa.int32()),
        pa.field("figures", pa.int32()),
        pa.field("uncaptioned", pa.int32()),
        pa.field("embedding_model", pa.string()),
        pa.field("ingested_at", pa.string()),
    ]
)


KIND_NAMES = {
    "chunks": "chunk",
    "figures": "figure",
    "references": "reference",
    "questions": "question",
}


@dataclass(frozen=True)
class Hit:
    kind: Literal["chunk", "figure", "reference", "question"]
    id: str
    score: float
    text: str
    source: str
    where: str
    subject: str | None
    topic_id: str | None


class KnowledgeStore:
    """LanceDB tables for one embedding model, plus the shared document manifest."""

    def __init__(self, uri: str, embedder: Embedder) -> None:
        self.uri = str(uri)
        self.db = lancedb.connect(uri, read_consistency_interval=REFRESH)
        self.embedder = embedder
        slug = model_slug(embedder.model_id)
        self.names = {
            "chunks": f"chunks__{slug}",
            "figures": f"figures__{slug}",
            "references": f"references__{slug}",
            "questions": f"questions__{slug}",
        }
        self._schemas = {
            "chunks": chunk_schema(embedder.dim),
            "figures": figure_schema(embedder.dim),
            "references": reference_schema(embedder.dim),
            "questions": question_schema(embedder.dim),
        }
        self._fts_dirty: set[str] = set()
        self._tables: dict[str, Any] = {}

    # -- tables -----------------------------------------------------------------------------
    def _existing(self) -> set[str]:
        return set(self.db.list_tables().tables)

    def table(self, kind: str) -> Any:
        """The open table (created empty on first use); opened once per store."""
        if kind not in self._tables:
            name = DOCUMENTS if kind == DOCUMENTS else self.names[kind]
            schema = DOCUMENT_SCHEMA if kind == DOCUMENTS else self._schemas[kind]
            if name in self._existing():
                self._tables[kind] = self.db.open_table(name)
            else:
                self._tables[kind] = self.db.create_table(name, schema=schema, exist_ok=True)
        return self._tables[kind]

    def count(self, kind: str) -> int:
        return int(self.table(kind).count_rows())

    # -- documents --------------------------------------------------------------------------
    def documents(self) -> list[dict[str, Any]]:
        return list(self.table(DOCUMENTS).to_arrow().to_pylist())

    def remove_documents(self, sources: Sequence[str]) -> None:
        """Drop these sources' rows from every table (the manifest last)."""
        if not sources:
            return
        listed = ", ".join(_sql(s) for s in sources)
        with self._writing():
            for kind in ("figures", "chunks", DOCUMENTS):
                self.table(kind).delete(f"source IN ({listed})")

    def repair(self) -> int:
        """Delete rows of documents that never reached the manifest; returns rows removed.

        Under the write lock: another process's document is written whole before it is seen.
        """
        removed = 0
        with self._writing():
            self.table(DOCUMENTS).checkout_latest()
            committed = {d["doc_id"] for d in self.documents()}
            for kind in ("figures", "chunks"):
                t = self.table(kind)
                t.checkout_latest()
                ids = set(column_values(t, "doc_id"))
                for orphan in ids - committed:
                    before = t.count_rows()
                    t.delete(f"doc_id = {_sql(orphan)}")
                    removed += before - t.count_rows()
        return removed

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Writes from every process, one at a time (a local store: flock beside the tables).

        LanceDB lets two writers append the same rows (two ingests of one new file stored it
        twice); under this lock each writer first sees the other's rows, then adds only what
        is missing. The kernel drops the lock with a killed process.
        """
        if "://" in self.uri:  # an object-store URI: one writer per home (core.runlock)
            yield
            return
        with held(Path(self.uri) / ".write.lock"):
            yield

    def _missing(self, kind: str, id_column: str, rows: list[dict[str, Any]]) -> list[Any]:
        """Rows whose id the table (as of now, other processes' writes included) lacks."""
        t = self.table(kind)
        t.checkout_latest()
        known = set(column_values(t, id_column))
        fresh, seen = [], set()
        for r in rows:
            if r[id_column] not in known and r[id_column] not in seen:
                seen.add(r[id_column])
                fresh.append(r)
        return fresh

    def write_documents(
        self,
        manifests: list[dict[str, Any]],
        chunks: list[dict[str, Any]],
        figures: list[dict[str, Any]],
    ) -> None:
        """Figures, then chunks, then the manifest rows that make the documents count.

        A row whose id is stored already (another process ingested the same document) is not
        added again: a document and its content are stored once.
        """
        with self._writing():
            self._append("figures", self._missing("figures", "figure_id", figures))
            self._append("chunks", self._missing("chunks", "chunk_id", chunks))
            manifests = self._missing(DOCUMENTS, "doc_id", manifests)
            if manifests:
                self.table(DOCUMENTS).add(pa.Table.from_pylist(manifests, schema=DOCUMENT_SCHEMA))

    def add_references(self, rows: list[dict[str, Any]]) -> int:
        """Add reference questions not already present (by ref_id)."""
        return self._add_new("references", "ref_id", rows)

    def add_questions(self, rows: list[dict[str, Any]]) -> int:
        """Add stored questions not already indexed (by question_id)."""
        return self._add_new("questions", "question_id", rows)

    def known_ids(self, kind: str) -> set[str]:
        return set(column_values(self.table(kind), _META[kind][0]))

    def _add_new(self, kind: str, id_column: str, rows: list[dict[str, Any]]) -> int:
        with self._writing():
            fresh = self._missing(kind, id_column, rows)
            self._append(kind, fresh)
        return len(fresh)

    def _append(self, kind: str, rows: list[dict[str, Any]]) -> None:
        """Add rows to a searchable table; its full-text index is then stale."""
        if rows:
            self.table(kind).add(pa.Table.from_pylist(rows, schema=self._schemas[kind]))
            self._fts_dirty.add(kind)

    def near_duplicates(
        self, kind: Literal["questions", "references"], text: str, threshold: float, k: int = 5
    ) -> list[Hit]:
        """Stored or reference questions whose vectors are at least `threshold` cosine-similar."""
        return [h for h in self.search(kind, text, k=k, mode="vector") if h.score >= threshold]

    # -- indexes ----------------------------------------------------------------------------
    def build_indexes(self, force: bool = False) -> None:
        """Refresh full-text indexes of changed tables; add an IVF index once a table is large.

        Under the write lock: two processes building one index conflict in LanceDB's commit.
        """
        with self._writing():
            for kind in ("chunks", "figures", "references", "questions"):
                t = self.table(kind)
                t.checkout_latest()
                n = t.count_rows()
                if n == 0 or (
                    not force and kind not in self._fts_dirty and self._has_index(t, "text")
                ):
                    continue
                t.create_index("text", config=FTS(), replace=True)
                # Bitmap indexes make the prefilters of full-text search cheap.
                for column in [
                    c for c in _META[kind] if c in (*FILTER_COLUMNS, "syllabus_status", "captioned")
                ]:
                    t.create_index(column, config=Bitmap(), replace=True)
                if n >= VECTOR_INDEX_MIN_ROWS:
                    t.create_index(
                        "vector",
                        config=IvfFlat(distance_type="cosine", num_partitions=math.isqrt(n)),
                        replace=True,
                    )
        self._fts_dirty.clear()

    @staticmethod
    def _has_index(table: Any, column: str) -> bool:
        return any(column in (i.columns or []) for i in table.list_indices())

    # -- search -----------------------------------------------------------------------------
    def search(
        self,
        kind: Literal["chunks", "figures", "references", "questions"],
        text: str,
        k: int = 5,
        mode: SearchMode = "hybrid",
        filters: Mapping[str, str | None] | None = None,
        vector: NDArray[np.float32] | None = None,
        include_unlisted: bool = False,
    ) -> list[Hit]:
        """Best hits for text: BM25 full-text, vector (cosine similarity), or LanceDB's hybrid
        query (both, fused by reciprocal rank; its score is the fused one).

        `filters` are equalities on subject, unit_id, chapter_id or topic_id. Content tagged to
        deleted or out-of-syllabus topics, and uncaptioned figures, are left out unless
        `include_unlisted` (uncaptioned figures are left out always).
        """
        where = _where(_conditions(kind, filters, include_unlisted))
        t = self.table(kind)
        meta = _META[kind]
        if mode != "fts":
            vector = vector if vector is not None else self.embedder.embed([text])[0]
        try:
            if mode == "hybrid":
                # The two legs run as LanceDB queries of their own, each selecting only its
                # metadata and score (LanceDB's one-call hybrid reads every column, vectors
                # included, and warns on stderr when told to select), then LanceDB's own RRF
                # reranker fuses them (BENCHMARKS.md, Retrieval).
                fts = t.search(text, query_type="fts").select([*meta, "_score"])
                vec = t.search(vector, query_type="vector").select([*meta, "_distance"])
                legs = [q.with_row_id(True) for q in (vec.distance_type("cosine"), fts)]
                if where:
                    legs = [q.where(where, prefilter=True) for q in legs]
                # Each leg hands the fusion its best k, as LanceDB's one-call hybrid does. A
                # deeper list lets chunks ranked low in both legs outrank one leg's best: with
                # 20 per leg (the hand-written fusion's depth) recall@5 fell from 0.988 to
                # 0.925 on the bundled knowledge base (bench/retrieval.py, 2026-11-26).
                vec_rows, fts_rows = (q.limit(k).to_arrow() for q in legs)
                fused = _RRF.rerank_hybrid(text, vec_rows, fts_rows)
                rows = fused.slice(0, k).to_pylist()
            else:
                query = (
                    t.search(text, query_type="fts").select([*meta, "_score"])
                    if mode == "fts"
                    else t.search(vector, query_type="vector")
                    .select([*meta, "_distance"])
                    .distance_type("cosine")  # the metric of the IVF index
                )
                if where:
                    query = query.where(where, prefilter=True)
                rows = query.limit(k).to_list()
        except (ValueError, RuntimeError):
            # No full-text index yet (nothing indexed), or an empty text: the hybrid query has
            # only its vector side then, and full-text search has nothing.
            if mode == "vector":
                raise
            if mode == "fts":
                return []
            return self.search(kind, text, k, "vector", filters, vector, include_unlisted)
        return [_hit(kind, row, _score(mode, row)) for row in rows]


# LanceDB's reciprocal-rank fusion (k = 60), returning the fused score as `_relevance_score`.
_RRF = RRFReranker()

_META = {
    "chunks": ["chunk_id", "text", "source", "section", *FILTER_COLUMNS, "syllabus_status"],
    "figures": [
        "figure_id",
        "text",
        "source",
        "section",
        *FILTER_COLUMNS,
        "syllabus_status",
        "captioned",
    ],
    "references": ["ref_id", "text", "source", "subject", "topic"],
    "questions": ["question_id", "text", *FILTER_COLUMNS],
}


def _conditions(
    kind: str, filters: Mapping[str, str | None] | None, include_unlisted: bool
) -> dict[str, str | bool]:
    """The equalities a search of `kind` keeps rows by: the caller's filters and the listing."""
    wanted = {c: v for c, v in (filters or {}).items() if v}
    allowed = {"references": ("subject",)}.get(kind, FILTER_COLUMNS)
    if set(wanted) - set(allowed):
        raise ValueError(f"cannot filter {kind} on {sorted(set(wanted) - set(allowed))}")
    conditions: dict[str, str | bool] = dict(wanted)
    if kind in ("chunks", "figures") and not include_unlisted:
        conditions["syllabus_status"] = "in_syllabus"
    if kind == "figures":
        conditions["captioned"] = True
    return conditions


def _where(conditions: Mapping[str, str | bool]) -> str | None:
    parts = [
        f"{c} = {str(v).lower() if isinstance(v, bool) else _sql(v)}"
        for c, v in sorted(conditions.items())
    ]
    return " AND ".join(parts) or None


def _score(mode: SearchMode, row: Mapping[str, Any]) -> float:
    if mode == "fts":
        return float(row["_score"])
    if mode == "vector":
        return 1.0 - float(row["_distance"])  # LanceDB's cosine distance is 1 - similarity
    return float(row["_relevance_score"])


def _hit(kind: str, row: Mapping[str, Any], score: float) -> Hit:
    return Hit(
        kind=KIND_NAMES[kind],  # type: ignore[arg-type]
        id=str(row[_META[kind][0]]),
        score=round(score, 5),
        text=str(row["text"]),
        source=str(row.get("source") or ""),
        where=str(row.get("section") or ""),
        subject=row.get("subject") or None,
        topic_id=row.get("topic_id", row.get("topic")) or None,
    )
