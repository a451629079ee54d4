"""Views for data scientists, and Parquet snapshots of them that never block the nightly writer.

DuckDB lets one process hold the warehouse file for writing and then no other process may open
it, not even read-only. So analysts query the `analytics` views inside the warehouse when nothing
else runs, and otherwise a Parquet snapshot written after each nightly run: every snapshot goes
to a new directory and a `CURRENT` file is switched to it atomically, so a reader always sees one
whole snapshot (docs/warehouse.md).
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path
from typing import Any

import duckdb

from core.warehouse_feedback import CALIBRATED_SQL, LATEST_RUN_SQL

SCHEMA = "analytics"
KEEP_SNAPSHOTS = 2

# One view per thing an analyst asks about; JSON columns are flattened into plain ones.
VIEWS: dict[str, str] = {
    "questions": """
        SELECT q.question_id, q.subject, q.unit_id, q.chapter_id, q.topic_id, q.topic_name,
               q.difficulty, q.format, q.generator, q.template_id,
               json_extract_string(q.content_json, '$.correct_key') AS correct_key,
               json_extract_string(q.content_json, '$.difficulty_reason') AS difficulty_reason,
               json_extract_string(q.record_json, '$.verdict.solver') AS solver,
               CAST(json_extract(q.record_json, '$.verdict.confidence') AS DOUBLE)
                 AS solver_confidence,
               json_array_length(json_extract(q.content_json, '$.figures')) > 0 AS has_figure,
               q.created_at,
               (SELECT count(*) FROM main.paper_items i WHERE i.question_id = q.question_id)
                 AS times_used,
               w.question_id IS NOT NULL AS withdrawn
        FROM main.questions q
        LEFT JOIN main.withdrawals w USING (question_id)
    """,
    "attempts": """
        SELECT attempt_id, draft_id, subject, topic_id, difficulty, format, generator,
               template_id, solver, solver_choice, solver_confidence, verdict,
               split_part(rejection_reason, ':', 1) AS rejection_kind, rejection_reason,
               question_id, created_at
        FROM main.attempts
    """,
    "papers": """
        SELECT exam_id, kind, title, exam_date, total_questions, blueprint, created_at
        FROM main.papers
    """,
    "paper_items": """
        SELECT i.exam_id, p.exam_date, i.position, i.question_id, q.subject, q.unit_id,
               q.difficulty, q.format
        FROM main.paper_items i
        JOIN main.papers p USING (exam_id)
        JOIN main.questions q USING (question_id)
    """,
    "coverage": """
        SELECT q.subject, q.unit_id, q.difficulty,
               count(*) AS stored,
               count(*) FILTER (WHERE w.question_id IS NULL) AS servable,
               count(*) FILTER (WHERE w.question_id IS NULL AND NOT EXISTS (
                   SELECT 1 FROM main.paper_items i WHERE i.question_id = q.question_id))
                 AS never_used
        FROM main.questions q
        LEFT JOIN main.withdrawals w USING (question_id)
        GROUP BY ALL
    """,
    "withdrawals": """
        SELECT w.question_id, w.reason, w.withdrawn_at, q.subject, q.unit_id, q.template_id
        FROM main.withdrawals w
        LEFT JOIN main.questions q USING (question_id)
    """,
    # What students sent back (docs/warehouse.md): `difficulty` is the generator's label.
    "answers": """
        SELECT a.question_id, a.exam_id, a.learner_id, a.chosen_key,
               a.chosen_key IS NULL AS skipped,
               a.chosen_key = json_extract_string(q.content_json, '$.correct_key') AS correct,
               a.seconds, a.received_at, a.batch_key, a.row_index,
               q.subject, q.unit_id, q.topic_id, q.difficulty, q.format, q.template_id
        FROM main.answers a
        LEFT JOIN main.questions q USING (question_id)
    """,
    "reports": """
        SELECT r.report_id, r.question_id, r.learner_id, r.reason, r.option, r.text,
               r.received_at, q.subject, q.unit_id, q.template_id,
               w.question_id IS NOT NULL AS withdrawn
        FROM main.reports r
        LEFT JOIN main.questions q USING (question_id)
        LEFT JOIN main.withdrawals w USING (question_id)
    """,
    # Every run's statistics; `latest` marks the newest run's, `calibrated` those it counts
    # (core.warehouse_feedback.CALIBRATED_SQL) for paper assembly.
    "item_stats": f"""
        SELECT s.*, c.fitted_at,
               s.run_id = {LATEST_RUN_SQL} AS latest,
               q.subject, q.unit_id, q.topic_id, q.format, q.template_id,
               q.difficulty AS label
        FROM (SELECT *, {CALIBRATED_SQL} AS calibrated FROM main.item_stats) s
        JOIN main.calibration_runs c USING (run_id)
        LEFT JOIN main.questions q USING (question_id)
    """,
    "calibration_runs": "SELECT * FROM main.calibration_runs",
    "learner_abilities": """
        SELECT l.*, c.fitted_at FROM main.learner_abilities l
        JOIN main.calibration_runs c USING (run_id)
    """,
    "triage": """
        SELECT t.*, q.subject, q.unit_id, q.template_id
        FROM main.triage t LEFT JOIN main.questions q USING (question_id)
    """,
}


def create_views(con: duckdb.DuckDBPyConnection) -> None:
    """(Re)create the analytics views; they hold no data, so this is cheap and safe to repeat."""
    con.execute(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}")
    for name, sql in VIEWS.items():
        con.execute(f"CREATE OR REPLACE VIEW {SCHEMA}.{name} AS {sql}")


def current_snapshot(export_dir: Path) -> Path | None:
    """The directory of the newest complete snapshot, or None before the first one."""
    pointer = export_dir / "CURRENT"
    if not pointer.exists():
        return None
    return export_dir / pointer.read_text(encoding="utf-8").strip()


def write_snapshot(con: duckdb.DuckDBPyConnection, export_dir: Path) -> Path:
    """Copy every view to Parquet in a new directory, then point `CURRENT` at it atomically."""
    create_views(con)
    export_dir.mkdir(parents=True, exist_ok=True)
    name = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    target = export_dir / name
    staging = export_dir / f".{name}.partial"
    staging.mkdir()
    for view in VIEWS:
        path = (staging / f"{view}.parquet").as_posix().replace("'", "''")
        con.execute(f"COPY (SELECT * FROM {SCHEMA}.{view}) TO '{path}' (FORMAT parquet)")
    staging.rename(target)
    pointer = export_dir / ".CURRENT.partial"
    pointer.write_text(name + "\n", encoding="utf-8")
    os.replace(pointer, export_dir / "CURRENT")
    for old in sorted(p for p in export_dir.iterdir() if p.is_dir())[:-KEEP_SNAPSHOTS]:
        shutil.rmtree(old, ignore_errors=True)  # a reader still on it keeps its open files
    return target


def snapshot_connection(export_dir: Path) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with one view per Parquet file of the current snapshot."""
    snapshot = current_snapshot(export_dir)
    if snapshot is None:
        raise FileNotFoundError(
            f"no warehouse snapshot under {export_dir} yet: run `qforge nightly` first"
        )
    con = duckdb.connect()
    for view in VIEWS:
        path = (snapshot / f"{view}.parquet").as_posix().replace("'", "''")
        con.execute(f"CREATE VIEW {view} AS SELECT * FROM read_parquet('{path}')")
    return con


def query_rows(con: duckdb.DuckDBPyConnection, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """An analyst's query on the snapshot: its column names and rows."""
    result = con.execute(sql)
    return [d[0] for d in result.description or []], result.fetchall()
