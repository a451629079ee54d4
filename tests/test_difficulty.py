"""The difficulty rubric: labels follow what a question demands, never its format; relabelled
questions are stored anew and the old records withdrawn; giveaway distractors are refused."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path

import polars as pl
import pytest

from core.ids import question_id
from core.pool import steps_in_reason
from core.records import Difficulty, Draft, Paper, Question, QuestionFormat, SolverVerdict
from core.warehouse import open_warehouse
from kb.knowledge import KnowledgeBase
from kb.syllabus import Syllabus
from pipeline.difficulty import Demand, difficulty_reason, rated
from pipeline.generate import fact_formats, facts
from pipeline.generate.numerical import BOUNDS_PARAM, DISTRACTORS_PARAM, numerical_draft
from pipeline.relabel import RELABELLED, Rater, relabellings
from pipeline.templates.catalogue import TEMPLATES, TEMPLATES_BY_ID
from pipeline.verify.gate import judged, screen_refusal, solver_view
from pipeline.verify.giveaway import numerical_giveaway
from pipeline.verify.solver import OfflineSolver

E, M, H = Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD


@pytest.mark.parametrize(
    ("demand", "label"),
    [
        (Demand(), E),
        (Demand(steps=2), M),
        (Demand(reversed=True), M),
        (Demand(near_miss=True), M),
        (Demand(claims=2), E),  # two recalls, neither a near miss
        (Demand(claims=4), E),
        (Demand(steps=3), H),
        (Demand(steps=2, concepts=2), H),
        (Demand(claims=4, near_miss=True), M),  # one false claim close: a close judgement
        (Demand(claims=4, near_miss=True, all_near=True), H),
        (Demand(claims=2, near_miss=True, all_near=True), M),
        (Demand(steps=2, claims=2), M),
    ],
)
def test_the_rubric_labels_a_demand_by_its_thresholds(demand: Demand, label: Difficulty) -> None:
    got, reason = rated(demand)
    assert got is label and reason.startswith(label.value)


def test_the_stored_reason_names_the_steps_the_pool_counts() -> None:
    for steps in range(1, 5):
        for concepts in range(1, steps + 1):
            for claims in (1, 2, 4):
                for flag in (False, True):
                    demand = Demand(steps, concepts, flag, claims, not flag, not flag)
                    reason = difficulty_reason(demand, "the first step, then 3 steps more")
                    assert steps_in_reason(reason) == steps


def test_a_demand_cannot_chain_more_concepts_than_steps() -> None:
    with pytest.raises(ValueError):
        Demand(steps=1, concepts=2)
    with pytest.raises(ValueError):
        Demand(claims=4, all_near=True)  # every false claim near, yet none


def _labels_by_format(drafts: list[Draft]) -> dict[QuestionFormat, set[Difficulty]]:
    seen: dict[QuestionFormat, set[Difficulty]] = defaultdict(set)
    for d in drafts:
        seen[d.content.format].add(d.content.difficulty)
    return seen


def test_the_same_format_is_labelled_at_different_difficulties_by_its_demand(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    drafts = [
        d
        for table in kb.fact_tables[:120]
        for level in Difficulty
        for d in list(facts.fact_drafts(table, level, kb, syllabus))[:30]
    ]
    drafts += [d for t in TEMPLATES for d in [numerical_draft(t, 0, syllabus)] if d]
    seen = _labels_by_format(drafts)
    assert seen[QuestionFormat.SINGLE_CORRECT] == {E, M}  # far vs close options, reverse
    assert seen[QuestionFormat.MATCH_LIST] == {E, M, H}  # far codings, some or all one swap
    assert seen[QuestionFormat.INCORRECT_PAIR] == {E, H}  # far vs near false pairing
    assert seen[QuestionFormat.HOW_MANY_CORRECT] == {E, M, H}  # none, some, all false near
    assert seen[QuestionFormat.MULTI_STATEMENT] == {E, M, H}
    assert seen[QuestionFormat.TWO_STATEMENTS] == {E, M}
    assert seen[QuestionFormat.NUMERICAL] >= {E, H}  # one substitution vs a chain
    # Every stored reason names the rubric's verdict first.
    assert all(d.content.difficulty_reason.startswith(d.content.difficulty.value) for d in drafts)


def test_near_variants_measure_what_they_claim(kb: KnowledgeBase, syllabus: Syllabus) -> None:
    """A Hard incorrect-pair draft's false pairing shares a word with the entity's true value;
    a Medium one's does not."""
    checked = 0
    for table in kb.fact_tables[:200]:
        for seed in range(4):
            for near in (False, True):
                d = facts.odd_pair_draft(table, seed, kb, syllabus, None, near)
                if d is None:
                    continue
                key = d.content.option(d.content.correct_key).text
                entity, value = fact_formats.PAIR_SPLIT.split(key)
                assert fact_formats.near_to_entity(table, entity, value) is near
                assert d.content.difficulty is (H if near else E)
                checked += 1
    assert checked > 200


def test_multi_statement_sets_are_solved_from_the_chunks(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    solver = OfflineSolver(kb, TEMPLATES_BY_ID)
    outcomes: dict[bool, int] = defaultdict(int)
    for table in kb.fact_tables[:150]:
        for seed in range(4):
            d = facts.multi_statement_draft(table, seed, kb, syllabus, None, near=seed % 2 == 0)
            if d is None:
                continue
            assert d.content.option(d.content.correct_key).text.endswith(("only", "D"))
            answer = solver.solve(solver_view(d))
            outcomes[answer.choice == d.content.correct_key] += 1
            if answer.choice != d.content.correct_key:
                continue
            # The same set with its key moved to another option is refused.
            c = d.content
            wrong = next(k for k in "ABCD" if k != c.correct_key)
            moved = d.model_copy(update={"content": c.model_copy(update={"correct_key": wrong})})
            assert judged(moved, solver.solve(solver_view(moved)))[1] is None
    assert outcomes[True] >= 0.85 * (outcomes[True] + outcomes[False])


def _stored(draft: Draft) -> Question:
    return Question(
        question_id=question_id(draft.content),
        content=draft.content,
        provenance=draft.provenance,
        verdict=SolverVerdict(solver="s", choice=draft.content.correct_key, confidence=1.0),
    )


def _labelled(question: Question, label: Difficulty, reason: str) -> Question:
    """The same question stored under another label and reason (so another id)."""
    content = question.content.model_copy(update={"difficulty": label, "difficulty_reason": reason})
    return question.model_copy(update={"content": content, "question_id": question_id(content)})


def _daily_paper(date: str, question: str) -> Paper:
    return Paper(
        exam_id=f"d-{date}",
        kind="daily",
        title="t",
        exam_date=date,
        question_ids=(question,),
        blueprint="b",
    )


def test_relabelled_questions_are_stored_anew_and_the_old_withdrawn(
    tmp_path: Path, kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    template = next(t for t in TEMPLATES if t.chain)
    current = _stored(next(d for s in range(20) if (d := numerical_draft(template, s, syllabus))))
    # The same question as a format-labelled generator stored it before the rubric.
    old = _labelled(current, E, "a format label")
    rater = Rater(TEMPLATES_BY_ID, kb, syllabus)
    pairs = relabellings([old, current], rater.rating)
    assert [(a.question_id, b.question_id) for a, b in pairs] == [
        (old.question_id, current.question_id)
    ]
    new = pairs[0][1]
    assert new.content.difficulty is H and new.content.stem_markdown == old.content.stem_markdown
    # A new reason under the same label is no new record.
    reworded = current.content.model_copy(update={"difficulty_reason": "Hard: reworded"})
    assert not relabellings([current.model_copy(update={"content": reworded})], rater.rating)
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.insert_questions([old])
        wh.insert_paper(_daily_paper("2026-11-25", old.question_id))
        wh.insert_questions([new])
        wh.relabel([(old.question_id, new.question_id)], RELABELLED)
        reasons = {i: r for i, r, _ in wh.withdrawals()}
        assert reasons == {old.question_id: RELABELLED}
        # The old record stays stored (published papers name it); only the new one is served,
        # and it inherits the old one's papers, so the daily cooldown still holds it back.
        assert {q.question_id for q in wh.questions()} == {old.question_id, new.question_id}
        pool = wh.pool()
        served = pool.filter(~pool["withdrawn"])
        assert served["question_id"].to_list() == [new.question_id]
        assert served["last_daily"].to_list() == ["2026-11-25"]
        assert served["times_used"].to_list() == [1]
        # The label changed back: the first record is current again, with the papers of both.
        wh.relabel([(new.question_id, old.question_id)], RELABELLED)
        assert {i: r for i, r, _ in wh.withdrawals()} == {new.question_id: RELABELLED}
        pool = wh.pool()
        served = pool.filter(~pool["withdrawn"])
        assert served["question_id"].to_list() == [old.question_id]
        assert served["last_daily"].to_list() == ["2026-11-25"]


def test_the_rater_re_derives_fact_labels_from_the_question_and_its_table(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    rater = Rater(TEMPLATES_BY_ID, kb, syllabus)
    checked = 0
    for table in kb.fact_tables[:60]:
        for level in Difficulty:
            for d in list(facts.fact_drafts(table, level, kb, syllabus))[:6]:
                q = _stored(d)
                assert rater.rating(q) == (d.content.difficulty, d.content.difficulty_reason)
                checked += 1
    assert checked > 300


def _with_option(draft: Draft, wrong_text: str) -> Draft:
    c = draft.content
    distractor = next(o for o in c.options if o.key != c.correct_key)
    options = tuple(
        o.model_copy(update={"text": wrong_text}) if o.key == distractor.key else o
        for o in c.options
    )
    return draft.model_copy(update={"content": c.model_copy(update={"options": options})})


def test_the_giveaway_screen_names_each_kind_of_giveaway(syllabus: Syllabus) -> None:
    template = TEMPLATES_BY_ID["phy-chain-pendulum-tension-at-bottom"]
    draft = next(
        d
        for s in range(50)
        if (d := numerical_draft(template, s, syllabus)) and screen_refusal(d) is None
    )
    assert numerical_giveaway(draft) is None
    assert numerical_giveaway(_with_option(draft, r"$5.00\ \mathrm{kg}$")) == "other_dimension"
    assert numerical_giveaway(_with_option(draft, r"$9990\ \mathrm{N}$")) == "order_of_magnitude"
    params = dict(draft.provenance.params)
    bounded = draft.model_copy(
        update={
            "provenance": draft.provenance.model_copy(
                update={"params": (*draft.provenance.params, (BOUNDS_PARAM, "[0, 1]"))}
            )
        }
    )
    assert numerical_giveaway(bounded) == "out_of_bounds"
    # A distractor ten-fold off is allowed when its named mistake is a unit slip.
    slipped = _with_option(draft, r"$9990\ \mathrm{N}$")
    named = json.loads(params[DISTRACTORS_PARAM])
    named[0] = [r"$9990\ \mathrm{N}$", "leaving a length in centimetres", True]
    slipped = slipped.model_copy(
        update={
            "provenance": slipped.provenance.model_copy(
                update={
                    "params": tuple(
                        (k, json.dumps(named) if k == DISTRACTORS_PARAM else v)
                        for k, v in draft.provenance.params
                    )
                }
            )
        }
    )
    assert numerical_giveaway(slipped) is None
    assert screen_refusal(_with_option(draft, r"$5.00\ \mathrm{kg}$")) == (
        "giveaway: other_dimension"
    )


def test_a_hard_statement_set_hides_its_key_among_equals(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    """The near variant's options are the four three-letter codes: none is told apart by its
    length or by sharing letters with all the others."""
    seen = 0
    for table in kb.fact_tables[:150]:
        for seed in range(4):
            d = facts.multi_statement_draft(table, seed, kb, syllabus, None, near=True)
            if d is None:
                continue
            codes = sorted(o.text for o in d.content.options)
            assert codes == [
                "A, B and C only",
                "A, B and D only",
                "A, C and D only",
                "B, C and D only",
            ]
            seen += 1
    assert seen > 50


def test_a_hard_match_list_gives_no_convergence_cue(kb: KnowledgeBase, syllabus: Syllabus) -> None:
    """The near variant's codings are the four ways to order two separate pairs of rows: every
    option is one swap from exactly two others, and every row reads the same in exactly two
    options, so no option is the 'centre' a test-wise student would pick without the content."""
    seen = 0
    for table in kb.fact_tables[:150]:
        for seed in range(4):
            d = facts.match_list_draft(table, seed, kb, syllabus, None, near=True)
            if d is None:
                continue
            codings = [o.text.split(", ") for o in d.content.options]
            for coding in codings:
                one_swap = [
                    other
                    for other in codings
                    if sum(a != b for a, b in zip(coding, other, strict=True)) == 2
                ]
                assert len(one_swap) == 2
            for row in range(4):
                assert Counter(c[row] for c in codings).most_common(1)[0][1] == 2
            assert d.content.difficulty is H
            seen += 1
    assert seen > 50


def test_three_codings_one_swap_from_the_key_are_not_hard() -> None:
    """Three wrong codings each one swap from the key converge on it: a Medium judgement at most;
    the square of two separate swaps, alone and together, is Hard."""
    key = "A-I, B-II, C-III, D-IV"
    centred = ["A-II, B-I, C-III, D-IV", "A-I, B-III, C-II, D-IV", "A-I, B-II, C-IV, D-III"]
    square = ["A-II, B-I, C-III, D-IV", "A-I, B-II, C-IV, D-III", "A-II, B-I, C-IV, D-III"]
    assert rated(fact_formats.coding_demand(key, centred))[0] is M
    assert rated(fact_formats.coding_demand(key, square))[0] is H


def test_no_statement_set_or_count_shows_one_value_twice(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    """Two claims sharing a value tell a student something about both without the content
    (they cannot both be true of a one-to-one relation; if a false value never repeats, a
    repeated one is true): no how-many or statement-set item shows a value twice."""
    seen = 0
    for table in kb.fact_tables[:300]:
        values = sorted({f.value for f in table.facts}, key=len, reverse=True)
        for seed in range(4):
            for near in (False, True):
                d = facts.how_many_draft(table, seed, kb, syllabus, None, near)
                if d is not None:
                    lines = fact_formats.COUNTED.findall(d.content.stem_markdown)
                    shown = [
                        fact_formats.PAIR_SPLIT.split(line, maxsplit=1)[1] for _, line in lines
                    ]
                    assert len(set(shown)) == 4, (table.relation_id, shown)
                    seen += 1
                d = facts.multi_statement_draft(table, seed, kb, syllabus, None, near)
                if d is not None:
                    said = re.findall(r"^[A-D]\. (.+)$", d.content.stem_markdown, re.M)
                    shown = [next(v for v in values if s.endswith(f"{v}.")) for s in said]
                    assert len(set(shown)) == 4, (table.relation_id, shown)
                    seen += 1
    assert seen > 500


def test_a_chain_of_relabellings_keeps_every_paper_on_the_current_record(
    tmp_path: Path, syllabus: Syllabus
) -> None:
    """A → B → C: C stands for both and inherits A's papers; C → B makes B current again, with
    its withdrawal lifted and the papers of all three."""
    template = next(t for t in TEMPLATES if t.chain)
    base = _stored(next(d for s in range(20) if (d := numerical_draft(template, s, syllabus))))
    a, b, c = (_labelled(base, level, level.value) for level in (E, M, H))
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.insert_questions([a])
        wh.insert_paper(_daily_paper("2026-11-20", a.question_id))
        wh.insert_questions([b])
        wh.relabel([(a.question_id, b.question_id)], RELABELLED)
        wh.insert_questions([c])
        wh.relabel([(b.question_id, c.question_id)], RELABELLED)

        def served() -> list[tuple[str, int, str | None]]:
            pool = wh.pool().filter(~pl.col("withdrawn"))
            return list(pool.select("question_id", "times_used", "last_daily").iter_rows())

        assert served() == [(c.question_id, 1, "2026-11-20")]
        assert {i for i, _, _ in wh.withdrawals()} == {a.question_id, b.question_id}
        wh.relabel([(c.question_id, b.question_id)], RELABELLED)
        assert served() == [(b.question_id, 1, "2026-11-20")]
        assert {i for i, _, _ in wh.withdrawals()} == {a.question_id, c.question_id}
        rows = wh.con.execute("SELECT question_id, successor_id FROM relabellings").fetchall()
        assert sorted(rows) == sorted(
            [(a.question_id, b.question_id), (c.question_id, b.question_id)]
        )
