from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
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


@pytest.mark.parametrize(
    ("second", "outcome"), [(b"second", "refused"), (b"first", "False")], ids=["other", "same"]
)
def test_of_two_writers_racing_for_an_immutable_key_one_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, second: bytes, outcome: str
) -> None:
    # Two answer logs posted under one batch id at once: both look, find nothing, then write.
    # The other writer is refused if its bytes differ, and told they were there if the same.
    store = LocalObjectStore(tmp_path)
    both_looked = threading.Barrier(2)
    look = store.get

    def get_then_wait(key: str) -> bytes | None:
        found = look(key)
        both_looked.wait(timeout=10)
        return found

    monkeypatch.setattr(store, "get", get_then_wait)

    def write(data: bytes) -> bool | str:
        try:
            return store.put_immutable("internal/outbox/answers/b-1", data)
        except ImmutableObjectError:
            return "refused"

    with ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(write, [b"first", second]))
    assert sorted(map(str, outcomes)) == sorted(["True", outcome])
    winner = b"first" if outcomes[0] is True else second
    assert look("internal/outbox/answers/b-1") == winner
    assert sorted(p.name for p in (tmp_path / "internal/outbox/answers").iterdir()) == ["b-1.obj"]


def test_writes_leave_no_temporary_files(tmp_path: Path) -> None:
    store = LocalObjectStore(tmp_path)
    store.put("a/b", b"1")
    store.put("a/b", b"2")
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["b.obj"]
    assert store.get("missing") is None
    assert store.get("a/b/c") is None


def test_a_first_bulk_write_is_staged_then_switched_in(tmp_path: Path) -> None:
    store = LocalObjectStore(tmp_path)
    store.put("api/v1/questions/q-0", b"old")  # an existing directory: linked file by file
    items = [(f"api/v1/questions/q-{i}", b"new") for i in range(3)]
    items += [(f"api/v1/practice/p-{i}", str(i).encode()) for i in range(3)]  # a new directory
    items.append(("api/v1/practice/p-1", b"again"))  # the same key twice in one call
    present = store.put_new(iter(items))
    assert sorted(present) == [("api/v1/practice/p-1", b"again"), ("api/v1/questions/q-0", b"new")]
    assert store.get("api/v1/questions/q-0") == b"old"  # never overwritten
    assert [store.get(f"api/v1/practice/p-{i}") for i in range(3)] == [b"0", b"1", b"2"]
    assert sorted(p.name for p in (tmp_path / "api" / "v1").iterdir()) == ["practice", "questions"]


@pytest.mark.parametrize("existing_directory", [True, False])
def test_a_short_write_then_a_full_disk_names_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, existing_directory: bool
) -> None:
    import errno
    import os

    store = LocalObjectStore(tmp_path)
    if existing_directory:
        store.put("api/v1/questions/q-0", b"old")
    real_write, room = os.write, [10]

    def filling(fd: int, data: bytes) -> int:  # 10 bytes fit, then the disk is full
        if room[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = real_write(fd, bytes(data)[: room[0]])
        room[0] -= n
        return n

    monkeypatch.setattr("core.storage.os.write", filling)
    with pytest.raises(OSError, match="No space left"):
        store.put_new([("api/v1/questions/q-1", b"0123456789abcdef")])
    monkeypatch.setattr("core.storage.os.write", real_write)
    assert store.get("api/v1/questions/q-1") is None  # not the 10 bytes that fitted
    assert store.keys("api/v1/") == (["api/v1/questions/q-0"] if existing_directory else [])
    leftovers = [p for p in tmp_path.rglob("*") if p.name.startswith(".")]
    assert leftovers == []
    assert store.put_new([("api/v1/questions/q-1", b"0123456789abcdef")]) == []
    assert store.get("api/v1/questions/q-1") == b"0123456789abcdef"


def test_a_killed_staged_write_publishes_nothing_and_is_cleared(tmp_path: Path) -> None:
    store = LocalObjectStore(tmp_path)

    def killed() -> object:
        yield "api/v1/questions/q-1", b"one"
        raise KeyboardInterrupt  # the process dies half-way through the stream

    with pytest.raises(KeyboardInterrupt):
        store.put_new(killed())  # type: ignore[arg-type]
    assert store.keys("api/v1/") == []  # the staged file is no key
    assert store.get("api/v1/questions/q-1") is None
    assert store.put_new([("api/v1/questions/q-2", b"two")]) == []
    assert store.keys("api/v1/") == ["api/v1/questions/q-2"]
    assert sorted(p.name for p in (tmp_path / "api" / "v1").iterdir()) == ["questions"]


def test_staged_files_are_linked_in_when_the_directory_appeared_meanwhile(
    tmp_path: Path,
) -> None:
    store = LocalObjectStore(tmp_path)

    def racing() -> object:
        yield "api/v1/questions/q-1", b"one"
        yield "api/v1/questions/q-2", b"two"
        other = LocalObjectStore(tmp_path)  # another writer creates the directory first
        other.put("api/v1/questions/q-2", b"two")
        other.put("api/v1/questions/q-3", b"three")

    present = store.put_new(racing())  # type: ignore[arg-type]
    assert present == [("api/v1/questions/q-2", b"two")]
    assert store.keys("api/v1/questions/") == [f"api/v1/questions/q-{i}" for i in (1, 2, 3)]
    assert sorted(p.name for p in (tmp_path / "api" / "v1").iterdir()) == ["questions"]


def test_delete_removes_a_key_and_ignores_a_missing_one(tmp_path: Path) -> None:
    store = LocalObjectStore(tmp_path)
    store.put("internal/jobs-active/job-1", b"x")
    store.delete("internal/jobs-active/job-1")
    store.delete("internal/jobs-active/job-1")
    assert store.keys("internal/") == []


@pytest.mark.parametrize("existing_directory", [True, False])
def test_no_name_points_at_bytes_before_they_are_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, existing_directory: bool
) -> None:
    # What a power cut needs (no test can pull the plug): a key is linked or renamed into place
    # only after the sync that puts its bytes on disk. Libraries that link first and sync
    # never (obstore's LocalStore) or later would fail this.
    import os

    store = LocalObjectStore(tmp_path)
    if existing_directory:
        store.put("api/v1/questions/q-0", b"old")
    calls: list[str] = []

    def spy(name: str) -> object:
        real = getattr(os, name)

        def call(*args: object) -> object:
            calls.append(name)
            return real(*args)

        return call

    for name in ("sync", "link", "rename", "replace"):
        monkeypatch.setattr(f"core.storage.os.{name}", spy(name))
    store.put_new([(f"api/v1/questions/q-{i}", b"new") for i in range(1, 4)])
    named = [i for i, c in enumerate(calls) if c != "sync"]
    assert named and calls.index("sync") < min(named)
    assert calls.count("sync") == 1  # one sync for the whole bulk write
    written = range(0 if existing_directory else 1, 4)
    assert store.keys("api/v1/questions/") == [f"api/v1/questions/q-{i}" for i in written]
