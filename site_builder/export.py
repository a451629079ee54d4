"""Export to the object store in a safe order: questions, then the dated paper, then the pointer."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from core.records import Paper, Question
from core.storage import ObjectStore
from site_builder.documents import (
    DAILY_POINTER_KEY,
    daily_paper_key,
    json_bytes,
    paper_document,
    question_file,
    question_key,
)


@dataclass(frozen=True)
class ExportReport:
    questions_written: int
    questions_unchanged: int
    paper_written: bool


def write_question_files(store: ObjectStore, questions: Sequence[Question]) -> tuple[int, int]:
    """Write each question file once (immutable); returns (written, already there)."""
    written = sum(
        store.put_immutable(question_key(q.question_id), question_file(q)) for q in questions
    )
    return written, len(questions) - written


def export_daily_paper(
    store: ObjectStore,
    paper: Paper,
    paper_questions: Sequence[Question],
    all_questions: Sequence[Question],
) -> ExportReport:
    """Question files first, then the dated paper, so the paper never names a missing file."""
    written, unchanged = write_question_files(store, all_questions)
    missing = [
        q.question_id for q in paper_questions if not store.exists(question_key(q.question_id))
    ]
    if missing:
        raise RuntimeError(f"paper {paper.exam_id} refers to unexported questions {missing[:3]}")
    assert paper.exam_date is not None
    paper_written = store.put_immutable(
        daily_paper_key(paper.exam_date), json_bytes(paper_document(paper, paper_questions))
    )
    return ExportReport(written, unchanged, paper_written)


def current_pointer_date(store: ObjectStore) -> str | None:
    raw = store.get(DAILY_POINTER_KEY)
    return json.loads(raw).get("date") if raw else None


def publish_daily_pointer(store: ObjectStore, date: str) -> bool:
    """Point /exams/daily at the dated paper (last step; never moves to an older date)."""
    current = current_pointer_date(store)
    if current is not None and current > date:
        return False
    dated = store.get(daily_paper_key(date))
    if dated is None:
        raise RuntimeError(f"no exported paper for {date}: export it before publishing")
    store.put(DAILY_POINTER_KEY, dated)
    return True
