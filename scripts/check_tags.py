"""Check every fact's and cause's topic tag against the tagger (kb.tag_check) and report.

    .venv/bin/python -m scripts.check_tags [--unit UNIT_ID ...] [--json]

Prints the tagger's agreement with the tags and the pairs of topics it confuses most, then
each tag nothing confirms (fix the tag, or record a review in data/kb/tag_reviews/). `--json`
prints the unconfirmed tags as JSON lines for a reviewer.
"""

from __future__ import annotations

import argparse
import json
import sys

from core.settings import REPO_ROOT, Settings
from kb.knowledge import load_knowledge_base
from kb.syllabus import load_syllabus
from kb.tag_check import check_tags, confusion_lines, load_tag_reviews
from pipeline.compose import build_embedder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unit", action="append", default=[])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    data = REPO_ROOT / "data"
    syllabus = load_syllabus(data)
    checks = check_tags(
        load_knowledge_base(data), syllabus, build_embedder(Settings()), load_tag_reviews(data)
    )
    if args.unit:
        checks = [c for c in checks if syllabus.topic(c.tag).unit_id in args.unit]
    open_ = [c for c in checks if not c.confirmed]
    if args.json:
        for c in open_:
            row = {
                "relation_id": c.relation_id,
                "item": c.item,
                "tag": c.tag,
                "tagger_best": c.tagger_best,
                "tag_rank": c.tag_rank,
            }
            print(json.dumps(row, ensure_ascii=False))
        return 1 if open_ else 0
    print("\n".join(confusion_lines(checks)))
    for c in open_:
        print(
            f"UNCONFIRMED {c.relation_id} {c.item!r}: tagged {c.tag} (rank {c.tag_rank}), "
            f"tagger says {c.tagger_best}"
        )
    return 1 if open_ else 0


if __name__ == "__main__":
    sys.exit(main())
