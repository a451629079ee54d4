"""Statement sets about drawn compounds ("A. P is a secondary amine."): each claim is checked
with the naming solver's own substructure rules on the labelled structure, and the option whose
NTA code lists exactly the true statements is chosen."""

from __future__ import annotations

import re
from collections.abc import Callable

from core.figures import StructureSpec
from core.records import SolverAnswer, SolverView
from pipeline.generate.fact_formats import LETTERED_LINE, statement_code
from pipeline.verify.organic.read import ORGANIC_SOLVER

STEM_START = "Consider the following statements about the compounds shown:"
_CLAIM = re.compile(r"^(?P<label>[A-Z]) is an? (?P<cls>[a-z ]+)\.$")


def _answer(choice: str | None, confidence: float, note: str) -> SolverAnswer:
    return SolverAnswer(
        solver=ORGANIC_SOLVER,
        choice=choice,  # type: ignore[arg-type]
        confidence=confidence,
        note=note,
    )


def statements_answer(
    view: SolverView, spec: StructureSpec, classes_of: Callable[[str], frozenset[str]]
) -> SolverAnswer:
    """The option coding exactly the true claims, each claim read as '<label> is a <class>.'."""
    panels = {p.label: p.smiles for p in spec.panels}
    claims = LETTERED_LINE.findall(view.stem_markdown)
    if len(claims) < 3:
        return _answer(None, 0.0, "cannot read the lettered statements")
    true: list[str] = []
    for letter, text in claims:
        m = _CLAIM.match(text.strip())
        if m is None or m["label"] not in panels:
            return _answer(None, 0.0, f"cannot read statement {letter}")
        if m["cls"] in classes_of(panels[m["label"]]):
            true.append(letter)
    if not true:
        return _answer(None, 0.0, "no statement is true, and no option can say so")
    wanted = statement_code(true)
    hits = [o.key for o in view.options if o.text.strip() == wanted]
    if len(hits) == 1:
        return _answer(hits[0], 0.9, f"the substructure rules make {wanted} true")
    return _answer(None, 0.0, f"no option codes {wanted!r}")
