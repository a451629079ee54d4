"""Ray figures: every template's drafts are solved to their key from the figure's spec, the
solver reads only what the picture prints, and the picture is safe and deterministic."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from core.figures import RaySpec
from core.figures.ray import ElementKind, RayElement, RayObject, RayPrism
from core.records import Difficulty, Draft
from core.settings import REPO_ROOT
from kb.syllabus import Syllabus
from pipeline.difficulty import rated
from pipeline.figures.ray import ray_svg
from pipeline.figures.ray_templates import RAY_TEMPLATES
from pipeline.figures.render import svg_of
from pipeline.figures.svg import figure_id_of, printed, svg_size, svg_texts, unsafe_svg
from pipeline.figures.templates import FigureTemplate, figure_draft
from pipeline.verify.figure_solver import figure_solve
from pipeline.verify.gate import screen_refusal, solver_view
from tests.test_figures import key_moved

SEEDS = 200  # drafts checked per template
MAX_SEEDS = 1000  # seeds tried to make them (a draw may make no question)

DIFFICULTY = {
    "fig-ray-concave-mirror-image-distance": Difficulty.EASY,
    "fig-ray-convex-mirror-image-distance": Difficulty.MEDIUM,
    "fig-ray-mirror-magnification": Difficulty.MEDIUM,
    "fig-ray-concave-mirror-image-position": Difficulty.MEDIUM,
    "fig-ray-mirror-object-moved": Difficulty.HARD,
    "fig-ray-convex-lens-image-distance": Difficulty.EASY,
    "fig-ray-concave-lens-image-distance": Difficulty.EASY,
    "fig-ray-lens-image-height": Difficulty.MEDIUM,
    "fig-ray-convex-lens-image-nature": Difficulty.MEDIUM,
    "fig-ray-lens-object-for-magnification": Difficulty.MEDIUM,
    "fig-ray-lenses-in-contact-power": Difficulty.MEDIUM,
    "fig-ray-two-lenses-final-image-height": Difficulty.HARD,
    "fig-ray-thin-prism-deviation": Difficulty.EASY,
    "fig-ray-prism-deviation": Difficulty.EASY,
    "fig-ray-prism-refractive-index": Difficulty.MEDIUM,
}


def _drafts(template: FigureTemplate, syllabus: Syllabus) -> list[Draft]:
    drafts = []
    for seed in range(MAX_SEEDS):
        draft = figure_draft(template, seed, syllabus)
        if draft is not None:
            drafts.append(draft)
        if len(drafts) == SEEDS:
            break
    return drafts


def test_at_least_ten_templates() -> None:
    assert len(RAY_TEMPLATES) >= 10
    assert len({t.template_id for t in RAY_TEMPLATES}) == len(RAY_TEMPLATES)
    assert {t.template_id for t in RAY_TEMPLATES} == set(DIFFICULTY)


@pytest.mark.parametrize("template", RAY_TEMPLATES, ids=lambda t: t.template_id)
def test_template(template: FigureTemplate, syllabus: Syllabus) -> None:
    assert rated(template.demand)[0] is DIFFICULTY[template.template_id]
    assert syllabus.topic(template.topic_id).tag.subject is template.subject
    drafts = _drafts(template, syllabus)
    assert len(drafts) == SEEDS, f"only {len(drafts)} drafts in {MAX_SEEDS} seeds"
    faces = {d.content.stem_markdown + d.content.figures[0].figure_id for d in drafts}
    assert len(faces) >= SEEDS // 4, "too few distinct questions"
    for draft in drafts:
        c = draft.content
        assert c.difficulty is DIFFICULTY[template.template_id]
        assert screen_refusal(draft) is None
        figure = c.figures[0]
        assert isinstance(figure.spec, RaySpec)
        solve = figure_solve(solver_view(draft))
        assert solve.answer.choice == c.correct_key, (c.stem_markdown, solve.answer.note)
        assert solve.answer.confidence >= 0.1
        svg = svg_of(figure.spec)
        assert unsafe_svg(svg) is None
        assert svg_of(figure.spec) == svg
        assert figure_id_of(svg) == figure.figure_id
        assert solve.used, "the solver read nothing off the figure"
        for value in solve.used:
            assert printed(svg, value), value
        key_text = c.option(c.correct_key).text
        assert key_text.lower() not in figure.alt.lower()
        moved = figure_solve(solver_view(key_moved(draft))).answer
        assert moved.choice != c.correct_key


def test_pictures_have_a_size_and_no_image(syllabus: Syllabus) -> None:
    for template in RAY_TEMPLATES:
        draft = next(d for s in range(50) if (d := figure_draft(template, s, syllabus)))
        spec = draft.content.figures[0].spec
        assert isinstance(spec, RaySpec)
        svg = svg_of(spec)
        width, height = svg_size(svg)
        assert 200 <= width <= 700 and 150 <= height <= 500
        assert not {"A'B'", "I", "image"} & set(svg_texts(svg)), "the image is never drawn"


def test_the_same_spec_draws_the_same_bytes_in_a_fresh_process(syllabus: Syllabus) -> None:
    specs = [
        next(d for s in range(50) if (d := figure_draft(t, s, syllabus))).content.figures[0].spec
        for t in RAY_TEMPLATES
    ]
    here = [ray_svg(s) for s in specs if isinstance(s, RaySpec)]
    code = (
        "import sys, json\n"
        "from core.figures import RaySpec\n"
        "from pipeline.figures.ray import ray_svg\n"
        "specs = json.loads(sys.stdin.read())\n"
        "print(json.dumps([ray_svg(RaySpec.model_validate(s)) for s in specs]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps([s.model_dump() for s in specs if isinstance(s, RaySpec)]),
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        check=True,
        env={"PYTHONPATH": str(REPO_ROOT), "PATH": ""},
    )
    assert json.loads(out.stdout) == here


def test_the_solver_abstains_on_a_stem_it_cannot_read(syllabus: Syllabus) -> None:
    draft = figure_draft(RAY_TEMPLATES[0], 0, syllabus)
    assert draft is not None
    view = solver_view(draft).model_copy(update={"stem_markdown": "Which colour is the mirror?"})
    answer = figure_solve(view).answer
    assert answer.choice is None and answer.confidence == 0.0 and answer.note


_NUM = r"(-?[\d.]+)"
_LINE = re.compile(
    rf'<line x1="{_NUM}" y1="{_NUM}" x2="{_NUM}" y2="{_NUM}" stroke="[^"]+" stroke-width="1"/>'
)
_ARC = re.compile(rf'<path d="M {_NUM} {_NUM} Q {_NUM} {_NUM} {_NUM} {_NUM}"')
_TEXT = re.compile(rf'<text x="{_NUM}" y="{_NUM}"[^>]*text-anchor="(\w+)"[^>]*>([^<]*)</text>')


def _mirror_svg(kind: ElementKind) -> str:
    element = RayElement(kind=kind, focal=10)
    return ray_svg(RaySpec(elements=(element,), objects=(RayObject(distance=30),)))


@pytest.mark.parametrize("kind", ["concave_mirror", "convex_mirror"])
def test_mirror_hatching_sits_on_the_back_of_the_arc(kind: ElementKind) -> None:
    """Every hatch tick starts on the arc's back edge and runs away from the object (right)."""
    svg = _mirror_svg(kind)
    arc = _ARC.search(svg)
    assert arc is not None
    ends, top, ctrl, axis, _, bottom = (float(v) for v in arc.groups())
    pole = (ends + ctrl) / 2
    ticks = [
        (x1, y1, x2, y2)
        for x1, y1, x2, y2 in (tuple(map(float, m.groups())) for m in _LINE.finditer(svg))
        if abs(x1 - pole) <= 15 and top <= y1 <= bottom and x2 > x1 and y2 < y1
    ]
    assert len(ticks) >= 9
    for x1, y1, x2, _ in ticks:
        t = (y1 - axis) / (bottom - axis)
        on_arc = pole + (ends - pole) * t * t
        assert 0 <= x1 - on_arc <= 2.5, (x1, on_arc)  # touching the stroke, behind it
        assert x2 > on_arc + 5


@pytest.mark.parametrize("kind", ["concave_mirror", "convex_mirror"])
def test_the_pole_is_labelled_in_front_of_the_mirror_below_the_axis(kind: ElementKind) -> None:
    svg = _mirror_svg(kind)
    arc = _ARC.search(svg)
    assert arc is not None
    pole, axis = (float(arc.group(1)) + float(arc.group(3))) / 2, float(arc.group(4))
    x, y, anchor = next((float(x), float(y), a) for x, y, a, t in _TEXT.findall(svg) if t == "P")
    assert anchor == "end" and x < pole - 3 and y > axis  # ends left of the pole, under the axis


def test_labels_keep_clear_of_lens_outlines() -> None:
    """No printed value beside a lens overlaps its outline, nor comes within 3 px of it."""
    for template in RAY_TEMPLATES:
        for seed in range(40):
            q = template.draw(seed)
            if q is None or not isinstance(q.spec, RaySpec) or q.spec.prism is not None:
                continue
            svg = ray_svg(q.spec)
            lenses = []
            for d in re.findall(r'<path d="([^"]+)"[^>]*fill="#d8ecf7"', svg):
                xs = [float(v) for v in re.findall(r"-?[\d.]+", d)][::2]
                centre = (min(xs) + max(xs)) / 2  # a lens is at most 13 px either side of it
                lenses.append((centre - 16, centre + 16))
            for x, y, anchor, text in _TEXT.findall(svg):
                if not 52 < float(y) < 220 or text in ("O", "L₁", "L₂"):
                    continue
                w = 0.6 * 12 * len(text)
                lo = {"start": 0.0, "middle": -w / 2, "end": -w}[anchor] + float(x)
                for left, right in lenses:
                    assert lo + w <= left or lo >= right, (template.template_id, seed, text)


def test_minimum_deviation_is_an_arc_between_the_rays_not_a_caption() -> None:
    prism = RayPrism(angle=60, min_deviation=42, minimum=True)
    svg = ray_svg(RaySpec(prism=prism))
    texts = svg_texts(svg)
    assert "δm = 42°" in texts and "minimum deviation" not in texts
    arc = re.search(rf'<path d="M {_NUM} {_NUM} A {_NUM} {_NUM} 0 0 1 {_NUM} {_NUM}"', svg)
    assert arc is not None and float(arc.group(3)) > 60  # the wide arc, not the A marker
    x, y, _, _ = next(m for m in _TEXT.findall(svg) if m[3] == "δm = 42°")
    ax0, ay0, ax1, ay1 = (float(arc.group(k)) for k in (1, 2, 5, 6))
    assert float(x) > max(ax0, ax1) and min(ay0, ay1) < float(y) < max(ay0, ay1) + 6
