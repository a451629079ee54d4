"""The DuckDB warehouse: the system of record. Questions and papers are insert-only."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa

from core.analytics import create_views, write_snapshot
from core.ids import canonical_json
from core.pool import POOL_SCHEMA, STEPS_IN_REASON_SQL, near_duplicate_group, question_family
from core.records import Attempt, Paper, Provenance, Question
from core.schema import MIGRATIONS, REFILL_VERSIONS, SCHEMA_VERSION
from core.shapes import question_file_bytes
from core.warehouse_feedback import (
    CALIBRATED_SQL,
    LATEST_RUN_SQL,
    FeedbackTables,
    insert_arrow_rows,
)


class ImmutableRecordError(RuntimeError):
    """An insert would change a record that already exists under the same id."""


# The rows each refill (of groups and families) reads and updates per batch.
GROUP_FILL_BATCH = 20_000

_IDS = {"question_id": pl.String}


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Warehouse(FeedbackTables):
    """Typed access to one open DuckDB connection (the feedback tables: FeedbackTables)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con

    # -- schema ---------------------------------------------------------------------------
    def schema_version(self) -> int:
        rows = self.con.execute(
            "SELECT coalesce(max(version), 0) FROM schema_migrations"
        ).fetchall()
        return int(rows[0][0])

    def migrate(self) -> int:
        """Apply pending migrations, each in its own transaction; returns the schema version."""
        self.con.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)"
        )
        current = self.schema_version()
        if current > SCHEMA_VERSION:
            raise RuntimeError(
                f"warehouse schema v{current} is newer than this qforge (v{SCHEMA_VERSION})"
            )
        for version in range(current + 1, SCHEMA_VERSION + 1):
            with self.transaction():
                self.con.execute(MIGRATIONS[version - 1])
                if version in REFILL_VERSIONS:  # filled in the same step
                    self._fill_groups()
                self.con.execute("INSERT INTO schema_migrations VALUES (?, ?)", [version, _now()])
        return SCHEMA_VERSION

    def _fill_groups(self) -> None:
        """Groups and families of questions stored before they were columns, by the one rule
        in core.pool, from each record's provenance, a batch of rows at a time; inside the
        migration's transaction, so a warehouse at v4 has every row filled."""
        while True:
            rows = self.con.execute(
                "SELECT question_id, format, json_extract(record_json, '$.provenance') "
                "FROM questions WHERE near_duplicate_group IS NULL OR family IS NULL LIMIT ?",
                [GROUP_FILL_BATCH],
            ).fetchall()
            if not rows:
                return
            filled: dict[str, list[str]] = {"question_id": [], "grp": [], "fam": []}
            for question_id, question_format, provenance_json in rows:
                provenance = Provenance.model_validate_json(provenance_json)
                filled["question_id"].append(question_id)
                filled["grp"].append(near_duplicate_group(provenance, question_id))
                filled["fam"].append(question_family(provenance, question_format))
            self.con.register("_filled", pa.table(filled))
            try:
                self.con.execute(
                    "UPDATE questions SET near_duplicate_group = f.grp, family = f.fam "
                    "FROM _filled f WHERE questions.question_id = f.question_id"
                )
            finally:
                self.con.unregister("_filled")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self.con.begin()
        try:
            yield
        except BaseException:
            self.con.rollback()
            raise
        self.con.commit()

    # -- questions --------------------------------------------------------------------------
    def insert_questions(self, questions: Sequence[Question]) -> int:
        """Insert new questions; the same content again is a no-op, changed content an error."""
        if not questions:
            return 0
        ids = [q.question_id for q in questions]
        existing = dict(
            self.con.execute(
                "SELECT question_id, content_json FROM questions WHERE question_id IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [ids],
            ).fetchall()
        )
        rows = []
        seen: set[str] = set()
        for q in questions:
            content = canonical_json(q.content.model_dump(mode="json"))
            if q.question_id in existing:
                if existing[q.question_id] != content:
                    raise ImmutableRecordError(
                        f"question {q.question_id} exists with different content"
                    )
                continue
            if q.question_id in seen:
                continue
            seen.add(q.question_id)
            t = q.content.tag
            rows.append(
                [
                    q.question_id,
                    t.subject.value,
                    t.unit_id,
                    t.chapter_id,
                    t.topic_id,
                    t.topic_name,
                    q.content.difficulty.value,
                    q.content.format.value,
                    q.provenance.generator,
                    q.provenance.template_id,
                    content,
                    q.model_dump_json(),
                    _now(),
                    question_file_bytes(q).decode("utf-8"),
                    near_duplicate_group(q.provenance, q.question_id),
                    question_family(q.provenance, q.content.format.value),
                ]
            )
        if rows:
            self._insert_rows("questions", rows)
        return len(rows)

    def insert_attempts(self, attempts: Iterable[Attempt]) -> int:
        """Record attempts; an attempt already recorded (same id) is skipped."""
        rows = [
            [
                a.attempt_id,
                a.draft_id,
                a.subject.value,
                a.topic_id,
                a.difficulty.value,
                a.format.value,
                a.generator,
                a.template_id,
                a.solver,
                a.solver_choice,
                a.solver_confidence,
                a.verdict.value,
                a.rejection_reason,
                a.question_id,
                _now(),
            ]
            for a in attempts
        ]
        if not rows:
            return 0
        before = self.count("attempts")
        self._insert_rows("attempts", rows, "ON CONFLICT DO NOTHING")
        return self.count("attempts") - before

    def _insert_rows(self, table: str, rows: list[list[Any]], conflict: str = "") -> None:
        insert_arrow_rows(self.con, table, rows, conflict)

    def question_files(self, ids: Sequence[str], batch: int = 5_000) -> Iterator[tuple[str, bytes]]:
        """(id, published file bytes) of stored questions, rendered at insert (or now, if older).

        One query for all ids, read `batch` rows at a time: a query per batch of ids scans the
        table each time (20 scans cost 10–14 s for 100k files against 1.4 s for one). Consume
        it before using the connection again: a half-read result blocks it.
        """
        self.con.register("_wanted", pl.DataFrame({"question_id": list(ids)}, schema=_IDS))
        try:
            cursor = self.con.execute(
                "SELECT q.question_id, q.file_json, "
                "CASE WHEN q.file_json IS NULL THEN q.record_json END "
                "FROM questions q SEMI JOIN _wanted USING (question_id)"
            )
            while rows := cursor.fetchmany(batch):
                for i, f, r in rows:
                    yield (
                        i,
                        f.encode("utf-8")
                        if f is not None
                        else question_file_bytes(Question.model_validate_json(r)),
                    )
        finally:
            # A consumer that failed part-way (a full disk) may close the warehouse before this
            # generator is collected: the view went with its connection.
            with contextlib.suppress(duckdb.ConnectionException):
                self.con.unregister("_wanted")

    def questions(self, ids: Sequence[str] | None = None) -> list[Question]:
        """Stored questions (all, or the given ids in the given order)."""
        if ids is None:
            rows = self.con.execute(
                "SELECT record_json FROM questions ORDER BY question_id"
            ).fetchall()
            return [Question.model_validate_json(r[0]) for r in rows]
        found = dict(
            self.con.execute(
                "SELECT question_id, record_json FROM questions WHERE question_id IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [list(ids)],
            ).fetchall()
        )
        missing = [i for i in ids if i not in found]
        if missing:
            raise KeyError(f"questions not in the warehouse: {missing[:5]}")
        return [Question.model_validate_json(found[i]) for i in ids]

    def question_ids(self) -> list[str]:
        """Every stored question id, without parsing the records."""
        rows = self.con.execute("SELECT question_id FROM questions ORDER BY question_id").fetchall()
        return [r[0] for r in rows]

    def attempted_draft_ids(self, until: dt.datetime | None = None) -> set[str]:
        """Drafts put to the solver (up to `until`, when given)."""
        rows = self.con.execute(
            "SELECT draft_id FROM attempts WHERE ?::TIMESTAMPTZ IS NULL OR created_at <= ?",
            [until, until],
        ).fetchall()
        return {r[0] for r in rows}

    def attempt_counts(self, until: dt.datetime | None = None) -> dict[str, int]:
        """Attempts per template (up to `until`): a generator resumes its sequence there."""
        rows = self.con.execute(
            "SELECT template_id, count(*) FROM attempts "
            "WHERE ?::TIMESTAMPTZ IS NULL OR created_at <= ? GROUP BY template_id",
            [until, until],
        ).fetchall()
        return {r[0]: int(r[1]) for r in rows}

    def attempt_outcomes_since(
        self, since: dt.datetime
    ) -> dict[str, tuple[str, str | None, str | None]]:
        """Per draft attempted after `since`: (template, question it became or None, reason)."""
        rows = self.con.execute(
            "SELECT draft_id, template_id, question_id, rejection_reason FROM attempts "
            "WHERE created_at > ?",
            [since],
        ).fetchall()
        return {draft: (template, question, reason) for draft, template, question, reason in rows}

    def latest_created_at(self) -> dt.datetime:
        """When the newest question or attempt was stored (the epoch for an empty warehouse)."""
        rows = self.con.execute(
            "SELECT greatest((SELECT max(created_at) FROM questions), "
            "(SELECT max(created_at) FROM attempts))"
        ).fetchall()
        latest = rows[0][0]
        return latest if latest is not None else dt.datetime(1970, 1, 1, tzinfo=dt.UTC)

    def question_ids_until(self, until: dt.datetime) -> set[str]:
        """Questions stored up to `until`."""
        rows = self.con.execute(
            "SELECT question_id FROM questions WHERE created_at <= ?", [until]
        ).fetchall()
        return {r[0] for r in rows}

    def pool(self) -> pl.DataFrame:
        """One row per stored question with what paper assembly needs, including past use.

        `times_used` counts every stored paper, `last_used` is the latest date of any of them and
        `last_daily` of a daily one; `figure` says the question shows a figure, `structure` that
        it shows structural formulae (core.pool.shows_structures); `withdrawn`
        questions stay listed (their files stay valid) but are never assembled again.
        `difficulty` is the band the latest calibration fitted from students' answers where it
        counts (core.warehouse_feedback.CALIBRATED_SQL), else the generator's label.
        """
        pool = self.con.sql(
            f"""
            WITH p AS (
                SELECT question_id,
                       json_extract_string(content_json, '$.correct_key') AS correct_key,
                       json_extract_string(content_json, '$.stem_markdown') AS stem,
                       coalesce(json_array_length(content_json, '$.figures'), 0) > 0 AS figure,
                       coalesce(list_contains(json_extract_string(
                           content_json, '$.figures[*].spec.kind'
                       ), 'structure'), false) AS structure,
                       coalesce(try_cast(regexp_extract(
                           json_extract_string(content_json, '$.difficulty_reason'), ?, 1
                       ) AS TINYINT), 1) AS steps
                FROM questions
            ),
            items AS (
                SELECT question_id, exam_id FROM paper_items
                UNION ALL  -- a relabelled record's papers count for the one standing for it
                SELECT r.successor_id, i.exam_id
                FROM paper_items i JOIN relabellings r ON r.question_id = i.question_id
            ),
            used AS (
                SELECT i.question_id, count(*)::INTEGER AS times_used,
                       max(pp.exam_date)::VARCHAR AS last_used,
                       max(pp.exam_date) FILTER (WHERE pp.kind = 'daily')::VARCHAR AS last_daily
                FROM items i JOIN papers pp ON pp.exam_id = i.exam_id
                GROUP BY i.question_id
            ),
            calibrated AS (
                SELECT question_id, band FROM item_stats
                WHERE run_id = {LATEST_RUN_SQL} AND {CALIBRATED_SQL} AND band IS NOT NULL
            )
            SELECT q.question_id, q.subject, q.unit_id, q.topic_id,
                   coalesce(c.band, q.difficulty) AS difficulty, q.format,
                   q.template_id, q.family, p.stem, p.correct_key, p.figure, p.structure, p.steps,
                   q.near_duplicate_group, w.question_id IS NOT NULL AS withdrawn,
                   coalesce(u.times_used, 0)::INTEGER AS times_used,
                   u.last_used, u.last_daily
            FROM questions q
            JOIN p ON p.question_id = q.question_id
            LEFT JOIN used u ON u.question_id = q.question_id
            LEFT JOIN withdrawals w ON w.question_id = q.question_id
            LEFT JOIN calibrated c ON c.question_id = q.question_id
            ORDER BY q.question_id
            """,
            params=[STEPS_IN_REASON_SQL],
        ).pl()
        return pool.cast(POOL_SCHEMA)

    def question_records(self) -> pl.DataFrame:
        """question_id and record_json (the canonical Question) of every stored question."""
        return self.con.sql("SELECT question_id, record_json FROM questions").pl()

    def withdraw(self, question_id: str, reason: str) -> bool:
        """Withdraw a stored question from future papers; True if it was not withdrawn yet."""
        if not self.con.execute(
            "SELECT 1 FROM questions WHERE question_id = ?", [question_id]
        ).fetchall():
            raise KeyError(f"question not in the warehouse: {question_id}")
        before = self.con.execute("SELECT count(*) FROM withdrawals").fetchall()[0][0]
        self.con.execute(
            "INSERT INTO withdrawals VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            [question_id, reason, _now()],
        )
        return bool(self.con.execute("SELECT count(*) FROM withdrawals").fetchall()[0][0] > before)

    def withdraw_all(self, question_ids: Sequence[str], reason: str) -> int:
        """Withdraw many stored questions for one reason; how many were not withdrawn yet."""
        if not question_ids:
            return 0
        before = self.con.execute("SELECT count(*) FROM withdrawals").fetchall()[0][0]
        self.con.execute(
            "INSERT INTO withdrawals SELECT question_id, ?, ? FROM questions "
            "WHERE question_id IN (SELECT unnest(?::VARCHAR[])) ON CONFLICT DO NOTHING",
            [reason, _now(), list(question_ids)],
        )
        return int(self.con.execute("SELECT count(*) FROM withdrawals").fetchall()[0][0] - before)

    def relabel(self, pairs: Sequence[tuple[str, str]], reason: str) -> None:
        """Each stored (old, new): withdraw `old` for `reason`; `new` stands for it and all it
        stood for, so inherits their papers (pool()). A label changed back lifts the `reason`
        withdrawal of the record it names again."""
        if not pairs:
            return
        olds, news = [o for o, _ in pairs], [n for _, n in pairs]
        self.con.execute(
            "DELETE FROM withdrawals WHERE reason = ? AND question_id IN "
            "(SELECT unnest(?::VARCHAR[]))",
            [reason, news],
        )
        self.withdraw_all(olds, reason)
        pairs_sql = "(SELECT unnest(?::VARCHAR[]) AS old, unnest(?::VARCHAR[]) AS new)"
        self.con.execute(
            f"UPDATE relabellings r SET successor_id = p.new FROM {pairs_sql} p "
            "WHERE r.successor_id = p.old",
            [olds, news],
        )
        self.con.execute(
            f"INSERT INTO relabellings SELECT old, new, ? FROM {pairs_sql} "
            "ON CONFLICT (question_id) DO UPDATE SET successor_id = excluded.successor_id, "
            "relabelled_at = excluded.relabelled_at",
            [_now(), olds, news],
        )
        # A record relabelled back stands for itself again.
        self.con.execute("DELETE FROM relabellings WHERE question_id = successor_id")

    def daily_cooldown_since(self, date: str, papers: int) -> str | None:
        """The earliest date among the `papers` latest daily papers before `date` (None if none).

        A question last in a daily paper on or after it was in one of those papers.
        """
        rows = self.con.execute(
            """
            SELECT min(d)::VARCHAR FROM (
                SELECT exam_date AS d FROM papers
                WHERE kind = 'daily' AND exam_date < ?::DATE
                ORDER BY exam_date DESC LIMIT ?
            )
            """,
            [date, papers],
        ).fetchall()
        return rows[0][0]

    # -- papers ---------------------------------------------------------------------------
    def paper(self, exam_id: str) -> Paper | None:
        rows = self.con.execute(
            "SELECT record_json FROM papers WHERE exam_id = ?", [exam_id]
        ).fetchall()
        return Paper.model_validate_json(rows[0][0]) if rows else None

    def insert_paper(self, paper: Paper) -> bool:
        """Store a paper with its items in one transaction; True if new, error if it differs."""
        existing = self.paper(paper.exam_id)
        if existing is not None:
            if existing != paper:
                raise ImmutableRecordError(f"paper {paper.exam_id} exists with different content")
            return False
        with self.transaction():
            self.con.execute(
                "INSERT INTO papers VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    paper.exam_id,
                    paper.kind,
                    paper.title,
                    paper.exam_date,
                    len(paper.question_ids),
                    paper.blueprint,
                    paper.model_dump_json(),
                    _now(),
                ],
            )
            self.con.executemany(
                "INSERT INTO paper_items VALUES (?, ?, ?, ?)",
                [
                    [paper.exam_id, i + 1, qid, paper.option_order(i)]
                    for i, qid in enumerate(paper.question_ids)
                ],
            )
        return True

    def latest_daily_date(self) -> str | None:
        rows = self.con.execute(
            "SELECT max(exam_date)::VARCHAR FROM papers WHERE kind = 'daily'"
        ).fetchall()
        return rows[0][0]

    # -- stats ----------------------------------------------------------------------------
    def withdrawals(self) -> list[tuple[str, str, dt.datetime]]:
        """Every withdrawn question: its id, the reason and when."""
        rows = self.con.execute(
            "SELECT question_id, reason, withdrawn_at FROM withdrawals"
        ).fetchall()
        return [(i, r, t) for i, r, t in rows]

    def verdict_counts(self, since: dt.datetime | None = None) -> list[tuple[str, str, str, int]]:
        """Attempts per generator, verdict and rejection kind (the reason before its colon; for
        a screen's refusal, the screen and its named reason: `giveaway: out_of_bounds`), since a
        moment or ever."""
        rows = self.con.execute(
            "SELECT generator, verdict, coalesce(CASE WHEN split_part(rejection_reason, ':', 1) "
            "IN ('giveaway', 'hygiene') THEN rejection_reason "
            "ELSE split_part(rejection_reason, ':', 1) END, ''), "
            "count(*) FROM attempts WHERE ?::TIMESTAMPTZ IS NULL OR created_at >= ? "
            "GROUP BY ALL ORDER BY ALL",
            [since, since],
        ).fetchall()
        return [(g, v, r, int(n)) for g, v, r, n in rows]

    def coverage(self) -> list[tuple[str, str, str, int, int]]:
        """Servable and never-used questions per subject, unit and difficulty."""
        rows = self.con.execute(
            "SELECT subject, unit_id, difficulty, servable, never_used FROM analytics.coverage "
            "ORDER BY ALL"
        ).fetchall()
        return [(s, u, d, int(n), int(f)) for s, u, d, n, f in rows]

    def write_snapshot(self, directory: Path) -> Path:
        """The analysts' Parquet copy of every view (core.analytics)."""
        return write_snapshot(self.con, directory)

    def count(self, table: str) -> int:
        if table not in {"questions", "attempts", "papers", "paper_items", "withdrawals"}:
            raise ValueError(f"unknown table {table!r}")
        return int(self.con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0])

    def counts(self) -> dict[str, int]:
        return {t: self.count(t) for t in ("questions", "attempts", "papers", "paper_items")}


@contextmanager
def open_warehouse(path: Path, read_only: bool = False) -> Iterator[Warehouse]:
    """Open (and migrate) the warehouse file; one writer process at a time."""
    path.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(path), read_only=read_only)
    try:
        wh = Warehouse(con)
        if not read_only:
            wh.migrate()
            create_views(con)  # views hold no data: recreating them keeps them current
        elif (version := wh.schema_version()) < SCHEMA_VERSION:
            raise RuntimeError(
                f"the warehouse at {path} is schema v{version}, older than this qforge "
                f"(v{SCHEMA_VERSION}): run any qforge command that writes (e.g. `qforge nightly`) "
                "to upgrade it"
            )
        yield wh
    finally:
        con.close()
