"""The warehouse's feedback tables (core/schema.py v7): answers and error reports as ingested
from the outbox, calibration runs with their item statistics and learner abilities, and triage
decisions. Every row is written once; a new calibration is a new run, never an edit."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa

from core.feedback import AnswerBatch, ErrorReport
from core.ids import digest

# A question's calibrated band replaces its label for paper assembly from this many responses
# (answers not skipped) on: below it the 2PL difficulty is too uncertain to move a question.
CALIBRATED_MIN_RESPONSES = 200
# When an `item_stats` row's band counts (pool assembly, the report, the analysts' view): enough
# responses, and a key abler learners choose more (a negative discrimination means a faulty
# key, whose fitted difficulty says nothing about the question students meant to answer).
CALIBRATED_SQL = f"(responses >= {CALIBRATED_MIN_RESPONSES} AND point_biserial >= 0)"
# The run whose statistics stand: the newest (pool assembly, the analysts' view, triage).
LATEST_RUN_SQL = "(SELECT run_id FROM main.calibration_runs ORDER BY fitted_at DESC LIMIT 1)"


def insert_arrow_rows(
    con: duckdb.DuckDBPyConnection, table: str, rows: list[list[Any]], conflict: str = ""
) -> None:
    """Bulk insert through Arrow: one statement however many rows (executemany is per row)."""
    columns = [r[0] for r in con.execute(f"DESCRIBE {table}").fetchall()]
    data = pa.table({c: [row[i] for row in rows] for i, c in enumerate(columns)})
    insert_arrow_table(con, table, data, conflict)


def insert_arrow_table(
    con: duckdb.DuckDBPyConnection, table: str, data: pa.Table, conflict: str = ""
) -> None:
    """Insert an Arrow table whose columns are the table's, by name."""
    con.register("_incoming", data)
    try:
        names = ", ".join(data.column_names)
        con.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM _incoming {conflict}")
    finally:
        con.unregister("_incoming")


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class FeedbackTables:
    """The feedback half of `core.warehouse.Warehouse` (mixed in; same connection)."""

    con: duckdb.DuckDBPyConnection

    # -- what students sent -----------------------------------------------------------------
    def ingested_batch_keys(self) -> set[str]:
        """Outbox keys of the answer batches already taken."""
        return {r[0] for r in self.con.execute("SELECT batch_key FROM answer_batches").fetchall()}

    def insert_answer_batches(self, batches: Sequence[tuple[str, AnswerBatch]]) -> int:
        """Take (outbox key, batch) pairs not taken yet, with their answers; rows inserted.

        Call inside a transaction: a batch's name and its rows are taken together or not at all.
        """
        taken = self.ingested_batch_keys()
        fresh = [(k, b) for k, b in batches if k not in taken]
        if not fresh:
            return 0
        now = _now()
        insert_arrow_rows(
            self.con,
            "answer_batches",
            [[k, b.batch_id, b.key_id, b.received_at, len(b.answers), now] for k, b in fresh],
        )
        # Columns built straight into a typed Arrow table, not rows through insert_arrow_rows:
        # a night takes hundreds of thousands of answers, and type inference over row lists
        # took 0.82 s against 0.49 s for 240,000 of them.
        columns: dict[str, list[Any]] = {
            "batch_key": [],
            "row_index": [],
            "question_id": [],
            "exam_id": [],
            "learner_id": [],
            "chosen_key": [],
            "seconds": [],
            "received_at": [],
        }
        for key, batch in fresh:
            for i, a in enumerate(batch.answers):
                columns["batch_key"].append(key)
                columns["row_index"].append(i)
                columns["question_id"].append(a.question_id)
                columns["exam_id"].append(a.exam_id)
                columns["learner_id"].append(a.learner_id)
                columns["chosen_key"].append(a.chosen_key)
                columns["seconds"].append(a.seconds)
                columns["received_at"].append(batch.received_at)
        schema = pa.schema(
            [
                ("batch_key", pa.string()),
                ("row_index", pa.int32()),
                ("question_id", pa.string()),
                ("exam_id", pa.string()),
                ("learner_id", pa.string()),
                ("chosen_key", pa.string()),
                ("seconds", pa.float64()),
                ("received_at", pa.timestamp("us", tz="UTC")),
            ]
        )
        insert_arrow_table(self.con, "answers", pa.table(columns, schema=schema))
        return len(columns["batch_key"])

    def report_ids(self) -> set[str]:
        return {r[0] for r in self.con.execute("SELECT report_id FROM reports").fetchall()}

    def insert_reports(self, reports: Sequence[ErrorReport]) -> int:
        """Store reports not stored yet (the same report id is the same report); how many."""
        known = self.report_ids()
        rows, seen = [], set()
        for r in reports:
            if r.report_id in known or r.report_id in seen:
                continue
            seen.add(r.report_id)
            rows.append(
                [
                    r.report_id,
                    r.question_id,
                    r.learner_id,
                    r.reason.value,
                    r.option,
                    r.text,
                    r.key_id,
                    r.received_at,
                ]
            )
        if rows:
            insert_arrow_rows(self.con, "reports", rows)
        return len(rows)

    def reports(self) -> pl.DataFrame:
        """Every report of a question in the warehouse, oldest first."""
        return self.con.sql(
            "SELECT r.* FROM reports r SEMI JOIN questions q USING (question_id) "
            "ORDER BY received_at, report_id"
        ).pl()

    # -- calibration ------------------------------------------------------------------------
    def answers_for_calibration(self) -> pl.DataFrame:
        """learner_id, question_id, chosen_key (null: skipped) and the stored correct_key of
        every answer to a stored question, in the order they were received."""
        return self.con.sql(
            """
            SELECT a.learner_id, a.question_id, a.chosen_key,
                   json_extract_string(q.content_json, '$.correct_key') AS correct_key
            FROM answers a JOIN questions q USING (question_id)
            ORDER BY a.received_at, a.batch_key, a.row_index
            """
        ).pl()

    def calibration_run_id(self, method: str) -> str:
        """The run the current answers would make: the same batches and method, the same id."""
        rows = self.con.execute(
            "SELECT count(*), coalesce(md5(string_agg(batch_key, ',' ORDER BY batch_key)), '') "
            "FROM answer_batches"
        ).fetchall()
        count, batches = rows[0]
        return "cal-" + digest(["calibration", method, int(count), batches])

    def has_calibration_run(self, run_id: str) -> bool:
        return bool(
            self.con.execute("SELECT 1 FROM calibration_runs WHERE run_id = ?", [run_id]).fetchall()
        )

    def insert_calibration(
        self,
        run_id: str,
        summary: dict[str, Any],
        items: pl.DataFrame,
        learners: pl.DataFrame,
    ) -> None:
        """A new run: its summary (calibration_runs' columns), item statistics and abilities.

        Call inside a transaction, so a run is whole or absent."""
        fitted_at = _now()
        columns = [r[0] for r in self.con.execute("DESCRIBE calibration_runs").fetchall()]
        row = {**summary, "run_id": run_id, "fitted_at": fitted_at}
        insert_arrow_rows(self.con, "calibration_runs", [[row[c] for c in columns]])
        if not items.is_empty():
            tagged = items.with_columns(pl.lit(run_id).alias("run_id"))
            insert_arrow_table(self.con, "item_stats", tagged.to_arrow())
        if not learners.is_empty():
            tagged = learners.with_columns(pl.lit(run_id).alias("run_id"))
            insert_arrow_table(self.con, "learner_abilities", tagged.to_arrow())

    def calibration_run(self, run_id: str) -> dict[str, Any]:
        """One run's summary row (calibration_runs' columns)."""
        result = self.con.execute("SELECT * FROM calibration_runs WHERE run_id = ?", [run_id])
        names = [d[0] for d in result.description or []]
        return dict(zip(names, result.fetchall()[0], strict=True))

    def latest_calibration_run(self) -> str | None:
        rows = self.con.execute(f"SELECT {LATEST_RUN_SQL}").fetchall()
        return rows[0][0] if rows else None

    def item_stats(self, run_id: str) -> pl.DataFrame:
        """The item statistics of one run, with each question's generator label and whether
        its band counts (`calibrated`)."""
        return self.con.sql(
            f"SELECT s.*, {CALIBRATED_SQL} AS calibrated, q.difficulty AS label, q.subject, "
            "q.unit_id, q.template_id "
            "FROM item_stats s JOIN questions q USING (question_id) WHERE s.run_id = $run "
            "ORDER BY s.question_id",
            params={"run": run_id},
        ).pl()

    # -- triage -----------------------------------------------------------------------------
    def triage_ids(self) -> set[str]:
        return {r[0] for r in self.con.execute("SELECT triage_id FROM triage").fetchall()}

    def insert_triage(self, rows: Sequence[dict[str, Any]]) -> None:
        """Triage decisions (triage's columns but `decided_at`), each once."""
        if not rows:
            return
        columns = [r[0] for r in self.con.execute("DESCRIBE triage").fetchall()]
        now = _now()
        insert_arrow_rows(
            self.con,
            "triage",
            [[{**r, "decided_at": now}[c] for c in columns] for r in rows],
            "ON CONFLICT DO NOTHING",
        )

    def review_queue(self) -> pl.DataFrame:
        """Questions whose latest triage left them for a person and that are not withdrawn,
        newest first: question_id, decided_at, reports, why."""
        return self.con.sql(
            """
            SELECT question_id, decided_at, reports, why FROM (
                SELECT *, row_number() OVER (
                    PARTITION BY question_id ORDER BY decided_at DESC, triage_id
                ) AS n
                FROM triage
            )
            WHERE n = 1 AND decision = 'review'
              AND question_id NOT IN (SELECT question_id FROM withdrawals)
            ORDER BY decided_at DESC, question_id
            """
        ).pl()

    def triage(self) -> pl.DataFrame:
        """Every triage decision, newest first."""
        return self.con.sql("SELECT * FROM triage ORDER BY decided_at DESC, question_id").pl()
