"""What the worker left in the outbox between nightly runs (questions it generated, students'
answers and error reports): each checked before the warehouse takes it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from pydantic import ValidationError

from core.feedback import (
    AnswerBatch,
    ErrorReport,
    answers_key,
    is_pseudonym,
    report_id,
    report_key,
)
from core.ids import question_id
from core.records import OUTBOX_PREFIX, OutboxEntry, Verdict
from core.storage import ObjectStore

T = TypeVar("T")


@dataclass(frozen=True)
class OutboxProblem:
    key: str
    reason: str


def outbox_entry(key: str, raw: bytes) -> OutboxEntry | OutboxProblem:
    """The entry stored under key, or the named reason it cannot be taken.

    An entry is taken only if its id is the hash of its content (nothing edited after the
    worker verified it), it names the key it is stored under, and an accepted attempt by a
    solver vouches for it.
    """
    try:
        entry = OutboxEntry.model_validate_json(raw)
    except ValidationError as exc:
        return OutboxProblem(key, f"not an outbox entry: {exc.error_count()} validation errors")
    q = entry.question
    if key != f"{OUTBOX_PREFIX}{q.question_id}":
        return OutboxProblem(key, f"stored under another id than {q.question_id}")
    if question_id(q.content) != q.question_id:
        return OutboxProblem(key, "the id is not the hash of the content")
    if not any(
        a.verdict is Verdict.ACCEPTED and a.question_id == q.question_id for a in entry.attempts
    ):
        return OutboxProblem(key, "no accepted attempt vouches for it")
    return entry


def answer_batch_entry(key: str, raw: bytes) -> AnswerBatch | OutboxProblem:
    """The answer batch stored under key, or why it cannot be taken: it must name the key it is
    stored under and every learner must be a pseudonym (the worker checked; this checks again,
    so no name, email or phone reaches the warehouse whatever wrote the object)."""
    try:
        batch = AnswerBatch.model_validate_json(raw)
    except ValidationError as exc:
        return OutboxProblem(key, f"not an answer batch: {exc.error_count()} validation errors")
    if key != answers_key(batch.key_id, batch.batch_id):
        return OutboxProblem(key, "stored under another key than its batch id names")
    if any(not is_pseudonym(a.learner_id) for a in batch.answers):
        return OutboxProblem(key, "a learner id is not a pseudonym")
    return batch


def report_entry(key: str, raw: bytes) -> ErrorReport | OutboxProblem:
    """The error report stored under key, or why it cannot be taken: its id must be the hash
    of what it says, stored under that id, from a pseudonymous learner."""
    try:
        r = ErrorReport.model_validate_json(raw)
    except ValidationError as exc:
        return OutboxProblem(key, f"not an error report: {exc.error_count()} validation errors")
    if r.report_id != report_id(r.question_id, r.learner_id, r.reason, r.option, r.text):
        return OutboxProblem(key, "the id is not the hash of the report")
    if key != report_key(r.report_id):
        return OutboxProblem(key, f"stored under another id than {r.report_id}")
    if not is_pseudonym(r.learner_id):
        return OutboxProblem(key, "the learner id is not a pseudonym")
    return r


def read_outbox(
    store: ObjectStore, keys: Iterable[str], entry: Callable[[str, bytes], T | OutboxProblem]
) -> tuple[list[T], list[OutboxProblem]]:
    """The entries stored under keys, each read and checked by `entry`, and the refused ones
    with their reasons (a key gone between listing and reading among them)."""
    taken: list[T] = []
    refused: list[OutboxProblem] = []
    for key in keys:
        raw = store.get(key)
        got = entry(key, raw) if raw is not None else OutboxProblem(key, "vanished")
        if isinstance(got, OutboxProblem):
            refused.append(got)
        else:
            taken.append(got)
    return taken, refused
