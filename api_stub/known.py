"""Which question ids the worker may take answers and reports for, without opening the warehouse:
every exported question file (the export manifest), every question of the pool snapshot, and
every question this or another worker generated since (the outbox). Withdrawn questions count:
their files are still served, and students still answer them in the papers that used them."""

from __future__ import annotations

import hashlib
import io
import re
import threading
import time
from collections.abc import Callable

import polars as pl

from core.records import outbox_key
from core.storage import ObjectStore
from site_builder.documents import (
    DAILY_EXAM_ID_PATTERN,
    EXAM_ID_PATTERN,
    PRACTICE_ID_PATTERN,
    QUESTION_ID_PATTERN,
    exam_key,
    practice_key,
)
from site_builder.export import EXPORT_MANIFEST_KEY, exported_question_ids
from site_builder.snapshot import POOL_SNAPSHOT_KEY

_QUESTION_ID = re.compile(QUESTION_ID_PATTERN)
_DAILY = re.compile(DAILY_EXAM_ID_PATTERN)
_EXAM = re.compile(EXAM_ID_PATTERN)
_PRACTICE = re.compile(PRACTICE_ID_PATTERN)


class KnownQuestions:
    """The manifest's and the snapshot's ids in memory, re-read when their bytes change (looked
    at every `refresh_seconds`, as `PoolCache` does), so checking a batch of 100 rows costs set
    lookups; an id outside both costs one store look-up, for the outbox."""

    def __init__(
        self,
        store: ObjectStore,
        refresh_seconds: float,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.refresh_seconds = refresh_seconds
        self.monotonic = monotonic
        self._lock = threading.Lock()
        self._checked = -float("inf")
        self._digest = ""
        self._ids: frozenset[str] = frozenset()

    def _refresh(self) -> None:
        manifest = self.store.get(EXPORT_MANIFEST_KEY)
        snapshot = self.store.get(POOL_SNAPSHOT_KEY) or b""
        seen = hashlib.sha256((manifest or b"-") + b"|" + snapshot).hexdigest()
        if seen != self._digest:
            # Before the first export writes a manifest: one listing of the question files.
            ids = exported_question_ids(self.store)
            if snapshot:
                frame = pl.read_parquet(io.BytesIO(snapshot), columns=["question_id"])
                ids |= set(frame["question_id"].to_list())
            self._ids = frozenset(ids)
            self._digest = seen if manifest is not None else ""  # no manifest: list again
        self._checked = self.monotonic()  # once the ids are in: no request sees them half-read

    def ids(self) -> frozenset[str]:
        """The exported and snapshot ids now. The first call reads them (every request waits for
        it); later, when due, one request re-reads them while the others use the current ids."""
        if self._checked == -float("inf"):
            with self._lock:
                if self._checked == -float("inf"):
                    self._refresh()
        elif self.monotonic() - self._checked >= self.refresh_seconds and self._lock.acquire(
            blocking=False
        ):
            try:
                self._refresh()
            finally:
                self._lock.release()
        return self._ids

    def __call__(self, question_id: str) -> bool:
        """Whether question_id is a question of this bank."""
        if not _QUESTION_ID.fullmatch(question_id):
            return False
        return question_id in self.ids() or self.store.exists(outbox_key(question_id))


class IssuedExams:
    """Whether an answer's exam id names a paper this bank made: a daily paper's id (a date, so
    its shape says enough), or a custom exam or practice set whose static copy exists. Ids seen
    to exist are remembered (they never go away); one store look-up for any other."""

    def __init__(self, store: ObjectStore) -> None:
        self.store = store
        self._seen: set[str] = set()

    def __call__(self, exam_id: str) -> bool:
        if _DAILY.fullmatch(exam_id) or exam_id in self._seen:
            return True
        for pattern, key in ((_EXAM, exam_key), (_PRACTICE, practice_key)):
            if pattern.fullmatch(exam_id) and self.store.exists(key(exam_id)):
                self._seen.add(exam_id)
                return True
        return False
