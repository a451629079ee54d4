"""End to end: the real nightly flow (Prefect, DuckDB, local store), then the worker over HTTP."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from core.render import inline_markdown_html
from core.settings import REPO_ROOT, Settings
from core.warehouse import open_warehouse

# The real Prefect flow in its temporary server, then the worker as a subprocess.
pytestmark = pytest.mark.system

DATE = "2026-01-15"
DAILY_FIELDS = {
    "id",
    "subject",
    "topic",
    "stem_markdown",
    "options",
    "correct_key",
    "explanation_markdown",
}
STORED_FIELDS = {"id", "subject", "topic", "difficulty", "stem_html", "options", "explanation_html"}
SUBJECTS = {"Physics", "Chemistry", "Botany", "Zoology"}


def warehouse_counts(home: Path) -> dict[str, int]:
    with open_warehouse(Settings(home=home).warehouse_path) as wh:
        return wh.counts()


def structure_questions(home: Path) -> set[str]:
    """The stored questions that show structural formulae (counted apart from figures)."""
    with open_warehouse(Settings(home=home).warehouse_path) as wh:
        pool = wh.pool()
    return set(pool.filter(pool["structure"])["question_id"].to_list())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from prefect.settings import PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings
    from prefect.testing.utilities import prefect_test_harness

    from flows.nightly import nightly

    home = tmp_path_factory.mktemp("qforge-home")
    mp = pytest.MonkeyPatch()
    mp.setenv("QFORGE_HOME", str(home))
    mp.setenv("QFORGE_FIGURE_FLOOR", "3")  # the paper's figure questions
    try:
        with (
            prefect_test_harness(server_startup_timeout=90),
            temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}),
        ):
            first = nightly(date=DATE)
            after_first = warehouse_counts(home)
            second = nightly(date=DATE)
            after_second = warehouse_counts(home)
            artifacts = _summary_artifacts()
    finally:
        mp.undo()
    return {
        "home": home,
        "first": first,
        "second": second,
        "after_first": after_first,
        "after_second": after_second,
        "artifacts": artifacts,
        "structures": structure_questions(home),
    }


def _summary_artifacts() -> list[str]:
    """The markdown summaries the runs published to Prefect, newest first."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterKey

    with get_client(sync_client=True) as client:
        found = client.read_artifacts(
            artifact_filter=ArtifactFilter(key=ArtifactFilterKey(any_=["nightly-summary"]))
        )
    return [str(a.data) for a in found]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> tuple[int, dict[str, str], Any]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, dict(r.headers), json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read())


@pytest.fixture(scope="module")
def worker(built: dict[str, Any]) -> Any:
    port = free_port()
    env = {**os.environ, "QFORGE_HOME": str(built["home"])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "flows.cli", "api", "--port", str(port)],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:  # wait for readiness, not for a fixed time
        if proc.poll() is not None:
            raise RuntimeError(f"worker exited early:\n{proc.stdout.read() if proc.stdout else ''}")
        try:
            if get(base + "/healthz")[0] == 200:
                break
        except (ConnectionError, urllib.error.URLError):
            if time.monotonic() > deadline:
                proc.kill()
                raise
            time.sleep(0.1)
    yield base
    proc.terminate()
    proc.wait(timeout=10)


def test_second_run_gives_the_same_paper_and_adds_no_rows(built: dict[str, Any]) -> None:
    assert built["first"].paper == built["second"].paper
    assert built["after_first"] == built["after_second"]
    assert built["after_first"]["questions"] >= 180
    assert built["after_first"]["paper_items"] == 180
    assert built["second"].fill.skipped_because_paper_exists
    assert built["second"].export.questions_written == 0
    assert not built["second"].export.paper_written


def test_the_daily_paper_is_served_with_every_spec_field(
    worker: str, built: dict[str, Any]
) -> None:
    status, headers, paper = get(worker + "/api/v1/exams/daily")
    assert status == 200
    assert headers["content-type"] == "application/json"
    assert headers["cache-control"].startswith("public, max-age=")
    assert paper["exam_id"] == f"daily-{DATE}"
    assert isinstance(paper["title"], str) and paper["title"]
    assert paper["total_questions"] == 180 == len(paper["questions"])
    assert paper["total_marks"] == 720 and paper["duration_minutes"] == 180
    assert paper["marking"] == {"correct": 4, "wrong": -1, "unanswered": 0}
    ids = [q["id"] for q in paper["questions"]]
    assert len(set(ids)) == 180
    assert Counter(q["subject"] for q in paper["questions"]) == {s: 45 for s in SUBJECTS}
    figured = [q for q in paper["questions"] if "figures" in q]
    drawn = [q for q in figured if q["id"] in built["structures"]]
    assert 8 <= len(figured) - len(drawn) <= 12  # the blueprint's 2 to 3 a subject
    assert {q["subject"] for q in drawn} <= {"Chemistry"} and len(drawn) <= 12
    for q in paper["questions"]:
        # Every field of the spec, plus `figures` on a question with a figure (DESIGN).
        assert set(q) - {"figures"} == DAILY_FIELDS
        for field in DAILY_FIELDS - {"options"}:
            assert isinstance(q[field], str) and q[field], field
        assert [o["key"] for o in q["options"]] == ["A", "B", "C", "D"]
        assert all(set(o) == {"key", "text"} and isinstance(o["text"], str) for o in q["options"])
        assert q["correct_key"] in {o["key"] for o in q["options"]}
    for s in SUBJECTS:  # keys balanced by choosing questions: 8–14 per letter per subject
        keys = Counter(q["correct_key"] for q in paper["questions"] if q["subject"] == s)
        assert all(8 <= keys[k] <= 14 for k in "ABCD"), (s, keys)
    for q in paper["questions"][::9]:  # one face: the paper shows each question as its file
        _, _, stored = get(f"{worker}/api/v1/questions/{q['id']}")
        assert [o["id"] for o in stored["options"] if o["is_correct"]] == [q["correct_key"]]
    blueprint = paper["blueprint"]
    assert blueprint["id"] == "neet-ug-v1"
    for subject, block in blueprint["subjects"].items():
        assert subject in SUBJECTS
        assert all(v["target"] == v["achieved"] for v in block["difficulty"].values())
        assert all(u["min"] <= u["achieved"] <= u["max"] for u in block["units"].values())
    assert get(worker + f"/api/v1/exams/daily/{DATE}")[2] == paper


def test_every_question_is_served_in_the_stored_shape(worker: str) -> None:
    _, _, paper = get(worker + "/api/v1/exams/daily")
    for daily in paper["questions"]:
        status, headers, q = get(worker + f"/api/v1/questions/{daily['id']}")
        assert status == 200
        assert headers["cache-control"] == "public, max-age=31536000, immutable"
        assert set(q) - {"figures"} == STORED_FIELDS
        assert q.get("figures") == daily.get("figures")
        for figure in q.get("figures", ()):
            with urllib.request.urlopen(worker + figure["url"], timeout=10) as image:
                assert image.status == 200
                assert image.headers["content-type"] == "image/svg+xml"
                assert image.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert q["id"] == daily["id"] and q["subject"] == daily["subject"]
        assert q["topic"] == daily["topic"]
        assert q["difficulty"] in {"Easy", "Medium", "Hard"}
        assert isinstance(q["stem_html"], str) and "<script" not in q["stem_html"]
        assert isinstance(q["explanation_html"], str) and q["explanation_html"]
        assert [o["id"] for o in q["options"]] == ["A", "B", "C", "D"]
        assert all(isinstance(o["text_html"], str) and o["text_html"] for o in q["options"])
        correct = [o["text_html"] for o in q["options"] if o["is_correct"] is True]
        assert all(isinstance(o["is_correct"], bool) for o in q["options"])
        # A paper may show the options in another order (to balance its keys): the correct
        # option is the same text, not necessarily the same letter.
        shown = next(o["text"] for o in daily["options"] if o["key"] == daily["correct_key"])
        assert correct == [inline_markdown_html(shown)]


def test_an_unknown_question_is_a_404_with_the_error_body(worker: str) -> None:
    status, _, body = get(worker + "/api/v1/questions/q-00000000000000000000")
    assert status == 404
    assert body["error"]["code"] == "not_found"
    assert "q-00000000000000000000" in body["error"]["message"]


def test_each_run_publishes_its_summary_as_a_prefect_artifact(built: dict[str, Any]) -> None:
    assert len(built["artifacts"]) == 2
    for markdown in built["artifacts"]:
        assert f"# qforge nightly: {DATE}" in markdown
        assert "## Time per step" in markdown and "## Pool coverage" in markdown
