"""A nightly whose model cannot fill the paper reports instead of crashing: one line, exit 1, a
report with the exact shortfall and why, and the daily pointer left where it was; with the
offline fallback on (the default), the offline engine fills the gap and students get a paper."""

from __future__ import annotations

import datetime as dt
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.settings import Settings
from core.storage import LocalObjectStore
from flows.cli import main
from pipeline.compose import build_services
from site_builder.documents import DAILY_POINTER_KEY
from tests.fake_openai import ChatScript, FakeModel, serving

BEFORE = dt.date(2026, 4, 1)
NIGHT = "2026-04-02"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home whose pointer names yesterday's paper (an offline nightly)."""
    from flows.nightly import call_directly, run_nightly

    home = tmp_path_factory.mktemp("home")
    run_nightly(build_services(Settings(home=home)), BEFORE, call=call_directly)
    return home


def _pointer(home: Path) -> str:
    raw = LocalObjectStore(home / "store").get(DAILY_POINTER_KEY) or b"{}"
    return str(json.loads(raw)["date"])


def _model_night(
    home: Path,
    base_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    **env: str,
) -> tuple[int, str, str]:
    settings = {
        "QFORGE_HOME": str(home),
        "QFORGE_LLM": "openai",
        "QFORGE_OPENAI_BASE_URL": base_url,
        "OPENAI_API_KEY": "test",
        "QFORGE_OPENAI_MAX_RETRIES": "0",
        "QFORGE_OFFLINE_FALLBACK": "false",
        **env,
    }
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    code = main(["nightly", "--no-prefect", "--date", NIGHT])
    out, err = capsys.readouterr()
    return code, out, err


def _assert_reported(home: Path, err: str, reason: str) -> None:
    line = err.strip().splitlines()[-1]
    assert line.startswith(f"qforge nightly: no paper for {NIGHT}: the pool is "), line
    assert reason in line and "Traceback" not in err
    report = (home / "reports" / f"nightly-{NIGHT}.md").read_text()
    assert "## No paper: short of" in report and reason in report
    assert "| subject | unit | difficulty | missing |" in report
    assert "## Model calls" in report
    assert _pointer(home) == BEFORE.isoformat()  # nothing published


@pytest.fixture
def failing() -> Iterator[str]:
    with serving({"/v1/chat/completions": ChatScript()}) as (server, _):  # every call: 500
        yield server.base_url


@pytest.mark.system
def test_a_provider_that_fails_every_call_gets_a_report_not_a_crash(
    home: Path, failing: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _model_night(home, failing, monkeypatch, capsys)
    assert code == 1
    _assert_reported(home, err, "provider_unavailable")


@pytest.mark.system
def test_no_server_listening_gets_a_report_not_a_crash(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again before the run: nothing listens there
    code, _, err = _model_night(home, f"http://127.0.0.1:{port}/v1", monkeypatch, capsys)
    assert code == 1
    _assert_reported(home, err, "provider_unavailable")


@pytest.mark.system
def test_a_spent_token_budget_gets_a_report_not_a_crash(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with serving({"/v1/chat/completions": FakeModel().script()}) as (server, _):
        code, _, err = _model_night(
            home, server.base_url, monkeypatch, capsys, QFORGE_LLM_TOKEN_BUDGET="20000"
        )
    assert code == 1
    _assert_reported(home, err, "token_budget")


@pytest.mark.system
def test_with_the_offline_fallback_students_still_get_a_paper(
    home: Path, failing: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _model_night(home, failing, monkeypatch, capsys, QFORGE_OFFLINE_FALLBACK="true")
    assert code == 0
    assert "offline fallback: the model left the paper short; the offline engine made" in out
    report = (home / "reports" / f"nightly-{NIGHT}.md").read_text()
    assert "## Offline fallback" in report
    assert _pointer(home) == NIGHT


def test_a_pool_fill_that_stores_nothing_says_why_and_fails(
    tmp_path: Path,
    failing: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, value in {
        "QFORGE_HOME": str(tmp_path),
        "QFORGE_LLM": "openai",
        "QFORGE_OPENAI_BASE_URL": failing,
        "OPENAI_API_KEY": "test",
        "QFORGE_OPENAI_MAX_RETRIES": "0",
    }.items():
        monkeypatch.setenv(name, value)
    code = main(["pool", "fill", "--subject", "Physics", "--per-cell", "2"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "nothing stored: the provider failed (provider_unavailable)" in err
    cells = [line for line in out.splitlines() if line.startswith("  Physics")]
    assert cells and all("+0/2" in line for line in cells)
    assert any("refused" in line and "transport: http_500" in line for line in cells), cells
    assert any("[drafting stopped: provider_unavailable]" in line for line in cells), cells
    assert "drafts refused before any solve:" in out
