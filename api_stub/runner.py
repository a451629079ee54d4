"""The worker's jobs: served from the pool snapshot at once, or topped up by generation.

Job state lives in the object store (`pipeline.serve.jobs`), so any replica answers a poll and a job
whose replica died is taken over (one lease per take-over, created atomically) or marked FAILED
after `job_max_resumes` take-overs. Each new question is written as its immutable file and to
the outbox before the job counts it, so a resumed job never pays for it twice.
"""

from __future__ import annotations

import datetime as dt
import gc
import json
import logging
import os
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from api_stub.cache import AnswerCache
from api_stub.pool_cache import PoolCache
from api_stub.requests import exam_order, practice_order
from core.pool import pool_rows
from core.providers import publish_target
from core.records import Attempt, Difficulty, OutboxEntry, Question, outbox_key
from core.settings import Settings
from core.shapes import question_file_bytes
from core.storage import ObjectStore
from pipeline.assemble.assembly import assemble_paper
from pipeline.assemble.request import Shortfall, custom_request
from pipeline.compose import Services
from pipeline.serve.job_work import Generation, exam_outcome, practice_fresh, practice_picked
from pipeline.serve.jobs import (
    ACTIVE_PREFIX,
    Job,
    JobKind,
    JobStatus,
    active_key,
    eta_seconds,
    is_stale,
    job_bytes,
    job_completed,
    job_document,
    job_failed,
    job_key,
    job_planned,
    job_progressed,
    job_taken_over,
    lease_key,
    new_job,
    read_job,
    smoothed,
)
from pipeline.serve.practice import practice_pick
from pipeline.serve.requests import ExamOrder, InsufficientPool, PracticeOrder
from site_builder.documents import (
    exam_key,
    json_bytes,
    paper_document,
    practice_document,
    practice_key,
    question_key,
    url_of,
)
from site_builder.export import figure_image_keys, write_figure_images
from site_builder.integrity import refuse_live_markup
from site_builder.s3 import mirror_keys

log = logging.getLogger("qforge.worker")

# Seconds per generated question before any was measured (the ETA's first guess).
FIRST_PACE = {"offline": 0.05, "openai": 20.0}
# Poll answers of completed jobs kept in memory (a completed job never changes): a paper's is
# about 150 KB, a practice set's 10-20 KB.
ANSWER_CACHE_BYTES = 64 * 2**20
GIL_SWITCH_SECONDS = 0.001
# How often what survived is frozen out of the cyclic collector, and how often everything is
# thawed for one full collection (see `_freeze_loop`).
FREEZE_SECONDS = 2.0
THAW_SECONDS = 600.0


def answer_bytes(document: dict[str, Any]) -> bytes:
    """A poll answer as the JSON bytes a JSONResponse would send."""
    return json.dumps(
        document, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
    ).encode("utf-8")


class Overloaded(Exception):
    """Every generation slot and queue place is taken (503); `retry_after` in seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        self.retry_after = max(1, retry_after)
        super().__init__(message)


def new_id(prefix: str) -> str:
    """A random, unguessable id with a readable prefix (`job-…`, `practice-…`, `exam-…`)."""
    return f"{prefix}-{secrets.token_urlsafe(12)}"


class _Progress:
    """A running job's bookkeeping: store each new question, then count it; keep a heartbeat."""

    def __init__(self, runner: JobRunner, job: Job, done_before: int) -> None:
        self.runner = runner
        self.job = job
        self.done_before = done_before
        self.beat = self.last = runner.monotonic()

    def accepted(self, question: Question, attempts: tuple[Attempt, ...]) -> None:
        r = self.runner
        write_figure_images(r.store, [question])  # before the file that shows them
        r.store.put_immutable(question_key(question.question_id), question_file_bytes(question))
        entry = OutboxEntry(question=question, attempts=attempts)
        r.store.put_immutable(outbox_key(question.question_id), entry.model_dump_json().encode())
        now = r.monotonic()
        r.pace = smoothed(r.pace, now - self.last)
        self.last = self.beat = now
        generated = (*self.job.generated, question.question_id)
        self.job = job_progressed(
            self.job,
            self.done_before + len(generated),
            f"generated {len(generated)} of {self.job.to_generate} new questions",
            eta_seconds(self.job.to_generate - len(generated), r.pace),
            r.clock(),
            generated,
        )
        r._save(self.job)

    def attempted(self) -> None:
        r = self.runner
        if r.monotonic() - self.beat > r.settings.job_lease_seconds / 4:  # a slow solver
            self.beat = r.monotonic()
            j = self.job
            self.job = job_progressed(j, j.done, j.message, j.eta_seconds, r.clock())
            r._save(self.job)


def public_mirror(settings: Settings, store: ObjectStore) -> Callable[[Sequence[str]], None] | None:
    """What copies a job's new files to the public bucket (QFORGE_PUBLISH_BUCKET), if set."""
    if not settings.publish_bucket:
        return None
    target = publish_target(settings)

    def mirror(keys: Sequence[str]) -> None:
        mirror_keys(store, target, keys, timezone=settings.timezone)

    return mirror


class JobRunner:
    """Runs practice and exam jobs for the worker; built once at worker start."""

    def __init__(
        self,
        services: Services,
        clock: Callable[[], dt.datetime] | None = None,
        owner: str | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        mirror: Callable[[Sequence[str]], None] | None = None,
    ) -> None:
        s = services.settings
        self.services = services
        self.settings = s
        self.store = services.store
        self.clock = clock or (lambda: dt.datetime.now(dt.UTC))
        self.owner = owner or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.pool = PoolCache(self.store, s.snapshot_refresh_seconds, monotonic)
        self.monotonic = monotonic
        # Copies what a job wrote to the public bucket, when there is one (before COMPLETED).
        self.mirror = mirror
        self.pace = FIRST_PACE.get(s.llm, 20.0)
        self.capacity = s.worker_generation_slots + s.worker_queue_limit
        self._executor: ThreadPoolExecutor | None = self._new_executor()
        self._lock = threading.Lock()
        self._mine: set[str] = set()  # jobs queued or running in this process
        self._answers = AnswerCache(ANSWER_CACHE_BYTES)  # completed jobs' poll answers
        self._stop = threading.Event()
        self._watch: threading.Thread | None = None

    # ── Lifecycle ────────────────────────────────────────────────────────────────────────────
    def _new_executor(self) -> ThreadPoolExecutor:
        slots = self.settings.worker_generation_slots
        return ThreadPoolExecutor(slots, thread_name_prefix="job")

    def start(self) -> None:
        """Resume what died with an earlier process, then keep watching for stale jobs.

        Starting again after `close` (an app's lifespan run twice) opens a new pool.
        """
        with self._lock:
            if self._executor is None:
                self._executor = self._new_executor()
            self._stop = threading.Event()
        self.pool.view()  # loaded before the first request, not by it
        # What is loaded now lives as long as the worker: keep it out of every full collection
        # (they took 75-200 ms each under load, the whole tail of a request's latency).
        gc.collect()
        gc.freeze()
        # A request's thread that waits for the GIL behind a busy one (an exam's assembly) waits
        # a whole switch interval each time: 5 ms by default, several times per request.
        sys.setswitchinterval(GIL_SWITCH_SECONDS)
        self.recover()
        self._watch = threading.Thread(target=self._watch_loop, name="job-watch", daemon=True)
        self._watch.start()
        threading.Thread(target=self._freeze_loop, name="gc-freeze", daemon=True).start()

    def close(self, wait: bool = True) -> None:
        self._stop.set()
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=not wait)

    def _submit(self, job: Job, fail: bool = True) -> None:
        """Run a job in the pool; if it cannot be scheduled, fail it (a new job) or leave it
        to another replica (a take-over): never left counted here."""
        try:
            if self._executor is None:
                raise RuntimeError("the worker is shutting down")
            self._executor.submit(self._run, job)
        except RuntimeError as exc:
            with self._lock:
                self._mine.discard(job.job_id)
            if not fail:
                raise Overloaded(str(exc), 1) from exc
            self._save(job_failed(job, "shutting_down", f"not started: {exc}", self.clock()))
            self.store.delete(active_key(job.job_id))
            raise Overloaded("the worker is shutting down; retry on another replica", 1) from exc

    def _watch_loop(self) -> None:
        interval = min(self.settings.job_lease_seconds / 2, self.settings.snapshot_refresh_seconds)
        while not self._stop.wait(max(interval, 0.05)):
            try:
                self.pool.refresh()
                self.recover()
            except Exception:  # a store hiccup must not end the watch
                log.exception("job recovery pass failed")

    def _freeze_loop(self) -> None:
        """Keep what lives on out of full collections, as `start` does for what was loaded.

        The pool view's parsed records and the kept answers grow while the worker serves; each
        full collection walked them all (70-330 ms, a dozen times a minute at 100 clients,
        collecting almost nothing) and was the whole tail of the mix's latency (bench/worker.py,
        BENCHMARKS.md issue 23). Frozen objects are still freed by reference counting when
        dropped; a reference cycle that was already garbage when frozen would stay for good, so
        every THAW_SECONDS everything is thawed for one full collection: one pause in ten
        minutes instead of a dozen a minute, and a worker that runs for weeks does not grow.
        """
        stop = self._stop
        since_thaw = 0.0
        while not stop.wait(FREEZE_SECONDS):
            since_thaw += FREEZE_SECONDS
            if since_thaw >= THAW_SECONDS:
                gc.unfreeze()
                gc.collect()
                since_thaw = 0.0
            gc.freeze()

    def drain(self, timeout: float = 60.0) -> bool:
        """Wait until this process runs no job (tests and shutdown); True if it got there."""
        deadline = self.monotonic() + timeout
        while self.monotonic() < deadline:
            with self._lock:
                if not self._mine:
                    return True
            time.sleep(0.01)
        return False

    # ── Requests ─────────────────────────────────────────────────────────────────────────────
    def submit_practice(
        self, order: PracticeOrder, key: str, reserve: Callable[[int], None]
    ) -> Job:
        """Start a practice job: completed at once when the pool holds the set."""
        job_id, practice_id = new_id("job"), new_id("practice")
        request = {
            "topic_id": order.topic.topic_id,
            "question_count": order.count,
            "difficulty": order.difficulty.value,
            "practice_id": practice_id,
        }
        job = new_job(job_id, JobKind.PRACTICE, request, order.count, key, self.owner, self.clock())
        view = self.pool.view()
        pick = practice_pick(
            view.topic_rows(order.topic.topic_id, order.difficulty),
            order.topic.topic_id,
            order.difficulty,
            order.count,
            job_id,
        )
        if pick.short == 0:
            return self._finish_practice(job, order, view.questions(pick.question_ids))
        cell = (order.topic.topic_id, order.difficulty.value)
        if self.settings.llm == "offline" and cell in view.spent:
            # Refused now rather than FAILED later: the last nightly's topic floor found that
            # the offline generators make no more for this cell (a model may, so with one
            # configured the job always tries).
            available = {d: view.servable(order.topic.topic_id, d) for d in Difficulty}
            raise InsufficientPool(order.topic.topic_id, order.difficulty, order.count, available)
        return self._enqueue(job, pick.short, reserve)

    def submit_exam(self, order: ExamOrder, key: str, reserve: Callable[[int], None]) -> Job:
        """Start an exam job: completed at once when the pool can fill the paper."""
        job_id, exam_id = new_id("job"), new_id("exam")
        request = {
            "exam_type": order.exam_type,
            "subjects": [s.value for s in order.subjects],
            "difficulty_distribution": {d.value.lower(): v for d, v in order.distribution.items()},
            "exam_id": exam_id,
        }
        blueprint = self.services.blueprint
        total = blueprint.questions_per_subject * len(order.subjects)
        job = new_job(job_id, JobKind.EXAM, request, total, key, self.owner, self.clock())
        paper_request = custom_request(blueprint, exam_id, order.subjects, order.distribution)
        view = self.pool.view()
        outcome = assemble_paper(view.index(), paper_request, blueprint)
        if not isinstance(outcome, Shortfall):
            questions = view.questions(outcome.question_ids)
            document = paper_document(outcome, questions)
            return self._finish_exam(job, exam_id, document, questions)
        return self._enqueue(job, outcome.total, reserve)

    def _enqueue(self, job: Job, short: int, reserve: Callable[[int], None]) -> Job:
        with self._lock:
            if len(self._mine) >= self.capacity:
                wait = eta_seconds(self.settings.worker_queue_limit + 1, self.pace * 10)
                raise Overloaded(
                    f"all {self.capacity} generation places are taken; retry in {wait} s", wait
                )
            reserve(short)  # raises over the key's quota: nothing written yet
            queued = len(self._mine)
            self._mine.add(job.job_id)
        slots = self.settings.worker_generation_slots
        eta = eta_seconds(short, self.pace) * (1 + queued // slots)
        job = job_planned(
            job,
            short,
            f"generating {short} new question{'s' * (short != 1)} the pool lacks",
            eta,
            self.clock(),
        )
        self._save(job)
        self.store.put(active_key(job.job_id), job.job_id.encode())
        self._submit(job)
        return job

    # ── Polling and recovery ─────────────────────────────────────────────────────────────────
    def job(self, job_id: str) -> Job | None:
        raw = self.store.get(job_key(job_id))
        if raw is None:
            return None
        job = read_job(raw)
        if is_stale(job, self.clock(), self.settings.job_lease_seconds):
            self._take_over(job)
            job = read_job(self.store.get(job_key(job_id)) or raw)
        return job

    def job_document(self, job: Job) -> dict[str, Any]:
        result = None
        if job.status is JobStatus.COMPLETED and job.result_key:
            raw = self.store.get(job.result_key)
            if raw is not None:
                result = {**json.loads(raw), "url": url_of(job.result_key)}
        return job_document(job, result)

    def answer(self, job_id: str) -> bytes | None:
        """What a poll of the job answers, as JSON bytes; None when there is no such job.

        A completed job's answer is read from the store once and then kept (it never changes),
        so polls of completed jobs cost no file read, parse or serialisation.
        """
        kept = self._answers.get(job_id)
        if kept is not None:
            return kept
        job = self.job(job_id)
        if job is None:
            return None
        body = answer_bytes(self.job_document(job))
        # Only COMPLETED is final: a job failed as interrupted may yet be completed by a
        # replica that was only slow, and a kept FAILED would hide that.
        if job.status is JobStatus.COMPLETED:
            self._answers.keep(job_id, body)
        return body

    def recover(self) -> int:
        """Take over every unfinished job whose replica went quiet; returns how many."""
        taken = 0
        for key in self.store.keys(ACTIVE_PREFIX):
            job_id = key.removeprefix(ACTIVE_PREFIX)
            with self._lock:
                if job_id in self._mine:
                    continue
            raw = self.store.get(job_key(job_id))
            if raw is None:
                continue
            job = read_job(raw)
            if job.status is not JobStatus.PROCESSING:
                self.store.delete(key)
            elif is_stale(job, self.clock(), self.settings.job_lease_seconds):
                taken += self._take_over(job)
        return taken

    def _take_over(self, job: Job) -> bool:
        """Resume a stale job here (or fail it after too many resumes); True if it was ours."""
        if job.resumes >= self.settings.job_max_resumes:
            message = (
                f"interrupted {job.resumes + 1} times (the worker running it stopped); "
                "please submit the request again"
            )
            if self.store.put_new([(lease_key(job.job_id, job.resumes + 1), b"fail")]):
                return False  # another replica decided first
            self._save(job_failed(job, "interrupted", message, self.clock()))
            self.store.delete(active_key(job.job_id))
            return True
        with self._lock:
            if job.job_id in self._mine or len(self._mine) >= self.capacity:
                return False
            claim = [(lease_key(job.job_id, job.resumes + 1), self.owner.encode())]
            if self.store.put_new(claim):
                return False  # another replica took it over first
            self._mine.add(job.job_id)
        job = job_taken_over(job, self.owner, self.clock())
        self._save(job)
        log.info("resuming %s (take-over %d)", job.job_id, job.resumes)
        try:
            self._submit(job, fail=False)
        except Overloaded:
            return False
        return True

    # ── Running ──────────────────────────────────────────────────────────────────────────────
    def _save(self, job: Job) -> None:
        self.store.put(job_key(job.job_id), job_bytes(job))

    def _run(self, job: Job) -> None:
        try:
            if job.kind is JobKind.PRACTICE:
                self._run_practice(job)
            else:
                self._run_exam(job)
        except Exception as exc:  # never leave a job PROCESSING: it fails with the reason
            log.exception("job %s failed", job.job_id)
            latest = read_job(self.store.get(job_key(job.job_id)) or job_bytes(job))
            self._save(job_failed(latest, "internal_error", f"the job failed: {exc}", self.clock()))
            self.store.delete(active_key(job.job_id))
        finally:
            with self._lock:
                self._mine.discard(job.job_id)

    def _generated(self, job: Job) -> list[Question]:
        """The questions an earlier run of this job verified (each in the outbox)."""
        out = []
        for question_id in job.generated:
            raw = self.store.get(outbox_key(question_id))
            if raw is not None:
                out.append(OutboxEntry.model_validate_json(raw).question)
        return out

    def _generation(self, progress: _Progress) -> Generation:
        s = self.services
        return Generation(
            s.drafter,
            s.solver,
            self.settings.max_attempts_per_question,
            progress.accepted,
            progress.attempted,
        )

    def _run_practice(self, job: Job) -> None:
        request = {k: v for k, v in job.request.items() if k != "practice_id"}
        order = practice_order(request, self.services.syllabus)
        earlier = self._generated(job)
        view = self.pool.view()  # one state of the pool for the whole run
        picked, short = practice_picked(view, order, job.job_id, job.generated, len(earlier))
        progress = _Progress(self, job, len(picked))
        have = [*picked, *earlier]
        make = self._generation(progress)
        fresh = practice_fresh(view, order, have, job.generated, short, make)
        self._finish_practice(progress.job, order, [*have, *fresh], [*earlier, *fresh])

    def _finish_practice(
        self,
        job: Job,
        order: PracticeOrder,
        questions: list[Question],
        new: Sequence[Question] = (),
    ) -> Job:
        practice_id = str(job.request["practice_id"])
        if not questions:
            failed = job_failed(
                job,
                "no_questions",
                f"no questions for {order.topic.name} at {order.difficulty.value}: the pool has "
                "none and the generators for this topic made none",
                self.clock(),
            )
            self._save(failed)
            self.store.delete(active_key(job.job_id))
            return failed
        n = len(questions)
        message = (
            f"{n} questions ready"
            if n == order.count
            else f"{n} of {order.count} questions: the generators for this topic ran dry"
        )
        document = practice_document(practice_id, order.topic, order.difficulty, questions)
        return self._complete(
            job, practice_id, practice_key(practice_id), document, new, message, questions
        )

    def _run_exam(self, job: Job) -> None:
        request = {k: v for k, v in job.request.items() if k != "exam_id"}
        order = exam_order(request)
        exam_id = str(job.request["exam_id"])
        blueprint = self.services.blueprint
        paper_request = custom_request(blueprint, exam_id, order.subjects, order.distribution)
        earlier = self._generated(job)
        view = self.pool.view()  # one state of the pool for the whole run
        progress = _Progress(self, job, job.total - job.to_generate)
        outcome, fresh = exam_outcome(
            view, paper_request, blueprint, earlier, self._generation(progress)
        )
        job = progress.job
        if isinstance(outcome, Shortfall):
            self._save(
                job_failed(
                    job,
                    "pool_exhausted",
                    "the pool and the generators cannot fill this exam; short of "
                    f"{outcome.total} questions ({outcome.describe()})",
                    self.clock(),
                )
            )
            self.store.delete(active_key(job.job_id))
            return
        new = [*earlier, *fresh]
        by_id = {q.question_id: q for q in new}
        from_pool = [i for i in outcome.question_ids if i not in by_id]
        by_id.update({q.question_id: q for q in view.questions(from_pool)})
        questions = [by_id[i] for i in outcome.question_ids]
        self._finish_exam(job, exam_id, paper_document(outcome, questions), questions, new)

    def _finish_exam(
        self,
        job: Job,
        exam_id: str,
        document: dict[str, Any],
        shown: Sequence[Question],
        new: Sequence[Question] = (),
    ) -> Job:
        return self._complete(job, exam_id, exam_key(exam_id), document, new, "exam ready", shown)

    def _complete(
        self,
        job: Job,
        result_id: str,
        key: str,
        document: dict[str, Any],
        new: Sequence[Question],
        message: str,
        shown: Sequence[Question],
    ) -> Job:
        """Write the result's static copy (and mirror it with the new questions), then the job.

        The copy exists before the job says COMPLETED; the new questions join this worker's pool.
        Every figure the copy shows is published first: a pool question built for a later day's
        paper is not exported yet, and neither is its image.
        """
        refuse_live_markup(document, result_id)
        images = write_figure_images(self.store, shown)
        self.store.put_immutable(key, json_bytes(document))
        if self.mirror:
            images += [k for q in new for k in figure_image_keys(q)]
            self.mirror([*images, *(question_key(q.question_id) for q in new), key])
        if new:
            self.pool.add(pool_rows(new))
        n = len(document["questions"])
        done = job_completed(job, result_id, key, n, message, self.clock())
        self._save(done)
        self.store.delete(active_key(job.job_id))
        # The first poll usually follows at once: answer it without reading the copy back.
        answer = job_document(done, {**document, "url": url_of(key)})
        self._answers.keep(done.job_id, answer_bytes(answer))
        return done
