"""Every command the README and docs/ show is run, as a user would, against one prepared home.

The home is made once by the README's own offline nightly; each command then runs in a fresh
`qforge` process and must exit 0 with output and no traceback. A command that needs a model
provider, an S3 bucket, a Prefect server or minutes is listed below with the reason and the
test that covers it instead; a command the docs gain that is neither run nor listed fails here.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.analytics import snapshot_connection
from core.settings import REPO_ROOT
from flows.cli import main, parser
from tests.docs_commands import DocCommand, DocSQL, doc_commands, doc_python, doc_sql, expand

QFORGE = Path(sys.executable).with_name("qforge")
TOMORROW = (dt.datetime.now(dt.UTC) + dt.timedelta(days=1)).date().isoformat()

# Commands not run here, by the start of their text, and why.
SKIPPED = {
    "make run": "runs `qforge nightly`, then `qforge api`: both are run here",
    "make test": "is this test suite",
    "make test-fast": "is this test suite without its `system` tests",
    "make lint": ".ci/run runs it before `make test`",
    "make format": "rewrites the working tree",
    "make bench": "takes minutes; each benchmark prints its figures and baseline (BENCHMARKS.md)",
    "make clean": "deletes the .venv this suite runs in",
    "qforge serve": "serves until stopped, against a Prefect server; tests/test_cli.py checks "
    "the deployments it serves",
    "qforge publish": "needs an S3 bucket; tests/test_s3_publish.py publishes to a local moto",
    "qforge pool fill --batch": "needs QFORGE_LLM=openai; tests/test_openai_batch.py runs the "
    "batch fill against a local fake Batch API",
}
# Inline spans that name a command in prose; the runnable form is shown elsewhere.
NAMED_ONLY = {
    "qforge kb ingest": "the README shows it with paths under 'The knowledge store', which runs",
    "qforge kb references import": "the README shows it with a file under 'The knowledge "
    "store', which runs",
}
# Invocations shortened with a documented flag, and why.
SHORTENED = {
    ("qforge", "nightly"): (
        ["--no-prefect"],
        "Prefect's temporary server costs 10 s; tests/test_nightly_e2e.py runs the flow in it",
    ),
    ("qforge", "pool", "fill"): (
        ["--per-cell", "2"],
        "the default 60 unused questions per cell takes minutes",
    ),
    ("qforge", "pool", "fill", "--per-topic"): (
        ["--subject", "Physics", "--per-cell", "0"],
        "every topic of the syllabus takes a minute and a half; tests/test_topic_practice.py "
        "fills them all",
    ),
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PLACEHOLDERS = {
    "YYYY-MM-DD": TOMORROW,
    "N": "2",
    "S": "Physics",
    "H": "127.0.0.1",
    "P": str(_free_port()),
    "SQL": "SELECT subject, count(*) AS questions FROM questions GROUP BY ALL ORDER BY ALL",
}


def _skip_reason(command: DocCommand) -> str | None:
    if any(v.startswith("QFORGE_LLM=") for v in command.env):
        return "needs a model provider; tests/test_llm_report.py runs a nightly against a fake"
    for prefix, why in {**SKIPPED, **NAMED_ONLY}.items():
        if command.text == prefix or (
            command.text.startswith(prefix + " ") and prefix not in NAMED_ONLY
        ):
            return why
    return None


COMMANDS = doc_commands()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder like a user's checkout: `data/`, a book of their own, a past-paper file, and
    `.qforge` made by the README's first command (`qforge nightly`, offline)."""
    work = tmp_path_factory.mktemp("docs")
    (work / "data").symlink_to(REPO_ROOT / "data")
    books = work / "my-books"
    books.mkdir()
    (books / "lenses.md").write_text(
        "---\nsubject: Physics\ntopic_id: phy-lens-formula\ntitle: Our lens notes\n"
        "licence: CC-BY-4.0\n---\n# Thin lenses\n\nA convex lens of focal length $f$ forms a "
        "real image of an object beyond $f$; the image distance $v$ follows "
        "$1/v - 1/u = 1/f$ with the sign convention.\n",
        encoding="utf-8",
    )
    (work / "past-papers.jsonl").write_text(
        json.dumps(
            {
                "question": "The SI unit of magnetic flux is",
                "options": ["weber", "tesla", "henry", "gauss"],
                "answer": "weber",
                "subject": "Physics",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    done = _run(work, ["qforge", "nightly", "--no-prefect"])
    assert done.returncode == 0, done.stdout + done.stderr
    yield work


def _environment(work: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QFORGE_", "OPENAI_"))}
    env["QFORGE_HOME"] = str(work / ".qforge")
    # The nightly's topic floor (some 17,000 questions, a minute and a half) is off here:
    # tests/test_topic_practice.py runs it on a fresh home.
    env["QFORGE_TOPIC_FLOOR"] = "0"
    env["PYTHONPATH"] = str(REPO_ROOT)
    return env


def _run(work: Path, argv: list[str], timeout: float = 240) -> subprocess.CompletedProcess[str]:
    program = [str(QFORGE)] if QFORGE.exists() else [sys.executable, "-m", "flows.cli"]
    return subprocess.run(
        [*program, *argv[1:]],
        cwd=work,
        env=_environment(work),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _serve_once(work: Path, argv: list[str]) -> str:
    """Start `qforge api …`, wait for /healthz, stop it; what it printed."""
    env = _environment(work)
    port = argv[argv.index("--port") + 1] if "--port" in argv else str(_free_port())
    env["QFORGE_API_PORT"] = port
    program = [str(QFORGE)] if QFORGE.exists() else [sys.executable, "-m", "flows.cli"]
    server = subprocess.Popen(
        [*program, *argv[1:]],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                    assert r.status == 200
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    break
                time.sleep(0.2)  # the server is starting; the loop ends on its health check
        assert server.poll() is None, "qforge api exited before it answered /healthz"
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=30)
    return out


@pytest.mark.system
@pytest.mark.parametrize("command", COMMANDS, ids=[f"{c.where} {c.text}" for c in COMMANDS])
def test_every_documented_command_runs(workdir: Path, command: DocCommand) -> None:
    why = _skip_reason(command)
    if why is not None:
        pytest.skip(why)
    assert command.program == "qforge", f"{command.where}: no rule runs `{command.text}`"
    for argv in expand(command.text, PLACEHOLDERS):
        extra, _ = SHORTENED.get(tuple(argv), ([], ""))
        argv = [*argv, *extra]
        if argv[:2] == ["qforge", "api"]:
            output = _serve_once(workdir, argv)
            assert "Development API key" in output and "Traceback" not in output, output
            continue
        done = _run(workdir, argv)
        output = done.stdout + done.stderr
        assert done.returncode == 0, f"{command.where}: {' '.join(argv)}\n{output}"
        assert done.stdout.strip(), f"{command.where}: {' '.join(argv)} printed nothing"
        assert "Traceback" not in output, f"{command.where}: {' '.join(argv)}\n{output}"


@pytest.mark.system
def test_kb_search_finds_the_users_own_book(workdir: Path) -> None:
    done = _run(workdir, ["qforge", "kb", "ingest", "my-books/"])
    assert done.returncode == 0, done.stdout + done.stderr
    found = _run(workdir, ["qforge", "kb", "search", "convex lens image distance", "-k", "8"])
    assert found.returncode == 0 and "my-books/lenses.md" in found.stdout, found.stdout


@pytest.mark.system
@pytest.mark.parametrize("sql", doc_sql(), ids=lambda s: s.where)
def test_every_documented_query_runs_on_a_snapshot(workdir: Path, sql: DocSQL) -> None:
    con = snapshot_connection(workdir / ".qforge" / "exports" / "warehouse")
    assert con.execute(sql.sql).fetchall() is not None


@pytest.mark.system
@pytest.mark.parametrize("snippet", doc_python(), ids=lambda s: s[0])
def test_every_documented_python_snippet_runs(workdir: Path, snippet: tuple[str, str]) -> None:
    where, code = snippet
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=workdir,
        env=_environment(workdir),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"{where}\n{done.stderr}"


def _subcommand_paths(
    p: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> list[tuple[str, ...]]:
    out = [path]
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                out += _subcommand_paths(child, (*path, name))
    return out


@pytest.mark.parametrize("path", _subcommand_paths(parser()), ids=" ".join)
def test_every_subcommand_has_help(
    capsys: pytest.CaptureFixture[str], path: tuple[str, ...]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([*path, "--help"])
    assert exit_.value.code == 0
    assert "usage: qforge" in capsys.readouterr().out
