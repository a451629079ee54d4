"""The agreement gate and the offline solver: nothing is stored that the solver did not confirm."""

from __future__ import annotations

from itertools import islice

import pytest

from core.records import Difficulty, Draft, Option, QuestionFormat, SolverAnswer, Subject, Verdict
from kb.knowledge import KnowledgeBase
from kb.syllabus import Syllabus
from pipeline.generate.drafter import OfflineDrafter
from pipeline.generate.facts import fact_drafts
from pipeline.generate.numerical import numerical_drafts
from pipeline.templates.catalogue import TEMPLATES, TEMPLATES_BY_ID
from pipeline.verify.gate import judged, solver_view
from pipeline.verify.solver import OfflineSolver
from tests.conftest import examples, sound_draft


@pytest.fixture(scope="module")
def solver(kb: KnowledgeBase) -> OfflineSolver:
    return OfflineSolver(kb, TEMPLATES_BY_ID)


def sample_fact_drafts(
    kb: KnowledgeBase, syllabus: Syllabus, subject: Subject, per_table: int
) -> list[Draft]:
    """The first few drafts of every difficulty from each of a subject's fact tables."""
    return [
        d
        for table in kb.fact_tables
        if table.subject == subject
        for difficulty in Difficulty
        for d in islice(fact_drafts(table, difficulty, kb, syllabus), per_table)
    ]


def a_draft(syllabus: Syllabus, template_id: str = "phy-kinetic-energy", seed: int = 3) -> Draft:
    return sound_draft(template_id, syllabus, seed)


def test_the_solver_view_hides_key_and_explanation(syllabus: Syllabus) -> None:
    view = solver_view(a_draft(syllabus)).model_dump()
    assert "correct_key" not in view and "explanation_markdown" not in view
    assert set(view) == {
        "subject", "topic_id", "format", "template_id", "stem_markdown", "options", "figures"
    }  # fmt: skip
    assert view["figures"] == ()


def test_agreement_is_accepted(syllabus: Syllabus) -> None:
    draft = a_draft(syllabus)
    attempt, question = judged(
        draft, SolverAnswer(solver="s", choice=draft.content.correct_key, confidence=1.0)
    )
    assert attempt.verdict is Verdict.ACCEPTED and attempt.rejection_reason is None
    assert question is not None and question.question_id == attempt.question_id


@pytest.mark.parametrize(
    ("choice", "confidence", "reason"),
    [
        (None, 0.0, "solver_abstained"),
        ("wrong", 1.0, "solver_disagreed"),
        ("key", 0.01, "solver_low_confidence"),
    ],
)
def test_disagreement_is_a_named_rejection(syllabus: Syllabus, choice, confidence, reason) -> None:
    draft = a_draft(syllabus)
    key = draft.content.correct_key
    picked = {"key": key, "wrong": "A" if key != "A" else "B", None: None}[choice]
    attempt, question = judged(
        draft,
        SolverAnswer.model_validate({"solver": "s", "choice": picked, "confidence": confidence}),
    )
    assert question is None
    assert attempt.verdict is Verdict.REJECTED
    assert attempt.rejection_reason is not None and attempt.rejection_reason.startswith(reason)


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.template_id)
def test_every_template_is_confirmed_by_the_solver(
    template, syllabus: Syllabus, solver: OfflineSolver
) -> None:
    wanted = examples(25)  # 6 in `make test-fast`
    drafts = list(islice(numerical_drafts(template, syllabus), wanted))
    # A few templates have a small space (e.g. hydrogen transitions).
    assert len(drafts) >= min(10, wanted)
    assert len({d.content.stem_markdown for d in drafts}) == len(drafts)  # never a repeat
    for draft in drafts:
        answer = solver.solve(solver_view(draft))
        assert answer.choice == draft.content.correct_key, (
            draft.content.stem_markdown,
            answer.note,
        )


def test_the_solver_catches_a_stem_that_states_the_wrong_number(
    syllabus: Syllabus, solver: OfflineSolver
) -> None:
    draft = a_draft(syllabus, "phy-eom-final-velocity")
    stem = draft.content.stem_markdown
    tampered = stem.replace("t = ", "t = 1", 1)  # t = 5 s becomes t = 15 s in the stem only
    assert tampered != stem
    bad = draft.model_copy(
        update={"content": draft.content.model_copy(update={"stem_markdown": tampered})}
    )
    attempt, question = judged(bad, solver.solve(solver_view(bad)))
    assert question is None and attempt.verdict is Verdict.REJECTED


def test_the_solver_catches_a_wrong_key(syllabus: Syllabus, solver: OfflineSolver) -> None:
    draft = a_draft(syllabus)
    wrong = "A" if draft.content.correct_key != "A" else "B"
    bad = draft.model_copy(
        update={"content": draft.content.model_copy(update={"correct_key": wrong})}
    )
    attempt, _ = judged(bad, solver.solve(solver_view(bad)))
    assert attempt.rejection_reason == "solver_disagreed"


def test_the_solver_abstains_when_two_options_match(
    syllabus: Syllabus, solver: OfflineSolver
) -> None:
    draft = a_draft(syllabus)
    c = draft.content
    right = c.option(c.correct_key).text
    other = next(o for o in c.options if o.key != c.correct_key)
    options = tuple(
        Option(key=o.key, text=(right.replace("$", "$ ", 1) if o.key == other.key else o.text))
        for o in c.options
    )
    bad = draft.model_copy(update={"content": c.model_copy(update={"options": options})})
    answer = solver.solve(solver_view(bad))
    assert answer.choice is None and "2 options" in answer.note


@pytest.mark.parametrize("subject", [Subject.CHEMISTRY, Subject.BOTANY, Subject.ZOOLOGY])
def test_fact_questions_are_mostly_confirmed(
    subject, kb: KnowledgeBase, syllabus: Syllabus, solver: OfflineSolver
) -> None:
    drafts = sample_fact_drafts(kb, syllabus, subject, per_table=4)
    assert len(drafts) >= 30
    verdicts = [judged(d, solver.solve(solver_view(d)))[0].verdict for d in drafts]
    accepted = verdicts.count(Verdict.ACCEPTED)
    assert accepted / len(drafts) >= 0.6, f"{accepted}/{len(drafts)} accepted"


def test_fact_distractors_are_never_true(kb: KnowledgeBase, syllabus: Syllabus) -> None:
    for table in kb.fact_tables:
        for draft in islice(fact_drafts(table, Difficulty.EASY, kb, syllabus), 10):
            entity = dict(draft.provenance.params)["key"].split("|")[0]
            c = draft.content
            for o in c.options:
                if o.key != c.correct_key:
                    assert not table.is_fact(entity, o.text), (table.relation_id, entity, o.text)


def test_odd_pair_questions_have_exactly_one_false_pair(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    for table in kb.fact_tables:
        hard = fact_drafts(table, Difficulty.HARD, kb, syllabus)
        pairs = (d for d in hard if d.content.format is QuestionFormat.INCORRECT_PAIR)
        for draft in islice(pairs, 5):
            c = draft.content
            truth = []
            for o in c.options:
                entity, value = o.text.split(table.pair_separator)
                truth.append(table.is_fact(entity, value))
            assert truth.count(False) == 1
            assert not truth["ABCD".index(c.correct_key)]


def test_the_drafter_mixes_templates_in_a_cell(kb: KnowledgeBase, syllabus: Syllabus) -> None:
    drafter = OfflineDrafter(syllabus, kb, TEMPLATES)
    first = list(islice(drafter.drafts(Subject.PHYSICS, Difficulty.MEDIUM, {}), 12))
    assert len({d.provenance.template_id for d in first}) >= 5


@pytest.mark.parametrize("subject", [Subject.CHEMISTRY, Subject.BOTANY, Subject.ZOOLOGY])
def test_the_fact_solver_is_not_a_rubber_stamp(
    subject, kb: KnowledgeBase, syllabus: Syllabus, solver: OfflineSolver
) -> None:
    """With the key moved to a distractor, the gate refuses all but a sliver of fact drafts.

    The solver is a heuristic over chunk sentences and now and then confidently picks a
    distractor (a bare number such as "3" or "35.5 u" carries no content word to find): the
    gate then refuses the real draft, and only a draft whose key was wrong in just that way
    would pass. At most one in two hundred may."""
    drafts = sample_fact_drafts(kb, syllabus, subject, per_table=3)
    wrongly_accepted = 0
    for d in drafts:
        wrong = "B" if d.content.correct_key == "A" else "A"
        bad = d.model_copy(update={"content": d.content.model_copy(update={"correct_key": wrong})})
        attempt, _ = judged(bad, solver.solve(solver_view(bad)))
        wrongly_accepted += attempt.verdict is Verdict.ACCEPTED
    assert wrongly_accepted <= len(drafts) // 200, f"{wrongly_accepted}/{len(drafts)} accepted"


NEW_FORMATS = {
    "two_statements": ("two_statements_draft", QuestionFormat.TWO_STATEMENTS),
    "match_list": ("match_list_draft", QuestionFormat.MATCH_LIST),
    "how_many_correct": ("how_many_draft", QuestionFormat.HOW_MANY_CORRECT),
}


@pytest.mark.parametrize("name", sorted(NEW_FORMATS))
def test_every_neet_format_is_sound_and_gated(
    name: str, kb: KnowledgeBase, syllabus: Syllabus, solver: OfflineSolver
) -> None:
    import pipeline.generate.facts as facts

    make = getattr(facts, NEW_FORMATS[name][0])
    drafts = [d for t in kb.fact_tables for s in range(4) if (d := make(t, s, kb, syllabus))]
    assert len(drafts) >= 100
    accepted = moved_accepted = 0
    for d in drafts:
        assert d.content.format is NEW_FORMATS[name][1]
        answer = solver.solve(solver_view(d))
        attempt, _ = judged(d, answer)
        accepted += attempt.verdict is Verdict.ACCEPTED
        wrong = "B" if d.content.correct_key == "A" else "A"
        bad = d.model_copy(update={"content": d.content.model_copy(update={"correct_key": wrong})})
        # The solver never sees the key: the moved-key draft gets the same answer, refused
        # unless the solver picked that very distractor (it then refused the real draft).
        assert solver_view(bad) == solver_view(d)
        if judged(bad, answer)[0].verdict is Verdict.ACCEPTED:
            assert attempt.verdict is Verdict.REJECTED
            moved_accepted += 1
    assert accepted / len(drafts) >= 0.4, f"{accepted}/{len(drafts)}"
    assert moved_accepted <= len(drafts) // 100, f"{moved_accepted}/{len(drafts)} moved keys passed"


def test_two_statement_keys_follow_the_truth_of_each_statement(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    from pipeline.generate.facts import TWO_STATEMENT_OPTIONS, two_statements_draft

    table = next(t for t in kb.fact_tables if t.relation_id == "zoo-disease-pathogen")
    drafts = [two_statements_draft(table, s, kb, syllabus) for s in range(16)]
    keys = set()
    for seed, draft in enumerate(drafts):
        assert draft is not None
        c = draft.content
        # Seeds cycle through the four truth combinations; the options come in a seeded order.
        assert c.option(c.correct_key).text == TWO_STATEMENT_OPTIONS[seed % 4]
        assert {o.text for o in c.options} == set(TWO_STATEMENT_OPTIONS)
        keys.add(c.correct_key)
    assert keys == {"A", "B", "C", "D"}


def test_a_missing_answer_makes_the_solver_abstain(
    syllabus: Syllabus, solver: OfflineSolver
) -> None:
    draft = a_draft(syllabus)
    c = draft.content
    decoy = next(o.text for o in c.options if o.key != c.correct_key)
    options = tuple(
        Option(key=o.key, text=("$0.000123\\ \\mathrm{J}$" if o.key == c.correct_key else o.text))
        for o in c.options
    )
    assert decoy
    bad = draft.model_copy(update={"content": c.model_copy(update={"options": options})})
    attempt, _ = judged(bad, solver.solve(solver_view(bad)))
    assert attempt.rejection_reason is not None
    assert attempt.rejection_reason.startswith("solver_abstained: 0 options")


def test_hygiene_names_tells_before_any_solver_call(kb: KnowledgeBase, syllabus: Syllabus) -> None:
    from pipeline.verify.gate import HYGIENE, hygiene_problem, screened_out

    substring = stem_tell = None
    drafts = (
        d
        for table in kb.fact_tables
        for difficulty in Difficulty
        for d in fact_drafts(table, difficulty, kb, syllabus)
    )
    for d in drafts:  # until the first draft of each tell
        problem = hygiene_problem(d)
        if problem == "option_substring" and substring is None:
            substring = d
        if problem == "stem_tell" and stem_tell is None:
            stem_tell = d
        if substring is not None and stem_tell is not None:
            break
    assert substring is not None and stem_tell is not None
    texts = [o.text.lower() for o in substring.content.options]
    assert any(a != b and a in b for a in texts for b in texts)
    attempt = screened_out(stem_tell, f"hygiene: {hygiene_problem(stem_tell)}")
    assert attempt.verdict is Verdict.REJECTED and attempt.solver == HYGIENE
    assert attempt.rejection_reason == "hygiene: stem_tell" and attempt.question_id is None
    assert hygiene_problem(a_draft(syllabus)) is None


def test_a_key_far_longer_than_every_distractor_is_a_tell(syllabus: Syllabus) -> None:
    from pipeline.verify.gate import hygiene_problem

    draft = a_draft(syllabus)
    c = draft.content
    long_key = tuple(
        o.model_copy(update={"text": o.text + " (to three significant figures, in SI units)"})
        if o.key == c.correct_key
        else o
        for o in c.options
    )
    told = draft.model_copy(update={"content": c.model_copy(update={"options": long_key})})
    assert hygiene_problem(told) == "longest_option"


def test_the_key_is_not_the_longest_option_more_often_than_chance(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    from pipeline.verify.gate import hygiene_problem

    longest = total = 0
    for table in kb.fact_tables:
        for d in fact_drafts(table, Difficulty.EASY, kb, syllabus):
            if hygiene_problem(d) is None:
                lengths = {o.key: len(o.text) for o in d.content.options}
                key = lengths.pop(d.content.correct_key)
                longest += key > max(lengths.values())
                total += 1
    assert total > 500
    assert longest / total <= 0.25, f"the key is the longest option in {longest} of {total}"
