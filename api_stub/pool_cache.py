"""The worker's pool: the latest snapshot the nightly published, with this process's own new
questions, less withdrawn ones; re-read when the nightly publishes a new one."""

from __future__ import annotations

import hashlib
import io
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import polars as pl

from pipeline.serve.job_work import EMPTY_POOL, PoolView, snapshot_frame
from site_builder.documents import withdrawn_questions_key
from site_builder.snapshot import POOL_SNAPSHOT_KEY, TOPIC_COVERAGE_KEY, read_spent_cells

log = logging.getLogger("qforge.worker")


class PoolCache:
    """The latest pool snapshot, the worker's own new questions, less withdrawn questions.

    The first read waits for the snapshot; later refreshes run in the runner's watch thread (or
    in one request while the others keep the current view), so no request waits for a reload.
    """

    def __init__(
        self, store: Any, refresh_seconds: float, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.store = store
        self.refresh_seconds = refresh_seconds
        self.monotonic = monotonic
        self._lock = threading.Lock()
        self._checked = -float("inf")
        self._digest = ""
        self._snapshot = EMPTY_POOL
        self._fresh = EMPTY_POOL
        self._view: PoolView | None = None

    def view(self) -> PoolView:
        """The servable pool now (re-read when the nightly published a new snapshot)."""
        view = self._view
        if view is None:
            with self._lock:  # the first read: everyone waits for the snapshot
                if self._view is None:
                    self._refresh()
                assert self._view is not None
                return self._view
        if self.monotonic() - self._checked >= self.refresh_seconds and self._lock.acquire(
            blocking=False
        ):
            try:
                self._refresh()
            finally:
                self._lock.release()
        return self._view or view

    def frame(self) -> pl.DataFrame:
        return self.view().frame

    def refresh(self) -> None:
        """Look for a new snapshot now (the watch thread calls this)."""
        with self._lock:
            self._refresh()

    def _refresh(self) -> None:
        self._checked = self.monotonic()
        raw = self.store.get(POOL_SNAPSHOT_KEY) or b""
        withdrawn_raw = self.store.get(withdrawn_questions_key()) or b""
        coverage_raw = self.store.get(TOPIC_COVERAGE_KEY) or b""
        seen = hashlib.sha256(raw + b"|" + withdrawn_raw + b"|" + coverage_raw).hexdigest()
        if seen == self._digest and self._view is not None:
            return
        self._digest = seen
        snapshot = snapshot_frame(pl.read_parquet(io.BytesIO(raw))) if raw else EMPTY_POOL
        withdrawn = (
            [q["id"] for q in json.loads(withdrawn_raw)["questions"]] if withdrawn_raw else []
        )
        self._snapshot = snapshot.filter(~pl.col("question_id").is_in(withdrawn))
        self._fresh = self._fresh.filter(
            ~pl.col("question_id").is_in(snapshot["question_id"].to_list())
            & ~pl.col("question_id").is_in(withdrawn)
        )
        spent = read_spent_cells(coverage_raw) if coverage_raw else frozenset()
        self._view = PoolView(pl.concat([self._snapshot, self._fresh]), spent)
        log.info("pool snapshot: %d servable questions", self._snapshot.height)

    def add(self, rows: pl.DataFrame) -> None:
        """Questions this worker verified: servable here until the nightly's snapshot has them."""
        if rows.is_empty():
            return
        with self._lock:
            current = self._view or PoolView(EMPTY_POOL)
            rows = rows.filter(~pl.col("question_id").is_in(list(current.ids)))
            if rows.is_empty():
                return
            self._fresh = pl.concat([self._fresh, rows])
            self._view = PoolView(pl.concat([current.frame, rows]), current.spent)
