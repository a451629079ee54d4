"""What an organic solver reads off a question: the structures it shows, as RDKit molecules."""

from __future__ import annotations

from core.figures import StructureSpec
from core.records import OptionKey, SolverAnswer, SolverView

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
