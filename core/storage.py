"""Object stores keyed by URL path: the static API tree is written to one, and served from it."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Protocol

from core.runlock import held

# A part of at most 200 characters: every file system here takes 255, with room for the suffix.
_KEY_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")
# Every object file ends in this suffix and no key part may, so the key `a` (file `a.obj`) and
# the key `a/b` (directory `a/`) never collide on disk.
OBJECT_SUFFIX = ".obj"


class ImmutableObjectError(RuntimeError):
    """An immutable key already holds different bytes."""


class ObjectStore(Protocol):
    """Where exported files live: a local directory or an S3 bucket."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, data: bytes) -> None: ...

    def put_immutable(self, key: str, data: bytes) -> bool:
        """Write key once; True if written, False if the same bytes were there, error if others.
        Of two writers racing for a key, one writes: a local store by a no-clobber link, S3 by a
        conditional write (an endpoint without them falls back to a plain one, and racers both
        write)."""
        ...

    def exists(self, key: str) -> bool: ...

    def keys(self, prefix: str) -> list[str]: ...

    def put_new(self, items: Iterable[tuple[str, bytes]]) -> list[tuple[str, bytes]]: ...

    def flush(self) -> None: ...

    def delete(self, key: str) -> None: ...

    def exclusive(self, name: str) -> AbstractContextManager[None]: ...


def validate_key(key: str) -> str:
    """The key itself, or ValueError when it is not a clean relative URL path."""
    parts = key.split("/")
    for part in parts:
        if not _KEY_PART.match(part) or part.endswith(OBJECT_SUFFIX):
            raise ValueError(f"invalid object key {key!r}")
    return key


_CREATE_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL
STAGING_PREFIX = ".staging-"


def _write_all(fd: int, data: bytes) -> None:
    """Every byte of data to fd, or OSError: os.write may write less than asked (a disk that
    fills part-way), and a short file must never be taken for a whole one."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:  # a device that takes nothing and reports no error
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def _fresh_staging_dir(directory: str) -> str:
    """An empty hidden sibling of `directory` to stage its first files in (one bulk writer)."""
    head, _, name = directory.rpartition("/")
    staging = f"{head}/{STAGING_PREFIX}{name}"
    shutil.rmtree(staging, ignore_errors=True)  # a killed run's leftovers: never published
    os.makedirs(staging)
    return staging


class LocalObjectStore:
    """A directory of files; writes are atomic (temp file, fsync, rename).

    Hand-written rather than obstore's LocalStore or fsspec's LocalFileSystem (measured in
    bench/storage.py; BENCHMARKS.md, "Object store"): LocalStore links each file into place
    with no sync at all, so a power cut can leave a named empty file, and it cannot stage a
    first export as one directory; fsspec writes create-if-absent files in place (a full disk
    leaves a short file under the key) and its temp-file commit overwrites.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path_for(self, key: str) -> Path:
        return self.root / (validate_key(key) + OBJECT_SUFFIX)

    def get(self, key: str) -> bytes | None:
        try:
            return self.path_for(key).read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            return None

    def exists(self, key: str) -> bool:
        return self.path_for(key).is_file()

    def keys(self, prefix: str) -> list[str]:
        """Every stored key that starts with prefix, sorted (writes in progress are not keys)."""
        base = self.root / prefix.rsplit("/", 1)[0] if "/" in prefix else self.root
        if not base.is_dir():
            return []
        found = []
        for path in base.rglob("*" + OBJECT_SUFFIX):
            if any(part.startswith(".") for part in path.relative_to(self.root).parts):
                continue  # temp files and staging directories hold no keys yet
            key = path.relative_to(self.root).as_posix().removesuffix(OBJECT_SUFFIX)
            if key.startswith(prefix):
                found.append(key)
        return sorted(found)

    def put(self, key: str, data: bytes) -> None:
        """Write or replace key atomically: readers see the old bytes or the new, never half."""
        path = self.path_for(key)
        tmp = self._synced_temp(path, data)
        try:
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def _synced_temp(self, path: Path, data: bytes) -> str:
        """A hidden temp file beside path holding data, on disk; the caller names or removes it."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return tmp

    def put_new(self, items: Iterable[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
        """Write the keys that do not exist yet; return the items whose keys already did.

        A file becomes visible only once every byte of it is written and on disk: a full disk
        or a crash never leaves a short file under a key. Three phases, so a bulk write pays
        for one sync, not one per file:
        1. every file is written whole: into an existing directory as a hidden temp file;
           into a directory that does not exist yet (a first, full export) straight into a
           hidden staging directory (one directory operation per file instead of three);
        2. one sync makes them all durable;
        3. names: each temp file gets a no-clobber link (never overwrites), each staging
           directory is renamed into place (readers see no file or every file).
        A write that fails in phase 1 (a full disk) removes its temp files and names nothing.
        Call `flush` after a bulk write, before recording it anywhere (the names themselves).
        Plain os calls: pathlib costs more than the writes.
        """
        present: list[tuple[str, bytes]] = []
        made: set[str] = set()
        staged: dict[str, str] = {}  # directory that did not exist -> its staging directory
        pending: list[tuple[str, str, str]] = []  # (temp file, final path, key)
        owner = f"{os.getpid()}-{threading.get_ident()}"  # unique across processes and threads
        root = str(self.root)
        try:
            for n, (key, data) in enumerate(items):
                path = f"{root}/{validate_key(key)}{OBJECT_SUFFIX}"
                parent, _, name = path.rpartition("/")
                if parent not in made and parent not in staged:
                    if os.path.isdir(parent):
                        made.add(parent)
                    else:
                        staged[parent] = _fresh_staging_dir(parent)
                if parent in staged:
                    target = f"{staged[parent]}/{name}"
                else:
                    target = f"{parent}/.tmp-{owner}-{n}"
                    pending.append((target, path, key))
                try:
                    fd = os.open(target, _CREATE_NEW, 0o644)
                except FileExistsError:  # the same key twice in one staging directory
                    present.append((key, data))
                    continue
                try:
                    _write_all(fd, data)
                finally:
                    os.close(fd)
            if pending or staged:
                os.sync()  # every file is whole on disk before a name points at it
        except BaseException:
            for tmp, _, _ in pending:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
            for staging in staged.values():
                shutil.rmtree(staging, ignore_errors=True)
            raise
        for tmp, path, key in pending:
            try:
                os.link(tmp, path)  # fails if the key exists: never overwrites
            except FileExistsError:
                with open(tmp, "rb") as fh:
                    present.append((key, fh.read()))
            finally:
                os.unlink(tmp)
        for parent, staging in staged.items():
            present += self._switch_in(parent, staging)
        return present

    def _switch_in(self, parent: str, staging: str) -> list[tuple[str, bytes]]:
        """Rename a staging directory into place; if the directory appeared meanwhile, link each
        file no-clobber instead. Returns the items whose keys were there already."""
        os.makedirs(os.path.dirname(parent), exist_ok=True)
        try:
            os.rename(staging, parent)
            return []
        except OSError:
            pass
        present = []
        prefix = parent.removeprefix(str(self.root) + "/")
        for name in os.listdir(staging):
            try:
                os.link(f"{staging}/{name}", f"{parent}/{name}")
            except FileExistsError:
                with open(f"{staging}/{name}", "rb") as fh:
                    present.append((f"{prefix}/{name.removesuffix(OBJECT_SUFFIX)}", fh.read()))
        shutil.rmtree(staging)
        return present

    def flush(self) -> None:
        """Make every earlier write durable (one sync for a whole bulk write)."""
        os.sync()

    @contextmanager
    def exclusive(self, name: str) -> Iterator[None]:
        """Hold the store's lock `name` for a read-then-write no other process may interleave
        (the daily pointer's "never backwards"). flock: a killed holder leaves no lock."""
        with held(self.root / f".lock-{validate_key(name)}"):
            yield

    def delete(self, key: str) -> None:
        """Remove key if present (only for internal bookkeeping: published keys are immutable)."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path_for(key))

    def put_immutable(self, key: str, data: bytes) -> bool:
        """Write key once; True if written, False if the same bytes were there, error if others.

        The name is made by a no-clobber link, so of two writers racing for one key exactly one
        writes it and the other compares against what it wrote. (Looking, then writing with a
        replace, let the later of two racers replace the earlier one's bytes.)
        """
        path = self.path_for(key)
        existing = self.get(key)
        if existing is None:
            tmp = self._synced_temp(path, data)
            try:
                os.link(tmp, path)  # fails if the key exists: never overwrites
                return True
            except FileExistsError:
                existing = path.read_bytes()
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
        if existing != data:
            raise ImmutableObjectError(f"{key} already holds different content")
        return False
