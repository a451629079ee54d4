"""Kill the nightly (SIGKILL, a subprocess) at several points, rerun it, and check the guarantees.

The kill lands when the run logs that it reached a point: mid-fill, mid-export, and between the
dated paper and the daily pointer. After every kill the published tree must never name a missing
file; after the final rerun the paper, the stored questions and the attempts must be exactly
those of a run that was never killed: no duplicate rows, no lost verified question, and no draft
solved (paid for) twice. The runs use `--no-prefect`: the guarantees are the steps' own, and the
end-to-end test covers the same steps under Prefect.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from core.settings import REPO_ROOT, Settings
from core.storage import LocalObjectStore
from core.warehouse import open_warehouse
from flows.nightly import call_directly, run_nightly
from pipeline.compose import build_services
from site_builder.documents import DAILY_POINTER_KEY, daily_paper_key, question_key
from site_builder.export import exported_daily_dates

# A kill/rerun loop of subprocess nightlies: a system test.
pytestmark = pytest.mark.system

DATE = "2026-03-02"
# Where the nightly is killed, one run after another on one home: (a log line's text, which
# occurrence of it in that run). Four are inside fill_pool: at the start of rounds 1 and 2,
# and part-way through each (a rerun replays the fill from where it began, so its cells log
# again and the counts run on from there).
KILL_POINTS = (
    ("qforge kb ingested", 100),
    ("qforge outbox:", 1),
    ("qforge pool: round 1", 1),
    ("qforge pool ", 10),
    ("qforge pool: round 2", 1),
    ("qforge pool ", 130),
    ("near-duplicate index", 1),
    ("new question files written", 1),
    ("export: dated paper", 1),
    ("preview pages", 1),
)


def _nightly(home: Path, kill_at: tuple[str, int] | None = None) -> int:
    """Run the nightly; with kill_at, SIGKILL it at the n-th log line containing the text."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "flows.cli", "nightly", "--date", DATE, "--no-prefect"],
        cwd=REPO_ROOT,
        env={**os.environ, "QFORGE_HOME": str(home)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    seen = 0
    for line in proc.stdout:
        if kill_at is not None and kill_at[0] in line:
            seen += 1
            if seen == kill_at[1]:
                proc.send_signal(signal.SIGKILL)
                break
    proc.stdout.close()
    return proc.wait(timeout=120)


def _tree_is_consistent(home: Path) -> None:
    """Every published document names only files that exist."""
    store = LocalObjectStore(home / "store")
    pointer = store.get(DAILY_POINTER_KEY)
    if pointer is not None:
        assert store.exists(daily_paper_key(json.loads(pointer)["date"]))
    for date in exported_daily_dates(store):
        paper = json.loads(store.get(daily_paper_key(date)) or b"{}")
        for q in paper["questions"]:
            assert store.exists(question_key(q["id"])), (date, q["id"])
    index = store.get("api/v1/exams/daily/index")
    for entry in json.loads(index or b'{"papers": []}')["papers"]:
        assert store.exists(daily_paper_key(entry["date"]))


def _state(home: Path) -> dict[str, object]:
    with open_warehouse(home / "warehouse.duckdb") as wh:
        con = wh.con
        return {
            "papers": con.execute("SELECT record_json FROM papers").fetchall(),
            "questions": sorted(wh.question_ids()),
            "attempts": con.execute("SELECT attempt_id FROM attempts ORDER BY 1").fetchall(),
            "drafts_solved_twice": con.execute(
                "SELECT count(*) FROM "
                "(SELECT draft_id FROM attempts GROUP BY 1 HAVING count(*) > 1)"
            ).fetchall()[0][0],
        }


def test_a_killed_nightly_finishes_the_same_paper_without_repeats(tmp_path: Path) -> None:
    reference, killed = tmp_path / "reference", tmp_path / "killed"
    # The reference run needs no subprocess: the same steps, in this process, never killed.
    run_nightly(
        build_services(Settings(home=reference)), dt.date.fromisoformat(DATE), call=call_directly
    )
    for point in KILL_POINTS:
        assert _nightly(killed, kill_at=point) == -signal.SIGKILL, point
        _tree_is_consistent(killed)
    assert _nightly(killed) == 0
    _tree_is_consistent(killed)
    want, got = _state(reference), _state(killed)
    assert got["drafts_solved_twice"] == 0
    assert got == want
    store = LocalObjectStore(killed / "store")
    assert json.loads(store.get(DAILY_POINTER_KEY) or b"{}")["date"] == DATE
