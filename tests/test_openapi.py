"""The OpenAPI 3.1 document: valid, exact to SPEC, and true of every file the exporter writes."""

from __future__ import annotations

import copy
import datetime as dt
import gzip
import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any

import brotli
import jsonschema
import numpy as np
import pytest
from openapi_spec_validator import OpenAPIV31SpecValidator
from pydantic import ValidationError

from api_stub.app import error_body
from core.records import Difficulty, Subject
from core.storage import LocalObjectStore
from core.warehouse import open_warehouse
from kb.knowledge import KnowledgeBase
from kb.syllabus import Syllabus
from pipeline.assemble.assembly import paper_from_rows
from pipeline.assemble.blueprint import load_blueprint
from pipeline.assemble.index import index_pool
from pipeline.assemble.request import SUBJECTS, custom_request, daily_request
from pipeline.figures.svg import unsafe_svg
from pipeline.fill.pool import fill_pool
from pipeline.generate.drafter import OfflineDrafter
from pipeline.templates.catalogue import TEMPLATES, TEMPLATES_BY_ID
from pipeline.verify.solver import OfflineSolver
from site_builder.contract import COMPONENTS
from site_builder.documents import (
    API_PREFIX,
    WithdrawalRow,
    daily_index_document,
    exam_key,
    json_bytes,
    paper_document,
    practice_document,
    practice_key,
    question_key,
    short_lived_keys,
    syllabus_document,
    withdrawn_questions_document,
    withdrawn_questions_key,
)
from site_builder.export import export_daily_paper, publish_daily_pointer
from site_builder.openapi import (
    CACHE_POLICIES,
    openapi_document,
    standalone_schema,
    static_documents,
)
from tests.conftest import DATA_DIR
from tests.test_figures import figure_question

DATES = ("2026-01-10", "2026-01-11")
DECODERS: dict[str, Callable[[bytes], bytes]] = {"gz": gzip.decompress, "br": brotli.decompress}
EXAM_ID, PRACTICE_ID = "exam-t3stCust0m01", "practice-t3stPract1ce"


@cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    """A validator for one component schema, checking formats too."""
    return jsonschema.Draft202012Validator(
        standalone_schema(name), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def errors(name: str, document: Any) -> list[str]:
    """What the document's schema finds wrong, and the model it was generated from must agree:
    a document is valid to both or to neither."""
    found = [e.message for e in validator(name).iter_errors(document)]
    model = MODELS.get(name)
    if model is not None:
        try:
            model.model_validate(document)
        except ValidationError:
            assert found, f"the {name} model refuses what its schema accepts"
        else:
            assert not found, f"the {name} model accepts what its schema refuses: {found}"
    return found


MODELS = {model.__name__: model for model in COMPONENTS}


SVG = "image/svg+xml"


def get_routes() -> list[tuple[str, re.Pattern[str], str]]:
    """(path template, key regex, response schema name) of every static GET in the document;
    an image's "schema name" is its media type."""
    routes = []
    for template, item in openapi_document()["paths"].items():
        op = item.get("get")
        if op is None or "static" not in op["tags"]:
            continue
        patterns = {p["name"]: p["schema"]["pattern"] for p in op.get("parameters", [])}
        regex = re.escape(template.removeprefix("/"))
        for name, pattern in patterns.items():
            regex = regex.replace(re.escape(f"{{{name}}}"), f"({pattern.strip('^$')})")
        content = op["responses"]["200"]["content"]
        if SVG in content:
            routes.append((template, re.compile(regex), SVG))
            continue
        ref = content["application/json"]["schema"]["$ref"]
        routes.append((template, re.compile(regex), ref.rsplit("/", 1)[1]))
    return routes


# ── A real small tree ─────────────────────────────────────────────────────────────────────────


@pytest.fixture(scope="module")
def tree(
    tmp_path_factory: pytest.TempPathFactory, syllabus: Syllabus, kb: KnowledgeBase
) -> tuple[LocalObjectStore, dict[str, Any]]:
    """Two published daily papers, a custom exam, a practice set, and the static documents."""
    root = tmp_path_factory.mktemp("openapi")
    store = LocalObjectStore(root / "store")
    blueprint = load_blueprint(DATA_DIR, syllabus)
    with open_warehouse(root / "w.duckdb") as wh:
        fill_pool(
            wh,
            OfflineDrafter(syllabus, kb, TEMPLATES),
            OfflineSolver(kb, TEMPLATES_BY_ID),
            {(s, d): 1 for s in Subject for d in Difficulty},
        )
        wh.insert_questions([figure_question(syllabus)])  # its image is exported too
        index = index_pool(wh.pool())
        rows = {s: np.flatnonzero(index.subject == SUBJECTS.index(s)) for s in SUBJECTS}
        assert all(len(r) >= 3 for r in rows.values())
        everything = wh.questions()
        for i, date in enumerate(DATES):
            request = daily_request(blueprint, dt.date.fromisoformat(date))
            picked = {s: r[i : i + 2].tolist() for s, r in rows.items()}
            paper = paper_from_rows(index, request, blueprint, picked)
            wh.insert_paper(paper)
            export_daily_paper(store, paper, wh.questions(paper.question_ids), everything)
            publish_daily_pointer(store, date)
        chosen = [Subject.PHYSICS, Subject.ZOOLOGY]
        request = custom_request(blueprint, EXAM_ID, chosen, {d: 1 / 3 for d in Difficulty})
        custom = paper_from_rows(
            index, request, blueprint, {s: rows[s][:2].tolist() for s in chosen}
        )
        exam = paper_document(custom, wh.questions(custom.question_ids))
        store.put(exam_key(EXAM_ID), json_bytes(exam))
        q = everything[0]
        practice = practice_document(
            PRACTICE_ID, syllabus.topic(q.content.tag.topic_id), q.content.difficulty, [q]
        )
        store.put(practice_key(PRACTICE_ID), json_bytes(practice))
        wh.withdraw(everything[1].question_id, "wrong key")
        withdrawals = wh.con.execute(
            "SELECT question_id, reason, withdrawn_at FROM withdrawals"
        ).fetchall()
    rows_as_data = [
        WithdrawalRow(question_id=a, reason=b, withdrawn_at=c) for a, b, c in withdrawals
    ]
    for key, data in static_documents(syllabus, DATES, rows_as_data).items():
        store.put(key, data)
    return store, {"exam": exam, "practice": practice}


def test_the_document_is_valid_openapi_3_1() -> None:
    document = openapi_document()
    OpenAPIV31SpecValidator(document).validate()
    assert document["openapi"] == "3.1.0"
    assert json_bytes(openapi_document()) == json_bytes(document)  # pure and stable
    # Every component is valid JSON Schema 2020-12 too (a standalone schema holds them all).
    jsonschema.Draft202012Validator.check_schema(standalone_schema("DailyExam"))


def test_every_exported_file_validates_against_its_paths_schema(tree) -> None:
    store, _ = tree
    routes = get_routes()
    seen: set[str] = set()
    checked = 0
    for key in store.keys(f"{API_PREFIX}/"):
        data = store.get(key) or b""
        base, dot, suffix = key.rpartition(".")
        if dot and suffix in DECODERS:  # a compressed variant: the same bytes as its file
            assert DECODERS[suffix](data) == store.get(base), key
            continue
        if dot and suffix == "html":  # printable previews: text/html, not the JSON API
            continue
        matches = [(t, name) for t, regex, name in routes if regex.fullmatch(key)]
        assert len(matches) == 1, f"{key} matches {matches}"  # no key is ambiguous
        template, name = matches[0]
        seen.add(template)
        if name == SVG:
            assert unsafe_svg(data.decode("utf-8")) is None, key
            continue
        assert errors(name, json.loads(data)) == [], key
        checked += 1
    assert checked >= 20
    assert seen == {t for t, _, _ in routes}  # every static path was exercised


def test_the_withdrawn_list_cannot_collide_with_a_question(tree) -> None:
    store, _ = tree
    withdrawn = json.loads(store.get(withdrawn_questions_key()) or b"")["questions"]
    assert [w["reason"] for w in withdrawn] == ["wrong key"]
    assert store.get(question_key(withdrawn[0]["id"])) is not None  # its file stays valid
    routes = {t: regex for t, regex, _ in get_routes()}
    assert not routes["/api/v1/questions/{question_id}"].fullmatch(withdrawn_questions_key())
    for bad in ("daily", "generate", "index"):
        with pytest.raises(ValueError):
            exam_key(bad)
        with pytest.raises(ValueError):
            practice_key(bad)


# ── Exact field names ─────────────────────────────────────────────────────────────────────────

SPEC_FIELDS = {
    "DailyQuestion": {
        "id",
        "subject",
        "topic",
        "stem_markdown",
        "options",
        "correct_key",
        "explanation_markdown",
    },
    "DailyOption": {"key", "text"},
    "StoredQuestion": {
        "id",
        "subject",
        "topic",
        "difficulty",
        "stem_html",
        "options",
        "explanation_html",
    },
    "StoredOption": {"id", "text_html", "is_correct"},
    "PracticeRequest": {"topic_id", "question_count", "difficulty"},
    "JobAcknowledgement": {"job_id", "status", "message", "eta_seconds"},
    "ExamRequest": {"exam_type", "difficulty_distribution", "subjects"},
}
PAPER_ADDITIVE = {"total_marks", "marking", "duration_minutes", "date", "blueprint"}


def test_component_fields_are_the_specs_and_the_allowed_additions() -> None:
    schemas = openapi_document()["components"]["schemas"]
    for name, fields in SPEC_FIELDS.items():
        # A question with a figure adds `figures` (DESIGN, "Figures in questions"); optional.
        additive = {"figures"} if name in ("DailyQuestion", "StoredQuestion") else set()
        assert set(schemas[name]["properties"]) == fields | additive, name
        assert set(schemas[name]["required"]) == fields, name
    for name in ("DailyExam", "Exam"):
        spec = {"exam_id", "title", "total_questions", "questions"}
        assert set(schemas[name]["properties"]) == spec | PAPER_ADDITIVE
    job_additive = {"kind", "progress", "created_at", "updated_at", "result", "error"}
    assert set(schemas["Job"]["properties"]) == SPEC_FIELDS["JobAcknowledgement"] | job_additive

    def closed(schema: Any) -> None:
        if isinstance(schema, dict):
            if schema.get("type") == "object" and "properties" in schema:
                assert schema.get("additionalProperties") is False, schema
            for value in schema.values():
                closed(value)
        elif isinstance(schema, list):
            for value in schema:
                closed(value)

    closed(schemas)


def test_a_misspelled_or_missing_field_fails(tree) -> None:
    store, _ = tree
    paper = json.loads(store.get(f"{API_PREFIX}/exams/daily") or b"")
    assert errors("DailyExam", paper) == []
    typo = copy.deepcopy(paper)
    typo["questions"][0]["stem_markdwon"] = typo["questions"][0].pop("stem_markdown")
    assert errors("DailyExam", typo)
    renamed = {("exam_ID" if k == "exam_id" else k): v for k, v in paper.items()}
    assert errors("DailyExam", renamed)
    extra = {**paper, "total_score": 720}
    assert errors("DailyExam", extra)
    reordered = copy.deepcopy(paper)
    options = reordered["questions"][0]["options"]
    options[0], options[1] = options[1], options[0]  # keys must read A, B, C, D
    assert errors("DailyExam", reordered)

    qid = paper["questions"][0]["id"]
    stored = json.loads(store.get(question_key(qid)) or b"")
    assert errors("StoredQuestion", stored) == []
    assert errors("StoredQuestion", {**stored, "difficulty": "medium"})
    two_right = copy.deepcopy(stored)
    for o in two_right["options"][:2]:
        o["is_correct"] = True
    assert errors("StoredQuestion", two_right)
    assert errors("StoredQuestion", {**stored, "id": "withdrawn"})


@pytest.mark.parametrize(
    ("body", "ok"),
    [
        ({"topic_id": "phy-si-units", "question_count": 10, "difficulty": "Hard"}, True),
        ({"topic_id": "phy-si-units", "question_count": 1, "difficulty": "eAsY"}, True),
        ({"topic_id": "phy-si-units", "question_count": 11, "difficulty": "Hard"}, False),
        ({"topic_id": "phy-si-units", "question_count": 0, "difficulty": "Hard"}, False),
        ({"topic_id": "phy-si-units", "question_count": 2.5, "difficulty": "Hard"}, False),
        ({"topic_id": "phy-si-units", "question_count": 5, "difficulty": "Harder"}, False),
        ({"topic_id": "", "question_count": 5, "difficulty": "Hard"}, False),
        ({"topic_id": "phy-si-units", "question_count": 5}, False),
        ({"topic_id": "x", "question_count": 5, "difficulty": "Hard", "seed": 1}, False),
    ],
)
def test_the_practice_request_schema_holds_the_specs_rules(body: Any, ok: bool) -> None:
    assert (errors("PracticeRequest", body) == []) is ok


GOOD_EXAM = {
    "exam_type": "NEET_UG",
    "difficulty_distribution": {"easy": 0.3, "medium": 0.5, "hard": 0.2},
    "subjects": ["Physics", "Chemistry", "Botany", "Zoology"],
}


@pytest.mark.parametrize(
    ("change", "ok"),
    [
        ({}, True),
        ({"exam_type": "neet-ug"}, True),
        ({"exam_type": "Neet"}, True),
        ({"exam_type": "JEE"}, False),
        ({"difficulty_distribution": {"Easy": 1}}, True),
        ({"difficulty_distribution": {"easy": 0.5, "extreme": 0.5}}, False),
        ({"difficulty_distribution": {"easy": 1.5, "hard": -0.5}}, False),
        ({"difficulty_distribution": {}}, False),
        ({"subjects": ["Biology"]}, False),
        ({"subjects": []}, False),
        ({"subjects": ["Physics", "Physics"]}, False),
    ],
)
def test_the_exam_request_schema_holds_the_specs_rules(change: Any, ok: bool) -> None:
    assert (errors("ExamRequest", {**GOOD_EXAM, **change}) == []) is ok


def test_jobs_carry_a_result_when_done_and_an_error_when_failed(tree) -> None:
    _, built = tree
    base = {
        "job_id": "job-abcdefgh1234",
        "status": "PROCESSING",
        "message": "generating 3 of 5",
        "eta_seconds": 40,
        "kind": "practice",
        "progress": {"done": 3, "total": 5},
        "created_at": "2026-01-10T10:00:00Z",
        "updated_at": "2026-01-10T10:00:20Z",
    }
    assert (
        errors("JobAcknowledgement", {k: base[k] for k in SPEC_FIELDS["JobAcknowledgement"]}) == []
    )
    assert errors("Job", base) == []
    practice = {**built["practice"], "url": f"/{practice_key(PRACTICE_ID)}"}
    exam = {**built["exam"], "url": f"/{exam_key(EXAM_ID)}"}
    assert (
        errors("Job", {**base, "status": "COMPLETED", "eta_seconds": 0, "result": practice}) == []
    )
    assert errors("Job", {**base, "status": "COMPLETED", "kind": "exam", "result": exam}) == []
    assert errors("Job", {**base, "status": "COMPLETED"})  # no result
    assert errors("Job", {**base, "status": "COMPLETED", "result": built["practice"]})  # no url
    failed = {**base, "status": "FAILED", "error": {"code": "shortfall", "message": "pool dry"}}
    assert errors("Job", failed) == []
    assert errors("Job", {**base, "status": "FAILED"})
    assert errors("Job", {**base, "status": "DONE"})
    assert errors("Error", error_body("not_found", "no question at /x")) == []  # the worker's


# ── The new documents ─────────────────────────────────────────────────────────────────────────


def test_the_syllabus_document_lists_every_topic_under_its_subject(syllabus: Syllabus) -> None:
    document = syllabus_document(syllabus)
    assert [s["name"] for s in document["subjects"]] == [s.value for s in Subject]
    found = {
        t["topic_id"]: (s["name"], u["unit_id"], t["deleted"])
        for s in document["subjects"]
        for u in s["units"]
        for c in u["chapters"]
        for t in c["topics"]
    }
    assert found == {
        t.topic_id: (t.subject.value, t.unit_id, t.deleted) for t in syllabus.topics.values()
    }
    assert any(deleted for *_, deleted in found.values())
    assert errors("Syllabus", document) == []


def test_the_daily_index_is_newest_first_and_refuses_bad_dates() -> None:
    document = daily_index_document(["2026-01-10", "2026-01-12", "2026-01-10"])
    assert document["papers"] == [
        {
            "date": "2026-01-12",
            "exam_id": "daily-2026-01-12",
            "url": "/api/v1/exams/daily/2026-01-12",
        },
        {
            "date": "2026-01-10",
            "exam_id": "daily-2026-01-10",
            "url": "/api/v1/exams/daily/2026-01-10",
        },
    ]
    assert daily_index_document([]) == {"papers": []}
    for bad in ("2026-1-10", "2026-02-30", "../x"):
        with pytest.raises(ValueError):
            daily_index_document([bad])


def test_the_withdrawn_list_is_newest_first_in_utc() -> None:
    ist = dt.timezone(dt.timedelta(hours=5, minutes=30))
    document = withdrawn_questions_document(
        [
            {
                "question_id": "q-" + "a" * 20,
                "reason": "typo",
                "withdrawn_at": dt.datetime(2026, 1, 10, 5, 30, tzinfo=ist),
            },
            {"question_id": "q-" + "b" * 20, "reason": "key", "withdrawn_at": "2026-01-11T00:00Z"},
        ]
    )
    assert [(q["id"][2], q["withdrawn_at"]) for q in document["questions"]] == [
        ("b", "2026-01-11T00:00:00Z"),
        ("a", "2026-01-10T00:00:00Z"),
    ]
    assert document["questions"][1]["url"] == f"/{question_key('q-' + 'a' * 20)}"
    with pytest.raises(ValueError):
        withdrawn_questions_document(
            [{"question_id": "withdrawn", "reason": "x", "withdrawn_at": "2026-01-11T00:00Z"}]
        )


def test_static_documents_are_stable_bytes(syllabus: Syllabus) -> None:
    first = static_documents(syllabus, DATES, [])
    assert first == static_documents(syllabus, reversed(DATES), [])
    assert (
        set(first)
        == set(short_lived_keys())
        == {
            "api/v1/syllabus",
            "api/v1/exams/daily/index",
            "api/v1/questions/withdrawn",
            "api/v1/openapi.json",
        }
    )
    assert json.loads(first["api/v1/openapi.json"]) == openapi_document()


def test_every_path_has_a_cache_policy() -> None:
    assert set(openapi_document()["paths"]) == set(CACHE_POLICIES)
    assert CACHE_POLICIES["/api/v1/exams/daily/index"] == "public, max-age=300"
    assert CACHE_POLICIES["/api/v1/questions/{question_id}"].endswith("immutable")


def test_the_syllabus_path_requests_name_is_the_published_one() -> None:
    from pipeline.serve.requests import SYLLABUS_PATH
    from site_builder.documents import API_PREFIX

    assert f"/{API_PREFIX}/syllabus" == SYLLABUS_PATH
    assert SYLLABUS_PATH in openapi_document()["paths"]
