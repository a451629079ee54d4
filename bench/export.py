"""Export benchmark: a full export of N question files, a re-export with nothing new, and the
daily paper's size raw / gzip / brotli.

Run with `python -m bench.export [--questions 100000]`. Questions are real verified questions
from the offline generators, multiplied into distinct ones by numbering their stems and
explanations (each copy has its own id and renders on its own: no render cache helps). The
baseline in the same run is the pre-incremental exporter, which rendered and compared every
question on every export; it is timed on a sample and reported per question.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import tempfile
import time
from pathlib import Path

from core.ids import question_id
from core.records import Difficulty, Question, Subject
from core.render import markdown_html
from core.settings import Settings
from core.storage import LocalObjectStore
from core.warehouse import open_warehouse
from pipeline.compose import build_services
from pipeline.verify.gate import judged, solver_view
from site_builder.documents import daily_paper_key, json_bytes, paper_document, question_file
from site_builder.export import (
    compressed_variants,
    exported_question_ids,
    record_exported,
    verify_question_files,
    write_rendered_files,
)


def seed_questions(per_cell: int) -> list[Question]:
    """Verified questions from every subject × difficulty cell."""
    services = build_services(Settings(home=Path(tempfile.mkdtemp())))
    found: list[Question] = []
    for subject in Subject:
        for difficulty in Difficulty:
            drafts = services.drafter.drafts(subject, difficulty, {})
            taken = 0
            for draft in drafts:
                question = judged(draft, services.solver.solve(solver_view(draft)))[1]
                if question is not None:
                    found.append(question)
                    taken += 1
                if taken == per_cell:
                    break
    return found


def distinct_copies(seeds: list[Question], n: int) -> list[Question]:
    """n distinct questions: seed i copied with its stem and explanation numbered."""
    out = []
    for i in range(n):
        q = seeds[i % len(seeds)]
        c = q.content.model_copy(
            update={
                "stem_markdown": f"{q.content.stem_markdown} (set {i})",
                "explanation_markdown": f"{q.content.explanation_markdown}\n\nSet {i}.",
            }
        )
        out.append(q.model_copy(update={"content": c, "question_id": question_id(c)}))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=100_000)
    parser.add_argument("--baseline-sample", type=int, default=2_000)
    args = parser.parse_args(argv)
    seeds = seed_questions(per_cell=60)
    questions = distinct_copies(seeds, args.questions)
    print(f"{len(questions):,} distinct questions from {len(seeds)} verified seeds")
    with tempfile.TemporaryDirectory(prefix="qforge-export-", dir=Path.cwd()) as tmp:
        markdown_html.cache_clear()
        started = time.perf_counter()
        with open_warehouse(Path(tmp) / "warehouse.duckdb") as wh:
            for i in range(0, len(questions), 5_000):
                wh.insert_questions(questions[i : i + 5_000])
            wh.con.execute("CHECKPOINT")
            os.sync()  # the warehouse's own writes are storing's cost, not the export's
            stored = time.perf_counter() - started
            print(
                f"storing them (each file rendered once, at insert): {stored:.1f} s "
                f"({stored / len(questions) * 1e3:.2f} ms per question, paid when it is made)"
            )
            started = time.perf_counter()
            read = sum(len(data) for _, data in wh.question_files(wh.question_ids()))
            reading = time.perf_counter() - started
            print(f"reading the files alone: {reading:.1f} s ({read / 2**20:.0f} MiB)")
            store = LocalObjectStore(Path(tmp) / "store")
            started = time.perf_counter()
            exported = exported_question_ids(store)
            ids = wh.question_ids()
            write_rendered_files(store, wh.question_files(ids), exported)
            written = time.perf_counter() - started
            record_exported(store, exported)  # durable before the list names them
            full = time.perf_counter() - started
            print(
                f"full export: {len(exported):,} question files in {full:.1f} s "
                f"({full / len(exported) * 1e3:.3f} ms per file; target 100k in ≤ 15 s): "
                f"{written:.1f} s to read, write, sync and switch them in, "
                f"{full - written:.1f} s to record the manifest"
            )
            started = time.perf_counter()
            known = exported_question_ids(store)
            fresh = [i for i in wh.question_ids() if i not in known]
            write_rendered_files(store, wh.question_files(fresh), known)
            again = time.perf_counter() - started
            print(f"re-export, nothing new: {len(fresh)} written in {again:.2f} s (target ≤ 1 s)")
        sample = questions[: args.baseline_sample]
        markdown_html.cache_clear()
        started = time.perf_counter()
        assert verify_question_files(store, sample) == []
        per = (time.perf_counter() - started) / len(sample)
        print(
            f"baseline, rendering at export (before this change; also the verify pass): "
            f"{per * 1e3:.2f} ms per question, {per * len(questions):.0f} s for all "
            f"{len(questions):,}"
        )
    from core.records import Paper

    paper_questions = seeds[:180] if len(seeds) >= 180 else seeds
    paper = Paper(
        exam_id=f"daily-{dt.date(2026, 12, 1).isoformat()}",
        kind="daily",
        title="NEET-UG Daily Mock Test",
        exam_date="2026-12-01",
        question_ids=tuple(q.question_id for q in paper_questions),
        blueprint="bench",
    )
    raw = json_bytes(paper_document(paper, paper_questions))
    variants = compressed_variants(raw)
    print(
        f"daily paper ({len(paper_questions)} questions, {daily_paper_key('2026-12-01')}): "
        f"raw {len(raw) / 1024:.0f} KiB, gzip {len(variants['.gz']) / 1024:.0f} KiB, "
        f"brotli {len(variants['.br']) / 1024:.0f} KiB"
    )
    one = question_file(paper_questions[0])
    print(f"one question file: {len(one):,} bytes")


if __name__ == "__main__":
    main()
