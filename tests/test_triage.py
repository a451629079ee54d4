"""Triage decisions (pipeline/triage.py): fresh solves in another option order, the statistical
signs of a wrong key or a second correct option, and when reports withdraw a question."""

from __future__ import annotations

from typing import Any

import pytest

from core.feedback import ReportReason
from core.records import Difficulty, Question, SolverAnswer, SolverView, Subject
from core.settings import Settings
from pipeline.compose import build_services
from pipeline.triage import (
    AGREEING_LEARNERS,
    Decision,
    Flag,
    NoReply,
    agreement,
    fresh_solves,
    rotated,
    statistical_flags,
    supports,
    triage_id,
    triaged,
)
from pipeline.verify.gate import NO_REPLY_NOTE
from tests.worker_pool import verified_questions

LEARNERS = [f"{n:032x}a" for n in range(6)]


@pytest.fixture(scope="module")
def questions(tmp_path_factory: pytest.TempPathFactory) -> list[Question]:
    services = build_services(Settings(home=tmp_path_factory.mktemp("triage")))
    cells = [(Subject.PHYSICS, Difficulty.MEDIUM), (Subject.BOTANY, Difficulty.EASY)]
    return verified_questions(services, cells, per_cell=4)


def stats(**overrides: Any) -> dict[str, Any]:
    """A healthy item: key A, strong learners pick it, distractors go with low ability."""
    row: dict[str, Any] = {
        "correct_key": "A",
        "responses": 800,
        "point_biserial": 0.45,
        "strong_a": 0.85,
        "strong_b": 0.05,
        "strong_c": 0.05,
        "strong_d": 0.05,
        "option_pbis_a": 0.45,
        "option_pbis_b": -0.2,
        "option_pbis_c": -0.2,
        "option_pbis_d": -0.2,
    }
    return {**row, **overrides}


def reports(reason: ReportReason, learners: int, option: str | None = None) -> list[dict[str, Any]]:
    return [
        {"learner_id": LEARNERS[i], "reason": reason.value, "option": option, "report_id": f"r{i}"}
        for i in range(learners)
    ]


class KnowsTheAnswer:
    """A solver that finds the stored key's text wherever the options put it (or abstains with
    `note`), under the name it is given."""

    def __init__(self, text: str, note: str = "", name: str = "knows") -> None:
        self.text = text
        self.note = note
        self.name = name

    def solve(self, view: SolverView) -> SolverAnswer:
        if self.note:
            return SolverAnswer(solver=self.name, choice=None, confidence=0.0, note=self.note)
        key = next(o.key for o in view.options if o.text == self.text)
        return SolverAnswer(solver=self.name, choice=key, confidence=1.0)


def test_a_healthy_item_has_no_flag() -> None:
    assert statistical_flags(stats(), 200) == ()


def test_flags_name_a_wrong_key_and_a_second_correct_option() -> None:
    wrong = stats(point_biserial=-0.2, strong_a=0.2, strong_c=0.7, option_pbis_c=0.4)
    assert set(statistical_flags(wrong, 200)) == {
        Flag("negative_discrimination"),
        Flag("distractor_beats_key", "C"),
    }
    two = stats(strong_a=0.45, strong_b=0.4, option_pbis_b=0.25, point_biserial=0.2)
    assert statistical_flags(two, 200) == (Flag("distractor_attracts_strong", "B"),)


def test_flags_wait_for_enough_answers() -> None:
    assert statistical_flags(stats(point_biserial=-0.3, responses=199), 200) == ()
    assert statistical_flags(None, 200) == ()


def test_agreement_counts_distinct_learners() -> None:
    same_learner = reports(ReportReason.WRONG_KEY, 1, "B") * 4
    assert agreement(same_learner) == agreement(reports(ReportReason.WRONG_KEY, 1, "B"))
    # One learner naming C three times does not outvote two learners naming D.
    loud = [{**r, "option": "C"} for r in reports(ReportReason.WRONG_KEY, 1)] * 3
    found = agreement(loud + [{**r, "option": "D"} for r in reports(ReportReason.WRONG_KEY, 3)][1:])
    assert found is not None and (found.option, found.learners) == ("D", 3)
    mixed = reports(ReportReason.TYPO, 2) + reports(ReportReason.TWO_CORRECT, 3, "C")
    found = agreement(mixed)
    assert found is not None
    assert (found.reason, found.option, found.learners) == (ReportReason.TWO_CORRECT, "C", 3)
    assert agreement([]) is None


def test_statistics_support_only_what_they_can_show() -> None:
    wrong = agreement(reports(ReportReason.WRONG_KEY, 3, "C"))
    two = agreement(reports(ReportReason.TWO_CORRECT, 3, "B"))
    typo = agreement(reports(ReportReason.TYPO, 5))
    assert wrong and two and typo
    assert supports(wrong, [Flag("distractor_beats_key", "C")])
    assert not supports(wrong, [Flag("distractor_beats_key", "D")])  # not the option they name
    assert supports(wrong, [Flag("negative_discrimination")])
    assert supports(two, [Flag("distractor_attracts_strong", "B")])
    assert not supports(two, [])
    assert not supports(typo, [Flag("negative_discrimination")])  # a typo needs a person


def test_rotation_hides_the_stored_order_and_maps_back(questions: list[Question]) -> None:
    q = questions[0]
    for shift in (1, 2, 3):
        draft, back = rotated(q, shift)
        shown = {o.key: o.text for o in draft.content.options}
        stored = {o.key: o.text for o in q.content.options}
        assert all(shown[k] == stored[back[k]] for k in shown)
        assert back[draft.content.correct_key] == q.content.correct_key
        assert [o.text for o in draft.content.options] != [o.text for o in q.content.options]


def test_the_offline_solver_confirms_every_verified_question(questions: list[Question]) -> None:
    services = build_services(Settings())
    for q in questions:
        [solve] = fresh_solves(q, [services.solver])
        assert (solve.choice, solve.refusal) == (q.content.correct_key, None), solve


def test_a_wrong_key_is_withdrawn_by_a_fresh_solve(questions: list[Question]) -> None:
    q = questions[0]
    true_text = q.content.option(q.content.correct_key).text
    wrong = "B" if q.content.correct_key != "B" else "C"
    planted = q.model_copy(update={"content": q.content.model_copy(update={"correct_key": wrong})})
    solves = fresh_solves(planted, [KnowsTheAnswer(true_text)])
    assert solves[0].choice == q.content.correct_key
    assert solves[0].refusal == "solver_disagreed"
    decided = triaged(planted, [], [], solves)
    assert decided.decision is Decision.WITHDRAWN
    assert "solver_disagreed" in decided.why


def test_the_vouching_solver_abstaining_withdraws_and_a_lost_reply_waits(
    questions: list[Question],
) -> None:
    q = questions[1]
    note = "2 options within tolerance of 0.675"
    vouched = KnowsTheAnswer("", note=note, name=q.verdict.solver)
    decided = triaged(q, [], [], fresh_solves(q, [vouched]))
    assert decided.decision is Decision.WITHDRAWN and note in decided.why
    with pytest.raises(NoReply):
        fresh_solves(q, [KnowsTheAnswer("", note=NO_REPLY_NOTE + "timeout")])


def test_another_solvers_abstention_withdraws_nothing(questions: list[Question]) -> None:
    """A model-drafted question the offline solver cannot answer: its abstention is no evidence,
    so a typo report sends the question to a person, and the model's agreement confirms it."""
    q = questions[1].model_copy(
        update={"verdict": questions[1].verdict.model_copy(update={"solver": "openai:model"})}
    )
    offline = KnowsTheAnswer("", note="no declared relation for llm:numerical")
    model = KnowsTheAnswer(q.content.option(q.content.correct_key).text, name="openai:model")
    alone = fresh_solves(q, [offline])
    assert triaged(q, reports(ReportReason.TYPO, 1), [], alone).decision is Decision.REVIEW
    one = reports(ReportReason.WRONG_KEY, 1, "C")
    assert triaged(q, one, [], alone).decision is Decision.REVIEW  # nothing confirmed it
    both = fresh_solves(q, [offline, model])
    assert triaged(q, one, [], both).decision is Decision.CONFIRMED


def confirmed_by_solver(q: Question) -> list[Any]:
    return list(fresh_solves(q, [KnowsTheAnswer(q.content.option(q.content.correct_key).text)]))


def test_agreeing_reports_withdraw_only_with_statistics(questions: list[Question]) -> None:
    q = questions[2]
    solves = confirmed_by_solver(q)
    told = reports(ReportReason.TWO_CORRECT, AGREEING_LEARNERS, "B")
    sign = [Flag("distractor_attracts_strong", "B")]
    assert triaged(q, told, sign, solves).decision is Decision.WITHDRAWN
    assert triaged(q, told, [], solves).decision is Decision.REVIEW  # many, unsupported
    few = reports(ReportReason.TWO_CORRECT, AGREEING_LEARNERS - 1, "B")
    assert triaged(q, few, sign, solves).decision is Decision.REVIEW  # a sign: a person looks


def test_what_a_solver_cannot_check_goes_to_a_person(questions: list[Question]) -> None:
    q = questions[3]
    solves = confirmed_by_solver(q)
    assert triaged(q, reports(ReportReason.TYPO, 1), [], solves).decision is Decision.REVIEW
    one = reports(ReportReason.WRONG_KEY, 1, "C")
    assert triaged(q, one, [], solves).decision is Decision.CONFIRMED


def test_a_triage_id_changes_with_the_evidence_not_its_order() -> None:
    first = triage_id("q-1", ["r1", "r2"], [Flag("negative_discrimination")])
    assert first == triage_id("q-1", ["r2", "r1"], [Flag("negative_discrimination")])
    assert first != triage_id("q-1", ["r1", "r2", "r3"], [Flag("negative_discrimination")])
    assert first != triage_id("q-1", ["r1", "r2"], [])
