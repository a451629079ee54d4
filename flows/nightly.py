"""The nightly Prefect flow: fill the pool, build the day's paper, export, move the pointer."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.deployments.runner import RunnerDeployment
from prefect.schedules import Cron

from core.clock import exam_today, parse_exam_date
from core.records import Paper
from core.settings import Settings
from flows import steps
from flows.services import Services, build_services
from kb.ingest.run import IngestReport
from site_builder.export import ExportReport

# Caching lives in the data, not in Prefect: every step skips what its stores already hold
# (unchanged documents, drafts already solved, a paper already built, files already written),
# which survives a killed process where a result cache would not. Steps that may call a model
# API retry with backoff; a retry resumes where the last attempt committed.
MODEL_RETRIES = {"retries": 2, "retry_delay_seconds": [10, 60]}
ingest_kb_task = task(
    steps.ingest_kb_step, name="ingest_kb", cache_policy=NO_CACHE, **MODEL_RETRIES
)
index_questions_task = task(
    steps.index_questions_step, name="index_questions", cache_policy=NO_CACHE, **MODEL_RETRIES
)
fill_pool_task = task(
    steps.fill_pool_step, name="fill_pool", cache_policy=NO_CACHE, **MODEL_RETRIES
)
build_paper_task = task(steps.build_paper_step, name="build_daily_paper", cache_policy=NO_CACHE)
export_task = task(steps.export_step, name="export_site", cache_policy=NO_CACHE)
publish_task = task(steps.publish_step, name="publish", cache_policy=NO_CACHE)


@dataclass(frozen=True)
class NightlyResult:
    date: str
    ingest: IngestReport
    fill: steps.FillSummary
    paper: Paper
    export: ExportReport
    pointer_moved: bool


def run_nightly(services: Services, date: dt.date) -> NightlyResult:
    """The nightly steps in their safe order (questions → dated paper → pointer)."""
    ingested = ingest_kb_task(services.settings, [services.settings.bundled_kb_dir])
    fill = fill_pool_task(services, date)
    index_questions_task(services.settings)
    paper = build_paper_task(services, date)
    exported = export_task(services, paper)
    moved = publish_task(services, paper)
    return NightlyResult(date.isoformat(), ingested, fill, paper, exported, moved)


@flow(name="nightly", log_prints=True)
def nightly(date: str | None = None) -> NightlyResult:
    """Build and publish the daily paper for `date` (default: today in Asia/Kolkata)."""
    settings = Settings()
    day = parse_exam_date(date) if date else exam_today(settings.timezone)
    return run_nightly(build_services(settings), day)


@flow(name="ingest_kb", log_prints=True)
def ingest_kb(paths: list[str]) -> IngestReport:
    """Ingest documents (Markdown, HTML, PDF, CNXML) into the knowledge store."""
    return ingest_kb_task(Settings(), [Path(p) for p in paths])


def deployments(settings: Settings) -> list[RunnerDeployment]:
    """What `qforge serve` serves: the nightly on its cron (in the exam timezone), and ingest."""
    return [
        nightly.to_deployment(
            name="nightly",
            schedule=Cron(settings.nightly_cron, timezone=settings.timezone),
            concurrency_limit=1,  # a slow night must not overlap the next one
            description="Build and publish the day's paper (today in the exam timezone).",
            tags=["qforge"],
        ),
        ingest_kb.to_deployment(
            name="ingest-kb",
            description="Ingest documents into the knowledge store (run on demand).",
            parameters={"paths": [str(settings.bundled_kb_dir)]},
            tags=["qforge"],
        ),
    ]
