"""The HTTP headers each static key is served with (by the worker and, later, the CDN)."""

from __future__ import annotations

import datetime as dt

from core.clock import seconds_until_rollover
from core.shapes import FIGURE_SUFFIX
from pipeline.figures.svg import SVG_MEDIA_TYPE
from site_builder.documents import DAILY_POINTER_KEY, short_lived_keys

IMMUTABLE = "public, max-age=31536000, immutable"


# Compressed variants of a key (`<key>.gz`, `<key>.br`) and the Content-Encoding they carry.
ENCODING_SUFFIXES = {".br": "br", ".gz": "gzip"}


def encoded_base(key: str) -> tuple[str, str | None]:
    """(the uncompressed key, the Content-Encoding) of a key; (key, None) if it is plain."""
    for suffix, encoding in ENCODING_SUFFIXES.items():
        if key.endswith(suffix):
            return key.removesuffix(suffix), encoding
    return key, None


def content_type(key: str) -> str:
    """The type of the content (a compressed variant has the type of what it compresses)."""
    base, _ = encoded_base(key)
    if base.endswith(".html"):
        return "text/html; charset=utf-8"
    if base.endswith(FIGURE_SUFFIX):
        return SVG_MEDIA_TYPE
    if base.endswith(".parquet"):
        return "application/vnd.apache.parquet"
    return "application/json"


def cache_control(key: str, timezone: str, now: dt.datetime | None = None) -> str:
    """Question and dated paper files never change; the daily pointer lives until rollover."""
    base = encoded_base(key)[0]
    short = short_lived_keys().get(base)
    if short is not None:  # lists and documents that change: revalidated every few minutes
        return f"public, max-age={short}"
    if base == DAILY_POINTER_KEY:
        return f"public, max-age={seconds_until_rollover(timezone, now)}"
    return IMMUTABLE
