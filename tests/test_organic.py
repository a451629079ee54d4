"""Organic chemistry as a whole: structure figures (drawn, safe, published like any figure, counted
apart from diagrams), and the organic templates' place in the drafter, the solver and the pool."""

from __future__ import annotations

from pathlib import Path

from core.figures import StructurePanel, StructureSpec
from core.pool import pool_rows, shows_structures
from core.records import QuestionFormat
from core.shapes import daily_question, figure_key, stored_question
from core.warehouse import open_warehouse
from kb.syllabus import Syllabus
from pipeline.assemble.blueprint import FIGURE_CLASS, STRUCTURE_CLASS
from pipeline.assemble.index import index_pool
from pipeline.difficulty import Demand
from pipeline.figures.render import svg_of
from pipeline.figures.svg import printed, svg_size, unsafe_svg
from pipeline.generate.organic.template import (
    OrganicQuestion,
    OrganicTemplate,
    organic_draft,
)
from tests.test_assembly_warehouse import stored

FOUR = StructureSpec(
    panels=(
        StructurePanel(smiles="CC(C)O", label="I"),
        StructurePanel(smiles="CCCO", label="II"),
        StructurePanel(smiles="COCC", label="III"),
        StructurePanel(smiles="CC(C)(C)O", label="IV"),
    )
)


def test_structures_are_drawn_the_same_every_time_safe_and_labelled_in_text() -> None:
    svg = svg_of(FOUR)
    assert svg == svg_of(FOUR.model_copy())
    assert unsafe_svg(svg) is None
    assert all(printed(svg, f"({label})") for label in ("I", "II", "III", "IV"))
    assert svg_size(svg) == (480, 392)  # two rows of two panels with their labels
    one = svg_of(StructureSpec(panels=(StructurePanel(smiles="CCO"),)))
    assert svg_size(one) == (240, 170) and "<text" not in one  # no label, no caption text
    assert svg_of(StructureSpec(panels=(StructurePanel(smiles="OCC"),))) == one  # same molecule


def toy_template(structures: StructureSpec | None) -> OrganicTemplate:
    question = OrganicQuestion(
        format=QuestionFormat.SINGLE_CORRECT,
        stem="Which of the compounds shown is a tertiary alcohol?",
        options=("I", "II", "III", "IV"),
        correct="IV",
        explanation="In IV the carbon bearing OH is bonded to three other carbons.",
        group="tertiary-alcohol",
        structures=structures,
        caption="Four compounds of formula C₄H₁₀O or C₃H₈O",
        alt="Four structural formulae labelled I to IV",
    )
    return OrganicTemplate(
        template_id="organic.toy.tertiary",
        topic_id="che-alcohols-preparation",
        demand=Demand(),
        draw=lambda seed: question,
    )


def test_a_structure_question_is_published_like_a_figure_and_counted_as_a_structure(
    tmp_path: Path, syllabus: Syllabus
) -> None:
    q = stored(organic_draft(toy_template(FOUR), 0, syllabus))
    plain = stored(organic_draft(toy_template(None), 0, syllabus))
    (ref,) = q.content.figures
    assert ref.figure_id.startswith("fig-") and ref.spec == FOUR
    assert (ref.width, ref.height) == svg_size(svg_of(FOUR))
    url = "/" + figure_key(ref.figure_id)
    daily, shown = daily_question(q), stored_question(q)
    assert daily["figures"][0]["url"] == url and f'<img src="{url}"' in shown["stem_html"]
    assert "figures" not in daily_question(plain)
    assert shows_structures(q.content) and not shows_structures(plain.content)
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.insert_questions([q, plain])
        pool = wh.pool()
    flags = {r["question_id"]: (r["figure"], r["structure"]) for r in pool.iter_rows(named=True)}
    assert flags == {q.question_id: (True, True), plain.question_id: (False, False)}
    worker = pool_rows([q, plain])
    assert (
        worker.select("question_id", "figure", "structure")
        .sort("question_id")
        .equals(pool.select("question_id", "figure", "structure").sort("question_id"))
    )
    # A structure is notation, not a diagram: its class is `structure`, never the figure cap's.
    index = index_pool(pool)
    assert FIGURE_CLASS not in index.classes and STRUCTURE_CLASS in index.classes


def test_a_radical_carbon_gets_a_dot_a_charged_one_its_hydrogens() -> None:
    """RDKit alone draws a benzylic cation as a bare C⁺ and a radical's electron as a speck."""
    cation = svg_of(StructureSpec(panels=(StructurePanel(smiles="[CH2+]c1ccccc1"),)))
    radical = svg_of(StructureSpec(panels=(StructurePanel(smiles="[CH2]c1ccccc1"),)))
    neutral = svg_of(StructureSpec(panels=(StructurePanel(smiles="Cc1ccccc1"),)))
    assert radical.count("<circle") == 1 and "<circle" not in cation + neutral
    assert cation != neutral and unsafe_svg(cation) is None and unsafe_svg(radical) is None
