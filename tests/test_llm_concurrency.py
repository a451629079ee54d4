"""The pool fill with model calls under way at once: as many as allowed and never more, and every
guarantee of the one-by-one fill kept (the need, the attempt budget, no draft solved twice, small
commits, the token budget, bad replies and dead providers). Real SDK, real local fake server.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

import pipeline.fill.pool as pool_module
from core.records import Difficulty, SolverAnswer, SolverView, Subject, Verdict
from core.settings import Settings
from core.warehouse import Warehouse, open_warehouse
from kb.knowledge import KnowledgeBase
from kb.syllabus import Syllabus
from pipeline.compose import Services, build_services
from pipeline.fill.engine import UNSOLVED
from pipeline.fill.pool import fill_pool
from pipeline.generate.drafter import CallDrafter, OfflineDrafter
from pipeline.llm.draft import OpenAIDrafter
from pipeline.llm.solve import OpenAISolver
from pipeline.llm.usage import TokenBudget, UsageLedger
from pipeline.verify.gate import solver_view, unanswered
from tests.fake_openai import (
    ChatScript,
    FakeModel,
    FakeOpenAI,
    Gauge,
    api_error,
    chat_completion,
    demand_fields,
    serving,
)
from tests.test_openai_generation import PROMPTS, drafter_for, pick_text, reply

PHYSICS_UNIT = (Subject.PHYSICS, Difficulty.EASY, "phy-u07")
# A unit cell and a whole-subject cell in one fill: fill_pool takes either kind of key.
MIXED_CELLS: dict[Any, int] = {PHYSICS_UNIT: 8, (Subject.CHEMISTRY, Difficulty.HARD): 8}
NEVER = 10**9  # a FakeModel rate that never fires


def numbered_replies() -> Any:
    """A draft turn whose every reply is a different question (numbered under a lock)."""
    lock, n = threading.Lock(), [0]

    def turn(body: dict[str, Any]) -> str:
        with lock:
            n[0] += 1
            return reply(
                stem_markdown=f"Which of these is a vector? ({n[0]})", **demand_fields(body)
            )

    return turn


def openai_services(home: Path, server: FakeOpenAI, concurrency: int) -> Services:
    return build_services(
        Settings(
            home=home,
            llm="openai",
            openai_base_url=server.base_url,
            openai_api_key=SecretStr("test"),
            openai_max_retries=0,
            llm_concurrency=concurrency,
        )
    )


def stored_per_cell(wh: Warehouse) -> Counter[tuple[str, str, str]]:
    pool = wh.pool()
    return Counter(
        (r["subject"], r["difficulty"], r["unit_id"]) for r in pool.iter_rows(named=True)
    )


@pytest.fixture
def model() -> FakeModel:
    # An unsure answer one solve in eleven: the fills here solve some seventy drafts, and each
    # kind of rejection should turn up whatever topics the units' drafts come from.
    return FakeModel(unsure_every=11)


@pytest.fixture
def fake(model: FakeModel) -> Iterator[tuple[FakeOpenAI, ChatScript]]:
    script = model.script()
    with serving({"/v1/chat/completions": script}) as (server, _):
        yield server, script


# -- as many calls as allowed, never more -----------------------------------------------------


def test_calls_run_at_once_up_to_the_concurrency_and_never_more(tmp_path: Path) -> None:
    model = FakeModel(latency=0.02, bad_every=NEVER, disagree_every=NEVER, unsure_every=NEVER)
    inner = model.script()
    barrier = threading.Barrier(4, timeout=10)
    arrivals: list[int] = []
    lock = threading.Lock()

    def route(server: FakeOpenAI, body: dict[str, Any]) -> Any:
        with lock:
            arrivals.append(1)
            first = len(arrivals) <= 4
        if first:  # the first four meet here: only four calls under way at once get past
            barrier.wait()
        return inner(server, body)

    gauge = Gauge(route)
    with serving({"/v1/chat/completions": gauge}) as (server, _):
        services = openai_services(tmp_path, server, concurrency=4)
        assert services.concurrency == 4 and isinstance(services.drafter, CallDrafter)
        with open_warehouse(services.settings.warehouse_path) as wh:
            reports = fill_pool(
                wh,
                services.drafter,
                services.solver,
                MIXED_CELLS,
                concurrency=services.concurrency,
            )
            stored = wh.count("questions")
    assert gauge.most == 4  # reached (the barrier), and never passed
    assert [r.accepted for r in reports] == [8, 8] and stored == 16
    assert len(server.requests) == 32  # every draft agreed with: one draft and one solve each


def test_the_offline_fill_stays_one_by_one_and_identical(
    tmp_path: Path, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    services = build_services(Settings(home=tmp_path / "a"))
    assert services.concurrency == 1 and isinstance(services.drafter, OfflineDrafter)
    assert not isinstance(services.drafter, CallDrafter)
    cells = {PHYSICS_UNIT: 15, (Subject.BOTANY, Difficulty.HARD, "bio-u04"): 15}
    runs = []
    for home, concurrency in ((tmp_path / "a", 1), (tmp_path / "b", 8)):
        with open_warehouse(home / "warehouse.duckdb") as wh:
            fill_pool(wh, services.drafter, services.solver, cells, concurrency=concurrency)
            runs.append(
                wh.con.execute(
                    "SELECT attempt_id, verdict, rejection_reason FROM attempts ORDER BY 1"
                ).fetchall()
            )
    assert runs[0] == runs[1] and len(runs[0]) >= 30


# -- the one-by-one guarantees, with calls under way ------------------------------------------


def test_stored_questions_are_exactly_the_verified_drafts_and_no_more_than_needed(
    tmp_path: Path, fake: tuple[FakeOpenAI, ChatScript], model: FakeModel
) -> None:
    server, script = fake
    services = openai_services(tmp_path, server, concurrency=8)
    units = ("phy-u07", "phy-u14", "phy-u16")
    needs = {(Subject.PHYSICS, d, u): 4 for u in units for d in Difficulty}
    needs |= {(Subject.ZOOLOGY, Difficulty.MEDIUM, "bio-u05"): 10}
    with open_warehouse(services.settings.warehouse_path) as wh:
        reports = fill_pool(
            wh, services.drafter, services.solver, needs, concurrency=services.concurrency
        )
        per_cell = stored_per_cell(wh)
        attempts = wh.con.execute(
            "SELECT draft_id, verdict, rejection_reason, question_id, solver FROM attempts"
        ).fetchall()
        stored = wh.questions()
    assert all(r.accepted == r.needed and not r.exhausted for r in reports)
    assert per_cell == Counter({(s.value, d.value, u): n for (s, d, u), n in needs.items()})
    accepted = {qid for _, verdict, _, qid, _ in attempts if verdict == Verdict.ACCEPTED}
    assert accepted == {q.question_id for q in stored}
    confirmed = {stem for stem, yes in model.confirmed.items() if yes}
    assert {q.content.stem_markdown for q in stored} == confirmed  # exactly the verified drafts
    reasons = Counter((r or "").split(":")[0] for _, v, r, _, _ in attempts if v == "rejected")
    assert reasons["solver_disagreed"] > 0 and reasons["solver_abstained"] > 0
    assert services.drafter.rejections["invalid_json"] > 0  # type: ignore[attr-defined]
    draft_ids = [d for d, *_ in attempts]
    assert len(draft_ids) == len(set(draft_ids))
    solved = [a for a in attempts if a[4].startswith("openai:")]
    assert script.seen.count("SolveReply") == len(solved)  # each solve call left one record


@pytest.mark.parametrize("concurrency", [1, 4])
def test_a_draft_is_never_solved_twice_in_a_run_or_across_runs(
    tmp_path: Path, syllabus: Syllabus, kb: KnowledgeBase, concurrency: int
) -> None:
    script = ChatScript(fallback={"DraftReply": reply(), "SolveReply": pick_text("Velocity")})
    with serving({"/v1/chat/completions": script}) as (server, _):
        drafter = drafter_for(server, syllabus, kb, rounds=10)
        solver = OpenAISolver(server.client(), "solver-model", PROMPTS)
        with open_warehouse(tmp_path / "wh.duckdb") as wh:
            [first] = fill_pool(
                wh, drafter, solver, {PHYSICS_UNIT[:2]: 3}, 2, concurrency=concurrency
            )
            [again] = fill_pool(
                wh, drafter, solver, {PHYSICS_UNIT[:2]: 3}, 2, concurrency=concurrency
            )
            attempts = wh.count("attempts")
    # Every draft is the same question: solved once, then skipped until the budget (3 × 2) ends.
    assert (first.accepted, first.skipped, first.exhausted) == (1, 5, False)
    assert (again.accepted, again.skipped) == (0, 6)
    assert script.seen.count("SolveReply") == 1 and attempts == 1


@pytest.mark.parametrize("concurrency", [1, 4])
def test_a_solve_without_a_reply_leaves_no_attempt_and_is_solved_next_run(
    tmp_path: Path, syllabus: Syllabus, kb: KnowledgeBase, concurrency: int
) -> None:
    script = ChatScript(
        {"SolveReply": [api_error(503)]},
        fallback={"DraftReply": reply(), "SolveReply": pick_text("Velocity")},
    )
    with serving({"/v1/chat/completions": script}) as (server, _):
        solver = OpenAISolver(server.client(max_retries=0), "solver-model", PROMPTS)
        with open_warehouse(tmp_path / "wh.duckdb") as wh:
            drafter = drafter_for(server, syllabus, kb, rounds=1)
            [down] = fill_pool(wh, drafter, solver, {PHYSICS_UNIT[:2]: 1}, concurrency=concurrency)
            assert wh.count("attempts") == 0  # no verdict: nothing that would block a retry
            drafter = drafter_for(server, syllabus, kb, rounds=1)
            [up] = fill_pool(wh, drafter, solver, {PHYSICS_UNIT[:2]: 1}, concurrency=concurrency)
            [(verdict,)] = wh.con.execute("SELECT verdict FROM attempts").fetchall()
    assert (down.accepted, down.rejected, down.unsolved, down.exhausted) == (0, 0, 1, True)
    assert down.reasons == Counter({UNSOLVED: 1})
    assert up.accepted == 1 and verdict == Verdict.ACCEPTED
    assert script.seen.count("DraftReply") == 2 and script.seen.count("SolveReply") == 2


def test_the_attempt_budget_holds_with_calls_under_way(
    tmp_path: Path, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    script = ChatScript(
        fallback={
            "DraftReply": numbered_replies(),
            "SolveReply": pick_text("Speed"),  # always disagrees: every attempt is rejected
        }
    )
    with serving({"/v1/chat/completions": script}) as (server, _):
        drafter = drafter_for(server, syllabus, kb, rounds=50)
        solver = OpenAISolver(server.client(), "solver-model", PROMPTS)
        with open_warehouse(tmp_path / "wh.duckdb") as wh:
            [report] = fill_pool(wh, drafter, solver, {PHYSICS_UNIT[:2]: 2}, 3, concurrency=4)
            attempts = wh.count("attempts")
    assert (report.accepted, report.rejected, report.exhausted) == (0, 6, False)
    assert attempts == 6 and script.seen.count("SolveReply") == 6
    assert script.seen.count("DraftReply") == 6  # no draft started past the budget


def test_commits_come_in_small_batches(
    tmp_path: Path, fake: tuple[FakeOpenAI, ChatScript], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pool_module, "BATCH_SIZE", 5)
    server, _ = fake
    services = openai_services(tmp_path, server, concurrency=8)
    behind: list[int] = []
    with open_warehouse(services.settings.warehouse_path) as wh:
        seen = 0

        def accepted(_: Any) -> None:
            nonlocal seen
            seen += 1
            behind.append(seen - wh.count("questions"))  # verified, not yet committed

        fill_pool(
            wh,
            services.drafter,
            services.solver,
            {PHYSICS_UNIT: 20},
            on_accept=accepted,
            concurrency=8,
        )
        stored = wh.count("questions")
    assert stored == 20 and len(behind) == 20
    assert max(behind) <= 5 and min(behind) == 1  # a kill loses at most one batch


def test_an_unexpected_error_keeps_what_was_verified(
    tmp_path: Path, fake: tuple[FakeOpenAI, ChatScript]
) -> None:
    server, _ = fake
    services = openai_services(tmp_path, server, concurrency=4)
    real = services.solver
    lock, calls = threading.Lock(), [0]

    class Breaks:
        name = real.name

        def solve(self, view: SolverView) -> SolverAnswer:
            with lock:
                calls[0] += 1
                ninth = calls[0] == 9
            if ninth:
                raise RuntimeError("a bug")
            return real.solve(view)

    with open_warehouse(services.settings.warehouse_path) as wh:
        with pytest.raises(RuntimeError, match="a bug"):
            fill_pool(wh, services.drafter, Breaks(), {PHYSICS_UNIT: 30}, concurrency=4)
        kept = wh.count("attempts")
    assert kept >= 8 - 3  # all but the solves still under way when it broke


def test_the_token_budget_stops_drafting_with_calls_under_way(
    tmp_path: Path, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    script = ChatScript(
        fallback={
            "DraftReply": numbered_replies(),
            "SolveReply": pick_text("Velocity"),
        }
    )
    with serving({"/v1/chat/completions": script}) as (server, _):
        ledger = UsageLedger()
        drafter = drafter_for(
            server, syllabus, kb, rounds=50, ledger=ledger, budget=TokenBudget(1200, ledger)
        )
        solver = OpenAISolver(server.client(), "solver-model", PROMPTS, ledger=ledger)
        with open_warehouse(tmp_path / "wh.duckdb") as wh:
            [report] = fill_pool(wh, drafter, solver, {PHYSICS_UNIT[:2]: 40}, concurrency=4)
            stored = wh.count("questions")
    assert drafter.stopped == "token_budget" and report.exhausted
    # 120 tokens a call: ten calls reach 1,200. The last draft started with at most nine spent
    # and four calls under way; each of those drafts may still be solved.
    assert 10 <= len(ledger.calls) <= 9 + 4 + 4
    assert stored == report.accepted >= 1


def test_a_provider_that_is_down_stops_drafting_and_nothing_crashes(
    tmp_path: Path, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    script = ChatScript(fallback={"DraftReply": api_error(503)})
    with serving({"/v1/chat/completions": script}) as (server, _):
        drafter = drafter_for(server, syllabus, kb, rounds=50, max_consecutive_failures=6)
        solver = OpenAISolver(server.client(), "solver-model", PROMPTS)
        cells = {PHYSICS_UNIT[:2]: 5, (Subject.PHYSICS, Difficulty.HARD): 5}
        with open_warehouse(tmp_path / "wh.duckdb") as wh:
            reports = fill_pool(wh, drafter, solver, cells, concurrency=4)
            assert wh.count("attempts") == 0
    assert drafter.stopped == "provider_unavailable"
    assert all(r.exhausted and r.accepted == 0 for r in reports)
    assert 6 <= len(drafter.calls) <= 6 + 3  # the calls under way when the sixth failed
    assert drafter.rejections == Counter({"transport: http_503": len(drafter.calls)})


# -- the solver's side ------------------------------------------------------------------------


def test_a_sample_without_a_reply_ends_the_solve_unanswered(
    tmp_path: Path, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    script = ChatScript(
        {"SolveReply": [pick_text("Velocity"), api_error(503), pick_text("Velocity")]}
    )
    with serving({"/v1/chat/completions": script}) as (server, _):
        solver = OpenAISolver(server.client(), "solver-model", PROMPTS, samples=3)
        drafter = drafter_for(server, syllabus, kb)
        script.add("DraftReply", reply())
        [draft] = list(drafter.drafts(Subject.PHYSICS, Difficulty.EASY, {}))
        answer = solver.solve(solver_view(draft))
    assert unanswered(answer) == "http_503"
    assert script.seen.count("SolveReply") == 2  # the third sample was not paid for


@pytest.mark.parametrize(
    ("answer", "outcome"),
    [
        (
            SolverAnswer(solver="s", choice=None, confidence=0.0, note="transport: timeout"),
            "timeout",
        ),
        (SolverAnswer(solver="s", choice=None, confidence=0.0, note="refusal: transport: x"), None),
        (SolverAnswer(solver="s", choice=None, confidence=0.0, note="invalid_json: x"), None),
        (SolverAnswer(solver="s", choice="A", confidence=0.9), None),
    ],
)
def test_unanswered_means_no_reply_came(answer: SolverAnswer, outcome: str | None) -> None:
    assert unanswered(answer) == outcome


def test_services_carry_the_concurrency(tmp_path: Path) -> None:
    assert build_services(Settings(home=tmp_path, llm_concurrency=16)).concurrency == 1
    settings = Settings(
        home=tmp_path,
        llm="openai",
        openai_api_key=SecretStr("k"),
        llm_concurrency=16,
        openai_base_url=None,
    )
    services = build_services(settings)
    assert services.concurrency == 16
    assert isinstance(services.drafter, OpenAIDrafter) and isinstance(services.drafter, CallDrafter)


def test_bad_replies_over_many_calls_never_stop_the_batch(
    tmp_path: Path, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    turns: list[Any] = [
        "not json",
        chat_completion(None, refusal="no"),
        api_error(500),
        (200, {"unexpected": True}),
    ]
    script = ChatScript(
        {"DraftReply": turns * 3},
        fallback={
            "DraftReply": numbered_replies(),
            "SolveReply": pick_text("Velocity"),
        },
    )
    with serving({"/v1/chat/completions": script}) as (server, _):
        drafter = drafter_for(server, syllabus, kb, rounds=100)
        solver = OpenAISolver(server.client(), "solver-model", PROMPTS)
        with open_warehouse(tmp_path / "wh.duckdb") as wh:
            [report] = fill_pool(wh, drafter, solver, {PHYSICS_UNIT[:2]: 6}, concurrency=4)
    assert report.accepted == 6
    assert sum(drafter.rejections.values()) == 12
    assert drafter.stopped is None


def test_twins_whose_solves_overlap_are_not_both_stored(tmp_path: Path) -> None:
    """Three twins all pass the duplicate screen before any is accepted; only one is stored."""
    services = build_services(Settings(home=tmp_path))
    cell = (Subject.PHYSICS, Difficulty.EASY)
    base = next(iter(services.drafter.drafts(*cell, {})))
    key = base.content.correct_key
    in_flight = threading.Barrier(3, timeout=30)  # every solve waits until all three are out

    class Twins:
        def pending(self, *args: Any, **kwargs: Any) -> Iterator[int]:
            yield from range(3)

        def draft(self, i: int) -> Any:
            content = base.content.model_copy(
                update={"stem_markdown": f"{base.content.stem_markdown} (v{i})"}
            )
            return base.model_copy(update={"content": content})

        def drafts(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
            return (self.draft(i) for i in self.pending())

    class Agrees:
        name = "agrees"

        def solve(self, view: SolverView) -> SolverAnswer:
            in_flight.wait()
            return SolverAnswer(solver=self.name, choice=key, confidence=0.9)

    stored: list[str] = []

    def gate(draft: Any) -> str | None:  # stands in for the own near-duplicate gate
        return "near_duplicate_own: twin" if stored else None

    with open_warehouse(tmp_path / "wh.duckdb") as wh:
        [report] = fill_pool(
            wh,
            Twins(),
            Agrees(),
            {cell: 3},
            screens=[gate],
            on_accept=lambda q: stored.append(q.question_id),
            concurrency=3,
        )
        assert wh.count("questions") == 1 == report.accepted == len(stored)
    assert report.rejected == 2 and report.reasons["near_duplicate_own"] == 2
