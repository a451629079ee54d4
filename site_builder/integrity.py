"""Whether a published file is whole, and writing immutable files so a torn one is repaired.

An immutable key is never given other bytes: a valid file that differs is an error, as ever.
But a file that is not a complete document of its key (cut off by a full disk under an older
writer, or by a crash before writes were synced) was never valid: no client can rely on it,
so the export replaces it with the right bytes instead of failing on every later run.
"""

from __future__ import annotations

import gzip
import json
import logging
import re
import zlib
from typing import Any

import brotli

from core.render import published_markup
from core.storage import ImmutableObjectError, ObjectStore
from site_builder.documents import (
    API_PREFIX,
    DAILY_POINTER_KEY,
    DATE_PATTERN,
    EXAM_ID_PATTERN,
    PRACTICE_ID_PATTERN,
    QUESTION_ID_PATTERN,
    daily_paper_key,
    question_key,
)

log = logging.getLogger("qforge")

# Documents that name their own id, by their folder and the id shapes of site_builder.documents:
# (folder, shape of the key's last part, the field naming it, the id that part stands for).
_SELF_NAMED = (
    (question_key(""), QUESTION_ID_PATTERN, "id", "{}"),
    (daily_paper_key(""), DATE_PATTERN, "exam_id", "daily-{}"),
    (f"{API_PREFIX}/exams/", EXAM_ID_PATTERN, "exam_id", "{}"),
    (f"{API_PREFIX}/practice/", PRACTICE_ID_PATTERN, "practice_id", "{}"),
)


class ExportMismatchError(RuntimeError):
    """An exported file would change: immutable keys never take different bytes."""


class LiveMarkupError(RuntimeError):
    """A document about to be published carries live markup in a Markdown field."""


def refuse_live_markup(document: dict[str, Any], what: str) -> None:
    """The last check before a paper, practice set or exam is published: no Markdown field
    holds live markup (the drafts' gate refuses it; this catches what any path let through)."""
    if problems := published_markup(document):
        raise LiveMarkupError(
            f"{what} would publish live markup, so it is not published: {'; '.join(problems[:3])}"
        )


def complete_document(key: str, data: bytes) -> bool:
    """True when data is a whole document for key: it decodes, parses, and names its key."""
    try:
        if key.endswith(".gz"):
            return complete_document(key.removesuffix(".gz"), gzip.decompress(data))
        if key.endswith(".br"):
            return complete_document(key.removesuffix(".br"), brotli.decompress(data))
        text = data.decode("utf-8")
    except (OSError, EOFError, zlib.error, brotli.error, UnicodeDecodeError):
        return False
    if key.endswith(".html"):
        return text.rstrip().endswith("</html>")
    if key.endswith(".svg"):
        return text.rstrip().endswith("</svg>")
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        return False
    if key == DAILY_POINTER_KEY:  # a copy of the latest dated paper
        return isinstance(document, dict) and str(document.get("exam_id")).startswith("daily-")
    for folder, shape, field, form in _SELF_NAMED:
        name = key.removeprefix(folder)
        if key.startswith(folder) and re.match(shape, name):
            return isinstance(document, dict) and document.get(field) == form.format(name)
    return True


def put_published(store: ObjectStore, key: str, data: bytes, what: str) -> bool:
    """Write an immutable key once; True if written (or repaired), False if already the same.

    Other bytes under the key are an error when they are a complete document (they were served
    and may be cached), and are replaced when they are not (they never were a valid file).
    """
    try:
        return store.put_immutable(key, data)
    except ImmutableObjectError as exc:
        existing = store.get(key)
        if existing is not None and complete_document(key, existing):
            raise ExportMismatchError(f"{what}: /{key} already holds different bytes") from exc
        size = len(existing or b"")
        log.warning("export: /%s held an incomplete file (%d bytes); rewritten", key, size)
        store.put(key, data)
        return True
