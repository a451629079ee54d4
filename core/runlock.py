"""One run at a time per QFORGE_HOME: an advisory lock the kernel drops when its process dies.

(`held` is the waiting kind, for a short read-then-write that other processes must not split.)

`flock` on a file in the home, so a SIGKILLed run leaves nothing to clean up. The file also
says who holds it (pid, command, since when), for the message the second run prints. Taking it
again in the process that holds it is a no-op, so a command and the flow it runs can both ask.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_FILE = "run.lock"
_held: dict[Path, int] = {}  # home -> how many times this process holds it
_guard = threading.Lock()


@contextmanager
def held(path: Path) -> Iterator[None]:
    """Hold an exclusive flock on the file at `path` (made if missing) for the block, waiting
    for another holder to let go; a killed holder's lock goes with its process."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


class RunLockedError(RuntimeError):
    """Another process holds the home's run lock."""


@contextmanager
def run_lock(home: Path, command: str) -> Iterator[None]:
    """Hold the home's run lock for the block, or raise RunLockedError naming the holder."""
    home = Path(home).resolve()
    with _guard:
        if home in _held:
            _held[home] += 1
            fd = None
        else:
            home.mkdir(parents=True, exist_ok=True)
            fd = os.open(home / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 512, 0).decode("utf-8", "replace").strip() or "unknown"
                os.close(fd)
                raise RunLockedError(
                    f"another qforge run is using {home} ({holder}); try again when it has finished"
                ) from None
            since = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
            note = f"pid {os.getpid()}, `qforge {command}`, since {since}".encode()
            os.ftruncate(fd, 0)
            os.pwrite(fd, note, 0)
            _held[home] = 1
    try:
        yield
    finally:
        with _guard:
            _held[home] -= 1
            if _held[home] == 0:
                del _held[home]
                if fd is not None:
                    os.ftruncate(fd, 0)
                    fcntl.flock(fd, fcntl.LOCK_UN)
                    os.close(fd)
