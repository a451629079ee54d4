"""The `qforge` command line: builds Settings once, then calls a flow or starts the worker."""

from __future__ import annotations

import argparse
import errno
import io
import json
import logging
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import ValidationError

from core.clock import exam_today, parse_exam_date
from core.runlock import RunLockedError, run_lock
from core.settings import Settings
from flows.cli_pool import cell_line, cmd_pool, progress_bar

if TYPE_CHECKING:  # the commands import what they use when they run: start-up stays fast
    pass


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
    if args.days < 1:
        raise ValueError(f"--days must be at least 1, got {args.days}")
    _configure_prefect(settings)
    from prefect.settings import PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings

    from flows.nightly import NightlyFailed, call_directly, nightly, run_nightly, step_count
    from pipeline.compose import build_services

    started = time.perf_counter()
    with progress_bar(transient=True) as bar:
        task = bar.add_task("nightly", total=step_count(args.days))

        started_steps: list[str] = []

        def on_step(name: str) -> None:
            bar.update(task, completed=len(started_steps), description=name)
            started_steps.append(name)

        try:
            if args.no_prefect:
                result = run_nightly(
                    build_services(settings), day, args.days, call=call_directly, on_step=on_step
                )
            else:
                with temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}):
                    result = nightly(date=day.isoformat(), days=args.days, on_step=on_step)
        except NightlyFailed as failed:
            report_path = _write_report(settings, failed.date, failed.report_markdown)
            print(f"qforge nightly: {failed}; report: {report_path}", file=sys.stderr)
            return 1
    elapsed = time.perf_counter() - started
    report_path = _write_report(settings, result.date, result.report_markdown)
    fill = result.fill
    print()
    print(f"qforge nightly {result.date} — done in {elapsed:.1f} s")
    steps_line = ", ".join(f"{k} {v:.1f}s" for k, v in result.report.step_seconds.items())
    print(f"  steps: {steps_line}")
    print(f"  knowledge base: {result.ingest.lines()[-1]}")
    print(
        f"  outbox: {result.outbox.taken} worker questions taken, "
        f"{len(result.outbox.refused)} refused"
    )
    if fill.fallback:
        made = sum(c.accepted for c in fill.fallback)
        print(f"  offline fallback: the model left the paper short; the offline engine made {made}")
    if fill.skipped_because_paper_exists:
        print("  pool: paper already built; nothing generated")
    else:
        print(f"  pool: {fill.accepted} questions accepted, {fill.rejected} drafts rejected")
        for c in fill.cells:
            print("    " + cell_line(c))
    for line in result.usage_lines:
        print(f"  {line}")
    print(f"  paper: {result.paper.exam_id} ({len(result.paper.question_ids)} questions)")
    for ahead in result.built_ahead:
        print(f"  built ahead: {ahead.exam_id} (exported on its own night)")
    print(
        f"  export: {result.export.questions_written} question files written, "
        f"{result.export.questions_unchanged} unchanged; dated paper "
        f"{'written' if result.export.paper_written else 'unchanged'}"
    )
    print(f"  daily pointer: {'moved to ' + result.date if result.pointer_moved else 'unchanged'}")
    print(f"  report: {report_path}")
    print(f"  state: {settings.home.resolve()}")
    return 0


def _write_report(settings: Settings, date: str, markdown: str) -> Path:
    path = settings.home / "reports" / f"nightly-{date}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown, encoding="utf-8")
    return path


def _prefect_server_ready(url: str) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(f"{url}/health", timeout=1) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _cmd_serve(settings: Settings, args: argparse.Namespace) -> int:
    """Serve the deployments on PREFECT_API_URL, or on a server started here (stopped on exit)."""
    import subprocess

    _configure_prefect(settings)
    server = None
    if "PREFECT_API_URL" not in os.environ:
        url = f"http://127.0.0.1:{settings.prefect_port}/api"
        if not _prefect_server_ready(url):
            log_path = settings.home / "prefect-server.log"
            print(f"starting a Prefect server on {url} (log: {log_path})")
            server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "prefect",
                    "server",
                    "start",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(settings.prefect_port),
                ],
                stdout=log_path.open("ab"),
                stderr=subprocess.STDOUT,
            )
            deadline = time.monotonic() + 90
            while not _prefect_server_ready(url):
                if server.poll() is not None or time.monotonic() > deadline:
                    server.terminate()
                    print(
                        f"qforge: the Prefect server did not start; see {log_path}", file=sys.stderr
                    )
                    return 1
                time.sleep(0.5)  # polling a starting server; the loop ends on a health check
        os.environ["PREFECT_API_URL"] = url
    from prefect import serve

    from flows.nightly import deployments

    # SIGTERM (systemd, docker stop) should stop our server too, through the `finally` below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

    print(
        f"serving 'nightly' on cron {settings.nightly_cron!r} ({settings.timezone}) and "
        f"'ingest-kb' on demand; UI at {os.environ['PREFECT_API_URL'].removesuffix('/api')}"
    )
    try:
        serve(*deployments(settings))
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
    return 0


def _cmd_warehouse(settings: Settings, args: argparse.Namespace) -> int:
    import duckdb

    from core.analytics import query_rows, snapshot_connection
    from core.warehouse import open_warehouse

    if args.warehouse_command == "snapshot":
        try:
            with open_warehouse(settings.warehouse_path) as wh:
                path = wh.write_snapshot(settings.warehouse_export_dir)
        except duckdb.IOException as exc:
            raise ValueError(f"the warehouse is busy (a nightly run?); retry later: {exc}") from exc
        print(f"snapshot written to {path}")
        return 0
    try:
        con = snapshot_connection(settings.warehouse_export_dir)
    except FileNotFoundError as exc:
        raise ValueError(str(exc)) from exc
    try:
        names, rows = query_rows(con, args.sql)
    except duckdb.Error as exc:
        raise ValueError(f"query failed: {exc}") from exc
    print("\t".join(names))
    for row in rows:
        print("\t".join("" if v is None else str(v) for v in row))
    print(f"({len(rows)} rows)", file=sys.stderr)
    return 0


def _cmd_publish(settings: Settings, args: argparse.Namespace) -> int:
    from core.providers import object_store, publish_target
    from site_builder.s3 import configure_bucket, publish_tree

    target = publish_target(settings)
    if args.configure_bucket:
        changed = configure_bucket(target, public_read=settings.publish_public_read)
        print(f"bucket configured: {', '.join(changed) or 'nothing to change'}")
    report = publish_tree(
        object_store(settings), target, timezone=settings.timezone, workers=settings.publish_workers
    )
    print(
        f"published: {report.uploaded} uploaded ({report.bytes_uploaded:,} bytes), "
        f"{report.skipped} already there, in {report.seconds:.1f} s"
    )
    return 0


def _cmd_api(settings: Settings, args: argparse.Namespace) -> int:
    import polars as pl
    import uvicorn

    from core.keys import dev_api_key
    from core.providers import object_store
    from pipeline.serve.job_work import EMPTY_POOL, snapshot_frame
    from pipeline.serve.practice import best_served_topic
    from pipeline.serve.requests import MAX_PRACTICE_QUESTIONS
    from site_builder.documents import DAILY_POINTER_KEY
    from site_builder.snapshot import POOL_SNAPSHOT_KEY

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
        print(f"  {base}/api/v1/exams/daily/{paper['date']}.html  (printable, then the key)")
    print(f"  {base}/api/v1/exams/daily/index")
    print(f"  {base}/api/v1/syllabus")
    print(f"  {base}/api/v1/openapi.json")
    print(f"  {base}/healthz")
    if settings.api_keys:
        print(f"Dynamic endpoints take one of the {len(settings.api_keys)} QFORGE_API_KEYS.")
    else:
        key = dev_api_key(settings.dev_api_key_path)
        print(f"Development API key (no QFORGE_API_KEYS set): {key}")
        snapshot = store.get(POOL_SNAPSHOT_KEY)
        frame = snapshot_frame(pl.read_parquet(io.BytesIO(snapshot))) if snapshot else EMPTY_POOL
        topic, difficulty, served = best_served_topic(frame)
        count = max(1, min(served, MAX_PRACTICE_QUESTIONS))
        body = json.dumps(
            {"topic_id": topic, "question_count": count, "difficulty": difficulty.value}
        )
        print(
            f"  curl -H 'Authorization: Bearer {key}' -H 'Content-Type: application/json' "
            f"-d '{body}' {base}/api/v1/practice/generate"
        )
    if settings.api_workers > 1:
        print(f"{settings.api_workers} worker processes; jobs and quotas are shared in the store")
    # The worker is named, not imported: each process builds its app from the environment
    # (api_stub.main), and the shells never import each other.
    uvicorn.run(
        "api_stub.main:app_factory",
        factory=True,
        workers=settings.api_workers,
        host=host,
        port=port,
        log_level="info",
    )
    return 0


def _cmd_stats(settings: Settings, args: argparse.Namespace) -> int:
    from core.warehouse import open_warehouse

    if not settings.warehouse_path.exists():
        print(f"no warehouse at {settings.warehouse_path}: run `qforge nightly` first")
        return 1
    from flows.cli_pool import topic_coverage_lines
    from pipeline.compose import build_services
    from pipeline.fill.coverage import DEFAULT_TOPIC_FLOOR
    from site_builder.snapshot import TOPIC_COVERAGE_KEY, read_spent_cells

    with open_warehouse(settings.warehouse_path) as wh:
        counts = wh.counts()
        pool = wh.pool()
    print(json.dumps(counts, indent=2))
    print(pool.group_by("subject", "difficulty").len().sort("subject", "difficulty"))
    services = build_services(settings)
    floor = settings.topic_floor or DEFAULT_TOPIC_FLOOR
    # Which cells the generators cannot fill, as the last nightly's topic floor found: solving
    # drafts for every short cell here would take minutes on a pool far below the floor.
    recorded = services.store.get(TOPIC_COVERAGE_KEY)
    spent = read_spent_cells(recorded) if recorded else frozenset()
    print("\n".join(topic_coverage_lines(services, pool, floor, spent=spent)))
    return 0


def _cmd_kb(settings: Settings, args: argparse.Namespace) -> int:
    from pipeline import compose

    if args.kb_command == "ingest":
        missing = [p for p in args.paths if not p.exists()]
        if missing:
            print(
                f"qforge: no such file or folder: {', '.join(map(str, missing))}", file=sys.stderr
            )
            return 2
        report = compose.build_ingestor(settings).ingest(args.paths)
        print("\n".join(report.lines()))
        return 1 if report.count("failed") else 0
    if args.kb_command == "search":
        kstore = compose.build_knowledge_store(settings)
        kind: Literal["figures", "chunks"] = "figures" if args.figures else "chunks"
        filters = {"subject": args.subject, "unit_id": args.unit, "topic_id": args.topic}
        hits = kstore.search(kind, args.text, k=args.k, mode=args.mode, filters=filters)
        if not hits:
            print(
                "no hits (has the knowledge base been ingested? `qforge kb ingest data/kb/chunks`)"
            )
        for i, h in enumerate(hits, start=1):
            text = " ".join(h.text.split())
            print(f"{i}. [{h.score:.4f}] {h.id}  {h.subject or '-'} / {h.topic_id or '-'}")
            print(f"   {h.source} — {h.where}")
            print(f"   {text[:160]}{'…' if len(text) > 160 else ''}")
        return 0
    if args.kb_command == "stats":
        import polars as pl

        from kb.coverage import unit_coverage
        from kb.knowledge import load_knowledge_base
        from kb.syllabus import load_syllabus

        kstore = compose.build_knowledge_store(settings)
        table = unit_coverage(
            load_syllabus(settings.data_dir), kstore, load_knowledge_base(settings.data_dir)
        )
        with pl.Config(tbl_rows=-1, tbl_width_chars=120, fmt_str_lengths=50):
            print(table)
        empty = table.filter((pl.col("chunks") == 0) | (pl.col("facts") == 0))
        print(f"{table.height} units; {empty.height} without chunks or facts")
        return 0
    if args.kb_command == "references":
        from kb.references import ReferenceFileError, parse_references, reference_rows

        embedder = compose.build_embedder(settings)
        try:
            refs = parse_references(args.file)
        except ReferenceFileError as exc:
            print(f"qforge: {exc}", file=sys.stderr)
            return 2
        kstore = compose.build_knowledge_store(settings, embedder)
        added = kstore.add_references(reference_rows(refs, embedder))
        kstore.build_indexes()
        print(f"{added} reference questions added, {len(refs) - added} already present")
        return 0
    raise AssertionError(args.kb_command)


COMMANDS = {
    "nightly": _cmd_nightly,
    "api": _cmd_api,
    "serve": _cmd_serve,
    "warehouse": _cmd_warehouse,
    "publish": _cmd_publish,
    "stats": _cmd_stats,
    "kb": _cmd_kb,
    "pool": cmd_pool,
}


def _positive_int(text: str) -> int:
    value = int(text) if text.strip().lstrip("-").isdigit() else 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


# Commands that write the warehouse or the knowledge store take the home's run lock; the value
# names the run for the message another run would print.
LOCKED: dict[str, Callable[[argparse.Namespace], str | None]] = {
    "nightly": lambda a: "nightly",
    "pool": lambda a: f"pool {a.pool_command}",
    "kb": lambda a: f"kb {a.kb_command}" if a.kb_command in ("ingest", "references") else None,
    "warehouse": lambda a: "warehouse snapshot" if a.warehouse_command == "snapshot" else None,
}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="qforge",
        description="Verified NEET-UG questions and mock exams. State lives in QFORGE_HOME "
        "(default ./.qforge).",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    n = sub.add_parser("nightly", help="fill the pool, build the day's paper, export, publish")
    n.add_argument("--date", help="exam date YYYY-MM-DD (default: today in Asia/Kolkata)")
    n.add_argument(
        "--days", type=int, default=1, help="also build the next N-1 days' papers (default 1)"
    )
    n.add_argument(
        "--no-prefect",
        action="store_true",
        help="run the same steps without Prefect (no server, no run history)",
    )
    a = sub.add_parser(
        "api", help="the worker: practice and exam jobs, and the static tree for local use"
    )
    a.add_argument("--host", help="bind address (default 127.0.0.1)")
    a.add_argument("--port", type=int, help="port (default 8000)")
    pub = sub.add_parser(
        "publish", help="mirror the static tree to the S3 bucket set by QFORGE_PUBLISH_BUCKET"
    )
    pub.add_argument(
        "--configure-bucket",
        action="store_true",
        help="also set the bucket's CORS rules and public-read policy (idempotent)",
    )
    sub.add_parser(
        "serve",
        help="serve the nightly on its schedule (starts a Prefect server unless PREFECT_API_URL)",
    )
    sub.add_parser("stats", help="row counts and pool coverage of the warehouse")
    wh = sub.add_parser(
        "warehouse", help="query the warehouse's Parquet snapshot (docs/warehouse.md)"
    )
    whsub = wh.add_subparsers(dest="warehouse_command", required=True, metavar="ACTION")
    query = whsub.add_parser("query", help="run SQL on the latest snapshot (tab-separated output)")
    query.add_argument("sql")
    whsub.add_parser("snapshot", help="write a fresh Parquet snapshot of the analytics views")
    pool = sub.add_parser("pool", help="the question pool")
    poolsub = pool.add_subparsers(dest="pool_command", required=True, metavar="ACTION")
    fill = poolsub.add_parser("fill", help="top every subject × difficulty cell up to a target")
    fill.add_argument("--subject", choices=["Physics", "Chemistry", "Botany", "Zoology"])
    fill.add_argument(
        "--per-cell",
        type=int,
        default=None,
        help="unused verified questions wanted per cell (default 60); with --per-topic, "
        "servable questions per topic × difficulty (default QFORGE_TOPIC_FLOOR, 10)",
    )
    cells = fill.add_mutually_exclusive_group()
    cells.add_argument(
        "--per-unit",
        action="store_true",
        help="cells are subject × syllabus unit × difficulty instead of subject × difficulty",
    )
    cells.add_argument(
        "--per-topic",
        action="store_true",
        help="cells are live topic × difficulty, counted as a practice set counts them (one "
        "question per near-duplicate group); then print the topic coverage",
    )
    fill.add_argument(
        "--batch",
        action="store_true",
        help="through the Batch API (QFORGE_LLM=openai; also QFORGE_LLM_BATCH=true): submit, "
        "or collect what earlier runs submitted, then print the pending batches",
    )
    kb = sub.add_parser("kb", help="the knowledge store: ingest, search, stats, references")
    kbsub = kb.add_subparsers(dest="kb_command", required=True, metavar="KB_COMMAND")
    ingest = kbsub.add_parser("ingest", help="ingest Markdown, HTML, PDF or CNXML files or folders")
    ingest.add_argument("paths", nargs="+", type=Path)
    search = kbsub.add_parser("search", help="search chunks (or figure captions)")
    search.add_argument("text")
    search.add_argument("--figures", action="store_true", help="search figure captions")
    search.add_argument("--subject", choices=["Physics", "Chemistry", "Botany", "Zoology"])
    search.add_argument("--unit", help="unit id, e.g. phy-u16")
    search.add_argument("--topic", help="topic id, e.g. phy-lens-formula")
    search.add_argument("--mode", choices=["hybrid", "vector", "fts"], default="hybrid")
    search.add_argument("-k", type=_positive_int, default=5, help="number of hits (default 5)")
    kbsub.add_parser("stats", help="chunks, figures and facts per syllabus unit")
    refs = kbsub.add_parser("references", help="reference (past-style) questions")
    refsub = refs.add_subparsers(dest="ref_command", required=True, metavar="ACTION")
    imp = refsub.add_parser("import", help="import a JSONL or CSV file of reference questions")
    imp.add_argument("file", type=Path)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    # The SDK logs every HTTP request at INFO (through httpx2 in SDK 3.x): keep the terminal to
    # the progress bar and the summary.
    for noisy in ("httpx", "httpx2", "httpcore", "httpcore2", "openai"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"qforge: invalid settings:\n{exc}", file=sys.stderr)
        return 2
    try:
        run = LOCKED.get(args.command, lambda _: None)(args)
        if run is not None:  # one run per QFORGE_HOME; a second is refused at once
            with run_lock(settings.home, run):
                return COMMANDS[args.command](settings, args)
        return COMMANDS[args.command](settings, args)
    except ValueError as exc:
        print(f"qforge: {exc}", file=sys.stderr)
        return 2
    except RunLockedError as exc:
        print(f"qforge {args.command}: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:
        fault = storage_fault(exc, settings.home)
        if fault is None:
            raise
        print(f"qforge {args.command}: {fault}", file=sys.stderr)
        return 1


# What an expected fault of the disk under QFORGE_HOME says, and what the rerun will do. Every
# write is whole or invisible (temp file, fsync, then a name), so a rerun after the fault is
# fixed resumes from what is there.
_STORAGE_FAULTS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
}
_RERUN = "nothing incomplete was published; fix that and run the same command again to resume"


def storage_fault(exc: BaseException, home: Path) -> str | None:
    """One line for a full, read-only or forbidden disk (in exc or what caused it), else None."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno in _STORAGE_FAULTS:
            where = seen.filename or f"under {home.resolve()}"
            return f"{_STORAGE_FAULTS[seen.errno]} ({where}): {_RERUN}"
        text = str(seen)
        for code, what in _STORAGE_FAULTS.items():
            if os.strerror(code) in text:  # DuckDB reports the OS error in its message
                return f"{what} (the warehouse under {home.resolve()}): {_RERUN}"
        seen = seen.__cause__ or seen.__context__
    return None


if __name__ == "__main__":
    sys.exit(main())
