"""JSON documents of the static API, field names exact (their models: site_builder.contract)."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypedDict

from core.records import Difficulty, Paper, PaperBlueprint, Question, Subject
from core.shapes import daily_question, question_file_bytes
from kb.syllabus import Syllabus, Topic

API_PREFIX = "api/v1"
MARKS_CORRECT, MARKS_WRONG, MARKS_UNANSWERED = 4, -1, 0
MINUTES_PER_FULL_PAPER = 180


def question_key(question_id: str) -> str:
    return f"{API_PREFIX}/questions/{question_id}"


def daily_paper_key(date: str) -> str:
    return f"{API_PREFIX}/exams/daily/{date}"


DAILY_POINTER_KEY = f"{API_PREFIX}/exams/daily"


def paper_document(paper: Paper, questions: Sequence[Question]) -> dict[str, Any]:
    """Daily exam with Daily questions, plus the additive fields (site_builder.contract)."""
    if [q.question_id for q in questions] != list(paper.question_ids):
        raise ValueError(f"questions do not match the items of {paper.exam_id}")
    n = len(questions)
    document: dict[str, Any] = {
        "exam_id": paper.exam_id,
        "title": paper.title,
        "total_questions": n,
        "questions": [daily_question(q, paper.option_order(i)) for i, q in enumerate(questions)],
        "total_marks": n * MARKS_CORRECT,
        "marking": {
            "correct": MARKS_CORRECT,
            "wrong": MARKS_WRONG,
            "unanswered": MARKS_UNANSWERED,
        },
        "duration_minutes": round(MINUTES_PER_FULL_PAPER * n / 180),
        "date": paper.exam_date,
    }
    # Papers from before blueprints keep their exact bytes: their files are immutable.
    if paper.composition is not None:
        document["blueprint"] = blueprint_block(paper.composition)
    return document


def blueprint_block(c: PaperBlueprint) -> dict[str, Any]:
    """Target against achieved per subject, difficulty and unit, and the answer-key spread."""
    return {
        "id": c.blueprint_id,
        "difficulty_distribution": {d.value: share for d, share in c.difficulty_distribution},
        "subjects": {
            s.subject.value: {
                "difficulty": {
                    t.difficulty.value: {"target": t.target, "achieved": t.achieved}
                    for t in s.difficulty
                },
                "units": {
                    u.unit_id: {"min": u.min, "max": u.max, "achieved": u.achieved} for u in s.units
                },
            }
            for s in c.subjects
        },
        "answer_keys": dict(c.answer_keys),
    }


def json_bytes(document: Any) -> bytes:
    """The exact bytes a document is published as: stable, compact, UTF-8."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def question_file(question: Question) -> bytes:
    return question_file_bytes(question)


# ── Static endpoints beyond the spec's three (issue 7) ───────────────────────────────────────

# Id shapes the static tree relies on, so that no id can land on a reserved name
# (`/questions/withdrawn`, `/exams/daily`, `/exams/generate`, `/practice/generate`).
QUESTION_ID_PATTERN = r"^q-[0-9a-f]{20}$"
DAILY_EXAM_ID_PATTERN = r"^daily-[0-9]{4}-[0-9]{2}-[0-9]{2}$"
DATE_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
# Custom exams, practice sets and jobs: a readable prefix, then random characters.
EXAM_ID_PATTERN = r"^exam-[0-9A-Za-z_-]{8,64}$"
PRACTICE_ID_PATTERN = r"^practice-[0-9A-Za-z_-]{8,64}$"
JOB_ID_PATTERN = r"^job-[0-9A-Za-z_-]{8,64}$"


class WithdrawalRow(TypedDict):
    """One row of the warehouse's `withdrawals` table, as plain data."""

    question_id: str
    reason: str
    withdrawn_at: dt.datetime | str


def _checked(value: str, pattern: str, what: str) -> str:
    """The value, or ValueError when it does not have the id shape the tree relies on."""
    if not re.fullmatch(pattern, value):
        raise ValueError(f"{what} {value!r} does not match {pattern}")
    return value


def openapi_key() -> str:
    """Key of the OpenAPI 3.1 document of the whole API."""
    return f"{API_PREFIX}/openapi.json"


def syllabus_key() -> str:
    """Key of the syllabus tree (subjects → units → chapters → topics)."""
    return f"{API_PREFIX}/syllabus"


def daily_index_key() -> str:
    """Key of the dated archive of published daily papers."""
    return f"{API_PREFIX}/exams/daily/index"


def withdrawn_questions_key() -> str:
    """Key of the withdrawn-question list; `withdrawn` can never be a `q-<20 hex>` id."""
    return f"{API_PREFIX}/questions/withdrawn"


def short_lived_keys() -> dict[str, int]:
    """Static keys whose bytes change (lists, syllabus, API document): key → max-age seconds."""
    return {
        daily_index_key(): 300,
        withdrawn_questions_key(): 300,
        syllabus_key(): 3600,
        openapi_key(): 3600,
    }


def exam_key(exam_id: str) -> str:
    """Key of a custom exam's static copy (`exam-…` ids only, so never `daily` or `generate`)."""
    return f"{API_PREFIX}/exams/{_checked(exam_id, EXAM_ID_PATTERN, 'exam id')}"


def practice_key(practice_id: str) -> str:
    """Key of a practice set's static copy (`practice-…` ids only, so never `generate`)."""
    return f"{API_PREFIX}/practice/{_checked(practice_id, PRACTICE_ID_PATTERN, 'practice id')}"


def url_of(key: str) -> str:
    """The URL path (relative to the base URL) a key is served at."""
    return f"/{key}"


def syllabus_document(
    syllabus: Syllabus,
    servable: Mapping[tuple[str, str], tuple[int, int]] | None = None,
    as_of: str | None = None,
) -> dict[str, Any]:
    """Subjects → units → chapters → topics; a Biology unit appears under each subject it spans.

    With `servable` ((topic_id, difficulty) → (servable, never used), as
    `pipeline.fill.coverage.servable_counts` gives it), each live topic says how many distinct
    questions a practice set can draw per difficulty (`servable`), as of `as_of`."""
    subjects: list[dict[str, Any]] = []

    def availability(topic_id: str) -> dict[str, int] | None:
        if servable is None or syllabus.topic(topic_id).deleted:
            return None
        return {d.value: servable.get((topic_id, d.value), (0, 0))[0] for d in Difficulty}

    for subject in Subject:
        units = []
        for unit in syllabus.source.units:
            chapters = [
                {
                    "chapter_id": chapter.chapter_id,
                    "name": chapter.name,
                    "deleted": chapter.deleted,
                    "topics": [
                        {
                            "topic_id": t.topic_id,
                            "name": t.name,
                            "deleted": syllabus.topic(t.topic_id).deleted,
                            "servable": availability(t.topic_id),
                        }
                        for t in chapter.topics
                    ],
                }
                for chapter in unit.chapters
                if chapter.subject == subject
            ]
            if chapters:
                units.append(
                    {
                        "unit_id": unit.unit_id,
                        "number": unit.number,
                        "name": unit.name,
                        "chapters": chapters,
                    }
                )
        subjects.append({"name": subject.value, "units": units})
    return {
        "syllabus_id": syllabus.source.syllabus_id,
        "title": syllabus.source.title,
        "source_note": syllabus.source.source_note,
        "servable_as_of": as_of if servable is not None else None,
        "subjects": subjects,
    }


def daily_index_document(published_dates: Iterable[str]) -> dict[str, Any]:
    """The dated archive: each published daily paper's date, exam_id and URL, newest first."""
    dates = sorted({_checked(d, DATE_PATTERN, "date") for d in published_dates}, reverse=True)
    for d in dates:
        dt.date.fromisoformat(d)  # a real calendar date, not just its shape
    return {
        "papers": [
            {"date": d, "exam_id": f"daily-{d}", "url": url_of(daily_paper_key(d))} for d in dates
        ]
    }


def _utc_timestamp(value: dt.datetime | str) -> str:
    """An ISO 8601 UTC timestamp to the second (`2026-01-10T18:30:00Z`); naive means UTC."""
    moment = dt.datetime.fromisoformat(value) if isinstance(value, str) else value
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def withdrawn_questions_document(withdrawals: Iterable[WithdrawalRow]) -> dict[str, Any]:
    """Withdrawn questions, newest first: id, reason, when, and the (still valid) question URL."""
    rows = sorted(
        (
            {
                "id": _checked(w["question_id"], QUESTION_ID_PATTERN, "question id"),
                "reason": w["reason"],
                "withdrawn_at": _utc_timestamp(w["withdrawn_at"]),
                "url": url_of(question_key(w["question_id"])),
            }
            for w in withdrawals
        ),
        key=lambda r: (r["withdrawn_at"], r["id"]),
        reverse=True,
    )
    return {"questions": rows}


def practice_document(
    practice_id: str, topic: Topic, difficulty: Difficulty, questions: Sequence[Question]
) -> dict[str, Any]:
    """A practice set's static copy: the request it answers and its Daily questions (2.2)."""
    return {
        "practice_id": _checked(practice_id, PRACTICE_ID_PATTERN, "practice id"),
        "subject": topic.subject.value,
        "topic_id": topic.topic_id,
        "topic": topic.name,
        "difficulty": difficulty.value,
        "total_questions": len(questions),
        "questions": [daily_question(q) for q in questions],
    }
