"""The nightly report of a run that drafted with a model: calls, tokens, latency, per stored
question, and why drafts were refused; offline runs have no such section."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from pydantic import SecretStr

from core.records import Verdict
from core.settings import Settings
from core.warehouse import open_warehouse
from pipeline.compose import Services, build_services
from pipeline.figures.templates import FIGURE_GENERATOR
from pipeline.fill.batch import BatchFillReport, PendingBatch
from pipeline.llm.usage import (
    CallRecord,
    UsageLedger,
    model_usage,
    percentile,
    usage_lines,
    usage_markdown,
)
from tests.fake_openai import FakeModel, serving

if TYPE_CHECKING:  # Prefect loads with it: only the system tests here import it
    from flows.nightly import NightlyResult

DAY = dt.date(2026, 4, 1)


@pytest.fixture(scope="module")
def night(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Services, NightlyResult, FakeModel, int]]:
    from flows.nightly import call_directly, run_nightly

    model = FakeModel()
    with serving({"/v1/chat/completions": model.script()}) as (server, _):
        settings = Settings(
            home=tmp_path_factory.mktemp("home"),
            llm="openai",
            openai_base_url=server.base_url,
            openai_api_key=SecretStr("test"),
            openai_max_retries=0,
            llm_concurrency=8,
        )
        services = build_services(settings)
        result = run_nightly(services, DAY, call=call_directly)
        yield services, result, model, len(server.requests)


@pytest.mark.system
def test_a_model_nightly_builds_its_paper_from_verified_drafts_only(night) -> None:
    services, result, model, _ = night
    assert len(result.paper.question_ids) == 180
    with open_warehouse(services.settings.warehouse_path) as wh:
        stored = wh.questions()
        accepted = {
            r[0]
            for r in wh.con.execute(
                "SELECT question_id FROM attempts WHERE verdict = ?", [Verdict.ACCEPTED.value]
            ).fetchall()
        }
        [(twins_refused,)] = wh.con.execute(
            "SELECT count(*) FROM attempts WHERE rejection_reason LIKE 'near_duplicate_own%'"
        ).fetchall()
    assert {q.question_id for q in stored} == accepted
    # Figure questions come from the offline figure engine (the figure floor) whatever drafts
    # the rest: the model draws no figures.
    drafted = [q for q in stored if q.provenance.generator != FIGURE_GENERATOR]
    assert all(q.provenance.generator.startswith("openai:") for q in drafted)
    confirmed = {stem for stem, yes in model.confirmed.items() if yes}
    stems = {q.content.stem_markdown for q in drafted}
    assert stems <= confirmed
    # A confirmed draft is kept unless a twin was accepted while its solve was under way.
    assert len(confirmed - stems) <= twins_refused


def table_row(markdown: str, step: str) -> list[str]:
    [line] = [line for line in markdown.splitlines() if line.startswith(f"| {step} |")]
    return [cell.strip() for cell in line.strip("|").split("|")]


def number(text: str) -> int:
    return int(text.replace(",", ""))


@pytest.mark.system
def test_the_report_shows_calls_tokens_latency_and_draft_rejections(night) -> None:
    services, result, _, requests = night
    md = result.report_markdown
    section = md[md.index("## Model calls") :]
    calls = services.usage.calls
    draft, solve, total = (table_row(section, s) for s in ("draft", "solve", "all"))
    assert number(total[1]) == len(calls) == requests == number(draft[1]) + number(solve[1])
    assert number(total[2]) == sum(c.prompt_tokens for c in calls)
    assert number(total[3]) == sum(c.cached_tokens for c in calls) > 0
    assert number(total[4]) == sum(c.completion_tokens for c in calls)
    p50, p95 = float(total[5]), float(total[6])
    assert 0 < p50 <= p95
    assert total[7] == f"ok {len(calls)}"
    stored = result.fill.accepted
    match = re.search(r"([\d,]+) questions stored: ([\d.]+) calls and ([\d,]+) tokens", section)
    assert match is not None
    assert number(match.group(1)) == stored > 0
    assert float(match.group(2)) == pytest.approx(len(calls) / stored, abs=0.005)
    rejections = services.drafter.rejections
    assert rejections["invalid_json"] > 0
    assert f"refused before any solver saw them: invalid_json {rejections['invalid_json']}" in md
    lines = result.usage_lines
    assert lines[0].startswith(f"model calls: {len(calls):,} (draft ")
    assert any(line.startswith(f"per stored question ({stored:,}): ") for line in lines)
    assert any(line.startswith("draft rejections: invalid_json ×") for line in lines)


@pytest.mark.system
def test_an_offline_run_has_no_model_section(night, tmp_path: Path) -> None:
    from flows.nightly import run_model_usage

    _, result, _, _ = night
    offline = dataclasses.replace(result, model_usage=None)
    assert "## Model calls" not in offline.report_markdown and offline.usage_lines == []
    assert run_model_usage(build_services(Settings(home=tmp_path)), [result.fill]) is None


@pytest.mark.system
def test_batch_mode_off_runs_no_batch_step_and_on_reports_its_batches(night) -> None:
    _, result, _, _ = night
    assert result.batches is None and "## Batch API fill" not in result.report_markdown
    assert "batch_fill" in result.report.step_seconds  # the step ran, and did nothing
    pending = PendingBatch("fill-1", "drafts", "batch_abc", "in_progress", 3, 0, 10)
    batched = dataclasses.replace(result, batches=BatchFillReport(pending=[pending]))
    section = batched.report_markdown.split("## Batch API fill", 1)[1]
    assert "0 submitted, 1 pending, 0 finished" in section and "batch_abc" in section
    assert batched.usage_lines[-2].startswith("batch fill: 0 submitted, 1 pending")


def call(purpose: str, latency: float, outcome: str = "ok", tokens: int = 100) -> CallRecord:
    return CallRecord(purpose, "m", tokens, tokens // 5, tokens // 2, latency, outcome)


def test_the_section_from_a_ledger() -> None:
    ledger = UsageLedger()
    for i in range(1, 21):
        ledger.record(call("draft", i / 10))
    ledger.record(call("solve", 5.0, "timeout", tokens=0))
    usage = model_usage(
        ledger,
        stored=7,
        draft_rejections=Counter({"invalid_json": 2, "refusal": 3}),
        unsolved=1,
        stopped="token_budget",
    )
    md = usage_markdown(usage)
    assert table_row(md, "draft")[1:8] == ["20", "2,000", "1,000", "400", "1.00", "1.90", "ok 20"]
    assert table_row(md, "solve")[1:8] == ["1", "0", "0", "0", "5.00", "5.00", "timeout 1"]
    assert table_row(md, "all")[7] == "ok 20, timeout 1"
    assert "7 questions stored: 3.00 calls and 343 tokens per stored question" in md
    assert "(286 in, of which 143 cached; 57 out)" in md
    assert "refused before any solver saw them: refusal 3, invalid_json 2." in md
    assert "Solves with no reply (no verdict recorded" in md and "run): 1." in md
    assert "Drafting stopped early: token_budget." in md
    assert usage_lines(usage)[-2:] == [
        "solves with no reply (left for a later run): 1",
        "drafting stopped early: token_budget",
    ]
    nothing = usage_markdown(model_usage(ledger, stored=0))
    assert "No question was stored: 21 calls bought none." in nothing
    assert "refused" not in nothing


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 0.5), percentile(values, 0.95)) == (50.0, 95.0)
    assert percentile([3.0], 0.95) == 3.0 and percentile([], 0.5) is None
