"""Units: template conversion factors agree with pint; the solver reads the printed units."""

from __future__ import annotations

import math

import pytest

from kb.syllabus import Syllabus
from pipeline.generate.numerical import numerical_draft
from pipeline.quantities.units import UnknownUnitError, pint_expression, same_dimension, si_factor
from pipeline.templates.catalogue import TEMPLATES
from pipeline.verify.gate import judged, solver_view
from pipeline.verify.solver import numerical_answer


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.template_id)
def test_every_conversion_factor_is_one_or_what_pint_says(template) -> None:
    for q in (*template.givens, template.unknown):
        if q.si != 1:
            assert math.isclose(q.si, si_factor(q.unit), rel_tol=1e-9), (q.symbol, q.unit, q.si)


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        (r"\mathrm{m\,s^{-2}}", 1.0),
        (r"\mathrm{cm}", 0.01),
        (r"\mu\mathrm{F}", 1e-6),
        (r"\mathrm{kJ\,mol^{-1}}", 1000.0),
        (r"\mathrm{mL}", 1e-6),
        (r"\mathrm{rev\,min^{-1}}", 2 * math.pi / 60),
        (r"\%", 0.01),
        (r"\mathrm{mm\,Hg}", 133.322387415),
        (r"\mathrm{k}\Omega", 1000.0),
    ],
)
def test_printed_units_are_read_by_pint(tex: str, expected: float) -> None:
    assert math.isclose(si_factor(tex), expected, rel_tol=1e-6), pint_expression(tex)


def test_an_unreadable_unit_is_a_named_error() -> None:
    with pytest.raises(UnknownUnitError, match="cannot read unit"):
        si_factor(r"\mathrm{blorps\,s^{-1}}")
    assert not same_dimension(r"\mathrm{cm}", r"\mathrm{s}")


def test_a_stem_that_prints_the_wrong_unit_is_refused(syllabus: Syllabus) -> None:
    cm_templates = [t for t in TEMPLATES if any(q.unit == r"\mathrm{cm}" for q in t.givens)]
    assert cm_templates
    refused = depends = 0
    for template in cm_templates:
        draft = numerical_draft(template, 0, syllabus) or numerical_draft(template, 1, syllabus)
        assert draft is not None
        c = draft.content
        # The first length printed in cm: a chain may give one the answer does not depend on
        # (a pulley's radius, for the block's speed), and then mm for cm changes nothing.
        first = next(q.symbol for q in template.givens if q.unit == r"\mathrm{cm}")
        si = template.si({k: float(v) for k, v in draft.provenance.params if k[0] != "~"})
        try:
            shrunk = template.compute({**si, first: si[first] / 10})
        except ValueError:  # no answer at all from a tenth of the length: it matters
            shrunk = math.nan
        depends += not math.isclose(shrunk, template.compute(si), rel_tol=1e-6)
        # One length printed in millimetres: the key no longer follows from the stem.
        slipped = c.model_copy(
            update={"stem_markdown": c.stem_markdown.replace(r"\mathrm{cm}", r"\mathrm{mm}", 1)}
        )
        bad = draft.model_copy(update={"content": slipped})
        _, question = judged(bad, numerical_answer(solver_view(bad), template))
        refused += question is None
        # Printing a time where a length belongs is not even a unit of the quantity.
        timed = c.model_copy(
            update={"stem_markdown": c.stem_markdown.replace(r"\mathrm{cm}", r"\mathrm{s}")}
        )
        answer = numerical_answer(
            solver_view(draft.model_copy(update={"content": timed})), template
        )
        assert answer.choice is None and "not a unit of" in answer.note
    assert refused == depends >= len(cm_templates) - 3


@pytest.mark.parametrize("text", ["m^{}", "m**", "(m", "m^{1/2}", "m^{0}"])
def test_a_malformed_unit_is_an_unknown_unit_never_another_error(text: str) -> None:
    """pint's parser raises assorted errors on such text; every caller (the giveaway screen,
    the solver) expects the one `UnknownUnitError`."""
    with pytest.raises(UnknownUnitError):
        si_factor(text)
    with pytest.raises(UnknownUnitError):
        same_dimension(text, "m")
