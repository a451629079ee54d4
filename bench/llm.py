"""Model-drafting benchmark: stored questions per second when every model call takes 300 ms.

Run with `python -m bench.llm [--latency 0.3 --runs 1:24,8:120,32:360]`. A fake
OpenAI-compatible server (tests/fake_openai.py's, in a child process on 127.0.0.1) answers every
call after the latency: valid drafts for the topic and format asked for (one in twelve not JSON),
and a solver that picks the key most of the time (one solve in eight picks a distractor, one in
twenty is unsure), so drafts are refused and rejected for real. This process runs the real path:
`build_services` with QFORGE_LLM=openai (the SDK client, OpenAIDrafter, OpenAISolver), and
`fill_pool` with the production screens (hygiene, the own near-duplicate gate) on a fresh
warehouse in a temporary QFORGE_HOME, over the twelve (subject, difficulty) cells.

Figures per run: stored questions per second over the whole fill (its tail included, when the
last cells wait on their last questions), calls and tokens (in, cached, out) per stored
question, p50/p95 call latency as the client saw it, and the most calls the server had under
way at once, at concurrency 8 (the default QFORGE_LLM_CONCURRENCY) and 32. The baseline in the
same run is concurrency 1 (calls one after another) on fewer questions. The ceiling printed is
concurrency / latency / calls per stored question: every call slot busy all the time.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

import httpx
from pydantic import SecretStr

from core.records import Difficulty, Subject
from core.settings import Settings
from core.warehouse import open_warehouse
from pipeline.compose import build_services, own_duplicate_gate
from pipeline.fill.pool import fill_pool
from tests.fake_openai import API_KEY, FakeModel, Gauge, Route, serving

CELLS = [(s, d) for s in Subject for d in Difficulty]


def _serve(latency: float, conn: Connection) -> None:
    """The fake server's process: serve until the parent closes its end of the pipe."""
    gauge = Gauge(FakeModel(latency=latency).script())
    routes: dict[str, Route] = {"/v1/chat/completions": gauge, "/v1/bench/stats": gauge.stats}
    with serving(routes) as (server, _):
        conn.send(server.base_url)
        with contextlib.suppress(EOFError):  # the parent closed its end: it is done
            conn.recv()


@dataclass(frozen=True)
class Run:
    concurrency: int
    stored: int
    seconds: float
    calls: int
    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int
    p50: float
    p95: float
    most_under_way: int
    rejected: Counter[str]
    refused: Counter[str]

    @property
    def per_second(self) -> float:
        return self.stored / self.seconds


def most_under_way(base_url: str) -> int:
    """The most calls the server had under way since it was last asked (and reset)."""
    response = httpx.post(
        f"{base_url}/bench/stats", json={}, headers={"Authorization": f"Bearer {API_KEY}"}
    )
    return int(response.json()["most_under_way"])


def fill(base_url: str, concurrency: int, questions: int) -> Run:
    per_cell = -(-questions // len(CELLS))
    with tempfile.TemporaryDirectory(prefix="qforge-bench-llm-") as tmp:
        settings = Settings(
            home=Path(tmp),
            llm="openai",
            openai_base_url=base_url,
            openai_api_key=SecretStr(API_KEY),
            openai_max_retries=0,
            llm_concurrency=concurrency,
        )
        services = build_services(settings)
        assert services.usage is not None and services.concurrency == concurrency
        with open_warehouse(settings.warehouse_path) as wh:
            gate = own_duplicate_gate(settings, [])
            most_under_way(base_url)  # reset the gauge
            started = time.perf_counter()
            reports = fill_pool(
                wh,
                services.drafter,
                services.solver,
                {cell: per_cell for cell in CELLS},
                screens=[gate.screen],
                on_accept=lambda q: gate.add([q]),
                concurrency=services.concurrency,
            )
            seconds = time.perf_counter() - started
            stored = wh.count("questions")
    usage = services.usage.summary(stored)
    rejected: Counter[str] = Counter()
    for report in reports:
        rejected.update(report.reasons)
    return Run(
        concurrency=concurrency,
        stored=stored,
        seconds=seconds,
        calls=usage.calls,
        prompt_tokens=usage.prompt_tokens,
        cached_tokens=usage.cached_tokens,
        completion_tokens=usage.completion_tokens,
        p50=usage.latency_p50 or 0.0,
        p95=usage.latency_p95 or 0.0,
        most_under_way=most_under_way(base_url),
        rejected=rejected,
        refused=Counter(getattr(services.drafter, "rejections", {})),
    )


def show(run: Run, latency: float) -> None:
    n = run.stored
    per_question = run.calls / n
    ceiling = run.concurrency / latency / per_question
    print(
        f"concurrency {run.concurrency:3}: {n} questions stored in {run.seconds:.1f} s = "
        f"{run.per_second:.1f}/s (ceiling {ceiling:.1f}/s); most calls under way "
        f"{run.most_under_way}"
    )
    print(
        f"  {run.calls} calls, {per_question:.2f} per stored question; tokens per stored "
        f"question: {run.prompt_tokens / n:,.0f} in (of which {run.cached_tokens / n:,.0f} "
        f"cached), {run.completion_tokens / n:,.0f} out; call latency p50 {run.p50 * 1000:.0f} "
        f"ms, p95 {run.p95 * 1000:.0f} ms"
    )
    print(f"  drafts refused: {dict(run.refused.most_common())}")
    print(f"  drafts rejected at the gate: {dict(run.rejected.most_common())}")


def runs_of(text: str) -> list[tuple[int, int]]:
    """`1:24,8:120,32:360` → [(1, 24), (8, 120), (32, 360)]: concurrency and questions to store."""
    pairs = [part.split(":") for part in text.split(",")]
    return [(int(c), int(n)) for c, n in pairs]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--latency", type=float, default=0.3, help="seconds per model call")
    parser.add_argument(
        "--runs",
        type=runs_of,
        default=runs_of("1:24,8:120,32:360"),
        help="concurrency:questions pairs; the first is the baseline (default %(default)s)",
    )
    args = parser.parse_args(argv)
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    server = context.Process(target=_serve, args=(args.latency, child), daemon=True)
    server.start()
    try:
        base_url = parent.recv()
        print(f"fake model server at {base_url}, {args.latency * 1000:.0f} ms a call")
        results = []
        for concurrency, questions in args.runs:
            results.append(fill(base_url, concurrency, questions))
            show(results[-1], args.latency)
        baseline = results[0]
        for run in results[1:]:
            print(
                f"concurrency {run.concurrency}: {run.per_second / baseline.per_second:.1f}× "
                f"the stored questions per second of concurrency {baseline.concurrency}"
            )
    finally:
        parent.close()
        server.join(timeout=10)
        if server.is_alive():
            server.terminate()


if __name__ == "__main__":
    main()
