from __future__ import annotations

from pathlib import Path

import pytest

from core.records import Subject
from kb.knowledge import KnowledgeBase, load_chunk, parse_front_matter
from kb.syllabus import Syllabus
from pipeline.generate.facts import supporting_sentence


def test_every_fact_table_is_tagged_with_a_live_topic_of_its_subject(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    for table in kb.fact_tables:
        assert table.topic_id is not None, table.relation_id
        topic = syllabus.topic(table.topic_id)
        assert not topic.deleted, table.relation_id
        assert topic.subject == table.subject, table.relation_id


def test_every_fact_is_stated_in_one_sentence_of_its_chunk(kb: KnowledgeBase) -> None:
    missing = [
        (t.relation_id, f.entity)
        for t in kb.fact_tables
        for f in t.facts
        if supporting_sentence(kb, f) is None
    ]
    assert missing == []


def test_the_sample_covers_every_subject(kb: KnowledgeBase) -> None:
    for subject in Subject:
        if subject is not Subject.PHYSICS:  # physics is numerical templates for now
            assert sum(len(t.facts) for t in kb.fact_tables if t.subject == subject) >= 80


def test_front_matter_errors_name_the_problem(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="missing front matter"):
        parse_front_matter("no front matter")
    with pytest.raises(ValueError, match="not closed"):
        parse_front_matter("---\nchunk_id: x\n")
    bad = tmp_path / "bad.md"
    bad.write_text("---\nchunk_id: x\nsubject: Astrology\n---\ntext", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.md"):
        load_chunk(bad)
