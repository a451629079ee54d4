"""`qforge pool fill`: fill the pool per subject and difficulty (or per unit) with a progress
bar, through the fill engine or the Batch API, and say what each cell did."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from core.settings import Settings

if TYPE_CHECKING:
    import polars as pl
    from rich.progress import Progress

    from core.warehouse import Warehouse
    from kb.syllabus import Topic
    from pipeline.compose import Services
    from pipeline.fill.engine import CellReport
    from pipeline.verify.gate import Screen


def cmd_pool(settings: Settings, args: argparse.Namespace) -> int:
    from core.records import Difficulty, Subject
    from core.warehouse import open_warehouse
    from pipeline.compose import build_services, duplicate_screens
    from pipeline.fill.coverage import DEFAULT_TOPIC_FLOOR, cell_groups
    from pipeline.fill.pool import (
        fill_pool,
        pool_deficits,
        topic_deficits,
        unit_deficits,
    )

    services = build_services(settings)
    subjects = [Subject(args.subject)] if args.subject else list(Subject)
    per_cell = args.per_cell
    if per_cell is None:
        per_cell = (settings.topic_floor or DEFAULT_TOPIC_FLOOR) if args.per_topic else 60
    needs = {(s, d): per_cell for s in subjects for d in Difficulty}
    topics = [t for s in subjects for t in services.syllabus.live_topics(s)]
    units = {
        s: sorted(
            {t.unit_id for t in services.syllabus.live_topics(s)},
            key=services.syllabus.unit_order().__getitem__,
        )
        for s in subjects
    }
    started = time.perf_counter()
    with open_warehouse(settings.warehouse_path) as wh:
        pool = wh.pool()
        deficits: Mapping[tuple[Any, ...], int]
        if args.per_topic:
            deficits = topic_deficits(pool, topics, per_cell)
        elif args.per_unit:
            deficits = unit_deficits(pool, units, per_cell)
        else:
            deficits = pool_deficits(pool, needs)
        total = sum(deficits.values())
        if args.batch or settings.llm_batch:  # open batches advance even when nothing is short
            if args.per_topic:
                print("qforge pool fill: --per-topic runs without --batch", file=sys.stderr)
                return 2
            return _pool_fill_batch(settings, services, wh, deficits)
        if not total:
            what = "servable" if args.per_topic else "unused"
            print(f"every cell already holds {per_cell} {what} questions")
            if args.per_topic:
                screens, _ = duplicate_screens(settings, wh.questions())
                _print_topic_coverage(services, wh.pool(), topics, per_cell, screens)
            return 0
        screens, on_accept = duplicate_screens(settings, wh.questions())
        with progress_bar(transient=False) as bar:
            task = bar.add_task("verified questions", total=total)
            # Counted per cell filled: with --per-unit, a unit's cell must not overwrite another's.
            done: dict[tuple[str, str, str], int] = {}

            def advance(report: CellReport) -> None:
                place = report.topic_id or report.unit_id or ""
                key = (report.subject.value, place, report.difficulty.value)
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
                held=cell_groups(pool) if args.per_topic else None,
            )
        verdicts = Counter[tuple[str, str]]()
        for generator, verdict, _, n in wh.verdict_counts():
            verdicts[generator, verdict] += n
        after = wh.pool() if args.per_topic else None
    elapsed = time.perf_counter() - started
    accepted = sum(r.accepted for r in reports)
    print(f"{accepted} questions verified in {elapsed:.1f} s ({accepted / elapsed:.0f}/s)")
    # Per topic there are some 1,700 cells: only those left short are worth a line.
    for r in reports:
        if not args.per_topic or r.accepted < r.needed:
            print("  " + cell_line(r))
    refused = sum((r.refused for r in reports), Counter[str]())
    if refused:
        print(f"drafts refused before any solve: {refused.total()} ({_tally(refused)})")
    print("all attempts so far, per generator:")
    for (generator, verdict), n in sorted(verdicts.items()):
        print(f"  {generator:20} {verdict:9} {n}")
    if after is not None:
        _print_topic_coverage(services, after, topics, per_cell, screens)
    stopped = {r.stopped for r in reports if r.stopped}
    if accepted == 0 and (stopped or any(k.startswith("transport") for k in refused)):
        why = ", ".join(sorted(stopped)) or "every draft call failed"
        print(f"qforge pool fill: nothing stored: the provider failed ({why})", file=sys.stderr)
        return 1
    return 0


def _print_topic_coverage(
    services: Services,
    pool: pl.DataFrame,
    topics: Sequence[Topic],
    floor: int,
    screens: Sequence[Screen],
) -> None:
    """The coverage summary of the topics, then each cell below `floor` with its reason."""
    for line in topic_coverage_lines(services, pool, floor, topics, screens):
        print(line)


def topic_coverage_lines(
    services: Services,
    pool: pl.DataFrame,
    floor: int,
    topics: Sequence[Topic] | None = None,
    screens: Sequence[Screen] = (),
    spent: Collection[tuple[str, str]] | None = None,
) -> list[str]:
    """`qforge stats` and `qforge pool fill --per-topic`: the summary line, the count of short
    cells per reason, and one line per cell below the floor (servable, never used, why)."""
    from pipeline.compose import offline_engine
    from pipeline.fill.coverage import (
        REASONS,
        coverage_summary,
        servable_counts,
        shortfall_reasons,
        topic_coverage,
    )

    explain = shortfall_reasons(*offline_engine(services), pool, floor, screens, spent)
    cells = topic_coverage(services.syllabus, servable_counts(pool), floor, explain, topics)
    short = [c for c in cells if c.status != "at_floor"]
    lines = [coverage_summary(cells, floor)]
    for reason, n in Counter(c.reason for c in short).most_common():
        lines.append(f"  {n} cells: {REASONS[reason]}")
    lines += [
        f"  {c.topic_id:48} {c.difficulty.value:6} {c.servable:3} servable ({c.fresh} never "
        f"used): {c.reason}"
        for c in short
    ]
    return lines


def _tally(counts: Counter[str]) -> str:
    """`reason ×n, …`, commonest first."""
    return ", ".join(f"{k} ×{v}" for k, v in counts.most_common())


def cell_line(r: CellReport) -> str:
    """One cell of a fill: what it stored, what the solver or screens rejected and the drafter
    refused (by reason), and why it stopped short if it did."""
    reasons = ", ".join(f"{k} ×{v}" for k, v in r.reasons.items()) or "none"
    place = f"{r.topic_id:44}" if r.topic_id else f"{r.unit_id or '':8}"
    cell = f"{r.subject.value:9} {place} {r.difficulty.value:6}"
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
