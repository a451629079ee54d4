"""The solvers of organic-chemistry questions (pipeline.generate.organic), one per kind.

Each reads the stem, the options and the structures shown, never the key, and works by its own
method: OPSIN for names, RDKit for bonds and isomer enumeration, rules over RDKit features for
orderings, reaction SMARTS for reactions. The kind is the template id's second part
(`organic.<kind>.<name>`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from core.records import SolverAnswer, SolverView
from pipeline.generate.organic.template import ORGANIC_PREFIX
from pipeline.verify.organic.bonds import bonds_answer
from pipeline.verify.organic.isomers import isomers_answer
from pipeline.verify.organic.naming import naming_answer
from pipeline.verify.organic.opsin import OpsinUnavailableError
from pipeline.verify.organic.ordering import ordering_answer
from pipeline.verify.organic.reactions import reactions_answer
from pipeline.verify.organic.read import abstention

SOLVERS: Mapping[str, Callable[[SolverView], SolverAnswer]] = {
    "naming": naming_answer,
    "bonds": bonds_answer,
    "isomers": isomers_answer,
    "ordering": ordering_answer,
    "reactions": reactions_answer,
}


def organic_answer(view: SolverView) -> SolverAnswer:
    """The answer of the solver for the question's kind; an abstention when there is none, or
    when it needs OPSIN and no Java runtime is installed."""
    kind = view.template_id.removeprefix(ORGANIC_PREFIX).split(".", 1)[0]
    solve = SOLVERS.get(kind)
    if solve is None:
        note = f"no organic solver for kind {kind!r}"
        return abstention(note)
    try:
        return solve(view)
    except OpsinUnavailableError as err:
        return abstention(str(err))
