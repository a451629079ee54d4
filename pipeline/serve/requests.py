"""The two worker requests as typed orders, the limits they are held to, and the problems a
request can have (422 with each problem, or 404 for a topic the syllabus lacks).

The body rules live in the contract's models (`site_builder.contract`), which the OpenAPI
document is generated from; the worker runs each body through its model (`api_stub.requests`)
and then checks here what needs the syllabus: a live `topic_id`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.records import Difficulty, Subject
from kb.syllabus import Syllabus, Topic, UnknownTopicError

MAX_PRACTICE_QUESTIONS = 10
EXAM_TYPES = ("NEET_UG", "NEET", "NEET-UG")  # canonical first; accepted in any case
SYLLABUS_PATH = "/api/v1/syllabus"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a request: where (`loc`, as in the body) and why."""

    loc: tuple[str | int, ...]
    message: str

    def detail(self) -> dict[str, Any]:
        return {"loc": ["body", *self.loc], "msg": self.message}


class InvalidRequest(ValueError):
    """The body breaks one or more rules (422); `problems` lists each."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__(
            "; ".join(f"{'.'.join(map(str, p.loc)) or 'body'}: {p.message}" for p in problems)
        )


class UnknownTopic(LookupError):
    """The topic id names no topic of the syllabus (404)."""

    def __init__(self, topic_id: str) -> None:
        self.topic_id = topic_id
        super().__init__(
            f"no topic {topic_id!r} in the syllabus; topic ids are listed at {SYLLABUS_PATH}"
        )


class InsufficientPool(LookupError):
    """Neither the pool nor the generators can make the practice set (409): `available` is,
    per difficulty, how many distinct questions a set of the topic could have."""

    def __init__(
        self, topic_id: str, difficulty: Difficulty, count: int, available: Mapping[Difficulty, int]
    ) -> None:
        self.topic_id = topic_id
        self.available = dict(available)
        counts = ", ".join(f"{d.value} {n}" for d, n in self.available.items())
        super().__init__(
            f"topic {topic_id!r} can have {self.available[difficulty]} distinct "
            f"{difficulty.value} questions, not {count} (available per difficulty: {counts}); "
            f"the counts as of the last nightly are at {SYLLABUS_PATH}"
        )

    def details(self) -> list[dict[str, object]]:
        return [
            {"topic_id": self.topic_id, "difficulty": d.value, "available": n}
            for d, n in self.available.items()
        ]


@dataclass(frozen=True)
class PracticeOrder:
    topic: Topic
    difficulty: Difficulty
    count: int


@dataclass(frozen=True)
class ExamOrder:
    exam_type: str
    subjects: tuple[Subject, ...]  # canonical order
    distribution: Mapping[Difficulty, float]


def live_topic(topic_id: str, syllabus: Syllabus) -> Topic:
    """The requested topic: UnknownTopic (404) if the syllabus has no such topic, InvalidRequest
    (422) if the 2024 revision removed it."""
    try:
        topic = syllabus.topic(topic_id)
    except UnknownTopicError:
        raise UnknownTopic(topic_id) from None
    if topic.deleted:
        raise InvalidRequest(
            [
                Problem(
                    ("topic_id",),
                    f"topic {topic_id!r} was removed from the syllabus; live topics are "
                    f"listed at {SYLLABUS_PATH}",
                )
            ]
        )
    return topic
