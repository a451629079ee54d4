"""The pool fill through a Batch API: every run moves each open fill one step on.

A fill is two batches. Run 1 stores a plan of draft requests, then uploads it and creates the
draft batch. A later run finds it complete, parses the drafts, refuses what hygiene and the
screens refuse, and submits the rest to the solver as a second batch. The run after that judges
the answers and commits attempts and questions in one transaction. Between runs a batch is only
polled. Every record is written once (`put_new`) under `internal/llm-batches/<fill>/`, and a plan
is stored before its batch is created: a run that dies after `batches.create` finds the batch by
the plan's key in the batch metadata and never submits it again.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from core.ids import question_id
from core.pool import UnitCell
from core.records import Attempt, Draft, Question
from core.storage import ObjectStore
from core.warehouse import Warehouse
from pipeline.compose import Services
from pipeline.fill.engine import Intake, commit, rejection_kind, verdict
from pipeline.fill.pool import Cell
from pipeline.llm.batch import (
    ENDPOINT,
    MAX_REQUESTS,
    PREFIX,
    TERMINAL,
    BatchModel,
    BatchRecord,
    DoneRecord,
    DraftPlan,
    Fill,
    ModelCall,
    OutputFile,
    SolvePlan,
    Stage,
    batch_answer,
    batch_answers,
    batch_calls,
    batch_content_key,
    batch_drafts,
    draft_lines,
    fill_id_of,
    fills_of,
    jsonl,
    lines_key,
    output_lines,
    record_bytes,
    record_key,
    rejection_name,
    solve_lines,
)
from pipeline.llm.draft import DraftRequest, OpenAIDrafter
from pipeline.llm.rejections import Rejection
from pipeline.llm.solve import OpenAISolver
from pipeline.llm.usage import UsageLedger, transport_outcome
from pipeline.verify.gate import Screen, screen_refusal, screened_out, unanswered

log = logging.getLogger("qforge")
COMPLETION_WINDOW = "24h"
# A batch is created after its plan is stored; allow this much clock skew with the provider
# when looking for it, so the search stops at the plan's age instead of paging through history.
CLOCK_SKEW = dt.timedelta(hours=1)
_M = TypeVar("_M", bound=BatchModel)


@dataclass(frozen=True)
class BatchSetup:
    """What batch mode takes from the configured providers (QFORGE_LLM=openai)."""

    client: Any
    prompts_dir: Path
    drafter: OpenAIDrafter
    draft_call: ModelCall
    solve_call: ModelCall
    solver: str
    samples: int
    min_confidence: float
    ledger: UsageLedger
    drafts_per_question: float
    max_attempts_per_question: int


def batch_setup(services: Services) -> BatchSetup:
    """The batch settings of the configured drafter and solver (both must be OpenAI's)."""
    drafter, solver = services.drafter, services.solver
    if not isinstance(drafter, OpenAIDrafter) or not isinstance(solver, OpenAISolver):
        raise ValueError("batch mode needs QFORGE_LLM=openai")
    temperature = solver.temperature
    if temperature is None:  # as the synchronous solver: deterministic unless it votes
        temperature = 0.0 if solver.samples == 1 else 0.7
    s = services.settings
    return BatchSetup(
        client=drafter.client,
        prompts_dir=drafter.prompts_dir,
        drafter=drafter,
        draft_call=ModelCall(drafter.model, drafter.max_tokens, drafter.temperature),
        solve_call=ModelCall(solver.model, solver.max_tokens, temperature),
        solver=solver.name,
        samples=solver.samples,
        min_confidence=solver.min_confidence,
        ledger=drafter.ledger,
        drafts_per_question=s.llm_batch_drafts_per_question,
        max_attempts_per_question=s.max_attempts_per_question,
    )


@dataclass(frozen=True)
class PendingBatch:
    """A batch the provider is still working on: the next run polls it again."""

    fill_id: str
    stage: Stage
    batch_id: str
    status: str
    completed: int
    failed: int
    total: int


@dataclass
class BatchFillReport:
    """What one run did: batches created and pending, fills finished, drafts judged."""

    # skipped: attempted in an earlier run; unsolved: no solver reply, so no attempt recorded.
    submitted: list[BatchRecord] = field(default_factory=list)
    pending: list[PendingBatch] = field(default_factory=list)
    finished: list[DoneRecord] = field(default_factory=list)
    accepted: int = 0
    rejected: int = 0
    skipped: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    unsolved: Counter[str] = field(default_factory=Counter)
    draft_rejections: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    dry_cells: list[Cell | UnitCell] = field(default_factory=list)


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def batch_fill(
    services: Services,
    wh: Warehouse,
    deficits: Mapping[Cell, int] | Mapping[UnitCell, int],
    *,
    screens: Sequence[Screen] = (),
    on_accept: Callable[[Question], None] | None = None,
    now: Callable[[], dt.datetime] = _utc_now,
) -> BatchFillReport:
    """Advance every open fill one step; with none open, start one for `deficits`.

    A fill that finishes in this run does not start the next one: its questions change what
    the pool lacks, and the caller's deficits were counted before them.
    """
    setup = batch_setup(services)
    store = services.store
    fills = _stored_fills(store)
    report = BatchFillReport()
    step = _Step(setup, store, wh, screens, on_accept, now, report)
    open_fills = [f for f in fills if f.open]
    for fill in open_fills:
        step.run_guarded(fill.fill_id, partial(step.advance, fill))
    if not open_fills and any(n > 0 for n in deficits.values()):
        plan = step.store_draft_plan(deficits, {f.fill_id for f in fills})
        if plan is not None:
            step.run_guarded(plan.fill_id, partial(step.submit_drafts, plan))
    return report


def report_lines(report: BatchFillReport) -> list[str]:
    """The report as lines for a terminal or a Markdown list."""

    def counted(counts: Mapping[str, int]) -> str:
        return ", ".join(f"{k} ×{v}" for k, v in sorted(counts.items())) or "none"

    lines = [
        f"batch fill: {len(report.submitted)} submitted, {len(report.pending)} pending, "
        f"{len(report.finished)} finished"
    ]
    for r in report.submitted:
        lines.append(
            f"  submitted {r.stage:6} {r.batch_id}  {len(r.custom_ids)} requests  ({r.fill_id})"
        )
    for p in report.pending:
        lines.append(
            f"  pending   {p.stage:6} {p.batch_id}  {p.status}: {p.completed}/{p.total} done,"
            f" {p.failed} failed  ({p.fill_id})"
        )
    for d in report.finished:
        unsolved = sum(n for _, n in d.unsolved)
        lines.append(
            f"  finished  {d.fill_id}  {d.outcome}: +{d.accepted} stored, {d.rejected} rejected"
            f" ({counted(dict(d.reasons))}), {d.skipped} skipped, {unsolved} unsolved"
        )
    if report.draft_rejections:
        lines.append(f"  drafts refused: {counted(report.draft_rejections)}")
    if report.unsolved:
        lines.append(f"  no solver reply (no attempt recorded): {counted(report.unsolved)}")
    for cell in report.dry_cells:
        names = " ".join(str(getattr(part, "value", part)) for part in cell)
        lines.append(f"  nothing to ask for in {names}")
    lines += [f"  provider error, tried again next run: {e}" for e in report.errors]
    return lines


def _stored_fills(store: ObjectStore) -> list[Fill]:
    records = {}
    for key in store.keys(PREFIX):
        data = store.get(key)
        if data is not None:
            records[key] = data
    return fills_of(records)


def _stored(store: ObjectStore, key: str, record: _M) -> _M:
    """The record stored at key: this one, or the one an earlier run stored there first."""
    if not store.put_new([(key, record_bytes(record))]):
        # On disk before the batch it plans is created: a plan lost to a power cut would be
        # re-made with a later time, and the search for its batch could stop short of it.
        store.flush()
        return record
    data = store.get(key)
    assert data is not None, key
    return type(record).model_validate_json(data)


@dataclass
class _Step:
    setup: BatchSetup
    store: ObjectStore
    wh: Warehouse
    screens: Sequence[Screen]
    on_accept: Callable[[Question], None] | None
    now: Callable[[], dt.datetime]
    report: BatchFillReport

    def run_guarded(self, fill_id: str, action: Callable[[], None]) -> None:
        """Run one fill's step; an error (the provider's, after retries, or ours) is reported."""
        # Nothing is recorded for a step that failed, so the next run tries the same step again.
        import openai

        try:
            action()
        except openai.OpenAIError as exc:
            self.report.errors.append(f"{fill_id}: {transport_outcome(exc)}")
            log.warning("batch: %s: provider error %s", fill_id, exc)
        except Exception as exc:  # a bug or odd output must not fail the nightly every night
            self.report.errors.append(f"{fill_id}: internal_error: {type(exc).__name__}")
            log.exception("batch: %s: step failed", fill_id)

    # -- submitting ---------------------------------------------------------------------------

    def store_draft_plan(
        self, deficits: Mapping[Cell, int] | Mapping[UnitCell, int], fill_ids: set[str]
    ) -> DraftPlan | None:
        """The stored plan of a new fill: enough draft requests for each cell's deficit."""
        s = self.setup
        starts = self.wh.attempt_counts()
        requests: dict[str, DraftRequest] = {}
        cap = MAX_REQUESTS // s.samples  # each draft becomes `samples` solve requests
        for cell, needed in deficits.items():
            if needed <= 0:
                continue
            unit_id = cell[2] if len(cell) == 3 else None
            wanted = min(
                math.ceil(needed * s.drafts_per_question), needed * s.max_attempts_per_question
            )
            stream = s.drafter.requests(cell[0], cell[1], starts, unit_id)
            got = list(islice(stream, wanted))
            if not got:
                self.report.dry_cells.append(cell)
            requests.update((r.template_id, r) for r in got)
        if not requests:
            return None
        chosen = list(requests.values())[:cap]
        lines = draft_lines(s.prompts_dir, chosen, s.draft_call)
        key = lines_key(lines)
        retry = 0  # the same requests again after a fill of them failed: a new fill
        while fill_id_of(key, retry) in fill_ids:
            retry += 1
        fill_id = fill_id_of(key, retry)
        plan = DraftPlan(
            fill_id=fill_id,
            content_key=batch_content_key(fill_id, "drafts", lines),
            model=s.draft_call.model,
            requests=tuple(chosen),
            created_at=self.now(),
        )
        return _stored(self.store, record_key(fill_id, "drafts-plan"), plan)

    def submit_drafts(self, plan: DraftPlan) -> None:
        lines = draft_lines(self.setup.prompts_dir, plan.requests, self.setup.draft_call)
        custom_ids = tuple(r.template_id for r in plan.requests)
        self._submit(plan.fill_id, "drafts", plan.content_key, lines, custom_ids, plan.created_at)

    def submit_solves(self, plan: SolvePlan) -> None:
        lines = solve_lines(
            self.setup.prompts_dir, plan.drafts, plan.samples, self.setup.solve_call
        )
        self._submit(
            plan.fill_id, "solves", plan.content_key, lines, plan.custom_ids, plan.created_at
        )

    def _submit(
        self,
        fill_id: str,
        stage: Stage,
        content_key: str,
        lines: list[dict[str, Any]],
        custom_ids: tuple[str, ...],
        planned_at: dt.datetime,
    ) -> None:
        """Create the batch unless one with this key exists already, then record it."""
        client = self.setup.client
        batch = self._find_batch(content_key, planned_at - CLOCK_SKEW)
        if batch is None:
            upload = client.files.create(
                file=(f"qforge-{content_key}.jsonl", jsonl(lines)), purpose="batch"
            )
            batch = client.batches.create(
                input_file_id=upload.id,
                endpoint=ENDPOINT,
                completion_window=COMPLETION_WINDOW,
                metadata={"qforge_key": content_key, "qforge_fill": fill_id, "qforge_stage": stage},
            )
            log.info(
                "batch: %s %s submitted as %s (%d requests)", fill_id, stage, batch.id, len(lines)
            )
        else:
            log.info("batch: %s %s was submitted already as %s", fill_id, stage, batch.id)
        record = BatchRecord(
            fill_id=fill_id,
            stage=stage,
            content_key=content_key,
            batch_id=batch.id,
            input_file_id=batch.input_file_id,
            custom_ids=custom_ids,
            created_at=self.now(),
        )
        record = _stored(self.store, record_key(fill_id, stage), record)
        self.report.submitted.append(record)
        self._report_pending(fill_id, stage, batch)

    def _find_batch(self, content_key: str, not_before: dt.datetime) -> Any:
        """The batch whose metadata names this key, among those created since `not_before`.

        A provider that does not list batches (GET /v1/batches answers 404, 405 or 501) cannot
        show one a killed run created: the stored records are then all there is to go by.
        """
        import openai

        cutoff = not_before.timestamp()
        try:
            for batch in self.setup.client.batches.list(limit=100):  # newest first, paged
                if batch.created_at < cutoff:
                    return None
                if (batch.metadata or {}).get("qforge_key") == content_key:
                    return batch
        except openai.APIStatusError as exc:
            if exc.status_code not in (404, 405, 501):
                raise
            log.warning(
                "batch: GET /v1/batches is not supported here (http_%d): going by the stored "
                "records only",
                exc.status_code,
            )
        return None

    def _report_pending(self, fill_id: str, stage: Stage, batch: Any) -> None:
        counts = batch.request_counts
        self.report.pending.append(
            PendingBatch(
                fill_id=fill_id,
                stage=stage,
                batch_id=batch.id,
                status=batch.status,
                completed=counts.completed if counts else 0,
                failed=counts.failed if counts else 0,
                total=counts.total if counts else 0,
            )
        )

    # -- advancing ----------------------------------------------------------------------------

    def advance(self, fill: Fill) -> None:
        """One step of an open fill: submit what is planned, or collect what is finished."""
        assert fill.draft_plan is not None
        if fill.drafts is None:
            self.submit_drafts(fill.draft_plan)
        elif fill.solve_plan is None:
            collected = self._collected(fill.fill_id, "drafts", fill.drafts.batch_id)
            if collected is None:
                return
            status, output = collected
            if output is None:
                self._write_done(fill.fill_id, f"drafts_{status}")
                return
            plan = self._store_solve_plan(fill.draft_plan, fill.drafts, output, status)
            if plan.drafts:
                self.submit_solves(plan)
            else:
                self._write_done_of(plan, "")
        elif fill.solves is None:
            self.submit_solves(fill.solve_plan)
        else:
            collected = self._collected(fill.fill_id, "solves", fill.solves.batch_id)
            if collected is None:
                return
            status, output = collected
            if output is None:
                self._write_done_of(fill.solve_plan, f"solves_{status}")
                return
            self._commit_verdicts(fill.solve_plan, fill.solves, output, status)

    def _collected(
        self, fill_id: str, stage: Stage, batch_id: str
    ) -> tuple[str, OutputFile | None] | None:
        """A batch that has ended: its status and its output (None when it wrote none); None,
        and the batch reported pending, while the provider still works on it."""
        batch = self.setup.client.batches.retrieve(batch_id)
        if batch.status not in TERMINAL:
            self._report_pending(fill_id, stage, batch)
            return None
        return batch.status, self._download_output(batch)

    def _download_output(self, batch: Any) -> OutputFile | None:
        """The batch's output and error files read together (None when it has neither)."""
        ids = [i for i in (batch.output_file_id, batch.error_file_id) if i]
        if not ids:
            return None
        return output_lines(*(self.setup.client.files.content(i).text for i in ids))

    def _store_solve_plan(
        self, plan: DraftPlan, record: BatchRecord, output: OutputFile, status: str
    ) -> SolvePlan:
        """Parse the drafts, record what hygiene and screens refuse, store the solve plan."""
        s = self.setup
        for call in batch_calls(output, record.custom_ids, "batch_draft", plan.model):
            s.ledger.record(call)
        intake = Intake(self.wh.attempted_draft_ids())
        refused: list[Attempt] = []
        drafts: list[Draft] = []
        rejections: Counter[str] = Counter()
        reasons: Counter[str] = Counter()
        skipped = 0
        for _, result in batch_drafts(plan.requests, output):
            if isinstance(result, Rejection):
                rejections[rejection_name(result)] += 1
                continue
            if intake.passed_over(result, question_id(result.content)):  # solved before
                skipped += 1
                continue
            refusal = screen_refusal(result, self.screens)
            if refusal is not None:
                refused.append(screened_out(result, refusal))
                reasons[rejection_kind(refusal)] += 1
                continue
            drafts.append(result)
        if output.unreadable:
            rejections["transport: unreadable_output_line"] += output.unreadable
        with self.wh.transaction():
            self.wh.insert_attempts(refused)
        self.report.draft_rejections.update(rejections)
        self.report.rejected += len(refused)
        self.report.skipped += skipped
        self.report.reasons.update(reasons)
        to_solve = tuple(drafts[: MAX_REQUESTS // s.samples])
        lines = solve_lines(s.prompts_dir, to_solve, s.samples, s.solve_call)
        solve_plan = SolvePlan(
            fill_id=plan.fill_id,
            content_key=batch_content_key(plan.fill_id, "solves", lines),
            model=s.solve_call.model,
            solver=s.solver,
            samples=s.samples,
            min_confidence=s.min_confidence,
            drafts=to_solve,
            drafts_status=status,
            draft_rejections=tuple(sorted(rejections.items())),
            screened=tuple(sorted(reasons.items())),
            skipped=skipped,
            created_at=self.now(),
        )
        return _stored(self.store, record_key(plan.fill_id, "solves-plan"), solve_plan)

    def _commit_verdicts(
        self, plan: SolvePlan, record: BatchRecord, output: OutputFile, status: str
    ) -> None:
        """Judge every draft's answer and commit attempts and questions in one transaction."""
        for call in batch_calls(output, record.custom_ids, "batch_solve", plan.model):
            self.setup.ledger.record(call)
        attempted = self.wh.attempted_draft_ids()
        attempts: list[Attempt] = []
        questions: list[Question] = []
        reasons: Counter[str] = Counter()
        unsolved: Counter[str] = Counter()
        skipped = 0
        for draft in plan.drafts:
            if question_id(draft.content) in attempted:  # a run that died after committing
                skipped += 1
                continue
            answers = batch_answers(draft, plan.samples, output, plan.solver)
            answer = batch_answer(answers, plan.solver, plan.min_confidence)
            if answer is None:  # a sample with no reply: not solved, so no attempt is recorded
                unsolved[next(o for a in answers if (o := unanswered(a)) is not None)] += 1
                continue
            # Twins drafted in one batch pass the screens together: screen again in order.
            settled = verdict(draft, answer, self.screens, rescreen=True)
            assert settled is not None  # every sample answered (batch_answer)
            attempt, question = settled
            attempts.append(attempt)
            if question is not None:
                questions.append(question)
                if self.on_accept:
                    self.on_accept(question)
            else:
                reasons[rejection_kind(attempt.rejection_reason)] += 1
        accepted, rejected = len(questions), len(attempts) - len(questions)
        commit(self.wh, attempts, questions)
        self.report.accepted += accepted
        self.report.rejected += rejected
        self.report.skipped += skipped
        self.report.reasons.update(reasons)
        self.report.unsolved.update(unsolved)
        outcome = "" if status == "completed" else f"solves_{status}"
        self._write_done_of(plan, outcome, accepted, rejected, reasons, unsolved)

    def _write_done_of(
        self,
        plan: SolvePlan,
        outcome: str,
        accepted: int = 0,
        rejected: int = 0,
        reasons: Counter[str] | None = None,
        unsolved: Counter[str] | None = None,
    ) -> None:
        screened = Counter(dict(plan.screened))
        outcomes = [o for o in (_stage_outcome("drafts", plan.drafts_status), outcome) if o]
        self._write_done(
            plan.fill_id,
            ", ".join(outcomes) or "completed",
            accepted=accepted,
            rejected=rejected + screened.total(),
            skipped=plan.skipped,
            reasons=screened + (reasons or Counter()),
            unsolved=unsolved,
            draft_rejections=Counter(dict(plan.draft_rejections)),
        )

    def _write_done(
        self,
        fill_id: str,
        outcome: str,
        *,
        accepted: int = 0,
        rejected: int = 0,
        skipped: int = 0,
        reasons: Counter[str] | None = None,
        unsolved: Counter[str] | None = None,
        draft_rejections: Counter[str] | None = None,
    ) -> None:
        record = DoneRecord(
            fill_id=fill_id,
            outcome=outcome,
            accepted=accepted,
            rejected=rejected,
            skipped=skipped,
            reasons=tuple(sorted((reasons or Counter()).items())),
            unsolved=tuple(sorted((unsolved or Counter()).items())),
            draft_rejections=tuple(sorted((draft_rejections or Counter()).items())),
            created_at=self.now(),
        )
        record = _stored(self.store, record_key(fill_id, "done"), record)
        self.report.finished.append(record)
        log.info("batch: %s done: %s", fill_id, outcome)


def _stage_outcome(stage: str, status: str) -> str:
    return "" if status == "completed" else f"{stage}_{status}"
