from __future__ import annotations

import re

import pytest

from core.records import Subject
from kb.syllabus import Syllabus, UnknownTopicError

REQUIRED_UNIT_COUNTS = {"Physics": 20, "Chemistry": 20, "Biology": 10}


def test_unit_counts_match_the_nmc_syllabus(syllabus: Syllabus) -> None:
    counts: dict[str, int] = {}
    for unit in syllabus.source.units:
        counts[unit.syllabus_subject] = counts.get(unit.syllabus_subject, 0) + 1
    assert counts == REQUIRED_UNIT_COUNTS


def test_unit_names_follow_the_reference(syllabus: Syllabus) -> None:
    names = [u.name for u in syllabus.source.units]
    assert names[0] == "Physics and Measurement"
    assert names[20] == "Some Basic Concepts in Chemistry"
    assert names[40] == "Diversity in Living World"
    assert names[-1] == "Ecology and Environment"


def test_ids_are_unique_and_well_formed(syllabus: Syllabus) -> None:
    ids = [t.topic_id for t in syllabus.topics.values()]
    assert len(ids) == len(set(ids))
    for topic in syllabus.topics.values():
        prefix = {"Physics": "phy", "Chemistry": "che", "Botany": "bot", "Zoology": "zoo"}
        assert re.fullmatch(rf"{prefix[topic.subject.value]}-[a-z0-9-]+", topic.topic_id)


def test_biology_chapters_are_botany_or_zoology(syllabus: Syllabus) -> None:
    for unit in syllabus.source.units:
        if unit.syllabus_subject == "Biology":
            assert {c.subject for c in unit.chapters} <= {Subject.BOTANY, Subject.ZOOLOGY}


@pytest.mark.parametrize(
    "name", ["Digestion and Absorption", "States of Matter", "Transport in Plants", "Polymers"]
)
def test_chapters_deleted_in_2024_are_recorded_as_deleted(syllabus: Syllabus, name: str) -> None:
    chapters = [c for u in syllabus.source.units for c in u.chapters if c.name.startswith(name)]
    assert chapters, name
    assert all(c.deleted for c in chapters)
    assert all(syllabus.topic(t.topic_id).deleted for c in chapters for t in c.topics)


def test_every_subject_has_live_topics(syllabus: Syllabus) -> None:
    for subject in Subject:
        assert len(syllabus.live_topics(subject)) > 20


def test_unknown_topic_names_the_id(syllabus: Syllabus) -> None:
    with pytest.raises(UnknownTopicError, match="no-such-topic"):
        syllabus.topic("no-such-topic")
