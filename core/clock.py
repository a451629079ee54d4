"""Exam-day arithmetic in the exam's time zone (papers roll over at 00:00 Asia/Kolkata)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo


def exam_today(timezone: str, now: dt.datetime | None = None) -> dt.date:
    """Today's date in the exam time zone."""
    now = now or dt.datetime.now(dt.UTC)
    return now.astimezone(ZoneInfo(timezone)).date()


def seconds_until_rollover(timezone: str, now: dt.datetime | None = None) -> int:
    """Seconds until the next 00:00 in the exam time zone (at least 1)."""
    zone = ZoneInfo(timezone)
    local = (now or dt.datetime.now(dt.UTC)).astimezone(zone)
    midnight = dt.datetime.combine(local.date() + dt.timedelta(days=1), dt.time(), tzinfo=zone)
    return max(1, int((midnight - local).total_seconds()))


def parse_exam_date(text: str) -> dt.date:
    """A YYYY-MM-DD date, or ValueError with a message a user can act on."""
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"invalid date {text!r}: expected YYYY-MM-DD, e.g. 2026-11-25") from None
