from __future__ import annotations

from pathlib import Path

import pytest

from core.settings import Settings
from flows.cli import main, prefect_environment


def test_a_bad_date_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QFORGE_HOME", str(tmp_path))
    assert main(["nightly", "--date", "25-11-2026"]) == 2
    err = capsys.readouterr().err
    assert "invalid date '25-11-2026'" in err and "YYYY-MM-DD" in err


def test_bad_settings_are_a_clear_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QFORGE_LLM", "gpt")
    assert main(["stats"]) == 2
    assert "llm" in capsys.readouterr().err


def test_stats_without_a_warehouse_says_what_to_do(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QFORGE_HOME", str(tmp_path))
    assert main(["stats"]) == 1
    assert "qforge nightly" in capsys.readouterr().out


def test_prefect_state_stays_inside_qforge_home(tmp_path: Path) -> None:
    env = prefect_environment(Settings(home=tmp_path))
    assert env["PREFECT_HOME"] == str((tmp_path / "prefect").resolve())
    assert env["PREFECT_SERVER_ANALYTICS_ENABLED"] == "false"


def test_pool_fill_per_unit_tops_up_each_unit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.warehouse import open_warehouse

    monkeypatch.setenv("QFORGE_HOME", str(tmp_path))
    assert main(["pool", "fill", "--subject", "Chemistry", "--per-unit", "--per-cell", "3"]) == 0
    out = capsys.readouterr().out
    assert "che-u07" in out and "questions verified" in out
    with open_warehouse(Settings(home=tmp_path).warehouse_path) as wh:
        pool = wh.pool()
    assert set(pool["subject"]) == {"Chemistry"}
    per_unit = pool.group_by("unit_id", "difficulty").len()
    assert per_unit.height >= 40  # most of the 20 units at all three difficulties
    assert max(per_unit["len"].to_list()) <= 3
    assert main(["pool", "fill", "--subject", "Chemistry", "--per-unit", "--per-cell", "3"]) == 0
    with open_warehouse(Settings(home=tmp_path).warehouse_path) as wh:
        assert wh.count("questions") == pool.height  # a full pool adds nothing


def test_a_draft_too_close_to_a_reference_question_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from core.records import Difficulty, Subject
    from core.warehouse import open_warehouse
    from pipeline.compose import build_services

    monkeypatch.setenv("QFORGE_HOME", str(tmp_path))
    services = build_services(Settings(home=tmp_path))
    from pipeline.verify.gate import screen_refusal

    # The first draft the fill will put past hygiene and the giveaway screen.
    drafts = services.drafter.drafts(Subject.PHYSICS, Difficulty.EASY, {})
    first = next(d for d in drafts if screen_refusal(d) is None)
    c = first.content
    refs = tmp_path / "past.jsonl"
    record = {
        "question": c.stem_markdown,
        "options": [o.text for o in c.options],
        "answer": c.option(c.correct_key).text,
        "subject": "Physics",
        "source": "a past paper",
    }
    refs.write_text(json.dumps(record) + "\n")
    assert main(["kb", "references", "import", str(refs)]) == 0
    assert main(["pool", "fill", "--subject", "Physics", "--per-cell", "2"]) == 0
    with open_warehouse(Settings(home=tmp_path).warehouse_path) as wh:
        reasons = [
            r[0]
            for r in wh.con.execute(
                "SELECT rejection_reason FROM attempts WHERE verdict = 'rejected'"
            ).fetchall()
        ]
        stored = {q.question_id for q in wh.questions()}
    assert any(r.startswith("near_duplicate_reference: ref-") for r in reasons)
    from core.ids import question_id

    assert question_id(c) not in stored
    assert "near_duplicate_reference" in capsys.readouterr().out


def test_serve_schedules_the_nightly_in_the_exam_timezone(tmp_path: Path) -> None:
    from flows.nightly import deployments

    settings = Settings(home=tmp_path, nightly_cron="15 0 * * *")
    nightly, ingest = deployments(settings)
    from prefect.client.schemas.schedules import CronSchedule

    (schedule,) = nightly.schedules or []
    assert isinstance(schedule.schedule, CronSchedule)
    assert schedule.schedule.cron == "15 0 * * *"
    assert schedule.schedule.timezone == "Asia/Kolkata"
    assert nightly.concurrency_limit == 1
    assert ingest.schedules == [] and ingest.parameters == {"paths": [str(settings.bundled_kb_dir)]}


def test_an_expected_disk_fault_is_one_line_that_says_what_the_rerun_does(tmp_path: Path) -> None:
    import errno

    from flows.cli import storage_fault

    full = OSError(errno.ENOSPC, "No space left on device")
    line = storage_fault(RuntimeError("export failed").with_traceback(None), tmp_path)
    assert line is None  # not a disk fault: the traceback stays
    wrapped = RuntimeError("step failed")
    wrapped.__cause__ = full
    line = storage_fault(wrapped, tmp_path)
    assert line is not None and line.startswith("the disk is full (under ")
    assert "run the same command again" in line
    denied = PermissionError(errno.EACCES, "Permission denied", "/srv/qforge/store/x")
    assert storage_fault(denied, tmp_path) == (
        "permission denied (/srv/qforge/store/x): nothing incomplete was published; "
        "fix that and run the same command again to resume"
    )
    duck = Exception('IO Error: Could not write file "w.duckdb": No space left on device')
    assert (storage_fault(duck, tmp_path) or "").startswith("the disk is full (the warehouse")
