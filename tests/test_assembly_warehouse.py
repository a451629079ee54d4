"""What the warehouse gives assembly (pool columns, groups, withdrawals, cooldown), old papers
after the v2 migration, and how a paper's option order is rendered."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from core.ids import question_id
from core.pool import POOL_SCHEMA
from core.records import Draft, Paper, Question, SolverVerdict
from core.schema import MIGRATIONS, SCHEMA_VERSION
from core.warehouse import open_warehouse
from kb.knowledge import KnowledgeBase
from kb.syllabus import Syllabus
from pipeline.generate.fact_formats import FORWARD, REVERSE
from pipeline.generate.facts import single_correct_draft, two_statements_draft
from site_builder.documents import paper_document
from tests.conftest import sound_drafts


def stored(draft: Draft | None) -> Question:
    assert draft is not None
    return Question(
        question_id=question_id(draft.content),
        content=draft.content,
        provenance=draft.provenance,
        verdict=SolverVerdict(solver="s", choice=draft.content.correct_key, confidence=1.0),
    )


def numericals(syllabus: Syllabus, n: int) -> list[Question]:
    return [stored(d) for d in sound_drafts("phy-eom-final-velocity", syllabus, n)]


def test_the_pool_names_each_questions_near_duplicate_group(
    tmp_path: Path, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    table = next(t for t in kb.fact_tables if t.reverse_stem and len(t.facts) >= 8)
    fact = table.facts[0]
    forward = stored(single_correct_draft(table, fact, FORWARD, kb, syllabus))
    reverse = stored(single_correct_draft(table, fact, REVERSE, kb, syllabus))
    other = stored(single_correct_draft(table, table.facts[1], FORWARD, kb, syllabus))
    variants = numericals(syllabus, 2)
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.insert_questions([forward, reverse, other, *variants])
        pool = wh.pool()
    assert pool.schema == POOL_SCHEMA
    group = dict(zip(pool["question_id"], pool["near_duplicate_group"], strict=True))
    assert group[forward.question_id] == group[reverse.question_id]  # one fact: enemies
    assert group[forward.question_id] == f"{table.relation_id}#{fact.entity}|{fact.value}"
    assert group[other.question_id] != group[forward.question_id]
    assert (
        group[variants[0].question_id] == group[variants[1].question_id] == "phy-eom-final-velocity"
    )
    keys = dict(zip(pool["question_id"], pool["correct_key"], strict=True))
    assert keys[forward.question_id] == forward.content.correct_key
    assert not pool["figure"].any() and not pool["withdrawn"].any()


def test_seeded_fact_questions_stand_alone(
    tmp_path: Path, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    table = next(
        t for t in kb.fact_tables if len(t.facts) >= 8 and two_statements_draft(t, 0, kb, syllabus)
    )
    drafts = [two_statements_draft(table, seed, kb, syllabus) for seed in range(4)]
    questions = [stored(d) for d in drafts if d is not None]
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.insert_questions(questions)
        groups = wh.pool()["near_duplicate_group"]
    assert groups.n_unique() == len(questions)
    assert all(g.startswith(f"{table.relation_id}#format=two_statements&key=seed=") for g in groups)


def test_withdrawn_questions_are_flagged_and_use_is_counted(
    tmp_path: Path, syllabus: Syllabus
) -> None:
    qs = numericals(syllabus, 3)
    daily = Paper(
        exam_id="daily-2026-01-10",
        kind="daily",
        title="t",
        exam_date="2026-01-10",
        question_ids=(qs[0].question_id,),
        blueprint="b",
        option_orders=("BACD",),
    )
    custom = Paper(
        exam_id="exam-x",
        kind="custom",
        title="t",
        exam_date="2026-01-12",
        question_ids=(qs[0].question_id, qs[1].question_id),
        blueprint="b",
    )
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.insert_questions(qs)
        wh.insert_paper(daily)
        wh.insert_paper(custom)
        assert wh.withdraw(qs[2].question_id, "wrong key") is True
        assert wh.withdraw(qs[2].question_id, "again") is False
        with pytest.raises(KeyError):
            wh.withdraw("q-00000000000000000000", "no such question")
        pool = {r["question_id"]: r for r in wh.pool().to_dicts()}
        orders = wh.con.execute(
            "SELECT option_order FROM paper_items WHERE exam_id = 'daily-2026-01-10'"
        ).fetchall()
    assert orders == [("BACD",)]
    assert pool[qs[0].question_id]["times_used"] == 2
    assert pool[qs[0].question_id]["last_used"] == "2026-01-12"
    assert pool[qs[0].question_id]["last_daily"] == "2026-01-10"
    assert pool[qs[1].question_id]["last_daily"] is None
    assert pool[qs[2].question_id]["withdrawn"] is True
    assert pool[qs[2].question_id]["times_used"] == 0


def test_the_cooldown_starts_at_the_oldest_of_the_last_n_daily_papers(
    tmp_path: Path, syllabus: Syllabus
) -> None:
    q = numericals(syllabus, 1)[0]
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.insert_questions([q])
        assert wh.daily_cooldown_since("2026-01-20", 30) is None
        for day in (1, 3, 4, 8):
            date = f"2026-01-0{day}"
            wh.insert_paper(
                Paper(
                    exam_id=f"daily-{date}",
                    kind="daily",
                    title="t",
                    exam_date=date,
                    question_ids=(q.question_id,),
                    blueprint="b",
                )
            )
        assert wh.daily_cooldown_since("2026-01-20", 2) == "2026-01-04"
        assert wh.daily_cooldown_since("2026-01-20", 30) == "2026-01-01"
        assert wh.daily_cooldown_since("2026-01-04", 2) == "2026-01-01"  # before the date only
        assert wh.daily_cooldown_since("2026-01-20", 0) is None


def test_papers_stored_before_v2_still_load_and_render_the_same(
    tmp_path: Path, syllabus: Syllabus
) -> None:
    qs = numericals(syllabus, 2)
    old = Paper(
        exam_id="daily-2025-12-01",
        kind="daily",
        title="t",
        exam_date="2025-12-01",
        question_ids=tuple(q.question_id for q in qs),
        blueprint="daily-v1: 45 per subject, Easy 15 / Medium 20 / Hard 10",
    )
    path = tmp_path / "w.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ)"
    )
    con.execute(MIGRATIONS[0])
    con.execute("INSERT INTO schema_migrations VALUES (1, now())")
    record = old.model_dump_json(exclude={"option_orders", "composition"})
    con.execute(
        "INSERT INTO papers VALUES (?, 'daily', 't', '2025-12-01', 2, 'daily-v1', ?, now())",
        [old.exam_id, record],
    )
    con.execute(
        "INSERT INTO paper_items VALUES (?, 1, ?), (?, 2, ?)",
        [old.exam_id, qs[0].question_id, old.exam_id, qs[1].question_id],
    )
    con.close()
    with open_warehouse(path) as wh:
        assert wh.schema_version() == SCHEMA_VERSION
        loaded = wh.paper(old.exam_id)
        orders = wh.con.execute("SELECT option_order FROM paper_items").fetchall()
    assert loaded == old and loaded.option_orders == () and loaded.composition is None
    assert orders == [(None,), (None,)]
    document = paper_document(old, qs)
    assert "blueprint" not in document  # its published bytes stay what they were
    assert [q["correct_key"] for q in document["questions"]] == [q.content.correct_key for q in qs]


def test_a_paper_shows_each_questions_options_in_its_recorded_order(syllabus: Syllabus) -> None:
    q = numericals(syllabus, 1)[0]
    stored_key = q.content.correct_key
    shown_key = "D" if stored_key != "D" else "A"
    order = list("ABCD")
    order["ABCD".index(stored_key)], order["ABCD".index(shown_key)] = shown_key, stored_key
    paper = Paper(
        exam_id="exam-y",
        kind="custom",
        title="t",
        exam_date=None,
        question_ids=(q.question_id,),
        blueprint="b",
        option_orders=("".join(order),),
    )
    shown = paper_document(paper, [q])["questions"][0]
    assert shown["correct_key"] == shown_key
    assert [o["key"] for o in shown["options"]] == ["A", "B", "C", "D"]
    correct_text = q.content.option(stored_key).text
    assert next(o["text"] for o in shown["options"] if o["key"] == shown_key) == correct_text
    assert sorted(o["text"] for o in shown["options"]) == sorted(o.text for o in q.content.options)
    with pytest.raises(ValueError, match="permutations"):
        paper.model_validate({**paper.model_dump(), "option_orders": ("AABC",)})
