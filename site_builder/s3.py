"""Publish the static tree to an S3-compatible bucket behind a CDN, in a safe switch order.

Immutable files first (question files, figures, previews), then dated papers, then the keys
that change (the daily pointer last of all), so a failure part-way never leaves the pointer
naming a paper the bucket lacks. Unchanged objects are found with one paged LIST (ETag = MD5
of a single-part upload) and never uploaded again.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any

from botocore.exceptions import ClientError

from core.clock import seconds_until_rollover
from core.s3store import (
    ObjectHeaders,
    RemoteObject,
    S3ObjectStore,
    md5_hex,
    sha256_hex,
)
from core.shapes import FIGURES_PREFIX
from core.storage import ImmutableObjectError, ObjectStore
from site_builder.documents import API_PREFIX, DAILY_POINTER_KEY, daily_paper_key
from site_builder.headers import IMMUTABLE, cache_control, content_type, encoded_base

PUBLIC_PREFIX = f"{API_PREFIX}/"
PRIVATE_PREFIX = "internal/"
PAPERS_PREFIX = f"{API_PREFIX}/exams/"
CORS_EXPOSED = ("ETag", "Content-Encoding", "Content-Length", "Last-Modified")
POLICY_SID = "QforgePublicReadApi"


class PublishError(RuntimeError):
    """An upload failed; keys of later phases (the daily pointer above all) were not touched."""


@dataclass(frozen=True)
class PublishReport:
    """What one publish did."""

    uploaded: int
    skipped: int
    bytes_uploaded: int
    seconds: float
    uploaded_keys: tuple[str, ...] = field(repr=False)


@dataclass(frozen=True)
class _Item:
    key: str
    headers: ObjectHeaders
    immutable: bool


# ── Headers ───────────────────────────────────────────────────────────────────────────────────


def object_headers(key: str, timezone: str, now: dt.datetime | None = None) -> ObjectHeaders:
    """Stored headers of a key: its type, encoding and cache policy as headers.py decides them.

    A stored header cannot count down, so a `max-age` that ends at the next rollover (the daily
    pointer's) is stored as `Expires: <00:00 in timezone>` instead: every cache, CDN or browser,
    then keeps it exactly until the rollover, whenever it fetched it.
    """
    now = (now or dt.datetime.now(dt.UTC)).replace(microsecond=0)
    base, encoding = encoded_base(key)
    policy = cache_control(base, timezone, now)
    until_rollover = seconds_until_rollover(timezone, now)
    directives = [d.strip() for d in policy.split(",")]
    expires = None
    if f"max-age={until_rollover}" in directives:
        directives = [d for d in directives if not d.startswith("max-age=")]
        expires = now + dt.timedelta(seconds=until_rollover)
    return ObjectHeaders(content_type(base), ", ".join(directives), encoding, expires)


# ── Plan ──────────────────────────────────────────────────────────────────────────────────────


def public_keys(source: ObjectStore, prefixes: Sequence[str]) -> list[str]:
    """Keys under the public prefixes; refuses any prefix that would publish internal/."""
    keys: set[str] = set()
    for prefix in prefixes:
        if not prefix or PRIVATE_PREFIX.startswith(prefix) or prefix.startswith(PRIVATE_PREFIX):
            raise ValueError(f"prefix {prefix!r} would publish private keys ({PRIVATE_PREFIX})")
        keys.update(source.keys(prefix))
    return sorted(k for k in keys if not k.startswith(PRIVATE_PREFIX))


def switch_phases(items: Iterable[_Item]) -> list[list[_Item]]:
    """Figure images, other immutable files, immutable papers, mutable keys, the daily pointer:
    in that order, so nothing is public before what it names.

    Within each, compressed variants go before the plain key, as the exporter writes them.
    """
    phases: list[list[_Item]] = [[] for _ in range(10)]
    for item in items:
        base, encoding = encoded_base(item.key)
        if base == DAILY_POINTER_KEY:
            group = 4
        elif not item.immutable:
            group = 3
        elif base.startswith(PAPERS_PREFIX):
            group = 2
        else:
            group = 0 if base.startswith(FIGURES_PREFIX) else 1
        phases[2 * group + (encoding is None)].append(item)
    return [p for p in phases if p]


def _plan(keys: Sequence[str], timezone: str, now: dt.datetime) -> list[list[_Item]]:
    items = []
    for key in keys:
        headers = object_headers(key, timezone, now)
        items.append(_Item(key, headers, headers.cache_control == IMMUTABLE))
    return switch_phases(items)


# ── Upload ────────────────────────────────────────────────────────────────────────────────────


def _expires_of(head: dict[str, Any]) -> dt.datetime | None:
    """The Expires a HEAD response carries, as an aware datetime (None when absent)."""
    raw = head.get("ExpiresString")
    if raw:
        try:
            return parsedate_to_datetime(str(raw))
        except (TypeError, ValueError):
            return None
    value = head.get("Expires")
    return value if isinstance(value, dt.datetime) else None


def _already_there(
    target: S3ObjectStore, item: _Item, data: bytes, remote: RemoteObject | None
) -> bool:
    """True when the bucket holds these bytes with these headers (no upload needed)."""
    if remote is None or remote.size != len(data):
        return False
    # An ETag that is not our MD5 (KMS encryption, another tool's multipart upload): the
    # SHA-256 in the object's metadata decides, at one HEAD for each such key.
    same = remote.etag == md5_hex(data) or target.stored_sha256(item.key) == sha256_hex(data)
    if not same or item.immutable or item.headers.expires is None:
        return same
    head = target.head(item.key)  # a mutable key's expiry moves: one HEAD, few such keys
    return head is not None and _expires_of(head) == item.headers.expires


def _check_pointer(source: ObjectStore, present: set[str]) -> None:
    """Refuse to switch a daily pointer whose paper is not in the bucket."""
    data = source.get(DAILY_POINTER_KEY)
    date = json.loads(data).get("date") if data else None
    if not date or daily_paper_key(date) not in present:
        raise PublishError(f"the daily pointer names {date!r}, whose paper is not in the bucket")


def _publish_one(
    source: ObjectStore, target: S3ObjectStore, item: _Item, remote: RemoteObject | None
) -> int | None:
    """Upload one key unless already there; bytes uploaded, or None when skipped."""
    data = source.get(item.key)
    if data is None:
        raise PublishError(f"{item.key} vanished from the source store")
    if _already_there(target, item, data, remote):
        return None
    if not item.immutable:
        target.put(item.key, data, item.headers)
    elif remote is not None:
        raise ImmutableObjectError(f"{item.key} already holds different content in the bucket")
    elif not target.create(item.key, data, item.headers):
        return None
    return len(data)


def _run_phase(
    pool: ThreadPoolExecutor,
    phase: list[_Item],
    upload: Callable[[_Item], int | None],
) -> dict[str, int | None]:
    """Upload one phase in parallel; on the first failure cancel the rest and raise."""
    futures: dict[Future[int | None], str] = {pool.submit(upload, i): i.key for i in phase}
    done, pending = wait(futures, return_when=FIRST_EXCEPTION)
    failed = [f for f in done if f.exception() is not None]
    if failed:
        for f in pending:
            f.cancel()
        wait(pending)
        first = failed[0]
        raise PublishError(f"publishing {futures[first]} failed: {first.exception()}") from (
            first.exception()
        )
    return {futures[f]: f.result() for f in done}


def publish_tree(
    source: ObjectStore,
    target: S3ObjectStore,
    *,
    timezone: str,
    now: dt.datetime | None = None,
    workers: int = 8,
    prefixes: Sequence[str] = (PUBLIC_PREFIX,),
) -> PublishReport:
    """Mirror the public keys of source to the bucket: new and changed objects only, in order."""
    started = time.perf_counter()
    now = now or dt.datetime.now(dt.UTC)
    if isinstance(source, S3ObjectStore) and source.bucket == target.bucket:
        raise PublishError(
            f"the publish bucket {target.bucket!r} is the object store's own bucket, which "
            f"holds {PRIVATE_PREFIX} keys: publish to a separate public bucket"
        )
    keys = public_keys(source, prefixes)
    remote: dict[str, RemoteObject] = {}
    for prefix in prefixes:
        remote.update(target.listing(prefix))
    present = set(remote)
    outcome: dict[str, int | None] = {}
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="publish") as pool:
        for phase in _plan(keys, timezone, now):
            if any(item.key == DAILY_POINTER_KEY for item in phase):
                _check_pointer(source, present)
            done = _run_phase(
                pool, phase, lambda i: _publish_one(source, target, i, remote.get(i.key))
            )
            outcome.update(done)
            present.update(done)
    uploaded = tuple(sorted(k for k, n in outcome.items() if n is not None))
    return PublishReport(
        uploaded=len(uploaded),
        skipped=len(outcome) - len(uploaded),
        bytes_uploaded=sum(n for n in outcome.values() if n is not None),
        seconds=round(time.perf_counter() - started, 3),
        uploaded_keys=uploaded,
    )


# ── Bucket configuration ──────────────────────────────────────────────────────────────────────


def mirror_keys(
    source: ObjectStore,
    target: S3ObjectStore,
    keys: Sequence[str],
    *,
    timezone: str,
    now: dt.datetime | None = None,
) -> int:
    """Upload a few keys in the order given (what a worker job just wrote); returns bytes sent.

    Immutable keys are created only if absent, so a retried job never rewrites one.
    """
    sent = 0
    for key in keys:
        data = source.get(key)
        if data is None:
            raise PublishError(f"cannot mirror /{key}: it is not in the object store")
        target.put_immutable(key, data, object_headers(key, timezone, now))
        sent += len(data)
    return sent


def cors_rules(origins: Sequence[str] = ("*",)) -> list[dict[str, Any]]:
    """GET/HEAD from the given origins, exposing what a client needs to revalidate."""
    return [
        {
            "AllowedOrigins": list(origins),
            "AllowedMethods": ["GET", "HEAD"],
            "AllowedHeaders": ["*"],
            "ExposeHeaders": list(CORS_EXPOSED),
            "MaxAgeSeconds": 86400,
        }
    ]


def public_read_statement(target: S3ObjectStore, prefixes: Sequence[str]) -> dict[str, Any]:
    """Anonymous s3:GetObject on the public prefixes only (no listing, no internal/)."""
    return {
        "Sid": POLICY_SID,
        "Effect": "Allow",
        "Principal": "*",
        "Action": "s3:GetObject",
        "Resource": [f"arn:aws:s3:::{target.bucket}/{target.prefix}{p}*" for p in prefixes],
    }


def _read_config(call: Callable[[], dict[str, Any]], missing: str) -> dict[str, Any] | None:
    """A bucket-configuration GET, or None when the bucket has none of it yet."""
    try:
        return call()
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") == missing:
            return None
        raise


def _configure_cors(target: S3ObjectStore, origins: Sequence[str]) -> bool:
    client, bucket = target.client, target.bucket
    current = _read_config(
        lambda: dict(client.get_bucket_cors(Bucket=bucket)), "NoSuchCORSConfiguration"
    )
    wanted = cors_rules(origins)
    if current is not None and _normal_rules(current.get("CORSRules", [])) == _normal_rules(wanted):
        return False
    config: Any = {"CORSRules": wanted}
    client.put_bucket_cors(Bucket=bucket, CORSConfiguration=config)
    return True


def _normal_rules(rules: list[Any]) -> list[dict[str, Any]]:
    """CORS rules without the fields S3 adds or drops, for comparison."""
    keep = ("AllowedOrigins", "AllowedMethods", "AllowedHeaders", "ExposeHeaders", "MaxAgeSeconds")
    return [{k: rule.get(k) for k in keep} for rule in rules]


def _configure_public_access(target: S3ObjectStore) -> bool:
    """Allow a public *policy* on this bucket (ACLs stay blocked); skipped where unsupported."""
    client, bucket = target.client, target.bucket
    wanted: Any = {
        "BlockPublicAcls": True,
        "IgnorePublicAcls": True,
        "BlockPublicPolicy": False,
        "RestrictPublicBuckets": False,
    }
    try:
        current = _read_config(
            lambda: dict(client.get_public_access_block(Bucket=bucket)),
            "NoSuchPublicAccessBlockConfiguration",
        )
        if current is not None and current.get("PublicAccessBlockConfiguration") == wanted:
            return False
        client.put_public_access_block(Bucket=bucket, PublicAccessBlockConfiguration=wanted)
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") in {"NotImplemented", "MethodNotAllowed"}:
            return False  # an S3-compatible server without Block Public Access
        raise
    return True


def _normal_statement(statement: dict[str, Any]) -> dict[str, Any]:
    """A statement with one-item lists and strings made alike, as S3 may return either."""
    out = dict(statement)
    for name in ("Action", "Resource"):
        value = out.get(name)
        out[name] = sorted([value] if isinstance(value, str) else value or [])
    if out.get("Principal") in ({"AWS": "*"}, {"AWS": ["*"]}):
        out["Principal"] = "*"
    return out


def _configure_policy(target: S3ObjectStore, prefixes: Sequence[str]) -> bool:
    """Add or replace our statement, keeping any others the bucket's policy has."""
    client, bucket = target.client, target.bucket
    current = _read_config(
        lambda: dict(client.get_bucket_policy(Bucket=bucket)), "NoSuchBucketPolicy"
    )
    policy: dict[str, Any] = json.loads(current["Policy"]) if current else {}
    policy.setdefault("Version", "2012-10-17")
    statements = policy.get("Statement", [])
    statements = [statements] if isinstance(statements, dict) else list(statements)
    ours = [_normal_statement(s) for s in statements if s.get("Sid") == POLICY_SID]
    others = [s for s in statements if s.get("Sid") != POLICY_SID]
    wanted = public_read_statement(target, prefixes)
    if ours == [_normal_statement(wanted)]:
        return False
    policy["Statement"] = [*others, wanted]
    client.put_bucket_policy(Bucket=bucket, Policy=json.dumps(policy))
    return True


def configure_bucket(
    target: S3ObjectStore,
    *,
    origins: Sequence[str] = ("*",),
    public_read: bool = True,
    prefixes: Sequence[str] = (PUBLIC_PREFIX,),
) -> tuple[str, ...]:
    """CORS for browsers and public read of the API keys; idempotent; names what it changed.

    With `public_read=False` (a CDN that reads the bucket with its own identity, such as
    CloudFront origin access control) only CORS is set and the bucket stays private.
    """
    target.check_bucket()
    changed = []
    if _configure_cors(target, origins):
        changed.append("cors")
    if public_read:
        if _configure_public_access(target):
            changed.append("public_access_block")
        if _configure_policy(target, prefixes):
            changed.append("policy")
    return tuple(changed)
