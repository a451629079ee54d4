"""The worker's local development API key, made once per QFORGE_HOME when no keys are set."""

from __future__ import annotations

import secrets
from pathlib import Path


def dev_api_key(path: Path) -> str:
    """The local development key, made once per QFORGE_HOME (used when no keys are set)."""
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = "qf-dev-" + secrets.token_urlsafe(18)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(key + "\n")
    tmp.replace(path)
    return key
