"""JSON documents of the static API, with exact field names (SPEC 2.1–2.3)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from core.records import Paper, PaperBlueprint, Question
from core.shapes import daily_question, stored_question

API_PREFIX = "api/v1"
MARKS_CORRECT, MARKS_WRONG, MARKS_UNANSWERED = 4, -1, 0
MINUTES_PER_FULL_PAPER = 180


def question_key(question_id: str) -> str:
    return f"{API_PREFIX}/questions/{question_id}"


def daily_paper_key(date: str) -> str:
    return f"{API_PREFIX}/exams/daily/{date}"


DAILY_POINTER_KEY = f"{API_PREFIX}/exams/daily"


def paper_document(paper: Paper, questions: Sequence[Question]) -> dict[str, Any]:
    """Daily exam (2.1) with Daily questions (2.2), plus the additive fields DESIGN.md allows."""
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
    return json_bytes(stored_question(question))
