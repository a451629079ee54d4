"""The nightly's feedback steps: take students' answers and reports from the outbox, fit the
item statistics, triage reported and flagged questions. Each is idempotent: a batch, a report,
a calibration run and a triage decision are each made once for the same evidence."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections import Counter

from core.feedback import ANSWERS_PREFIX, REPORTS_PREFIX, AnswerBatch
from core.settings import Settings
from core.warehouse import open_warehouse
from core.warehouse_feedback import CALIBRATED_MIN_RESPONSES
from pipeline.calibrate import calibrate
from pipeline.compose import Services, offline_engine
from pipeline.feedback_summary import (
    CalibrationSummary,
    FeedbackSummary,
    calibration_summary,
)
from pipeline.serve.outbox import (
    OutboxProblem,
    answer_batch_entry,
    read_outbox,
    report_entry,
)
from pipeline.triage import (
    Decision,
    NoReply,
    Triage,
    fresh_solves,
    statistical_flags,
    triage_id,
    triaged,
)
from pipeline.verify.gate import Solver

log = logging.getLogger("qforge.feedback")

# What a calibration run is fitted with: a new method is a new run over the same answers.
FIT_METHOD = "2pl-mml-em-v1"


def keyed_answer_batch(key: str, raw: bytes) -> tuple[str, AnswerBatch] | OutboxProblem:
    """The batch under key with its key (what the warehouse records it was taken from)."""
    got = answer_batch_entry(key, raw)
    return got if isinstance(got, OutboxProblem) else (key, got)


def ingest_feedback_step(services: Services) -> FeedbackSummary:
    """Take the answer batches and error reports the worker stored since the last run."""
    store = services.store
    with open_warehouse(services.settings.warehouse_path) as wh:
        taken = wh.ingested_batch_keys()
        fresh = [k for k in store.keys(ANSWERS_PREFIX) if k not in taken]
        batches, refused = read_outbox(store, fresh, keyed_answer_batch)
        known = wh.report_ids()
        fresh = [
            k for k in store.keys(REPORTS_PREFIX) if k.removeprefix(REPORTS_PREFIX) not in known
        ]
        reports, refused_reports = read_outbox(store, fresh, report_entry)
        refused += refused_reports
        with wh.transaction():
            answers = wh.insert_answer_batches(batches)
            stored = wh.insert_reports(reports)
    for problem in refused:
        log.warning("feedback: refused %s: %s", problem.key, problem.reason)
    log.info(
        "feedback: %d answers in %d batches, %d reports taken; %d refused",
        answers,
        len(batches),
        stored,
        len(refused),
    )
    return FeedbackSummary(len(batches), answers, stored, tuple(refused))


def calibrate_step(services: Services) -> CalibrationSummary | None:
    """Fit item statistics and learner abilities from every answer, as a new run when the
    answers changed since the last one; None before any answer arrived."""
    with open_warehouse(services.settings.warehouse_path) as wh:
        run_id = wh.calibration_run_id(FIT_METHOD)
        new_run = not wh.has_calibration_run(run_id)
        if new_run:
            answers = wh.answers_for_calibration()
            if answers.is_empty():
                return None
            fit = calibrate(answers)
            summary = {
                "answers": answers.height,
                **{f.name: getattr(fit.summary, f.name) for f in dataclasses.fields(fit.summary)},
            }
            with wh.transaction():
                wh.insert_calibration(run_id, summary, fit.items, fit.learners)
            log.info(
                "calibrate: %d items, %d learners, %d responses (%s)",
                fit.summary.items,
                fit.summary.learners,
                fit.summary.responses,
                "converged" if fit.summary.converged else "NOT converged",
            )
        stats = wh.item_stats(run_id)
        run = wh.calibration_run(run_id)
    return calibration_summary(run, stats, new_run)


def review_queue(settings: Settings) -> list[dict[str, object]]:
    """The questions waiting for a person (core.warehouse_feedback.review_queue), for reports."""
    with open_warehouse(settings.warehouse_path) as wh:
        return wh.review_queue().to_dicts()


def triage_solvers(services: Services) -> tuple[Solver, ...]:
    """The offline solver, and the model solver when one is configured."""
    offline = offline_engine(services)[1]
    return (offline, services.solver) if services.settings.llm == "openai" else (offline,)


def triage_step(services: Services) -> tuple[Triage, ...]:
    """Decide on every reported or statistically flagged question not withdrawn, once per new
    evidence: fresh solves, then withdraw, queue for review, or confirm. Each decision is
    committed as it is made, so a retry or a killed run never pays for a solve again."""
    solvers = triage_solvers(services)
    with open_warehouse(services.settings.warehouse_path) as wh:
        withdrawn = {i for i, _, _ in wh.withdrawals()}
        reports = wh.reports()
        run_id = wh.latest_calibration_run()
        stats = {}
        if run_id is not None:
            stats = {row["question_id"]: row for row in wh.item_stats(run_id).to_dicts()}
        reported: dict[str, list[dict[str, object]]] = {}
        for row in reports.to_dicts():
            reported.setdefault(str(row["question_id"]), []).append(row)
        flags = {
            q: found
            for q, row in stats.items()
            if (found := statistical_flags(row, CALIBRATED_MIN_RESPONSES))
        }
        done = wh.triage_ids()
        todo: dict[str, str] = {}
        for q in sorted(set(reported) | set(flags)):
            if q in withdrawn:
                continue
            tid = triage_id(q, [str(r["report_id"]) for r in reported.get(q, [])], flags.get(q, ()))
            if tid not in done:
                todo[q] = tid
        decisions: list[Triage] = []
        for question in wh.questions(list(todo)):
            q = question.question_id
            try:
                solves = fresh_solves(question, solvers)
            except NoReply as exc:  # nothing recorded: tomorrow's run asks again
                log.warning("triage: %s waits: %s", q, exc)
                continue
            t = triaged(question, reported.get(q, []), flags.get(q, ()), solves)
            row = {
                "triage_id": todo[q],
                "question_id": q,
                "decision": t.decision.value,
                "reports": t.reports,
                "run_id": run_id,
                "flags": json.dumps([str(f) for f in t.flags]),
                "solves": json.dumps([dataclasses.asdict(s) for s in t.solves]),
                "why": t.why,
            }
            with wh.transaction():  # the decision and its withdrawal together
                wh.insert_triage([row])
                if t.decision is Decision.WITHDRAWN:
                    wh.withdraw(q, f"triage: {t.why}")
            decisions.append(t)
    counts = Counter(t.decision.value for t in decisions)
    log.info(
        "triage: %s", ", ".join(f"{n} {d}" for d, n in sorted(counts.items())) or "nothing new"
    )
    return tuple(decisions)
