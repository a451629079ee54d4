"""Export to the object store in a safe order: questions, then the dated paper, then the pointer."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import brotli

from core.records import Paper, Question
from core.shapes import drawn_figures, figure_key
from core.storage import ObjectStore
from pipeline.figures.render import svg_of
from pipeline.figures.svg import figure_id_of
from site_builder.documents import (
    DAILY_POINTER_KEY,
    daily_paper_key,
    json_bytes,
    paper_document,
    question_file,
    question_key,
)
from site_builder.integrity import put_published, refuse_live_markup


@dataclass(frozen=True)
class ExportReport:
    questions_written: int
    questions_unchanged: int
    paper_written: bool


# Paper files are what every student downloads each day: they also get compressed variants
# (`<key>.gz`, `<key>.br`), served with Content-Encoding where the client accepts it.
ENCODINGS = {".gz": "gzip", ".br": "br"}
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def compressed_variants(data: bytes) -> dict[str, bytes]:
    """Deterministic gzip and brotli encodings of a file, by key suffix."""
    return {
        ".gz": gzip.compress(data, compresslevel=9, mtime=0),
        ".br": brotli.compress(data, quality=11),
    }


# The ids already exported, one per line: reading one object is what keeps a re-export with
# nothing new under a second at 100k questions (listing 100k files took 2.8 s). It is written
# after the files it names, so it may lag them (a killed run) but never runs ahead of them.
EXPORT_MANIFEST_KEY = "internal/export/question-ids"


def exported_question_ids(store: ObjectStore) -> set[str]:
    """Ids of every question file already exported (the manifest, else one listing)."""
    manifest = store.get(EXPORT_MANIFEST_KEY)
    if manifest is not None:
        return set(manifest.decode("ascii").split())
    prefix = question_key("")
    return {k.removeprefix(prefix) for k in store.keys(prefix) if "." not in k.removeprefix(prefix)}


def record_exported(store: ObjectStore, ids: set[str]) -> None:
    """Write the manifest of exported ids (after the files themselves), if it changed."""
    data = "\n".join(sorted(ids)).encode("ascii")
    if store.get(EXPORT_MANIFEST_KEY) != data:
        store.flush()  # the files it names are durable before it is
        store.put(EXPORT_MANIFEST_KEY, data)


class FigureDriftError(RuntimeError):
    """A figure's spec no longer draws the bytes its id is the hash of (a renderer changed):
    publishing would put other bytes under an immutable image's name, so nothing is published."""


def figure_files(question: Question) -> list[tuple[str, bytes]]:
    """The image files of a question's drawn figures: (key, bytes), compressed variants first.

    Each SVG is drawn again from its spec and must hash to the figure's id.
    """
    files: list[tuple[str, bytes]] = []
    for figure in drawn_figures(question):
        assert figure.spec is not None
        svg = svg_of(figure.spec)  # sanitised: svg_of refuses an unsafe drawing
        if figure_id_of(svg) != figure.figure_id:
            raise FigureDriftError(
                f"{question.question_id}: its figure {figure.figure_id} now draws other bytes"
            )
        key, data = figure_key(figure.figure_id), svg.encode("utf-8")
        files += [(key + suffix, v) for suffix, v in compressed_variants(data).items()]
        files.append((key, data))
    return files


def figure_image_keys(question: Question) -> list[str]:
    """The keys `figure_files` writes for a question, without drawing anything."""
    return [
        figure_key(f.figure_id) + suffix
        for f in drawn_figures(question)
        for suffix in (*ENCODINGS, "")
    ]


def write_figure_images(store: ObjectStore, questions: Iterable[Question]) -> list[str]:
    """Write the images of the questions' drawn figures not published yet; returns the keys
    written.

    Called before the questions' own files, so no published question names a missing image. An
    image already published (all three files) is left alone and not drawn again: a renderer
    upgraded since cannot stop a run over images that are out already.
    """
    written: list[str] = []
    for question in questions:
        keys = figure_image_keys(question)
        if all(store.exists(k) for k in keys):
            continue
        for key, data in figure_files(question):
            if not store.exists(key) and put_published(store, key, data, question.question_id):
                written.append(key)
    return written


def write_question_files(
    store: ObjectStore, questions: Sequence[Question], exported: set[str] | None = None
) -> tuple[int, int]:
    """Write the files of questions not exported yet; returns (written, already there).

    Only new questions are rendered, so the cost grows with what is new, not with the pool;
    `verify_question_files` re-renders everything when that is wanted.
    """
    known = exported_question_ids(store) if exported is None else exported
    new = [q for q in questions if q.question_id not in known]
    write_figure_images(store, new)
    fresh = [(q.question_id, question_file(q)) for q in new]
    write_rendered_files(store, fresh, known)
    if exported is None:
        record_exported(store, known)
    return len(fresh), len(questions) - len(fresh)


def write_rendered_files(
    store: ObjectStore, files: Iterable[tuple[str, bytes]], exported: set[str]
) -> int:
    """Write already-rendered question files (id, bytes) not exported yet; returns how many.

    `files` may be a stream (a full export is one call, so the store can stage it). A file that
    exists but is missing from the manifest (a killed run) is compared, never overwritten.
    `record_exported` makes the files durable before it names them.
    """
    prefix = question_key("")
    written: list[str] = []

    def fresh() -> Iterator[tuple[str, bytes]]:
        for question_id, data in files:
            if question_id not in exported:
                written.append(question_id)
                yield question_key(question_id), data

    present = store.put_new(fresh())
    for key, data in present:  # there already (a killed run wrote it): it must hold the same bytes
        put_published(store, key, data, key.removeprefix(prefix))
    exported.update(written)
    return len(written) - len(present)


def verify_question_files(store: ObjectStore, questions: Sequence[Question]) -> list[str]:
    """Ids whose exported file differs from what the exporter renders now (should be none)."""
    return [
        q.question_id
        for q in questions
        if (data := store.get(question_key(q.question_id))) is not None and data != question_file(q)
    ]


def export_daily_paper(
    store: ObjectStore,
    paper: Paper,
    paper_questions: Sequence[Question],
    all_questions: Sequence[Question],
) -> ExportReport:
    """Question files first, then the dated paper, so the paper never names a missing file."""
    exported = exported_question_ids(store)
    written, unchanged = write_question_files(store, all_questions, exported)
    record_exported(store, exported)
    missing = [
        q.question_id for q in paper_questions if not store.exists(question_key(q.question_id))
    ]
    if missing:
        raise RuntimeError(f"paper {paper.exam_id} refers to unexported questions {missing[:3]}")
    assert paper.exam_date is not None
    key = daily_paper_key(paper.exam_date)
    document = paper_document(paper, paper_questions)
    refuse_live_markup(document, paper.exam_id)
    data = json_bytes(document)
    # Variants before the plain file: whoever finds the paper finds its variants too.
    for suffix, encoded in compressed_variants(data).items():
        put_published(store, key + suffix, encoded, paper.exam_id)
    paper_written = put_published(store, key, data, paper.exam_id)
    return ExportReport(written, unchanged, paper_written)


def exported_daily_dates(store: ObjectStore) -> list[str]:
    """Dates whose daily paper is exported (the plain JSON file, not its variants or preview)."""
    prefix = daily_paper_key("")
    return sorted(
        d for k in store.keys(prefix) if DATE.fullmatch(d := k.removeprefix(prefix)) is not None
    )


def current_pointer_date(store: ObjectStore) -> str | None:
    raw = store.get(DAILY_POINTER_KEY)
    return json.loads(raw).get("date") if raw else None


def publish_daily_pointer(store: ObjectStore, date: str) -> bool:
    """Point /exams/daily at the dated paper (last step; never moves to an older date).

    The check and the writes are one step under the store's pointer lock: two publishers
    can neither move it back nor leave the plain and compressed pointers on different dates.
    """
    with store.exclusive("daily-pointer"):
        current = current_pointer_date(store)
        if current is not None and current > date:
            return False
        dated = store.get(daily_paper_key(date))
        if dated is None:
            raise RuntimeError(f"no exported paper for {date}: export it before publishing")
        for suffix in ENCODINGS:
            variant = store.get(daily_paper_key(date) + suffix)
            if variant is not None:
                store.put(DAILY_POINTER_KEY + suffix, variant)
        store.put(DAILY_POINTER_KEY, dated)
        return True
