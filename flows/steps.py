"""The nightly steps as plain functions over Services: what each Prefect task calls."""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import polars as pl

from core.pool import UnitCell
from core.records import OUTBOX_PREFIX, Paper
from core.settings import Settings
from core.warehouse import Warehouse, open_warehouse
from kb.elements import load_element_data
from kb.ingest.run import IngestReport
from kb.store import question_rows
from pipeline.assemble.assembly import assemble_paper
from pipeline.assemble.request import (
    Shortfall,
    ShortfallError,
    daily_exam_id,
    daily_request,
)
from pipeline.compose import (
    Services,
    build_ingestor,
    build_knowledge_store,
    duplicate_screens,
    offline_engine,
)
from pipeline.fill.batch import BatchFillReport, batch_fill
from pipeline.fill.coverage import (
    CellCoverage,
    cell_groups,
    coverage_summary,
    servable_counts,
    shortfall_reasons,
    spent_cells,
    topic_coverage,
)
from pipeline.fill.engine import CellReport
from pipeline.fill.pool import (
    FIGURES,
    STRUCTURES,
    Resume,
    figure_deficits,
    fill_pool,
    topic_deficits,
)
from pipeline.fill.rounds import fill_until_assembled
from pipeline.generate.drafter import Drafter, FigureDrafter, OfflineDrafter, Seeded
from pipeline.generate.organic.catalogue import structure_templates
from pipeline.relabel import RELABELLED, Rater, relabellings
from pipeline.serve.outbox import OutboxProblem, outbox_entry, read_outbox
from pipeline.templates.catalogue import TEMPLATES_BY_ID
from pipeline.verify.gate import Screen, Solver
from site_builder.documents import WithdrawalRow, paper_document
from site_builder.export import (
    ExportReport,
    export_daily_paper,
    exported_daily_dates,
    exported_question_ids,
    publish_daily_pointer,
    record_exported,
    write_figure_images,
    write_rendered_files,
)
from site_builder.html import write_previews
from site_builder.openapi import static_documents
from site_builder.run_report import AttemptRow, CoverageRow
from site_builder.snapshot import (
    POOL_SNAPSHOT_KEY,
    TOPIC_COVERAGE_KEY,
    pool_snapshot,
    topic_coverage_bytes,
)

log = logging.getLogger("qforge")
# Rounds of "assemble, then generate exactly the shortfall" before the nightly run gives up.
FILL_ROUNDS = 6


@dataclass(frozen=True)
class FillSummary:
    skipped_because_paper_exists: bool
    cells: tuple[CellReport, ...]
    # What the offline engine made when the model left the paper short (QFORGE_LLM=openai).
    fallback: tuple[CellReport, ...] = ()

    @property
    def accepted(self) -> int:
        return sum(c.accepted for c in self.cells)

    @property
    def rejected(self) -> int:
        return sum(c.rejected for c in self.cells)


def _log_cell(report: CellReport) -> None:
    log.info(
        "pool %s/%s/%s: %d/%d accepted, %d rejected%s",
        report.subject.value,
        report.unit_id or "any unit",
        report.difficulty.value,
        report.accepted,
        report.needed,
        report.rejected,
        " (generators exhausted)" if report.exhausted else "",
    )


def ingest_kb_step(settings: Settings, paths: list[Path]) -> IngestReport:
    """Ingest what changed under paths into the knowledge store (unchanged files are skipped)."""
    report = build_ingestor(settings).ingest(paths)
    for line in report.lines():
        log.info("kb %s", line)
    return report


def _daily_outcome(
    services: Services,
    wh: Warehouse,
    date: dt.date,
    closed: Collection[UnitCell] = (),
    only: Collection[str] | None = None,
) -> Paper | Shortfall:
    """The date's paper from the current pool (or its questions in `only`), or exactly what
    the pool lacks for it."""
    blueprint = services.blueprint
    since = wh.daily_cooldown_since(date.isoformat(), blueprint.cooldown_papers)
    request = daily_request(blueprint, date, since)
    pool = wh.pool()
    if only is not None:
        pool = pool.filter(pl.col("question_id").is_in(list(only)))
    return assemble_paper(pool, request, blueprint, closed)


def fill_marker_key(date: dt.date) -> str:
    return f"internal/fill/{date.isoformat()}"


def _fill_started(services: Services, date: dt.date) -> dt.datetime | None:
    raw = services.store.get(fill_marker_key(date))
    return dt.datetime.fromisoformat(json.loads(raw)["since"]) if raw else None


def _start_fill(services: Services, wh: Warehouse, date: dt.date) -> dt.datetime:
    """Mark when the date's fill began (create-only, so a rerun finds the first run's mark).

    Everything stored after it is the fill's own work, which a rerun replays, in order, instead
    of building on: the outcome is then the same wherever a run was killed.
    """
    started = max(dt.datetime.now(dt.UTC), wh.latest_created_at() + dt.timedelta(microseconds=1))
    services.store.put_new(
        [(fill_marker_key(date), json.dumps({"since": started.isoformat()}).encode())]
    )
    marked = _fill_started(services, date)
    assert marked is not None
    return marked


def _per_subject_and_difficulty(reports: list[CellReport]) -> tuple[CellReport, ...]:
    """Unit cells summed per subject and difficulty, for a compact summary."""
    merged: dict[tuple[str, str], CellReport] = {}
    for r in reports:
        m = merged.setdefault(
            (r.subject.value, r.difficulty.value), CellReport(r.subject, r.difficulty, 0)
        )
        m.needed += r.needed
        m.accepted += r.accepted
        m.rejected += r.rejected
        m.skipped += r.skipped
        m.reasons.update(r.reasons)
        m.refused.update(r.refused)
        m.stopped = m.stopped or r.stopped
        m.exhausted |= r.exhausted
    return tuple(merged.values())


def fill_pool_step(services: Services, date: dt.date) -> FillSummary:
    """Generate what the date's paper lacks, unit by unit, until it can be assembled
    (`fill_until_assembled`, each round asking twice as much as the last), with the model and
    then, where it left the paper short, the offline engine."""
    s = services.settings
    reports: list[CellReport] = []
    with open_warehouse(s.warehouse_path) as wh:
        if wh.paper(daily_exam_id(date)) is not None:
            return FillSummary(True, ())
        # A fill killed earlier tonight is replayed from where it began, never built upon.
        since = _fill_started(services, date)
        view = wh.question_ids_until(since) if since else None
        outcome = _daily_outcome(services, wh, date, only=view)
        if not isinstance(outcome, Shortfall):
            return FillSummary(False, ())
        if since is None:
            since = _start_fill(services, wh, date)
            view = wh.question_ids_until(since)
        assert view is not None
        ready: set[str] = view  # the pool as of the mark, plus what this fill has made
        assess = partial(_daily_outcome, services, wh, date, only=ready)
        baseline_attempted = frozenset(wh.attempted_draft_ids(since))
        starts = wh.attempt_counts(since)
        earlier = wh.attempt_outcomes_since(since)
        taken: set[str] = set()  # drafts this fill has taken so far (replayed or new)
        screens, on_accept = duplicate_screens(s, wh.questions())

        def generating(
            drafter: Drafter, solver: Solver, concurrency: int, made: list[CellReport]
        ) -> Callable[[Mapping[UnitCell, int]], list[CellReport]]:
            def generate(cells: Mapping[UnitCell, int]) -> list[CellReport]:
                # Every round walks each template's variants from where they stood when this
                # fill began (drafts taken in an earlier round are known, so passed over), as a
                # run never killed does: advancing the starts by the replayed drafts would walk
                # a resumed fill's later rounds differently.
                resume = Resume(
                    starts=starts, attempted=baseline_attempted | taken, outcomes=earlier
                )
                reports = fill_pool(
                    wh,
                    drafter,
                    solver,
                    cells,
                    max_attempts_per_question=s.max_attempts_per_question,
                    on_progress=_log_cell,
                    screens=screens,
                    on_accept=on_accept,
                    concurrency=concurrency,
                    resume=resume,
                )
                made.extend(reports)
                for c in reports:
                    taken.update(c.drafts)
                    ready.update(c.made)
                return reports

            return generate

        generate = generating(services.drafter, services.solver, services.concurrency, reports)
        outcome = fill_until_assembled(outcome, generate, assess, FILL_ROUNDS, doubling=True)
        fallback: list[CellReport] = []
        if services.fallback is not None and isinstance(outcome, Shortfall):
            # The offline engine, for what the model left short; the cells the model closed
            # are its own, so the fallback starts afresh.
            outcome = assess(())
            if isinstance(outcome, Shortfall):
                log.info(
                    "pool: the model left %d questions short; the offline engine fills in",
                    outcome.total,
                )
                generate = generating(*services.fallback, 1, fallback)
                fill_until_assembled(outcome, generate, assess, FILL_ROUNDS, doubling=True)
    return FillSummary(
        False, _per_subject_and_difficulty(reports), _per_subject_and_difficulty(fallback)
    )


@dataclass(frozen=True)
class TopicFloorSummary:
    """What the topic floor did: the cells it filled and every live topic × difficulty after."""

    floor: int
    cells: tuple[CellReport, ...]
    coverage: tuple[CellCoverage, ...]

    @property
    def accepted(self) -> int:
        return sum(c.accepted for c in self.cells)


def _log_topic_progress(every: int) -> Callable[[CellReport], None]:
    seen: set[tuple[str | None, str]] = set()

    def log_cell(report: CellReport) -> None:
        seen.add((report.topic_id, report.difficulty.value))
        if len(seen) % every == 0:
            log.info("topic floor: %d cells filled so far", len(seen))

    return log_cell


def topic_floor_step(services: Services) -> TopicFloorSummary:
    """Top every live topic × difficulty up to the floor (QFORGE_TOPIC_FLOOR servable
    questions) with the offline engine, then take the coverage, with the reason for each cell
    still below it.

    Drafts are walked from each template's first variant whatever was attempted before, and
    drafts solved in any earlier run are passed over, so a run killed here and run again
    continues the same walk."""
    s = services.settings
    floor = s.topic_floor
    drafter, solver = offline_engine(services)
    topics = services.syllabus.live_topics()
    reports: list[CellReport] = []
    screens: list[Screen] = []
    with open_warehouse(s.warehouse_path) as wh:
        pool = wh.pool()
        deficits = topic_deficits(pool, topics, floor)
        if deficits:
            log.info(
                "topic floor: %d of %d topic cells below %d, %d questions short",
                len(deficits),
                3 * len(topics),
                floor,
                sum(deficits.values()),
            )
            screens, on_accept = duplicate_screens(s, wh.questions())
            reports = fill_pool(
                wh,
                drafter,
                solver,
                deficits,
                max_attempts_per_question=s.max_attempts_per_question,
                on_progress=_log_topic_progress(200),
                screens=screens,
                on_accept=on_accept,
                resume=Resume({}, frozenset(wh.attempted_draft_ids()), {}),
                held=cell_groups(pool),
            )
            pool = wh.pool()
    explain = shortfall_reasons(drafter, solver, pool, floor, screens) if floor else None
    coverage = topic_coverage(services.syllabus, servable_counts(pool), floor, explain)
    services.store.put(TOPIC_COVERAGE_KEY, topic_coverage_bytes(floor, spent_cells(coverage)))
    summary = TopicFloorSummary(floor, tuple(reports), tuple(coverage))
    log.info("%s; %d questions added", coverage_summary(coverage, floor), summary.accepted)
    return summary


def figure_floor_step(services: Services, date: dt.date) -> int:
    """Top every figure template up to QFORGE_FIGURE_FLOOR never-used questions, and every
    organic unit × difficulty up to as many never-used questions with structures (from the
    organic templates that show them), with the offline engine, so the date's paper, built next,
    finds its figure and structure questions; returns how many were added.
    Once the paper is stored there is nothing to do (a rerun of the night adds nothing). Each
    template's drafts start after those it has had solved (drawing a figure is the cost of a
    draft, so none is drawn again only to be passed over), and a draft solved before is never
    solved again."""
    s = services.settings
    drafter, solver = offline_engine(services)
    if not s.figure_floor or not isinstance(drafter, OfflineDrafter):
        return 0
    syllabus = services.syllabus
    shown = structure_templates(drafter.organic)
    # Figures and structures are counted apart (papers ask for each). Figure questions are kept
    # per template (a paper takes 2 or 3 a subject, one a template); structures per unit and
    # difficulty (Chemistry takes 4 to 12 from any organic template, and the topic floor and
    # fills make many more).
    kinds: list[tuple[str, FigureDrafter, Sequence[Seeded], pl.Expr, bool]] = [
        ("figure", FigureDrafter(syllabus, drafter.figures), drafter.figures, FIGURES, False),
        ("structure", FigureDrafter(syllabus, (), shown), shown, STRUCTURES, True),
    ]
    added = 0
    with open_warehouse(s.warehouse_path) as wh:
        if wh.paper(daily_exam_id(date)) is not None:
            return 0
        pool = wh.pool()
        floor = s.figure_floor
        short = [
            (kind, only, deficits)
            for kind, only, templates, drawn, per_cell in kinds
            if (deficits := figure_deficits(pool, templates, syllabus, floor, drawn, per_cell))
        ]
        if not short:
            return 0
        screens, on_accept = duplicate_screens(s, wh.questions())
        for kind, only, deficits in short:
            log.info(
                "figure floor: %d cells short of %s questions, %d questions",
                len(deficits),
                kind,
                sum(deficits.values()),
            )
            reports = fill_pool(
                wh,
                only,
                solver,
                deficits,
                max_attempts_per_question=s.max_attempts_per_question,
                screens=screens,
                on_accept=on_accept,
            )
            added += sum(r.accepted for r in reports)
    log.info("figure floor: %d figure and structure questions added", added)
    return added


def relabel_step(services: Services) -> int:
    """Store anew under the rubric's label every stored question the rubric now rates
    differently, and withdraw the old record with the reason `relabelled` (pipeline.relabel);
    how many. One transaction: a run killed here relabels all of them next time, or none."""
    s = services.settings
    rater = Rater(TEMPLATES_BY_ID, services.kb, services.syllabus, load_element_data(s.data_dir))
    with open_warehouse(s.warehouse_path) as wh:
        withdrawn = {i for i, _, _ in wh.withdrawals()}
        stored = wh.questions()
        pairs = relabellings((q for q in stored if q.question_id not in withdrawn), rater.rating)
        # A record already stored under the new id (a label changed back, or the same question
        # in another option order, which ids ignore) is the one to point at, never rewritten.
        known = {q.question_id for q in stored}
        with wh.transaction():
            wh.insert_questions([new for _, new in pairs if new.question_id not in known])
            wh.relabel([(old.question_id, new.question_id) for old, new in pairs], RELABELLED)
    if pairs:
        log.info("relabelled %d stored questions under the difficulty rubric", len(pairs))
    return len(pairs)


def index_questions_step(settings: Settings) -> int:
    """Add stored questions not yet in the knowledge store's near-duplicate table."""
    kstore = build_knowledge_store(settings)
    with open_warehouse(settings.warehouse_path) as wh:
        known = kstore.known_ids("questions")
        fresh = wh.questions([i for i in wh.question_ids() if i not in known])
    added = kstore.add_questions(question_rows(fresh, kstore.embedder))
    kstore.build_indexes()
    log.info("kb: %d questions added to the near-duplicate index", added)
    return added


def build_paper_step(services: Services, date: dt.date) -> Paper:
    """The stored paper for the date, assembling and storing it first if it is new."""
    with open_warehouse(services.settings.warehouse_path) as wh:
        existing = wh.paper(daily_exam_id(date))
        if existing is not None:
            return existing
        outcome = _daily_outcome(services, wh, date)
        if isinstance(outcome, Shortfall):
            raise ShortfallError(outcome.cells)
        wh.insert_paper(outcome)
        return outcome


EXPORT_BATCH = 500


def export_step(services: Services, paper: Paper) -> ExportReport:
    """Write the files of questions not exported yet, then the dated paper (and its variants).

    Only new questions' files (rendered when they were stored) are read and written: the cost
    grows with what is new, not with the pool.
    """
    store = services.store
    exported = exported_question_ids(store)
    already = len(exported)
    with open_warehouse(services.settings.warehouse_path) as wh:
        fresh_ids = [i for i in wh.question_ids() if i not in exported]
        paper_questions = wh.questions(list(paper.question_ids))
        pool = wh.pool()
        # Figures before the files that show them: no published question names a missing image.
        figured = set(pool.filter(pl.col("figure"))["question_id"].to_list())
        images = write_figure_images(store, wh.questions([i for i in fresh_ids if i in figured]))
        if images:
            log.info("export: %d figure image files written", len(images))

        def files() -> Iterator[tuple[str, bytes]]:
            # Rendered when their questions were stored: this only writes bytes. One stream,
            # so a first export into an empty tree is staged and switched in at once.
            for n, item in enumerate(wh.question_files(fresh_ids), 1):
                yield item
                if n % EXPORT_BATCH == 0 or n == len(fresh_ids):
                    log.info("export: %d of %d new question files written", n, len(fresh_ids))

        write_rendered_files(store, files(), exported)
        withdrawals = wh.withdrawals()
        servable = servable_counts(pool)
    # Recorded before the paper, so the paper's export finds them and renders none again.
    record_exported(store, exported)
    report = export_daily_paper(store, paper, paper_questions, paper_questions)
    log.info(
        "export: dated paper %s %s",
        paper.exam_id,
        "written" if report.paper_written else "unchanged",
    )
    previews = write_previews(store, paper_document(paper, paper_questions), paper_questions)
    documents = static_documents(
        services.syllabus,
        exported_daily_dates(store),
        [WithdrawalRow(question_id=i, reason=r, withdrawn_at=t) for i, r, t in withdrawals],
        servable,
        paper.exam_date,
    )
    for key, data in documents.items():  # lists that change; the pointer still comes last
        if store.get(key) != data:
            store.put(key, data)
    log.info("export: %d preview pages; index, syllabus and API document current", previews)
    return ExportReport(len(fresh_ids), already, report.paper_written)


def publish_step(services: Services, paper: Paper) -> bool:
    """Move the daily pointer to the paper (last, so it never points at a missing file).

    With QFORGE_PUBLISH_BUCKET set, the tree is then mirrored to that bucket, which again
    switches its pointer last.
    """
    assert paper.exam_date is not None
    moved = publish_daily_pointer(services.store, paper.exam_date)
    s = services.settings
    if s.publish_bucket:
        from core.providers import publish_target
        from site_builder.s3 import publish_tree

        report = publish_tree(
            services.store, publish_target(s), timezone=s.timezone, workers=s.publish_workers
        )
        log.info("publish: %d uploaded, %d already there", report.uploaded, report.skipped)
    return moved


@dataclass(frozen=True)
class OutboxSummary:
    taken: int
    already_stored: int
    refused: tuple[OutboxProblem, ...]


def ingest_outbox_step(services: Services) -> OutboxSummary:
    """Take the questions the worker verified since the last run (each checked, none twice)."""
    store = services.store
    with open_warehouse(services.settings.warehouse_path) as wh:
        known = set(wh.question_ids())
        keys = store.keys(OUTBOX_PREFIX)
        fresh = [k for k in keys if k.removeprefix(OUTBOX_PREFIX) not in known]
        entries, refused = read_outbox(store, fresh, outbox_entry)
        with wh.transaction():
            wh.insert_questions([e.question for e in entries])
            wh.insert_attempts([a for e in entries for a in e.attempts])
    for problem in refused:
        log.warning("outbox: refused %s: %s", problem.key, problem.reason)
    log.info("outbox: %d questions taken, %d refused", len(entries), len(refused))
    return OutboxSummary(len(entries), len(keys) - len(fresh), tuple(refused))


def snapshot_step(services: Services) -> int:
    """Publish the servable pool for the worker, and the analysts' Parquet snapshot."""
    s = services.settings
    with open_warehouse(s.warehouse_path) as wh:
        data = pool_snapshot(wh.pool(), wh.question_records())
        wh.write_snapshot(s.warehouse_export_dir)
    services.store.put(POOL_SNAPSHOT_KEY, data)  # one atomic put: the worker sees old or new
    log.info("snapshot: pool %d bytes; warehouse views in %s", len(data), s.warehouse_export_dir)
    return len(data)


def run_facts(settings: Settings, since: dt.datetime) -> tuple[list[AttemptRow], list[CoverageRow]]:
    """Attempts since a moment (per generator, verdict, reason) and pool coverage, for reports."""
    with open_warehouse(settings.warehouse_path) as wh:
        return wh.verdict_counts(since), wh.coverage()


def batch_fill_step(services: Services, date: dt.date) -> BatchFillReport | None:
    """Batch mode's nightly step: advance open fills, or start one for the date's shortfall."""
    s = services.settings
    if s.llm != "openai" or not s.llm_batch:
        return None
    with open_warehouse(s.warehouse_path) as wh:
        outcome = _daily_outcome(services, wh, date)
        cells = dict(outcome.cells) if isinstance(outcome, Shortfall) else {}
        screens, on_accept = duplicate_screens(s, wh.questions())
        return batch_fill(services, wh, cells, screens=screens, on_accept=on_accept)
