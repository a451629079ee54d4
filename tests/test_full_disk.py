"""A disk that fills during the export: no cut-off file is ever visible, the run says what ran
out in one line, and the rerun after space is freed ends with the paper of an undisturbed run."""

from __future__ import annotations

import datetime as dt
import errno
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api_stub.app import create_app
from core.settings import REPO_ROOT, Settings
from core.storage import LocalObjectStore
from flows.nightly import call_directly, run_nightly
from pipeline.compose import build_services
from site_builder.documents import DAILY_POINTER_KEY, daily_paper_key
from site_builder.integrity import complete_document

# Whole nightlies on a real tmpfs mount: a system test.
pytestmark = pytest.mark.system

DATE = "2026-04-02"
DAY = dt.date.fromisoformat(DATE)


def _nightly(home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "flows.cli", "nightly", "--date", DATE, "--no-prefect"],
        cwd=REPO_ROOT,
        env={**os.environ, "QFORGE_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def undisturbed(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    home = tmp_path_factory.mktemp("undisturbed")
    done = _nightly(home)
    assert done.returncode == 0, done.stderr
    return LocalObjectStore(home / "store").get(daily_paper_key(DATE)) or b""


def _every_visible_file_is_whole(store_dir: Path) -> int:
    store = LocalObjectStore(store_dir)
    keys = store.keys("api/v1/")
    for key in keys:
        assert complete_document(key, store.get(key) or b""), key
    return len(keys)


def _served_whole(store_dir: Path, settings: Settings) -> None:
    """What the worker serves from the tree: every question file it lists parses."""
    store = LocalObjectStore(store_dir)
    client = TestClient(create_app(settings, store))
    for key in store.keys("api/v1/questions/")[:50]:
        r = client.get("/" + key)
        assert r.status_code == 200 and complete_document(key, r.content), key


@pytest.fixture
def tmpfs_store(tmp_path: Path) -> Iterator[Path]:
    """QFORGE_HOME whose store is a 512 KiB tmpfs (too small for a first export)."""
    home = tmp_path / "home"
    (home / "store").mkdir(parents=True)
    mount = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(home / "store")],
        capture_output=True,
        text=True,
    )
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({mount.stderr.strip()}); see the next test")
    try:
        yield home
    finally:
        subprocess.run(["umount", "-l", str(home / "store")], check=False)


def test_a_store_that_fills_mid_export_publishes_nothing_cut_off(
    tmpfs_store: Path, undisturbed: bytes
) -> None:
    home = tmpfs_store
    full = _nightly(home)
    assert full.returncode == 1, full.stdout + full.stderr
    last = full.stderr.strip().splitlines()[-1]
    assert last.startswith("qforge nightly: the disk is full") and "run the same command" in last
    assert "Traceback" not in full.stderr
    _every_visible_file_is_whole(home / "store")
    assert LocalObjectStore(home / "store").get(DAILY_POINTER_KEY) is None
    _served_whole(home / "store", Settings(home=home))
    subprocess.run(["mount", "-o", "remount,size=64m", str(home / "store")], check=True)
    again = _nightly(home)
    assert again.returncode == 0, again.stderr
    _every_visible_file_is_whole(home / "store")
    assert LocalObjectStore(home / "store").get(daily_paper_key(DATE)) == undisturbed


def test_a_short_write_is_never_linked_as_a_whole_file(
    tmp_path: Path, undisturbed: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where no tmpfs can be mounted: the disk "fills" after 300 KB of the store's writes, the
    # way a real one does, with one short write and then ENOSPC.
    budget = [300_000]
    real_write = os.write

    def filling_write(fd: int, data: bytes | memoryview) -> int:
        if budget[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = real_write(fd, bytes(data)[: budget[0]])
        budget[0] -= n
        return n

    settings = Settings(home=tmp_path / "home")
    services = build_services(settings)
    monkeypatch.setattr("core.storage.os.write", filling_write)
    with pytest.raises(OSError) as failed:
        run_nightly(services, DAY, call=call_directly)
    assert failed.value.errno == errno.ENOSPC
    _every_visible_file_is_whole(settings.store_dir)
    assert LocalObjectStore(settings.store_dir).get(DAILY_POINTER_KEY) is None
    monkeypatch.setattr("core.storage.os.write", real_write)
    run_nightly(services, DAY, call=call_directly)
    _every_visible_file_is_whole(settings.store_dir)
    assert LocalObjectStore(settings.store_dir).get(daily_paper_key(DATE)) == undisturbed
