"""Debian packages a test needs (Chromium for the previews, Java for OPSIN), installed on first use
by apt-get, or the test is skipped saying what is missing and how to install it."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest

APT_LOCK = Path(tempfile.gettempdir()) / "qforge-apt.lock"


def _apt_get(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    return subprocess.run(
        ["apt-get", *args], capture_output=True, text=True, env=env, timeout=1200, check=False
    )


def ensure_debian_packages(
    packages: tuple[str, ...], present: Callable[[], bool], need: str
) -> None:
    """Install `packages` unless `present()`; skip the test, naming `need`, when that fails.

    Parallel test sessions take a lock: one installs, the others wait and find it done. The time
    an install took is printed (pytest shows it with -s or on failure)."""
    if present():
        return
    hint = f"{need} (Debian: apt-get install {' '.join(packages)})"
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip(f"not installed and cannot install it here: {hint}")
    started = time.perf_counter()
    with APT_LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if present():
            return
        args = ("install", "-y", "--no-install-recommends", *packages)
        done = _apt_get(*args)
        if done.returncode != 0:  # stale or missing package lists
            _apt_get("update")
            done = _apt_get(*args)
        if done.returncode != 0 or not present():
            pytest.skip(f"could not install {hint}: {done.stderr.strip()[-500:]}")
    print(f"installed {' '.join(packages)} in {time.perf_counter() - started:.1f} s")


def ensure_java() -> None:
    """A Java runtime for OPSIN (py2opsin runs its jar), installed on first use."""
    ensure_debian_packages(
        ("default-jre-headless",), lambda: shutil.which("java") is not None, "a Java runtime"
    )
