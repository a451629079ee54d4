"""HTTP routes of the worker. Static keys are served exactly as a CDN would serve them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from core.settings import Settings
from core.storage import ObjectStore, validate_key
from site_builder.documents import API_PREFIX
from site_builder.headers import ENCODING_SUFFIXES, cache_control, content_type

ERROR_CODES = {404: "not_found", 405: "method_not_allowed", 422: "validation_error"}


def error_body(code: str, message: str, details: list[Any] | None = None) -> dict[str, Any]:
    """The one error shape (DESIGN.md) every 4xx/5xx answer carries."""
    return {"error": {"code": code, "message": message, "details": details or []}}


def error_response(status: int, message: str, details: list[Any] | None = None) -> JSONResponse:
    code = ERROR_CODES.get(status, HTTPStatus(status).phrase.lower().replace(" ", "_"))
    return JSONResponse(
        error_body(code, message, details),
        status_code=status,
        headers={"Cache-Control": "no-store"},
    )


def create_app(
    settings: Settings, store: ObjectStore, clock: Callable[[], dt.datetime] | None = None
) -> FastAPI:
    """The worker app over an object store (the exported static tree)."""
    now = clock or (lambda: dt.datetime.now(dt.UTC))
    app = FastAPI(title="qforge worker", version="0.1.0", docs_url=None, redoc_url=None)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
        if exc.status_code == 404 and message == "Not Found":
            message = f"no resource at {request.url.path}"
        return error_response(exc.status_code, message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, "the request is not valid", list(exc.errors()))

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        return error_response(500, "internal error")

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.api_route(f"/{API_PREFIX}/{{path:path}}", methods=["GET", "HEAD"])
    def static_file(path: str, request: Request) -> Response:
        key = f"{API_PREFIX}/{path}".rstrip("/")
        try:
            data = store.get(validate_key(key))
        except ValueError:
            data = None
        if data is None:
            what = "question" if path.startswith("questions/") else "resource"
            raise StarletteHTTPException(404, f"no {what} at /{key}")
        headers = {"Cache-Control": cache_control(key, settings.timezone, now())}
        accepted = request.headers.get("accept-encoding", "")
        for suffix, encoding in ENCODING_SUFFIXES.items():
            if encoding in accepted and (variant := store.get(key + suffix)) is not None:
                data = variant  # the same document, compressed: what a CDN would pick
                headers["Content-Encoding"] = encoding
                break
        if any(store.exists(key + suffix) for suffix in ENCODING_SUFFIXES):
            headers["Vary"] = "Accept-Encoding"
        return Response(data, media_type=content_type(key), headers=headers)

    return app
