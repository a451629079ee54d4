"""How many distinct verified questions the offline generators can make per topic × difficulty.

    python scripts/topic_supply.py --unit bio-u05 [--unit ...] [--topic TOPIC_ID ...] [--cap 12]

Drafts, screens for hygiene and solves as the fill does, without storing anything: the tool for
whoever writes knowledge (chunks, fact and cause tables, templates) for a topic.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.records import Difficulty
from core.settings import REPO_ROOT, Settings
from kb.elements import load_element_data
from kb.knowledge import load_knowledge_base
from kb.syllabus import load_syllabus
from pipeline.compose import build_embedder
from pipeline.figures.catalogue import figure_templates
from pipeline.fill.coverage import DEFAULT_TOPIC_FLOOR, generator_supply
from pipeline.generate.drafter import OfflineDrafter
from pipeline.generate.organic.catalogue import organic_templates
from pipeline.generate.sequences import load_sequences
from pipeline.templates.catalogue import TEMPLATES, TEMPLATES_BY_ID
from pipeline.verify.dedupe import NearDuplicateGate
from pipeline.verify.solver import OfflineSolver


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unit", action="append", default=[])
    parser.add_argument("--topic", action="append", default=[])
    parser.add_argument("--cap", type=int, default=DEFAULT_TOPIC_FLOOR + 2)
    parser.add_argument("--data", type=Path, default=REPO_ROOT / "data")
    args = parser.parse_args(argv)
    syllabus = load_syllabus(args.data)
    kb = load_knowledge_base(args.data)
    drafter = OfflineDrafter(
        syllabus,
        kb,
        TEMPLATES,
        load_element_data(args.data),
        args.data,
        load_sequences(args.data, kb),
        figure_templates(args.data),
        organic_templates(args.data),
    )
    solver = OfflineSolver(kb, TEMPLATES_BY_ID)
    topics = [
        t
        for t in syllabus.live_topics()
        if (not args.unit and not args.topic) or t.unit_id in args.unit or t.topic_id in args.topic
    ]
    # As a fill on a fresh home: a draft nearly identical to an accepted question of another
    # relation or template is refused.
    gate = NearDuplicateGate(build_embedder(Settings()).embed)
    short = 0
    for t in topics:
        counts = [
            generator_supply(
                drafter,
                solver,
                t,
                d,
                args.cap,
                screens=[gate.screen],
                on_accept=lambda q: gate.add([q]),
            )
            for d in Difficulty
        ]
        mark = "" if min(counts) >= DEFAULT_TOPIC_FLOOR else "  <-- short"
        short += bool(mark)
        print(f"{t.topic_id:55} E {counts[0]:3} M {counts[1]:3} H {counts[2]:3}{mark}")
    print(f"{len(topics)} topics, {short} with a difficulty below {DEFAULT_TOPIC_FLOOR}")
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main())
