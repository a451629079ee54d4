"""Graph figure questions: every template's drafts are answered by the graph solver from the
printed graph alone, the picture prints what the solver read, and renders are byte-stable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core.figures import GraphSpec
from core.records import Difficulty, Draft, QuestionFormat, Subject
from kb.syllabus import Syllabus
from pipeline.difficulty import rated
from pipeline.figures import templates as figure_templates
from pipeline.figures.graph_templates import GRAPH_TEMPLATES
from pipeline.figures.render import svg_of
from pipeline.figures.svg import printed, svg_size, svg_texts, unsafe_svg
from pipeline.figures.templates import FigureTemplate, figure_draft
from pipeline.quantities.numbers import number_and_unit
from pipeline.verify.gate import hygiene_problem, solver_view
from pipeline.verify.giveaway import numerical_giveaway
from pipeline.verify.graph_solver import graph_answer
from tests.test_figures import key_moved, unrendered_draft

KEY_SEEDS = 200
RENDER_SEEDS = 4
E, M, H = Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD
INTENDED = {
    "fig-graph-vt-acceleration": E,
    "fig-graph-vt-distance": M,
    "fig-graph-vt-displacement-signed": M,
    "fig-graph-vt-average-speed": H,
    "fig-graph-xt-velocity": E,
    "fig-graph-iv-resistance": E,
    "fig-graph-iv-combination": H,
    "fig-graph-pv-cycle-work": M,
    "fig-graph-decay-constant": E,
    "fig-graph-decay-remaining": M,
    "fig-graph-decay-activity": H,
    "fig-graph-photoelectric-planck": M,
    "fig-graph-photoelectric-work-function": H,
    "fig-graph-zero-order-rate-constant": E,
    "fig-graph-zero-order-half-life": M,
    "fig-graph-first-order-half-life": M,
    "fig-graph-first-order-log-rate-constant": E,
    "fig-graph-order-from-plot": E,
    "fig-graph-arrhenius-activation-energy": M,
    "fig-graph-titration-acid-molarity": M,
    "fig-graph-titration-base-from-ph": H,
    "fig-graph-pv-work-on-gas": M,
    "fig-graph-raoult-partial-pressure": E,
    "fig-graph-raoult-total-pressure": M,
    "fig-graph-raoult-vapour-composition": H,
    "fig-graph-gibbs-entropy-from-slope": M,
    "fig-graph-gibbs-spontaneity-temperature": H,
    "fig-graph-kohlrausch-limiting-conductivity": M,
    "fig-graph-kohlrausch-conductivity": H,
    "fig-graph-ionisation-enthalpy-anomaly": M,
}
IDS = [t.template_id for t in GRAPH_TEMPLATES]


def _spec(draft: Draft) -> GraphSpec:
    spec = draft.content.figures[0].spec
    assert isinstance(spec, GraphSpec)
    return spec


def test_at_least_thirty_templates_seventeen_of_them_chemistry() -> None:
    assert len(GRAPH_TEMPLATES) >= 30
    assert sum(t.subject is Subject.CHEMISTRY for t in GRAPH_TEMPLATES) >= 17
    assert len(set(IDS)) == len(IDS)
    assert all(t.startswith(figure_templates.TEMPLATE_PREFIX) for t in IDS)


def test_each_template_is_rated_as_intended_and_both_subjects_span_the_levels() -> None:
    assert set(IDS) == set(INTENDED)
    for t in GRAPH_TEMPLATES:
        assert rated(t.demand)[0] is INTENDED[t.template_id], t.template_id
    for subject in (Subject.PHYSICS, Subject.CHEMISTRY):
        levels = {t.difficulty for t in GRAPH_TEMPLATES if t.subject is subject}
        assert levels == {E, M, H}, subject


def test_topics_are_live_and_of_the_templates_subject(syllabus: Syllabus) -> None:
    for t in GRAPH_TEMPLATES:
        assert syllabus.topic(t.topic_id).tag.subject is t.subject, t.template_id


@pytest.mark.parametrize("template", GRAPH_TEMPLATES, ids=IDS)
def test_the_solver_finds_the_key_and_follows_it_when_moved(
    template: FigureTemplate, syllabus: Syllabus
) -> None:
    # Rendering is checked below on fewer seeds; here the figure id need not be real.
    made, faces = 0, set()
    for seed in range(KEY_SEEDS):
        draft = unrendered_draft(template, seed, syllabus)
        if draft is None:
            continue
        made += 1
        c = draft.content
        faces.add(c.stem_markdown + repr(_spec(draft)))
        got = graph_answer(solver_view(draft), _spec(draft)).answer
        assert got.choice == c.correct_key and got.confidence >= 0.1, (seed, got)
        moved = graph_answer(solver_view(key_moved(draft)), _spec(draft)).answer
        assert moved.choice != c.correct_key, (seed, moved)
        key_text = next(o.text for o in c.options if o.key == c.correct_key)
        assert key_text not in c.figures[0].alt
        assert hygiene_problem(draft) is None, seed
        assert numerical_giveaway(draft) is None, seed
        if c.format is QuestionFormat.NUMERICAL:
            assert all(number_and_unit(o.text) is not None for o in c.options)
    assert made >= KEY_SEEDS // 2
    assert len(faces) >= 20


@pytest.mark.parametrize("template", GRAPH_TEMPLATES, ids=IDS)
def test_the_picture_prints_what_the_solver_read(
    template: FigureTemplate, syllabus: Syllabus
) -> None:
    for seed in range(RENDER_SEEDS):
        draft = figure_draft(template, seed, syllabus)
        if draft is None:
            continue
        spec = _spec(draft)
        svg = svg_of(spec)
        assert svg_of(spec) == svg
        assert unsafe_svg(svg) is None
        assert 200 <= min(svg_size(svg)) <= max(svg_size(svg)) <= 800
        solve = graph_answer(solver_view(draft), spec)
        assert solve.used, seed
        for value in solve.used:
            assert printed(svg, value), (seed, value)
        texts = svg_texts(svg)
        assert spec.x.label in texts and spec.y.label in texts
        assert not any("−" in t for t in texts)  # plain hyphen minus in numbers


RENDER_SCRIPT = """
import hashlib, sys
from pathlib import Path
from kb.syllabus import load_syllabus
from pipeline.figures.graph_templates import GRAPH_TEMPLATES
from pipeline.figures.render import svg_of
syllabus = load_syllabus(Path("data"))
for t in GRAPH_TEMPLATES:
    q = next(q for q in map(t.draw, range(20)) if q is not None)
    print(t.template_id, hashlib.sha256(svg_of(q.spec).encode()).hexdigest())
"""


def test_two_fresh_processes_draw_the_same_bytes() -> None:
    root = Path(__file__).resolve().parents[1]

    def run() -> str:
        out = subprocess.run(
            [sys.executable, "-c", RENDER_SCRIPT],
            cwd=root,
            env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin", "MPLBACKEND": "svg"},
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout

    first, second = run(), run()
    assert first == second
    assert len(first.splitlines()) == len(GRAPH_TEMPLATES)
