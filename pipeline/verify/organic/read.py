"""What an organic solver reads off a question: the structures it shows, as RDKit molecules."""

from __future__ import annotations

from core.figures import StructureSpec
from core.records import SolverView

ORGANIC_SOLVER = "offline-organic-v1"


def structures_shown(view: SolverView) -> StructureSpec | None:
    """The structure figure of the question, or None when it shows none (or something else)."""
    specs = [f.spec for f in view.figures if isinstance(f.spec, StructureSpec)]
    return specs[0] if len(specs) == 1 else None
