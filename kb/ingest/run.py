"""Ingest files into the knowledge store: parse, chunk, store figures, embed, tag, write.

Each file is one unit of work: it lands whole (figures, chunks and vectors, then its manifest row)
or not at all, and a bad file becomes one line in the report while the batch goes on.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from core.ids import digest
from core.providers import Embedder
from core.storage import ObjectStore
from kb.ingest.chunking import section_chunks
from kb.ingest.model import FigureSource, ImageBlob, IngestError, ParsedDocument
from kb.ingest.parsers import PARSERS
from kb.store import KnowledgeStore
from kb.syllabus import Syllabus, UnknownTopicError
from kb.tagging import Tag, TopicIndex, front_matter_tag, similarity_tags, subject_of

FIGURE_PREFIX = "kb/figures"
# Rows are written to LanceDB in batches of about this many chunks (each write is a new version).
BATCH_CHUNKS = 2000
# Two chunks of one document at least this cosine-similar say the same thing (a repeated
# boilerplate page, a file of one line over and over): the later one is dropped.
NEAR_DUPLICATE_CHUNK = 0.97
DEFAULT_MAX_CHUNKS_PER_DOCUMENT = 1000
DEFAULT_LICENCE = "unknown"


class Captioner(Protocol):
    """Writes a caption for an image (a vision model); None when it cannot."""

    def caption(self, image: bytes, context: str) -> str | None: ...


@dataclass
class FileResult:
    source: str
    status: Literal["ingested", "unchanged", "failed"]
    chunks: int = 0
    figures: int = 0
    uncaptioned: int = 0
    dropped_duplicates: int = 0  # exact or near-duplicate chunks of the same document
    dropped_over_cap: int = 0  # chunks past the per-document cap
    error: str | None = None
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Prepared:
    """One document's rows, ready to write; `replaces` when an older version is stored."""

    manifest: dict[str, Any]
    chunks: list[dict[str, Any]]
    figures: list[dict[str, Any]]
    replaces: bool


@dataclass
class IngestReport:
    files: list[FileResult] = field(default_factory=list)
    seconds: float = 0.0
    repaired_rows: int = 0

    def count(self, status: str) -> int:
        return sum(f.status == status for f in self.files)

    @property
    def chunks(self) -> int:
        return sum(f.chunks for f in self.files)

    @property
    def dropped_duplicates(self) -> int:
        return sum(f.dropped_duplicates for f in self.files)

    @property
    def dropped_over_cap(self) -> int:
        return sum(f.dropped_over_cap for f in self.files)

    @property
    def chunks_per_second(self) -> float:
        return self.chunks / self.seconds if self.seconds else 0.0

    def lines(self) -> list[str]:
        out = []
        for f in self.files:
            if f.status == "failed":
                out.append(f"FAILED    {f.source}: {f.error}")
            elif f.status == "ingested":
                out.append(
                    f"ingested  {f.source}: {f.chunks} chunks, {f.figures} figures"
                    + (
                        f" ({f.uncaptioned} uncaptioned, left out of search)"
                        if f.uncaptioned
                        else ""
                    )
                )
            for w in f.warnings:
                out.append(f"  warning: {f.source}: {w}")
        dropped = (
            f"; dropped {self.dropped_duplicates} duplicate and {self.dropped_over_cap} over-cap"
            " chunks"
            if self.dropped_duplicates or self.dropped_over_cap
            else ""
        )
        out.append(
            f"{self.count('ingested')} ingested, {self.count('unchanged')} unchanged, "
            f"{self.count('failed')} failed; {self.chunks} chunks in {self.seconds:.2f} s "
            f"({self.chunks_per_second:.0f} chunks/s){dropped}"
        )
        return out


def source_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Files named, and files under folders named, in a stable order (hidden files skipped)."""
    for p in paths:
        if p.is_dir():
            yield from sorted(
                f
                for f in p.rglob("*")
                if f.is_file()
                and not any(s.startswith(".") for s in f.parts)
                and f.suffix.lower() in PARSERS
            )
        else:
            yield p


def image_extension(data: bytes) -> str:
    """The file extension for decodable image bytes, or IngestError when they do not decode."""
    head = data[:512].lstrip()
    if head.startswith(b"<?xml") or head.startswith(b"<svg"):
        try:
            root = ET.fromstring(data)
        except ET.ParseError:
            raise IngestError("SVG image does not parse") from None
        if not root.tag.endswith("svg"):
            raise IngestError("XML image is not SVG")
        return ".svg"
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as im:
            fmt = (im.format or "").lower()
            im.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise IngestError(f"image does not decode ({type(exc).__name__})") from None
    return {"jpeg": ".jpg"}.get(fmt, f".{fmt}" if fmt else ".bin")


def store_image(store: ObjectStore, blob: ImageBlob) -> str:
    """Put an image once under its content hash; returns its key."""
    ext = image_extension(blob.data)
    key = f"{FIGURE_PREFIX}/{hashlib.sha256(blob.data).hexdigest()[:32]}{ext}"
    store.put_immutable(key, blob.data)
    return key


def _not_near_duplicates(vectors: Any, cap: int) -> tuple[list[int], int]:
    """Positions of the chunks kept, in order, and how many the cap left out: each is kept
    unless it is a near-duplicate (cosine ≥ NEAR_DUPLICATE_CHUNK) of one kept before it, and
    at most `cap` of them."""
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    kept: list[int] = []
    over_cap = 0
    chosen = np.zeros((min(cap, len(unit)), unit.shape[1]), dtype=unit.dtype)
    for i, v in enumerate(unit):
        if kept and float((chosen[: len(kept)] @ v).max()) >= NEAR_DUPLICATE_CHUNK:
            continue
        if len(kept) == cap:
            over_cap += 1
            continue
        chosen[len(kept)] = v
        kept.append(i)
    return kept, over_cap


def _tag_row(tag: Tag) -> dict[str, Any]:
    return {
        "subject": tag.subject or "",
        "unit_id": tag.unit_id or "",
        "chapter_id": tag.chapter_id or "",
        "topic_id": tag.topic_id or "",
        "tag_confidence": tag.confidence,
        "tag_method": tag.method,
        "syllabus_status": tag.status,
    }


@dataclass
class Ingestor:
    """Everything ingestion needs, built once at the edge."""

    kstore: KnowledgeStore
    objects: ObjectStore
    embedder: Embedder
    syllabus: Syllabus
    topics: TopicIndex
    captioner: Captioner | None = None
    clock: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC)
    max_chunks_per_document: int = DEFAULT_MAX_CHUNKS_PER_DOCUMENT

    def ingest(self, paths: Iterable[Path]) -> IngestReport:
        """Ingest files, skipping unchanged ones; writes go to the store in batches."""
        started = time.perf_counter()
        report = IngestReport(repaired_rows=self.kstore.repair())
        known = {d["source"]: d["doc_id"] for d in self.kstore.documents()}
        batch: list[Prepared] = []
        for path in source_files(paths):
            result, prepared = self.prepare(path, known)
            report.files.append(result)
            if prepared is not None:
                batch.append(prepared)
            if sum(len(p.chunks) for p in batch) >= BATCH_CHUNKS:
                self._flush(batch)
        self._flush(batch)
        self.kstore.build_indexes()
        report.seconds = time.perf_counter() - started
        return report

    def _flush(self, batch: list[Prepared]) -> None:
        """Replace changed sources, then write the batch (figures, chunks, manifests)."""
        if not batch:
            return
        self.kstore.remove_documents([p.manifest["source"] for p in batch if p.replaces])
        self.kstore.write_documents(
            [p.manifest for p in batch],
            [c for p in batch for c in p.chunks],
            [f for p in batch for f in p.figures],
        )
        batch.clear()

    def prepare(self, path: Path, known: dict[str, str]) -> tuple[FileResult, Prepared | None]:
        """Parse, chunk, store figures, embed and tag one file; nothing is written to LanceDB."""
        source = path.as_posix()
        result = FileResult(source=source, status="failed")
        try:
            parser = PARSERS.get(path.suffix.lower())
            if parser is None:
                known_formats = ", ".join(sorted(PARSERS))
                raise IngestError(
                    f"unknown format {path.suffix or '(no extension)'!r} (known: {known_formats})"
                )
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                raise IngestError("file vanished before it could be read") from None
            except OSError as exc:
                raise IngestError(f"cannot read file ({exc.strerror})") from None
            doc_id = hashlib.sha256(data).hexdigest()
            if known.get(source) == doc_id:
                result.status = "unchanged"
                return result, None
            doc = parser(data, self._asset_reader(path))
            manifest, chunks, figures = self._rows(source, doc_id, doc, result)
            result.status = "ingested"
            return result, Prepared(manifest, chunks, figures, replaces=source in known)
        except IngestError as exc:
            result.error = str(exc)
        except UnknownTopicError as exc:
            result.error = f"front matter names {exc.args[0]}"
        return result, None

    @staticmethod
    def _asset_reader(path: Path) -> Callable[[str], bytes]:
        base = path.parent

        def read(src: str) -> bytes:
            if "://" in src or src.startswith("data:"):
                raise IngestError(f"remote or inline image {src[:40]!r} skipped")
            try:
                return (base / src).read_bytes()
            except OSError:
                raise IngestError(f"image {src} not found next to the document") from None

        return read

    def _rows(
        self, source: str, doc_id: str, doc: ParsedDocument, result: FileResult
    ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
        meta = doc.meta
        licence = meta.get("licence") or meta.get("license") or DEFAULT_LICENCE
        result.warnings.extend(doc.warnings)
        pieces = [
            (section, text) for section in doc.sections for text in section_chunks(section.text)
        ]
        pieces = self._distinct(pieces, result)
        figures = [f for f in (self._figure(f, result) for f in doc.figures) if f is not None]
        texts = [f"{s.title}\n{t}" if s.title else t for s, t in pieces]
        texts += [f["text"] for f in figures]
        vectors = self.embedder.embed(texts) if texts else None
        if vectors is not None and pieces:
            keep, over_cap = _not_near_duplicates(
                vectors[: len(pieces)], self.max_chunks_per_document
            )
            result.dropped_duplicates += len(pieces) - len(keep) - over_cap
            result.dropped_over_cap = over_cap
            if over_cap:
                result.warnings.append(
                    f"more than {self.max_chunks_per_document} chunks: "
                    f"{over_cap} left out (QFORGE_KB_MAX_CHUNKS_PER_DOCUMENT)"
                )
            rows = [*keep, *range(len(pieces), len(texts))]
            pieces = [pieces[i] for i in keep]
            texts = [texts[i] for i in rows]
            vectors = vectors[rows]
        if result.dropped_duplicates:
            result.warnings.append(
                f"{result.dropped_duplicates} chunk(s) repeating another of this document dropped"
            )
        fixed = front_matter_tag(self.syllabus, meta)
        subject, unit = subject_of(meta), meta.get("unit_id")
        tags = (
            [fixed] * len(texts)
            if fixed
            else similarity_tags(self.topics, vectors, subject, unit)
            if vectors is not None
            else []
        )
        base_id = meta.get("chunk_id")
        chunk_rows = []
        for i, ((section, text), tag) in enumerate(zip(pieces, tags, strict=False)):
            if base_id:
                chunk_id = base_id if len(pieces) == 1 else f"{base_id}-{i + 1}"
            else:
                chunk_id = "ch-" + digest([doc_id, i])
            assert vectors is not None
            chunk_rows.append(
                {
                    "chunk_id": chunk_id,
                    "doc_id": doc_id,
                    "source": source,
                    "title": doc.title,
                    "section": section.where,
                    "page": section.page,
                    "licence": licence,
                    "text": text,
                    **_tag_row(tag),
                    "embedding_model": self.embedder.model_id,
                    "vector": vectors[i].tolist(),
                }
            )
        figure_rows = []
        for j, fig in enumerate(figures):
            tag = tags[len(pieces) + j]
            vec = vectors[len(pieces) + j] if vectors is not None else None
            assert vec is not None
            figure_rows.append(
                {
                    **fig,
                    "doc_id": doc_id,
                    "source": source,
                    **_tag_row(tag),
                    "embedding_model": self.embedder.model_id,
                    "vector": vec.tolist() if fig["captioned"] else [0.0] * self.embedder.dim,
                }
            )
        result.chunks = len(chunk_rows)
        result.figures = len(figure_rows)
        result.uncaptioned = sum(not f["captioned"] for f in figure_rows)
        if result.uncaptioned:
            result.warnings.append(f"{result.uncaptioned} figure(s) have no caption text")
        manifest = {
            "source": source,
            "doc_id": doc_id,
            "format": doc.format,
            "title": doc.title,
            "licence": licence,
            "chunks": result.chunks,
            "figures": result.figures,
            "uncaptioned": result.uncaptioned,
            "embedding_model": self.embedder.model_id,
            "ingested_at": self.clock().isoformat(timespec="seconds"),
        }
        return manifest, chunk_rows, figure_rows

    @staticmethod
    def _distinct(pieces: list[tuple[Any, str]], result: FileResult) -> list[tuple[Any, str]]:
        """The document's chunks without exact repeats (same words, any case or spacing)."""
        seen: set[str] = set()
        out = []
        for section, text in pieces:
            words = " ".join(text.lower().split())
            if words in seen:
                result.dropped_duplicates += 1
                continue
            seen.add(words)
            out.append((section, text))
        return out

    def _figure(self, fig: FigureSource, result: FileResult) -> dict[str, Any] | None:
        keys = []
        for blob in fig.images:
            try:
                keys.append(store_image(self.objects, blob))
            except IngestError as exc:
                result.warnings.append(f"figure image {blob.name}: {exc}")
        if not keys:
            return None
        caption, source_kind = fig.caption, "source"
        if not caption and not fig.alt and self.captioner is not None:
            caption = self.captioner.caption(fig.images[0].data, fig.section) or ""
            source_kind = "vision"
        text = " ".join(p for p in (caption, fig.alt) if p)
        return {
            "figure_id": "fig-" + digest([sorted(keys), caption, fig.alt]),
            "section": fig.section,
            "caption": caption,
            "alt": fig.alt,
            "caption_source": source_kind if text else "none",
            "captioned": bool(text),
            "image_keys": keys,
            "text": text,
        }
