"""Circuit figure questions: every template's drafts are sound, drawn deterministically, and
answered by the nodal-analysis solver from what the picture prints."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from core.figures import CircuitSpec
from core.figures.circuit import CircuitPart, CircuitPoint
from core.records import Difficulty, Subject
from core.settings import REPO_ROOT
from kb.syllabus import Syllabus
from pipeline.difficulty import rated
from pipeline.figures.circuit_templates import CIRCUIT_TEMPLATES
from pipeline.figures.render import svg_of
from pipeline.figures.svg import figure_id_of, printed, svg_size, svg_texts, unsafe_svg
from pipeline.figures.templates import FigureTemplate, figure_draft
from pipeline.verify.circuit_solver import plain_stem
from pipeline.verify.figure_solver import figure_solve
from pipeline.verify.gate import hygiene_problem, solver_view
from pipeline.verify.giveaway import numerical_giveaway
from tests.test_figures import key_moved, unrendered_draft

SEEDS = 200
# Drawing costs some 7 ms a picture: every eighth seed is drawn and its text checked.
RENDER_EVERY = 8
MIN_TEMPLATES = 14
E, M, H = Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD
INTENDED = {
    "fig-circ-req-parallel-three": E,
    "fig-circ-req-series-parallel": M,
    "fig-circ-req-balanced-bridge": H,
    "fig-circ-cell-internal-current": E,
    "fig-circ-terminal-voltage": M,
    "fig-circ-branch-current": H,
    "fig-circ-series-pd": M,
    "fig-circ-power-internal": M,
    "fig-circ-power-branch": H,
    "fig-circ-cells-series": M,
    "fig-circ-kirchhoff-two-cells": H,
    "fig-circ-wheatstone-unknown": M,
    "fig-circ-wheatstone-shunt": H,
    "fig-circ-wheatstone-galvanometer": H,
    "fig-circ-metre-bridge-length": M,
    "fig-circ-metre-bridge-unknown": M,
    "fig-circ-ceq-series-three": E,
    "fig-circ-ceq-network": M,
    "fig-circ-cap-charge": H,
    "fig-circ-cap-voltage": M,
    "fig-circ-cap-steady-energy": H,
}


def test_at_least_fourteen_templates_all_rated_as_intended() -> None:
    assert len(CIRCUIT_TEMPLATES) >= MIN_TEMPLATES
    assert {t.template_id for t in CIRCUIT_TEMPLATES} == set(INTENDED)
    for t in CIRCUIT_TEMPLATES:
        assert rated(t.demand)[0] is INTENDED[t.template_id], t.template_id
    assert {rated(t.demand)[0] for t in CIRCUIT_TEMPLATES} == {E, M, H}


def _plain(option: str) -> str:
    """An option as plain text ("2.5 A"), the way an alt text would print it."""
    return plain_stem(option).replace("Omega", "Ω").replace("mu", "μ").replace(" ", "")


@pytest.mark.parametrize("template", CIRCUIT_TEMPLATES, ids=lambda t: t.template_id)
def test_every_draft_is_sound_and_solved_from_the_picture(
    template: FigureTemplate, syllabus: Syllabus
) -> None:
    assert template.subject is Subject.PHYSICS
    assert syllabus.topic(template.topic_id).tag.subject is Subject.PHYSICS
    built, faces = 0, set()
    for seed in range(SEEDS):
        draft = unrendered_draft(template, seed, syllabus)
        if draft is None:
            continue
        built += 1
        c = draft.content
        figure = c.figures[0]
        assert isinstance(figure.spec, CircuitSpec)
        faces.add(c.stem_markdown + figure.spec.model_dump_json())
        assert hygiene_problem(draft) is None, (seed, c.options)
        assert numerical_giveaway(draft) is None, (seed, c.options)
        key = next(o.text for o in c.options if o.key == c.correct_key)
        assert key not in figure.alt and _plain(key) not in figure.alt.replace(" ", "")
        solved = figure_solve(solver_view(draft))
        assert solved.answer.choice == c.correct_key, (seed, solved.answer.note)
        assert solved.answer.confidence >= 0.1
        assert solved.used
        moved = figure_solve(solver_view(key_moved(draft))).answer
        assert moved.choice != c.correct_key, seed
        if seed % RENDER_EVERY == 0:
            # the real draft: its figure drawn, addressed by the hash of its bytes
            drawn = figure_draft(template, seed, syllabus)
            assert drawn is not None and drawn.content.stem_markdown == c.stem_markdown
            svg = svg_of(figure.spec)
            assert figure_id_of(svg) == drawn.content.figures[0].figure_id  # drawn twice alike
            assert unsafe_svg(svg) is None
            for text in solved.used:
                assert printed(svg, text), (seed, text, svg_texts(svg))
    assert built >= SEEDS // 3, f"only {built} of {SEEDS} seeds made a question"
    assert len(faces) >= built * 0.8, "too many repeated questions"


def test_pictures_are_sized_and_keep_their_text() -> None:
    for template in CIRCUIT_TEMPLATES:
        question = next(q for s in range(20) if (q := template.draw(s)) is not None)
        spec = question.spec
        assert isinstance(spec, CircuitSpec)
        svg = svg_of(spec)
        width, height = svg_size(svg)
        assert 150 <= width <= 900 and 60 <= height <= 700, (template.template_id, width, height)
        assert 'font-family="DejaVu Sans, sans-serif"' in svg
        assert "dominant-baseline" not in svg
        assert all(p.label in svg_texts(svg) for p in spec.parts if p.label)


_RENDER = """
import hashlib
from pipeline.figures.circuit_templates import CIRCUIT_TEMPLATES
from pipeline.figures.render import svg_of
for t in CIRCUIT_TEMPLATES:
    q = next(q for s in range(20) if (q := t.draw(s)) is not None)
    print(hashlib.sha256(svg_of(q.spec).encode()).hexdigest())
"""


def test_rendering_is_byte_identical_across_processes() -> None:
    runs = [
        subprocess.run(
            [sys.executable, "-c", _RENDER],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for _ in range(2)
    ]
    assert runs[0] == runs[1] and len(runs[0].split()) == len(CIRCUIT_TEMPLATES)


def test_solver_abstains_on_a_stem_it_cannot_read(syllabus: Syllabus) -> None:
    template = CIRCUIT_TEMPLATES[0]
    draft = next(d for s in range(20) if (d := figure_draft(template, s, syllabus)) is not None)
    content = draft.content.model_copy(update={"stem_markdown": "In the circuit shown, what?"})
    answer = figure_solve(solver_view(draft.model_copy(update={"content": content}))).answer
    assert answer.choice is None and answer.confidence == 0


_DOT = re.compile(r'<circle cx="([^"]+)" cy="([^"]+)" r="[^"]+" style="[^"]*fill:black')


def test_every_cell_prints_its_polarity() -> None:
    """A cell's + and − are printed beside its long and short plates, not left to plate length
    (the answer of the cells-in-series question turns on which way each cell faces)."""
    for template in CIRCUIT_TEMPLATES:
        question = next(q for s in range(20) if (q := template.draw(s)) is not None)
        spec = question.spec
        assert isinstance(spec, CircuitSpec)
        cells = sum(p.kind == "cell" for p in spec.parts)
        texts = svg_texts(svg_of(spec))
        assert texts.count("+") == cells and texts.count("−") == cells, template.template_id


def test_the_plus_sign_sits_at_the_long_plate() -> None:
    """The + is nearer the cell's point `a` (its long plate) than its point `b`."""
    spec = CircuitSpec(
        points=(CircuitPoint(name="p", x=0, y=2), CircuitPoint(name="m", x=0, y=0)),
        parts=(CircuitPart(kind="cell", a="p", b="m", value=6, unit="V"),),
    )
    svg = svg_of(spec)
    ys = {
        m.group(2): float(m.group(1))
        for m in re.finditer(r'<text x="[^"]+" y="([^"]+)"[^>]*>([+−])</text>', svg)
    }
    assert ys["+"] < ys["−"]  # SVG y grows downwards: a (y = 2) is drawn above m (y = 0)


def test_junction_dots_only_where_three_wires_meet() -> None:
    # two cells in series: the point between them joins two wires and gets no dot
    series = next(t for t in CIRCUIT_TEMPLATES if t.template_id == "fig-circ-cells-series")
    question = next(q for s in range(20) if (q := series.draw(s)) is not None)
    assert not _DOT.findall(svg_of(question.spec))
    # a T made by a part ending on the middle of a wire is a junction and gets its dot
    spec = CircuitSpec(
        points=(
            CircuitPoint(name="a", x=0, y=0),
            CircuitPoint(name="t", x=0, y=1),
            CircuitPoint(name="b", x=0, y=2),
            CircuitPoint(name="r", x=2, y=1),
        ),
        parts=(
            CircuitPart(kind="wire", a="a", b="b"),
            CircuitPart(kind="resistor", a="t", b="r", name="R", value=2, unit="Ω"),
        ),
    )
    assert len(_DOT.findall(svg_of(spec))) == 1
