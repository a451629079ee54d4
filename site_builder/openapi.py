"""The OpenAPI 3.1 document of the whole API (static tree and worker), and the static documents.

Field names and types follow SPEC.md exactly; objects are closed (`additionalProperties: false`)
and name the additive fields DESIGN.md allows. Request schemas carry the validation rules the
worker enforces, so it can validate bodies against them (`standalone_schema`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping
from typing import Any

from core.records import OPTION_KEYS, Difficulty, Subject
from kb.syllabus import Syllabus
from pipeline.serve.requests import EXAM_TYPES, MAX_PRACTICE_QUESTIONS
from site_builder.documents import (
    API_PREFIX,
    DAILY_EXAM_ID_PATTERN,
    DATE_PATTERN,
    EXAM_ID_PATTERN,
    JOB_ID_PATTERN,
    PRACTICE_ID_PATTERN,
    QUESTION_ID_PATTERN,
    WithdrawalRow,
    daily_index_document,
    daily_index_key,
    json_bytes,
    openapi_key,
    short_lived_keys,
    syllabus_document,
    syllabus_key,
    withdrawn_questions_document,
    withdrawn_questions_key,
)
from site_builder.headers import IMMUTABLE

Schema = dict[str, Any]

API_VERSION = "1.0.0"
SCHEMAS_REF = "#/components/schemas/"
JOB_STATUSES = ("PROCESSING", "COMPLETED", "FAILED")
JOB_KINDS = ("practice", "exam")

# Suggested Cache-Control per path (the worker and the CDN): files that never change are
# immutable, the lists, syllabus and this document keep a short max-age (`short_lived_keys`),
# the daily pointer lives until rollover, and the worker's answers are never cached.
P = f"/{API_PREFIX}"
UNTIL_ROLLOVER = "public, max-age=<seconds until 00:00 Asia/Kolkata>"
NO_STORE = "no-store"
CACHE_POLICIES: Mapping[str, str] = {
    f"{P}/exams/daily": UNTIL_ROLLOVER,
    f"{P}/exams/daily/{{date}}": IMMUTABLE,
    f"{P}/exams/{{exam_id}}": IMMUTABLE,
    f"{P}/questions/{{question_id}}": IMMUTABLE,
    f"{P}/practice/{{practice_id}}": IMMUTABLE,
    **{f"/{key}": f"public, max-age={age}" for key, age in short_lived_keys().items()},
    f"{P}/practice/generate": NO_STORE,
    f"{P}/exams/generate": NO_STORE,
    f"{P}/jobs/{{job_id}}": NO_STORE,
}


# ── Schema helpers ───────────────────────────────────────────────────────────────────────────


def _ref(name: str) -> Schema:
    """A reference to a component schema."""
    return {"$ref": SCHEMAS_REF + name}


def _closed(
    properties: Mapping[str, Schema], optional: Iterable[str] = (), description: str = ""
) -> Schema:
    """An object with exactly these properties, all required except `optional`."""
    skip = set(optional)
    schema: Schema = {
        "type": "object",
        "properties": dict(properties),
        "required": [name for name in properties if name not in skip],
        "additionalProperties": False,
    }
    return {"description": description, **schema} if description else schema


def _string(pattern: str | None = None, **extra: Any) -> Schema:
    """A string schema, optionally with a pattern."""
    return {"type": "string", **({"pattern": pattern} if pattern else {}), **extra}


def _count(minimum: int = 0) -> Schema:
    """A non-negative (or at least `minimum`) integer."""
    return {"type": "integer", "minimum": minimum}


def _any_case(words: Iterable[str]) -> str:
    """An ECMA-262 pattern matching any of the words in any letter case (no inline flags)."""

    def letters(word: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_-]+", word):
            raise ValueError(f"only letters, digits, _ and - are supported: {word!r}")
        return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in word)

    return "^(" + "|".join(letters(w) for w in words) + ")$"


def _keyed_options(item: str, key_field: str) -> Schema:
    """Exactly four options, keyed A, B, C, D in this order."""
    return {
        "type": "array",
        "prefixItems": [
            {**_ref(item), "properties": {key_field: {"const": k}}} for k in OPTION_KEYS
        ],
        "items": False,
        "minItems": len(OPTION_KEYS),
    }


def _with_url(schema: Schema, description: str, folder: str, id_pattern: str) -> Schema:
    """The schema plus a required `url`: the path of its static copy, relative to the base URL."""
    out = copy.deepcopy(schema)
    out["properties"]["url"] = _string(f"^/{API_PREFIX}/{folder}/{id_pattern.removeprefix('^')}")
    out["required"].append("url")
    out["description"] = description
    return out


# ── Component schemas ────────────────────────────────────────────────────────────────────────


def _exam_schema(exam_id: Schema, date: Schema, description: str) -> Schema:
    """A paper: the Daily exam (2.1) plus the additive fields DESIGN.md allows."""
    return _closed(
        {
            "exam_id": exam_id,
            "title": _string(),
            "total_questions": _count(1),
            "questions": {"type": "array", "items": _ref("DailyQuestion"), "minItems": 1},
            # Additive fields (DESIGN.md): always emitted except `blueprint`, which papers
            # assembled before blueprints existed do not carry.
            "total_marks": _count(),
            "marking": _ref("Marking"),
            "duration_minutes": _count(),
            "date": date,
            "blueprint": _ref("PaperBlueprint"),
        },
        optional=["blueprint"],
        description=description,
    )


def _practice_set_schema() -> Schema:
    """A practice set: the request it answers and its questions in the Daily question shape."""
    return _closed(
        {
            "practice_id": _string(PRACTICE_ID_PATTERN),
            "subject": _ref("Subject"),
            "topic_id": _string(),
            "topic": _string(description="topic name"),
            "difficulty": _ref("Difficulty"),
            "total_questions": {"type": "integer", "minimum": 1, "maximum": MAX_PRACTICE_QUESTIONS},
            "questions": {
                "type": "array",
                "items": _ref("DailyQuestion"),
                "minItems": 1,
                "maxItems": MAX_PRACTICE_QUESTIONS,
            },
        },
        description="A practice set (static copy at /api/v1/practice/{practice_id}).",
    )


def _blueprint_schemas() -> dict[str, Schema]:
    """The `blueprint` block of a paper: target against achieved, and the answer-key spread."""
    difficulties = [d.value for d in Difficulty]
    tally = _closed({"target": _count(), "achieved": _count()})
    unit = _closed({"min": _count(), "max": _count(), "achieved": _count()})
    return {
        "PaperBlueprint": _closed(
            {
                "id": _string(),
                "difficulty_distribution": {
                    "type": "object",
                    "propertyNames": {"enum": difficulties},
                    "additionalProperties": {"type": "number", "minimum": 0, "maximum": 1},
                },
                "subjects": {
                    "type": "object",
                    "propertyNames": _ref("Subject"),
                    "additionalProperties": _ref("SubjectTally"),
                },
                "answer_keys": {
                    "type": "object",
                    "propertyNames": _ref("OptionKey"),
                    "additionalProperties": _count(),
                },
            },
            description="What the paper was assembled to, and what it achieved.",
        ),
        "SubjectTally": _closed(
            {
                "difficulty": {
                    "type": "object",
                    "propertyNames": {"enum": difficulties},
                    "additionalProperties": tally,
                },
                "units": {"type": "object", "additionalProperties": unit},
            }
        ),
    }


def _syllabus_schemas() -> dict[str, Schema]:
    """The syllabus tree: subjects → units → chapters → topics."""
    topic = _closed(
        {
            "topic_id": _string(description="the id practice requests use"),
            "name": _string(),
            "deleted": {
                "type": "boolean",
                "description": "deleted in the 2024 revision: never in papers or practice",
            },
        }
    )
    chapter = _closed(
        {
            "chapter_id": _string(),
            "name": _string(),
            "deleted": {"type": "boolean"},
            "topics": {"type": "array", "items": _ref("SyllabusTopic")},
        }
    )
    unit = _closed(
        {
            "unit_id": _string(),
            "number": _count(1),
            "name": _string(),
            "chapters": {"type": "array", "items": _ref("SyllabusChapter"), "minItems": 1},
        }
    )
    subject = _closed(
        {"name": _ref("Subject"), "units": {"type": "array", "items": _ref("SyllabusUnit")}}
    )
    return {
        "Syllabus": _closed(
            {
                "syllabus_id": _string(),
                "title": _string(),
                "source_note": _string(),
                "subjects": {"type": "array", "items": _ref("SyllabusSubject")},
            },
            description="The NEET-UG syllabus; a Biology unit appears under each subject it spans.",
        ),
        "SyllabusSubject": subject,
        "SyllabusUnit": unit,
        "SyllabusChapter": chapter,
        "SyllabusTopic": topic,
    }


def _request_schemas() -> dict[str, Schema]:
    """Bodies of the two POSTs, with SPEC's and DESIGN.md's validation rules."""
    difficulty_names = [d.value for d in Difficulty]
    return {
        "PracticeRequest": _closed(
            {
                "topic_id": _string(
                    minLength=1, description="a topic id from /api/v1/syllabus (not deleted)"
                ),
                "question_count": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_PRACTICE_QUESTIONS,
                },
                "difficulty": _string(
                    _any_case(difficulty_names),
                    description="Easy, Medium or Hard, in any letter case",
                ),
            },
            description="Practice generation request (SPEC 2.4).",
        ),
        "ExamRequest": _closed(
            {
                "exam_type": _string(
                    _any_case(EXAM_TYPES),
                    description="NEET_UG (also NEET or NEET-UG), in any letter case",
                ),
                "difficulty_distribution": {
                    "type": "object",
                    "description": (
                        "Share of questions per difficulty, keys easy, medium, hard in any "
                        "letter case, each at most once; a missing key is 0; the shares must "
                        "add up to 1 (±1e-6), which the worker checks."
                    ),
                    "propertyNames": _string(_any_case(d.lower() for d in difficulty_names)),
                    "additionalProperties": {"type": "number", "minimum": 0, "maximum": 1},
                    "minProperties": 1,
                    "maxProperties": len(difficulty_names),
                },
                "subjects": {
                    "type": "array",
                    "items": _string(
                        _any_case(s.value for s in Subject),
                        description="Physics, Chemistry, Botany or Zoology, in any letter case",
                    ),
                    "minItems": 1,
                    "maxItems": len(Subject),
                    "uniqueItems": True,
                },
            },
            description="Exam generation request (SPEC 2.6): 45 questions per chosen subject.",
        ),
    }


def _job_schemas() -> dict[str, Schema]:
    """The job acknowledgement (2.5) and the polled job record (DESIGN.md)."""
    status = {"type": "string", "enum": list(JOB_STATUSES)}
    result = {
        "oneOf": [_ref("PracticeResult"), _ref("ExamResult"), {"type": "null"}],
        "description": "on COMPLETED: the practice set or exam and the URL of its static copy",
    }

    def when(state: str, field: str) -> Schema:
        return {
            "if": {"properties": {"status": {"const": state}}, "required": ["status"]},
            "then": {"required": [field], "properties": {field: {"not": {"type": "null"}}}},
        }

    job = _closed(
        {
            "job_id": _string(JOB_ID_PATTERN),
            "status": status,
            "message": _string(),
            "eta_seconds": _count(),
            # Additive fields (DESIGN.md).
            "kind": {"type": "string", "enum": list(JOB_KINDS)},
            "progress": _closed({"done": _count(), "total": _count()}),
            "created_at": _string(format="date-time"),
            "updated_at": _string(format="date-time"),
            "result": result,
            "error": {"oneOf": [_ref("JobError"), {"type": "null"}]},
        },
        optional=["result", "error"],
        description="A job as polled: result on COMPLETED, error on FAILED.",
    )
    job["allOf"] = [when("COMPLETED", "result"), when("FAILED", "error")]
    return {
        "JobAcknowledgement": _closed(
            {
                "job_id": _string(JOB_ID_PATTERN),
                "status": status,
                "message": _string(),
                "eta_seconds": _count(),
            },
            description="Practice generation response (SPEC 2.5); also the exam generation answer.",
        ),
        "Job": job,
        "JobError": _closed({"code": _string(), "message": _string()}),
    }


def component_schemas() -> dict[str, Schema]:
    """Every component schema of the document, by name."""
    practice_set = _practice_set_schema()
    custom_exam = _exam_schema(
        _string(EXAM_ID_PATTERN),
        {"type": ["string", "null"], "format": "date"},
        "A custom exam (static copy at /api/v1/exams/{exam_id}); `date` is null.",
    )
    return {
        "Subject": {"type": "string", "enum": [s.value for s in Subject]},
        "Difficulty": {"type": "string", "enum": [d.value for d in Difficulty]},
        "OptionKey": {"type": "string", "enum": list(OPTION_KEYS)},
        "DailyOption": _closed({"key": _ref("OptionKey"), "text": _string()}),
        "DailyQuestion": _closed(
            {
                "id": _string(QUESTION_ID_PATTERN),
                "subject": _ref("Subject"),
                "topic": _string(description="topic name"),
                "stem_markdown": _string(description="Markdown with LaTeX math"),
                "options": _keyed_options("DailyOption", "key"),
                "correct_key": _ref("OptionKey"),
                "explanation_markdown": _string(),
            },
            description="Daily question (SPEC 2.2).",
        ),
        "StoredOption": _closed(
            {"id": _ref("OptionKey"), "text_html": _string(), "is_correct": {"type": "boolean"}}
        ),
        "StoredQuestion": _closed(
            {
                "id": _string(QUESTION_ID_PATTERN),
                "subject": _ref("Subject"),
                "topic": _string(description="topic name"),
                "difficulty": _ref("Difficulty"),
                "stem_html": _string(description="sanitised HTML, math as MathML"),
                "options": {
                    **_keyed_options("StoredOption", "id"),
                    "contains": {"properties": {"is_correct": {"const": True}}},
                    "minContains": 1,
                    "maxContains": 1,
                },
                "explanation_html": _string(),
            },
            description="Stored question (SPEC 2.3): exactly one option is correct.",
        ),
        "Marking": _closed(
            {"correct": _count(), "wrong": {"type": "integer"}, "unanswered": {"type": "integer"}}
        ),
        **_blueprint_schemas(),
        "DailyExam": _exam_schema(
            _string(DAILY_EXAM_ID_PATTERN),
            _string(DATE_PATTERN, format="date"),
            "Daily exam (SPEC 2.1) with the additive fields DESIGN.md allows.",
        ),
        "Exam": custom_exam,
        "PracticeSet": practice_set,
        "DailyIndex": _closed(
            {
                "papers": {
                    "type": "array",
                    "items": _closed(
                        {
                            "date": _string(DATE_PATTERN, format="date"),
                            "exam_id": _string(DAILY_EXAM_ID_PATTERN),
                            "url": _string(
                                f"^/{API_PREFIX}/exams/daily/[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}$"
                            ),
                        }
                    ),
                }
            },
            description="Every published daily paper, newest first.",
        ),
        "WithdrawnQuestions": _closed(
            {
                "questions": {
                    "type": "array",
                    "items": _closed(
                        {
                            "id": _string(QUESTION_ID_PATTERN),
                            "reason": _string(),
                            "withdrawn_at": _string(format="date-time"),
                            "url": _string(
                                f"^/{API_PREFIX}/questions/{QUESTION_ID_PATTERN.removeprefix('^')}"
                            ),
                        }
                    ),
                }
            },
            description=(
                "Questions found wrong, newest first: they leave sampling and future papers; "
                "their files stay valid for the papers that used them."
            ),
        ),
        **_syllabus_schemas(),
        **_request_schemas(),
        **_job_schemas(),
        "PracticeResult": _with_url(
            practice_set, "A finished practice job's result.", "practice", PRACTICE_ID_PATTERN
        ),
        "ExamResult": _with_url(
            custom_exam, "A finished exam job's result.", "exams", EXAM_ID_PATTERN
        ),
        "Error": _closed(
            {
                "error": _closed(
                    {
                        "code": _string(description="machine-readable, e.g. validation_error"),
                        "message": _string(),
                        "details": {"type": "array"},
                    }
                )
            },
            description="The body of every 4xx/5xx answer from the worker.",
        ),
        "OpenApiDocument": {
            "type": "object",
            "required": ["openapi", "info", "paths"],
            "description": "This document.",
        },
    }


# ── Paths ────────────────────────────────────────────────────────────────────────────────────


def _cache_header(path: str) -> Schema:
    """The Cache-Control header a path is served with."""
    return {
        "Cache-Control": {
            "description": f"`{CACHE_POLICIES[path]}`",
            "schema": {"type": "string"},
        }
    }


def _json(schema: str, description: str, headers: Schema | None = None) -> Schema:
    """A JSON response with a component schema."""
    response: Schema = {
        "description": description,
        "content": {"application/json": {"schema": _ref(schema)}},
    }
    if headers:
        response["headers"] = headers
    return response


def _error(description: str, headers: Schema | None = None) -> Schema:
    """An error response (the DESIGN.md error body)."""
    return _json("Error", description, headers)


def _parameter(name: str, pattern: str, description: str) -> Schema:
    """A required path parameter."""
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": _string(pattern),
    }


def _static(
    path: str, operation_id: str, summary: str, schema: str, parameter: Schema | None = None
) -> tuple[str, Schema]:
    """A public GET of the static tree."""
    responses: Schema = {
        "200": _json(schema, summary, _cache_header(path)),
        # Before the first nightly run nothing is published, not even the daily pointer.
        "404": _error("nothing published at this path (yet)"),
    }
    operation: Schema = {
        "operationId": operation_id,
        "summary": summary,
        "tags": ["static"],
        "security": [],
        "responses": responses,
    }
    if parameter is not None:
        operation["parameters"] = [parameter]
    return path, {"get": operation}


def _dynamic_errors(*statuses: str) -> Schema:
    """The worker's error answers for the given statuses."""
    retry_after = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
    known: dict[str, Schema] = {
        "401": _error("missing or unknown API key"),
        "404": _error("no such job"),
        "404-topic": _error(f"no such topic: topic ids are listed at {P}/syllabus"),
        "413": _error("the body is larger than the worker accepts"),
        "415": _error("the body is not application/json"),
        "422": _error("the body is not valid; `details` lists each problem"),
        "429": _error("over the key's rate limit or daily quota", retry_after),
        "503": _error("overloaded; try again later", retry_after),
    }
    return {s.split("-")[0]: known[s] for s in statuses}


def _generate(
    path: str, operation_id: str, summary: str, request: str, *statuses: str
) -> tuple[str, Schema]:
    """An asynchronous trigger: a validated body in, a job acknowledgement out."""
    return path, {
        "post": {
            "operationId": operation_id,
            "summary": summary,
            "tags": ["dynamic"],
            "security": [{"bearerAuth": []}],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _ref(request)}},
            },
            "responses": {
                "202": _json(
                    "JobAcknowledgement",
                    "accepted: poll /api/v1/jobs/{job_id} (also in `Location`)",
                    {
                        **_cache_header(path),
                        "Location": {
                            "description": "the job's polling URL",
                            "schema": _string(f"^{P}/jobs/{JOB_ID_PATTERN.removeprefix('^')}"),
                        },
                    },
                ),
                **_dynamic_errors("401", *statuses, "413", "415", "422", "429", "503"),
            },
        }
    }


def api_paths() -> dict[str, Schema]:
    """Every path of the API: the static tree first, then the worker's."""
    question_id = _parameter("question_id", QUESTION_ID_PATTERN, "a stored question's id")
    return dict(
        [
            _static(f"{P}/exams/daily", "getDailyExam", "Today's daily paper", "DailyExam"),
            _static(
                f"{P}/exams/daily/index",
                "getDailyIndex",
                "Every published daily paper, newest first",
                "DailyIndex",
            ),
            _static(
                f"{P}/exams/daily/{{date}}",
                "getDailyExamByDate",
                "The daily paper of a date",
                "DailyExam",
                _parameter("date", DATE_PATTERN, "YYYY-MM-DD (Asia/Kolkata)"),
            ),
            _static(
                f"{P}/exams/{{exam_id}}",
                "getExam",
                "A generated custom exam",
                "Exam",
                _parameter("exam_id", EXAM_ID_PATTERN, "a custom exam's id"),
            ),
            _static(
                f"{P}/questions/withdrawn",
                "getWithdrawnQuestions",
                "Questions withdrawn from future papers",
                "WithdrawnQuestions",
            ),
            _static(
                f"{P}/questions/{{question_id}}",
                "getQuestion",
                "One stored question",
                "StoredQuestion",
                question_id,
            ),
            _static(
                f"{P}/practice/{{practice_id}}",
                "getPracticeSet",
                "A generated practice set",
                "PracticeSet",
                _parameter("practice_id", PRACTICE_ID_PATTERN, "a practice set's id"),
            ),
            _static(f"{P}/syllabus", "getSyllabus", "The syllabus tree", "Syllabus"),
            _static(f"{P}/openapi.json", "getOpenApi", "This document", "OpenApiDocument"),
            _generate(
                f"{P}/practice/generate",
                "generatePractice",
                "Request a practice set of up to 10 questions on one topic",
                "PracticeRequest",
                "404-topic",
            ),
            _generate(
                f"{P}/exams/generate",
                "generateExam",
                "Request a full exam (about 2 to 3 minutes)",
                "ExamRequest",
            ),
            (
                f"{P}/jobs/{{job_id}}",
                {
                    "get": {
                        "operationId": "getJob",
                        "summary": "Poll a job",
                        "tags": ["dynamic"],
                        "security": [{"bearerAuth": []}],
                        "parameters": [_parameter("job_id", JOB_ID_PATTERN, "a job's id")],
                        "responses": {
                            "200": _json("Job", "the job", _cache_header(f"{P}/jobs/{{job_id}}")),
                            **_dynamic_errors("401", "404", "429"),
                        },
                    }
                },
            ),
        ]
    )


def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document of the whole API."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "qforge NEET-UG question and mock exam API",
            "version": API_VERSION,
            "description": (
                "Static, public, CDN-cached JSON (papers, questions, syllabus, lists) and a "
                "small worker for the dynamic calls (practice, custom exams, job polling), "
                "which take an API key. Every path carries the /api/v1 prefix."
            ),
        },
        "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
        "servers": [
            {
                "url": "{base_url}",
                "variables": {"base_url": {"default": "http://127.0.0.1:8000"}},
            }
        ],
        "tags": [
            {"name": "static", "description": "public files of the static tree"},
            {"name": "dynamic", "description": "the worker; needs an API key"},
        ],
        "paths": api_paths(),
        "components": {
            "schemas": component_schemas(),
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "API key: `Authorization: Bearer <key>`",
                }
            },
        },
    }


def _rebased(value: Any) -> Any:
    """A deep copy with component references pointing at `$defs`."""
    if isinstance(value, dict):
        return {
            k: v.replace(SCHEMAS_REF, "#/$defs/", 1) if k == "$ref" else _rebased(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_rebased(v) for v in value]
    return value


def standalone_schema(name: str) -> Schema:
    """A self-contained JSON Schema 2020-12 for one component (its references as `$defs`)."""
    schemas = component_schemas()
    if name not in schemas:
        raise KeyError(f"no component schema {name!r}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": _rebased(schemas),
        "$ref": f"#/$defs/{name}",
    }


def static_documents(
    syllabus: Syllabus, published_dates: Iterable[str], withdrawals: Iterable[WithdrawalRow]
) -> dict[str, bytes]:
    """The static documents besides papers and questions, by key, as published bytes."""
    return {
        syllabus_key(): json_bytes(syllabus_document(syllabus)),
        daily_index_key(): json_bytes(daily_index_document(published_dates)),
        withdrawn_questions_key(): json_bytes(withdrawn_questions_document(withdrawals)),
        openapi_key(): json_bytes(openapi_document()),
    }
