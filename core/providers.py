"""Provider wiring that needs nothing but settings: the object store."""

from __future__ import annotations

from core.settings import Settings
from core.storage import LocalObjectStore, ObjectStore


def object_store(settings: Settings) -> ObjectStore:
    """The configured object store (the local directory under QFORGE_HOME by default)."""
    if settings.object_store == "local":
        return LocalObjectStore(settings.store_dir)
    raise ValueError(f"unsupported object store {settings.object_store!r}")
