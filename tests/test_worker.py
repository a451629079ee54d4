"""The worker's jobs end to end over HTTP: validation, keys and limits, pool-served and topped-up
jobs, durable state across a restart. Real engines: the local object store on tmp_path and the
offline drafter and solver; only the clock is ours."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import threading
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import jsonschema
import polars as pl
import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from api_stub.app import create_app
from api_stub.cache import AnswerCache
from api_stub.limits import key_id
from api_stub.runner import JobRunner
from core.providers import object_store
from core.records import OUTBOX_PREFIX, Difficulty, SolverAnswer, SolverView, Subject
from core.settings import Settings
from pipeline.compose import Services, build_services
from pipeline.serve.jobs import ACTIVE_PREFIX, JOBS_PREFIX
from pipeline.serve.outbox import outbox_entry
from site_builder.openapi import standalone_schema
from site_builder.snapshot import TOPIC_COVERAGE_KEY, topic_coverage_bytes
from tests.worker_pool import Clock, publish_pool, richest_topic, verified_questions

KEY = "k-test-1"
AUTH = {"Authorization": f"Bearer {KEY}"}
START = dt.datetime(2026, 11, 26, 6, 0, tzinfo=dt.UTC)
JOB_SCHEMA = standalone_schema("Job")
ACK_SCHEMA = standalone_schema("JobAcknowledgement")


BASE: list[Services] = []  # the bundled data and offline providers, loaded once per module


@pytest.fixture(scope="module")
def pool_questions(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    BASE[:] = [build_services(Settings(home=tmp_path_factory.mktemp("pool")))]
    cells = [(Subject.PHYSICS, d) for d in Difficulty] + [(Subject.ZOOLOGY, Difficulty.EASY)]
    return verified_questions(BASE[0], cells, per_cell=120)


def worker_services(home: Path, **overrides: Any) -> Services:
    """The module's services with this test's settings and an empty store under home."""
    settings = Settings(home=home, api_keys=(SecretStr(KEY), SecretStr("k-test-2")), **overrides)
    return dataclasses.replace(BASE[0], settings=settings, store=object_store(settings))


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture
def make_client(
    tmp_path: Path, pool_questions: list[Any], clock: Clock
) -> Iterator[Callable[..., tuple[TestClient, JobRunner]]]:
    """A worker over a store holding the module's pool; settings may be overridden."""
    made: list[tuple[TestClient, JobRunner]] = []

    def make(services: Services | None = None, **overrides: Any) -> tuple[TestClient, JobRunner]:
        s = services or worker_services(tmp_path / "home", **overrides)
        if services is None:
            publish_pool(s, pool_questions)
        runner = JobRunner(s, clock=clock.now, monotonic=clock.monotonic)
        app = create_app(s.settings, s.store, clock.now, runner, clock.monotonic)
        client = TestClient(app)
        client.__enter__()  # runs the lifespan: the runner starts (and resumes stale jobs)
        made.append((client, runner))
        return client, runner

    yield make
    for client, runner in made:
        runner.drain()
        client.__exit__(None, None, None)


def practice(client: TestClient, body: dict[str, Any], headers: dict[str, str] = AUTH) -> Any:
    return client.post("/api/v1/practice/generate", json=body, headers=headers)


def polled(client: TestClient, job_id: str) -> dict[str, Any]:
    r = client.get(f"/api/v1/jobs/{job_id}", headers=AUTH)
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    jsonschema.validate(r.json(), JOB_SCHEMA)
    return r.json()


def finished(client: TestClient, runner: JobRunner, job_id: str) -> dict[str, Any]:
    assert runner.drain(timeout=60)
    return polled(client, job_id)


def assert_error(r: Any, status: int, code: str, *fragments: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code
    for fragment in fragments:
        assert fragment in r.text, (fragment, r.text)
    assert r.headers["cache-control"] == "no-store"
    return body["error"]


# ── Validation ───────────────────────────────────────────────────────────────────────────────

GOOD_PRACTICE = {"topic_id": "phy-ohms-law", "question_count": 3, "difficulty": "Medium"}
GOOD_EXAM = {
    "exam_type": "NEET_UG",
    "difficulty_distribution": {"easy": 0.3, "medium": 0.5, "hard": 0.2},
    "subjects": ["Physics"],
}


@pytest.mark.parametrize(
    ("change", "where", "fragment"),
    [
        ({"question_count": 0}, "question_count", "from 1 to 10, got 0"),
        ({"question_count": 11}, "question_count", "from 1 to 10, got 11"),
        ({"question_count": "5"}, "question_count", "got '5'"),
        ({"question_count": 2.5}, "question_count", "got 2.5"),
        ({"question_count": True}, "question_count", "got True"),
        ({"difficulty": "extreme"}, "difficulty", "Easy, Medium, Hard (any case)"),
        ({"difficulty": 2}, "difficulty", "got 2"),
        ({"topic_id": ""}, "topic_id", "/api/v1/syllabus"),
        ({"topic_id": "phy-connected-bodies"}, "topic_id", "removed from the syllabus"),
        ({"colour": "red"}, "colour", "unknown field 'colour'"),
    ],
)
def test_each_practice_rule_is_a_named_422(
    make_client: Callable[..., tuple[TestClient, JobRunner]],
    change: dict[str, Any],
    where: str,
    fragment: str,
) -> None:
    client, _ = make_client()
    error = assert_error(practice(client, {**GOOD_PRACTICE, **change}), 422, "validation_error")
    assert [d["loc"] for d in error["details"]] == [["body", where]]
    assert fragment in error["details"][0]["msg"]


def test_missing_fields_are_each_named(make_client: Callable[..., Any]) -> None:
    client, _ = make_client()
    error = assert_error(practice(client, {}), 422, "validation_error")
    assert sorted(d["loc"][-1] for d in error["details"]) == [
        "difficulty",
        "question_count",
        "topic_id",
    ]
    assert_error(
        client.post("/api/v1/practice/generate", json=[1], headers=AUTH), 422, "validation_error"
    )


def test_an_unknown_topic_is_a_404_naming_the_syllabus(make_client: Callable[..., Any]) -> None:
    client, _ = make_client()
    r = practice(client, {**GOOD_PRACTICE, "topic_id": "phy-warp-drive"})
    error = assert_error(r, 404, "not_found", "phy-warp-drive", "/api/v1/syllabus")
    assert error["details"][0]["loc"] == ["body", "topic_id"]


def test_the_topic_is_looked_up_once_the_body_is_otherwise_valid(
    make_client: Callable[..., Any],
) -> None:
    client, _ = make_client()
    r = practice(client, {**GOOD_PRACTICE, "topic_id": "phy-warp-drive", "question_count": 11})
    error = assert_error(r, 422, "validation_error")
    assert [d["loc"] for d in error["details"]] == [["body", "question_count"]]


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"exam_type": "JEE"}, "NEET_UG, NEET, NEET-UG"),
        (
            {"difficulty_distribution": {"easy": 0.5, "medium": 0.4}},
            "add up to 1, they add up to 0.9",
        ),
        ({"difficulty_distribution": {"easy": 1.2, "hard": -0.2}}, "from 0 to 1"),
        ({"difficulty_distribution": {"easy": 0.5, "tricky": 0.5}}, "unknown key 'tricky'"),
        ({"difficulty_distribution": {"easy": 0.5, "EASY": 0.5}}, "repeats 'easy'"),
        ({"difficulty_distribution": {"easy": True}}, "a number from 0 to 1"),
        ({"difficulty_distribution": []}, "must be an object"),
        ({"subjects": []}, "non-empty list"),
        ({"subjects": ["Physics", "Maths"]}, "unknown subject 'Maths'"),
        ({"subjects": ["Physics", "Physics"]}, "listed twice"),
    ],
)
def test_each_exam_rule_is_a_named_422(
    make_client: Callable[..., Any], change: dict[str, Any], fragment: str
) -> None:
    client, _ = make_client()
    r = client.post("/api/v1/exams/generate", json={**GOOD_EXAM, **change}, headers=AUTH)
    error = assert_error(r, 422, "validation_error")
    assert any(fragment in d["msg"] for d in error["details"]), error


def test_names_are_accepted_in_any_case(make_client: Callable[..., Any]) -> None:
    client, runner = make_client()
    body = {
        "exam_type": "neet-ug",
        "difficulty_distribution": {"EASY": 0.25, "Medium": 0.75},
        "subjects": ["physics"],
    }
    r = client.post("/api/v1/exams/generate", json=body, headers=AUTH)
    assert r.status_code == 202, r.text
    job = finished(client, runner, r.json()["job_id"])
    assert job["status"] == "COMPLETED"
    blueprint = job["result"]["blueprint"]
    assert blueprint["difficulty_distribution"] == {"Easy": 0.25, "Medium": 0.75, "Hard": 0.0}


def test_bodies_that_are_not_json_or_too_large_are_refused(make_client: Callable[..., Any]) -> None:
    client, _ = make_client(max_request_bytes=1024)
    url = "/api/v1/practice/generate"
    headers = {**AUTH, "Content-Type": "application/json"}
    assert_error(client.post(url, content=b"{not json", headers=headers), 422, "validation_error")
    big = json.dumps({**GOOD_PRACTICE, "pad": "x" * 2000})
    assert_error(client.post(url, content=big, headers=headers), 413, "request_too_large", "1024")
    text = {**AUTH, "Content-Type": "text/plain"}
    assert_error(client.post(url, content=b"{}", headers=text), 415, "unsupported_media_type")


# ── Keys and limits ──────────────────────────────────────────────────────────────────────────


def test_dynamic_endpoints_need_a_key_and_static_paths_do_not(
    make_client: Callable[..., Any],
) -> None:
    client, _ = make_client()
    r = practice(client, GOOD_PRACTICE, headers={})
    assert_error(r, 401, "unauthorized", "Authorization: Bearer")
    assert r.headers["www-authenticate"].startswith("Bearer")
    assert_error(
        practice(client, GOOD_PRACTICE, {"Authorization": "Bearer nope"}), 401, "unauthorized"
    )
    assert_error(
        practice(client, GOOD_PRACTICE, {"Authorization": f"Basic {KEY}"}), 401, "unauthorized"
    )
    assert_error(client.get("/api/v1/jobs/job-abcdefgh"), 401, "unauthorized")
    assert client.get("/healthz").status_code == 200


def test_each_key_has_its_own_rate_limit(make_client: Callable[..., Any], clock: Clock) -> None:
    client, _ = make_client(rate_limit_per_minute=6, rate_limit_burst=2)
    unknown = "/api/v1/jobs/job-doesnotexist"
    assert client.get(unknown, headers=AUTH).status_code == 404
    assert client.get(unknown, headers=AUTH).status_code == 404
    r = client.get(unknown, headers=AUTH)
    assert_error(r, 429, "too_many_requests", "6 requests a minute")
    assert r.headers["retry-after"] == "10"  # one request per 10 s
    other = {"Authorization": "Bearer k-test-2"}
    assert client.get(unknown, headers=other).status_code == 404  # another key is unaffected
    clock.seconds += 10
    assert client.get(unknown, headers=AUTH).status_code == 404


def test_the_daily_generation_quota_guards_generation_only(
    make_client: Callable[..., Any], pool_questions: list[Any]
) -> None:
    client, runner = make_client(daily_generation_quota=1)
    rows = publish_pool(runner.services, pool_questions)
    topic, groups = richest_topic(rows, Difficulty.EASY)
    too_many = {"topic_id": topic, "question_count": 10, "difficulty": "Easy"}
    assert groups < 9
    r = practice(client, too_many)
    assert_error(r, 429, "quota_exceeded", f"needs {10 - groups} new", "1 of 1 are left today")
    assert 0 < int(r.headers["retry-after"]) <= 24 * 3600
    served = practice(client, {**too_many, "question_count": groups})
    assert served.status_code == 202 and served.json()["status"] == "COMPLETED"
    assert runner.store.keys("internal/quota/") == []  # pool-served: nothing counted


def short_request(services: Services, pool_questions: list[Any]) -> dict[str, Any]:
    """Publish the pool; a request for the Hard topic it holds most of, which it cannot fill."""
    topic, groups = richest_topic(publish_pool(services, pool_questions), Difficulty.HARD)
    assert groups < 10
    return {"topic_id": topic, "question_count": 10, "difficulty": "Hard"}


def test_a_set_nothing_can_fill_is_refused_at_once_with_the_counts_per_difficulty(
    make_client: Callable[..., Any], tmp_path: Path, pool_questions: list[Any]
) -> None:
    services = worker_services(tmp_path / "home")
    body = short_request(services, pool_questions)
    topic = body["topic_id"]
    rows = publish_pool(services, pool_questions).filter(pl.col("topic_id") == topic)
    # The last nightly found the generators spent for this topic at Hard.
    services.store.put(TOPIC_COVERAGE_KEY, topic_coverage_bytes(10, [(topic, "Hard")]))
    client, runner = make_client(services)
    error = assert_error(practice(client, body), 409, "insufficient_pool", topic, "Hard")
    expected = {
        d.value: rows.filter(pl.col("difficulty") == d.value)["near_duplicate_group"].n_unique()
        for d in Difficulty
    }
    assert error["details"] == [
        {"topic_id": topic, "difficulty": d, "available": n} for d, n in expected.items()
    ]
    assert expected["Hard"] < 10
    assert runner.store.keys(OUTBOX_PREFIX) == []  # nothing generated, no job kept
    # What the pool holds is still served, and an unspent cell is still generated for.
    fits = {**body, "question_count": expected["Hard"]}
    assert practice(client, fits).json()["status"] == "COMPLETED"
    services.store.put(TOPIC_COVERAGE_KEY, topic_coverage_bytes(10, []))
    runner.pool.refresh()
    assert practice(client, body).status_code == 202


class ProgressSpy:
    """A solver that, before each solve, reads the progress every stored job shows."""

    def __init__(self, solver: Any, store: Any) -> None:
        self.solver, self.store = solver, store
        self.name = solver.name
        self.seen: list[int] = []

    def solve(self, view: SolverView) -> SolverAnswer:
        for key in self.store.keys(JOBS_PREFIX):
            self.seen.append(json.loads(self.store.get(key))["done"])
        return self.solver.solve(view)


def test_a_practice_job_counts_the_pool_questions_it_picked_while_it_generates(
    make_client: Callable[..., Any], tmp_path: Path, pool_questions: list[Any]
) -> None:
    services = worker_services(tmp_path / "home")
    picked = richest_topic(publish_pool(services, pool_questions), Difficulty.HARD)[1]
    body = short_request(services, pool_questions)
    spy = ProgressSpy(services.solver, services.store)
    client, runner = make_client(dataclasses.replace(services, solver=spy))
    job = finished(client, runner, practice(client, body).json()["job_id"])
    assert job["status"] == "COMPLETED", job
    assert spy.seen and min(spy.seen) >= picked  # never fewer than the set holds already
    assert spy.seen == sorted(spy.seen)


def test_beyond_capacity_is_a_503_with_retry_after(
    make_client: Callable[..., Any], tmp_path: Path, pool_questions: list[Any]
) -> None:
    services = worker_services(tmp_path / "home", worker_generation_slots=1, worker_queue_limit=0)
    gate = threading.Event()
    services = dataclasses.replace(services, solver=BlockingSolver(services.solver, gate))
    body = short_request(services, pool_questions)
    client, runner = make_client(services)
    first = practice(client, body)
    assert first.status_code == 202 and first.json()["status"] == "PROCESSING"
    r = practice(client, body)
    assert_error(r, 503, "overloaded", "generation places are taken")
    assert int(r.headers["retry-after"]) >= 1
    gate.set()
    assert finished(client, runner, first.json()["job_id"])["status"] == "COMPLETED"


# ── Jobs ─────────────────────────────────────────────────────────────────────────────────────


def test_a_practice_set_the_pool_holds_completes_at_once(
    make_client: Callable[..., Any], pool_questions: list[Any]
) -> None:
    client, runner = make_client()
    rows = publish_pool(runner.services, pool_questions)
    topic, groups = richest_topic(rows, Difficulty.MEDIUM)
    count = min(groups, 10)
    r = practice(client, {"topic_id": topic, "question_count": count, "difficulty": "medium"})
    assert r.status_code == 202
    assert r.headers["location"] == f"/api/v1/jobs/{r.json()['job_id']}"
    ack = r.json()
    jsonschema.validate(ack, ACK_SCHEMA)
    assert ack["status"] == "COMPLETED" and ack["eta_seconds"] == 0
    job = polled(client, ack["job_id"])
    assert job["progress"] == {"done": count, "total": count} and job["kind"] == "practice"
    result = job["result"]
    ids = [q["id"] for q in result["questions"]]
    pool_ids = set(rows["question_id"].to_list())
    assert len(set(ids)) == count and set(ids) <= pool_ids
    assert result["topic_id"] == topic and result["difficulty"] == "Medium"
    static = client.get(result["url"])
    assert static.status_code == 200
    assert static.json() == {k: v for k, v in result.items() if k != "url"}
    assert runner.store.keys(OUTBOX_PREFIX) == []  # nothing generated


def test_a_shortfall_is_generated_verified_and_fetchable_by_id(
    make_client: Callable[..., Any], pool_questions: list[Any]
) -> None:
    client, runner = make_client()
    rows = publish_pool(runner.services, pool_questions)
    topic, groups = richest_topic(rows, Difficulty.HARD)
    r = practice(client, {"topic_id": topic, "question_count": 10, "difficulty": "Hard"})
    ack = r.json()
    if groups >= 10:
        pytest.skip("the pool holds the whole set")
    assert ack["status"] == "PROCESSING" and ack["eta_seconds"] >= 1
    assert f"generating {10 - groups} new question" in ack["message"]
    job = finished(client, runner, ack["job_id"])
    assert job["status"] == "COMPLETED", job
    questions = job["result"]["questions"]
    fresh = [q["id"] for q in questions if q["id"] not in set(rows["question_id"].to_list())]
    assert fresh, "something was generated"
    for question_id in fresh:
        stored = client.get(f"/api/v1/questions/{question_id}")
        assert stored.status_code == 200
        assert sum(o["is_correct"] for o in stored.json()["options"]) == 1
        key = f"{OUTBOX_PREFIX}{question_id}"
        entry = outbox_entry(key, runner.store.get(key))
        assert not hasattr(entry, "reason"), entry  # the nightly will take it
    assert runner.store.keys(ACTIVE_PREFIX) == []
    quota = runner.store.keys("internal/quota/")
    assert len(quota) == 1 and key_id(KEY) in quota[0]
    # The new questions are servable by this worker before the nightly ingests them.
    again = practice(
        client, {"topic_id": topic, "question_count": len(questions), "difficulty": "Hard"}
    )
    assert again.json()["status"] == "COMPLETED"


def test_an_exam_the_pool_can_fill_completes_at_once(make_client: Callable[..., Any]) -> None:
    client, _ = make_client()
    r = client.post("/api/v1/exams/generate", json=GOOD_EXAM, headers=AUTH)
    assert r.status_code == 202 and r.json()["status"] == "COMPLETED", r.text
    job = polled(client, r.json()["job_id"])
    assert job["status"] == "COMPLETED" and job["kind"] == "exam"
    exam = job["result"]
    assert exam["total_questions"] == 45 and len({q["id"] for q in exam["questions"]}) == 45
    assert {q["subject"] for q in exam["questions"]} == {"Physics"}
    assert exam["url"] == f"/api/v1/exams/{exam['exam_id']}" and exam["date"] is None
    assert client.get(exam["url"]).json()["exam_id"] == exam["exam_id"]


def test_a_finished_job_answers_from_memory_what_the_store_holds(
    make_client: Callable[..., Any],
) -> None:
    """The kept answer of a finished job is byte for byte what a fresh replica builds."""
    client, runner = make_client()
    r = client.post("/api/v1/exams/generate", json=GOOD_EXAM, headers=AUTH)
    job_id = r.json()["job_id"]
    kept = runner._answers.get(job_id)  # kept at completion, before any poll
    assert kept is not None
    assert client.get(f"/api/v1/jobs/{job_id}", headers=AUTH).content == kept
    replica = JobRunner(runner.services, clock=runner.clock, monotonic=runner.monotonic)
    assert replica.answer(job_id) == kept
    assert job_id in replica._answers  # read once, then kept: a finished job never changes
    assert replica.answer("job-unknown") is None and "job-unknown" not in replica._answers


def test_a_failed_job_answer_is_not_kept(make_client: Callable[..., Any]) -> None:
    """FAILED as interrupted may yet be overtaken by a slow replica's COMPLETED."""
    from pipeline.serve.jobs import JobKind, job_bytes, job_failed, job_key, new_job

    _, runner = make_client()
    job = new_job("job-failedxyz", JobKind.PRACTICE, {}, 3, "k", "elsewhere", START)
    runner.store.put(job_key(job.job_id), job_bytes(job_failed(job, "interrupted", "x", START)))
    answer = runner.answer(job.job_id)
    assert answer is not None and json.loads(answer)["status"] == "FAILED"
    assert job.job_id not in runner._answers


def test_kept_answers_stay_within_their_byte_bound() -> None:
    answers = AnswerCache(max_bytes=25)
    for n in range(5):
        answers.keep(f"job-{n}", b"x" * 10)
    assert answers.job_ids() == ["job-3", "job-4"] and answers.size == 20
    assert answers.get("job-3") == b"x" * 10  # read: now the most recent
    answers.keep("job-5", b"y" * 10)
    assert answers.job_ids() == ["job-3", "job-5"] and answers.get("job-4") is None
    answers.keep("job-huge", b"z" * 26)  # over the whole bound: not kept, nothing dropped
    assert answers.job_ids() == ["job-3", "job-5"] and answers.size == 20


def test_an_exam_short_of_questions_generates_them(make_client: Callable[..., Any]) -> None:
    client, runner = make_client()
    body = {**GOOD_EXAM, "subjects": ["Physics", "Zoology"]}
    r = client.post("/api/v1/exams/generate", json=body, headers=AUTH)
    assert r.json()["status"] == "PROCESSING"
    job = finished(client, runner, r.json()["job_id"])
    assert job["status"] == "COMPLETED", job
    assert job["progress"] == {"done": 90, "total": 90}
    subjects = [q["subject"] for q in job["result"]["questions"]]
    assert subjects.count("Physics") == 45 and subjects.count("Zoology") == 45
    assert runner.store.keys(OUTBOX_PREFIX)


class BlockingSolver:
    """The offline solver, stopped at a gate after `free` answers (a slow model, or a crash)."""

    def __init__(self, inner: Any, gate: threading.Event, free: int = 0) -> None:
        self.inner = inner
        self.name = inner.name
        self.gate = gate
        self.free = free
        self.calls = 0
        self.dead = False
        self.stems: set[str] = set()

    def solve(self, view: SolverView) -> SolverAnswer:
        self.calls += 1
        self.stems.add(view.stem_markdown)
        if self.calls > self.free:
            self.gate.wait(timeout=60)
            if self.dead:
                raise WorkerKilled  # the process is gone: nothing more happens in it
        return self.inner.solve(view)


class WorkerKilled(BaseException):
    """Ends a job thread the way a killed process ends it: no handler runs."""


def test_a_job_survives_a_worker_restart(
    make_client: Callable[..., Any], tmp_path: Path, pool_questions: list[Any], clock: Clock
) -> None:
    services = worker_services(tmp_path / "home", job_lease_seconds=30)
    body = short_request(services, pool_questions)
    gate = threading.Event()
    first_solver = BlockingSolver(services.solver, gate, free=3)
    client, runner = make_client(dataclasses.replace(services, solver=first_solver))
    ack = practice(client, body).json()
    while first_solver.calls <= first_solver.free:  # until the worker is stuck mid-job
        threading.Event().wait(0.01)
    assert polled(client, ack["job_id"])["status"] == "PROCESSING"
    earlier = json.loads(runner.store.get(f"internal/jobs/{ack['job_id']}"))["generated"]
    assert earlier, "the first worker verified some questions before it died"
    first_solver.dead = True  # the first worker "dies" with the job half done

    clock.seconds += 31  # its lease runs out
    counting = BlockingSolver(services.solver, threading.Event(), free=10**6)
    second, runner2 = make_client(dataclasses.replace(services, solver=counting))
    job = finished(second, runner2, ack["job_id"])
    assert job["status"] == "COMPLETED", job
    assert len(job["result"]["questions"]) == 10
    stored = json.loads(runner2.store.get(f"internal/jobs/{ack['job_id']}"))
    assert stored["resumes"] == 1 and stored["owner"] == runner2.owner
    assert set(earlier) <= {q["id"] for q in job["result"]["questions"]}
    # Questions the first worker verified were not paid for again.
    stems = {q["stem_markdown"] for q in job["result"]["questions"] if q["id"] in earlier}
    assert stems and not stems & counting.stems
    gate.set()


def test_a_job_that_keeps_dying_fails_with_a_reason(
    make_client: Callable[..., Any], tmp_path: Path, pool_questions: list[Any], clock: Clock
) -> None:
    services = worker_services(tmp_path / "home", job_lease_seconds=30, job_max_resumes=0)
    body = short_request(services, pool_questions)
    gate = threading.Event()
    solver = BlockingSolver(services.solver, gate)
    client, _ = make_client(dataclasses.replace(services, solver=solver))
    ack = practice(client, body).json()
    solver.dead = True
    clock.seconds += 31
    other, _ = make_client(services)  # another replica answers the poll
    job = polled(other, ack["job_id"])
    assert job["status"] == "FAILED"
    assert (
        job["error"]["code"] == "interrupted"
        and "submit the request again" in job["error"]["message"]
    )
    assert other.get(f"/api/v1/jobs/{ack['job_id']}", headers=AUTH).json()["status"] == "FAILED"
    gate.set()


def test_an_unknown_job_is_a_404(make_client: Callable[..., Any]) -> None:
    client, _ = make_client()
    assert_error(
        client.get("/api/v1/jobs/job-nosuchjob1", headers=AUTH), 404, "not_found", "job-nosuchjob1"
    )
    assert_error(client.get("/api/v1/jobs/../../etc", headers=AUTH), 404, "not_found")


def test_a_topic_top_up_drafts_only_that_topic(pool_questions: list[Any]) -> None:
    from pipeline.fill.topup import VariantStarts, topic_drafts

    services = BASE[0]
    topic = services.syllabus.topic(pool_questions[0].content.tag.topic_id)
    starts = VariantStarts({})
    drafts = list(islice(topic_drafts(services.drafter, topic, Difficulty.EASY, starts), 50))
    unit = services.drafter.drafts(
        topic.subject, Difficulty.EASY, {}, topic.unit_id, topic.topic_id
    )
    assert drafts and all(d.content.tag.topic_id == topic.topic_id for d in drafts)
    assert all(d.content.tag.topic_id == topic.topic_id for d in islice(unit, 200))


class NoReplyEvery:
    """The offline solver, except that every n-th call gets no reply (a timeout)."""

    def __init__(self, solver: Any, every: int) -> None:
        self.solver, self.every, self.calls = solver, every, 0
        self.name = solver.name

    def solve(self, view: SolverView) -> SolverAnswer:
        self.calls += 1
        if self.calls % self.every == 0:
            return SolverAnswer(
                solver=self.name, choice=None, confidence=0.0, note="transport: timeout"
            )
        return self.solver.solve(view)


@pytest.mark.parametrize("every", [2, 1])
def test_a_top_up_solve_with_no_reply_is_no_attempt(every: int, pool_questions: list[Any]) -> None:
    from pipeline.fill.topup import top_up
    from pipeline.verify.gate import HYGIENE

    services = BASE[0]
    solver = NoReplyEvery(services.solver, every)
    drafts = services.drafter.drafts(Subject.PHYSICS, Difficulty.EASY, {})
    beats: list[int] = []
    cell = (Subject.PHYSICS, Difficulty.EASY, None)
    made = top_up(cell, drafts, solver, 3, set(), set(), 4, on_attempt=lambda: beats.append(1))
    attempts = [a for _, group in made.accepted for a in group]
    assert not any("transport" in (a.rejection_reason or "") for a in attempts)
    # The job's heartbeat beats for every solve, answered or not (a slow provider is alive).
    assert len(beats) == len(made.accepted) + made.rejected + made.unsolved
    # Drafts the screens refuse (hygiene, giveaways) are recorded without a solve.
    solved = [a for a in attempts if a.solver != HYGIENE]
    if every == 1:  # a provider that is down: the budget ends the top-up, nothing is recorded
        assert made.accepted == [] and made.unsolved + made.rejected == 12
        assert made.unsolved == solver.calls >= 1
    else:
        assert len(made.accepted) == 3 and made.unsolved >= 1
        assert len(solved) + made.unsolved == solver.calls


def test_a_runner_closed_and_started_again_takes_jobs(
    make_client: Callable[..., Any], tmp_path: Path, pool_questions: list[Any]
) -> None:
    services = worker_services(tmp_path / "home")
    body = short_request(services, pool_questions)
    client, runner = make_client(services)
    runner.close()
    closed = practice(client, body)
    assert_error(closed, 503, "overloaded", "shutting down")
    assert runner.store.keys(ACTIVE_PREFIX) == []  # failed, not left PROCESSING
    runner.start()  # a second lifespan
    again = practice(client, body)
    assert again.status_code == 202
    assert finished(client, runner, again.json()["job_id"])["status"] == "COMPLETED"


def test_each_worker_process_builds_its_app_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from api_stub.main import app_factory

    monkeypatch.setenv("QFORGE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("QFORGE_API_KEYS", KEY)
    with TestClient(app_factory()) as client:  # what `qforge api --workers N` runs per process
        assert client.get("/healthz").json() == {"status": "ok"}
        assert_error(client.get("/api/v1/jobs/job-nosuchjob1", headers=AUTH), 404, "not_found")


def test_groups_of_questions_stored_before_they_were_columns_are_filled_by_the_one_rule(
    tmp_path: Path, pool_questions: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    import core.warehouse
    from core.pool import near_duplicate_group, question_family
    from core.schema import GROUPS_VERSION
    from core.warehouse import open_warehouse
    from kb.elements import load_element_data
    from pipeline.generate.elements import element_drafts
    from pipeline.verify.gate import verified
    from tests.warehouse_versions import rewind

    monkeypatch.setattr(core.warehouse, "GROUP_FILL_BATCH", 7)  # several batches
    services = BASE[0]
    cells = [(s, d) for s in (Subject.CHEMISTRY, Subject.BOTANY) for d in Difficulty]
    questions = pool_questions + verified_questions(services, cells, per_cell=15)
    # Element questions come after some hundred fact tables' drafts: ask for them directly.
    elements = load_element_data(services.settings.data_dir)
    streams = element_drafts(elements, Subject.CHEMISTRY, Difficulty.MEDIUM, services.syllabus)
    drafts = [d for _, stream in streams for d in islice(stream, 5)]
    questions += [q for d in drafts if (q := verified(d, services.solver)[1]) is not None]
    path = tmp_path / "w.duckdb"
    with open_warehouse(path) as wh:
        wh.insert_questions(questions)
        # The warehouse as the qforge before schema v4 left it: no group, no family.
        rewind(wh, GROUPS_VERSION)  # the tables of later versions go too, migrated again
        wh.con.execute("ALTER TABLE questions DROP COLUMN near_duplicate_group")
        wh.con.execute("ALTER TABLE questions DROP COLUMN family")
    with open_warehouse(path) as wh:
        pool = wh.pool()
    generators = {q.provenance.generator for q in questions}
    assert len(generators) >= 3, generators  # numerical, fact and element questions at least
    groups = dict(pool.select("question_id", "near_duplicate_group").iter_rows())
    families = dict(pool.select("question_id", "family").iter_rows())
    assert {
        q.question_id: near_duplicate_group(q.provenance, q.question_id) for q in questions
    } == groups
    assert {
        q.question_id: question_family(q.provenance, q.content.format.value) for q in questions
    } == families
    assert len(set(groups.values())) < len(groups)  # some questions do share a group
