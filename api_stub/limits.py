"""Protecting what the worker's calls cost: API keys, per-key rate limits and daily quotas."""

from __future__ import annotations

import datetime as dt
import json
import logging
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from core.ids import digest
from core.keys import dev_api_key
from core.settings import Settings
from core.storage import ObjectStore

QUOTA_PREFIX = "internal/quota/"
log = logging.getLogger(__name__)


class LimitExceeded(Exception):
    """Over a rate limit or quota (429); `retry_after` is whole seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        self.retry_after = max(1, retry_after)
        super().__init__(message)


def key_id(api_key: str) -> str:
    """What records name a key by: a digest, so no store ever holds a key."""
    return "key-" + digest(["api-key", api_key])


def allowed_keys(settings: Settings) -> dict[str, str]:
    """Key id by key: the configured keys, else the development key."""
    keys = [k.get_secret_value() for k in settings.api_keys] or [
        dev_api_key(settings.dev_api_key_path)
    ]
    return {k: key_id(k) for k in keys}


def bearer_token(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


@dataclass
class _Bucket:
    tokens: float
    updated: float


class RateLimiter:
    """A token bucket per key: `per_minute` steady, `burst` at once (per replica).

    Kept over the `limits` package, which has windows, not buckets: its nearest (`burst` per
    the refill time) makes a client that spent its burst wait out the whole window, and it
    reads the wall clock with no way to pass one in (BENCHMARKS.md, `bench/libraries.py`).
    """

    def __init__(self, per_minute: int, burst: int, clock: Callable[[], float]) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def wait(self, key: str) -> int:
        """Seconds until key has a request to spend (0: it has one now); spends nothing."""
        now = self.clock()
        with self._lock:
            b = self._buckets.get(key)
            if b is None:
                return 0
            tokens = min(float(self.burst), b.tokens + (now - b.updated) * self.rate)
            return 0 if tokens >= 1 else max(1, math.ceil((1 - tokens) / self.rate))

    def take(self, key: str) -> None:
        """Spend one request of key's allowance, or raise LimitExceeded."""
        now = self.clock()
        with self._lock:
            b = self._buckets.get(key) or _Bucket(float(self.burst), now)
            b.tokens = min(float(self.burst), b.tokens + (now - b.updated) * self.rate)
            b.updated = now
            self._buckets[key] = b
            if b.tokens >= 1:
                b.tokens -= 1
                return
            wait = math.ceil((1 - b.tokens) / self.rate)
        raise LimitExceeded(
            f"rate limit: {round(self.rate * 60)} requests a minute per key; retry in {wait} s",
            wait,
        )


def seconds_to_midnight(now: dt.datetime, timezone: str) -> int:
    local = now.astimezone(ZoneInfo(timezone))
    midnight = dt.datetime.combine(local.date() + dt.timedelta(days=1), dt.time(), local.tzinfo)
    return max(1, math.ceil((midnight - local).total_seconds()))


class DailyQuota:
    """How much of one thing (questions generated, answers kept, reports kept) a key may have per
    local day, counted in the object store: one object per counter, key and day.

    Replicas share the count through the store; a read-modify-write under a lock per key (one
    key's write never waits for another's), so two replicas racing in the same instant can both
    pass, and a refund racing another replica's reservation can give back that one's count too
    (the quota is a spending guard, not a bill). `refusal` words a refusal from `needed`,
    `left`, `per_day` and `timezone`.
    """

    def __init__(
        self, store: ObjectStore, counter: str, per_day: int, timezone: str, refusal: str
    ) -> None:
        self.store = store
        self.counter = counter
        self.per_day = per_day
        self.timezone = timezone
        self.refusal = refusal
        self._locks: dict[str, threading.Lock] = {}  # one per API key: the keys are configured
        self._guard = threading.Lock()

    def _key(self, key: str, now: dt.datetime) -> str:
        day = now.astimezone(ZoneInfo(self.timezone)).date().isoformat()
        return f"{QUOTA_PREFIX}{self.counter}/{day}/{key}"

    def used(self, key: str, now: dt.datetime) -> int:
        raw = self.store.get(self._key(key, now))
        return int(json.loads(raw)[self.counter]) if raw else 0

    def reserve(self, key: str, needed: int, now: dt.datetime) -> None:
        """Count `needed` against key's day, or raise LimitExceeded leaving it unchanged."""
        with self._lock_of(key):
            used = self.used(key, now)
            if used + needed > self.per_day:
                left = max(0, self.per_day - used)
                raise LimitExceeded(
                    self.refusal.format(
                        needed=needed, left=left, per_day=self.per_day, timezone=self.timezone
                    ),
                    seconds_to_midnight(now, self.timezone),
                )
            self._write(key, now, used + needed)

    def refund(self, key: str, spent: int, now: dt.datetime) -> None:
        """Give back what `reserve(key, spent, now)` counted (the same `now`, so the same day),
        for something that was not kept after all."""
        with self._lock_of(key):
            used = self.used(key, now)
            if used < spent:  # another replica's write in between (see the class docstring)
                log.warning("%s quota: refunding %d of %d counted", self.counter, spent, used)
            if used:
                self._write(key, now, max(0, used - spent))

    def _lock_of(self, key: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(key, threading.Lock())

    def _write(self, key: str, now: dt.datetime, used: int) -> None:
        self.store.put(self._key(key, now), json.dumps({self.counter: used}).encode())


def daily_quotas(settings: Settings, store: ObjectStore) -> dict[str, DailyQuota]:
    """The worker's daily quotas per key, by what they count."""
    tz = settings.timezone
    today = "{left} of {per_day} are left today ({timezone})"
    return {
        "generated": DailyQuota(
            store,
            "generated",
            settings.daily_generation_quota,
            tz,
            "daily generation quota: this request needs {needed} new questions, "
            + today
            + "; requests the pool can serve still work",
        ),
        "answers": DailyQuota(
            store,
            "answers",
            settings.daily_answer_quota,
            tz,
            "daily answer quota: this batch has {needed} answers to keep, " + today,
        ),
        "reports": DailyQuota(
            store, "reports", settings.daily_report_quota, tz, "daily report quota: " + today
        ),
    }
