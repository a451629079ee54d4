"""Object-store benchmark: put_new / get / keys throughput of our stores against obstore and
fsspec, in the same process, on the same files.

Run with `python -m bench.storage [--files 5000] [--s3-files 400] [--repeat 3]`.

Local disk: N question-sized files (4 KiB, distinct bytes) under `api/v1/questions/`, written
create-if-absent into a fresh directory each repeat by
- ours, `LocalObjectStore.put_new` into a directory that does not exist yet (a first export:
  staging directory, one sync, one rename) and into one that does (temp file, one sync,
  no-clobber link each), then `flush`;
- obstore's `LocalStore.put(..., mode="create")` per file (temp file, hard link, no sync),
  then one `os.sync()` so the bytes are on disk as ours are;
- fsspec's `LocalFileSystem.open(path, "xb")` per file (written in place), then `os.sync()`.
Then each reads back (`get`) and lists (`keys`) one and the same tree. `put_immutable`, one synced
file a call as the worker keeps answer logs, is timed against the look-then-replace it was
before it named keys by a no-clobber link. Each store's writes go
in turn within a repeat, so the disk's drift hits each alike; figures are medians.

S3: the same kind of files against moto's S3 server run as its own process (in this process it
would compete for the GIL with the client being measured), one request at a time and from 8
threads: ours, `S3ObjectStore` over boto3 (`put_new` = PUT If-None-Match: *, `get`, `keys` =
paged LIST), against obstore's `S3Store` (`put(mode="create")`, `get`, `list`). Moto answers
in Python on the same 2 cores, so wall time is mostly moto's; the client's own CPU time per
request (this process's CPU, every thread) is what tells the two clients apart.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import obstore
from fsspec.implementations.local import LocalFileSystem
from obstore.exceptions import AlreadyExistsError
from obstore.store import LocalStore, S3Store

from core.storage import OBJECT_SUFFIX, LocalObjectStore

PREFIX = "api/v1/questions/"
SIZE = 4096  # one question file is about 4 KiB (bench/export.py)


@dataclass(frozen=True)
class Row:
    """One store's figures for one operation (medians of the repeats)."""

    store: str
    operation: str
    files: int
    seconds: float
    cpu_seconds: float  # this process's CPU time, every thread

    @property
    def per_second(self) -> float:
        return self.files / self.seconds if self.seconds else float("inf")

    @property
    def cpu_ms_per_file(self) -> float:
        return 1000 * self.cpu_seconds / self.files


def payloads(n: int) -> list[tuple[str, bytes]]:
    """n distinct question-sized files keyed as the exporter keys them."""
    return [(f"{PREFIX}q-{i:06d}", i.to_bytes(8, "big") * (SIZE // 8)) for i in range(n)]


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of run()."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def median_row(store: str, operation: str, files: int, runs: Sequence[tuple[float, float]]) -> Row:
    return Row(
        store,
        operation,
        files,
        statistics.median(w for w, _ in runs),
        statistics.median(c for _, c in runs),
    )


# ── Local disk ────────────────────────────────────────────────────────────────────────────────


def ours_put_new(root: Path, items: list[tuple[str, bytes]], existing_dir: bool) -> None:
    store = LocalObjectStore(root)
    if existing_dir:
        os.makedirs(root / PREFIX, exist_ok=True)
    assert store.put_new(items) == []
    store.flush()


def obstore_put_new(root: Path, items: list[tuple[str, bytes]]) -> None:
    # The same file names as ours (key + suffix), so one reader can check both trees.
    store = LocalStore(str(root), mkdir=True)
    for key, data in items:
        obstore.put(store, key + OBJECT_SUFFIX, data, mode="create")
    os.sync()  # obstore syncs nothing: without this its figure would not include the disk


def fsspec_put_new(root: Path, items: list[tuple[str, bytes]]) -> None:
    fs = LocalFileSystem()
    fs.makedirs(str(root / PREFIX), exist_ok=True)
    for key, data in items:
        with fs.open(f"{root}/{key}{OBJECT_SUFFIX}", "xb") as fh:  # O_EXCL, in place
            fh.write(data)
    os.sync()


def ours_get(root: Path, keys: list[str]) -> None:
    store = LocalObjectStore(root)
    for key in keys:
        assert store.get(key) is not None


def obstore_get(root: Path, keys: list[str]) -> None:
    store = LocalStore(str(root))
    for key in keys:
        assert obstore.get(store, key + OBJECT_SUFFIX).bytes()


def fsspec_get(root: Path, keys: list[str]) -> None:
    fs = LocalFileSystem()
    for key in keys:
        assert fs.cat_file(f"{root}/{key}{OBJECT_SUFFIX}")


def ours_keys(root: Path, n: int) -> None:
    assert len(LocalObjectStore(root).keys(PREFIX)) == n


def obstore_keys(root: Path, n: int) -> None:
    store = LocalStore(str(root))
    found = sorted(
        meta["path"].removesuffix(OBJECT_SUFFIX)
        for batch in obstore.list(store, PREFIX)
        for meta in batch
    )
    assert len(found) == n


def fsspec_keys(root: Path, n: int) -> None:
    found = sorted(
        p.removeprefix(f"{root}/").removesuffix(OBJECT_SUFFIX)
        for p in LocalFileSystem().find(str(root / PREFIX))
    )
    assert len(found) == n


def ours_put_immutable(root: Path, items: list[tuple[str, bytes]]) -> None:
    store = LocalObjectStore(root)
    for key, data in items:
        store.put_immutable(key, data)


def look_then_replace(root: Path, items: list[tuple[str, bytes]]) -> None:
    """`put_immutable` before it named keys by a no-clobber link: racers could both write."""
    store = LocalObjectStore(root)
    for key, data in items:
        if store.get(key) is None:
            store.put(key, data)


def local_rows(files: int, repeat: int, base: Path) -> list[Row]:
    """Every local store's put_new into its own fresh tree; get and keys on one shared tree."""
    items = payloads(files)
    keys = [k for k, _ in items]
    writers: dict[str, Callable[[Path], None]] = {
        "ours, first export (staging dir)": lambda r: ours_put_new(r, items, False),
        "ours, existing directory": lambda r: ours_put_new(r, items, True),
        "obstore LocalStore": lambda r: obstore_put_new(r, items),
        "fsspec LocalFileSystem": lambda r: fsspec_put_new(r, items),
    }
    # One synced file a call, as the worker keeps answer logs and static copies.
    one_by_one: dict[str, Callable[[Path], None]] = {
        "ours, no-clobber link": lambda r: ours_put_immutable(r, items),
        "look, then replace (the baseline)": lambda r: look_then_replace(r, items),
    }
    readers: dict[str, tuple[Callable[[Path], None], Callable[[Path], None]]] = {
        "ours": (lambda r: ours_get(r, keys), lambda r: ours_keys(r, files)),
        "obstore LocalStore": (lambda r: obstore_get(r, keys), lambda r: obstore_keys(r, files)),
        "fsspec LocalFileSystem": (lambda r: fsspec_get(r, keys), lambda r: fsspec_keys(r, files)),
    }
    runs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    shared = base / "shared"
    LocalObjectStore(shared).put_new(items)
    for _ in range(repeat):
        for name, write in writers.items():
            root = Path(tempfile.mkdtemp(dir=base))
            runs.setdefault((name, "put_new"), []).append(timed(partial(write, root)))
            shutil.rmtree(root)
        for name, write in one_by_one.items():
            root = Path(tempfile.mkdtemp(dir=base))
            runs.setdefault((name, "put_immutable"), []).append(timed(partial(write, root)))
            shutil.rmtree(root)
        for name, (get, list_keys) in readers.items():
            runs.setdefault((name, "get"), []).append(timed(partial(get, shared)))
            runs.setdefault((name, "keys"), []).append(timed(partial(list_keys, shared)))
    return [median_row(s, op, files, t) for (s, op), t in runs.items()]


# ── S3 (moto) ─────────────────────────────────────────────────────────────────────────────────


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def moto_endpoint() -> Iterator[str]:
    """moto's S3 server in a process of its own, so its CPU is not counted as the client's."""
    os.environ.update(
        AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench", AWS_DEFAULT_REGION="us-east-1"
    )
    port = free_port()
    server = subprocess.Popen(
        [str(Path(sys.executable).with_name("moto_server")), "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError("moto_server did not start")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def fan_out(
    call: Callable[[tuple[str, bytes]], object], items: list[tuple[str, bytes]], n: int
) -> None:
    """call on every item, from n threads (n = 1: in this thread, one request at a time)."""
    if n == 1:
        for item in items:
            call(item)
        return
    with ThreadPoolExecutor(max_workers=n) as pool:
        list(pool.map(call, items))


def obstore_s3(endpoint: str, bucket: str) -> S3Store:
    return S3Store(
        bucket,
        endpoint=endpoint,
        region="us-east-1",
        client_options={"allow_http": True},
        access_key_id="bench",
        secret_access_key="bench",
    )


def s3_runs(
    endpoint: str, items: list[tuple[str, bytes]], threads: int
) -> list[tuple[str, str, Callable[[], object]]]:
    """The six timed runs on a fresh bucket: put_new, get and keys by ours and by obstore."""
    from core.s3store import S3ObjectStore, s3_client

    bucket = f"bench-{uuid.uuid4().hex[:12]}"
    client = s3_client(endpoint, "us-east-1", max_connections=threads)
    client.create_bucket(Bucket=bucket)
    ours = S3ObjectStore(client, bucket, "ours")
    theirs = obstore_s3(endpoint, bucket)
    ours.get("warm-up")  # credentials and the connection pool: not part of the figures
    obstore.list(theirs, "warm-up").collect()

    def obstore_create(item: tuple[str, bytes]) -> bool:
        try:
            obstore.put(theirs, "obstore/" + item[0], item[1], mode="create")
        except AlreadyExistsError:
            return False
        return True

    def obstore_read(item: tuple[str, bytes]) -> bytes:
        return bytes(obstore.get(theirs, "obstore/" + item[0]).bytes())

    def obstore_keys_s3() -> list[str]:
        listed = obstore.list(theirs, "obstore/" + PREFIX)
        return sorted(m["path"] for batch in listed for m in batch)

    return [
        ("ours (boto3)", "put_new", lambda: fan_out(lambda i: ours.put_new([i]), items, threads)),
        ("obstore S3Store", "put_new", lambda: fan_out(obstore_create, items, threads)),
        ("ours (boto3)", "get", lambda: fan_out(lambda i: ours.get(i[0]), items, threads)),
        ("obstore S3Store", "get", lambda: fan_out(obstore_read, items, threads)),
        ("ours (boto3)", "keys", lambda: ours.keys(PREFIX)),
        ("obstore S3Store", "keys", obstore_keys_s3),
    ]


def s3_rows(files: int, repeat: int) -> list[Row]:
    """ours (boto3) against obstore on moto: put_new, get and keys, 1 and 8 at a time."""
    items = payloads(files)
    runs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with moto_endpoint() as endpoint:
        for _ in range(repeat):
            for threads in (1, 8):
                for store, operation, run in s3_runs(endpoint, items, threads):
                    if operation == "keys" and threads > 1:
                        continue  # one paged LIST either way
                    label = f"{store}, {threads} thread{'s' if threads > 1 else ''}"
                    runs.setdefault((label, operation), []).append(timed(run))
    return [median_row(s, op, files, t) for (s, op), t in runs.items()]


# ── Report ────────────────────────────────────────────────────────────────────────────────────


def table(title: str, rows: list[Row]) -> str:
    head = (
        f"{'store':<34} {'operation':<13} {'files':>6} {'s':>7} {'files/s':>8} {'CPU ms/file':>11}"
    )
    lines = [f"\n{title}", head]
    for row in sorted(rows, key=lambda r: (r.operation, -r.per_second)):
        lines.append(
            f"{row.store:<34} {row.operation:<13} {row.files:>6} {row.seconds:>7.3f} "
            f"{row.per_second:>8,.0f} {row.cpu_ms_per_file:>11.3f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--s3-files", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None, help="where local files are written")
    args = parser.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="bench-storage-", dir=args.dir))
    try:
        print(table(f"Local disk ({base})", local_rows(args.files, args.repeat, base)))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    if args.s3_files:
        print(table("S3 (moto_server on 127.0.0.1)", s3_rows(args.s3_files, args.repeat)))


if __name__ == "__main__":
    main()
