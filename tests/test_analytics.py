"""Analytics views and their Parquet snapshots: readable while the nightly holds the warehouse."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from core.analytics import VIEWS, current_snapshot, snapshot_connection, write_snapshot
from core.records import Difficulty, Subject
from core.warehouse import open_warehouse
from pipeline.fill.pool import fill_pool
from pipeline.generate.drafter import OfflineDrafter
from pipeline.templates.catalogue import TEMPLATES, TEMPLATES_BY_ID
from pipeline.verify.solver import OfflineSolver


def _filled(path: Path, syllabus, kb) -> None:
    with open_warehouse(path) as wh:
        fill_pool(
            wh,
            OfflineDrafter(syllabus, kb, TEMPLATES),
            OfflineSolver(kb, TEMPLATES_BY_ID),
            {(Subject.BOTANY, Difficulty.MEDIUM): 25},
        )
        wh.withdraw(wh.question_ids()[0], "typo in the stem")


def test_views_answer_what_analysts_ask(tmp_path: Path, syllabus, kb) -> None:
    _filled(tmp_path / "w.duckdb", syllabus, kb)
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        write_snapshot(wh.con, tmp_path / "exports")
        live = wh.con.execute("SELECT stored, servable FROM analytics.coverage").fetchall()
    con = snapshot_connection(tmp_path / "exports")
    assert sum(r[0] for r in live) == 25 and sum(r[1] for r in live) == 24
    stored, servable, never_used = con.execute(
        "SELECT sum(stored), sum(servable), sum(never_used) FROM coverage"
    ).fetchall()[0]
    assert (stored, servable, never_used) == (25, 24, 24)
    (reason,) = con.execute("SELECT reason FROM withdrawals").fetchall()[0]
    assert reason == "typo in the stem"
    kinds = dict(con.execute("SELECT verdict, count(*) FROM attempts GROUP BY 1").fetchall())
    assert kinds["accepted"] == 25
    assert con.execute("SELECT count(*) FROM questions WHERE withdrawn").fetchall() == [(1,)]


def test_a_snapshot_is_readable_while_the_warehouse_is_held(tmp_path: Path, syllabus, kb) -> None:
    path, exports = tmp_path / "w.duckdb", tmp_path / "exports"
    _filled(path, syllabus, kb)
    with open_warehouse(path) as wh:
        first = write_snapshot(wh.con, exports)
        second = write_snapshot(wh.con, exports)
        third = write_snapshot(wh.con, exports)
        assert current_snapshot(exports) == third
        assert not first.exists() and second.exists()  # the two newest are kept
        assert sorted(p.name for p in third.iterdir()) == sorted(f"{v}.parquet" for v in VIEWS)
        # Another process cannot open the held warehouse at all, but reads the snapshot.
        blocked = subprocess.run(
            [sys.executable, "-c", f"import duckdb; duckdb.connect({str(path)!r}, read_only=True)"],
            capture_output=True,
            text=True,
        )
        assert blocked.returncode != 0
        reader = subprocess.run(
            [
                sys.executable,
                "-c",
                "from pathlib import Path; from core.analytics import snapshot_connection; "
                f"print(snapshot_connection(Path({str(exports)!r}))"
                ".execute('SELECT count(*) FROM questions').fetchall()[0][0])",
            ],
            capture_output=True,
            text=True,
        )
        assert reader.returncode == 0, reader.stderr
        assert reader.stdout.strip() == "25"
