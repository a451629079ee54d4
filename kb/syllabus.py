"""The NMC NEET-UG syllabus as data: units → chapters → topics, with stable ids."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

from core.records import Record, Subject, SyllabusTag

SYLLABUS_FILE = Path("syllabus") / "neet_ug.json"


class TopicEntry(Record):
    topic_id: str
    name: str
    deleted: bool


class ChapterEntry(Record):
    chapter_id: str
    name: str
    subject: Subject
    deleted: bool
    topics: tuple[TopicEntry, ...]


class UnitEntry(Record):
    unit_id: str
    syllabus_subject: Literal["Physics", "Chemistry", "Biology"]
    number: int
    name: str
    chapters: tuple[ChapterEntry, ...]


class SyllabusFile(Record):
    syllabus_id: str
    title: str
    source_note: str
    units: tuple[UnitEntry, ...]


@dataclass(frozen=True)
class Topic:
    """A topic with its place in the syllabus; `deleted` topics never appear in papers."""

    topic_id: str
    name: str
    deleted: bool
    subject: Subject
    unit_id: str
    unit_number: int
    unit_name: str
    chapter_id: str
    chapter_name: str

    @property
    def tag(self) -> SyllabusTag:
        return SyllabusTag(
            subject=self.subject,
            unit_id=self.unit_id,
            chapter_id=self.chapter_id,
            topic_id=self.topic_id,
            topic_name=self.name,
        )


class UnknownTopicError(KeyError):
    """A topic id that is not in the syllabus."""


@dataclass(frozen=True)
class Syllabus:
    source: SyllabusFile

    @cached_property
    def topics(self) -> dict[str, Topic]:
        out: dict[str, Topic] = {}
        for unit in self.source.units:
            for chapter in unit.chapters:
                for t in chapter.topics:
                    if t.topic_id in out:
                        raise ValueError(f"duplicate topic id {t.topic_id}")
                    out[t.topic_id] = Topic(
                        topic_id=t.topic_id,
                        name=t.name,
                        deleted=t.deleted or chapter.deleted,
                        subject=chapter.subject,
                        unit_id=unit.unit_id,
                        unit_number=unit.number,
                        unit_name=unit.name,
                        chapter_id=chapter.chapter_id,
                        chapter_name=chapter.name,
                    )
        return out

    def topic(self, topic_id: str) -> Topic:
        """The topic, or UnknownTopicError naming the id."""
        try:
            return self.topics[topic_id]
        except KeyError:
            raise UnknownTopicError(f"unknown topic_id {topic_id!r}") from None

    def live_topics(self, subject: Subject | None = None) -> list[Topic]:
        return [
            t
            for t in self.topics.values()
            if not t.deleted and (subject is None or t.subject == subject)
        ]

    def unit_order(self) -> dict[str, int]:
        """Position of each unit in syllabus order (Physics, Chemistry, then Biology)."""
        return {u.unit_id: i for i, u in enumerate(self.source.units)}


def load_syllabus(data_dir: Path) -> Syllabus:
    """The bundled syllabus, validated."""
    raw = json.loads((data_dir / SYLLABUS_FILE).read_text(encoding="utf-8"))
    syllabus = Syllabus(SyllabusFile.model_validate(raw))
    _ = syllabus.topics  # raises on duplicate ids now, not at first lookup
    return syllabus
