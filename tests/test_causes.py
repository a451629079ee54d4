"""Assertion–reason questions: each case keyed right, confirmed, never rubber-stamped."""

from __future__ import annotations

from collections import Counter

from core.records import Difficulty, QuestionFormat, Verdict
from kb.knowledge import KnowledgeBase
from kb.syllabus import Syllabus
from pipeline.generate.causes import (
    ASSERTION_REASON_OPTIONS,
    assertion_reason_drafts,
    supporting_cause_sentence,
)
from pipeline.templates.catalogue import TEMPLATES_BY_ID
from pipeline.verify.gate import judged, solver_view
from pipeline.verify.solver import OfflineSolver


def _drafts(kb: KnowledgeBase, syllabus: Syllabus):
    return [
        d
        for t in kb.cause_tables
        for d in assertion_reason_drafts(t, Difficulty.MEDIUM, kb, syllabus)
    ]


def test_every_cause_is_stated_in_one_sentence_of_a_live_topic(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    assert kb.cause_tables
    for table in kb.cause_tables:
        topic = syllabus.topic(table.topic_id)
        assert not topic.deleted and topic.subject == table.subject, table.relation_id
        for cause in table.causes:
            assert supporting_cause_sentence(kb, cause) is not None, cause.assertion


def test_each_case_has_its_key_and_only_medium_cells_get_them(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    drafts = _drafts(kb, syllabus)
    cases: Counter[int] = Counter()
    for d in drafts:
        c = d.content
        case = int(dict(d.provenance.params)["case"])
        cases[case] += 1
        # Two claims to judge, then whether one explains the other: two steps, Medium.
        assert c.format is QuestionFormat.ASSERTION_REASON and c.difficulty is Difficulty.MEDIUM
        assert c.difficulty_reason.startswith("Medium: 2 steps, 2 claims")
        assert {o.text for o in c.options} == set(ASSERTION_REASON_OPTIONS)
        assert c.option(c.correct_key).text == ASSERTION_REASON_OPTIONS[case]
    assert set(cases) == {0, 1, 2, 3} and len(set(cases.values())) == 1
    table = kb.cause_tables[0]
    assert not list(assertion_reason_drafts(table, Difficulty.EASY, kb, syllabus))
    assert not list(assertion_reason_drafts(table, Difficulty.HARD, kb, syllabus))


def test_the_solver_confirms_most_and_refuses_every_moved_key(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    solver = OfflineSolver(kb, TEMPLATES_BY_ID)
    accepted = 0
    drafts = _drafts(kb, syllabus)
    for d in drafts:
        # The solver never sees the key, so a draft with its key moved gets the same answer.
        answer = solver.solve(solver_view(d))
        accepted += judged(d, answer)[0].verdict is Verdict.ACCEPTED
        for wrong in "ABCD":
            if wrong == d.content.correct_key:
                continue
            bad = d.model_copy(
                update={"content": d.content.model_copy(update={"correct_key": wrong})}
            )
            assert solver_view(bad) == solver_view(d)
            assert judged(bad, answer)[0].verdict is Verdict.REJECTED
    assert accepted / len(drafts) >= 0.6, f"{accepted}/{len(drafts)}"
