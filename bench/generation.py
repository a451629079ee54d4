"""Generation benchmark: verified questions per second per core, acceptance per generator and
format, the wall time to fill a 20,000-question pool with the pool's share per difficulty,
format and number of steps, a per-unit fill (30 per unit and difficulty) with how many cells
reach their target, and first the organic generators' throughput and acceptance per kind
(`--organic-only` for that alone).

Run with `make bench` (or `python -m bench.generation`). The core loop (draft → independent solve
→ gate) runs single-threaded, so its rate is per core. The pool fill then writes to a real DuckDB
warehouse in a temporary QFORGE_HOME, with the production screens (hygiene and the own
near-duplicate gate). Baseline in the same run: the same fill committing every question on its
own (batch size 1), on a smaller target.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from itertools import islice
from pathlib import Path

import pipeline.fill.pool as pool_module
from core.pool import steps_in_reason
from core.records import Difficulty, Subject, Verdict
from core.settings import Settings
from core.warehouse import open_warehouse
from kb.knowledge import load_knowledge_base
from kb.organic import molecules
from kb.syllabus import load_syllabus
from pipeline.compose import build_services, own_duplicate_gate
from pipeline.fill.engine import CellReport
from pipeline.fill.pool import fill_pool, pool_deficits, unit_deficits
from pipeline.generate.numerical import numerical_drafts
from pipeline.generate.organic.catalogue import organic_templates
from pipeline.generate.organic.template import OrganicTemplate, organic_drafts
from pipeline.templates.catalogue import TEMPLATES, TEMPLATES_BY_ID
from pipeline.verify.gate import judged, solver_view
from pipeline.verify.organic import organic_answer
from pipeline.verify.organic.opsin import smiles_of_names
from pipeline.verify.solver import OfflineSolver, _solution


def core_loop(per_cell: int) -> None:
    started = time.perf_counter()
    services = build_services(Settings(home=Path(tempfile.mkdtemp())))
    for template in TEMPLATES:  # once per process: sympy solves each declared relation
        _solution(template)
    print(
        f"set-up: {time.perf_counter() - started:.2f} s "
        f"(load data, solve {len(TEMPLATES)} template relations with sympy)"
    )
    verdicts: Counter[tuple[str, str]] = Counter()
    formats: Counter[tuple[str, str]] = Counter()
    drafted = 0
    started = time.perf_counter()
    for subject in Subject:
        for difficulty in Difficulty:
            for i, draft in enumerate(services.drafter.drafts(subject, difficulty, {})):
                if i >= per_cell:
                    break
                attempt, _ = judged(draft, services.solver.solve(solver_view(draft)))
                drafted += 1
                verdicts[(attempt.generator, attempt.verdict.value)] += 1
                formats[(attempt.format.value, attempt.verdict.value)] += 1
    elapsed = time.perf_counter() - started
    accepted = sum(n for (_, v), n in verdicts.items() if v == Verdict.ACCEPTED.value)
    print(
        f"core loop: {drafted} drafts, {accepted} verified in {elapsed:.2f} s on one core = "
        f"{drafted / elapsed:.0f} drafts/s, {accepted / elapsed:.0f} verified questions/s"
    )
    for label, counter in (("generator", verdicts), ("format", formats)):
        names = sorted({k for k, _ in counter})
        for name in names:
            ok, bad = counter[(name, "accepted")], counter[(name, "rejected")]
            print(f"  {label} {name:22} accepted {ok:5} / {ok + bad:5} = {ok / (ok + bad):.1%}")


def organic(per_template: int) -> None:
    """The organic generators' throughput and acceptance, per kind: drafting (RDKit reading and
    drawing the structures) and solving (RDKit, OPSIN, reaction SMARTS) timed apart, over the
    first `per_template` drafts of every template. Baseline in the same run: the same loop over
    the numerical templates (sympy, no RDKit). OPSIN's first call (a Java start and the table's
    names read in one batch) is timed on its own, as a nightly pays it once."""
    data = Settings().data_dir
    syllabus = load_syllabus(data)
    started = time.perf_counter()
    templates = organic_templates(data)
    print(f"organic: {len(templates)} templates loaded in {time.perf_counter() - started:.2f} s")
    started = time.perf_counter()
    smiles_of_names(m.iupac for m in molecules(data))
    warm = time.perf_counter() - started
    print(f"  OPSIN warm-up (the table's names in one Java run): {warm:.2f} s")
    kinds: dict[str, list[OrganicTemplate]] = {}
    for t in templates:
        kinds.setdefault(t.template_id.split(".")[1], []).append(t)
    rows: list[tuple[str, int, int, int, float, float, int]] = []
    for kind, group in sorted(kinds.items()):
        drafts, drew, solved, accepted, figured = [], 0.0, 0.0, 0, 0
        for t in group:
            t0 = time.perf_counter()
            drafts_of = list(islice(organic_drafts(t, syllabus), per_template))
            drew += time.perf_counter() - t0
            drafts += drafts_of
        t0 = time.perf_counter()
        for d in drafts:
            _, q = judged(d, organic_answer(solver_view(d)))
            accepted += q is not None
            figured += bool(d.content.figures)
        solved = time.perf_counter() - t0
        rows.append((kind, len(group), len(drafts), accepted, drew, solved, figured))
    base_drafts, t0 = [], time.perf_counter()
    for nt in TEMPLATES:
        base_drafts += list(islice(numerical_drafts(nt, syllabus), per_template))
    base_drew, t0 = time.perf_counter() - t0, time.perf_counter()
    solver = OfflineSolver(load_knowledge_base(data), TEMPLATES_BY_ID)
    base_ok = sum(judged(d, solver.solve(solver_view(d)))[1] is not None for d in base_drafts)
    base_solved = time.perf_counter() - t0
    rows.append(("numerical (baseline)", len(TEMPLATES), len(base_drafts), base_ok, base_drew,
                 base_solved, 0))  # fmt: skip
    for kind, n, drafted, ok, drew, solve, figured in rows:
        total = drew + solve
        print(
            f"  {kind:22} {n:4} templates {drafted:6} drafts ({figured:5} with structures): "
            f"draft {1000 * drew / drafted:5.2f} ms, solve {1000 * solve / drafted:5.2f} ms, "
            f"{ok / total:6.0f} verified/s, accepted {ok / drafted:.1%}"
        )


def fill(target: int, batch_size: int, per_unit: int | None = None) -> tuple[int, float]:
    pool_module.BATCH_SIZE = batch_size
    with tempfile.TemporaryDirectory(prefix="qforge-bench-") as tmp:
        settings = Settings(home=Path(tmp))
        services = build_services(settings)
        per_cell = -(-target // (len(Subject) * len(Difficulty)))
        needs = {(s, d): per_cell for s in Subject for d in Difficulty}
        units = {s: sorted({t.unit_id for t in services.syllabus.live_topics(s)}) for s in Subject}
        started = time.perf_counter()
        with open_warehouse(settings.warehouse_path) as wh:
            gate = own_duplicate_gate(settings, [])
            reports: list[CellReport] = fill_pool(
                wh,
                services.drafter,
                services.solver,
                unit_deficits(wh.pool(), units, per_unit)
                if per_unit
                else pool_deficits(wh.pool(), needs),
                max_attempts_per_question=6,
                screens=[gate.screen],
                on_accept=lambda q: gate.add([q]),
            )
            stored = wh.count("questions")
            rows = wh.con.execute(
                "SELECT json_extract_string(content_json, '$.correct_key'), difficulty, format, "
                "json_extract_string(content_json, '$.difficulty_reason') FROM questions"
            ).fetchall()
            keys = Counter(r[0] for r in rows)
            shares = {
                "difficulty": Counter(r[1] for r in rows),
                "format": Counter(r[2] for r in rows),
                "steps": Counter(min(steps_in_reason(r[3]), 4) for r in rows),
            }
        elapsed = time.perf_counter() - started
    spread = ", ".join(f"{k} {keys[k] / max(1, stored):.1%}" for k in "ABCD")
    print(f"  key positions over {stored} stored questions: {spread}")
    for name, counter in shares.items():
        parts = ", ".join(
            f"{'4+' if name == 'steps' and k == 4 else k} {n / max(1, stored):.1%}"
            for k, n in sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))
        )
        print(f"  share per {name}: {parts}")
    short = {
        f"{r.subject.value}/{r.unit_id or ''}/{r.difficulty.value}": r.needed - r.accepted
        for r in reports
        if r.accepted < r.needed
    }
    if per_unit:
        print(f"  cells at {per_unit}: {len(reports) - len(short)} of {len(reports)}")
    if short:
        print(f"  generators ran dry in: {short}")
    rejected: Counter[str] = Counter()
    for r in reports:
        rejected.update(r.reasons)
    print(f"  rejections by reason: {dict(rejected.most_common())}")
    return stored, elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-cell", type=int, default=150, help="drafts per cell in the loop")
    parser.add_argument("--pool", type=int, default=20_000, help="pool size to fill")
    parser.add_argument("--organic", type=int, default=20, help="drafts per organic template")
    parser.add_argument("--organic-only", action="store_true", help="only the organic figures")
    args = parser.parse_args(argv)
    organic(args.organic)
    if args.organic_only:
        return
    core_loop(args.per_cell)
    stored, elapsed = fill(args.pool, batch_size=pool_module.BATCH_SIZE)
    print(
        f"fill to {args.pool}: {stored} questions stored in {elapsed:.1f} s "
        f"({stored / elapsed:.0f}/s, batches of {pool_module.BATCH_SIZE})"
    )
    unit_stored, unit_elapsed = fill(0, batch_size=pool_module.BATCH_SIZE, per_unit=30)
    print(f"per-unit fill, 30 per unit and difficulty: {unit_stored} in {unit_elapsed:.1f} s")
    base_stored, base_elapsed = fill(2_000, batch_size=1)
    print(
        f"baseline, one commit per question: {base_stored} questions in {base_elapsed:.1f} s "
        f"({base_stored / base_elapsed:.0f}/s)"
    )


if __name__ == "__main__":
    main()
