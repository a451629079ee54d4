"""Every numerical template over 200 seeds (50 in `make test-fast`): sound options, and a key
that an independent computation (the template's declared relation, solved by sympy from the
stem's numbers) confirms."""

from __future__ import annotations

import pytest

from core.records import Subject
from kb.syllabus import Syllabus
from pipeline.generate.numerical import numerical_draft
from pipeline.quantities.numbers import first_number
from pipeline.templates.catalogue import TEMPLATES
from pipeline.verify.gate import solver_view
from pipeline.verify.solver import numerical_answer
from tests.conftest import examples

SEEDS = examples(200)


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.template_id)
def test_template_over_many_seeds(template, syllabus: Syllabus) -> None:
    topic = syllabus.topic(template.topic_id)
    assert not topic.deleted and topic.subject == template.subject
    drafts = [d for d in (numerical_draft(template, s, syllabus) for s in range(SEEDS)) if d]
    assert len(drafts) >= SEEDS * 0.8, f"only {len(drafts)} of {SEEDS} seeds make a question"
    for draft in drafts:
        c = draft.content
        values = [first_number(o.text) for o in c.options]
        assert None not in values and len(set(values)) == 4
        answer = numerical_answer(solver_view(draft), template)
        assert answer.choice == c.correct_key, (c.stem_markdown, answer.note)
        unit = template.unknown.unit
        assert all(unit in o.text for o in c.options)


def test_templates_cover_the_syllabus_breadth(syllabus: Syllabus) -> None:
    units = {syllabus.topic(t.topic_id).unit_id for t in TEMPLATES}
    physics = {u for u in units if u.startswith("phy-")}
    assert len(physics) >= 10
    assert sum(t.subject is Subject.CHEMISTRY for t in TEMPLATES) >= 8
