"""Genetics questions: keys by formula (the generator), confirmed by enumeration (the solver)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
from simpleeval import FeatureNotAvailable

from core.records import OPTION_KEYS, Difficulty, Draft, Option, SolverView, Subject
from kb.syllabus import Syllabus
from pipeline.difficulty import difficulty_reason, rated
from pipeline.generate.genetics import (
    KINDS,
    TEMPLATE_PREFIX,
    _draft,
    class_p,
    ev,
    gene_p,
    genetics_drafts,
    kind_items,
    load_genetics,
)
from pipeline.verify.element_solver import SOLVER_NAME
from pipeline.verify.gate import hygiene_problem, judged, solver_view
from pipeline.verify.genetics_solver import genetics_answer, offspring, parse_genes
from tests.conftest import DATA_DIR

TOPICS = {
    "bot-monohybrid-cross",
    "bot-dihybrid-cross",
    "bot-incomplete-dominance-codominance",
    "bot-mendelian-disorders",
    "zoo-hardy-weinberg-principle",
}
MIN_PER_CELL = 30


@pytest.fixture(scope="module")
def drafts(syllabus: Syllabus) -> dict[tuple[str, Difficulty], list[tuple[str, Draft]]]:
    """Every draft of every stream, by (template id, difficulty), with its stream's topic."""
    out: dict[tuple[str, Difficulty], list[tuple[str, Draft]]] = defaultdict(list)
    for subject in (Subject.BOTANY, Subject.ZOOLOGY):
        for difficulty in Difficulty:
            for topic, stream in genetics_drafts(subject, difficulty, syllabus, DATA_DIR):
                for d in stream:
                    out[(d.provenance.template_id, difficulty)].append((topic, d))
    return out


def _all(drafts: dict[tuple[str, Difficulty], list[tuple[str, Draft]]]) -> list[Draft]:
    return [d for group in drafts.values() for _, d in group]


def _view(d: Draft, **changes: object) -> SolverView:
    return solver_view(d).model_copy(update=changes)


def test_every_kind_streams_drafts_of_its_own_topic(drafts, syllabus) -> None:
    kinds = {template for template, _ in drafts}
    assert kinds == {TEMPLATE_PREFIX + kind for kind, _, _ in KINDS}
    for (_, difficulty), group in drafts.items():
        for topic, d in group:
            assert d.content.tag.topic_id == topic and topic in TOPICS
            assert d.content.difficulty is difficulty
            assert d.provenance.generator == "offline.genetics"
            assert dict(d.provenance.params)["case"]
    assert genetics_drafts(Subject.PHYSICS, Difficulty.EASY, syllabus, DATA_DIR) == []


def test_every_topic_has_thirty_distinct_drafts_at_every_difficulty(drafts) -> None:
    cells: dict[tuple[str, Difficulty], set[str]] = defaultdict(set)
    for (_, difficulty), group in drafts.items():
        for topic, d in group:
            cells[(topic, difficulty)].add(d.content.stem_markdown)
    for topic in TOPICS:
        for difficulty in Difficulty:
            assert len(cells[(topic, difficulty)]) >= MIN_PER_CELL, (topic, difficulty)


def test_the_solver_picks_the_generators_key_for_every_draft(drafts) -> None:
    misses = []
    for d in _all(drafts):
        answer = genetics_answer(solver_view(d))
        assert answer.solver == SOLVER_NAME
        if answer.choice != d.content.correct_key:
            misses.append((d.provenance.template_id, d.content.stem_markdown, answer.note))
    assert misses == []


def test_a_moved_key_or_a_missing_answer_is_refused(drafts) -> None:
    for (template, _), group in sorted(drafts.items()):
        for _, d in group[:: max(1, len(group) // 25)]:
            c = d.content
            wrong = next(k for k in OPTION_KEYS if k != c.correct_key)
            moved = d.model_copy(update={"content": c.model_copy(update={"correct_key": wrong})})
            assert judged(moved, genetics_answer(solver_view(moved)))[1] is None, template
            blank = tuple(
                Option(key=o.key, text="none of these") if o.key == c.correct_key else o
                for o in c.options
            )
            answer = genetics_answer(_view(d, options=blank))
            assert answer.choice is None and "0 options fit" in answer.note, template


def test_the_solver_abstains_on_what_it_cannot_read(drafts) -> None:
    d = drafts[("genetics.monohybrid", Difficulty.EASY)][0][1]
    assert genetics_answer(_view(d, template_id="genetics.unknown")).choice is None
    garbled = genetics_answer(_view(d, stem_markdown="Which of these is a pea plant?"))
    assert garbled.choice is None and garbled.note.startswith("unreadable")
    same = tuple(Option(key=o.key, text=d.content.option(d.content.correct_key).text + (
        " " * i)) for i, o in enumerate(d.content.options))  # fmt: skip
    assert genetics_answer(_view(d, options=same)).choice is None  # four options fit


def test_labels_and_reasons_come_from_the_rubric(syllabus) -> None:
    data = load_genetics(DATA_DIR)
    by_kind: dict[str, set[Difficulty]] = defaultdict(set)
    for kind, _, topic in KINDS:
        for it in kind_items(kind, topic, data):
            label = rated(it.demand)[0]
            by_kind[kind].add(label)
            d = _draft(kind, it, syllabus)
            if d is not None:
                assert d.content.difficulty is label
                assert d.content.difficulty_reason == difficulty_reason(it.demand, it.what)
    assert sum(len(levels) >= 2 for levels in by_kind.values()) >= 5
    assert by_kind["pedigree"] >= {Difficulty.MEDIUM, Difficulty.HARD}
    assert by_kind["hardy-weinberg"] == set(Difficulty)


def test_each_distractor_is_a_named_slip_in_the_explanation(drafts) -> None:
    for d in _all(drafts):
        c = d.content
        for o in c.options:
            if o.key != c.correct_key:
                line = re.search(rf"^- {re.escape(o.text)}: (.+)$", c.explanation_markdown, re.M)
                assert line and len(line.group(1)) >= 12, (o.text, c.explanation_markdown)
        assert "Source: NCERT" in c.explanation_markdown


def test_every_draft_passes_hygiene_and_no_probability_exceeds_one(drafts) -> None:
    for d in _all(drafts):
        assert hygiene_problem(d) is None
        texts = [o.text for o in d.content.options]
        assert len(set(texts)) == 4
        question = re.split(r"(?<=\.) (?=[A-Z])", d.content.stem_markdown)[-1]
        if re.search(r"What fraction|probability|frequency of", question):
            assert all(0 <= Fraction(t) <= 1 for t in texts), texts


def test_streams_are_deterministic_and_lazy(syllabus) -> None:
    def first(n: int) -> list[str]:
        streams = genetics_drafts(Subject.BOTANY, Difficulty.MEDIUM, syllabus, DATA_DIR)
        return [next(s).content.stem_markdown for _, s in streams][:n]

    assert first(8) == first(8)


def test_formula_keys_for_textbook_crosses(drafts) -> None:
    assert gene_p("D") == Fraction(3, 4) and gene_p("Dd") == Fraction(1, 2)
    assert ev("cp(['D', 'D'], F2)", {"cp": class_p, "F2": ((1, 1), (1, 1))}) == Fraction(9, 16)
    with pytest.raises(FeatureNotAvailable):  # simpleeval keeps forms off private attributes
        ev("F.__mro__", {"F": Fraction})
    known = {
        "fraction of the F2 plants are expected to have round green seeds?": "3/16",
        "A plant of genotype RrYy is crossed with a plant of genotype rryy. What fraction of the "
        "progeny are expected to have wrinkled green seeds?": "1/4",
        "1 in 10000 individuals shows the recessive phenotype of a trait controlled by one gene "
        "with two alleles. What is the frequency of heterozygous individuals?": "0.0198",
        "A child has blood group O and its mother has blood group A.": "AB",
        "A woman who is a carrier of haemophilia marries a man who does not have haemophilia. "
        "What fraction of their sons are expected to have haemophilia?": "1/2",
    }
    found: Counter[str] = Counter()
    for d in _all(drafts):
        c = d.content
        for tail, key in known.items():
            if c.stem_markdown.endswith(tail) or tail in c.stem_markdown:
                assert c.option(c.correct_key).text == key, c.stem_markdown
                found[tail] += 1
    assert set(found) == set(known)


def test_the_solver_enumerates_gametes() -> None:
    genes = parse_genes("for seed shape, round (R) is dominant over wrinkled (r); for seed "
                        "colour, yellow (Y) is dominant over green (y)")  # fmt: skip
    f1 = (("R", "r"), ("Y", "y"))
    f2 = offspring(f1, f1)
    assert len(f2) == 9 and sum(f2.values()) == 1
    assert f2[(("R", "r"), ("Y", "y"))] == Fraction(1, 4)
    assert len(genes) == 2 and genes[0].dom == "round"


def test_pedigree_modes_exclude_all_but_one(drafts) -> None:
    stories = [
        d
        for d in _all(drafts)
        if d.content.stem_markdown.startswith("A rare trait is followed through")
    ]
    modes = Counter(d.content.option(d.content.correct_key).text for d in stories)
    assert set(modes) == {"autosomal dominant", "autosomal recessive", "X-linked recessive"}
    assert all(d.content.difficulty is Difficulty.HARD for d in stories)
