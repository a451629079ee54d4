"""Provider protocols and the wiring that needs nothing but settings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np
from numpy.typing import NDArray

from core.settings import Settings
from core.storage import LocalObjectStore, ObjectStore

if TYPE_CHECKING:
    from core.s3store import S3ObjectStore


def object_store(settings: Settings) -> ObjectStore:
    """The configured object store (the local directory under QFORGE_HOME by default)."""
    if settings.object_store == "local":
        return LocalObjectStore(settings.store_dir)
    if settings.object_store == "s3":
        from core.s3store import S3ObjectStore, s3_client  # boto3 costs 0.3 s to import

        assert settings.s3_bucket is not None  # Settings refuses s3 without a bucket
        client = s3_client(settings.s3_endpoint_url, settings.s3_region)
        return S3ObjectStore(client, settings.s3_bucket, settings.s3_prefix)
    raise ValueError(f"unsupported object store {settings.object_store!r}")


def publish_target(settings: Settings) -> S3ObjectStore:
    """The public bucket `qforge publish` mirrors the static tree to."""
    from core.s3store import S3ObjectStore, s3_client

    if not settings.publish_bucket:
        raise ValueError("set QFORGE_PUBLISH_BUCKET to the public bucket to publish to")
    client = s3_client(
        settings.publish_endpoint_url or settings.s3_endpoint_url,
        settings.publish_region or settings.s3_region,
        max_connections=settings.publish_workers,
    )
    return S3ObjectStore(client, settings.publish_bucket, settings.publish_prefix)


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors; `model_id` names the model exactly."""

    @property
    def model_id(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]: ...
