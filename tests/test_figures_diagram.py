"""Labelled biology diagrams: the data, the templates' questions, the solver and the drawing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from core.figures import DiagramSpec
from core.records import (
    OPTION_KEYS,
    Difficulty,
    FigureRef,
    SolverView,
    Subject,
    keyed_options,
)
from kb.syllabus import Syllabus
from pipeline.figures.diagram import diagram_svg
from pipeline.figures.diagram_templates import DIAGRAM_DIR, diagram_templates, load_diagrams
from pipeline.figures.render import svg_of
from pipeline.figures.svg import printed, svg_size, svg_texts, unsafe_svg
from pipeline.figures.templates import FigureQuestion, FigureTemplate, figure_draft
from pipeline.verify.diagram_solver import diagram_answer
from pipeline.verify.gate import hygiene_problem, solver_view
from tests.conftest import DATA_DIR

TEMPLATES = diagram_templates(DATA_DIR)
DIAGRAMS = load_diagrams(DATA_DIR / DIAGRAM_DIR)
KEY_SEEDS = 200  # every template: the solver finds the key, and loses it when the key moves
DRAFT_SEEDS = 40  # every template: the full draft, its SVG and the hygiene gate
WANT = {"name": Difficulty.EASY, "statement": Difficulty.MEDIUM, "parts": Difficulty.HARD}


def _view(template: FigureTemplate, q: FigureQuestion, options: tuple[str, ...]) -> SolverView:
    """What the solver sees of a drawn question (the figure's spec, not its key)."""
    assert isinstance(q.spec, DiagramSpec)
    return SolverView(
        subject=template.subject,
        topic_id=template.topic_id,
        format=q.format,
        template_id=template.template_id,
        stem_markdown=q.stem,
        options=keyed_options(options),
        figures=(FigureRef(figure_id="fig-test", caption=q.caption, alt=q.alt, spec=q.spec),),
    )


def test_counts_and_subjects() -> None:
    assert len(DIAGRAMS) >= 15
    assert len(TEMPLATES) >= 30
    assert {t.subject for t in TEMPLATES} == {Subject.BOTANY, Subject.ZOOLOGY}
    assert len({t.template_id for t in TEMPLATES}) == len(TEMPLATES)


def test_diagram_data(syllabus: Syllabus) -> None:
    """Each diagram: a live topic of its own subject, a citation, ≥ 5 parts with statements, no
    part name or statement shared within the diagram, no part named in its own statements."""
    for d in DIAGRAMS:
        topic = syllabus.topic(d.topic_id)
        assert topic.tag.subject is d.subject, d.diagram_id
        assert d.topic_id in {t.topic_id for t in syllabus.live_topics()}, d.diagram_id
        assert d.citation.startswith("NCERT Biology Class"), d.diagram_id
        assert len(d.parts) >= 5, d.diagram_id
        names = [p.name.lower() for p in d.parts]
        assert len(set(names)) == len(names), d.diagram_id
        said = [s for p in d.parts for s in p.statements]
        assert len(set(said)) == len(said), d.diagram_id
        for p in d.parts:
            assert 1 <= len(p.statements) <= 2, (d.diagram_id, p.part_id)
            for s in p.statements:
                assert p.name.lower() not in s.lower(), (d.diagram_id, p.part_id, s)
                assert s.endswith("."), (d.diagram_id, p.part_id)
            for x, y in (p.anchor, p.at):
                assert 0 <= x <= 480 and 0 <= y <= 340, (d.diagram_id, p.part_id)
        raw = json.loads((DATA_DIR / DIAGRAM_DIR / f"{d.diagram_id}.json").read_text())
        assert raw["diagram_id"] == d.diagram_id


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.template_id)
def test_solver_finds_the_key_and_loses_it_when_it_moves(template: FigureTemplate) -> None:
    made = 0
    for seed in range(KEY_SEEDS):
        q = template.draw(seed)
        if q is None:
            continue
        made += 1
        assert template.draw(seed) == q  # deterministic per seed
        assert isinstance(q.spec, DiagramSpec)
        options = q.options
        key = options.index(q.correct)
        solved = diagram_answer(_view(template, q, options), q.spec)
        assert solved.answer.choice == OPTION_KEYS[key], (seed, q.stem, solved)
        assert solved.answer.confidence >= 0.1
        assert q.correct.lower() not in q.alt.lower()
        assert q.group
        # the key's text moved to another option: the solver follows the text, not the slot
        other = (key + 1) % 4
        moved = list(options)
        moved[key], moved[other] = moved[other], moved[key]
        again = diagram_answer(_view(template, q, tuple(moved)), q.spec)
        assert again.answer.choice != OPTION_KEYS[key], (seed, q.stem)
    # a few draws make no question: a long part name (water-containing cavity) among short ones
    assert made >= KEY_SEEDS * 0.8, template.template_id


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.template_id)
def test_drafts_draw_and_read(template: FigureTemplate, syllabus: Syllabus) -> None:
    kind = template.template_id.rsplit("-", 1)[1]
    assert template.difficulty is WANT[kind]
    for seed in range(DRAFT_SEEDS):
        draft = figure_draft(template, seed, syllabus)
        if draft is None:
            continue
        c = draft.content
        assert hygiene_problem(draft) is None, (seed, [o.text for o in c.options])
        assert c.difficulty is WANT[kind]
        figure = c.figures[0]
        assert figure.spec is not None
        svg = svg_of(figure.spec)
        assert unsafe_svg(svg) is None
        solved = diagram_answer(solver_view(draft), figure.spec)  # type: ignore[arg-type]
        assert solved.answer.choice == c.correct_key
        for read in solved.used:
            assert printed(svg, read), (seed, read)
        key_text = next(o.text for o in c.options if o.key == c.correct_key)
        assert key_text.lower() not in figure.alt.lower()
        texts = svg_texts(svg)
        # only the title, the letters and neutral notes are printed, never a part's name
        for label in figure.spec.labels:  # type: ignore[union-attr]
            assert label.part not in texts, label.part
            assert printed(svg, label.letter)


def test_rendering_is_deterministic_in_fresh_processes() -> None:
    code = (
        "import hashlib; from pathlib import Path; "
        "from pipeline.figures.diagram_templates import diagram_templates; "
        "from pipeline.figures.render import svg_of; "
        "qs = (t.draw(s) for t in diagram_templates(Path('data')) for s in range(3)); "
        "print(''.join(hashlib.sha256(svg_of(q.spec).encode()).hexdigest()[:12] "
        "for q in qs if q is not None))"
    )
    root = Path(__file__).resolve().parent.parent
    runs = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(root)},
        ).stdout
        for _ in range(2)
    }
    assert len(runs) == 1
    assert len(next(iter(runs)).strip()) >= 12 * len(TEMPLATES)


def test_svg_shape() -> None:
    q = TEMPLATES[0].draw(0)
    assert q is not None and isinstance(q.spec, DiagramSpec)
    svg = diagram_svg(q.spec)
    assert svg == diagram_svg(q.spec)
    assert svg_size(svg) == (480, 360)
    assert printed(svg, q.spec.title)
    assert "DejaVu Sans" in svg


def test_solver_abstains_on_an_unread_stem() -> None:
    template = TEMPLATES[0]
    q = template.draw(0)
    assert q is not None and isinstance(q.spec, DiagramSpec)
    view = _view(template, q, q.options).model_copy(update={"stem_markdown": "Which is it?"})
    solved = diagram_answer(view, q.spec)
    assert solved.answer.choice is None and solved.answer.confidence == 0.0


def test_a_parts_question_gives_no_consensus_away() -> None:
    """Every letter's true name stands in two options of four, and so does one false name:
    the key is not the options' majority at any position, and a student must know one part of
    each swapped pair."""
    templates = [t for t in TEMPLATES if t.template_id.endswith("-parts")]
    assert len(templates) >= 15
    for t in templates:
        for seed in range(20):
            q = t.draw(seed)
            if q is None:
                continue
            rows = [[pair.split(" — ", 1)[1] for pair in o.split(", ")] for o in q.options]
            truth = rows[q.options.index(q.correct)]
            for position, name in enumerate(truth):
                shown = Counter(row[position] for row in rows)
                assert shown[name] == 2 and sorted(shown.values()) == [2, 2], (t.template_id, seed)
