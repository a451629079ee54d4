"""What students' answers cost the nightly: ingest, calibration and triage against a night with
none (the baseline, the same home one night earlier, in the same run).

`python -m bench.feedback [--learners 2000 --items 300 --share 0.4]`: a fresh home (topic and
figure floors off, so the first night is short), one nightly, a second with no answers (the
baseline), then answers from simulated learners (pipeline.calibrate.simulate) written to the
outbox as the worker writes them, 500 a batch, and a third nightly. Prints each feedback step's
seconds and the whole night's, both nights.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import tempfile
import time
from pathlib import Path

from core.feedback import Answer, AnswerBatch, answers_key
from core.settings import Settings
from core.warehouse import open_warehouse
from flows.nightly import call_directly, run_nightly
from pipeline.calibrate.simulate import simulated_answers, simulated_bank
from pipeline.compose import build_services

FIRST = dt.date(2026, 12, 1)
STEPS = ("ingest_feedback", "calibrate", "triage")
BATCH = 500


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=2_000)
    parser.add_argument("--items", type=int, default=300)
    parser.add_argument("--share", type=float, default=0.4, help="items each learner answers")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as home:
        settings = Settings(home=Path(home), topic_floor=0, figure_floor=0)
        services = build_services(settings)
        run_nightly(services, FIRST, call=call_directly)
        base = run_nightly(services, FIRST + dt.timedelta(days=1), call=call_directly)
        with open_warehouse(settings.warehouse_path) as wh:
            questions = wh.questions()[: args.items]
        bank = simulated_bank(len(questions), args.learners, seed=1)
        bank = dataclasses.replace(
            bank,
            question_ids=tuple(q.question_id for q in questions),
            keys=tuple(q.content.correct_key for q in questions),
            true_answers=tuple(q.content.correct_key for q in questions),
        )
        rows = simulated_answers(bank, seed=2, answered_share=args.share, skip_rate=0.03).to_dicts()
        t0 = time.perf_counter()
        for n in range(0, len(rows), BATCH):
            batch = AnswerBatch(
                batch_id=f"bench-{n:09d}",
                key_id="key-bench",
                received_at=dt.datetime.now(dt.UTC),
                answers=tuple(
                    Answer(
                        question_id=r["question_id"],
                        exam_id="daily-2026-12-02",
                        learner_id=r["learner_id"],
                        chosen_key=r["chosen_key"],
                        seconds=60.0,
                    )
                    for r in rows[n : n + BATCH]
                ),
            )
            services.store.put(
                answers_key("key-bench", batch.batch_id), batch.model_dump_json().encode()
            )
        written = time.perf_counter() - t0
        night = run_nightly(services, FIRST + dt.timedelta(days=2), call=call_directly)
    print(
        f"{len(rows):,} answers from {args.learners:,} learners on {len(questions)} questions "
        f"({-(-len(rows) // BATCH)} outbox objects, written in {written:.1f} s)"
    )
    print(f"{'step':<18}{'no answers (s)':>16}{'with answers (s)':>18}")
    for step in (*STEPS, "whole night"):
        before, after = (
            (sum(r.report.step_seconds.values()) for r in (base, night))
            if step == "whole night"
            else (r.report.step_seconds.get(step, 0.0) for r in (base, night))
        )
        print(f"{step:<18}{before:>16.2f}{after:>18.2f}")


if __name__ == "__main__":
    main()
