"""What every organic solver shares: the structures a question shows, its name, its answers and
abstentions, and the reading of an NTA statement set."""

from __future__ import annotations

from collections.abc import Callable

from core.figures import StructureSpec
from core.records import OptionKey, SolverAnswer, SolverView
from pipeline.generate.fact_formats import LETTERED_LINE, statement_code

ORGANIC_SOLVER = "offline-organic-v1"


def structures_shown(view: SolverView) -> StructureSpec | None:
    """The structure figure of the question, or None when it shows none (or something else)."""
    specs = [f.spec for f in view.figures if isinstance(f.spec, StructureSpec)]
    return specs[0] if len(specs) == 1 else None


def abstention(note: str) -> SolverAnswer:
    """The organic solver's "no answer", with why."""
    return SolverAnswer(solver=ORGANIC_SOLVER, choice=None, confidence=0.0, note=note)


def answered(choice: str, confidence: float, note: str = "") -> SolverAnswer:
    """The organic solver's answer: the option it picked (a letter A–D), how sure, and how."""
    key: OptionKey = choice  # type: ignore[assignment]  # callers pass an option's own key
    return SolverAnswer(solver=ORGANIC_SOLVER, choice=key, confidence=confidence, note=note)


def coded_answer(view: SolverView, truth: Callable[[str], bool | None], rules: str) -> SolverAnswer:
    """The option whose NTA code lists exactly the lettered statements `truth` holds true;
    an abstention when a statement cannot be read (`truth` gives None) or no option fits."""
    claims = LETTERED_LINE.findall(view.stem_markdown)
    if len(claims) < 3:
        return abstention("cannot read the lettered statements")
    true: list[str] = []
    for letter, text in claims:
        held = truth(text.strip())
        if held is None:
            return abstention(f"cannot read statement {letter}")
        if held:
            true.append(letter)
    if not true:
        return abstention("no statement is true, and no option can say so")
    wanted = statement_code(true)
    hits = [o.key for o in view.options if o.text.strip() == wanted]
    if len(hits) == 1:
        return answered(hits[0], 0.9, f"{rules} make {wanted} true")
    return abstention(f"no option codes {wanted!r}")
