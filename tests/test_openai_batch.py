"""The pool fill through the Batch API, with the real SDK against a local fake Batch server.

A fill is resumed across runs (submitted, polled, solved, committed); the stored set is
exactly the drafts the solver confirmed; a run that dies after creating a batch never creates
it again; a finished fill costs nothing more; failed and expired batches end with a reason.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from core.ids import question_id
from core.records import (
    Difficulty,
    Draft,
    QuestionFormat,
    SolverAnswer,
    Subject,
    Verdict,
)
from core.settings import Settings
from core.storage import LocalObjectStore, ObjectStore
from core.warehouse import open_warehouse
from flows.steps import batch_fill_step
from kb.knowledge import KnowledgeBase
from kb.syllabus import Syllabus
from pipeline.compose import Services, build_services
from pipeline.fill.batch import CLOCK_SKEW, BatchFillReport, batch_fill
from pipeline.llm.batch import (
    PREFIX,
    DoneRecord,
    DraftPlan,
    ModelCall,
    batch_answer,
    batch_answers,
    batch_drafts,
    draft_lines,
    fills_of,
    output_lines,
    record_bytes,
    record_key,
    solve_lines,
)
from pipeline.llm.context import BundledContext
from pipeline.llm.draft import DraftRequest, OpenAIDrafter, draft_messages
from pipeline.llm.solve import IDENTITY, shuffled_order, view_id
from pipeline.verify.gate import solver_view
from tests.fake_openai import chat_completion, demand_fields
from tests.fake_openai_batch import (
    MISSING,
    ErrorLine,
    FakeBatchAPI,
    StatusLine,
    batch_serving,
)
from tests.test_openai_generation import NUMERICAL, PROMPTS

UNIT = "phy-u17"  # five Physics topics, all with context: ten requests a round
CELL = (Subject.PHYSICS, Difficulty.EASY, UNIT)
VECTOR_OPTIONS = ["Speed", "Velocity", "Mass", "Work"]


# -- a scripted drafter and solver --------------------------------------------------------------


def user_text(body: dict[str, Any]) -> str:
    return str([m for m in body["messages"] if m["role"] == "user"][-1]["content"])


def schema_of(body: dict[str, Any]) -> str:
    return str(body["response_format"]["json_schema"]["name"])


def shown(body: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """The stem and the options (shown letter → text) of a solve request."""
    stem, _, listing = user_text(body).partition("\n\n(A) ")
    return stem, dict(re.findall(r"^\(([ABCD])\) (.*)$", "(A) " + listing, re.MULTILINE))


def solve_reply(choice: str, confidence: float = 0.95) -> str:
    return json.dumps({"working": "scripted", "choice": choice, "confidence": confidence})


class Scenario:
    """Draft lines by position in the draft batch, and a solver that behaves as each says.

    Even positions are single-correct requests, odd ones numericals (two formats a topic).
    """

    def __init__(self, kinds: Iterable[str]) -> None:
        self.kinds = list(kinds)
        self.positions: dict[str, int] = {}
        self.behaviour: dict[str, tuple[str, str]] = {}  # stem → (kind, key text)
        self.chosen: dict[str, str] = {}  # stem → letter the solver said

    def __call__(self, custom_id: str, body: dict[str, Any]) -> Any:
        if schema_of(body) == "DraftReply":
            n = self.positions.setdefault(custom_id, len(self.positions))
            return self.draft(n, self.kinds[n], body)
        return self.solve(body)

    def draft(self, n: int, kind: str, body: dict[str, Any]) -> Any:
        text = user_text(body)
        chunk = re.search(r"^\[([^\]]+)\] \(chunk\)", text, re.MULTILINE)
        assert chunk is not None
        scripted = {
            "bad_json": '{"stem_markdown": ',
            "refusal": chat_completion(None, refusal="I won't.", model=body["model"]),
            "error_line": ErrorLine("server_error"),
            "status_500": StatusLine(500),
            "missing_line": MISSING,
        }
        if kind in scripted:
            return scripted[kind]
        label = f"Q{n - 10 if kind == 'duplicate' else n}"
        if "Format: numerical" in text:
            fields: dict[str, Any] = {**NUMERICAL}
            fields["stem_markdown"] = f"{label}. {NUMERICAL['stem_markdown']}"
            key_text = NUMERICAL["options"][0]
        else:
            fields = {"stem_markdown": f"{label}. Which of these quantities is a vector?"}
            fields |= {"options": list(VECTOR_OPTIONS), "correct_key": "B"}
            key_text = "Velocity"
        if kind == "hygiene":
            key_text = "Velocity, which has both magnitude and direction"
            fields["options"] = ["Speed", key_text, "Mass", "Work"]
        if kind == "three_options":
            fields["options"] = fields["options"][:3]
        fields |= {"context_ids": [chunk.group(1)]}
        base = {
            "explanation_markdown": "Velocity has a direction.",
            "figure_id": None,
            "answer_expression": None,
            "answer_unit": None,
        }
        self.behaviour.setdefault(fields["stem_markdown"], (kind, key_text))
        return json.dumps(base | fields)

    def solve(self, body: dict[str, Any]) -> Any:
        stem, options = shown(body)
        kind, key_text = self.behaviour[stem]
        key_letter = next(k for k, t in options.items() if t == key_text)
        if kind == "solve_error":
            return ErrorLine("server_error")
        if kind == "solve_missing":
            return MISSING
        if kind == "solve_bad_json":
            return '{"choice": '
        if kind == "solve_refusal":
            return chat_completion(None, refusal="No.", model=body["model"])
        if kind == "disagree":
            return solve_reply(next(k for k in options if k != key_letter))
        if kind == "naive":  # the stored key's letter, as if the options were never shuffled
            return solve_reply("A" if "$" in key_text else "B")
        self.chosen[stem] = key_letter
        return solve_reply(key_letter, 0.3 if kind == "unsure" else 0.95)


# -- fixtures -------------------------------------------------------------------------------------


def batch_settings(home: Path, server: FakeBatchAPI, **overrides: Any) -> Settings:
    fields: dict[str, Any] = {
        "home": home,
        "llm": "openai",
        "llm_batch": True,
        "openai_base_url": server.base_url,
        "openai_api_key": "test",
        "openai_max_retries": 0,
        "openai_timeout_seconds": 10.0,
        "openai_draft_model": "draft-model",
        "openai_solver_model": "solver-model",
        "solver_min_confidence": 0.6,
    }
    return Settings(**(fields | overrides))


def batch_services(home: Path, server: FakeBatchAPI, rounds: int = 3, **overrides: Any) -> Services:
    services = build_services(batch_settings(home, server, **overrides))
    assert isinstance(services.drafter, OpenAIDrafter)
    services.drafter.rounds = rounds
    return services


class Crash(BaseException):  # not an error the code may catch: the process is gone
    """The process dying at a chosen write (as a SIGKILL would, nothing after it runs)."""


class CrashingStore:
    """An object store that dies at the first create-only write of a key ending in `suffix`."""

    def __init__(self, inner: ObjectStore, suffix: str) -> None:
        self.inner = inner
        self.suffix = suffix

    def put_new(self, items: Iterable[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
        items = list(items)
        if any(k.endswith(self.suffix) for k, _ in items):
            raise Crash(self.suffix)
        return self.inner.put_new(items)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def run(services: Services, deficits: dict[Any, int], store: Any = None) -> BatchFillReport:
    if store is not None:
        services = dataclasses.replace(services, store=store)
    with open_warehouse(services.settings.warehouse_path) as wh:
        return batch_fill(services, wh, deficits)


def stored_and_attempts(services: Services) -> tuple[set[str], list[tuple[str, str, str]]]:
    with open_warehouse(services.settings.warehouse_path, read_only=True) as wh:
        stored = {q.content.stem_markdown for q in wh.questions()}
        rows = wh.con.execute(
            "SELECT draft_id, verdict, coalesce(rejection_reason, '') FROM attempts"
        ).fetchall()
    return stored, rows


# -- end to end: a fill resumed across runs -------------------------------------------------------

KINDS = [
    "agree",
    "bad_json",
    "disagree",
    "error_line",
    "hygiene",
    "naive",
    "missing_line",
    "agree",
    "refusal",
    "solve_bad_json",
    "duplicate",  # the same draft as position 0 (same topic and format, the next variant)
    "unsure",
    "three_options",
    "solve_missing",
    "status_500",
    "solve_refusal",
    "solve_error",
    "agree",
]


def test_a_fill_resumed_across_runs_stores_exactly_the_verified_drafts(tmp_path: Path) -> None:
    scenario = Scenario(KINDS)
    with batch_serving(scenario) as fake:
        services = batch_services(tmp_path / "home", fake, rounds=2)
        deficits = {CELL: 9}  # two drafts a missing question: 18 requests
        first = run(services, deficits)
        [drafts_batch] = fake.batch_ids("drafts")
        assert [r.stage for r in first.submitted] == ["drafts"] and fake.creates == 1
        assert [(p.stage, p.batch_id, p.status) for p in first.pending] == [
            ("drafts", drafts_batch, "validating")
        ]
        lines = fake.input_lines(drafts_batch)
        assert len(lines) == 18 and len({line["custom_id"] for line in lines}) == 18

        fake.advance("in_progress")
        calls = fake.total_calls
        second = run(services, deficits)  # polled, nothing else
        assert [p.status for p in second.pending] == ["in_progress"] and not second.submitted
        assert fake.total_calls == calls + 1 and fake.creates == 1

        fake.advance("completed")
        third = run(services, deficits)
        [solves_batch] = fake.batch_ids("solves")
        assert [r.stage for r in third.submitted] == ["solves"] and fake.creates == 2
        assert third.draft_rejections == Counter(
            {
                "invalid_json": 1,
                "refusal": 1,
                "not_four_options": 1,
                "transport: batch_error: server_error": 1,
                "transport: http_500": 1,
                "transport: missing_line": 1,
            }
        )
        assert third.skipped == 1 and third.reasons == Counter({"hygiene": 1})
        assert len(fake.input_lines(solves_batch)) == 10  # twelve drafts, a twin, hygiene

        fake.advance("completed")
        fourth = run(services, deficits)
        stored, attempts = stored_and_attempts(services)
        assert not fourth.pending and not fourth.submitted and fourth.accepted == 3

        # a rerun once the pool holds what it lacked pays for nothing
        calls = fake.total_calls
        fifth = run(services, {})
        assert fake.total_calls == calls and fake.creates == 2
        assert (fifth.submitted, fifth.pending, fifth.finished) == ([], [], [])

    kinds = Counter(scenario.behaviour[stem][0] for stem in stored)
    assert kinds == Counter({"agree": 3})  # exactly the drafts the solver confirmed
    accepted = {d for d, verdict, _ in attempts if verdict == Verdict.ACCEPTED}
    with open_warehouse(services.settings.warehouse_path, read_only=True) as wh:
        questions = wh.questions()
    assert accepted == {q.question_id for q in questions}
    assert all(q.provenance.generator == "openai:draft-model" for q in questions)
    assert all(q.verdict.solver == "openai:solver-model" for q in questions)
    reasons = Counter(r.split(":")[0] for _, v, r in attempts if v == Verdict.REJECTED)
    assert reasons == Counter({"solver_disagreed": 2, "solver_abstained": 3, "hygiene": 1})
    assert "solver_abstained: low confidence 0.30 < 0.6 (chose " in " ".join(
        r for _, _, r in attempts
    )
    assert fourth.unsolved == Counter({"missing_line": 1, "batch_error: server_error": 1})
    # the solver agreed at shown letters that are not the stored keys: the shuffle was undone
    assert len(scenario.chosen) == 4 and all(
        letter != ("A" if "$" in scenario.behaviour[stem][1] else "B")
        for stem, letter in scenario.chosen.items()
    )
    [done] = fourth.finished
    assert (done.outcome, done.accepted, done.rejected, done.skipped) == ("completed", 3, 6, 1)
    assert dict(done.unsolved) == {"missing_line": 1, "batch_error: server_error": 1}
    usage = services.usage
    assert usage is not None
    purposes = Counter(c.purpose for c in usage.calls)
    assert purposes == Counter({"batch_draft": 17, "batch_solve": 9})  # lines that came back
    assert {c.model for c in usage.calls} == {"draft-model", "solver-model"}
    assert sum(c.total_tokens for c in usage.calls) == 120 * (14 + 1 + 7 + 1)  # ok, refusals


# -- never twice --------------------------------------------------------------------------------


def agreeing(custom_id: str, body: dict[str, Any]) -> Any:
    """Every draft good (its stem names its request), every answer the key."""
    if schema_of(body) == "DraftReply":
        chunk = re.search(r"^\[([^\]]+)\] \(chunk\)", user_text(body), re.MULTILINE)
        assert chunk is not None
        return json.dumps(
            {
                "stem_markdown": f"{custom_id}: which of these quantities is a vector?",
                "options": VECTOR_OPTIONS,
                "correct_key": "B",
                "explanation_markdown": "Velocity has a direction.",
                "context_ids": [chunk.group(1)],
                **demand_fields(body),
            }
        )
    _, options = shown(body)
    return solve_reply(next(k for k, t in options.items() if t == "Velocity"))


SINGLE_ONLY = {Subject.PHYSICS: (QuestionFormat.SINGLE_CORRECT,)}


def test_a_run_that_dies_after_creating_a_batch_never_creates_it_again(tmp_path: Path) -> None:
    with batch_serving(agreeing) as fake:
        services = batch_services(tmp_path / "home", fake)
        services.drafter.formats = SINGLE_ONLY  # type: ignore[attr-defined]
        store = services.store
        deficits = {CELL: 2}
        with pytest.raises(Crash):
            run(services, deficits, CrashingStore(store, "/drafts"))  # created, not recorded
        assert fake.creates == 1 and fake.calls["POST /files"] == 1
        again = run(services, deficits)
        assert fake.creates == 1 and fake.calls["POST /files"] == 1
        [record] = again.submitted
        assert record.batch_id == fake.batch_ids("drafts")[0]

        fake.advance("completed")
        with pytest.raises(Crash):
            run(services, deficits, CrashingStore(store, "/solves"))
        assert fake.creates == 2
        again = run(services, deficits)
        assert fake.creates == 2 and [r.stage for r in again.submitted] == ["solves"]

        fake.advance("completed")
        with pytest.raises(Crash):  # committed to the warehouse, then died before `done`
            run(services, deficits, CrashingStore(store, "/done"))
        stored, attempts = stored_and_attempts(services)
        assert len(stored) == 4 and len(attempts) == 4
        last = run(services, deficits)
        assert [d.outcome for d in last.finished] == ["completed"]
        assert (last.accepted, last.skipped) == (0, 4)  # nothing judged or stored twice
        assert stored_and_attempts(services) == (stored, attempts)
        assert fake.creates == 2


def test_the_search_for_a_created_batch_pages_and_stops_at_the_plan(tmp_path: Path) -> None:
    with batch_serving(agreeing) as fake:
        services = batch_services(tmp_path / "home", fake)
        services.drafter.formats = SINGLE_ONLY  # type: ignore[attr-defined]
        with pytest.raises(Crash):
            run(services, {CELL: 1}, CrashingStore(services.store, "/drafts"))
        client = fake.client()
        for n in range(150):  # someone else's batches, created later
            upload = client.files.create(file=(f"x{n}.jsonl", b""), purpose="batch")
            client.batches.create(
                input_file_id=upload.id,
                endpoint="/v1/chat/completions",
                completion_window="24h",
                metadata={"owner": "another app"},
            )
        lists = fake.calls["GET /batches"]
        run(services, {CELL: 1})
        assert fake.calls["GET /batches"] - lists == 2  # 100 a page: found on the second
        assert fake.creates == 151

        # a new plan: every batch there is older, so the search stops at the first one
        other = batch_services(tmp_path / "other", fake)
        other.drafter.formats = SINGLE_ONLY  # type: ignore[attr-defined]
        later = dt.datetime.now(dt.UTC) + 2 * CLOCK_SKEW
        lists = fake.calls["GET /batches"]
        with open_warehouse(other.settings.warehouse_path) as wh:
            batch_fill(other, wh, {CELL: 1}, now=lambda: later)
        assert fake.calls["GET /batches"] - lists == 1 and fake.creates == 152
        client.close()


def test_a_server_that_cannot_list_batches_goes_by_the_stored_records(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with batch_serving(agreeing) as fake:
        fake.listing = False
        services = batch_services(tmp_path / "home", fake)
        services.drafter.formats = SINGLE_ONLY  # type: ignore[attr-defined]
        first = run(services, {CELL: 1})
        assert first.errors == [] and [r.stage for r in first.submitted] == ["drafts"]
        assert fake.calls["GET /batches"] >= 1  # asked, answered 404, and went on
        assert "GET /v1/batches is not supported here (http_404)" in caplog.text
        again = run(services, {CELL: 1})  # the stored record is found: nothing created twice
        assert again.errors == [] and fake.creates == 1


def test_a_failed_batch_ends_its_fill_and_the_next_run_starts_another(tmp_path: Path) -> None:
    with batch_serving(agreeing) as fake:
        services = batch_services(tmp_path / "home", fake)
        services.drafter.formats = SINGLE_ONLY  # type: ignore[attr-defined]
        deficits = {CELL: 1}
        first = run(services, deficits)
        fake.advance("failed")
        ended = run(services, deficits)
        assert [d.outcome for d in ended.finished] == ["drafts_failed"]
        assert not ended.submitted and fake.creates == 1
        assert stored_and_attempts(services) == (set(), [])
        retry = run(services, deficits)  # the same requests again, as a new fill
        assert fake.creates == 2
        assert retry.submitted[0].fill_id != first.submitted[0].fill_id
        assert retry.submitted[0].custom_ids == first.submitted[0].custom_ids


def test_an_expired_batch_keeps_what_finished_in_time(tmp_path: Path) -> None:
    with batch_serving(agreeing) as fake:
        services = batch_services(tmp_path / "home", fake)
        services.drafter.formats = SINGLE_ONLY  # type: ignore[attr-defined]
        deficits = {CELL: 2}
        run(services, deficits)
        [drafts] = fake.batch_ids("drafts")
        kept = {line["custom_id"] for line in fake.input_lines(drafts)[:3]}
        fake.expire(drafts, keep=kept.__contains__)
        collected = run(services, deficits)
        assert collected.draft_rejections == Counter({"transport: missing_line": 1})
        [solves] = fake.batch_ids("solves")
        fake.expire(solves, keep=lambda custom_id: False)  # nothing finished: no output file
        ended = run(services, deficits)
        [done] = ended.finished
        assert done.outcome == "drafts_expired, solves_expired"
        assert stored_and_attempts(services) == (set(), [])


def test_a_provider_that_is_down_is_reported_and_the_next_run_resumes(tmp_path: Path) -> None:
    with batch_serving(agreeing) as fake:
        services = batch_services(tmp_path / "home", fake)
        services.drafter.formats = SINGLE_ONLY  # type: ignore[attr-defined]
        run(services, {CELL: 1})
    down = run(services, {CELL: 1})  # the server is gone
    assert down.errors and down.errors[0].endswith("connection_error")
    assert not down.pending and not down.submitted


def test_offline_services_refuse_batch_mode(tmp_path: Path) -> None:
    services = build_services(Settings(home=tmp_path / "home", llm_batch=True))
    with open_warehouse(services.settings.warehouse_path) as wh, pytest.raises(ValueError):
        batch_fill(services, wh, {CELL: 1})
    assert batch_fill_step(services, dt.date(2026, 1, 5)) is None  # the nightly step is off


def test_the_nightly_step_asks_for_what_the_date_s_paper_lacks(
    tmp_path: Path, syllabus: Syllabus
) -> None:
    from pipeline.assemble.assembly import assemble_paper
    from pipeline.assemble.request import Shortfall, daily_request

    day = dt.date(2026, 1, 5)
    with batch_serving(agreeing) as fake:
        off = batch_services(tmp_path / "off", fake, llm_batch=False)
        assert batch_fill_step(off, day) is None
        services = batch_services(tmp_path / "home", fake)
        report = batch_fill_step(services, day)
        assert report is not None and [r.stage for r in report.submitted] == ["drafts"]
        [batch_id] = fake.batch_ids("drafts")
        asked: Counter[tuple[Subject, Difficulty, str]] = Counter()
        for line in fake.input_lines(batch_id):
            _, topic_id, difficulty, _, _ = line["custom_id"].split(":")
            topic = syllabus.topic(topic_id)
            asked[(topic.subject, Difficulty(difficulty.capitalize()), topic.unit_id)] += 1
    blueprint = services.blueprint
    with open_warehouse(services.settings.warehouse_path, read_only=True) as wh:
        short = assemble_paper(wh.pool(), daily_request(blueprint, day), blueprint)
    assert isinstance(short, Shortfall)
    assert set(asked) <= set(short.cells) and asked.total() > short.total
    assert all(n <= 2 * short.cells[cell] for cell, n in asked.items())  # two drafts a question


# -- the pure parts -------------------------------------------------------------------------------


@pytest.fixture
def requests(syllabus: Syllabus, kb: KnowledgeBase) -> list[DraftRequest]:
    topic = syllabus.topic("phy-si-units")
    context = BundledContext(kb).context(topic)
    return [
        DraftRequest(topic, Difficulty.EASY, QuestionFormat.SINGLE_CORRECT, v, context)
        for v in range(2)
    ]


def a_draft(requests: list[DraftRequest], stem: str = "Which of these is a vector?") -> Draft:
    body = {
        "stem_markdown": stem,
        "options": VECTOR_OPTIONS,
        "correct_key": "B",
        "explanation_markdown": "Velocity has a direction.",
        "context_ids": [next(iter(requests[0].context_ids))],
    }
    line = {
        "custom_id": requests[0].template_id,
        "response": {"status_code": 200, "body": chat_completion(json.dumps(body))},
    }
    [(_, draft)] = batch_drafts(requests[:1], output_lines(json.dumps(line)))
    assert isinstance(draft, Draft)
    return draft


def test_draft_lines_are_the_synchronous_requests(requests: list[DraftRequest]) -> None:
    lines = draft_lines(PROMPTS, requests, ModelCall("m", 1500, 0.7))
    assert [line["custom_id"] for line in lines] == [r.template_id for r in requests]
    first = lines[0]
    assert (first["method"], first["url"]) == ("POST", "/v1/chat/completions")
    body = first["body"]
    assert body["messages"] == draft_messages(PROMPTS, requests[0])
    assert (body["model"], body["max_tokens"], body["temperature"]) == ("m", 1500, 0.7)
    schema = body["response_format"]["json_schema"]
    assert (schema["name"], schema["strict"]) == ("DraftReply", True)
    assert schema["schema"]["additionalProperties"] is False


def test_solve_lines_show_each_sample_its_own_derangement(requests: list[DraftRequest]) -> None:
    draft = a_draft(requests)
    lines = solve_lines(PROMPTS, [draft], 3, ModelCall("s", 400, 0.7))
    draft_id = question_id(draft.content)
    assert [line["custom_id"] for line in lines] == [f"{draft_id}#{s}" for s in range(3)]
    seed = view_id(solver_view(draft))
    for sample, line in enumerate(lines):
        order = shuffled_order(seed, sample)
        _, options = shown(line["body"])
        assert options == {
            label: draft.content.option(stored).text
            for label, stored in zip(IDENTITY, order, strict=True)
        }
        assert all(order[i] != IDENTITY[i] for i in range(4))
        assert line["body"]["response_format"]["json_schema"]["name"] == "SolveReply"
        assert "Velocity has a direction" not in json.dumps(line)  # never the explanation


def test_output_lines_name_every_way_a_line_can_fail() -> None:
    ok = {"custom_id": "a", "response": {"status_code": 200, "body": chat_completion("{}")}}
    text = "\n".join(
        [
            json.dumps(ok),
            json.dumps({"custom_id": "b", "response": None, "error": {"code": "timeout"}}),
            json.dumps({"custom_id": "c", "response": {"status_code": 429, "body": {}}}),
            "{not json",
            json.dumps({"no": "custom id"}),
        ]
    )
    retried = json.dumps({**ok, "custom_id": "b"})
    out = output_lines(text, retried)
    assert out.unreadable == 2
    assert out.lines["a"].reply is not None and out.lines["a"].prompt_tokens == 100
    assert out.lines["b"].reply is not None  # a reply wins over an error line
    assert out.lines["c"].failure == "http_429" and out.lines["c"].reply is None
    assert output_lines(text).lines["b"].failure == "batch_error: timeout"


def test_batch_answer_is_the_synchronous_verdict(requests: list[DraftRequest]) -> None:
    draft = a_draft(requests)
    assert (
        batch_answers(draft, 2, output_lines(""), "s")
        == [SolverAnswer(solver="s", choice=None, confidence=0.0, note="transport: missing_line")]
        * 2
    )
    nothing = batch_answers(draft, 2, output_lines(""), "s")
    assert batch_answer(nothing, "s", 0.6) is None  # not solved: no attempt
    mixed = [*nothing[:1], SolverAnswer(solver="s", choice="B", confidence=0.9)]
    assert batch_answer(mixed, "s", 0.6) is None  # one sample lost: not solved, as live
    unsure = [SolverAnswer(solver="s", choice="B", confidence=0.5)] * 2
    low = batch_answer(unsure, "s", 0.6)
    assert low is not None and low.choice is None  # 0.5 mean confidence abstains
    assert low.note == "low confidence 0.50 < 0.6 (chose B)"


class OverflowingNumerical(Scenario):
    """Numerical draft lines print a distractor as 2.5 × 10^400 J, which no float holds."""

    def draft(self, n: int, kind: str, body: dict[str, Any]) -> Any:
        out = super().draft(n, "agree", body)
        if kind == "overflow" and isinstance(out, str) and "$" in out:
            data = json.loads(out)
            data["options"][1] = "$2.5 \\times 10^{400}\\ \\mathrm{J}$"
            return json.dumps(data)
        return out


def test_an_uncheckable_numerical_line_is_a_rejection_not_a_stuck_fill(tmp_path: Path) -> None:
    with batch_serving(OverflowingNumerical(["agree", "overflow"] * 10)) as fake:
        services = batch_services(tmp_path / "home", fake, rounds=2)
        run(services, {CELL: 9})
        fake.advance("completed")
        report = run(services, {CELL: 9})  # collect the drafts: no exception escapes
    assert report.errors == [] and len(report.submitted) == 1  # the solves went out
    assert report.draft_rejections["uncheckable_numbers"] >= 1


def test_records_round_trip_through_the_store(tmp_path: Path, requests: list[DraftRequest]) -> None:
    store = LocalObjectStore(tmp_path)
    at = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    plan = DraftPlan(
        fill_id="fill-1", content_key="b-1", model="m", requests=tuple(requests), created_at=at
    )
    done = DoneRecord(fill_id="fill-1", outcome="completed", created_at=at)
    store.put_new([(record_key("fill-1", "drafts-plan"), record_bytes(plan))])
    store.put_new([(record_key("fill-1", "done"), record_bytes(done))])
    [fill] = fills_of({k: store.get(k) or b"" for k in store.keys(PREFIX)})
    assert fill.draft_plan == plan and fill.done == done and not fill.open
    assert store.keys(PREFIX) == [
        "internal/llm-batches/fill-1/done",
        "internal/llm-batches/fill-1/drafts-plan",
    ]


# -- the command line -----------------------------------------------------------------------------


def test_the_cli_runs_one_step_and_prints_what_is_pending(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from flows.cli import main

    with batch_serving(agreeing) as fake:
        env = {
            "QFORGE_HOME": str(tmp_path / "home"),
            "QFORGE_LLM": "openai",
            "QFORGE_OPENAI_BASE_URL": fake.base_url,
            "QFORGE_OPENAI_API_KEY": "test",
            "QFORGE_OPENAI_MAX_RETRIES": "0",
        }
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        argv = ["pool", "fill", "--batch", "--subject", "Physics", "--per-cell", "1"]
        assert main(argv) == 0  # three difficulties, one single-correct and one numerical each
        [drafts] = fake.batch_ids("drafts")
        out = capsys.readouterr().out
        assert f"submitted drafts {drafts}  6 requests" in out
        assert f"pending   drafts {drafts}  validating: 0/6 done" in out
        fake.advance("completed")
        assert main(argv) == 0
        [solves] = fake.batch_ids("solves")
        out = capsys.readouterr().out
        assert f"pending   solves {solves}  validating: 0/3 done" in out
        assert "drafts refused: numerical_without_expression ×3" in out
        fake.advance("completed")
        assert main(argv) == 0
        out = capsys.readouterr().out
    # The three drafts differ only in their request ids: twins the own near-duplicate gate lets
    # through one at a time, so it refuses two of them once the first is stored.
    assert "completed: +1 stored, 2 rejected (near_duplicate_own ×2)" in out
    assert "0 pending" in out and "again later" not in out
