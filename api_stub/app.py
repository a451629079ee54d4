"""HTTP routes of the worker: the dynamic endpoints, and the static tree served as a CDN would.

Only mapping lives here: bodies to `pipeline.serve.requests` (checked by the models of
`site_builder.contract`), jobs to `api_stub.runner`, keys and limits to `api_stub.limits`, and
every failure to the one error body (`site_builder.contract.Error`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import json
import re
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from api_stub.known import IssuedExams, KnownQuestions
from api_stub.limits import (
    DailyQuota,
    LimitExceeded,
    RateLimiter,
    allowed_keys,
    bearer_token,
    daily_quotas,
)
from api_stub.requests import attempts_request, exam_order, practice_order, report_request
from api_stub.runner import JobRunner, Overloaded, public_mirror
from core.feedback import AnswerBatch, answers_key, report_key
from core.settings import Settings
from core.storage import ImmutableObjectError, ObjectStore, validate_key
from pipeline.serve.feedback import checked_batch, error_report, receipt, same_rows
from pipeline.serve.jobs import Job, acknowledgement
from pipeline.serve.requests import InsufficientPool, InvalidRequest, UnknownTopic
from site_builder.documents import (
    API_PREFIX,
    JOB_ID_PATTERN,
)
from site_builder.headers import ENCODING_SUFFIXES, cache_control, content_type, encoded_base

ERROR_CODES = {
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    413: "request_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    429: "too_many_requests",
    503: "overloaded",
}
NO_STORE = {"Cache-Control": "no-store"}
POST_ONLY = (
    f"/{API_PREFIX}/practice/generate",
    f"/{API_PREFIX}/exams/generate",
    f"/{API_PREFIX}/attempts",
    f"/{API_PREFIX}/questions/{{question_id}}/reports",
)


class ApiError(Exception):
    """An answer other than success, with the one error body."""

    def __init__(
        self,
        status: int,
        message: str,
        details: list[Any] | None = None,
        headers: dict[str, str] | None = None,
        code: str | None = None,
    ) -> None:
        self.status = status
        self.message = message
        self.details = details or []
        self.headers = headers or {}
        self.code = code
        super().__init__(message)


def error_body(code: str, message: str, details: list[Any] | None = None) -> dict[str, Any]:
    """The one error shape every 4xx/5xx answer carries."""
    return {"error": {"code": code, "message": message, "details": details or []}}


def error_response(
    status: int,
    message: str,
    details: list[Any] | None = None,
    headers: dict[str, str] | None = None,
    code: str | None = None,
) -> JSONResponse:
    code = code or ERROR_CODES.get(status, HTTPStatus(status).phrase.lower().replace(" ", "_"))
    return JSONResponse(
        error_body(code, message, details),
        status_code=status,
        headers={**NO_STORE, **(headers or {})},
    )


def accepted_encodings(header: str) -> set[str]:
    """The content codings an Accept-Encoding header allows: named with q > 0, or covered by
    `*` with q > 0 and not refused by name (`gzip;q=0` refuses gzip)."""
    weights: dict[str, float] = {}
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            field, _, value = param.strip().partition("=")
            if field.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if name.strip():
            weights[name.strip().lower()] = q
    star = weights.get("*", 0.0)
    return {e for e in ENCODING_SUFFIXES.values() if weights.get(e, star) > 0}


def quota_exceeded(exc: LimitExceeded) -> ApiError:
    """A daily quota's refusal (generation, answers, reports): 429 `quota_exceeded`, with
    Retry-After until the quota's midnight."""
    return ApiError(
        429, str(exc), headers={"Retry-After": str(exc.retry_after)}, code="quota_exceeded"
    )


def create_app(
    settings: Settings,
    store: ObjectStore,
    clock: Callable[[], dt.datetime] | None = None,
    runner: JobRunner | None = None,
    monotonic: Callable[[], float] = time.monotonic,
) -> FastAPI:
    """The worker app over an object store (the exported static tree plus internal state).

    `runner` is built on the first dynamic request when not given (static-only use stays light).
    """
    now = clock or (lambda: dt.datetime.now(dt.UTC))
    keys = allowed_keys(settings)
    limiter = RateLimiter(settings.rate_limit_per_minute, settings.rate_limit_burst, monotonic)
    guesses = RateLimiter(
        settings.wrong_key_limit_per_minute, settings.wrong_key_limit_burst, monotonic
    )
    # Students' posts (answer logs, error reports) spend a bucket of their own: a class of a
    # thousand students posting through one app's key must not lock that key out of generation,
    # nor can a flood of generation requests stop answers being kept. Their daily quotas bound
    # what one key can make the store hold.
    feedback = RateLimiter(
        settings.feedback_rate_limit_per_minute, settings.feedback_rate_limit_burst, monotonic
    )
    quotas = daily_quotas(settings, store)
    quota = quotas["generated"]
    known = KnownQuestions(store, settings.snapshot_refresh_seconds, monotonic)
    issued = IssuedExams(store)
    held: dict[str, JobRunner] = {"runner": runner} if runner is not None else {}
    building = threading.Lock()

    def the_runner() -> JobRunner:
        with building:
            if "runner" not in held:
                from pipeline.compose import build_services

                services = dataclasses.replace(build_services(settings), store=store)
                mirror = public_mirror(settings, store)
                built = JobRunner(services, clock=now, monotonic=monotonic, mirror=mirror)
                built.start()
                held["runner"] = built
            return held["runner"]

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if runner is not None:
            runner.start()
        yield
        if "runner" in held:
            held["runner"].close(wait=False)

    app = FastAPI(
        title="qforge worker", version="0.1.0", docs_url=None, redoc_url=None, lifespan=lifespan
    )

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.message, exc.details, exc.headers, exc.code)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
        if exc.status_code == 404 and message == "Not Found":
            message = f"no resource at {request.url.path}"
        if exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        return error_response(exc.status_code, message, headers=dict(exc.headers or {}))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, "the request is not valid", list(exc.errors()))

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        return error_response(500, "internal error")

    def caller(request: Request, bucket: RateLimiter = limiter) -> str:
        """The key id of a valid API key, within its rate limit in bucket (401 / 429 otherwise).

        Wrong keys are counted per client address: past the allowance, that address gets 429
        before its keys are even looked at, so keys cannot be guessed at speed.
        """
        address = request.client.host if request.client else "unknown"
        wait = guesses.wait(address)
        if wait:
            raise ApiError(
                429,
                "too many requests with a wrong API key from this address",
                headers={"Retry-After": str(wait)},
            )
        token = bearer_token(request.headers.get("authorization"))
        if token is None or token not in keys:
            with contextlib.suppress(LimitExceeded):
                guesses.take(address)
            raise ApiError(
                401,
                "missing or unknown API key: send `Authorization: Bearer <key>`"
                if token is None
                else "unknown API key",
                headers={"WWW-Authenticate": 'Bearer realm="qforge"'},
            )
        key = keys[token]
        try:
            bucket.take(key)
        except LimitExceeded as exc:
            raise ApiError(429, str(exc), headers={"Retry-After": str(exc.retry_after)}) from exc
        return key

    async def json_body(request: Request, limit: int = settings.max_request_bytes) -> Any:
        """The body as JSON, refusing oversize (413) and non-JSON (415 / 422) bodies."""
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise ApiError(413, f"the body is larger than {limit} bytes")
        media = request.headers.get("content-type", "application/json").split(";")[0].strip()
        if media.lower() not in {"application/json", ""} and not media.lower().endswith("+json"):
            raise ApiError(415, f"send the body as application/json, not {media}")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > limit:
                raise ApiError(413, f"the body is larger than {limit} bytes")
        try:
            return json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ApiError(422, f"the body is not valid JSON: {exc}") from exc
        except RecursionError as exc:  # JSON nested deeper than any request body needs
            raise ApiError(422, "the body is nested too deeply to be a request") from exc

    def accepted(job: Job) -> JSONResponse:
        return JSONResponse(
            acknowledgement(job),
            status_code=202,
            headers={**NO_STORE, "Location": f"/{API_PREFIX}/jobs/{job.job_id}"},
        )

    def submitted(start: Callable[[JobRunner, Callable[[int], None]], Job], key: str) -> Job:
        """Run a submission, mapping quota, capacity and request errors to answers."""
        try:
            return start(the_runner(), lambda n: quota.reserve(key, n, now()))
        except InvalidRequest as exc:
            raise ApiError(422, str(exc), [p.detail() for p in exc.problems]) from exc
        except UnknownTopic as exc:
            raise ApiError(404, str(exc), [{"loc": ["body", "topic_id"], "msg": str(exc)}]) from exc
        except InsufficientPool as exc:
            raise ApiError(409, str(exc), exc.details(), code="insufficient_pool") from exc
        except LimitExceeded as exc:
            raise quota_exceeded(exc) from exc
        except Overloaded as exc:
            raise ApiError(503, str(exc), headers={"Retry-After": str(exc.retry_after)}) from exc

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post(f"/{API_PREFIX}/practice/generate")
    async def generate_practice(request: Request) -> JSONResponse:
        key = caller(request)
        body = await json_body(request)

        def run(r: JobRunner, reserve: Callable[[int], None]) -> Job:
            return r.submit_practice(practice_order(body, r.services.syllabus), key, reserve)

        job = await run_in_threadpool(submitted, run, key)
        return accepted(job)

    @app.post(f"/{API_PREFIX}/exams/generate")
    async def generate_exam(request: Request) -> JSONResponse:
        key = caller(request)
        body = await json_body(request)

        def run(r: JobRunner, reserve: Callable[[int], None]) -> Job:
            return r.submit_exam(exam_order(body), key, reserve)

        job = await run_in_threadpool(submitted, run, key)
        return accepted(job)

    def kept_once(
        quota: DailyQuota, key: str, n: int, where: str, data: bytes, at: dt.datetime
    ) -> bool:
        """Count n against key's day (429 past it), then write `where` once; True if this
        request wrote it. When another request wrote it first (a retry racing its original), or
        the write fails, what was counted is given back to the same day."""
        try:
            quota.reserve(key, n, at)
        except LimitExceeded as exc:
            raise quota_exceeded(exc) from exc
        written = False
        try:
            with contextlib.suppress(ImmutableObjectError):
                written = store.put_immutable(where, data)
        finally:
            if not written:
                quota.refund(key, n, at)
        return written

    def kept_batch(key: str, body: Any) -> dict[str, Any]:
        """Check the rows, keep the accepted ones once under the client's batch id, answer the
        receipt (the kept one, for a retry of a kept batch)."""
        try:
            posted = attempts_request(body)
        except InvalidRequest as exc:
            raise ApiError(422, str(exc), [p.detail() for p in exc.problems]) from exc
        at = now()
        batch = checked_batch(posted.batch_id, key, posted.answers, known, issued, at)
        where = answers_key(key, batch.batch_id)
        kept = store.get(where)
        if kept is None and batch.answers:
            data = batch.model_dump_json().encode()
            if kept_once(quotas["answers"], key, len(batch.answers), where, data, at):
                return receipt(batch, replayed=False)
            # Another request kept this batch id in between: the same rows are a replay,
            # other rows a 409, as for any later retry.
            kept = store.get(where)
        if kept is None:  # nothing accepted: answered, nothing kept
            return receipt(batch, replayed=False)
        before = AnswerBatch.model_validate_json(kept)
        if not same_rows(before, batch):
            raise ApiError(
                409,
                f"batch {batch.batch_id!r} was kept with other rows; post new rows under a new "
                "batch id",
                code="batch_id_reused",
            )
        return receipt(before, replayed=True)

    def kept_report(key: str, question_id: str, body: Any) -> dict[str, Any]:
        """Check the report, keep it once (the same report twice is one, counted once), answer
        its id."""
        try:
            posted = report_request(body)
        except InvalidRequest as exc:
            raise ApiError(422, str(exc), [p.detail() for p in exc.problems]) from exc
        if not known(question_id):
            raise ApiError(404, f"no question {question_id[:40]!r} in this bank")
        at = now()
        report = error_report(
            question_id, posted.learner_id, posted.reason, posted.option, posted.text, key, at
        )
        where = report_key(report.report_id)
        if not store.exists(where):  # racing in, it is kept with the first one's time
            kept_once(quotas["reports"], key, 1, where, report.model_dump_json().encode(), at)
        return {"report_id": report.report_id, "question_id": question_id, "status": "received"}

    @app.post(POST_ONLY[2])
    async def post_attempts(request: Request) -> JSONResponse:
        key = caller(request, feedback)
        body = await json_body(request, settings.max_attempts_request_bytes)
        answer = await run_in_threadpool(kept_batch, key, body)
        return JSONResponse(answer, status_code=202, headers=NO_STORE)

    @app.post(POST_ONLY[3])
    async def post_report(question_id: str, request: Request) -> JSONResponse:
        key = caller(request, feedback)
        body = await json_body(request)
        answer = await run_in_threadpool(kept_report, key, question_id, body)
        return JSONResponse(answer, status_code=202, headers=NO_STORE)

    def post_only(request: Request) -> Response:
        raise StarletteHTTPException(405, headers={"Allow": "POST"})

    for path in POST_ONLY:  # before the static tree's GET, which would answer 404
        app.add_api_route(path, post_only, methods=["GET", "HEAD", "PUT", "PATCH", "DELETE"])

    job_id_pattern = re.compile(JOB_ID_PATTERN)

    @app.get(f"/{API_PREFIX}/jobs/{{job_id}}")
    def get_job(job_id: str, request: Request) -> Response:
        caller(request)
        answer = the_runner().answer(job_id) if job_id_pattern.match(job_id) else None
        if answer is None:
            raise ApiError(404, f"no job {job_id!r}: job ids come from the generate endpoints")
        return Response(answer, media_type="application/json", headers=NO_STORE)

    @app.api_route(f"/{API_PREFIX}/{{path:path}}", methods=["GET", "HEAD"])
    def static_file(path: str, request: Request) -> Response:
        key = f"{API_PREFIX}/{path}".rstrip("/")
        try:
            data = store.get(validate_key(key))
        except ValueError:  # not a key's shape (a part too long, a dot file, …): no such file
            data = None
        if data is None:
            what = "question" if path.startswith("questions/") else "resource"
            raise StarletteHTTPException(404, f"no {what} at /{key[:200]}")
        headers = {"Cache-Control": cache_control(key, settings.timezone, now())}
        _, encoding = encoded_base(key)
        if encoding is not None:  # a variant asked for by its own URL, as the bucket serves it
            headers["Content-Encoding"] = encoding
            return Response(data, media_type=content_type(key), headers=headers)
        wanted = accepted_encodings(request.headers.get("accept-encoding", ""))
        for suffix, encoding in ENCODING_SUFFIXES.items():
            if encoding in wanted and (variant := store.get(key + suffix)) is not None:
                data = variant  # the same document, compressed: what a CDN would pick
                headers["Content-Encoding"] = encoding
                break
        if any(store.exists(key + suffix) for suffix in ENCODING_SUFFIXES):
            headers["Vary"] = "Accept-Encoding"
        return Response(data, media_type=content_type(key), headers=headers)

    return app
