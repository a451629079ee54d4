"""`qforge pool fill`: fill the pool per subject and difficulty (or per unit) with a progress
bar, through the fill engine or the Batch API, and say what each cell did."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from core.settings import Settings

if TYPE_CHECKING:
    from rich.progress import Progress

    from core.warehouse import Warehouse
    from pipeline.compose import Services
    from pipeline.fill.engine import CellReport


def cmd_pool(settings: Settings, args: argparse.Namespace) -> int:
    from core.records import Difficulty, Subject
    from core.warehouse import open_warehouse
    from pipeline.compose import build_services, duplicate_screens
    from pipeline.fill.pool import fill_pool, pool_deficits, unit_deficits

    services = build_services(settings)
    subjects = [Subject(args.subject)] if args.subject else list(Subject)
    needs = {(s, d): args.per_cell for s in subjects for d in Difficulty}
    units = {
        s: sorted(
            {t.unit_id for t in services.syllabus.live_topics(s)},
            key=services.syllabus.unit_order().__getitem__,
        )
        for s in subjects
    }
    started = time.perf_counter()
    with open_warehouse(settings.warehouse_path) as wh:
        deficits: Mapping[tuple[Any, ...], int] = (
            unit_deficits(wh.pool(), units, args.per_cell)
            if args.per_unit
            else pool_deficits(wh.pool(), needs)
        )
        total = sum(deficits.values())
        if args.batch or settings.llm_batch:  # open batches advance even when nothing is short
            return _pool_fill_batch(settings, services, wh, deficits)
        if not total:
            print(f"every cell already holds {args.per_cell} unused questions")
            return 0
        screens, on_accept = duplicate_screens(settings, wh.questions())
        with progress_bar(transient=False) as bar:
            task = bar.add_task("verified questions", total=total)
            # Counted per cell filled: with --per-unit, a unit's cell must not overwrite another's.
            done: dict[tuple[str, str, str], int] = {}

            def advance(report: CellReport) -> None:
                key = (report.subject.value, report.unit_id or "", report.difficulty.value)
                bar.update(
                    task,
                    advance=report.accepted - done.get(key, 0),
                    description="/".join(k for k in key if k),
                )
                done[key] = report.accepted

            reports = fill_pool(
                wh,
                services.drafter,
                services.solver,
                deficits,
                settings.max_attempts_per_question,
                on_progress=advance,
                screens=screens,
                on_accept=on_accept,
                concurrency=services.concurrency,
            )
        verdicts = Counter[tuple[str, str]]()
        for generator, verdict, _, n in wh.verdict_counts():
            verdicts[generator, verdict] += n
    elapsed = time.perf_counter() - started
    accepted = sum(r.accepted for r in reports)
    print(f"{accepted} questions verified in {elapsed:.1f} s ({accepted / elapsed:.0f}/s)")
    for r in reports:
        print("  " + cell_line(r))
    refused = sum((r.refused for r in reports), Counter[str]())
    if refused:
        print(f"drafts refused before any solve: {refused.total()} ({_tally(refused)})")
    print("all attempts so far, per generator:")
    for (generator, verdict), n in sorted(verdicts.items()):
        print(f"  {generator:20} {verdict:9} {n}")
    stopped = {r.stopped for r in reports if r.stopped}
    if accepted == 0 and (stopped or any(k.startswith("transport") for k in refused)):
        why = ", ".join(sorted(stopped)) or "every draft call failed"
        print(f"qforge pool fill: nothing stored: the provider failed ({why})", file=sys.stderr)
        return 1
    return 0


def _tally(counts: Counter[str]) -> str:
    """`reason ×n, …`, commonest first."""
    return ", ".join(f"{k} ×{v}" for k, v in counts.most_common())


def cell_line(r: CellReport) -> str:
    """One cell of a fill: what it stored, what the solver or screens rejected and the drafter
    refused (by reason), and why it stopped short if it did."""
    reasons = ", ".join(f"{k} ×{v}" for k, v in r.reasons.items()) or "none"
    cell = f"{r.subject.value:9} {r.unit_id or '':8} {r.difficulty.value:6}"
    line = f"{cell} +{r.accepted}/{r.needed} rejected {r.rejected} ({reasons})"
    if r.refused:
        line += f" refused {r.refused.total()} ({_tally(r.refused)})"
    if r.stopped:
        line += f"  [drafting stopped: {r.stopped}]"
    elif r.exhausted:
        line += "  [generators exhausted]"
    return line


def _pool_fill_batch(
    settings: Settings, services: Services, wh: Warehouse, deficits: Mapping[tuple[Any, ...], int]
) -> int:
    """One step of the Batch API fill, then what is still pending and what finished."""
    from pipeline.compose import duplicate_screens
    from pipeline.fill.batch import batch_fill, report_lines

    screens, on_accept = duplicate_screens(settings, wh.questions())
    report = batch_fill(services, wh, deficits, screens=screens, on_accept=on_accept)

    for line in report_lines(report):
        print(line)
    if report.pending:
        print("run `qforge pool fill --batch` again later: batches finish within 24 h")
    return 1 if report.errors else 0


def progress_bar(transient: bool) -> Progress:
    """A bar with the task's name, its count of the total and the time so far."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    return Progress(*columns, TimeElapsedColumn(), transient=transient)
