"""Schemathesis against the worker, in process, from the API's own OpenAPI document.

Each dynamic operation (generation, polling, answer logs, error reports) gets schema-valid
(positive) and schema-breaking (negative) requests with a valid key, and so do the static tree's
GETs, which the worker serves as a CDN would. Every answer must be below 500, have a documented
status, content type and headers, and match its documented body (the one error body on every 4xx);
valid data must not be refused, invalid data must be, and the key must be enforced. Real engines: a
small verified pool in the local object store and the offline drafter and solver (requests the pool
cannot serve generate in the background), rate limits generous enough that the fuzzing is not
throttled into 429s, and the default daily generation quota.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import SecretStr
from schemathesis import BaseSchema, Case, GenerationMode
from schemathesis.checks import (  # the OpenAPI checks are registered lazily, by name
    content_type_conformance,
    ignored_auth,
    negative_data_rejection,
    not_a_server_error,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api_stub.app import create_app
from api_stub.limits import key_id
from api_stub.runner import JobRunner
from core.records import Difficulty, Subject
from core.settings import Settings
from core.shapes import question_file_bytes
from pipeline.compose import build_services
from pipeline.serve.jobs import JobKind, job_bytes, job_failed, job_key, job_planned, new_job
from site_builder.documents import exam_key, practice_key, question_key
from site_builder.openapi import openapi_document, static_documents
from tests.worker_pool import publish_pool, verified_questions

# Fuzzing the whole worker API: a system test.
pytestmark = pytest.mark.system

KEYS = ("k-fuzz-1", "k-fuzz-2")
AUTH = {"Authorization": f"Bearer {KEYS[0]}"}  # the fuzzed requests
SETUP_AUTH = {"Authorization": f"Bearer {KEYS[1]}"}  # the fixture's and the repros' requests
PRACTICE = ("/api/v1/practice/generate", "POST")
EXAM = ("/api/v1/exams/generate", "POST")
JOB = ("/api/v1/jobs/{job_id}", "GET")
ATTEMPTS = ("/api/v1/attempts", "POST")
REPORT = ("/api/v1/questions/{question_id}/reports", "POST")
LEARNERS = ("3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f", "0123456789abcdef0123456789abcdef")
EXAM_IDS = ("daily-2026-11-26", "exam-fuzzFuzz01", "practice-fuzzFuzz01")
# Below 500; documented status, content type, headers and body (the one error body on every
# 4xx); valid data not refused with a 4xx other than 401/403/404/409/429 (the check's default);
# invalid data refused; the key enforced (a 2xx is re-sent without it, then with a wrong one).
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    positive_data_acceptance,
    negative_data_rejection,
    ignored_auth,
]
MODES = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
FUZZ = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,  # the same requests on every run: a failure here is reproducible
    database=None,
    suppress_health_check=list(HealthCheck),
)
STATIC_FUZZ = settings(FUZZ, max_examples=10)
# The static tree's GETs, each with valid data, and those with a path parameter with invalid data
# too. Not `exams/daily`: its pointer exists once a nightly has published a paper (the nightly and
# export tests cover it), and this store has none.
STATIC = [
    pytest.param((path, "GET"), mode, id=f"{path.removeprefix('/api/v1/')}-{mode}")
    for path, operations in openapi_document()["paths"].items()
    if "static" in operations.get("get", {}).get("tags", []) and path != "/api/v1/exams/daily"
    for mode in MODES
    if mode.is_positive or "{" in path
]
GOOD_EXAM = {
    "exam_type": "NEET_UG",
    "difficulty_distribution": {"easy": 0.3, "medium": 0.5, "hard": 0.2},
    "subjects": ["Physics"],
}


@dataclass
class Worker:
    schema: BaseSchema  # the API's document, bound to the worker app
    topics: list[str]  # topics the pool holds questions of
    known: dict[str, list[str]]  # path parameter → ids that exist (jobs in every state, files)
    statuses: list[int] = field(default_factory=list)  # what the current fuzz test was answered


@pytest.fixture(scope="module")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    config = Settings(
        home=tmp_path_factory.mktemp("fuzz") / "home",
        api_keys=tuple(SecretStr(k) for k in KEYS),
        rate_limit_per_minute=1_000_000,
        rate_limit_burst=1_000_000,
        # The fuzz sends wrong keys by the thousand from one address: not a guesser to stop.
        wrong_key_limit_per_minute=1_000_000,
        wrong_key_limit_burst=1_000_000,
        worker_queue_limit=1_000,  # the daily quota, not the queue, bounds what the fuzz generates
        feedback_rate_limit_per_minute=1_000_000,
        feedback_rate_limit_burst=1_000_000,
    )
    services = build_services(config)
    # Enough Physics for a one-subject exam straight from the pool, a little of everything else.
    physics = [(Subject.PHYSICS, d) for d in Difficulty]
    others = [(s, d) for s in Subject if s is not Subject.PHYSICS for d in Difficulty]
    questions = verified_questions(services, physics, per_cell=40)
    questions += verified_questions(services, others, per_cell=6)
    rows = publish_pool(services, questions)
    # The static tree the worker also serves: the documents, and some pool questions' files.
    for key, data in static_documents(services.syllabus, [], []).items():
        services.store.put(key, data)
    for question in questions[::10]:
        services.store.put(question_key(question.question_id), question_file_bytes(question))
    for made in (exam_key(EXAM_IDS[1]), practice_key(EXAM_IDS[2])):  # papers answers may name
        services.store.put(made, b"{}")
    topics = sorted(set(rows["topic_id"].to_list()))
    runner = JobRunner(services)
    app = create_app(config, services.store, runner=runner)

    with TestClient(app) as client:  # the worker's lifespan, for the whole module
        known = {"job_id": [], "question_id": [q.question_id for q in questions[::10]]}
        # Finished jobs: served by the pool, topped up by generation, and an exam.
        for path, body in [
            ("practice", {"topic_id": topics[0], "question_count": 1, "difficulty": "Easy"}),
            ("practice", {"topic_id": topics[0], "question_count": 10, "difficulty": "hard"}),
            ("exams", GOOD_EXAM),
        ]:
            r = client.post(f"/api/v1/{path}/generate", json=body, headers=SETUP_AUTH)
            assert r.status_code == 202, r.text
            known["job_id"].append(r.json()["job_id"])
        assert runner.drain(timeout=30)
        for job_id in known["job_id"]:
            job = client.get(f"/api/v1/jobs/{job_id}", headers=SETUP_AUTH).json()
            assert job["status"] == "COMPLETED", job
            for name in ("practice_id", "exam_id"):
                if name in job["result"]:
                    known.setdefault(name, []).append(job["result"][name])
            known["question_id"] += [q["id"] for q in job["result"]["questions"][-3:]]
        # And one job in each unfinished state, as another replica left them.
        now = dt.datetime.now(dt.UTC)
        request = {**GOOD_EXAM, "exam_id": "exam-fuzz-unfinished"}
        queued = new_job("job-fuzz-running", JobKind.EXAM, request, 45, key_id(KEYS[1]), "b", now)
        for job in [
            job_planned(queued, 5, "generating 5 new questions the pool lacks", 1, now),
            job_failed(
                queued.model_copy(update={"job_id": "job-fuzz-failed"}),
                "interrupted",
                "interrupted 3 times; please submit the request again",
                now,
            ),
        ]:
            services.store.put(job_key(job.job_id), job_bytes(job))
            known["job_id"].append(job.job_id)

        schema = schemathesis.openapi.from_dict(openapi_document())
        # Requests, and the probes of checks such as ignored_auth, stay in process.
        schema.app = requests_only(app)
        yield Worker(schema, topics, known)
        assert runner.drain(timeout=30), "background jobs still running after 30 s"


def requests_only(app: FastAPI) -> Any:
    """The app without its lifespan, which schemathesis would end after each test (closing the
    runner for good); the module's fixture runs it once instead."""

    async def asgi(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            return await app(scope, receive, send)
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})

    return asgi


def strategy(worker: Worker, operation: tuple[str, str], mode: GenerationMode) -> Any:
    path, method = operation
    return worker.schema[path][method].as_strategy(mode)


def validate(case: Case, worker: Worker) -> None:
    """Send the case with the key and run the checks on the answer."""
    response = case.call_and_validate(headers=AUTH, checks=CHECKS)
    assert response.status_code < 500, response.text
    worker.statuses.append(response.status_code)


def shares_add_up(body: dict[str, Any]) -> None:
    """Make a schema-valid exam body follow the rules the document states only in words: each
    difficulty at most once in any letter case, shares adding up to 1."""
    shares = body.get("difficulty_distribution")
    if isinstance(shares, dict) and shares:
        once: dict[str, tuple[str, float]] = {}
        for key, share in shares.items():
            once.setdefault(key.lower(), (key, share))
        shares = dict(once.values())
        total = sum(shares.values())
        first = next(iter(shares))
        body["difficulty_distribution"] = (
            {k: v / total for k, v in shares.items()} if total else {**shares, first: 1}
        )


@pytest.mark.parametrize("mode", MODES, ids=str)
def test_practice_generation(worker: Worker, mode: GenerationMode) -> None:
    worker.statuses.clear()

    @FUZZ
    @given(
        case=strategy(worker, PRACTICE, mode),
        topic=st.one_of(st.none(), st.sampled_from(worker.topics)),
    )
    def fuzz(case: Case, topic: str | None) -> None:
        # A real topic half the time, or nearly every positive body is a 404.
        if mode.is_positive and isinstance(case.body, dict) and topic is not None:
            case.body["topic_id"] = topic
        validate(case, worker)

    fuzz()
    if mode.is_positive:
        assert 202 in worker.statuses, worker.statuses


@pytest.mark.parametrize("mode", MODES, ids=str)
def test_exam_generation(worker: Worker, mode: GenerationMode) -> None:
    worker.statuses.clear()

    @FUZZ
    @given(case=strategy(worker, EXAM, mode))
    def fuzz(case: Case) -> None:
        if mode.is_positive and isinstance(case.body, dict):
            shares_add_up(case.body)
        validate(case, worker)

    fuzz()
    if mode.is_positive:
        assert 202 in worker.statuses, worker.statuses


@pytest.mark.parametrize("mode", MODES, ids=str)
def test_job_polling(worker: Worker, mode: GenerationMode) -> None:
    worker.statuses.clear()

    @FUZZ
    @given(
        case=strategy(worker, JOB, mode),
        known=st.one_of(st.none(), st.sampled_from(worker.known["job_id"])),
    )
    def fuzz(case: Case, known: str | None) -> None:
        if mode.is_positive and known is not None:  # a real job half the time
            case.path_parameters["job_id"] = known
        validate(case, worker)

    fuzz()
    if mode.is_positive:
        assert 200 in worker.statuses, worker.statuses


def real_rows(rows: Any, data: st.DataObject, worker: Worker) -> None:
    """Make some of a schema-valid batch's rows pass the per-row checks too (a real question,
    exam id shape, learner id, key and time), so that answers are kept, not only refused."""
    for answer in rows if isinstance(rows, list) else []:
        if isinstance(answer, dict) and data.draw(st.booleans()):
            answer["question_id"] = data.draw(st.sampled_from(worker.known["question_id"]))
            answer["exam_id"] = data.draw(st.sampled_from(EXAM_IDS))
            answer["learner_id"] = data.draw(st.sampled_from(LEARNERS))
            answer["chosen_key"] = data.draw(st.sampled_from(["A", "b", "C", "d", None]))
            answer["seconds"] = data.draw(st.floats(0, 10_800))


@pytest.mark.parametrize("mode", MODES, ids=str)
def test_attempt_logs(worker: Worker, mode: GenerationMode) -> None:
    worker.statuses.clear()
    accepted: list[int] = []

    @FUZZ
    @given(case=strategy(worker, ATTEMPTS, mode), data=st.data())
    def fuzz(case: Case, data: st.DataObject) -> None:
        if mode.is_positive and isinstance(case.body, dict):
            real_rows(case.body.get("answers"), data, worker)
        response = case.call_and_validate(headers=AUTH, checks=CHECKS)
        assert response.status_code < 500, response.text
        worker.statuses.append(response.status_code)
        if response.status_code == 202:
            accepted.append(response.json()["accepted"])

    fuzz()
    if mode.is_positive:
        assert 202 in worker.statuses, worker.statuses
        assert any(accepted), "no batch had a row kept"


@pytest.mark.parametrize("mode", MODES, ids=str)
def test_error_reports(worker: Worker, mode: GenerationMode) -> None:
    worker.statuses.clear()

    @FUZZ
    @given(
        case=strategy(worker, REPORT, mode),
        known=st.one_of(st.none(), st.sampled_from(worker.known["question_id"])),
    )
    def fuzz(case: Case, known: str | None) -> None:
        if mode.is_positive and known is not None:  # a real question half the time
            case.path_parameters["question_id"] = known
        validate(case, worker)

    fuzz()
    if mode.is_positive:
        assert 202 in worker.statuses, worker.statuses


@pytest.mark.parametrize(("operation", "mode"), STATIC)
def test_static_files(worker: Worker, operation: tuple[str, str], mode: GenerationMode) -> None:
    @STATIC_FUZZ
    @given(case=strategy(worker, operation, mode), pick=st.integers(min_value=-1, max_value=30))
    def fuzz(case: Case, pick: int) -> None:
        for name in case.path_parameters or {}:
            known = worker.known.get(name, [])
            if mode.is_positive and known and pick >= 0:  # an existing file now and then
                case.path_parameters[name] = known[pick % len(known)]
        validate(case, worker)

    fuzz()


# ── What the fuzzing found: each case stands alone, strict, so a fix shows up as XPASS ──────────


def sent(worker: Worker, operation: tuple[str, str], body: dict[str, Any]) -> Any:
    path, method = operation
    case = worker.schema[path][method].Case(body=body, media_type="application/json")
    return case.call_and_validate(headers=SETUP_AUTH, checks=CHECKS)


def test_an_integral_float_count_is_accepted(worker: Worker) -> None:
    body = {"topic_id": worker.topics[0], "question_count": 3.0, "difficulty": "Easy"}
    r = sent(worker, PRACTICE, body)
    assert r.status_code == 202, r.text


def test_subjects_differing_only_in_case_are_accepted(worker: Worker) -> None:
    r = sent(worker, EXAM, {**GOOD_EXAM, "subjects": ["Physics", "physics"]})
    assert r.status_code == 202, r.text
