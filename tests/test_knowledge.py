from __future__ import annotations

from pathlib import Path

import pytest

from core.records import Subject
from kb.knowledge import KnowledgeBase, load_chunk, parse_front_matter
from kb.syllabus import Syllabus
from pipeline.generate.facts import supporting_sentence
from tests.conftest import DATA_DIR


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


def test_every_fact_and_cause_is_filed_under_a_live_topic_of_its_subject(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    tags = [(t.subject, t.relation_id, t.topic_of(f)) for t in kb.fact_tables for f in t.facts]
    tags += [(t.subject, t.relation_id, t.topic_of(c)) for t in kb.cause_tables for c in t.causes]
    for subject, relation_id, topic_id in tags:
        assert topic_id is not None, relation_id
        topic = syllabus.topic(topic_id)
        assert not topic.deleted and topic.subject == subject, (relation_id, topic_id)


def test_every_tag_is_confirmed_by_the_tagger_its_chunk_or_a_review(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    from core.settings import Settings
    from kb.tag_check import check_tags, confusion_lines, load_tag_reviews
    from pipeline.compose import build_embedder

    reviews = load_tag_reviews(DATA_DIR)
    checks = check_tags(kb, syllabus, build_embedder(Settings()), reviews)
    unconfirmed = [(c.relation_id, c.item, c.tag, c.tagger_best) for c in checks if not c.confirmed]
    assert unconfirmed == [], "\n".join(confusion_lines(checks))
    # Every review names a fact or cause that exists, under a live topic.
    items = {(c.relation_id, c.item) for c in checks}
    for key, topic_id in reviews.items():
        assert key in items, key
        assert not syllabus.topic(topic_id).deleted


def test_a_tag_the_chunk_alone_vouches_for_is_not_confirmed(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    """The check can fail: a fact moved to a topic of another chapter is caught."""
    from core.settings import Settings
    from kb.knowledge import FactTable
    from kb.tag_check import check_tags
    from pipeline.compose import build_embedder

    table = next(t for t in kb.fact_tables if t.relation_id == "zoo-disease-pathogen")
    wrong = syllabus.topic("zoo-human-heart")
    facts = tuple(f.model_copy(update={"topic_id": wrong.topic_id}) for f in table.facts)
    moved = table.model_copy(update={"facts": facts})
    tampered = KnowledgeBase(chunks=kb.chunks, fact_tables=(moved,))
    checks = check_tags(tampered, syllabus, build_embedder(Settings()), {})
    assert isinstance(moved, FactTable)
    assert [c.evidence for c in checks] == ["none"] * len(table.facts)
