"""The nightly steps as plain functions over Services: what each Prefect task calls."""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from pathlib import Path

from core.records import Paper
from core.settings import Settings
from core.warehouse import open_warehouse
from flows.kb_services import (
    build_ingestor,
    build_knowledge_store,
    own_duplicate_gate,
    reference_screens,
)
from flows.services import Services
from kb.ingest.run import IngestReport
from kb.store import question_rows
from pipeline.assembly import daily_exam_id, daily_paper
from pipeline.pool import CellReport, fill_pool, paper_needs, pool_deficits
from site_builder.export import ExportReport, export_daily_paper, publish_daily_pointer

log = logging.getLogger("qforge")


@dataclass(frozen=True)
class FillSummary:
    skipped_because_paper_exists: bool
    cells: tuple[CellReport, ...]

    @property
    def accepted(self) -> int:
        return sum(c.accepted for c in self.cells)

    @property
    def rejected(self) -> int:
        return sum(c.rejected for c in self.cells)


def _log_cell(report: CellReport) -> None:
    log.info(
        "pool %s/%s: %d/%d accepted, %d rejected%s",
        report.subject.value,
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


def fill_pool_step(services: Services, date: dt.date) -> FillSummary:
    """Top up the pool with fresh verified questions for the date's paper (none if it exists)."""
    s = services.settings
    with open_warehouse(s.warehouse_path) as wh:
        if wh.paper(daily_exam_id(date)) is not None:
            return FillSummary(True, ())
        deficits = pool_deficits(wh.pool(), paper_needs())
        gate = own_duplicate_gate(s, wh.questions()) if deficits else None
        cells = fill_pool(
            wh,
            services.drafter,
            services.solver,
            deficits,
            max_attempts_per_question=s.max_attempts_per_question,
            on_progress=_log_cell,
            screens=[*reference_screens(s), *([gate.screen] if gate else [])],
            on_accept=(lambda q: gate.add([q])) if gate else None,
        )
    return FillSummary(False, tuple(cells))


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
        paper = daily_paper(wh.pool(), date, services.syllabus.unit_order())
        wh.insert_paper(paper)
        return paper


def export_step(services: Services, paper: Paper) -> ExportReport:
    """Write every question file, then the dated paper."""
    with open_warehouse(services.settings.warehouse_path) as wh:
        everything = wh.questions()
        by_id = {q.question_id: q for q in everything}
        paper_questions = [by_id[i] for i in paper.question_ids]
    return export_daily_paper(services.store, paper, paper_questions, everything)


def publish_step(services: Services, paper: Paper) -> bool:
    """Move the daily pointer to the paper (last, so it never points at a missing file)."""
    assert paper.exam_date is not None
    return publish_daily_pointer(services.store, paper.exam_date)
