"""HTTP bodies to typed orders: each body through its contract model (`site_builder.contract`),
pydantic's failures worded as the worker reports them, then the syllabus check."""

from __future__ import annotations

import types
import typing
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from core.records import Record
from kb.syllabus import Syllabus
from pipeline.serve.requests import ExamOrder, InvalidRequest, PracticeOrder, Problem, live_topic
from site_builder.contract import ExamRequest, PracticeRequest
from site_builder.contract_feedback import AttemptsRequest, ReportRequest

M = TypeVar("M", bound=Record)


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel]:
    """The model of the object at loc (a row of a list field is its item's model): the body's
    own model, or one nested in it."""
    for part in loc:
        field = model.model_fields.get(part) if isinstance(part, str) else None
        if field is None:
            continue  # a list index: the same item model
        kinds = [field.annotation]
        while kinds:
            kind = kinds.pop()
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                model = kind
                break
            if typing.get_origin(kind) is not None or isinstance(kind, types.UnionType):
                kinds += typing.get_args(kind)
        else:
            return model
    return model


def _problem(error: ErrorDetails, model: type[Record]) -> Problem:
    """One pydantic error as the worker words it. The contract's fields word their own rules;
    what is left is the body's outline: an unknown field, a missing one, not an object (named
    with the fields of the object at that place: the body, or a row of it)."""
    loc = tuple(part for part in error["loc"] if part != "[key]")  # a dict key is its own place
    if error["type"] == "extra_forbidden":
        fields = ", ".join(_model_at(model, loc[:-1]).model_fields)
        return Problem(loc, f"unknown field {loc[-1]!r}; allowed: {fields}")
    if error["type"] == "missing":
        return Problem(loc, "field required")
    if error["type"] == "model_type":
        fields = ", ".join(_model_at(model, loc).model_fields)
        what = "the body" if not loc else "each row"
        return Problem(loc, f"{what} must be a JSON object with {fields}")
    return Problem(loc, error["msg"])


def _validated(model: type[M], body: Any) -> M:
    """The body as the contract's model, or InvalidRequest (422) listing every problem."""
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        raise InvalidRequest([_problem(e, model) for e in exc.errors()]) from None


def practice_order(body: Any, syllabus: Syllabus) -> PracticeOrder:
    """The validated practice request; InvalidRequest (422) or UnknownTopic (404).

    The topic is looked up once the body is otherwise valid, so a body with other problems is
    a 422 listing them, whatever its topic."""
    request = _validated(PracticeRequest, body)
    return PracticeOrder(
        live_topic(request.topic_id, syllabus), request.difficulty, request.question_count
    )


def exam_order(body: Any) -> ExamOrder:
    """The validated exam request, or InvalidRequest (422) listing every problem."""
    request = _validated(ExamRequest, body)
    return ExamOrder(request.exam_type, request.subjects, request.difficulty_distribution)


def attempts_request(body: Any) -> AttemptsRequest:
    """The validated answer log (its rows' types; their values are checked per row), or
    InvalidRequest (422) listing every problem of the body."""
    return _validated(AttemptsRequest, body)


def report_request(body: Any) -> ReportRequest:
    """The validated error report, or InvalidRequest (422) listing every problem."""
    return _validated(ReportRequest, body)
