"""The knowledge store on LanceDB: chunks, figure captions, reference questions, a manifest.

Every vector table is named after the model that made its vectors, so vectors of two models never
share a table. A document's figures and chunks are written before its manifest row; rows of any
document missing from the manifest (a crash mid-document) are removed by `repair` before ingesting.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import lancedb
import numpy as np
import pyarrow as pa
from lancedb.index import FTS, IvfFlat
from numpy.typing import NDArray

from core.providers import Embedder

SearchMode = Literal["hybrid", "vector", "fts"]
# Past this many rows a flat scan gets slow: build an IVF_FLAT index.
IVF_MIN_ROWS = 20_000
RRF_K = 60
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


def where_clause(filters: dict[str, str | None]) -> str | None:
    """A LanceDB filter from equality filters (subject, unit_id, chapter_id, topic_id)."""
    parts = [f"{k} = {_sql(v)}" for k, v in sorted(filters.items()) if v]
    return " AND ".join(parts) or None


def _tag_fields() -> list[pa.Field]:
    return [
        pa.field("subject", pa.string()),
        pa.field("unit_id", pa.string()),
        pa.field("chapter_id", pa.string()),
        pa.field("topic_id", pa.string()),
        pa.field("tag_confidence", pa.float32()),
        pa.field("tag_method", pa.string()),
        pa.field("syllabus_status", pa.string()),
    ]


def chunk_schema(dim: int) -> pa.Schema:
    return pa.schema(
        [
            pa.field("chunk_id", pa.string()),
            pa.field("doc_id", pa.string()),
            pa.field("source", pa.string()),
            pa.field("title", pa.string()),
            pa.field("section", pa.string()),
            pa.field("page", pa.int32()),
            pa.field("licence", pa.string()),
            pa.field("text", pa.string()),
            *_tag_fields(),
            pa.field("embedding_model", pa.string()),
            pa.field("vector", pa.list_(pa.float32(), dim)),
        ]
    )


def figure_schema(dim: int) -> pa.Schema:
    return pa.schema(
        [
            pa.field("figure_id", pa.string()),
            pa.field("doc_id", pa.string()),
            pa.field("source", pa.string()),
            pa.field("section", pa.string()),
            pa.field("caption", pa.string()),
            pa.field("alt", pa.string()),
            pa.field("caption_source", pa.string()),
            pa.field("captioned", pa.bool_()),
            pa.field("image_keys", pa.list_(pa.string())),
            pa.field("text", pa.string()),
            *_tag_fields(),
            pa.field("embedding_model", pa.string()),
            pa.field("vector", pa.list_(pa.float32(), dim)),
        ]
    )


def reference_schema(dim: int) -> pa.Schema:
    return pa.schema(
        [
            pa.field("ref_id", pa.string()),
            pa.field("question", pa.string()),
            pa.field("options", pa.list_(pa.string())),
            pa.field("answer", pa.string()),
            pa.field("subject", pa.string()),
            pa.field("topic", pa.string()),
            pa.field("source", pa.string()),
            pa.field("text", pa.string()),
            pa.field("embedding_model", pa.string()),
            pa.field("vector", pa.list_(pa.float32(), dim)),
        ]
    )


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


@dataclass(frozen=True)
class Hit:
    kind: Literal["chunk", "figure", "reference"]
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
        self.db = lancedb.connect(uri)
        self.embedder = embedder
        slug = model_slug(embedder.model_id)
        self.names = {
            "chunks": f"chunks__{slug}",
            "figures": f"figures__{slug}",
            "references": f"references__{slug}",
        }
        self._schemas = {
            "chunks": chunk_schema(embedder.dim),
            "figures": figure_schema(embedder.dim),
            "references": reference_schema(embedder.dim),
        }
        self._fts_dirty: set[str] = set()

    # -- tables -----------------------------------------------------------------------------
    def _existing(self) -> set[str]:
        return set(self.db.list_tables().tables)

    def table(self, kind: str) -> Any:
        name = DOCUMENTS if kind == DOCUMENTS else self.names[kind]
        if name not in self._existing():
            schema = DOCUMENT_SCHEMA if kind == DOCUMENTS else self._schemas[kind]
            return self.db.create_table(name, schema=schema, exist_ok=True)
        return self.db.open_table(name)

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
        for kind in ("figures", "chunks", DOCUMENTS):
            self.table(kind).delete(f"source IN ({listed})")

    def repair(self) -> int:
        """Delete rows of documents that never reached the manifest; returns rows removed."""
        committed = {d["doc_id"] for d in self.documents()}
        removed = 0
        for kind in ("figures", "chunks"):
            t = self.table(kind)
            ids = set(column_values(t, "doc_id"))
            for orphan in ids - committed:
                before = t.count_rows()
                t.delete(f"doc_id = {_sql(orphan)}")
                removed += before - t.count_rows()
        return removed

    def write_documents(
        self,
        manifests: list[dict[str, Any]],
        chunks: list[dict[str, Any]],
        figures: list[dict[str, Any]],
    ) -> None:
        """Figures, then chunks, then the manifest rows that make the documents count."""
        if figures:
            self.table("figures").add(
                pa.Table.from_pylist(figures, schema=self._schemas["figures"])
            )
            self._fts_dirty.add("figures")
        if chunks:
            self.table("chunks").add(pa.Table.from_pylist(chunks, schema=self._schemas["chunks"]))
            self._fts_dirty.add("chunks")
        if manifests:
            self.table(DOCUMENTS).add(pa.Table.from_pylist(manifests, schema=DOCUMENT_SCHEMA))

    def add_references(self, rows: list[dict[str, Any]]) -> int:
        """Add reference questions not already present (by ref_id)."""
        t = self.table("references")
        known = set(column_values(t, "ref_id"))
        fresh = [r for r in rows if r["ref_id"] not in known]
        if fresh:
            t.add(pa.Table.from_pylist(fresh, schema=self._schemas["references"]))
            self._fts_dirty.add("references")
        return len(fresh)

    # -- indexes ----------------------------------------------------------------------------
    def build_indexes(self, force: bool = False) -> None:
        """Refresh full-text indexes of changed tables; add an IVF index once a table is large."""
        for kind in ("chunks", "figures", "references"):
            t = self.table(kind)
            n = t.count_rows()
            if n == 0 or (not force and kind not in self._fts_dirty and self._has_index(t, "text")):
                continue
            t.create_index("text", config=FTS(), replace=True)
            if n >= IVF_MIN_ROWS:
                t.create_index(
                    "vector",
                    config=IvfFlat(distance_type="cosine", num_partitions=int(np.sqrt(n))),
                    replace=True,
                )
        self._fts_dirty.clear()

    @staticmethod
    def _has_index(table: Any, column: str) -> bool:
        return any(column in (i.columns or []) for i in table.list_indices())

    # -- search -----------------------------------------------------------------------------
    def search(
        self,
        kind: Literal["chunks", "figures", "references"],
        text: str,
        k: int = 5,
        mode: SearchMode = "hybrid",
        where: str | None = None,
        vector: NDArray[np.float32] | None = None,
        include_unlisted: bool = False,
    ) -> list[Hit]:
        """Best hits for text: BM25 full-text, vector (cosine), or both fused by reciprocal rank.

        Content tagged to deleted or out-of-syllabus topics, and uncaptioned figures, are left
        out unless `include_unlisted` (which still leaves out uncaptioned figures).
        """
        t = self.table(kind)
        if t.count_rows() == 0:
            return []
        required = {
            "chunks": ["syllabus_status = 'in_syllabus'"],
            "figures": ["syllabus_status = 'in_syllabus'", "captioned = true"],
            "references": [],
        }[kind]
        if include_unlisted:
            required = [r for r in required if "syllabus_status" not in r]
        where = " AND ".join(p for p in (where, *required) if p) or None
        depth = k if mode != "hybrid" else max(20, 4 * k)
        fts = self._fts(t, text, depth, where) if mode in ("fts", "hybrid") else []
        vec: list[dict[str, Any]] = []
        if mode in ("vector", "hybrid"):
            q = vector if vector is not None else self.embedder.embed([text])[0]
            vec = self._vector(t, q, depth, where)
        if mode == "fts":
            ranked = [(r, float(r["_score"])) for r in fts]
        elif mode == "vector":
            ranked = [(r, 1.0 - float(r["_distance"])) for r in vec]
        else:
            ranked = _rrf([fts, vec], self._id_column(kind))
        return [self._hit(kind, r, s) for r, s in ranked[:k]]

    _COLUMNS: ClassVar[dict[str, list[str]]] = {
        "chunks": ["chunk_id", "text", "source", "section", "subject", "topic_id"],
        "figures": ["figure_id", "text", "source", "section", "subject", "topic_id"],
        "references": ["ref_id", "text", "source", "subject", "topic"],
    }

    def _id_column(self, kind: str) -> str:
        return self._COLUMNS[kind][0]

    def _fts(self, t: Any, text: str, k: int, where: str | None) -> list[dict[str, Any]]:
        kind = next(kk for kk, v in self.names.items() if v == t.name)
        q = t.search(text, query_type="fts").select(self._COLUMNS[kind] + ["_score"]).limit(k)
        if where:
            q = q.where(where, prefilter=True)
        try:
            return list(q.to_list())
        except (ValueError, RuntimeError):  # no FTS index yet, or a query with no terms
            return []

    def _vector(
        self, t: Any, q: NDArray[np.float32], k: int, where: str | None
    ) -> list[dict[str, Any]]:
        kind = next(kk for kk, v in self.names.items() if v == t.name)
        query = t.search(q).distance_type("cosine").select([*self._COLUMNS[kind], "_distance"]).limit(k)
        if where:
            query = query.where(where, prefilter=True)
        if t.count_rows() >= IVF_MIN_ROWS:
            query = query.nprobes(20).refine_factor(2)
        return list(query.to_list())

    @staticmethod
    def _hit(kind: str, row: dict[str, Any], score: float) -> Hit:
        ident = row.get("chunk_id") or row.get("figure_id") or row.get("ref_id") or ""
        return Hit(
            kind={"chunks": "chunk", "figures": "figure", "references": "reference"}[kind],  # type: ignore[arg-type]
            id=ident,
            score=round(score, 5),
            text=row.get("text", ""),
            source=row.get("source", ""),
            where=row.get("section", "") or "",
            subject=row.get("subject"),
            topic_id=row.get("topic_id") or row.get("topic"),
        )


def _rrf(
    lists: Sequence[list[dict[str, Any]]], id_column: str
) -> list[tuple[dict[str, Any], float]]:
    """Reciprocal-rank fusion: each list adds 1/(60 + rank) for the rows it ranks."""
    scores: dict[str, float] = {}
    rows: dict[str, dict[str, Any]] = {}
    for results in lists:
        for rank, row in enumerate(results, start=1):
            key = row[id_column]
            scores[key] = scores.get(key, 0.0) + 1.0 / (RRF_K + rank)
            rows.setdefault(key, row)
    return sorted(((rows[key], s) for key, s in scores.items()), key=lambda x: -x[1])
