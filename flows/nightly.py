"""The nightly Prefect flow: fill the pool, build the day's paper, export, move the pointer."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE
from prefect.deployments.runner import RunnerDeployment
from prefect.schedules import Cron

from core.clock import exam_today, parse_exam_date
from core.records import Paper
from core.runlock import run_lock
from core.settings import Settings
from flows import feedback_steps, steps
from flows.steps import batch_fill_step
from kb.ingest.run import IngestReport
from pipeline.assemble.request import Shortfall, ShortfallError
from pipeline.compose import Services, build_services
from pipeline.fill.batch import BatchFillReport, report_lines
from pipeline.fill.engine import UNSOLVED
from pipeline.llm.usage import ModelUsage, model_usage, usage_lines, usage_markdown
from site_builder.export import ExportReport
from site_builder.run_report import RunReport, run_report_markdown

# Caching lives in the data, not in Prefect: every step skips what its stores already hold
# (unchanged documents, drafts already solved, a paper already built, files already written),
# which survives a killed process where a result cache would not. Steps that may call a model
# API retry with backoff; a retry resumes where the last attempt committed.
RETRY_DELAY_SECONDS: list[float] = [10, 60]


def _model_step(name: str) -> Any:
    """A task for a step that may call a model API: retried twice, with backoff."""
    return task(
        name=name, cache_policy=NO_CACHE, retries=2, retry_delay_seconds=RETRY_DELAY_SECONDS
    )


ingest_kb_task = _model_step("ingest_kb")(steps.ingest_kb_step)
index_questions_task = _model_step("index_questions")(steps.index_questions_step)
fill_pool_task = _model_step("fill_pool")(steps.fill_pool_step)
# QFORGE_LLM_BATCH: the Batch API fill for the night after the last paper (None when off).
batch_fill_task = _model_step("batch_fill")(batch_fill_step)
build_paper_task = task(name="build_daily_paper", cache_policy=NO_CACHE)(steps.build_paper_step)
export_task = task(name="export_site", cache_policy=NO_CACHE)(steps.export_step)
publish_task = task(name="publish", cache_policy=NO_CACHE)(steps.publish_step)
ingest_outbox_task = task(name="ingest_outbox", cache_policy=NO_CACHE)(steps.ingest_outbox_step)
snapshot_task = task(name="snapshot", cache_policy=NO_CACHE)(steps.snapshot_step)
topic_floor_task = task(name="topic_floor", cache_policy=NO_CACHE)(steps.topic_floor_step)
figure_floor_task = task(name="figure_floor", cache_policy=NO_CACHE)(steps.figure_floor_step)
relabel_task = task(name="relabel", cache_policy=NO_CACHE)(steps.relabel_step)
ingest_feedback_task = task(name="ingest_feedback", cache_policy=NO_CACHE)(
    feedback_steps.ingest_feedback_step
)
calibrate_task = task(name="calibrate", cache_policy=NO_CACHE)(feedback_steps.calibrate_step)
# Fresh solves of reported questions call the model solver when one is configured.
triage_task = _model_step("triage")(feedback_steps.triage_step)

Call = Callable[..., Any]


def call_directly(step_task: Any, *args: Any) -> Any:
    """Run a step's plain function, without Prefect (`qforge nightly --no-prefect`, tests)."""
    return step_task.fn(*args)


def call_as_task(step_task: Any, *args: Any) -> Any:
    return step_task(*args)


@dataclass(frozen=True)
class NightlyResult:
    date: str
    ingest: IngestReport
    outbox: steps.OutboxSummary
    fill: steps.FillSummary
    paper: Paper
    export: ExportReport
    pointer_moved: bool
    built_ahead: tuple[Paper, ...]
    report: RunReport
    # The model calls of the run (QFORGE_LLM=openai); None offline, whose report has no section.
    model_usage: ModelUsage | None = None
    # What the Batch API fill did this run (QFORGE_LLM_BATCH); None when batch mode is off.
    batches: BatchFillReport | None = None

    @property
    def report_markdown(self) -> str:
        markdown = run_report_markdown(self.report) + fallback_markdown(self.fill)
        if self.model_usage is not None:
            markdown += "\n" + usage_markdown(self.model_usage)
        if self.batches is not None:
            lines = "\n".join(f"- {line.strip()}" for line in report_lines(self.batches))
            markdown += f"\n## Batch API fill\n\n{lines}\n"
        return markdown

    @property
    def usage_lines(self) -> list[str]:
        """The model calls (and batch fill) in a few lines for the terminal summary."""
        lines = [] if self.model_usage is None else usage_lines(self.model_usage)
        return lines + ([] if self.batches is None else report_lines(self.batches))


def run_model_usage(services: Services, fills: list[steps.FillSummary]) -> ModelUsage | None:
    """What the run's model calls cost and bought (None when no model was used)."""
    if services.usage is None:
        return None
    drafter = services.drafter
    return model_usage(
        services.usage,
        stored=sum(f.accepted for f in fills),
        draft_rejections=getattr(drafter, "rejections", None),
        unsolved=sum(c.reasons[UNSOLVED] for f in fills for c in f.cells),
        stopped=getattr(drafter, "stopped", None),
    )


def run_nightly(
    services: Services,
    date: dt.date,
    days: int = 1,
    call: Call = call_as_task,
    on_step: Callable[[str], None] | None = None,
) -> NightlyResult:
    """The nightly steps in their safe order; `days` > 1 also builds the following days' papers.

    Question files, then the dated paper, then the daily pointer: a run killed anywhere leaves a
    tree that never names a missing file, and the next run finishes the same paper. Papers built
    ahead stay in the warehouse; each is exported on its own night, never early.
    """
    if days < 1:
        raise ValueError(f"days must be at least 1, got {days}")
    with run_lock(services.settings.home, "nightly"):  # one run per home (core.runlock)
        return _run_nightly(services, date, days, call, on_step)


def _run_nightly(
    services: Services,
    date: dt.date,
    days: int,
    call: Call,
    on_step: Callable[[str], None] | None,
) -> NightlyResult:
    settings = services.settings
    started = dt.datetime.now(dt.UTC)
    seconds: dict[str, float] = {}

    def timed(name: str, step_task: Any, *args: Any) -> Any:
        if on_step:
            on_step(name)
        t0 = time.perf_counter()
        try:
            return call(step_task, *args)
        finally:
            seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - t0

    def run_report(
        dates: Sequence[dt.date], papers: list[Paper], topics: steps.TopicFloorSummary | None
    ) -> RunReport:
        """What the run did, from the warehouse: its attempts, the pool's coverage, its papers."""
        attempts, coverage = steps.run_facts(settings, started)
        return RunReport(
            dates=tuple(d.isoformat() for d in dates),
            step_seconds=seconds,
            attempts=attempts,
            coverage=coverage,
            papers=papers,
            outbox_taken=outbox.taken,
            outbox_refused=len(outbox.refused),
            topic_floor=topics.floor if topics else None,
            topics=topics.coverage if topics else (),
            relabelled=relabelled,
            feedback=feedback,
            calibration=calibration,
            triage=triage,
            review_queue=feedback_steps.review_queue(settings),
        )

    ingested = timed("ingest_kb", ingest_kb_task, settings, [settings.bundled_kb_dir])
    outbox = timed("ingest_outbox", ingest_outbox_task, services)
    # What students sent back, before the fill and the paper: tonight's paper assembles by the
    # calibrated bands and never holds a question triage withdraws.
    feedback = timed("ingest_feedback", ingest_feedback_task, services)
    calibration = timed("calibrate", calibrate_task, services)
    triage = timed("triage", triage_task, services)
    # Before the fill, so tonight's paper and fill count questions under the rubric's labels.
    relabelled = timed("relabel", relabel_task, services)
    dates = [date + dt.timedelta(days=i) for i in range(days)]
    fills = [timed("fill_pool", fill_pool_task, services, date)]
    # A paper is never short of figure questions (the blueprint asks for them where the pool
    # has them), so the fill makes them only when a figure template's turn comes: this keeps
    # each figure template's supply before the paper is built.
    timed("figure_floor", figure_floor_task, services, date)
    try:
        papers = [timed("build_daily_paper", build_paper_task, services, date)]
    except ShortfallError as failed:
        # No paper tonight: still report what was made, spent and missing, publish nothing.
        usage = run_model_usage(services, fills)
        short = Shortfall(failed.short)
        why = _why_short(services, usage)
        report = run_report((date,), [], None)
        markdown = run_report_markdown(report) + fallback_markdown(fills[0])
        markdown += _shortfall_markdown(short, why)
        if usage is not None:
            markdown += "\n" + usage_markdown(usage)
        raise NightlyFailed(
            date.isoformat(),
            f"no paper for {date.isoformat()}: the pool is {short.total} questions short ({why})",
            markdown,
        ) from failed
    # After the paper is stored (it never depends on this) and before the export, so the new
    # questions' files and the syllabus's servable counts go out tonight.
    topics = timed("topic_floor", topic_floor_task, services)
    timed("index_questions", index_questions_task, settings)
    exported = timed("export_site", export_task, services, papers[0])
    moved = timed("publish", publish_task, services, papers[0])
    # Ahead only after today's paper is live: a shortfall for a later day must not hold it back.
    for day in dates[1:]:  # in order: each paper's cooldown sees the ones before it
        fills.append(timed("fill_pool", fill_pool_task, services, day))
        papers.append(timed("build_daily_paper", build_paper_task, services, day))
    # The synchronous fill above keeps today's paper safe; batches (cheaper, up to a day late)
    # fill the pool for the night after the last paper built.
    batches = timed("batch_fill", batch_fill_task, services, dates[-1] + dt.timedelta(days=1))
    timed("snapshot", snapshot_task, services)
    report = run_report(dates, papers, topics)
    fill = steps.FillSummary(
        all(f.skipped_because_paper_exists for f in fills),
        tuple(c for f in fills for c in f.cells),
        tuple(c for f in fills for c in f.fallback),
    )
    return NightlyResult(
        date.isoformat(),
        ingested,
        outbox,
        fill,
        papers[0],
        exported,
        moved,
        tuple(papers[1:]),
        report,
        run_model_usage(services, fills),
        batches,
    )


class NightlyFailed(RuntimeError):
    """The day's paper could not be built: what is missing and why, and the run's report.

    Nothing was exported or published: the daily pointer still names the last paper.
    """

    def __init__(self, date: str, line: str, report_markdown: str) -> None:
        self.date = date
        self.report_markdown = report_markdown
        super().__init__(line)


def fallback_markdown(fill: steps.FillSummary) -> str:
    """What the offline engine made for a model run's gap (empty when it made nothing)."""
    if not fill.fallback:
        return ""
    made = sum(c.accepted for c in fill.fallback)
    rows = "\n".join(
        f"| {c.subject.value} | {c.difficulty.value} | {c.accepted} / {c.needed} |"
        for c in fill.fallback
    )
    return (
        "\n## Offline fallback\n\nThe model left the paper short; the offline engine made "
        f"{made} questions (QFORGE_OFFLINE_FALLBACK).\n\n"
        f"| subject | difficulty | made / asked |\n|---|---|---|\n{rows}\n"
    )


def _shortfall_markdown(short: Shortfall, why: str) -> str:
    rows = "\n".join(
        f"| {s.value} | {unit} | {d.value} | {n} |" for (s, d, unit), n in short.cells.items()
    )
    return (
        f"\n## No paper: short of {short.total} questions\n\n{why}\n\n"
        "Nothing was exported or published: the daily pointer still names the last paper.\n\n"
        f"| subject | unit | difficulty | missing |\n|---|---|---|---|\n{rows}\n"
    )


def _why_short(services: Services, usage: ModelUsage | None) -> str:
    if usage is not None and usage.stopped:  # the drafter's own word (run_model_usage)
        reason = f"drafting stopped early: {usage.stopped}"
    elif usage is not None:
        reason = "the model's drafts for these cells were refused or ran out"
    else:
        reason = "the generators for these cells ran dry"
    if services.fallback is not None:
        reason += "; the offline engine could not fill them either"
    return reason


def step_count(days: int) -> int:
    """How many steps a run with `days` takes (for progress bars)."""
    return 13 + 2 * days


@flow(name="nightly", log_prints=True)
def nightly(
    date: str | None = None, days: int = 1, on_step: Callable[[str], None] | None = None
) -> NightlyResult:
    """Build and publish the daily paper for `date` (default: today in Asia/Kolkata)."""
    settings = Settings()
    day = parse_exam_date(date) if date else exam_today(settings.timezone)
    try:
        result = run_nightly(build_services(settings), day, days, on_step=on_step)
    except NightlyFailed as failed:  # the report is the artifact still
        create_markdown_artifact(
            failed.report_markdown,
            key="nightly-summary",
            description=f"qforge nightly {failed.date}: no paper",
        )
        raise
    create_markdown_artifact(
        result.report_markdown,
        key="nightly-summary",
        description=f"qforge nightly {', '.join(result.report.dates)}",
    )
    return result


@flow(name="ingest_kb", log_prints=True)
def ingest_kb(paths: list[str]) -> IngestReport:
    """Ingest documents (Markdown, HTML, PDF, CNXML) into the knowledge store."""
    settings = Settings()
    with run_lock(settings.home, "kb ingest"):
        return ingest_kb_task(settings, [Path(p) for p in paths])


def _deployment(of: Any, **options: Any) -> RunnerDeployment:
    """`Flow.to_deployment` called from sync code: the deployment itself, never a coroutine."""
    made = of.to_deployment(**options)
    if not isinstance(made, RunnerDeployment):
        raise TypeError(f"to_deployment gave {type(made).__name__}, not a RunnerDeployment")
    return made


def deployments(settings: Settings) -> list[RunnerDeployment]:
    """What `qforge serve` serves: the nightly on its cron (in the exam timezone), and ingest."""
    return [
        _deployment(
            nightly,
            name="nightly",
            schedule=Cron(settings.nightly_cron, timezone=settings.timezone),
            concurrency_limit=1,  # a slow night must not overlap the next one
            description="Build and publish the day's paper (today in the exam timezone).",
            tags=["qforge"],
        ),
        _deployment(
            ingest_kb,
            name="ingest-kb",
            description="Ingest documents into the knowledge store (run on demand).",
            parameters={"paths": [str(settings.bundled_kb_dir)]},
            tags=["qforge"],
        ),
    ]
