"""Provider protocols and the wiring that needs nothing but settings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from core.settings import Settings
from core.storage import LocalObjectStore, ObjectStore


def object_store(settings: Settings) -> ObjectStore:
    """The configured object store (the local directory under QFORGE_HOME by default)."""
    if settings.object_store == "local":
        return LocalObjectStore(settings.store_dir)
    raise ValueError(f"unsupported object store {settings.object_store!r}")


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors; `model_id` names the model exactly."""

    @property
    def model_id(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]: ...
