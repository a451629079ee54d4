"""The OpenAPI 3.1 document of the whole API (static tree and worker), and the static documents.

The component schemas are generated from the models of `site_builder.contract`, the bodies the
worker validates with; this module adds the paths: which body each path takes and gives, with
its status codes and headers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic.json_schema import GenerateJsonSchema, models_json_schema
from pydantic_core import CoreSchema

from core.shapes import FIGURE_SUFFIX, FIGURES_PREFIX
from kb.syllabus import Syllabus
from pipeline.figures.svg import FIGURE_ID_PATTERN, SVG_MEDIA_TYPE
from site_builder.contract import COMPONENTS
from site_builder.documents import (
    API_PREFIX,
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
    f"/{FIGURES_PREFIX}{{figure_id}}{FIGURE_SUFFIX}": IMMUTABLE,
    f"{P}/practice/{{practice_id}}": IMMUTABLE,
    **{f"/{key}": f"public, max-age={age}" for key, age in short_lived_keys().items()},
    f"{P}/practice/generate": NO_STORE,
    f"{P}/exams/generate": NO_STORE,
    f"{P}/jobs/{{job_id}}": NO_STORE,
    f"{P}/attempts": NO_STORE,
    f"{P}/questions/{{question_id}}/reports": NO_STORE,
}


# ── Component schemas ────────────────────────────────────────────────────────────────────────


class _FieldsUntitled(GenerateJsonSchema):
    """Pydantic's schemas without a title per field (the name again, in title case)."""

    def field_title_should_be_set(self, schema: CoreSchema) -> bool:
        return False


# The document describing itself: an object, open (OpenAPI allows extensions everywhere).
OPENAPI_DOCUMENT_SCHEMA: Schema = {
    "type": "object",
    "required": ["openapi", "info", "paths"],
    "description": "This document.",
}


def component_schemas() -> dict[str, Schema]:
    """Every component schema of the document, by name: the contract's models and the bodies
    they refer to, and the document itself."""
    _, schemas = models_json_schema(
        [(model, "validation") for model in COMPONENTS],
        ref_template=SCHEMAS_REF + "{model}",
        schema_generator=_FieldsUntitled,
    )
    return {**schemas["$defs"], "OpenApiDocument": OPENAPI_DOCUMENT_SCHEMA}


def _string(pattern: str) -> Schema:
    return {"type": "string", "pattern": pattern}


def _ref(name: str) -> Schema:
    """A reference to a component schema."""
    return {"$ref": SCHEMAS_REF + name}


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
    """An error response (the one error body, `Error`)."""
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
        "404-question": _error("no question with this id"),
        "409-batch": _error(
            "batch_id_reused: this batch id was kept with other rows; post new rows under a new "
            "batch id"
        ),
        "413": _error("the body is larger than the worker accepts"),
        "409": _error(
            "insufficient_pool: neither the pool nor the generators can make the set; `details` "
            "gives, per difficulty, how many distinct questions the topic can have "
            "(`topic_id`, `difficulty`, `available`)"
        ),
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
    accepted = _json(
        "JobAcknowledgement",
        "accepted: poll /api/v1/jobs/{job_id} (also in `Location`)",
        {
            **_cache_header(path),
            "Location": {
                "description": "the job's polling URL",
                "schema": _string(f"^{P}/jobs/{JOB_ID_PATTERN.removeprefix('^')}"),
            },
        },
    )
    errors = _dynamic_errors("401", *statuses, "413", "415", "422", "429", "503")
    return path, {"post": _post(operation_id, summary, request, {"202": accepted, **errors})}


def _post(operation_id: str, summary: str, request: str, responses: Schema) -> Schema:
    """A dynamic POST with a key and a required JSON body of the named schema."""
    return {
        "operationId": operation_id,
        "summary": summary,
        "tags": ["dynamic"],
        "security": [{"bearerAuth": []}],
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": _ref(request)}},
        },
        "responses": responses,
    }


def _feedback(
    path: str,
    operation_id: str,
    summary: str,
    request: str,
    receipt: str,
    parameters: list[Schema],
    *statuses: str,
) -> tuple[str, Schema]:
    """A student's post: a validated body in, a receipt out (kept, not processed yet)."""
    kept = _json(receipt, "kept for the nightly", _cache_header(path))
    errors = _dynamic_errors("401", *statuses, "413", "415", "422", "429")
    operation = _post(operation_id, summary, request, {"202": kept, **errors})
    if parameters:
        operation["parameters"] = parameters
    return path, {"post": operation}


def _image() -> tuple[str, Schema]:
    """A question figure: a sanitised SVG addressed by the hash of its bytes."""
    path = f"/{FIGURES_PREFIX}{{figure_id}}{FIGURE_SUFFIX}"
    return path, {
        "get": {
            "operationId": "getFigure",
            "summary": "A question's figure (the `url` of an item of a question's `figures`)",
            "tags": ["static"],
            "security": [],
            "parameters": [
                _parameter("figure_id", FIGURE_ID_PATTERN, "a figure's id: a hash of its SVG")
            ],
            "responses": {
                "200": {
                    "description": "The SVG: no script, no event handler, no external reference",
                    "content": {SVG_MEDIA_TYPE: {"schema": {"type": "string"}}},
                    "headers": _cache_header(path),
                },
                "404": _error("no figure with this id"),
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
            _image(),
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
                "409",
            ),
            _generate(
                f"{P}/exams/generate",
                "generateExam",
                "Request a full exam (about 2 to 3 minutes)",
                "ExamRequest",
            ),
            _feedback(
                f"{P}/attempts",
                "postAttempts",
                "Log up to 500 answers; rows that fail a check are refused, the rest kept",
                "AttemptsRequest",
                "AttemptReceipt",
                [],
                "409-batch",
            ),
            _feedback(
                f"{P}/questions/{{question_id}}/reports",
                "reportQuestion",
                "Report a question as wrong (re-verified by the nightly)",
                "ReportRequest",
                "ReportReceipt",
                [question_id],
                "404-question",
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
                "small worker for the dynamic calls (practice, custom exams, job polling, "
                "answer logs and error reports), which take an API key. Every path carries the "
                "/api/v1 prefix."
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
    syllabus: Syllabus,
    published_dates: Iterable[str],
    withdrawals: Iterable[WithdrawalRow],
    servable: Mapping[tuple[str, str], tuple[int, int]] | None = None,
    as_of: str | None = None,
) -> dict[str, bytes]:
    """The static documents besides papers and questions, by key, as published bytes; the
    syllabus carries each live topic's servable counts when `servable` is given."""
    return {
        syllabus_key(): json_bytes(syllabus_document(syllabus, servable, as_of)),
        daily_index_key(): json_bytes(daily_index_document(published_dates)),
        withdrawn_questions_key(): json_bytes(withdrawn_questions_document(withdrawals)),
        openapi_key(): json_bytes(openapi_document()),
    }
