"""The HTTP contract: every body the API takes or gives, as pydantic models.

The OpenAPI document (`site_builder.openapi`) is generated from these models and the worker
validates its request bodies with them (`pipeline.serve.requests`), so the two cannot drift.
Field names are the interface's, exactly; every object is closed (`extra="forbid"`, which the schema
states as `additionalProperties: false`) and names the additive fields the API adds. A rule
JSON Schema cannot state on its own (options keyed A to D in order, one correct option, a job's
result once COMPLETED) is checked by the model and added to its schema next to the check.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable
from typing import Annotated, Any, Self

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    Strict,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError

from core.records import OPTION_KEYS, Difficulty, OptionKey, Record, Subject
from core.shapes import FIGURE_SUFFIX, FIGURES_PREFIX
from pipeline.figures.svg import FIGURE_ID_PATTERN, SVG_MEDIA_TYPE
from pipeline.serve.jobs import JobKind, JobStatus
from pipeline.serve.requests import EXAM_TYPES, MAX_PRACTICE_QUESTIONS, SYLLABUS_PATH
from site_builder.contract_feedback import (
    AttemptReceipt,
    AttemptsRequest,
    ReportReceipt,
    ReportRequest,
)
from site_builder.contract_fields import AnyCase, explained, whole
from site_builder.documents import (
    API_PREFIX,
    DAILY_EXAM_ID_PATTERN,
    DATE_PATTERN,
    EXAM_ID_PATTERN,
    JOB_ID_PATTERN,
    PRACTICE_ID_PATTERN,
    QUESTION_ID_PATTERN,
)

SUM_TOLERANCE = 1e-6


# ── Field shapes ─────────────────────────────────────────────────────────────────────────────


def _tail(pattern: str) -> str:
    return pattern.removeprefix("^")


Count = Annotated[int, Field(ge=0)]
TopicName = Annotated[str, Field(description="topic name")]
QuestionId = Annotated[str, Field(pattern=QUESTION_ID_PATTERN)]
Date = Annotated[str, Field(pattern=DATE_PATTERN, json_schema_extra={"format": "date"})]
Share = Annotated[float, Field(ge=0, le=1)]


def _url(folder: str, id_pattern: str) -> Any:
    """A path of the static tree, relative to the base URL."""
    return Field(pattern=f"^/{API_PREFIX}/{folder}/{_tail(id_pattern)}")


def _absent_or(description: str | None = None) -> Any:
    """A field that may be left out but is never null: no default in the schema, no `null`
    (pair it with `SkipJsonSchema[None]` in the annotation)."""

    def no_default(schema: dict[str, Any]) -> None:
        schema.pop("default", None)

    return Field(default=None, description=description, json_schema_extra=no_default)


def _keyed(field: str, one_correct: bool = False) -> tuple[Callable[[Any], Any], Any]:
    """Four options keyed A, B, C, D in this order (and, if asked, exactly one `is_correct`):
    the check for the model and the same rule for the schema, per position."""

    def check(options: tuple[Any, ...]) -> tuple[Any, ...]:
        keys = tuple(getattr(o, field) for o in options)
        if keys != OPTION_KEYS:
            raise ValueError(f"options must be keyed A, B, C, D in this order, got {keys}")
        if one_correct and sum(o.is_correct for o in options) != 1:
            raise ValueError("exactly one option must be correct")
        return options

    def schema(s: dict[str, Any]) -> None:
        for item, key in zip(s["prefixItems"], OPTION_KEYS, strict=True):
            item["properties"] = {field: {"const": key}}
        s["items"] = False
        if one_correct:
            s["contains"] = {"properties": {"is_correct": {"const": True}}}
            s["minContains"] = s["maxContains"] = 1

    return check, Field(json_schema_extra=schema)


# ── The static documents ─────────────────────────────────────────────────────────────────────


class DailyOption(Record):
    key: OptionKey
    text: str


class StoredOption(Record):
    id: OptionKey
    text_html: str
    is_correct: bool


class QuestionFigure(Record):
    """A figure the question shows: an immutable SVG on the CDN, described for screen readers."""

    url: str = Field(
        pattern=f"^/{FIGURES_PREFIX}{_tail(FIGURE_ID_PATTERN).removesuffix('$')}"
        f"{re.escape(FIGURE_SUFFIX)}$",
        description=f"Path of the image ({SVG_MEDIA_TYPE}), relative to the base URL; immutable",
    )
    alt: str = Field(min_length=1, description="Describes the picture; never gives the answer")
    caption: str
    width: int = Field(ge=1, description="CSS pixels")
    height: int = Field(ge=1, description="CSS pixels")


QuestionFigures = Annotated[tuple[QuestionFigure, ...], Field(min_length=1)]

_daily_keys, _daily_keys_schema = _keyed("key")
_stored_keys, _stored_keys_schema = _keyed("id", one_correct=True)


class DailyQuestion(Record):
    """Daily question: options without the key, as a paper shows them."""

    id: QuestionId
    subject: Subject
    topic: TopicName
    stem_markdown: str = Field(description="Markdown with LaTeX math")
    options: Annotated[
        tuple[DailyOption, DailyOption, DailyOption, DailyOption], AfterValidator(_daily_keys)
    ] = _daily_keys_schema
    correct_key: OptionKey
    explanation_markdown: str
    figures: QuestionFigures | SkipJsonSchema[None] = _absent_or(
        "Only on a question with a figure; the stem's Markdown ends with each as an image"
    )


class StoredQuestion(Record):
    """Stored question: options with the key; exactly one option is correct."""

    id: QuestionId
    subject: Subject
    topic: TopicName
    difficulty: Difficulty
    stem_html: str = Field(description="sanitised HTML, math as MathML")
    options: Annotated[
        tuple[StoredOption, StoredOption, StoredOption, StoredOption],
        AfterValidator(_stored_keys),
    ] = _stored_keys_schema
    explanation_html: str
    figures: QuestionFigures | SkipJsonSchema[None] = _absent_or(
        "Only on a question with a figure; the stem's HTML ends with each as an <img>"
    )


class Marking(Record):
    correct: Count
    wrong: int
    unanswered: int


class Tally(Record):
    target: Count
    achieved: Count


class UnitTally(Record):
    min: Count
    max: Count
    achieved: Count


class SubjectTally(Record):
    difficulty: dict[Difficulty, Tally]
    units: dict[str, UnitTally]


class PaperBlueprint(Record):
    """What the paper was assembled to, and what it achieved."""

    id: str
    difficulty_distribution: dict[Difficulty, Share]
    subjects: dict[Subject, SubjectTally]
    answer_keys: dict[OptionKey, Count]


class Paper(Record):
    """The Daily exam fields every paper has, plus the additive ones."""

    title: str
    total_questions: int = Field(ge=1)
    questions: list[DailyQuestion] = Field(min_length=1)
    # Additive fields: always emitted except `blueprint`, which papers assembled
    # before blueprints existed do not carry.
    total_marks: Count
    marking: Marking
    duration_minutes: Count
    blueprint: PaperBlueprint | SkipJsonSchema[None] = _absent_or()


class DailyExam(Paper):
    """Daily exam, with the additive fields."""

    exam_id: str = Field(pattern=DAILY_EXAM_ID_PATTERN)
    date: Date


class Exam(Paper):
    """A custom exam (static copy at /api/v1/exams/{exam_id}); `date` is null."""

    exam_id: str = Field(pattern=EXAM_ID_PATTERN)
    date: dt.date | None


class PracticeSet(Record):
    """A practice set (static copy at /api/v1/practice/{practice_id})."""

    practice_id: str = Field(pattern=PRACTICE_ID_PATTERN)
    subject: Subject
    topic_id: str
    topic: TopicName
    difficulty: Difficulty
    total_questions: int = Field(ge=1, le=MAX_PRACTICE_QUESTIONS)
    questions: list[DailyQuestion] = Field(min_length=1, max_length=MAX_PRACTICE_QUESTIONS)


class DailyIndexEntry(Record):
    date: Date
    exam_id: str = Field(pattern=DAILY_EXAM_ID_PATTERN)
    url: str = _url("exams/daily", DATE_PATTERN)


class DailyIndex(Record):
    """Every published daily paper, newest first."""

    papers: list[DailyIndexEntry]


class WithdrawnQuestion(Record):
    id: QuestionId
    reason: str
    withdrawn_at: dt.datetime
    url: str = _url("questions", QUESTION_ID_PATTERN)


class WithdrawnQuestions(Record):
    """Questions found wrong, newest first: they leave sampling and future papers; their files
    stay valid for the papers that used them."""

    questions: list[WithdrawnQuestion]


class SyllabusTopic(Record):
    topic_id: str = Field(description="the id practice requests use")
    name: str
    deleted: bool = Field(description="deleted in the 2024 revision: never in papers or practice")
    servable: dict[Difficulty, int] | None = Field(
        default=None,
        description="distinct questions a practice set can draw at each difficulty (Easy, "
        "Medium, Hard) as of `servable_as_of`; a request for more than the pool and the "
        "generators hold is refused with 409 insufficient_pool. Null for deleted topics.",
    )


class SyllabusChapter(Record):
    chapter_id: str
    name: str
    deleted: bool
    topics: list[SyllabusTopic]


class SyllabusUnit(Record):
    unit_id: str
    number: int = Field(ge=1)
    name: str
    chapters: list[SyllabusChapter] = Field(min_length=1)


class SyllabusSubject(Record):
    name: Subject
    units: list[SyllabusUnit]


class Syllabus(Record):
    """The NEET-UG syllabus; a Biology unit appears under each subject it spans."""

    syllabus_id: str
    title: str
    source_note: str
    servable_as_of: str | None = Field(
        default=None, description="when the topics' servable counts were taken (the last nightly)"
    )
    subjects: list[SyllabusSubject]


# ── The worker's request bodies (their field machinery: `site_builder.contract_fields`) ──────


_SUBJECTS = ", ".join(s.value for s in Subject)


def _chosen_once(value: Any, inner: ValidatorFunctionWrapHandler) -> tuple[Subject, ...]:
    """Each subject named once (exact repeats are refused), in canonical order."""
    if not isinstance(value, list) or not value:
        raise PydanticCustomError("subjects", f"subjects must be a non-empty list of {_SUBJECTS}")
    for i, name in enumerate(value):
        if name in value[:i]:
            raise PydanticCustomError("subjects", f"{name} is listed twice")
    chosen = inner(value)  # "Physics" and "physics" name one subject: taken once
    return tuple(s for s in Subject if s in chosen)


def _adding_up(value: Any, inner: ValidatorFunctionWrapHandler) -> dict[Difficulty, float]:
    """Each difficulty at most once, shares adding up to 1; a difficulty left out is 0."""
    if not isinstance(value, dict) or not value:
        raise PydanticCustomError(
            "distribution",
            "difficulty_distribution must be an object like "
            '{"easy": 0.3, "medium": 0.5, "hard": 0.2}',
        )
    seen: dict[str, str] = {}
    for key in value:
        first = seen.setdefault(str(key).lower(), key)
        if first != key:
            raise PydanticCustomError("distribution", f"{key!r} repeats {first.lower()!r}")
    shares: dict[Difficulty, float] = inner(value)
    total = math.fsum(shares.values())
    if abs(total - 1) > SUM_TOLERANCE:
        raise PydanticCustomError(
            "distribution", f"the shares must add up to 1, they add up to {total:g}"
        )
    return {d: shares.get(d, 0.0) for d in Difficulty}


def _only_named_keys(schema: dict[str, Any]) -> None:
    """Keys outside the pattern are refused: pydantic states a key pattern as
    `patternProperties`, which lets every other key through unchecked."""
    ((pattern, shares),) = schema.pop("patternProperties").items()
    schema["propertyNames"] = {"pattern": pattern}
    schema["additionalProperties"] = shares


DifficultyName = Annotated[
    Difficulty,
    AnyCase(
        tuple((d.value, d) for d in Difficulty),
        "difficulty must be one of Easy, Medium, Hard (any case), got {got}",
        "Easy, Medium or Hard, in any letter case",
    ),
]
DifficultyKey = Annotated[
    Difficulty,
    AnyCase(
        tuple((d.value.lower(), d) for d in Difficulty), "unknown key {got}; use easy, medium, hard"
    ),
]
RequestShare = Annotated[
    float,
    Strict(),  # not true/false
    Field(ge=0, le=1, allow_inf_nan=False),
    explained("a share must be a number from 0 to 1, got {got}"),
]
SubjectName = Annotated[
    Subject,
    AnyCase(
        tuple((s.value, s) for s in Subject),
        f"unknown subject {{got}}; use {_SUBJECTS}",
        "Physics, Chemistry, Botany or Zoology, in any letter case",
    ),
]


class PracticeRequest(Record):
    """Practice generation request."""

    topic_id: Annotated[
        str,
        Strict(),
        Field(min_length=1, description="a topic id from /api/v1/syllabus (not deleted)"),
        explained(f"topic_id must be a topic id from {SYLLABUS_PATH}"),
    ]
    question_count: Annotated[
        int,
        Strict(),  # not "5", not true
        Field(ge=1, le=MAX_PRACTICE_QUESTIONS),
        BeforeValidator(whole),
        explained(
            f"question_count must be a whole number from 1 to {MAX_PRACTICE_QUESTIONS}, got {{got}}"
        ),
    ]
    difficulty: DifficultyName


class ExamRequest(Record):
    """Exam generation request: 45 questions per chosen subject."""

    exam_type: Annotated[
        str,
        AnyCase(
            tuple((name, EXAM_TYPES[0]) for name in EXAM_TYPES),
            f"exam_type must be one of {', '.join(EXAM_TYPES)} (any case), got {{got}}",
            "NEET_UG (also NEET or NEET-UG), in any letter case",
        ),
    ]
    difficulty_distribution: Annotated[
        dict[DifficultyKey, RequestShare],
        Field(
            min_length=1,
            max_length=len(Difficulty),
            json_schema_extra=_only_named_keys,
            description=(
                "Share of questions per difficulty, keys easy, medium, hard in any letter case, "
                "each at most once; a missing key is 0; the shares must add up to 1 (±1e-6), "
                "which the worker checks."
            ),
        ),
        WrapValidator(_adding_up),
    ]
    subjects: Annotated[
        tuple[SubjectName, ...],
        Field(min_length=1, json_schema_extra={"uniqueItems": True}),
        WrapValidator(_chosen_once),
    ]


# ── The worker's answers ─────────────────────────────────────────────────────────────────────


class PracticeResult(PracticeSet):
    """A finished practice job's result."""

    url: str = _url("practice", PRACTICE_ID_PATTERN)


class ExamResult(Exam):
    """A finished exam job's result."""

    url: str = _url("exams", EXAM_ID_PATTERN)


class JobAcknowledgement(Record):
    """Practice generation response; also the exam generation answer."""

    job_id: str = Field(pattern=JOB_ID_PATTERN)
    status: JobStatus
    message: str
    eta_seconds: Count


class JobProgress(Record):
    done: Count
    total: Count


class JobError(Record):
    code: str
    message: str


def _required_when(status: JobStatus, field: str) -> dict[str, Any]:
    return {
        "if": {"properties": {"status": {"const": status.value}}, "required": ["status"]},
        "then": {"required": [field], "properties": {field: {"not": {"type": "null"}}}},
    }


# The one rule of a job's shape the fields cannot state: which status needs which field.
_NEEDED = {JobStatus.COMPLETED: "result", JobStatus.FAILED: "error"}


class Job(
    JobAcknowledgement,
    json_schema_extra={"allOf": [_required_when(s, f) for s, f in _NEEDED.items()]},
):
    """A job as polled: result on COMPLETED, error on FAILED."""

    # Additive fields.
    kind: JobKind
    progress: JobProgress
    created_at: dt.datetime
    updated_at: dt.datetime
    result: PracticeResult | ExamResult | None = Field(
        default=None,
        description="on COMPLETED: the practice set or exam and the URL of its static copy",
    )
    error: JobError | None = None

    @model_validator(mode="after")
    def _needed_fields(self) -> Self:
        field = _NEEDED.get(self.status)
        if field is not None and getattr(self, field) is None:
            raise ValueError(f"a {self.status.value} job carries `{field}`")
        return self


class ErrorInfo(Record):
    code: str = Field(description="machine-readable, e.g. validation_error")
    message: str
    details: list[Any]


class Error(Record):
    """The body of every 4xx/5xx answer from the worker."""

    error: ErrorInfo


# Every body with a name in the document: the components, in the document's order.
COMPONENTS: tuple[type[Record], ...] = (
    DailyExam,
    Exam,
    StoredQuestion,
    PracticeSet,
    DailyIndex,
    WithdrawnQuestions,
    Syllabus,
    PracticeRequest,
    ExamRequest,
    JobAcknowledgement,
    Job,
    AttemptsRequest,
    AttemptReceipt,
    ReportRequest,
    ReportReceipt,
    Error,
)
