"""The HTTP headers each static key is served with (by the worker and, later, the CDN)."""

from __future__ import annotations

import datetime as dt

from core.clock import seconds_until_rollover
from site_builder.documents import DAILY_POINTER_KEY

IMMUTABLE = "public, max-age=31536000, immutable"


def content_type(key: str) -> str:
    if key.endswith(".html"):
        return "text/html; charset=utf-8"
    return "application/json"


def cache_control(key: str, timezone: str, now: dt.datetime | None = None) -> str:
    """Question and dated paper files never change; the daily pointer lives until rollover."""
    if key == DAILY_POINTER_KEY:
        return f"public, max-age={seconds_until_rollover(timezone, now)}"
    return IMMUTABLE
