"""What students send back: answer logs and error reports, as the worker keeps them in the
object-store outbox and the nightly ingests them. Never a name, email or phone: a learner is a
pseudonymous id the client makes (a UUID or a hex digest)."""

from __future__ import annotations

import datetime as dt
import re
from enum import StrEnum

from pydantic import Field

from core.ids import digest
from core.record import Record
from core.records import OptionKey

ANSWERS_PREFIX = "internal/outbox-answers/"
REPORTS_PREFIX = "internal/outbox-reports/"
MAX_BATCH_ANSWERS = 500
MAX_ANSWER_SECONDS = 3 * 60 * 60  # a whole NEET paper: no single answer takes longer
MAX_REPORT_CHARS = 500
# A UUID or a hex digest of 16–64 characters, with at least one letter a–f: an email (`@`), a
# name (letters beyond f) or a phone number (digits only) does not fit. The pattern has no
# look-ahead (JSON Schema tools and pydantic's engine take it as it is); the length is apart.
LEARNER_ID_PATTERN = r"^[0-9-]*[a-fA-F][0-9a-fA-F-]*$"
LEARNER_ID_LENGTH = (16, 64)
# Starts with a letter or digit, as every part of an object-store key must (a batch is kept
# under its id).
BATCH_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]{7,63}$"
_PSEUDONYM = re.compile(LEARNER_ID_PATTERN)


def is_pseudonym(learner_id: str) -> bool:
    """Whether a learner id is the pseudonym the API asks for (LEARNER_ID_PATTERN, its length)."""
    low, high = LEARNER_ID_LENGTH
    return low <= len(learner_id) <= high and _PSEUDONYM.fullmatch(learner_id) is not None


class ReportReason(StrEnum):
    WRONG_KEY = "wrong_key"
    TWO_CORRECT = "two_correct_options"
    NO_CORRECT = "no_correct_option"
    OUT_OF_SYLLABUS = "out_of_syllabus"
    TYPO = "typo"
    FIGURE_WRONG = "figure_wrong"


class Answer(Record):
    """One learner's answer to one question, as accepted."""

    question_id: str
    exam_id: str  # the daily paper, custom exam or practice set it was answered in
    learner_id: str
    chosen_key: OptionKey | None  # None: skipped
    seconds: float = Field(ge=0, le=MAX_ANSWER_SECONDS)


class RefusedRow(Record):
    """A row of a batch that was not accepted, with every reason."""

    index: int = Field(ge=0)
    reasons: tuple[str, ...]


class AnswerBatch(Record):
    """One posted batch: one outbox object, written once under its client's batch id."""

    batch_id: str
    key_id: str  # the API key's digest (api_stub.limits.key_id), never the key
    received_at: dt.datetime
    answers: tuple[Answer, ...]
    refused: tuple[RefusedRow, ...] = ()  # kept so a repeated post is answered the same


def answers_key(key_id: str, batch_id: str) -> str:
    """Where a batch lives: per API key, so two clients' batch ids never collide."""
    return f"{ANSWERS_PREFIX}{key_id}/{batch_id}"


class ErrorReport(Record):
    """A learner's report that a question is wrong; `text` is already sanitised."""

    report_id: str
    question_id: str
    learner_id: str
    reason: ReportReason
    option: OptionKey | None = None
    text: str = Field(default="", max_length=MAX_REPORT_CHARS)
    key_id: str
    received_at: dt.datetime


def report_id(
    question_id: str, learner_id: str, reason: ReportReason, option: str | None, text: str
) -> str:
    """The same report from the same learner twice is one report."""
    return "r-" + digest(["report", question_id, learner_id, reason.value, option, text])


def report_key(report_id: str) -> str:
    return f"{REPORTS_PREFIX}{report_id}"
