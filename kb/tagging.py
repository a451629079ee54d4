"""Syllabus tagging: front matter when given, otherwise similarity to the syllabus topics."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from core.providers import Embedder
from core.records import Subject
from kb.syllabus import Syllabus, Topic

Status = Literal["in_syllabus", "deleted_topic", "out_of_syllabus"]
# Below this cosine similarity a text is not about any syllabus topic we know.
MIN_SIMILARITY = 0.52


@dataclass(frozen=True)
class Tag:
    topic_id: str | None
    unit_id: str | None
    chapter_id: str | None
    subject: str | None
    confidence: float
    method: Literal["front_matter", "similarity", "none"]
    status: Status


def topic_text(topic: Topic) -> str:
    return f"{topic.name}. {topic.chapter_name}. {topic.unit_name}. {topic.subject.value}"


@dataclass(frozen=True)
class TopicIndex:
    """Prototype vectors per syllabus topic (live and deleted): its name, plus example texts.

    `owner[i]` is the index in `topics` of prototype row i; a text's similarity to a topic is its
    best similarity to any of that topic's prototypes.
    """

    topics: tuple[Topic, ...]
    matrix: NDArray[np.float32]
    owner: NDArray[np.int64]
    model_id: str

    @classmethod
    def build(
        cls, syllabus: Syllabus, embedder: Embedder, examples: Mapping[str, Sequence[str]] = {}
    ) -> TopicIndex:
        topics = tuple(syllabus.topics.values())
        texts, owner = [], []
        for i, t in enumerate(topics):
            for text in (topic_text(t), *examples.get(t.topic_id, ())):
                texts.append(text)
                owner.append(i)
        return cls(topics, embedder.embed(texts), np.array(owner), embedder.model_id)


def _tag_for(topic: Topic, confidence: float, method: Literal["front_matter", "similarity"]) -> Tag:
    return Tag(
        topic_id=topic.topic_id,
        unit_id=topic.unit_id,
        chapter_id=topic.chapter_id,
        subject=topic.subject.value,
        confidence=round(float(confidence), 4),
        method=method,
        status="deleted_topic" if topic.deleted else "in_syllabus",
    )


def front_matter_tag(syllabus: Syllabus, meta: dict[str, str]) -> Tag | None:
    """The tag a document's front matter fixes (topic_id), or None when it fixes none."""
    topic_id = meta.get("topic_id")
    if not topic_id:
        return None
    return _tag_for(syllabus.topic(topic_id), 1.0, "front_matter")


def similarity_tags(
    index: TopicIndex,
    vectors: NDArray[np.float32],
    subject: str | None = None,
    unit_id: str | None = None,
) -> list[Tag]:
    """The closest topic for each vector, restricted to a subject or unit when the source says."""
    if len(vectors) == 0:
        return []
    allowed = np.array(
        [
            (subject is None or t.subject.value == subject)
            and (unit_id is None or t.unit_id == unit_id)
            for t in index.topics
        ]
    )
    if not allowed.any():
        allowed[:] = True
    sims = vectors @ index.matrix.T
    sims[:, ~allowed[index.owner]] = -1.0
    tags = []
    for row in sims:
        best = int(np.argmax(row))
        if row[best] < MIN_SIMILARITY:
            tags.append(
                Tag(
                    None, None, None, subject, round(float(row[best]), 4), "none", "out_of_syllabus"
                )
            )
        else:
            tags.append(_tag_for(index.topics[index.owner[best]], row[best], "similarity"))
    return tags


def subject_of(meta: dict[str, str]) -> str | None:
    value = meta.get("subject")
    return Subject(value).value if value in {s.value for s in Subject} else None
