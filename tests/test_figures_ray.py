"""Ray figures: every template's drafts are solved to their key from the figure's spec, the
solver reads only what the picture prints, and the picture is safe and deterministic."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from core.figures import RaySpec
from core.records import OPTION_KEYS, Difficulty, Draft
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


def _key_moved(draft: Draft) -> Draft:
    """The draft with its key's text swapped with the next option's: the key is elsewhere."""
    c = draft.content
    i = OPTION_KEYS.index(c.correct_key)
    j = (i + 1) % 4
    options = list(c.options)
    options[i], options[j] = (
        options[i].model_copy(update={"text": c.options[j].text}),
        options[j].model_copy(update={"text": c.options[i].text}),
    )
    return draft.model_copy(update={"content": c.model_copy(update={"options": tuple(options)})})


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
        moved = figure_solve(solver_view(_key_moved(draft))).answer
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
