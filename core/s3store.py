"""The ObjectStore protocol over any S3-compatible bucket (AWS, MinIO, R2, Ceph, …) via boto3.

Credentials are never settings: boto3 finds them in its standard chain (AWS_ACCESS_KEY_ID /
AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, AWS_PROFILE and ~/.aws, an instance or task role).

boto3 rather than obstore's S3Store, though obstore costs less CPU a request (bench/storage.py):
obstore cannot store an Expires header (the daily pointer's), its HEAD returns no user metadata
(the SHA-256 that put_immutable and publishing compare), a missing bucket reaches it as a
missing key, and it has no bucket configuration (CORS, policy), so boto3 would stay anyway and
obstore would be a second S3 client beside it. BENCHMARKS.md, "Object store", says more.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError, NoCredentialsError, PartialCredentialsError

from core.storage import ImmutableObjectError, validate_key

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client
else:
    S3Client = Any

SHA256_METADATA = "sha256"
DEFAULT_CONTENT_TYPE = "application/octet-stream"
_MISSING = {"404", "NoSuchKey", "NotFound"}
_DENIED = {"AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "403"}


class S3StoreError(RuntimeError):
    """An S3 call failed for a reason a user can fix (named in the message)."""


class BucketMissingError(S3StoreError):
    """The configured bucket does not exist at the endpoint."""


class S3CredentialsError(S3StoreError):
    """No usable credentials were found, or the endpoint refused them."""


@dataclass(frozen=True)
class ObjectHeaders:
    """The HTTP headers an object is stored with and later served with."""

    content_type: str = DEFAULT_CONTENT_TYPE
    cache_control: str | None = None
    content_encoding: str | None = None
    expires: dt.datetime | None = None


@dataclass(frozen=True)
class RemoteObject:
    """What one listing says about a stored object: enough to skip unchanged uploads."""

    etag: str
    size: int


def sha256_hex(data: bytes) -> str:
    """The content hash every object carries in its metadata."""
    return hashlib.sha256(data).hexdigest()


def md5_hex(data: bytes) -> str:
    """The ETag S3 gives a single-part upload without KMS encryption."""
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def s3_client(
    endpoint_url: str | None = None, region: str | None = None, max_connections: int = 10
) -> S3Client:
    """A thread-safe S3 client for any endpoint; credentials come from boto3's standard chain."""
    config = Config(
        region_name=region,
        max_pool_connections=max_connections,
        retries={"mode": "standard", "max_attempts": 5},
        # Send checksums only where S3 demands them: several S3-compatible servers refuse the
        # newer default trailing checksums. Every put carries Content-MD5 instead.
        request_checksum_calculation="when_required",
        response_checksum_validation="when_required",
    )
    client: S3Client = boto3.client("s3", endpoint_url=endpoint_url, config=config)
    return client


def _code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def normalise_prefix(prefix: str) -> str:
    """'' or a clean key prefix ending in '/' ('site' and '/site/' both become 'site/')."""
    stripped = prefix.strip("/")
    return validate_key(stripped) + "/" if stripped else ""


class S3ObjectStore:
    """Keys live at `prefix + key` in one bucket; every object records its SHA-256 in metadata."""

    def __init__(self, client: S3Client, bucket: str, prefix: str = "") -> None:
        if not bucket:
            raise ValueError("an S3 object store needs a bucket name")
        self.client = client
        self.bucket = bucket
        self.prefix = normalise_prefix(prefix)

    @property
    def endpoint(self) -> str:
        """The endpoint URL the client talks to (for messages)."""
        return str(self.client.meta.endpoint_url)

    def name_for(self, key: str) -> str:
        """The object name of key in the bucket."""
        return self.prefix + validate_key(key)

    @contextmanager
    def _named_errors(self, key: str = "") -> Iterator[None]:
        """Turn the failures a user can fix into errors that say what to do."""
        where = f"s3://{self.bucket}/{self.prefix}{key} at {self.endpoint}"
        try:
            yield
        except (NoCredentialsError, PartialCredentialsError) as exc:
            raise S3CredentialsError(
                f"no AWS credentials for {where}: set AWS_ACCESS_KEY_ID and "
                "AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or run with an instance role"
            ) from exc
        except ClientError as exc:
            code = _code(exc)
            if code == "NoSuchBucket":
                raise BucketMissingError(
                    f"bucket {self.bucket!r} does not exist at {self.endpoint}: create it "
                    "or fix the bucket setting"
                ) from exc
            if code in _DENIED:
                raise S3CredentialsError(f"access denied ({code}) to {where}") from exc
            raise

    def check_bucket(self) -> None:
        """Raise BucketMissingError or S3CredentialsError unless the bucket is reachable."""
        try:
            with self._named_errors():
                self.client.head_bucket(Bucket=self.bucket)
        except ClientError as exc:
            if _code(exc) in _MISSING:
                raise BucketMissingError(
                    f"bucket {self.bucket!r} does not exist at {self.endpoint}: create it "
                    "or fix the bucket setting"
                ) from exc
            raise

    def get(self, key: str) -> bytes | None:
        """The object's bytes, or None when there is no such key."""
        try:
            with self._named_errors(key):
                response = self.client.get_object(Bucket=self.bucket, Key=self.name_for(key))
        except ClientError as exc:
            if _code(exc) in _MISSING:
                return None
            raise
        return response["Body"].read()

    def head(self, key: str) -> dict[str, Any] | None:
        """The object's HEAD response, or None when there is no such key."""
        try:
            with self._named_errors(key):
                return dict(self.client.head_object(Bucket=self.bucket, Key=self.name_for(key)))
        except ClientError as exc:
            if _code(exc) in _MISSING:
                return None
            raise

    def exists(self, key: str) -> bool:
        return self.head(key) is not None

    def keys(self, prefix: str) -> list[str]:
        """Every stored key that starts with prefix, sorted."""
        return sorted(self.listing(prefix))

    def listing(self, prefix: str) -> dict[str, RemoteObject]:
        """Each key under prefix with its ETag and size: one paged LIST, no request per key."""
        found: dict[str, RemoteObject] = {}
        pages = self.client.get_paginator("list_objects_v2").paginate(
            Bucket=self.bucket, Prefix=self.prefix + prefix
        )
        with self._named_errors(prefix):
            for page in pages:
                for item in page.get("Contents", []):
                    key = item["Key"].removeprefix(self.prefix)
                    found[key] = RemoteObject(item["ETag"].strip('"'), item["Size"])
        return found

    def write(
        self,
        key: str,
        data: bytes,
        headers: ObjectHeaders | None = None,
        *,
        if_absent: bool = False,
    ) -> None:
        """One single-part PUT with headers, Content-MD5 and the SHA-256 in metadata."""
        h = headers or ObjectHeaders()
        args: dict[str, Any] = {
            "Bucket": self.bucket,
            "Key": self.name_for(key),
            "Body": data,
            "ContentType": h.content_type,
            "ContentMD5": base64.b64encode(
                hashlib.md5(data, usedforsecurity=False).digest()
            ).decode(),
            "Metadata": {SHA256_METADATA: sha256_hex(data)},
        }
        if h.cache_control:
            args["CacheControl"] = h.cache_control
        if h.content_encoding:
            args["ContentEncoding"] = h.content_encoding
        if h.expires:
            args["Expires"] = h.expires
        if if_absent:
            args["IfNoneMatch"] = "*"
        with self._named_errors(key):
            self.client.put_object(**args)

    def flush(self) -> None:
        """Nothing to do: an S3 put is durable when it returns."""

    def exclusive(self, name: str) -> AbstractContextManager[None]:
        """No cross-process lock on S3: one run per QFORGE_HOME (core.runlock) is the writer."""
        return nullcontext()

    def put_new(self, items: Iterable[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
        """Write the keys that do not exist yet (one request each); return the items that did."""
        present: list[tuple[str, bytes]] = []
        for key, data in items:
            try:
                self.write(key, data, None, if_absent=True)  # atomic: one writer wins
            except ClientError as exc:
                code = _code(exc)
                if code in {"PreconditionFailed", "412", "ConditionalRequestConflict"}:
                    present.append((key, data))
                elif code != "NotImplemented":
                    raise
                elif self.exists(key):  # an endpoint without conditional writes
                    present.append((key, data))
                else:
                    self.put(key, data)
        return present

    def delete(self, key: str) -> None:
        """Remove key if present (only for internal bookkeeping: published keys are immutable)."""
        with self._named_errors(key):
            self.client.delete_object(Bucket=self.bucket, Key=self.name_for(key))

    def put(self, key: str, data: bytes, headers: ObjectHeaders | None = None) -> None:
        """Write or replace key (S3 replaces whole objects: readers see old or new bytes)."""
        self.write(key, data, headers)

    def stored_sha256(self, key: str) -> str | None:
        """The SHA-256 of the object at key (from metadata, else of its bytes); None if absent."""
        head = self.head(key)
        if head is None:
            return None
        recorded = head.get("Metadata", {}).get(SHA256_METADATA)
        if recorded:
            return str(recorded)
        data = self.get(key)
        return None if data is None else sha256_hex(data)

    def _refuse_if_different(self, key: str, data: bytes) -> bool:
        """False if key holds these bytes; ImmutableObjectError naming the key if others."""
        if self.stored_sha256(key) != sha256_hex(data):
            raise ImmutableObjectError(f"{key} already holds different content")
        return False

    def create(self, key: str, data: bytes, headers: ObjectHeaders | None = None) -> bool:
        """Write key only if absent (If-None-Match: *); True if written, False if already same."""
        try:
            self.write(key, data, headers, if_absent=True)
        except ClientError as exc:
            code = _code(exc)
            if code in {"PreconditionFailed", "412", "ConditionalRequestConflict"}:
                return self._refuse_if_different(key, data)
            if code != "NotImplemented":
                raise
            self.write(key, data, headers)  # an endpoint without conditional writes
        return True

    def put_immutable(self, key: str, data: bytes, headers: ObjectHeaders | None = None) -> bool:
        """Write key once; True if written, False if the same bytes were there, error if others."""
        if self.head(key) is not None:
            return self._refuse_if_different(key, data)
        return self.create(key, data, headers)
