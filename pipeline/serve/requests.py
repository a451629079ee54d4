"""The two worker requests (SPEC 2.4, 2.6), validated into typed orders with clear messages.

The body rules live in the contract's models (`site_builder.contract`), which the OpenAPI
document is generated from; this module runs a body through its model, words pydantic's
failures as the worker reports them, and checks what needs the syllabus: a live `topic_id`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from core.records import Difficulty, Record, Subject
from kb.syllabus import Syllabus, Topic, UnknownTopicError
from site_builder.contract import MAX_PRACTICE_QUESTIONS as MAX_PRACTICE_QUESTIONS  # flows.cli
from site_builder.contract import SYLLABUS_PATH, ExamRequest, PracticeRequest

M = TypeVar("M", bound=Record)


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


def _problem(error: ErrorDetails, model: type[Record]) -> Problem:
    """One pydantic error as the worker words it. The contract's fields word their own rules;
    what is left is the body's outline: an unknown field, a missing one, not an object."""
    loc = tuple(part for part in error["loc"] if part != "[key]")  # a dict key is its own place
    fields = ", ".join(model.model_fields)
    if error["type"] == "extra_forbidden":
        return Problem(loc, f"unknown field {loc[-1]!r}; allowed: {fields}")
    if error["type"] == "missing":
        return Problem(loc, "field required")
    if error["type"] == "model_type":
        return Problem(loc, f"the body must be a JSON object with {fields}")
    return Problem(loc, error["msg"])


def _validated(model: type[M], body: Any) -> M:
    """The body as the contract's model, or InvalidRequest (422) listing every problem."""
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        raise InvalidRequest([_problem(e, model) for e in exc.errors()]) from None


def live_topic(request: PracticeRequest, syllabus: Syllabus) -> Topic:
    """The requested topic: UnknownTopic (404) if the syllabus has no such topic, InvalidRequest
    (422) if the 2024 revision removed it."""
    try:
        topic = syllabus.topic(request.topic_id)
    except UnknownTopicError:
        raise UnknownTopic(request.topic_id) from None
    if topic.deleted:
        raise InvalidRequest(
            [
                Problem(
                    ("topic_id",),
                    f"topic {request.topic_id!r} was removed from the syllabus; live topics are "
                    f"listed at {SYLLABUS_PATH}",
                )
            ]
        )
    return topic


def practice_order(body: Any, syllabus: Syllabus) -> PracticeOrder:
    """The validated practice request; InvalidRequest (422) or UnknownTopic (404).

    The topic is looked up once the body is otherwise valid, so a body with other problems is
    a 422 listing them, whatever its topic."""
    request = _validated(PracticeRequest, body)
    return PracticeOrder(live_topic(request, syllabus), request.difficulty, request.question_count)


def exam_order(body: Any) -> ExamOrder:
    """The validated exam request, or InvalidRequest (422) listing every problem."""
    request = _validated(ExamRequest, body)
    return ExamOrder(request.exam_type, request.subjects, request.difficulty_distribution)
