"""Poll answers of completed jobs kept in memory, bounded by their total bytes."""

from __future__ import annotations

import threading

from cachetools import LRUCache


class AnswerCache:
    """Poll answer bytes by job id; past `max_bytes` in all, the least recently read go first.

    cachetools does the sizing and eviction; it is not thread-safe, and a read reorders it, so
    every access takes the lock (the worker answers polls from a threadpool).
    """

    def __init__(self, max_bytes: int) -> None:
        self._answers: LRUCache[str, bytes] = LRUCache(maxsize=max_bytes, getsizeof=len)
        self._lock = threading.Lock()

    def get(self, job_id: str) -> bytes | None:
        with self._lock:
            return self._answers.get(job_id)

    def keep(self, job_id: str, body: bytes) -> None:
        """Keep body as job_id's answer; one larger than the whole bound is not kept."""
        if len(body) > self._answers.maxsize:
            return  # cachetools would raise ValueError; such an answer is built on each poll
        with self._lock:
            self._answers[job_id] = body

    def __contains__(self, job_id: object) -> bool:
        with self._lock:
            return job_id in self._answers

    def job_ids(self) -> list[str]:
        """The kept job ids, least recently read first."""
        with self._lock:
            return list(self._answers)

    @property
    def size(self) -> int:
        """Bytes kept."""
        with self._lock:
            return int(self._answers.currsize)
