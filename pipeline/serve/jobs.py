"""Worker jobs: the record kept in the object store, its moves, and what a poll shows.

A job is PROCESSING until it is COMPLETED (its practice set or exam is written) or FAILED (with
a reason). The record also carries what a replica needs to resume it: the validated request,
which replica holds it and when it last showed life, and the questions verified so far.
"""

from __future__ import annotations

import datetime as dt
import math
from enum import StrEnum
from typing import Any

from core.records import Record

JOBS_PREFIX = "internal/jobs/"
ACTIVE_PREFIX = "internal/jobs-active/"  # one marker per unfinished job: what a replica scans


class JobKind(StrEnum):
    PRACTICE = "practice"
    EXAM = "exam"


class JobStatus(StrEnum):
    PROCESSING = "PROCESSING"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"


class JobError(Record):
    code: str
    message: str


class Job(Record):
    job_id: str
    kind: JobKind
    status: JobStatus
    message: str
    eta_seconds: int
    done: int
    total: int
    created_at: dt.datetime
    updated_at: dt.datetime
    request: dict[str, Any]  # the validated request, canonical (what a resumed run re-reads)
    result_id: str | None = None  # practice_id or exam_id; its static copy is the result
    result_key: str | None = None
    error: JobError | None = None
    key_id: str  # digest of the API key that asked (quotas; never the key itself)
    owner: str  # the replica running it
    heartbeat_at: dt.datetime
    resumes: int = 0
    generated: tuple[str, ...] = ()  # ids verified so far, each already in the outbox
    to_generate: int = 0  # the shortfall found when the job started


def job_key(job_id: str) -> str:
    return f"{JOBS_PREFIX}{job_id}"


def active_key(job_id: str) -> str:
    return f"{ACTIVE_PREFIX}{job_id}"


def lease_key(job_id: str, resumes: int) -> str:
    """Created once per take-over: the replica whose create succeeds runs the job."""
    return f"{JOBS_PREFIX}{job_id}-lease-{resumes}"


def eta_seconds(remaining: int, seconds_per_question: float) -> int:
    """Whole seconds until `remaining` questions are generated at the recent pace."""
    return 0 if remaining <= 0 else max(1, math.ceil(remaining * seconds_per_question))


def smoothed(previous: float, sample: float, weight: float = 0.2) -> float:
    """An exponentially weighted mean: recent generation pace, steady against one slow draft."""
    return (1 - weight) * previous + weight * sample


def new_job(
    job_id: str,
    kind: JobKind,
    request: dict[str, Any],
    total: int,
    key_id: str,
    owner: str,
    now: dt.datetime,
) -> Job:
    return Job(
        job_id=job_id,
        kind=kind,
        status=JobStatus.PROCESSING,
        message="queued",
        eta_seconds=0,
        done=0,
        total=total,
        created_at=now,
        updated_at=now,
        request=request,
        key_id=key_id,
        owner=owner,
        heartbeat_at=now,
    )


def job_progressed(
    job: Job, done: int, message: str, eta: int, now: dt.datetime, generated: tuple[str, ...] = ()
) -> Job:
    return job.model_copy(
        update={
            "done": done,
            "message": message,
            "eta_seconds": eta,
            "updated_at": now,
            "heartbeat_at": now,
            "generated": generated or job.generated,
        }
    )


def job_planned(job: Job, to_generate: int, message: str, eta: int, now: dt.datetime) -> Job:
    """A job that must generate `to_generate` questions; the rest are in hand already."""
    return job.model_copy(
        update={
            "to_generate": to_generate,
            "done": job.total - to_generate,
            "message": message,
            "eta_seconds": eta,
            "updated_at": now,
            "heartbeat_at": now,
        }
    )


def job_completed(
    job: Job, result_id: str, result_key: str, total: int, message: str, now: dt.datetime
) -> Job:
    return job.model_copy(
        update={
            "status": JobStatus.COMPLETED,
            "result_id": result_id,
            "result_key": result_key,
            "done": total,
            "total": total,
            "message": message,
            "eta_seconds": 0,
            "updated_at": now,
            "heartbeat_at": now,
        }
    )


def job_failed(job: Job, code: str, message: str, now: dt.datetime) -> Job:
    return job.model_copy(
        update={
            "status": JobStatus.FAILED,
            "error": JobError(code=code, message=message),
            "message": message,
            "eta_seconds": 0,
            "updated_at": now,
            "heartbeat_at": now,
        }
    )


def job_taken_over(job: Job, owner: str, now: dt.datetime) -> Job:
    return job.model_copy(
        update={
            "owner": owner,
            "resumes": job.resumes + 1,
            "message": f"resumed after an interruption ({job.resumes + 1})",
            "updated_at": now,
            "heartbeat_at": now,
        }
    )


def is_stale(job: Job, now: dt.datetime, lease_seconds: float) -> bool:
    """A PROCESSING job whose replica has shown no life for a lease: it died or hung."""
    return (
        job.status is JobStatus.PROCESSING
        and (now - job.heartbeat_at).total_seconds() > lease_seconds
    )


def job_bytes(job: Job) -> bytes:
    return job.model_dump_json().encode()


def read_job(data: bytes) -> Job:
    return Job.model_validate_json(data)


def job_document(job: Job, result: dict[str, Any] | None) -> dict[str, Any]:
    """What a poll answers: the acknowledgement's fields, kind, progress, times, result/error."""
    doc: dict[str, Any] = {
        "job_id": job.job_id,
        "status": job.status.value,
        "message": job.message,
        "eta_seconds": job.eta_seconds,
        "kind": job.kind.value,
        "progress": {"done": job.done, "total": job.total},
        "created_at": _timestamp(job.created_at),
        "updated_at": _timestamp(job.updated_at),
        "result": result if job.status is JobStatus.COMPLETED else None,
        "error": job.error.model_dump() if job.error else None,
    }
    return doc


def acknowledgement(job: Job) -> dict[str, Any]:
    """The answer to a POST: the job acknowledgement."""
    return {
        "job_id": job.job_id,
        "status": job.status.value,
        "message": job.message,
        "eta_seconds": job.eta_seconds,
    }


def _timestamp(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
