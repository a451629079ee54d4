"""Worker load benchmark: 100 concurrent clients against `qforge api` on loopback.

Run with `python -m bench.worker [--clients 100 --seconds 15 --think 1.0]`. It builds a realistic
pool into a temporary QFORGE_HOME (`qforge pool fill --per-unit`, then `qforge nightly
--no-prefect`, which publishes the pool snapshot the worker samples), starts the worker as a
subprocess on a free 127.0.0.1 port, and drives it from this process (asyncio, one httpx
connection and one API key per client). Before every action a client thinks for 0.5-1.5 × the
mean think time. Its round trip: POST a practice request the snapshot serves in full, then GET
the job at once (timed together as "POST + first poll"); then a few polls of its own earlier
jobs, each timed alone; then, with --attempts (default: after every round trip), it posts the
answers of its class as one answer log (`POST /api/v1/attempts`, 100 rows of real question ids,
10 of them bad in one way or another, so refused per row; timed alone). A small share of round
trips ask for a full exam (their own row).

The baseline in the same run: the same clients, think time and request count against a static
question file served by the same process (`GET /api/v1/questions/{id}`), the floor of the HTTP
stack; and the old mix, without answer logs, against which the mix with them is measured (with
--rounds N the two take turns N times, so that other load on the machine falls on both). Any
non-2xx answer, exception, job not COMPLETED with every question asked for, or receipt not
refusing exactly the bad rows is an error. Targets: pool-served practice p99 ≤ 50 ms for both
rows, and p99 of the whole mix (every timed action) ≤ 50 ms, with zero errors.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import numpy as np
import polars as pl

API = "/api/v1"
TARGET_P99_MS = 50.0
SNAPSHOT_FILE = "store/internal/pool/snapshot.parquet.obj"
EXAM_BODY = {
    "exam_type": "NEET_UG",
    "difficulty_distribution": {"easy": 0.3, "medium": 0.5, "hard": 0.2},
    "subjects": ["Physics", "Chemistry", "Botany", "Zoology"],
}
EXAM_QUESTIONS = 180  # 45 per subject
BATCH_ROWS, BAD_ROWS = 100, 10
LEARNER = "3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f"
# Bad rows, each refused for one reason: an unknown question, a key outside A-D, a time out of
# range, an email as the learner.
BAD_CHANGES = (
    {"question_id": "q-00000000000000000000"},
    {"chosen_key": "E"},
    {"seconds": -1},
    {"learner_id": "student@example.com"},
)


# ── Set-up: a pool, a worker ─────────────────────────────────────────────────────────────────
def qforge(home: Path, log: Path, *args: str) -> float:
    """Run a qforge command against home (output to log); returns its wall time."""
    env = {**os.environ, "QFORGE_HOME": str(home)}
    started = time.perf_counter()
    with log.open("ab") as out:
        done = subprocess.run(
            [sys.executable, "-m", "flows.cli", *args], env=env, stdout=out, stderr=out
        )
    if done.returncode:
        raise SystemExit(f"`qforge {' '.join(args)}` failed ({done.returncode}); see {log}")
    return time.perf_counter() - started


def prepare_home(home: Path, per_cell: int, log: Path) -> None:
    """A pool of about 168 × per_cell questions, today's paper, the static tree and the snapshot."""
    if (home / SNAPSHOT_FILE).exists():
        print(f"reusing the pool snapshot in {home}")
        return
    fill = qforge(home, log, "pool", "fill", "--per-unit", "--per-cell", str(per_cell))
    nightly = qforge(home, log, "nightly", "--no-prefect")
    print(f"set-up: `qforge pool fill --per-unit` {fill:.1f} s, `qforge nightly` {nightly:.1f} s")


def servable_cells(home: Path, count: int) -> tuple[int, list[tuple[str, str]]]:
    """Pool size, and the (topic, difficulty) cells the snapshot serves `count` questions of."""
    snapshot = pl.read_parquet(home / SNAPSHOT_FILE).filter(~pl.col("withdrawn"))
    cells = (
        snapshot.group_by("topic_id", "difficulty")
        .agg(pl.col("near_duplicate_group").n_unique().alias("groups"))
        .filter(pl.col("groups") >= count)
        .sort("topic_id", "difficulty")
    )
    return snapshot.height, [(t, d) for t, d in cells.select("topic_id", "difficulty").rows()]


def static_question_ids(home: Path) -> list[str]:
    """Ids of the exported question files (the static baseline's URLs)."""
    found = re.compile(r"^(q-[0-9a-f]+)\.obj$")
    names = os.listdir(home / "store" / "api" / "v1" / "questions")
    return sorted(m.group(1) for n in names if (m := found.match(n)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Worker:
    """`qforge api` as a subprocess, with its output in a log file (a pipe could fill up)."""

    command = (sys.executable, "-m", "flows.cli", "api")

    def __init__(self, home: Path, keys: list[str], log: Path, workers: int = 1) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "QFORGE_HOME": str(home),
            "QFORGE_API_KEYS": ",".join(keys),
            # One key per client keeps one bucket per client, as in real use; the limits are
            # raised so that the bench measures latency, not the limiter's 429s.
            "QFORGE_RATE_LIMIT_PER_MINUTE": "1000000",
            "QFORGE_RATE_LIMIT_BURST": "10000",
            "QFORGE_FEEDBACK_RATE_LIMIT_PER_MINUTE": "1000000",
            "QFORGE_FEEDBACK_RATE_LIMIT_BURST": "10000",
            "QFORGE_API_WORKERS": str(workers),
        }
        self.log = log
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                [*self.command, "--host", "127.0.0.1", "--port", str(self.port)],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def wait_ready(self, timeout: float = 120.0) -> float:
        started = time.perf_counter()
        while time.perf_counter() - started < timeout:
            if self.proc.poll() is not None:
                raise SystemExit(f"the worker exited ({self.proc.returncode}); see {self.log}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/healthz", timeout=1.0).status_code == 200:
                    return time.perf_counter() - started
            time.sleep(0.2)
        raise SystemExit(f"the worker did not answer /healthz in {timeout:.0f} s; see {self.log}")

    def cpu_seconds(self) -> float:
        """User + system CPU time of the worker process so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def machine_busy() -> tuple[float, float]:
    """Busy CPU seconds of the whole machine so far (/proc/stat), and seconds in which some task
    waited for the disk (/proc/pressure/io: an fsync-bound worker slows down when others write)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    io = Path("/proc/pressure/io")
    stalled = int(io.read_text().split("total=")[1].split()[0]) / 1e6 if io.exists() else 0.0
    return (sum(values) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK"), stalled


# ── Load ─────────────────────────────────────────────────────────────────────────────────────
@dataclass
class Phase:
    """What one phase recorded: latencies in seconds by row, errors by description."""

    seconds: float = 0.0
    requests: int = 0
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)
    worker_cpu: float = 0.0
    client_cpu: float = 0.0
    machine_cpu: float = 0.0
    io_stall: float = 0.0
    loop_lag: list[float] = field(default_factory=list)

    def record(self, row: str, seconds: float) -> None:
        self.latencies.setdefault(row, []).append(seconds)

    def add(self, other: Phase) -> None:
        """Another phase's records added to these (rounds of one load, taken apart in time)."""
        for name in ("seconds", "requests", "worker_cpu", "client_cpu", "machine_cpu", "io_stall"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for row, values in other.latencies.items():
            self.latencies.setdefault(row, []).extend(values)
        self.errors += other.errors
        self.loop_lag += other.loop_lag


@dataclass
class Client:
    """One simulated student: its own API key and its own keep-alive connection."""

    http: httpx.AsyncClient
    last: float = 0.0  # when its last answer arrived


@dataclass
class Load:
    clients: list[Client]
    cells: list[tuple[str, str]]
    question_ids: list[str]
    count: int
    think: float
    polls: int
    exam_share: float
    attempts: float = 0.0  # answer logs posted per round trip

    @property
    def cycle(self) -> float:
        """Mean seconds from one round trip to the next (a think before every action)."""
        return self.think * (1 + self.polls + self.attempts)


class Failed(Exception):
    """An answer that counts as an error (wrong status, job not COMPLETED, short result)."""


def checked(response: httpx.Response, status: int) -> dict:
    if response.status_code != status:
        code = response.json().get("error", {}).get("code", "") if response.content else ""
        raise Failed(f"{response.request.method} answered {response.status_code} {code}".strip())
    return response.json() if response.headers.get("content-type", "").endswith("json") else {}


def completed(job: dict, questions: int, what: str) -> None:
    if job.get("status") != "COMPLETED":
        raise Failed(f"{what}: status {job.get('status')} ({job.get('message')})")
    result = job.get("result")
    if result is not None and len(result.get("questions", ())) != questions:
        raise Failed(f"{what}: {len(result['questions'])} of {questions} questions")


async def timed(
    phase: Phase, client: Client, row: str, n: int, action: Callable[[], Awaitable[None]]
) -> None:
    """Run one action of n requests; record its time, or an error."""
    started = time.perf_counter()
    try:
        await action()
    except Failed as exc:
        phase.errors[f"{row}: {exc}"] += 1
    except (httpx.HTTPError, ValueError) as exc:
        idle = f" after {started - client.last:.1f} s idle" if client.last else ""
        phase.errors[f"{row}: {type(exc).__name__}: {exc}{idle}"] += 1
    else:
        phase.record(row, time.perf_counter() - started)
    client.last = time.perf_counter()
    phase.requests += n


def thinker(load: Load, deadline: float, rng: random.Random) -> Callable[[], Awaitable[bool]]:
    """A client's pauses: the first spreads the clients' starts over one cycle, each later one
    lasts 0.5-1.5 × the mean think time; False once the phase's deadline has come."""
    first = [rng.uniform(0, load.cycle)]

    async def think() -> bool:
        pause = first.pop() if first else load.think * rng.uniform(0.5, 1.5)
        left = deadline - time.perf_counter()
        await asyncio.sleep(max(0.0, min(pause, left)))
        return pause < left

    return think


async def worker_client(
    load: Load, client: Client, deadline: float, phase: Phase, rng: random.Random
) -> None:
    """POST a pool-served request and poll it at once; then poll earlier jobs alone; repeat."""
    jobs: list[str] = []
    http = client.http
    think = thinker(load, deadline, rng)

    async def practice() -> None:
        topic, difficulty = rng.choice(load.cells)
        body = {"topic_id": topic, "question_count": load.count, "difficulty": difficulty}
        ack = checked(await http.post(f"{API}/practice/generate", json=body), 202)
        completed(ack, load.count, "POST practice")
        job = checked(await http.get(f"{API}/jobs/{ack['job_id']}"), 200)
        completed(job, load.count, "first poll")
        jobs.append(ack["job_id"])

    async def exam() -> None:
        ack = checked(await http.post(f"{API}/exams/generate", json=EXAM_BODY), 202)
        completed(ack, EXAM_QUESTIONS, "POST exam")
        job = checked(await http.get(f"{API}/jobs/{ack['job_id']}"), 200)
        completed(job, EXAM_QUESTIONS, "first poll of exam")

    async def poll() -> None:
        job = checked(await http.get(f"{API}/jobs/{rng.choice(jobs)}"), 200)
        completed(job, load.count, "poll")

    async def answers() -> None:
        body = {"batch_id": f"b-{secrets.token_hex(8)}", "answers": answer_rows(load, rng)}
        got = checked(await http.post(f"{API}/attempts", json=body), 202)
        if got["accepted"] != BATCH_ROWS - BAD_ROWS or len(got["refused"]) != BAD_ROWS:
            raise Failed(f"answer log: {got['accepted']} kept, {len(got['refused'])} refused")

    while await think():
        if rng.random() < load.exam_share:
            await timed(phase, client, "exam", 2, exam)
        else:
            await timed(phase, client, "practice", 2, practice)
        for _ in range(load.polls):
            if not jobs or not await think():
                break
            await timed(phase, client, "poll", 1, poll)
        if rng.random() < load.attempts and await think():
            await timed(phase, client, "attempts", 1, answers)


def answer_rows(load: Load, rng: random.Random) -> list[dict]:
    """A class's answers to real questions, BAD_ROWS of them refusable, at random places."""
    rows = [
        {
            "question_id": rng.choice(load.question_ids),
            "exam_id": "daily-2026-11-27",
            "learner_id": LEARNER,
            "chosen_key": rng.choice(["A", "B", "C", "D", None]),
            "seconds": round(rng.uniform(5, 300), 1),
        }
        for _ in range(BATCH_ROWS)
    ]
    for i in rng.sample(range(BATCH_ROWS), BAD_ROWS):
        rows[i].update(rng.choice(BAD_CHANGES))
    return rows


async def static_client(
    load: Load, client: Client, deadline: float, phase: Phase, rng: random.Random
) -> None:
    """The same loop shape and request count, every request a static question file."""
    think = thinker(load, deadline, rng)

    async def get() -> None:
        checked(await client.http.get(f"{API}/questions/{rng.choice(load.question_ids)}"), 200)

    while await think():
        await timed(phase, client, "static", 1, get)
        await timed(phase, client, "static", 1, get)
        for _ in range(load.polls):
            if not await think():
                break
            await timed(phase, client, "static", 1, get)


async def loop_lag(phase: Phase, deadline: float, every: float = 0.01) -> None:
    """How late this event loop wakes up: the client's own share of the measured latency."""
    while time.perf_counter() < deadline:
        started = time.perf_counter()
        await asyncio.sleep(every)
        phase.loop_lag.append(time.perf_counter() - started - every)


async def run_phase(
    load: Load,
    worker: Worker,
    seconds: float,
    client_loop: Callable[..., Awaitable[None]],
    seed: int,
) -> Phase:
    phase = Phase()
    cpu0, usage0 = worker.cpu_seconds(), time.process_time()
    busy0, io0 = machine_busy()
    started = time.perf_counter()
    deadline = started + seconds
    await asyncio.gather(
        loop_lag(phase, deadline),
        *(
            client_loop(load, c, deadline, phase, random.Random(seed * 1000 + i))
            for i, c in enumerate(load.clients)
        ),
    )
    phase.seconds = time.perf_counter() - started
    phase.worker_cpu = worker.cpu_seconds() - cpu0
    phase.client_cpu = time.process_time() - usage0
    busy1, io1 = machine_busy()
    phase.machine_cpu, phase.io_stall = busy1 - busy0, io1 - io0
    return phase


# ── Report ───────────────────────────────────────────────────────────────────────────────────
def percentiles(values: list[float]) -> tuple[float, float, float, float]:
    """p50, p95, p99 and max in milliseconds (linear interpolation between ranks)."""
    if not values:
        return (float("nan"),) * 4
    a = np.asarray(values) * 1e3
    p50, p95, p99 = np.percentile(a, [50, 95, 99])
    return float(p50), float(p95), float(p99), float(a.max())


ROWS = {
    "static": "baseline: static GET /questions/{id}",
    "practice": "POST practice + first poll",
    "poll": "poll alone (GET /jobs/{id})",
    "exam": "POST exam + first poll",
    "attempts": "POST answer log (100 rows)",
}


def report(title: str, phase: Phase, clients: int) -> None:
    lag = percentiles(phase.loop_lag)
    others = max(0.0, phase.machine_cpu - phase.worker_cpu - phase.client_cpu) / phase.seconds
    print(
        f"\n{title}: {clients} clients, {phase.seconds:.1f} s, {phase.requests:,} requests = "
        f"{phase.requests / phase.seconds:.0f} requests/s, errors {phase.errors.total()}"
    )
    print(
        f"  CPU over the phase, in cores: worker {phase.worker_cpu / phase.seconds:.2f}, "
        f"client {phase.client_cpu / phase.seconds:.2f}, other processes {others:.2f} "
        f"(the machine has {os.cpu_count()}); client loop lag p99 {lag[2]:.1f} ms, "
        f"max {lag[3]:.1f} ms; some task waited for the disk {phase.io_stall / phase.seconds:.0%} "
        "of the time"
    )
    print(f"  {'ms':38} {'n':>6} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}")
    for row, label in ROWS.items():
        if row in phase.latencies:
            values = phase.latencies[row]
            p50, p95, p99, top = percentiles(values)
            print(f"  {label:38} {len(values):6} {p50:7.1f} {p95:7.1f} {p99:7.1f} {top:7.1f}")
    if phase.latencies and "static" not in phase.latencies:
        mix = [v for values in phase.latencies.values() for v in values]
        p50, p95, p99, top = percentiles(mix)
        print(f"  {'the whole mix':38} {len(mix):6} {p50:7.1f} {p95:7.1f} {p99:7.1f} {top:7.1f}")
    for error, n in phase.errors.most_common(5):
        print(f"  error ×{n}: {error}")


# ── Main ─────────────────────────────────────────────────────────────────────────────────────
def connect(base: str, keys: list[str]) -> list[Client]:
    """One client per key, each with one keep-alive connection, opened by its first request.

    The client drops a connection idle for 4 s, before uvicorn closes it at 5 s (as a browser or
    a CDN should): otherwise a request sent on an idle connection races the server's close.
    """
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1, keepalive_expiry=4.0)
    return [
        Client(
            httpx.AsyncClient(
                base_url=base,
                headers={"Authorization": f"Bearer {k}"},
                limits=limits,
                timeout=httpx.Timeout(30.0),
            )
        )
        for k in keys
    ]


async def drive(args: argparse.Namespace, worker: Worker, keys: list[str], load: Load) -> Phase:
    """Warm-up (not counted, but its errors are shown), the static baseline, the old mix (no
    answer logs) when answer logs are asked for, the worker load.

    The warm-up thinks at most 0.5 s, so that every client acts in it whatever --think is: the
    first requests pay one-off costs (the snapshot's first load, the assembler's first imports).
    """
    load.clients = connect(worker.base, keys)
    warm_load = dataclasses.replace(load, think=min(load.think, 0.5))
    try:
        warm = [
            await run_phase(warm_load, worker, args.warmup / 2, static_client, seed=1),
            await run_phase(warm_load, worker, args.warmup / 2, worker_client, seed=2),
        ]
        errors = warm[0].errors + warm[1].errors
        print(f"warm-up: {args.warmup:.0f} s of both loads, not counted; {errors.total()} errors")
        for error, n in errors.most_common(3):
            print(f"  warm-up error ×{n}: {error}")
        baseline = await run_phase(load, worker, args.baseline_seconds, static_client, seed=3)
        report("Static baseline", baseline, len(keys))
        if not load.attempts:
            return await run_phase(load, worker, args.seconds, worker_client, seed=4)
        # The old mix and the new one take turns, so that what else the machine runs in the
        # meantime falls on both alike.
        old, new = Phase(), Phase()
        for turn in range(args.rounds):
            quiet = dataclasses.replace(load, attempts=0.0)
            old.add(await run_phase(quiet, worker, args.seconds, worker_client, seed=4 + turn))
            new.add(await run_phase(load, worker, args.seconds, worker_client, seed=4 + turn))
        report("Baseline: the mix without answer logs", old, len(keys))
        return new
    finally:
        await asyncio.gather(*(c.http.aclose() for c in load.clients))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=100, help="concurrent clients")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured worker load")
    parser.add_argument("--baseline-seconds", type=float, default=None, help="default: --seconds")
    parser.add_argument("--warmup", type=float, default=4.0, help="seconds, half of each load")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds between a client's actions"
    )
    parser.add_argument("--polls", type=int, default=2, help="polls alone per round trip")
    parser.add_argument("--count", type=int, default=10, help="questions per practice request")
    parser.add_argument("--exam-share", type=float, default=0.02, help="round trips for exams")
    parser.add_argument(
        "--attempts", type=float, default=1.0, help="answer logs per round trip (0: the old mix)"
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="turns of the old mix and the new (--seconds each)"
    )
    parser.add_argument("--per-cell", type=int, default=30, help="pool fill per unit×difficulty")
    parser.add_argument(
        "--workers", type=int, default=1, help="worker processes (QFORGE_API_WORKERS)"
    )
    parser.add_argument(
        "--home", type=Path, default=None, help="keep (and reuse) the pool here, not in a temp dir"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.count <= 10:
        parser.error("--count must be 1 to 10 (the API's question_count)")
    if args.clients < 1 or args.seconds <= 0 or args.think < 0 or args.polls < 0:
        parser.error("--clients ≥ 1, --seconds > 0, --think ≥ 0 and --polls ≥ 0, please")
    if args.baseline_seconds is None:
        args.baseline_seconds = args.seconds
    home = args.home or Path(tempfile.mkdtemp(prefix="qforge-bench-worker-"))
    home.mkdir(parents=True, exist_ok=True)
    log = home / "bench-worker.log"
    worker: Worker | None = None
    try:
        prepare_home(home, args.per_cell, log)
        size, cells = servable_cells(home, args.count)
        if not cells:
            raise SystemExit(f"no topic × difficulty in the pool holds {args.count} questions")
        ids = static_question_ids(home)
        print(
            f"pool snapshot: {size:,} questions; {len(cells)} topic × difficulty cells serve "
            f"{args.count} questions; {len(ids):,} static question files"
        )
        keys = [f"qf-bench-{i}-{secrets.token_urlsafe(9)}" for i in range(args.clients)]
        worker = Worker(home, keys, log, args.workers)
        print(f"worker up on {worker.base} in {worker.wait_ready():.1f} s (log: {log})")
        load = Load(
            [], cells, ids, args.count, args.think, args.polls, args.exam_share, args.attempts
        )
        offered = args.clients * (2 + args.polls + args.attempts) / load.cycle
        print(
            f"load: {args.clients} clients, think {args.think:.2f} s mean (uniform ±50 %) "
            f"before every action; per round trip 1 POST + first poll, then {args.polls} polls; "
            f"offered ≈ {offered:.0f} requests/s ({args.clients / load.cycle:.0f} jobs/s) if "
            f"answers were instant; exams {args.exam_share:.0%} of round trips; "
            f"{args.attempts:g} answer logs of {BATCH_ROWS} rows per round trip"
        )
        phase = asyncio.run(drive(args, worker, keys, load))
        report("Worker", phase, args.clients)
        worst = max(percentiles(phase.latencies.get(r, []))[2] for r in ("practice", "poll"))
        mix = percentiles([v for values in phase.latencies.values() for v in values])[2]
        errors = phase.errors.total()
        met = max(worst, mix) <= TARGET_P99_MS and errors == 0
        print(
            f"\ntarget (pool-served practice: p99 ≤ {TARGET_P99_MS:.0f} ms for POST + first poll "
            f"and for polls alone, and for the whole mix, zero errors): "
            f"{'MET' if met else 'MISSED'} (worst p99 {worst:.1f} ms, mix p99 {mix:.1f} ms, "
            f"{errors} errors)"
        )
        if "exam" in phase.latencies:
            exam = percentiles(phase.latencies["exam"])
            print(
                f"exams, on their own (a 180-question paper per request): p99 {exam[2]:.1f} ms "
                f"over {len(phase.latencies['exam'])} requests"
            )
    except BaseException:
        if log.exists():  # the log goes with the temporary home: show its end first
            tail = log.read_text(errors="replace").splitlines()[-15:]
            print(f"last lines of {log}:", *tail, sep="\n  ", file=sys.stderr)
        raise
    finally:
        if worker is not None:
            worker.stop()
        if args.home is None:
            shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
