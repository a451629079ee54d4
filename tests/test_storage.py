from __future__ import annotations

from pathlib import Path

import pytest

from core.storage import ImmutableObjectError, LocalObjectStore


def test_a_key_and_its_children_coexist(tmp_path: Path) -> None:
    store = LocalObjectStore(tmp_path)
    store.put("api/v1/exams/daily", b"pointer")
    store.put("api/v1/exams/daily/2026-11-25", b"dated")
    assert store.get("api/v1/exams/daily") == b"pointer"
    assert store.get("api/v1/exams/daily/2026-11-25") == b"dated"


@pytest.mark.parametrize("key", ["", "/abs", "a/../b", "a//b", "a/.hidden", "a/b.obj", "a b"])
def test_unsafe_keys_are_refused(tmp_path: Path, key: str) -> None:
    with pytest.raises(ValueError, match="invalid object key"):
        LocalObjectStore(tmp_path).put(key, b"x")


def test_immutable_keys_refuse_different_bytes(tmp_path: Path) -> None:
    store = LocalObjectStore(tmp_path)
    assert store.put_immutable("api/v1/questions/q-1", b"one") is True
    assert store.put_immutable("api/v1/questions/q-1", b"one") is False
    with pytest.raises(ImmutableObjectError, match="q-1"):
        store.put_immutable("api/v1/questions/q-1", b"two")
    assert store.get("api/v1/questions/q-1") == b"one"


def test_writes_leave_no_temporary_files(tmp_path: Path) -> None:
    store = LocalObjectStore(tmp_path)
    store.put("a/b", b"1")
    store.put("a/b", b"2")
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["b.obj"]
    assert store.get("missing") is None
    assert store.get("a/b/c") is None
