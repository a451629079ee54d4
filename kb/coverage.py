"""Coverage of the syllabus by the knowledge store: chunks, figures and facts per unit."""

from __future__ import annotations

from collections import Counter

import polars as pl

from kb.knowledge import KnowledgeBase
from kb.store import KnowledgeStore
from kb.syllabus import Syllabus


def _per_unit(kstore: KnowledgeStore, kind: str) -> Counter[str]:
    t = kstore.table(kind)
    if t.count_rows() == 0:
        return Counter()
    cols = ["unit_id", "syllabus_status"] + (["captioned"] if kind == "figures" else [])
    rows = t.search().select(cols).limit(t.count_rows()).to_arrow().to_pylist()
    return Counter(
        r["unit_id"]
        for r in rows
        if r["syllabus_status"] == "in_syllabus" and r.get("captioned", True)
    )


def unit_coverage(syllabus: Syllabus, kstore: KnowledgeStore, kb: KnowledgeBase) -> pl.DataFrame:
    """One row per syllabus unit, in syllabus order."""
    chunks = _per_unit(kstore, "chunks")
    figures = _per_unit(kstore, "figures")
    facts: Counter[str] = Counter()
    for table in kb.fact_tables:
        for fact in table.facts:
            if topic_id := table.topic_of(fact):
                facts[syllabus.topic(topic_id).unit_id] += 1
    return pl.DataFrame(
        [
            {
                "unit_id": u.unit_id,
                "unit": u.name,
                "chunks": chunks[u.unit_id],
                "figures": figures[u.unit_id],
                "facts": facts[u.unit_id],
            }
            for u in syllabus.source.units
        ]
    )
