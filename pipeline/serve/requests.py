"""The two worker requests (SPEC 2.4, 2.6), validated into typed orders with clear messages.

Every rule of SPEC and DESIGN.md lives here, so the worker, the tests and the OpenAPI document
agree: `question_count` 1–10, difficulty names in any case, a live `topic_id`, `exam_type`
NEET_UG (or NEET / NEET-UG), a distribution over easy/medium/hard adding up to 1, subject names.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.records import Difficulty, Subject
from kb.syllabus import Syllabus, Topic, UnknownTopicError

MAX_PRACTICE_QUESTIONS = 10
EXAM_TYPES = ("NEET_UG", "NEET", "NEET-UG")  # canonical first; accepted in any case
SUM_TOLERANCE = 1e-6
SYLLABUS_PATH = "/api/v1/syllabus"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a request: where (`loc`, as in the body) and why."""

    loc: tuple[str | int, ...]
    message: str

    def detail(self) -> dict[str, Any]:
        return {"loc": ["body", *self.loc], "msg": self.message}


class InvalidRequest(ValueError):
    """The body breaks one or more rules (422); `problems` lists each."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__(
            "; ".join(f"{'.'.join(map(str, p.loc)) or 'body'}: {p.message}" for p in problems)
        )


class UnknownTopic(LookupError):
    """The topic id names no topic of the syllabus (404)."""

    def __init__(self, topic_id: str) -> None:
        self.topic_id = topic_id
        super().__init__(
            f"no topic {topic_id!r} in the syllabus; topic ids are listed at {SYLLABUS_PATH}"
        )


@dataclass(frozen=True)
class PracticeOrder:
    topic: Topic
    difficulty: Difficulty
    count: int


@dataclass(frozen=True)
class ExamOrder:
    exam_type: str
    subjects: tuple[Subject, ...]  # canonical order
    distribution: Mapping[Difficulty, float]


def _fields(body: Any, allowed: tuple[str, ...], problems: list[Problem]) -> dict[str, Any]:
    if not isinstance(body, dict):
        problems.append(Problem((), f"the body must be a JSON object with {', '.join(allowed)}"))
        return {}
    for name in body:
        if name not in allowed:
            problems.append(
                Problem((name,), f"unknown field {name!r}; allowed: {', '.join(allowed)}")
            )
    for name in allowed:
        if name not in body:
            problems.append(Problem((name,), "field required"))
    return body


def _difficulty(
    value: Any, loc: tuple[str | int, ...], problems: list[Problem]
) -> Difficulty | None:
    names = {d.value.lower(): d for d in Difficulty}
    if isinstance(value, str) and value.lower() in names:
        return names[value.lower()]
    problems.append(
        Problem(loc, f"difficulty must be one of Easy, Medium, Hard (any case), got {value!r}")
    )
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def practice_order(body: Any, syllabus: Syllabus) -> PracticeOrder:
    """The validated practice request; InvalidRequest (422) or UnknownTopic (404)."""
    problems: list[Problem] = []
    fields = _fields(body, ("topic_id", "question_count", "difficulty"), problems)
    count = fields.get("question_count")
    if isinstance(count, float) and count.is_integer():
        count = int(count)  # 3.0 is an integer to JSON Schema, and so to us
    if "question_count" in fields and not (
        isinstance(count, int)
        and not isinstance(count, bool)
        and 1 <= count <= MAX_PRACTICE_QUESTIONS
    ):
        problems.append(
            Problem(
                ("question_count",),
                f"question_count must be a whole number from 1 to {MAX_PRACTICE_QUESTIONS}, "
                f"got {count!r}",
            )
        )
    difficulty = None
    if "difficulty" in fields:
        difficulty = _difficulty(fields["difficulty"], ("difficulty",), problems)
    topic_id = fields.get("topic_id")
    topic = None
    if "topic_id" in fields:
        if not isinstance(topic_id, str) or not topic_id:
            problems.append(
                Problem(("topic_id",), f"topic_id must be a topic id from {SYLLABUS_PATH}")
            )
        else:
            try:
                topic = syllabus.topic(topic_id)
            except UnknownTopicError:
                if not problems:
                    raise UnknownTopic(topic_id) from None
                problems.append(Problem(("topic_id",), str(UnknownTopic(topic_id))))
            else:
                if topic.deleted:
                    problems.append(
                        Problem(
                            ("topic_id",),
                            f"topic {topic_id!r} was removed from the syllabus; live topics "
                            f"are listed at {SYLLABUS_PATH}",
                        )
                    )
    if problems:
        raise InvalidRequest(problems)
    assert topic is not None and difficulty is not None and isinstance(count, int)
    return PracticeOrder(topic, difficulty, count)


def _exam_type(value: Any, problems: list[Problem]) -> str | None:
    if isinstance(value, str) and value.upper() in EXAM_TYPES:
        return EXAM_TYPES[0]
    problems.append(
        Problem(
            ("exam_type",),
            f"exam_type must be one of {', '.join(EXAM_TYPES)} (any case), got {value!r}",
        )
    )
    return None


def _distribution(value: Any, problems: list[Problem]) -> dict[Difficulty, float] | None:
    loc: tuple[str | int, ...] = ("difficulty_distribution",)
    if not isinstance(value, dict) or not value:
        problems.append(
            Problem(
                loc,
                "difficulty_distribution must be an object like "
                '{"easy": 0.3, "medium": 0.5, "hard": 0.2}',
            )
        )
        return None
    shares: dict[Difficulty, float] = {}
    bad = False
    for key, share in value.items():
        difficulty = {d.value.lower(): d for d in Difficulty}.get(str(key).lower())
        if difficulty is None:
            problems.append(Problem((*loc, key), f"unknown key {key!r}; use easy, medium, hard"))
            bad = True
        elif difficulty in shares:
            problems.append(Problem((*loc, key), f"{key!r} repeats {difficulty.value.lower()!r}"))
            bad = True
        elif not _is_number(share) or not math.isfinite(share) or not 0 <= share <= 1:
            problems.append(
                Problem((*loc, key), f"a share must be a number from 0 to 1, got {share!r}")
            )
            bad = True
        else:
            shares[difficulty] = float(share)
    if bad:
        return None
    total = sum(shares.values())
    if abs(total - 1) > SUM_TOLERANCE:
        problems.append(Problem(loc, f"the shares must add up to 1, they add up to {total:g}"))
        return None
    return {d: shares.get(d, 0.0) for d in Difficulty}


def _subjects(value: Any, problems: list[Problem]) -> tuple[Subject, ...] | None:
    names = {s.value.lower(): s for s in Subject}
    allowed = ", ".join(s.value for s in Subject)
    if not isinstance(value, list) or not value:
        problems.append(Problem(("subjects",), f"subjects must be a non-empty list of {allowed}"))
        return None
    chosen: list[Subject] = []
    for i, name in enumerate(value):
        subject = names.get(name.lower()) if isinstance(name, str) else None
        if subject is None:
            problems.append(Problem(("subjects", i), f"unknown subject {name!r}; use {allowed}"))
        elif name in value[:i]:
            problems.append(Problem(("subjects", i), f"{name} is listed twice"))
        else:
            chosen.append(subject)  # "Physics" and "physics" name one subject: taken once
    if problems:
        return None
    return tuple(s for s in Subject if s in chosen)


def exam_order(body: Any) -> ExamOrder:
    """The validated exam request, or InvalidRequest (422) listing every problem."""
    problems: list[Problem] = []
    fields = _fields(body, ("exam_type", "difficulty_distribution", "subjects"), problems)
    exam_type = _exam_type(fields["exam_type"], problems) if "exam_type" in fields else None
    distribution = (
        _distribution(fields["difficulty_distribution"], problems)
        if "difficulty_distribution" in fields
        else None
    )
    subjects = _subjects(fields["subjects"], problems) if "subjects" in fields else None
    if problems:
        raise InvalidRequest(problems)
    assert exam_type is not None and distribution is not None and subjects is not None
    return ExamOrder(exam_type, subjects, distribution)
