"""Practice for every live topic at every difficulty, against the pool the topic floor fills.

The nightly's `topic_floor` step on a fresh home (the default floor, 10), the snapshot the worker
reads, then one practice request of 10 questions per live topic × difficulty: COMPLETED at once
for every cell the coverage says holds the floor, 409 `insufficient_pool` with the counts for
every other one. The cells left below the floor are at most 2 % of them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from api_stub.app import create_app
from api_stub.runner import JobRunner
from core.records import Difficulty
from core.settings import Settings
from flows.steps import TopicFloorSummary, snapshot_step, topic_floor_step
from pipeline.compose import Services, build_services
from pipeline.fill.coverage import SPENT

pytestmark = pytest.mark.system

KEY = "k-topic-practice"
AUTH = {"Authorization": f"Bearer {KEY}"}


@pytest.fixture(scope="module")
def filled(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Services, TopicFloorSummary]]:
    settings = Settings(
        home=tmp_path_factory.mktemp("topics") / "home",
        topic_floor=10,
        api_keys=(SecretStr(KEY),),
        rate_limit_per_minute=100_000,
        rate_limit_burst=10_000,
    )
    services = build_services(settings)
    summary = topic_floor_step(services)
    snapshot_step(services)
    yield services, summary


def test_the_floor_fills_all_but_two_percent_of_the_cells_and_says_why_for_the_rest(
    filled: tuple[Services, TopicFloorSummary],
) -> None:
    services, summary = filled
    cells = summary.coverage
    assert len(cells) == 3 * len(services.syllabus.live_topics())
    short = [c for c in cells if c.status != "at_floor"]
    assert len(short) <= len(cells) * 0.02, [(c.topic_id, c.difficulty.value) for c in short]
    # Each names why: nothing filed under the topic, nothing at that difficulty, or fewer
    # distinct verified questions than the floor (a filled floor leaves none "not filled yet").
    assert all(c.reason in SPENT for c in short), short
    again = topic_floor_step(services)  # a second night: nothing to add, the same coverage
    assert again.accepted == 0 and again.coverage == summary.coverage


def test_practice_completes_for_every_filled_cell_and_is_refused_for_the_rest(
    filled: tuple[Services, TopicFloorSummary],
) -> None:
    services, summary = filled
    runner = JobRunner(services)
    with TestClient(create_app(services.settings, services.store, runner=runner)) as client:
        for cell in summary.coverage:
            body = {
                "topic_id": cell.topic_id,
                "difficulty": cell.difficulty.value,
                "question_count": 10,
            }
            r = client.post("/api/v1/practice/generate", json=body, headers=AUTH)
            where = f"{cell.topic_id} {cell.difficulty.value} ({cell.status})"
            if cell.status == "at_floor":
                assert r.status_code == 202 and r.json()["status"] == "COMPLETED", where
                job = client.get(r.headers["location"], headers=AUTH).json()
                questions = job["result"]["questions"]
                assert len({q["id"] for q in questions}) == 10, where
            else:
                assert r.status_code == 409, (where, r.text)
                error = r.json()["error"]
                assert error["code"] == "insufficient_pool", where
                counts = {d["difficulty"]: d["available"] for d in error["details"]}
                assert set(counts) == {d.value for d in Difficulty}
                assert counts[cell.difficulty.value] == cell.servable, where
        runner.drain()
