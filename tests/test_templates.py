"""Every numerical template over 200 seeds (50 in `make test-fast`): sound options, a key that an
independent computation (the template's declared relations, solved step by step by sympy from
the stem's numbers) confirms, and every distractor traced to the named mistake behind it."""

from __future__ import annotations

import json
import math

import pytest

from core.records import Difficulty, Subject
from kb.syllabus import Syllabus
from pipeline.generate.numerical import (
    ANSWER_SIG_FIGS,
    DISTRACTORS_PARAM,
    NumericalTemplate,
    numerical_draft,
)
from pipeline.quantities.numbers import first_number, round_sig
from pipeline.templates.catalogue import TEMPLATES
from pipeline.verify.gate import screen_refusal, solver_view
from pipeline.verify.solver import numerical_answer
from tests.conftest import examples

SEEDS = examples(200)
CHAINS = tuple(t for t in TEMPLATES if t.chain)
# Physical-chemistry units the chains must reach: mole concept, thermodynamics, solutions,
# equilibrium, electrochemistry, kinetics (gases are taught inside the mole concept's unit).
PHYSICAL_CHEMISTRY = ("che-u01", "che-u04", "che-u05", "che-u06", "che-u07", "che-u08")


def _mistake_values(template: NumericalTemplate, shown: dict[str, float]) -> dict[float, str]:
    si = template.si(shown)
    values: dict[float, str] = {}
    for m in template.named_mistakes:
        try:
            v = round_sig(m.compute(si) / template.unknown.si, ANSWER_SIG_FIGS)
        except (ZeroDivisionError, ValueError, OverflowError):
            continue
        if math.isfinite(v):
            values.setdefault(v, m.name)
    return values


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.template_id)
def test_template_over_many_seeds(template: NumericalTemplate, syllabus: Syllabus) -> None:
    topic = syllabus.topic(template.topic_id)
    assert not topic.deleted and topic.subject == template.subject
    drafts = [d for d in (numerical_draft(template, s, syllabus) for s in range(SEEDS)) if d]
    assert len(drafts) >= SEEDS * 0.8, f"only {len(drafts)} of {SEEDS} seeds make a question"
    passed = [d for d in drafts if screen_refusal(d) is None]
    assert len(passed) >= SEEDS * 0.6, f"the screens refuse {len(drafts) - len(passed)} drafts"
    for draft in drafts:
        c = draft.content
        values = [first_number(o.text) for o in c.options]
        assert None not in values and len(set(values)) == 4
        answer = numerical_answer(solver_view(draft), template)
        assert answer.choice == c.correct_key, (c.stem_markdown, answer.note)
        unit = template.unknown.unit
        assert all(unit in o.text for o in c.options)
        assert c.difficulty is template.difficulty
        # Each distractor is the value of a named mistake at this draw, and says which.
        params = dict(draft.provenance.params)
        shown = {k: float(v) for k, v in params.items() if not k.startswith("~")}
        mistakes = _mistake_values(template, shown)
        named = json.loads(params[DISTRACTORS_PARAM])
        assert len(named) == 3
        for text, name, _ in named:
            value = first_number(text)
            assert value is not None
            traced = [m for v, m in mistakes.items() if math.isclose(v, value, rel_tol=1e-9)]
            assert name in traced, (text, name, mistakes)


@pytest.mark.parametrize("template", TEMPLATES[:: max(1, len(TEMPLATES) // 12)])
def test_a_moved_key_is_refused(template: NumericalTemplate, syllabus: Syllabus) -> None:
    draft = next(d for d in (numerical_draft(template, s, syllabus) for s in range(50)) if d)
    c = draft.content
    moved = "B" if c.correct_key == "A" else "A"
    tampered = draft.model_copy(update={"content": c.model_copy(update={"correct_key": moved})})
    assert numerical_answer(solver_view(tampered), template).choice != moved


@pytest.mark.parametrize("template", CHAINS, ids=lambda t: t.template_id)
def test_a_chain_declares_the_demand_its_steps_make(template: NumericalTemplate) -> None:
    """A chain's demand is its steps and concepts as declared, never a format's label."""
    assert template.demand.steps == len(template.chain) + 1
    assert template.demand.concepts == len(template.concepts) >= 2
    assert template.concept, "the final relation names its concept"
    symbols = {q.symbol for q in template.givens}
    for step in template.chain:
        assert step.finds.symbol not in symbols and step.finds.symbol in step.relation
        symbols.add(step.finds.symbol)
    assert len(template.named_mistakes) >= 3


def test_templates_cover_the_syllabus_breadth(syllabus: Syllabus) -> None:
    units = {syllabus.topic(t.topic_id).unit_id for t in TEMPLATES}
    physics = {u for u in units if u.startswith("phy-")}
    assert len(physics) >= 10
    assert sum(t.subject is Subject.CHEMISTRY for t in TEMPLATES) >= 8


def test_the_chains_are_many_and_cover_physics_and_physical_chemistry(
    syllabus: Syllabus,
) -> None:
    assert len(CHAINS) >= 60
    assert len(TEMPLATES) >= 170
    assert sum(t.difficulty is Difficulty.HARD for t in TEMPLATES) >= 40
    units = {syllabus.topic(t.topic_id).unit_id for t in CHAINS}
    live_physics = {
        t.unit_id
        for t in syllabus.topics.values()
        if t.subject is Subject.PHYSICS and not t.deleted
    }
    assert live_physics <= units, sorted(live_physics - units)
    assert set(PHYSICAL_CHEMISTRY) <= units, sorted(set(PHYSICAL_CHEMISTRY) - units)


def test_the_nuclide_masses_are_the_mendeleev_packages() -> None:
    """Data with a citation: the binding-energy chain's atomic masses, checked against an
    independent source."""
    mendeleev = pytest.importorskip("mendeleev", reason="a dev dependency (make test installs it)")
    from pipeline.templates.chains_electricity import NUCLIDES

    for z, a, mass in NUCLIDES:
        isotope = next(i for i in mendeleev.element(int(z)).isotopes if i.mass_number == int(a))
        assert mass == pytest.approx(isotope.mass, abs=1.5e-6), (z, a)
