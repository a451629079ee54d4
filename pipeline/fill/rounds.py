"""Assemble until it fits: generate what a paper lacks, assemble again, repeat.

The nightly's daily paper and the worker's custom exams both run this loop; what differs is
only how a round generates (the warehouse fill, or a job's top-up into the outbox).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping

from core.pool import UnitCell
from core.records import Paper
from pipeline.assemble.request import Shortfall, reassembled
from pipeline.fill.engine import CellReport

log = logging.getLogger("qforge")


def fill_until_assembled(
    outcome: Paper | Shortfall,
    generate: Callable[[Mapping[UnitCell, int]], list[CellReport]],
    assemble: Callable[[Collection[UnitCell]], Paper | Shortfall],
    rounds: int,
    *,
    doubling: bool,
) -> Paper | Shortfall:
    """Each round generates what the last shortfall names, cell by cell, then assembles again.

    A cell whose generators ran dry is closed: the next shortfall goes around it if it can. A
    new question can turn out to be an enemy of one already there (another variant of the same
    template); with `doubling` each round asks twice as much as the last, which takes the
    generators on to other templates and facts (the nightly; a job asks only what it lacks, so
    its progress counts what the student waits for). The loop ends when the paper fits, the
    rounds are spent, or a round made nothing and found no new dry cell (then another round
    could only ask the same generators for the same cells again).
    """
    closed: set[UnitCell] = set()
    for round_ in range(rounds):
        if not isinstance(outcome, Shortfall):
            break
        log.info("pool: round %d, short of %d questions", round_ + 1, outcome.total)
        reports = generate(
            {cell: n << round_ if doubling else n for cell, n in outcome.cells.items()}
        )
        dry = {(r.subject, r.difficulty, r.unit_id) for r in reports if r.exhausted and r.unit_id}
        if not any(r.accepted for r in reports) and dry <= closed:
            break  # the generators have nothing more, and nowhere else to turn
        closed |= dry
        outcome = reassembled(outcome, assemble, closed)
    return outcome
