from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from core.records import Paper, Question, SolverVerdict
from core.schema import GROUPS_VERSION, SCHEMA_VERSION
from core.warehouse import ImmutableRecordError, open_warehouse
from kb.knowledge import KnowledgeBase
from kb.syllabus import Syllabus
from tests.conftest import sound_drafts
from tests.warehouse_versions import rewind


def make_question(syllabus: Syllabus, seed: int = 0) -> Question:
    from core.ids import question_id

    draft = sound_drafts("phy-eom-final-velocity", syllabus, seed + 1)[seed]
    return Question(
        question_id=question_id(draft.content),
        content=draft.content,
        provenance=draft.provenance,
        verdict=SolverVerdict(solver="s", choice=draft.content.correct_key, confidence=1.0),
    )


def test_schema_is_versioned_and_migrations_are_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    with open_warehouse(path) as wh:
        assert wh.schema_version() == SCHEMA_VERSION
    with open_warehouse(path) as wh:
        assert wh.migrate() == SCHEMA_VERSION
        rows = wh.con.execute("SELECT count(*) FROM schema_migrations").fetchall()
        assert rows[0][0] == SCHEMA_VERSION


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    with open_warehouse(path) as wh:
        wh.con.execute("INSERT INTO schema_migrations VALUES (99, now())")
    with pytest.raises(RuntimeError, match="newer"), open_warehouse(path):
        pass


def test_same_question_twice_is_a_no_op(tmp_path: Path, syllabus: Syllabus) -> None:
    q = make_question(syllabus)
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        assert wh.insert_questions([q]) == 1
        assert wh.insert_questions([q]) == 0
        assert wh.insert_questions([q, q]) == 0
        assert wh.count("questions") == 1
        assert wh.questions([q.question_id]) == [q]


def test_same_id_with_different_content_is_an_error(tmp_path: Path, syllabus: Syllabus) -> None:
    q = make_question(syllabus, 0)
    other = make_question(syllabus, 1)
    forged = Question(
        question_id=q.question_id,
        content=other.content,
        provenance=other.provenance,
        verdict=other.verdict,
    )
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.insert_questions([q])
        with pytest.raises(ImmutableRecordError, match=q.question_id):
            wh.insert_questions([forged])
        assert wh.questions([q.question_id]) == [q]


def test_questions_table_is_insert_only_in_spirit(tmp_path: Path, syllabus: Syllabus) -> None:
    # Primary key forbids a second row for an id even through raw SQL.
    q = make_question(syllabus)
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.insert_questions([q])
        with pytest.raises(duckdb.ConstraintException):
            wh.con.execute(
                "INSERT INTO questions SELECT * FROM questions WHERE question_id = ?",
                [q.question_id],
            )


def test_papers_store_ordered_items_once(tmp_path: Path, syllabus: Syllabus) -> None:
    qs = [make_question(syllabus, i) for i in range(3)]
    paper = Paper(
        exam_id="daily-2026-01-15",
        kind="daily",
        title="t",
        exam_date="2026-01-15",
        question_ids=tuple(q.question_id for q in qs),
        blueprint="b",
    )
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.insert_questions(qs)
        assert wh.insert_paper(paper) is True
        assert wh.insert_paper(paper) is False
        assert wh.paper(paper.exam_id) == paper
        assert wh.count("paper_items") == 3
        changed = paper.model_copy(update={"question_ids": paper.question_ids[::-1]})
        with pytest.raises(ImmutableRecordError):
            wh.insert_paper(changed)
        pool = wh.pool()
        assert pool["times_used"].to_list() == [1, 1, 1]
        assert set(pool["last_used"].to_list()) == {"2026-01-15"}


def test_a_read_only_open_of_an_older_warehouse_says_how_to_upgrade_it(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    with open_warehouse(path) as wh:  # as a warehouse last written by the qforge before v4
        rewind(wh, GROUPS_VERSION)  # relabellings (v5) and the feedback tables (v7) go too
        wh.con.execute("ALTER TABLE questions DROP COLUMN near_duplicate_group")
        wh.con.execute("ALTER TABLE questions DROP COLUMN family")
    with (
        pytest.raises(RuntimeError, match="older than this qforge"),
        open_warehouse(path, read_only=True),
    ):
        pass
    with open_warehouse(path) as wh:  # any writing command upgrades it
        assert wh.schema_version() == SCHEMA_VERSION
    with open_warehouse(path, read_only=True) as wh:
        assert wh.pool().is_empty()


def test_a_near_variant_is_the_family_of_its_base_form(
    tmp_path: Path, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    """A match list among close codings and one among far codings of one relation are one
    family (a paper takes one); families stored with the variant's suffix are refilled."""
    from core.ids import question_id
    from core.pool import question_family
    from pipeline.generate import facts

    table = next(t for t in kb.fact_tables if t.relation_id == "n19-bot-mutation-term")
    close, plain = (
        facts.match_list_draft(table, seed, kb, syllabus, None, near)
        for seed, near in ((0, True), (1, False))
    )
    assert close is not None and plain is not None
    assert dict(close.provenance.params)["format"] == "match_list_close"
    assert question_family(close.provenance, "match_list") == question_family(
        plain.provenance, "match_list"
    )
    stored = Question(
        question_id=question_id(close.content),
        content=close.content,
        provenance=close.provenance,
        verdict=SolverVerdict(solver="s", choice=close.content.correct_key, confidence=1.0),
    )
    path = tmp_path / "w.duckdb"
    with open_warehouse(path) as wh:  # as the qforge before v6 stored it
        wh.insert_questions([stored])
        wh.con.execute("UPDATE questions SET family = family || '_close'")
        rewind(wh, 6)
    with open_warehouse(path) as wh:
        families = wh.pool()["family"].to_list()
    assert families == [f"{table.relation_id}|match_list"]
