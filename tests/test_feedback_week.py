"""A week of students answering through the worker, then the nightly: answers and reports are
ingested, item statistics fitted, and three planted faults withdrawn, nothing else (issue 23's
end-to-end test): a wrong key and a second correct option that fresh solves catch, and a wrong
key on a model's question that only the learners' reports and the statistics can.

2,000 simulated learners with known abilities answer 300 stored questions with known 2PL
parameters (pipeline.calibrate.simulate); the fit must recover difficulty with RMSE ≤ 0.25 and
discrimination with rank correlation ≥ 0.7.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import polars as pl
import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from api_stub.app import create_app
from core.analytics import query_rows, snapshot_connection
from core.feedback import ANSWERS_PREFIX, ReportReason
from core.ids import question_id
from core.records import OPTION_KEYS, Option, Provenance, Question, QuestionFormat
from core.settings import REPO_ROOT, Settings
from core.warehouse import open_warehouse
from flows import feedback_steps, steps
from flows.nightly import NightlyResult, call_directly, run_nightly
from pipeline.assemble.request import daily_exam_id
from pipeline.calibrate.simulate import simulated_answers, simulated_bank
from pipeline.compose import Services, build_services
from pipeline.llm.draft import request_template
from pipeline.triage import agreement, statistical_flags, supports
from site_builder.documents import (
    daily_paper_key,
    practice_key,
    question_key,
    withdrawn_questions_key,
)

# Two whole nightlies and 240,000 answers through the worker: a system test.
pytestmark = pytest.mark.system

FIRST = dt.date(2026, 12, 1)
DAYS = 7
LEARNERS = 2_000
ITEMS = 300
ANSWERED_SHARE = 0.4  # each learner meets about 120 of the 300 questions in the week
BATCH = 500
KEY = "k-week"
PRACTICE = "practice-week-simulated"
AUTH = {"Authorization": f"Bearer {KEY}"}
# Where each label's simulated difficulty lies (θ ~ N(0, 1)); a tenth of items are mislabelled.
B_RANGE = {"Easy": (-2.0, -0.8), "Medium": (-0.35, 0.35), "Hard": (0.8, 2.0)}
BAD_ROWS: list[dict[str, Any]] = [
    {"chosen_key": "E"},
    {"seconds": -1},
    {"learner_id": "rahul.sharma@example.com"},
    {"question_id": "q-" + "0" * 20},
]


@dataclasses.dataclass
class Week:
    services: Services
    result: NightlyResult
    items: list[Question]
    wrong_key: Question
    two_correct: tuple[Question, str]  # the question and its second correct option
    model_wrong_key: Question  # only the learners and the statistics can catch it
    a: np.ndarray
    b: np.ndarray
    first_receipt: dict[str, Any]
    replay: dict[str, Any]
    noise: dict[str, str]  # healthy question id → what it was reported for


def planted_wrong_key(q: Question) -> Question:
    """The question with its key moved to another option, as if a broken template and its
    solver had agreed on it."""
    wrong = next(k for k in OPTION_KEYS if k != q.content.correct_key)
    content = q.content.model_copy(update={"correct_key": wrong})
    verdict = q.verdict.model_copy(update={"choice": wrong})
    return q.model_copy(
        update={"question_id": question_id(content), "content": content, "verdict": verdict}
    )


def planted_model_wrong_key(q: Question) -> Question:
    """A wrong key on a question a model drafted and its model solver vouched for: the offline
    solver, the only one here, abstains on what no template of its own drafted, and another
    solver's abstention is no evidence. Only the learners' reports and the statistics are left."""
    moved = planted_wrong_key(q)
    c = moved.content
    template = request_template(c.tag.topic_id, c.difficulty, c.format)
    provenance = Provenance(
        generator="openai", template_id=f"{template}:0", params=(("variant", "0"),)
    )
    verdict = moved.verdict.model_copy(update={"solver": "openai:gpt-simulated"})
    return moved.model_copy(update={"provenance": provenance, "verdict": verdict})


def planted_two_correct(q: Question) -> tuple[Question, str]:
    """The numerical question with a distractor replaced by the key's value written with one
    more significant zero: both options are right."""
    key = q.content.option(q.content.correct_key)
    same = re.sub(
        r"\d+(\.\d+)?",
        lambda m: m.group(0) + ("0" if m.group(1) else ".0"),
        key.text,
        count=1,
    )
    second = next(o.key for o in q.content.options if o.key != key.key)
    options = tuple(
        Option(key=o.key, text=same) if o.key == second else o for o in q.content.options
    )
    content = q.content.model_copy(update={"options": options})
    return q.model_copy(update={"question_id": question_id(content), "content": content}), second


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Week]:
    settings = Settings(
        home=tmp_path_factory.mktemp("feedback"),
        api_keys=(SecretStr(KEY),),
        topic_floor=0,
        figure_floor=0,
        # The whole week arrives in seconds: no rate limit, the default daily quotas.
        feedback_rate_limit_per_minute=1_000_000,
        feedback_rate_limit_burst=1_000_000,
    )
    services = build_services(settings)
    run_nightly(services, FIRST, call=call_directly)
    with open_warehouse(settings.warehouse_path) as wh:
        stored = wh.questions()
        paper = wh.paper(daily_exam_id(FIRST))
        numericals = sorted(
            (q for q in stored if q.content.format is QuestionFormat.NUMERICAL),
            key=lambda q: q.question_id,
        )
        wrong = planted_wrong_key(numericals[0])
        two, second = planted_two_correct(numericals[1])
        model_wrong = planted_model_wrong_key(numericals[2])
        wh.insert_questions([wrong, two, model_wrong])
    assert paper is not None
    steps.export_step(services, paper)  # their files: the worker knows them from now on
    on_paper = set(paper.question_ids)
    others = sorted(
        (q for q in stored if q.question_id not in on_paper), key=lambda q: q.question_id
    )
    by_id = {q.question_id: q for q in stored}
    items = [wrong, two, model_wrong] + [by_id[i] for i in paper.question_ids] + others
    items = items[:ITEMS]

    rng = np.random.default_rng(23)
    bank = simulated_bank(
        ITEMS, LEARNERS, seed=23, wrong_keys={0: "A", 2: "A"}, second_correct={1: "A"}
    )
    labels = [q.content.difficulty.value for q in items]
    mislabelled = rng.random(ITEMS) < 0.1
    b = np.array(
        [
            rng.uniform(*B_RANGE[rng.choice(list(B_RANGE)) if mislabelled[i] else label])
            for i, label in enumerate(labels)
        ]
    )
    keys = [q.content.correct_key for q in items]
    true_answers = list(keys)
    true_answers[0] = numericals[0].content.correct_key  # the wrong keys' true answers
    true_answers[2] = numericals[2].content.correct_key
    bank = dataclasses.replace(
        bank,
        question_ids=tuple(q.question_id for q in items),
        b=b,
        keys=tuple(keys),
        true_answers=tuple(true_answers),
        wrong_keys={0: true_answers[0], 2: true_answers[2]},
        second_correct={1: second},
    )
    answers = simulated_answers(bank, seed=7, answered_share=ANSWERED_SHARE, skip_rate=0.03)
    exam_of = {i: paper.exam_id for i in on_paper}
    # The rest are answered in a practice set the bank made (its static copy is what says so).
    services.store.put(practice_key(PRACTICE), b"{}")
    rows: list[dict[str, Any]] = [
        {
            "question_id": r["question_id"],
            "exam_id": exam_of.get(r["question_id"], PRACTICE),
            "learner_id": r["learner_id"],
            "chosen_key": r["chosen_key"],
            "seconds": float(s),
        }
        for r, s in zip(
            answers.iter_rows(named=True), rng.uniform(15, 240, answers.height), strict=True
        )
    ]
    clock = {"now": dt.datetime(2026, 12, 1, 18, tzinfo=dt.UTC)}
    app = create_app(settings, services.store, clock=lambda: clock["now"])
    noise = {
        items[10].question_id: "three unsupported wrong-key reports",
        items[11].question_id: "a typo",
        items[12].question_id: "one wrong-key report",
    }
    with TestClient(app) as client:
        per_day = -(-len(rows) // DAYS)
        receipts = []
        for day in range(DAYS):
            clock["now"] = dt.datetime(2026, 12, 1 + day, 18, tzinfo=dt.UTC)
            chunk = rows[day * per_day : (day + 1) * per_day]
            for n in range(0, len(chunk), BATCH):
                batch = chunk[n : n + BATCH]
                if day == 0 and n == 0:  # the first batch carries one of each bad row
                    batch = batch[: BATCH - len(BAD_ROWS)] + [
                        {**batch[0], **bad} for bad in BAD_ROWS
                    ]
                body = {"batch_id": f"week-{day}-{n:06d}", "answers": batch}
                got = client.post("/api/v1/attempts", json=body, headers=AUTH)
                assert got.status_code == 202, got.text
                receipts.append(got.json())
                if day == 0 and n == 0:
                    replay = client.post("/api/v1/attempts", json=body, headers=AUTH)
                    assert replay.status_code == 202, replay.text

        def report(q: str, reason: ReportReason, learners: range, option: str | None) -> None:
            for k in learners:
                body = {
                    "learner_id": bank.learner_ids[k],
                    "reason": reason.value,
                    "option": option,
                    "text": "<b>Please</b> check\x00 this one",
                }
                got = client.post(f"/api/v1/questions/{q}/reports", json=body, headers=AUTH)
                assert got.status_code == 202, got.text

        report(wrong.question_id, ReportReason.WRONG_KEY, range(4), true_answers[0])
        report(two.question_id, ReportReason.TWO_CORRECT, range(4, 8), second)
        report(model_wrong.question_id, ReportReason.WRONG_KEY, range(13, 16), true_answers[2])
        healthy = list(noise)
        report(healthy[0], ReportReason.WRONG_KEY, range(8, 11), "B")
        report(healthy[1], ReportReason.TYPO, range(11, 12), None)
        report(healthy[2], ReportReason.WRONG_KEY, range(12, 13), "C")
    result = run_nightly(services, FIRST + dt.timedelta(days=1), call=call_directly)
    yield Week(
        services,
        result,
        items,
        wrong,
        (two, second),
        model_wrong,
        bank.a,
        b,
        receipts[0],
        replay.json(),
        noise,
    )


def test_bad_rows_are_refused_with_reasons_and_the_rest_accepted(week: Week) -> None:
    receipt = week.first_receipt
    assert receipt["accepted"] == BATCH - len(BAD_ROWS)
    refused = {r["index"]: r["reasons"] for r in receipt["refused"]}
    assert sorted(refused) == list(range(BATCH - len(BAD_ROWS), BATCH))
    assert all(refused.values())
    assert week.replay == {**receipt, "replayed": True}
    objects = week.services.store.keys(ANSWERS_PREFIX)
    assert len(objects) == len(set(objects)) == week.result.report.feedback.batches  # type: ignore[union-attr]


def test_the_planted_faults_are_withdrawn_and_nothing_else(week: Week) -> None:
    two, _ = week.two_correct
    model_wrong = week.model_wrong_key.question_id
    with open_warehouse(week.services.settings.warehouse_path) as wh:
        by_triage = {i: r for i, r, _ in wh.withdrawals() if r.startswith("triage:")}
        decisions = {row["question_id"]: row["decision"] for row in wh.triage().to_dicts()}
        whys = {row["question_id"]: row["why"] for row in wh.triage().to_dicts()}
    assert set(by_triage) == {week.wrong_key.question_id, two.question_id, model_wrong}, by_triage
    # The fresh solve abstained on the model's question: the three learners and the statistics
    # withdrew it, not a solver.
    assert whys[model_wrong].startswith("3 learners report wrong key"), whys[model_wrong]
    noisy = list(week.noise)
    assert [decisions.get(q) for q in noisy] == ["review", "review", "confirmed"]
    listed = json.loads(week.services.store.get(withdrawn_questions_key()) or b"{}")
    assert {q["id"] for q in listed["questions"]} >= set(by_triage)
    # Still served at their URLs; the next paper does without them.
    for q in by_triage:
        assert week.services.store.get(question_key(q)) is not None
    day2 = json.loads(week.services.store.get(daily_paper_key("2026-12-02")) or b"{}")
    assert not {q["id"] for q in day2["questions"]} & set(by_triage)


def test_the_statistics_bear_out_both_faults(week: Week) -> None:
    two, second = week.two_correct
    with open_warehouse(week.services.settings.warehouse_path) as wh:
        run = wh.latest_calibration_run()
        assert run is not None
        stats = {r["question_id"]: r for r in wh.item_stats(run).to_dicts()}
        reports = wh.reports()
    true = next(k for k in OPTION_KEYS if k != week.wrong_key.content.correct_key)
    wrong_flags = {str(f) for f in statistical_flags(stats[week.wrong_key.question_id], 200)}
    assert "negative_discrimination" in wrong_flags or any(true in f for f in wrong_flags)
    rows = reports.filter(pl.col("question_id") == two.question_id).to_dicts()
    agreed = agreement(rows)
    assert agreed is not None and agreed.learners == 4 and agreed.option == second
    assert supports(agreed, statistical_flags(stats[two.question_id], 200))
    texts = set(reports["text"].to_list())
    assert texts == {"Please check this one"}  # tags and control characters gone


def test_item_statistics_recover_the_simulated_parameters(week: Week) -> None:
    with open_warehouse(week.services.settings.warehouse_path) as wh:
        run = wh.latest_calibration_run()
        assert run is not None
        fitted = wh.item_stats(run)
        pool = wh.pool()
    truth = pl.DataFrame(
        {
            "question_id": [q.question_id for q in week.items],
            "true_a": week.a,
            "true_b": week.b,
        }
    ).slice(3)  # not the planted three, whose answers no 2PL item gives
    both = truth.join(fitted, on="question_id")
    assert both.height == ITEMS - 3
    error = both["irt_b"].to_numpy() - both["true_b"].to_numpy()
    rmse = float(np.sqrt(np.mean(error**2)))
    rho = both.select(pl.corr("irt_a", "true_a", method="spearman")).item()
    assert rmse <= 0.25, rmse
    assert rho >= 0.7, rho
    # The assembler reads calibrated bands once a question has 200 responses and does not go
    # against ability (a wrong key's band does not count).
    counted = fitted.filter(pl.col("calibrated")).select("question_id", "band")
    assert counted.height >= ITEMS - 10
    shown = pool.join(counted, on="question_id")
    assert (shown["difficulty"] == shown["band"]).all()
    assert (shown["difficulty"] != shown.join(fitted, on="question_id")["label"]).any()


def test_the_report_shows_calibration_against_labels_and_the_triage(week: Week) -> None:
    markdown = week.result.report_markdown
    assert "## Learning from students" in markdown
    assert "Generator label (rows) against calibrated band (columns)" in markdown
    assert week.wrong_key.question_id in markdown and "For review:" in markdown


def test_a_second_look_at_the_same_evidence_changes_nothing(week: Week) -> None:
    again = feedback_steps.calibrate_step(week.services)
    assert again is not None and not again.new_run
    assert feedback_steps.triage_step(week.services) == ()
    taken = feedback_steps.ingest_feedback_step(week.services)
    assert (taken.batches, taken.answers, taken.reports) == (0, 0, 0)


def test_every_example_query_in_the_warehouse_docs_runs(week: Week) -> None:
    text = (REPO_ROOT / "docs" / "warehouse.md").read_text(encoding="utf-8")
    queries = re.findall(r"```sql\n(.*?)```", text, flags=re.DOTALL)
    con = snapshot_connection(week.services.settings.warehouse_export_dir)
    found = [(sql, query_rows(con, sql)[1]) for sql in queries]  # each runs
    assert len(found) >= 12
    two, second = week.two_correct
    attracting = next(rows for sql, rows in found if "attract" in sql or "o.pbis > 0.05" in sql)
    assert (two.question_id, second) in {(r[0], r[5]) for r in attracting}
    hardest = next(rows for sql, rows in found if "AS difficulty" in sql)
    assert hardest
