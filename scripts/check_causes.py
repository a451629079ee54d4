"""Put every assertion–reason draft of the bundled cause tables to the offline solver.

    .venv/bin/python -m scripts.check_causes [relation_id-prefix]

Prints, per cause, which of the four cases (0 explains, 1 true but unrelated reason, 2 false
reason, 3 false assertion) the solver confirms, and why it refuses the others: the quickest way
to see a false twin that the chunks still support, or a reason that bleeds into another cause.
"""

from __future__ import annotations

import sys

from core.records import Difficulty
from core.settings import REPO_ROOT
from kb.knowledge import load_knowledge_base
from kb.syllabus import load_syllabus
from pipeline.generate.causes import assertion_reason_drafts, supporting_cause_sentence
from pipeline.templates.catalogue import TEMPLATES_BY_ID
from pipeline.verify.gate import judged, solver_view
from pipeline.verify.solver import OfflineSolver


def main() -> None:
    prefix = sys.argv[1] if len(sys.argv) > 1 else ""
    data = REPO_ROOT / "data"
    kb, syllabus = load_knowledge_base(data), load_syllabus(data)
    solver = OfflineSolver(kb, TEMPLATES_BY_ID)
    accepted = total = 0
    for table in kb.cause_tables:
        if not table.relation_id.startswith(prefix):
            continue
        print(table.relation_id)
        for cause in table.causes:
            if supporting_cause_sentence(kb, cause) is None:
                print(f"  NO SENTENCE states: {cause.assertion} / {cause.reason}")
        for draft in assertion_reason_drafts(table, Difficulty.HARD, kb, syllabus):
            attempt, question = judged(draft, solver.solve(solver_view(draft)))
            params = dict(draft.provenance.params)
            total += 1
            accepted += question is not None
            if question is None:
                print(
                    f"  case {params['case']} {params['cause'][:60]!r}: {attempt.rejection_reason}"
                )
    print(f"{accepted} of {total} drafts confirmed")


if __name__ == "__main__":
    main()
