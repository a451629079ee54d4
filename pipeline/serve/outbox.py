"""Questions the worker generated between nightly runs: checked before the warehouse takes them."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError

from core.ids import question_id
from core.records import OUTBOX_PREFIX, OutboxEntry, Verdict


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
