"""The nightly's steps without Prefect: days built ahead, the outbox, snapshots and the report."""

from __future__ import annotations

import datetime as dt
import itertools
import json
from pathlib import Path

import polars as pl
import pytest

from core.analytics import snapshot_connection
from core.ids import question_id
from core.records import Difficulty, OutboxEntry, Subject, outbox_key
from core.settings import Settings
from core.warehouse import open_warehouse
from flows.steps import ingest_outbox_step
from pipeline.compose import Services, build_services
from pipeline.serve.practice import practice_pick
from pipeline.verify.gate import judged, solver_view
from site_builder.documents import DAILY_POINTER_KEY, daily_paper_key, syllabus_key
from site_builder.snapshot import POOL_SNAPSHOT_KEY, read_pool_snapshot

DAY = dt.date(2026, 4, 1)


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> tuple[Services, object]:
    from flows.nightly import call_directly, run_nightly

    services = build_services(Settings(home=tmp_path_factory.mktemp("home")))
    return services, run_nightly(services, DAY, days=2, call=call_directly)


@pytest.mark.system
def test_days_ahead_share_no_question_and_wait_for_their_night(week) -> None:
    services, result = week
    papers = [result.paper, *result.built_ahead]
    assert [p.exam_date for p in papers] == ["2026-04-01", "2026-04-02"]
    ids = [i for p in papers for i in p.question_ids]
    assert len(ids) == len(set(ids)) == 2 * 180
    store = services.store
    assert json.loads(store.get(DAILY_POINTER_KEY))["date"] == "2026-04-01"
    assert store.exists(daily_paper_key("2026-04-01"))
    assert not store.exists(daily_paper_key("2026-04-02"))  # never published early


@pytest.mark.system
def test_the_run_leaves_snapshots_for_the_worker_and_for_analysts(week) -> None:
    services, _ = week
    pool = read_pool_snapshot(services.store.get(POOL_SNAPSHOT_KEY))
    with open_warehouse(services.settings.warehouse_path) as wh:
        stored = len(wh.question_ids())
    assert pool.height == stored
    assert {"near_duplicate_group", "times_used", "figure", "topic_id"} <= set(pool.columns)
    topic, difficulty = pool.row(0, named=True)["topic_id"], pool.row(0, named=True)["difficulty"]
    pick = practice_pick(pool, topic, Difficulty(difficulty), 10, seed="job-test")
    assert pick.question_ids and len(pick.question_ids) + pick.short == 10
    con = snapshot_connection(services.settings.warehouse_export_dir)
    assert con.execute("SELECT count(DISTINCT exam_id) FROM paper_items").fetchall() == [(2,)]


@pytest.mark.system
def test_the_report_covers_steps_generation_coverage_and_blueprints(week) -> None:
    _, result = week
    md = result.report_markdown
    for heading in ("## Time per step", "## Generation in this run", "## Pool coverage"):
        assert heading in md
    assert md.count("## Paper daily-2026-04-0") == 2
    assert set(result.report.step_seconds) >= {"ingest_kb", "fill_pool", "export_site", "publish"}
    assert "offline.facts" in md and "phy-u01" in md
    # The tests turn the topic floor off (tests/conftest.py); the report says so.
    assert "## Topic coverage" in md and "QFORGE_TOPIC_FLOOR=0" in md
    # A fresh home has nothing to relabel; the run says so.
    assert "Relabelled: 0 stored questions" in md and "relabel" in result.report.step_seconds


@pytest.mark.system
def test_the_syllabus_gives_the_servable_counts_of_the_run(week) -> None:
    services, _ = week
    syllabus = json.loads(services.store.get(syllabus_key()))
    assert syllabus["servable_as_of"] == "2026-04-01"
    pool = read_pool_snapshot(services.store.get(POOL_SNAPSHOT_KEY))
    topics = {
        t["topic_id"]: t["servable"]
        for s in syllabus["subjects"]
        for u in s["units"]
        for c in u["chapters"]
        for t in c["topics"]
    }
    counts = pool.group_by("topic_id", "difficulty").agg(
        pl.col("near_duplicate_group").n_unique().alias("n")
    )
    assert counts.height > 0 and sum(v["Easy"] for v in topics.values() if v) > 0
    for topic_id, difficulty, n in counts.iter_rows():
        # As of the export: the later days' papers may add questions after it.
        assert topics[topic_id][difficulty] <= n


def test_the_outbox_takes_verified_questions_and_refuses_the_rest(
    tmp_path: Path, services: Services
) -> None:
    draft = next(services.drafter.drafts(Subject.PHYSICS, Difficulty.EASY, {}))
    attempt, question = judged(draft, services.solver.solve(solver_view(draft)))
    assert question is not None
    good = OutboxEntry(question=question, attempts=(attempt,))
    store = services.store
    store.put(outbox_key(question.question_id), good.model_dump_json().encode())
    edited = question.model_copy(
        update={"content": question.content.model_copy(update={"stem_markdown": "Edited?"})}
    )
    store.put(
        outbox_key("q-00000000000000000000"),
        OutboxEntry(question=edited, attempts=(attempt,)).model_dump_json().encode(),
    )
    store.put(outbox_key("q-11111111111111111111"), b"{not json")
    first = ingest_outbox_step(services)
    assert first.taken == 1
    assert sorted(p.reason.split(":")[0] for p in first.refused) == [
        "not an outbox entry",
        "stored under another id than " + question.question_id,
    ]
    with open_warehouse(services.settings.warehouse_path) as wh:
        assert wh.question_ids() == [question.question_id]
        assert wh.count("attempts") == 1
    again = ingest_outbox_step(services)  # idempotent: nothing taken twice
    assert again.taken == 0 and again.already_stored == 1


def test_an_entry_edited_after_verification_is_refused(services: Services) -> None:
    from pipeline.serve.outbox import OutboxProblem, outbox_entry

    draft = next(services.drafter.drafts(Subject.ZOOLOGY, Difficulty.EASY, {}))
    attempt, question = judged(draft, services.solver.solve(solver_view(draft)))
    assert question is not None
    edited = question.model_copy(
        update={"content": question.content.model_copy(update={"stem_markdown": "Edited?"})}
    )
    raw = OutboxEntry(question=edited, attempts=(attempt,)).model_dump_json().encode()
    got = outbox_entry(outbox_key(question.question_id), raw)
    assert got == OutboxProblem(
        outbox_key(question.question_id), "the id is not the hash of the content"
    )
    unvouched = OutboxEntry(question=question).model_dump_json().encode()
    got = outbox_entry(outbox_key(question.question_id), unvouched)
    assert isinstance(got, OutboxProblem) and got.reason == "no accepted attempt vouches for it"


@pytest.mark.system
def test_the_relabel_step_stores_stale_labels_anew_and_withdraws_them(
    services: Services,
) -> None:
    from flows.steps import relabel_step

    drafts = services.drafter.drafts(Subject.PHYSICS, Difficulty.HARD, {})
    # The first three verified: the stream is lazy, and solving all of it takes many minutes.
    verified = (q for d in drafts if (q := judged(d, services.solver.solve(solver_view(d)))[1]))
    fresh = list(itertools.islice(verified, 3))
    assert len(fresh) == 3
    # One stored the way a format-labelled generator would have stored it.
    stale_content = fresh[0].content.model_copy(
        update={"difficulty": Difficulty.EASY, "difficulty_reason": "four pairings to check"}
    )
    stale = fresh[0].model_copy(
        update={"content": stale_content, "question_id": question_id(stale_content)}
    )
    with open_warehouse(services.settings.warehouse_path) as wh:
        wh.insert_questions([stale, *fresh[1:]])
    assert relabel_step(services) == 1
    assert relabel_step(services) == 0  # idempotent
    with open_warehouse(services.settings.warehouse_path) as wh:
        assert {i: r for i, r, _ in wh.withdrawals()} == {stale.question_id: "relabelled"}
        stored = {q.question_id: q for q in wh.questions()}
    assert fresh[0].question_id in stored  # the same question under the rubric's label
    assert stored[fresh[0].question_id].content.difficulty is Difficulty.HARD
