"""One run at a time per home: a second run is refused in one line, a killed run leaves no lock,
two ingests store a document once, and two publishers never move the pointer back."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.runlock import RunLockedError, run_lock
from core.settings import REPO_ROOT
from core.storage import LocalObjectStore
from site_builder.documents import DAILY_POINTER_KEY, daily_paper_key
from site_builder.export import compressed_variants, current_pointer_date

# Concurrent `qforge` processes, some killed: a system test.
pytestmark = pytest.mark.system


def _qforge(home: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "flows.cli", *args],
        cwd=REPO_ROOT,
        env={**os.environ, "QFORGE_HOME": str(home)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_nightlies_on_one_home_one_runs_the_other_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    runs = [_qforge(home, "nightly", "--no-prefect", "--date", "2026-05-04") for _ in range(2)]
    # Read each run's output as it comes: the ingest of ~800 notes logs more than a pipe holds.
    outputs = [p.communicate(timeout=300) for p in runs]
    results = [(p.returncode, out, err) for p, (out, err) in zip(runs, outputs, strict=True)]
    codes = sorted(code for code, _, _ in results)
    assert codes == [0, 1], [(c, e[-500:]) for c, _, e in results]
    (_, _, refused) = next(r for r in results if r[0] == 1)
    assert refused.strip().splitlines()[-1].startswith("qforge nightly: another qforge run is")
    assert "`qforge nightly`" in refused and "Traceback" not in refused
    assert "duckdb" not in refused.lower()
    # The knowledge store holds every chunk once.
    code = (
        "from core.settings import Settings; from pipeline.compose import build_knowledge_store;"
        "from kb.store import column_values;"
        "ks = build_knowledge_store(Settings());"
        "ids = column_values(ks.table('chunks'), 'chunk_id');"
        "print(len(ids), len(set(ids)))"
    )
    counted = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        env={**os.environ, "QFORGE_HOME": str(home)},
        capture_output=True,
        text=True,
        check=True,
    )
    total, distinct = map(int, counted.stdout.split())
    assert total == distinct > 400


def test_two_ingests_without_the_run_lock_store_each_document_once(tmp_path: Path) -> None:
    # Straight to the ingestor, as a second tool on the same store might: its own write lock
    # and id check keep each chunk, figure and manifest row single.
    code = (
        "import sys, time; from core.settings import Settings;"
        "from pipeline.compose import build_ingestor;"
        "ingestor = build_ingestor(Settings());"
        "start = float(sys.argv[1]);"
        "time.sleep(max(0.0, start - time.time()));"
        "ingestor.ingest([Settings().bundled_kb_dir])"
    )
    home = tmp_path / "home"
    env = {**os.environ, "QFORGE_HOME": str(home)}
    start = str(time.time() + 8)
    procs = [
        subprocess.Popen([sys.executable, "-c", code, start], cwd=REPO_ROOT, env=env)
        for _ in range(2)
    ]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    check = (
        "from core.settings import Settings; from pipeline.compose import build_knowledge_store;"
        "from kb.store import column_values, DOCUMENTS;"
        "ks = build_knowledge_store(Settings());"
        "print(*[f'{len(v)}/{len(set(v))}' for v in ("
        "column_values(ks.table('chunks'), 'chunk_id'),"
        "column_values(ks.table('figures'), 'figure_id'),"
        "column_values(ks.table(DOCUMENTS), 'doc_id'))])"
    )
    out = subprocess.run(
        [sys.executable, "-c", check], cwd=REPO_ROOT, env=env, capture_output=True, text=True
    )
    counts = [tuple(map(int, pair.split("/"))) for pair in out.stdout.split()]
    assert len(counts) == 3 and all(total == distinct > 0 for total, distinct in counts), out


def test_a_killed_run_leaves_no_lock_behind(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from core.runlock import run_lock\n"
            "with run_lock(Path(sys.argv[1]), 'nightly'):\n"
            "    print('held', flush=True); time.sleep(60)",
            str(tmp_path),
        ],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    with (
        pytest.raises(RunLockedError, match=f"pid {holder.pid}, `qforge nightly`"),
        run_lock(tmp_path, "pool fill"),
    ):
        pass
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=10)
    with run_lock(tmp_path, "pool fill"), run_lock(tmp_path, "nightly"):  # and re-entrant
        pass


def test_two_publishers_never_move_the_pointer_back_or_apart(tmp_path: Path) -> None:
    store = LocalObjectStore(tmp_path)
    dates = [f"2026-06-{d:02d}" for d in range(1, 9)]
    for date in dates:
        data = json.dumps({"exam_id": f"daily-{date}", "date": date}).encode()
        store.put(daily_paper_key(date), data)
        for suffix, encoded in compressed_variants(data).items():
            store.put(daily_paper_key(date) + suffix, encoded)
    code = (
        "import random, sys; from pathlib import Path;"
        "from core.storage import LocalObjectStore;"
        "from site_builder.export import publish_daily_pointer;"
        "store = LocalObjectStore(Path(sys.argv[1])); rng = random.Random(sys.argv[2]);"
        "dates = sys.argv[3:];"
        "[publish_daily_pointer(store, rng.choice(dates)) for _ in range(150)]"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(tmp_path), seed, *dates], cwd=REPO_ROOT)
        for seed in ("a", "b")
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    plain = store.get(DAILY_POINTER_KEY) or b""
    assert current_pointer_date(store) == max(dates)
    assert gzip.decompress(store.get(DAILY_POINTER_KEY + ".gz") or b"") == plain
