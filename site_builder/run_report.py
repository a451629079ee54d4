"""The nightly run report: one Markdown document for the Prefect artifact and the terminal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.records import Difficulty, Paper
from pipeline.feedback_summary import CalibrationSummary, FeedbackSummary
from pipeline.fill.coverage import CellCoverage, coverage_markdown
from pipeline.triage import Decision, Triage

CoverageRow = tuple[str, str, str, int, int]  # subject, unit, difficulty, servable, never used
AttemptRow = tuple[str, str, str, int]  # generator, verdict, rejection kind ('' if none), count


@dataclass(frozen=True)
class RunReport:
    dates: tuple[str, ...]
    step_seconds: Mapping[str, float]
    attempts: Sequence[AttemptRow]
    coverage: Sequence[CoverageRow]
    papers: Sequence[Paper]
    outbox_taken: int = 0
    outbox_refused: int = 0
    # Stored questions the difficulty rubric now labels differently (stored anew, the old
    # records withdrawn as `relabelled`).
    relabelled: int = 0
    # The topic floor the run kept (None: the run stopped before it), and every live topic ×
    # difficulty cell after it.
    topic_floor: int | None = None
    topics: Sequence[CellCoverage] = ()
    # What students sent back, the calibration fitted from it, and the triage (issue 23).
    feedback: FeedbackSummary | None = None
    calibration: CalibrationSummary | None = None
    triage: Sequence[Triage] = ()
    # Every question waiting for a person (its latest triage), not only tonight's: rows of
    # question_id, decided_at, reports, why, newest first.
    review_queue: Sequence[Mapping[str, object]] = ()


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def run_report_markdown(report: RunReport) -> str:
    """Time per step, generation outcomes, pool coverage and each paper's blueprint."""
    out = [f"# qforge nightly: {', '.join(report.dates)}", "", "## Time per step", ""]
    total = sum(report.step_seconds.values())
    out += _table(
        ("step", "seconds", "share"),
        [
            (k, f"{v:.2f}", f"{v / total:.0%}" if total else "–")
            for k, v in report.step_seconds.items()
        ],
    )
    out += [
        "",
        f"Outbox: {report.outbox_taken} worker questions taken, {report.outbox_refused} refused.",
        "",
        f"Relabelled: {report.relabelled} stored questions the difficulty rubric now labels "
        "differently (stored anew; the old records withdrawn as `relabelled`).",
        "",
    ]
    out += feedback_markdown(report)
    out += [
        "## Generation in this run",
        "",
    ]
    by_generator: dict[str, dict[str, int]] = {}
    for generator, verdict, kind, n in report.attempts:
        row = by_generator.setdefault(generator, {"accepted": 0, "rejected": 0})
        row[verdict] = row.get(verdict, 0) + n
        if kind:
            row[kind] = row.get(kind, 0) + n
    if by_generator:
        out += _table(
            ("generator", "accepted", "rejected", "rejections by reason"),
            [
                (
                    g,
                    r["accepted"],
                    r["rejected"],
                    ", ".join(f"{k} {v}" for k, v in r.items() if k not in ("accepted", "rejected"))
                    or "–",
                )
                for g, r in sorted(by_generator.items())
            ],
        )
    else:
        out.append("Nothing was generated: the pool already held what the papers needed.")
    out += ["", "## Pool coverage (servable / never used)", ""]
    cells = {(s, u, d): f"{a} / {b}" for s, u, d, a, b in report.coverage}
    units = sorted({(s, u) for s, u, _, _, _ in report.coverage})
    out += _table(
        ("subject", "unit", *(d.value for d in Difficulty)),
        [(s, u, *(cells.get((s, u, d.value), "0 / 0") for d in Difficulty)) for s, u in units],
    )
    if report.topic_floor is not None:
        if report.topic_floor:
            out += ["", coverage_markdown(report.topics, report.topic_floor).rstrip()]
        else:
            out += ["", "## Topic coverage", "", "The topic floor is off (QFORGE_TOPIC_FLOOR=0)."]
    for paper in report.papers:
        out += ["", f"## Paper {paper.exam_id}", ""]
        c = paper.composition
        if c is None:
            out.append(f"{len(paper.question_ids)} questions (built before blueprint blocks).")
            continue
        out += _table(
            ("subject", *(d.value for d in Difficulty), "units (achieved in min–max)"),
            [
                (
                    t.subject.value,
                    *(f"{d.achieved}/{d.target}" for d in t.difficulty),
                    ", ".join(f"{u.unit_id} {u.achieved} [{u.min}–{u.max}]" for u in t.units),
                )
                for t in c.subjects
            ],
        )
        keys = ", ".join(f"{k} {n}" for k, n in c.answer_keys)
        out += ["", f"Blueprint `{c.blueprint_id}`; answer keys {keys}."]
    return "\n".join(out) + "\n"


# Disagreements listed by name in the report; the rest are counted (docs/warehouse.md has the
# query for all of them).
LISTED = 15


def feedback_markdown(report: RunReport) -> list[str]:
    """Answers and reports taken, calibration against the generators' labels, and triage."""
    if report.feedback is None:
        return []
    f = report.feedback
    out = [
        "## Learning from students",
        "",
        f"Outbox: {f.answers} answers in {f.batches} batches and {f.reports} error reports "
        f"taken, {len(f.refused)} objects refused.",
        "",
    ]
    c = report.calibration
    if c is None:
        out += ["No answers yet: nothing calibrated.", ""]
    else:
        state = "new run" if c.new_run else "answers unchanged since this run"
        out += [
            f"Calibration `{c.run_id}` ({state}): {c.items} questions, {c.learners} learners, "
            f"{c.responses} responses, {'converged' if c.converged else '**not converged**'}; "
            f"{c.calibrated} questions have enough responses for their band to count in "
            "assembly.",
            "",
        ]
        if c.calibrated:
            names = [d.value for d in Difficulty]
            out += ["Generator label (rows) against calibrated band (columns):", ""]
            out += _table(
                ("label", *names),
                [
                    (label, *(c.agreement.get((label, band), 0) for band in names))
                    for label in names
                ],
            )
            agree = sum(n for (label, band), n in c.agreement.items() if label == band)
            out += [
                "",
                f"{agree} of {c.calibrated} agree. Where they differ, the difficulty rubric is "
                "what to look at:",
                "",
            ]
            if c.disagreements:
                out += _table(
                    ("question", "subject", "unit", "template", "label", "band", "b"),
                    [
                        (
                            d["question_id"],
                            d["subject"],
                            d["unit_id"],
                            d["template_id"],
                            d["label"],
                            d["band"],
                            f"{d['irt_b']:.2f}",
                        )
                        for d in c.disagreements[:LISTED]
                    ],
                )
                if len(c.disagreements) > LISTED:
                    out.append(f"\n…and {len(c.disagreements) - LISTED} more.")
            out.append("")
    decided = {d: [t for t in report.triage if t.decision is d] for d in Decision}
    out += [
        f"Triage: {len(decided[Decision.WITHDRAWN])} withdrawn, {len(decided[Decision.REVIEW])} "
        f"queued for review, {len(decided[Decision.CONFIRMED])} confirmed by fresh solves.",
        "",
    ]
    if decided[Decision.WITHDRAWN]:
        out += ["Withdrawn tonight:", ""]
        out += _table(
            ("question", "reports", "why"),
            [(t.question_id, t.reports, t.why) for t in decided[Decision.WITHDRAWN]],
        )
        out.append("")
    queue = report.review_queue
    if queue:
        tonight = {t.question_id for t in decided[Decision.REVIEW]}
        out += [f"For review: {len(queue)} questions wait for a person (newest first).", ""]
        out += _table(
            ("question", "since", "reports", "why"),
            [
                (
                    str(r["question_id"]) + (" (new)" if r["question_id"] in tonight else ""),
                    str(r["decided_at"])[:10],
                    r["reports"],
                    r["why"],
                )
                for r in queue[:LISTED]
            ],
        )
        if len(queue) > LISTED:
            out.append(f"\n…and {len(queue) - LISTED} more (docs/warehouse.md, the review queue).")
        out.append("")
    return out
