"""The nightly fill through a Batch API, as data: request files, output files, state records.

A fill goes through two batches: drafts, then solves of the drafts that passed hygiene and the
screens. Everything here is pure: the JSONL request lines (`draft_lines`, `solve_lines`), what
an output file says per `custom_id` (`output_lines`) and what that means (`batch_drafts`,
`batch_answers`, `batch_answer`, `batch_calls`), and the immutable records that let the next run
resume (`DraftPlan`, `SolvePlan`, `BatchRecord`, `DoneRecord` under `internal/llm-batches/`).
A plan is stored before its batch is created and names the batch's `content_key`, which goes
into the batch's metadata: a run that died between creating a batch and storing its record
finds the batch again by that key instead of submitting it twice. `pipeline/fill/batch.py` does
the I/O.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from core.ids import digest, question_id
from core.records import Draft, SolverAnswer
from pipeline.llm.draft import DraftReply, DraftRequest, draft_messages, parse_draft
from pipeline.llm.rejections import Reason, Rejection
from pipeline.llm.solve import (
    SolveReply,
    parse_solve,
    shuffled_order,
    solver_messages,
    view_id,
    vote,
)
from pipeline.llm.usage import CallRecord, ModelReply, reply_of, usage_counts
from pipeline.verify.gate import NO_REPLY_NOTE, solver_view, unanswered

PREFIX = "internal/llm-batches/"
ENDPOINT = "/v1/chat/completions"
# The provider's limit on requests in one batch file.
MAX_REQUESTS = 50_000
# Batch statuses after which nothing more will happen to a batch.
TERMINAL = frozenset({"completed", "failed", "expired", "cancelled"})
Stage = Literal["drafts", "solves"]
RecordName = Literal["drafts-plan", "drafts", "solves-plan", "solves", "done"]
MISSING_LINE = "missing_line"


def record_key(fill_id: str, name: RecordName) -> str:
    """The object-store key of one record of a fill."""
    return f"{PREFIX}{fill_id}/{name}"


def fill_of(key: str) -> tuple[str, str] | None:
    """(fill id, record name) of a key under PREFIX, or None for any other key."""
    if not key.startswith(PREFIX):
        return None
    fill_id, _, name = key.removeprefix(PREFIX).partition("/")
    return (fill_id, name) if fill_id and name else None


# -- request lines ----------------------------------------------------------------------------


@lru_cache(maxsize=4)
def _response_format(schema: type[BaseModel]) -> str:
    from openai.lib._parsing._completions import type_to_response_format_param

    # The same strict JSON schema `chat.completions.parse` sends for a synchronous call.
    return json.dumps(type_to_response_format_param(schema))


def response_format(schema: type[BaseModel]) -> dict[str, Any]:
    """The `response_format` of a structured-output request for `schema`."""
    return dict(json.loads(_response_format(schema)))


def request_line(custom_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """One line of a batch input file."""
    return {"custom_id": custom_id, "method": "POST", "url": ENDPOINT, "body": dict(body)}


def chat_body(
    model: str,
    messages: Sequence[Mapping[str, Any]],
    schema: type[BaseModel],
    max_tokens: int | None,
    temperature: float | None,
) -> dict[str, Any]:
    """A chat completion request body asking for a reply in `schema`."""
    body: dict[str, Any] = {
        "model": model,
        "messages": [dict(m) for m in messages],
        "response_format": response_format(schema),
    }
    if max_tokens is not None:
        body["max_tokens"] = max_tokens
    if temperature is not None:
        body["temperature"] = temperature
    return body


@dataclass(frozen=True)
class ModelCall:
    """How one step calls its model: which model, how long a reply, how random."""

    model: str
    max_tokens: int | None = None
    temperature: float | None = None


def draft_lines(
    prompts_dir: Path, requests: Sequence[DraftRequest], call: ModelCall
) -> list[dict[str, Any]]:
    """One request line per draft request; its custom id is the request's template id."""
    return [
        request_line(
            r.template_id,
            chat_body(
                call.model,
                draft_messages(prompts_dir, r),
                DraftReply,
                call.max_tokens,
                call.temperature,
            ),
        )
        for r in requests
    ]


def solve_id(draft_id: str, sample: int) -> str:
    """The custom id of one solver sample of one draft."""
    return f"{draft_id}#{sample}"


def solve_orders(draft: Draft, samples: int) -> list[str]:
    """The option order of each sample: the same deranged shuffles the synchronous solver uses."""
    seed = view_id(solver_view(draft))
    return [shuffled_order(seed, sample) for sample in range(samples)]


def solve_lines(
    prompts_dir: Path, drafts: Sequence[Draft], samples: int, call: ModelCall
) -> list[dict[str, Any]]:
    """`samples` request lines per draft, each showing the options in its own shuffled order."""
    lines = []
    for draft in drafts:
        view = solver_view(draft)
        draft_id = question_id(draft.content)
        for sample, order in enumerate(solve_orders(draft, samples)):
            body = chat_body(
                call.model,
                solver_messages(prompts_dir, view, order),
                SolveReply,
                call.max_tokens,
                call.temperature,
            )
            lines.append(request_line(solve_id(draft_id, sample), body))
    return lines


def jsonl(lines: Iterable[Mapping[str, Any]]) -> bytes:
    """A batch input file: one compact JSON object per line."""
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode("utf-8")


def lines_key(lines: Sequence[Mapping[str, Any]]) -> str:
    """A content hash of request lines (a different prompt, model or request is another key)."""
    return digest(list(lines))


def fill_id_of(draft_lines_key: str, retry: int) -> str:
    """The id of a fill: its draft requests' hash, and how many fills of them ended before."""
    return "fill-" + digest([draft_lines_key, retry])


def batch_content_key(fill_id: str, stage: Stage, lines: Sequence[Mapping[str, Any]]) -> str:
    """The key that goes into a batch's metadata: what it asks, for which fill and stage."""
    return "b-" + digest([fill_id, stage, lines_key(lines)])


# -- output lines -----------------------------------------------------------------------------


@dataclass(frozen=True)
class OutputLine:
    """What an output (or error) file says about one request: a reply, or a named failure."""

    # failure: `batch_error: <code>` for an error line, `http_<status>` for a refused request.

    custom_id: str
    reply: ModelReply | None
    failure: str | None
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0


@dataclass(frozen=True)
class OutputFile:
    """An output file's lines by custom id, and how many lines could not be read at all."""

    lines: Mapping[str, OutputLine]
    unreadable: int = 0


def _output_line(data: Mapping[str, Any]) -> OutputLine | None:
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str):
        return None
    error = data.get("error")
    response = data.get("response")
    if isinstance(error, Mapping) and error:
        return OutputLine(custom_id, None, f"batch_error: {error.get('code') or 'unknown'}", "")
    if not isinstance(response, Mapping):
        return OutputLine(custom_id, None, "batch_error: no_response", "")
    status = response.get("status_code")
    body = response.get("body")
    if status != 200 or not isinstance(body, Mapping):
        return OutputLine(custom_id, None, f"http_{status}", "")
    prompt, completion, cached = usage_counts(body)
    model = body.get("model")
    return OutputLine(
        custom_id,
        reply_of(body),
        None,
        model if isinstance(model, str) else "",
        prompt,
        completion,
        cached,
    )


def output_lines(*texts: str) -> OutputFile:
    """The lines of output and error files by custom id (a reply wins over an error line)."""
    found: dict[str, OutputLine] = {}
    unreadable = 0
    for text in texts:
        for raw in text.splitlines():
            if not raw.strip():
                continue
            try:
                data = json.loads(raw)
            except json.JSONDecodeError:
                unreadable += 1
                continue
            line = _output_line(data) if isinstance(data, Mapping) else None
            if line is None:
                unreadable += 1
            elif line.custom_id not in found or line.reply is not None:
                found[line.custom_id] = line
    return OutputFile(found, unreadable)


def _call_outcome(line: OutputLine) -> str:
    if line.reply is None:
        return line.failure or "batch_error: unknown"
    if line.reply.refusal:
        return "refusal"
    if line.reply.finish_reason in ("length", "content_filter"):
        return str(line.reply.finish_reason)
    return "ok"


def batch_calls(
    output: OutputFile, custom_ids: Sequence[str], purpose: str, model: str
) -> list[CallRecord]:
    """A CallRecord per request that came back (billed at the batch rate; no latency to tell)."""
    calls = []
    for custom_id in custom_ids:
        line = output.lines.get(custom_id)
        if line is None:
            continue
        calls.append(
            CallRecord(
                purpose=purpose,
                model=line.model or model,
                prompt_tokens=line.prompt_tokens,
                completion_tokens=line.completion_tokens,
                cached_tokens=line.cached_tokens,
                latency_seconds=0.0,
                outcome=_call_outcome(line),
                label=custom_id,
            )
        )
    return calls


def batch_drafts(
    requests: Sequence[DraftRequest], output: OutputFile
) -> list[tuple[DraftRequest, Draft | Rejection]]:
    """Each request's draft, or why there is none (a missing or failed line is `transport`)."""
    results: list[tuple[DraftRequest, Draft | Rejection]] = []
    for request in requests:
        line = output.lines.get(request.template_id)
        result: Draft | Rejection
        if line is None:
            result = Rejection(Reason.TRANSPORT, MISSING_LINE)
        elif line.reply is None:
            result = Rejection(Reason.TRANSPORT, line.failure or "")
        else:
            result = parse_draft(line.reply, request, request.context_ids)
        results.append((request, result))
    return results


def rejection_name(rejection: Rejection) -> str:
    """How a draft rejection is counted: its reason, with the detail for transport failures."""
    if rejection.reason is Reason.TRANSPORT:
        return f"{Reason.TRANSPORT.value}: {rejection.detail}"
    return rejection.reason.value


def _abstain(solver: str, note: str) -> SolverAnswer:
    return SolverAnswer(solver=solver, choice=None, confidence=0.0, note=note)


def batch_answers(
    draft: Draft, samples: int, output: OutputFile, solver: str
) -> list[SolverAnswer]:
    """The draft's sample answers mapped back through their orders (no line: abstains)."""
    draft_id = question_id(draft.content)
    answers = []
    for sample, order in enumerate(solve_orders(draft, samples)):
        line = output.lines.get(solve_id(draft_id, sample))
        if line is None:
            answers.append(_abstain(solver, NO_REPLY_NOTE + MISSING_LINE))
        elif line.reply is None:
            answers.append(_abstain(solver, NO_REPLY_NOTE + (line.failure or "")))
        else:
            answers.append(parse_solve(line.reply, order, solver))
    return answers


def batch_answer(
    answers: Sequence[SolverAnswer], solver: str, min_confidence: float
) -> SolverAnswer | None:
    """The answer the synchronous solver would give, or None when a sample did not come back."""
    # None: the draft was not fully solved, so no attempt may be recorded (it is not a
    # rejection); the synchronous solver also gives up at its first sample with no reply.
    if any(unanswered(a) is not None for a in answers):
        return None
    answer = vote(answers, solver)
    if answer.choice is not None and answer.confidence < min_confidence:
        return _abstain(
            solver,
            f"low confidence {answer.confidence:.2f} < {min_confidence} (chose {answer.choice})",
        )
    return answer


# -- records ----------------------------------------------------------------------------------


class BatchModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


_R = TypeVar("_R", bound=BatchModel)


class DraftPlan(BatchModel):
    """What a fill's draft batch asks for, stored before the batch is created."""

    fill_id: str
    content_key: str
    model: str
    requests: tuple[DraftRequest, ...]
    created_at: dt.datetime


class SolvePlan(BatchModel):
    """The drafts a fill puts to the solver, stored before the solve batch is created."""

    fill_id: str
    content_key: str
    model: str
    solver: str
    samples: int
    min_confidence: float
    drafts: tuple[Draft, ...]
    # What became of the draft batch: its final status, and the drafts not put to the solver.
    drafts_status: str = "completed"
    draft_rejections: tuple[tuple[str, int], ...] = ()
    screened: tuple[tuple[str, int], ...] = ()
    skipped: int = 0
    created_at: dt.datetime

    @property
    def custom_ids(self) -> tuple[str, ...]:
        return tuple(
            solve_id(question_id(d.content), s) for d in self.drafts for s in range(self.samples)
        )


class BatchRecord(BatchModel):
    """A batch that was created: stage, the plan's content key, the provider's ids."""

    fill_id: str
    stage: Stage
    content_key: str
    batch_id: str
    input_file_id: str
    custom_ids: tuple[str, ...]
    created_at: dt.datetime


class DoneRecord(BatchModel):
    """The end of a fill: its outcome (`completed`, `drafts_failed`, ...) and its drafts' fate."""

    # skipped: attempted before; unsolved: no solver reply came back, so no attempt recorded.

    fill_id: str
    outcome: str
    accepted: int = 0
    rejected: int = 0
    skipped: int = 0
    reasons: tuple[tuple[str, int], ...] = ()
    unsolved: tuple[tuple[str, int], ...] = ()
    draft_rejections: tuple[tuple[str, int], ...] = ()
    created_at: dt.datetime


def record_bytes(record: BatchModel) -> bytes:
    return record.model_dump_json().encode("utf-8")


RECORD_TYPES: Mapping[str, type[BatchModel]] = {
    "drafts-plan": DraftPlan,
    "drafts": BatchRecord,
    "solves-plan": SolvePlan,
    "solves": BatchRecord,
    "done": DoneRecord,
}


@dataclass(frozen=True)
class Fill:
    """The records one fill has so far (each written once, never changed)."""

    fill_id: str
    draft_plan: DraftPlan | None = None
    drafts: BatchRecord | None = None
    solve_plan: SolvePlan | None = None
    solves: BatchRecord | None = None
    done: DoneRecord | None = None

    @property
    def open(self) -> bool:
        return self.draft_plan is not None and self.done is None


def fills_of(records: Mapping[str, bytes]) -> list[Fill]:
    """The fills that stored records (key → bytes under PREFIX), oldest plan first."""
    parts: dict[str, dict[str, BatchModel]] = {}
    for key, data in records.items():
        where = fill_of(key)
        if where is None or where[1] not in RECORD_TYPES:
            continue
        fill_id, name = where
        parts.setdefault(fill_id, {})[name] = RECORD_TYPES[name].model_validate_json(data)
    fills = []
    for fill_id, named in parts.items():
        fills.append(
            Fill(
                fill_id,
                draft_plan=_typed(named.get("drafts-plan"), DraftPlan),
                drafts=_typed(named.get("drafts"), BatchRecord),
                solve_plan=_typed(named.get("solves-plan"), SolvePlan),
                solves=_typed(named.get("solves"), BatchRecord),
                done=_typed(named.get("done"), DoneRecord),
            )
        )
    epoch = dt.datetime.min.replace(tzinfo=dt.UTC)
    return sorted(
        fills, key=lambda f: (f.draft_plan.created_at if f.draft_plan else epoch, f.fill_id)
    )


def _typed(record: BatchModel | None, kind: type[_R]) -> _R | None:
    return record if isinstance(record, kind) else None
