"""The `qforge` command line: builds Settings once, then calls a flow or starts the worker."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from collections.abc import Sequence

from pydantic import ValidationError

from core.clock import exam_today, parse_exam_date
from core.settings import Settings


def prefect_environment(settings: Settings) -> dict[str, str]:
    """Prefect settings that keep its state inside QFORGE_HOME and its start-up quiet."""
    return {
        "PREFECT_HOME": str(settings.prefect_home.resolve()),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "60",
    }


def _configure_prefect(settings: Settings) -> None:
    # Must run before prefect is imported; a user's own PREFECT_* values win.
    settings.prefect_home.mkdir(parents=True, exist_ok=True)
    for name, value in prefect_environment(settings).items():
        os.environ.setdefault(name, value)


def _cmd_nightly(settings: Settings, args: argparse.Namespace) -> int:
    day = parse_exam_date(args.date) if args.date else exam_today(settings.timezone)
    _configure_prefect(settings)
    from prefect.settings import PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings

    from flows.nightly import nightly

    started = time.perf_counter()
    with temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}):
        result = nightly(date=day.isoformat())
    elapsed = time.perf_counter() - started
    fill = result.fill
    print()
    print(f"qforge nightly {result.date} — done in {elapsed:.1f} s")
    if fill.skipped_because_paper_exists:
        print("  pool: paper already built; nothing generated")
    else:
        print(f"  pool: {fill.accepted} questions accepted, {fill.rejected} drafts rejected")
        for c in fill.cells:
            reasons = ", ".join(f"{k} ×{v}" for k, v in c.reasons.items()) or "none"
            print(
                f"    {c.subject.value:9} {c.difficulty.value:6} +{c.accepted}/{c.needed}"
                f"  rejected {c.rejected} ({reasons}){'  [exhausted]' if c.exhausted else ''}"
            )
    print(f"  paper: {result.paper.exam_id} ({len(result.paper.question_ids)} questions)")
    print(
        f"  export: {result.export.questions_written} question files written, "
        f"{result.export.questions_unchanged} unchanged; dated paper "
        f"{'written' if result.export.paper_written else 'unchanged'}"
    )
    print(f"  daily pointer: {'moved to ' + result.date if result.pointer_moved else 'unchanged'}")
    print(f"  state: {settings.home.resolve()}")
    return 0


def _cmd_api(settings: Settings, args: argparse.Namespace) -> int:
    import uvicorn

    from api_stub.app import create_app
    from core.providers import object_store
    from site_builder.documents import DAILY_POINTER_KEY

    host = args.host or settings.api_host
    port = args.port or settings.api_port
    store = object_store(settings)
    base = f"http://{host}:{port}"
    print(f"qforge api serving {settings.store_dir.resolve()} at {base}")
    print("Try:")
    print(f"  {base}/api/v1/exams/daily")
    pointer = store.get(DAILY_POINTER_KEY)
    if pointer is None:
        print("  (no daily paper yet: run `qforge nightly` first)")
    else:
        paper = json.loads(pointer)
        print(f"  {base}/api/v1/exams/daily/{paper['date']}")
        print(f"  {base}/api/v1/questions/{paper['questions'][0]['id']}")
    print(f"  {base}/healthz")
    uvicorn.run(create_app(settings, store), host=host, port=port, log_level="info")
    return 0


def _cmd_stats(settings: Settings, args: argparse.Namespace) -> int:
    from core.warehouse import open_warehouse

    if not settings.warehouse_path.exists():
        print(f"no warehouse at {settings.warehouse_path}: run `qforge nightly` first")
        return 1
    with open_warehouse(settings.warehouse_path) as wh:
        counts = wh.counts()
        pool = wh.pool()
        print(json.dumps(counts, indent=2))
        print(pool.group_by("subject", "difficulty").len().sort("subject", "difficulty"))
    return 0


COMMANDS = {"nightly": _cmd_nightly, "api": _cmd_api, "stats": _cmd_stats}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="qforge",
        description="Verified NEET-UG questions and mock exams. State lives in QFORGE_HOME "
        "(default ./.qforge).",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    n = sub.add_parser("nightly", help="fill the pool, build the day's paper, export, publish")
    n.add_argument("--date", help="exam date YYYY-MM-DD (default: today in Asia/Kolkata)")
    a = sub.add_parser("api", help="serve the static tree (and, later, the dynamic endpoints)")
    a.add_argument("--host", help="bind address (default 127.0.0.1)")
    a.add_argument("--port", type=int, help="port (default 8000)")
    sub.add_parser("stats", help="row counts and pool coverage of the warehouse")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"qforge: invalid settings:\n{exc}", file=sys.stderr)
        return 2
    try:
        return COMMANDS[args.command](settings, args)
    except ValueError as exc:
        print(f"qforge: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
