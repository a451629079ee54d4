"""One structured chat call to a language model, and what every call cost.

`structured_call` is the only function in the model steps that does I/O: it sends the messages
with the reply schema through the SDK's structured-output parse, and turns whatever comes back
(a reply, a refusal, a cut-off reply, a timeout, a 429 or 5xx after the SDK's own retries) into
a `ModelReply` (or None when no reply arrived) plus a `CallRecord` in the shared `UsageLedger`.
It never raises for a provider problem: the caller turns a missing or bad reply into a named
rejection. The `TokenBudget` reads the ledger, so drafting can stop cleanly when a run has spent
what it may.
"""

from __future__ import annotations

import math
import threading
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel


@dataclass(frozen=True)
class ModelReply:
    """What a model said, as data: parse functions read this and never the SDK's objects.

    `parsed` is the SDK's structured parse of `content` when it succeeded (None otherwise: the
    parse functions then read `content` themselves and name what is wrong with it).
    """

    content: str | None
    refusal: str | None = None
    finish_reason: str | None = "stop"
    parsed: BaseModel | None = None


@dataclass(frozen=True)
class CallRecord:
    """One model call: which step and model, tokens in/out/cached, latency and the outcome.

    `outcome` is `ok`, `refusal`, `length`, `content_filter` (a reply arrived), or `timeout`,
    `rate_limited`, `connection_error`, `http_<status>`, `malformed_response` (none did).
    """

    purpose: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int
    latency_seconds: float
    outcome: str
    label: str = ""
    # HTTP requests the call took: 1, plus the SDK's own retries (what the provider counts).
    requests: int = 1

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class UsageSummary:
    """Calls and tokens of a run, and per stored question (None before anything is stored)."""

    calls: int
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int
    latency_seconds: float
    stored: int
    outcomes: tuple[tuple[str, int], ...]
    calls_per_question: float | None
    tokens_per_question: float | None
    latency_p50: float | None = None
    latency_p95: float | None = None
    # HTTP requests, the SDK's retries included: what the provider saw (and may bill).
    requests: int = 0

    @property
    def requests_per_question(self) -> float | None:
        return self.requests / self.stored if self.stored else None


@dataclass
class UsageLedger:
    """Every call of a run (thread-safe): the nightly report reads its summary."""

    _calls: list[CallRecord] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, call: CallRecord) -> None:
        with self._lock:
            self._calls.append(call)

    @property
    def calls(self) -> tuple[CallRecord, ...]:
        with self._lock:
            return tuple(self._calls)

    @property
    def total_tokens(self) -> int:
        return sum(c.total_tokens for c in self.calls)

    def summary(self, stored: int, purpose: str | None = None) -> UsageSummary:
        """Totals (of one purpose, or all) and the cost of each of `stored` questions."""
        calls = [c for c in self.calls if purpose is None or c.purpose == purpose]
        tokens = sum(c.total_tokens for c in calls)
        return UsageSummary(
            calls=len(calls),
            prompt_tokens=sum(c.prompt_tokens for c in calls),
            completion_tokens=sum(c.completion_tokens for c in calls),
            cached_tokens=sum(c.cached_tokens for c in calls),
            latency_seconds=sum(c.latency_seconds for c in calls),
            stored=stored,
            outcomes=tuple(sorted(Counter(c.outcome for c in calls).items())),
            calls_per_question=len(calls) / stored if stored else None,
            requests=sum(c.requests for c in calls),
            tokens_per_question=tokens / stored if stored else None,
            latency_p50=percentile([c.latency_seconds for c in calls], 0.50),
            latency_p95=percentile([c.latency_seconds for c in calls], 0.95),
        )


def percentile(values: Sequence[float], q: float) -> float | None:
    """The nearest-rank `q` quantile (0 < q ≤ 1) of the values; None when there are none."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@dataclass(frozen=True)
class ModelUsage:
    """A run's model calls, for its report: all of them and per step (draft, solve, ...), and
    what kept drafts from becoming questions before any verdict: draft replies refused by
    reason, solves whose reply never came, and why drafting stopped early (if it did)."""

    total: UsageSummary
    steps: tuple[tuple[str, UsageSummary], ...]
    draft_rejections: tuple[tuple[str, int], ...] = ()
    unsolved: int = 0
    stopped: str | None = None


def model_usage(
    ledger: UsageLedger,
    stored: int,
    draft_rejections: Mapping[str, int] | None = None,
    unsolved: int = 0,
    stopped: str | None = None,
) -> ModelUsage:
    """The usage of the calls in the ledger, `stored` questions being what they bought."""
    purposes = sorted({c.purpose for c in ledger.calls})
    return ModelUsage(
        total=ledger.summary(stored),
        steps=tuple((p, ledger.summary(stored, p)) for p in purposes),
        draft_rejections=tuple(Counter(draft_rejections or {}).most_common()),
        unsolved=unsolved,
        stopped=stopped,
    )


def _seconds(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _per(total: int, stored: int) -> str:
    return f"{total / stored:,.0f}"


def usage_markdown(usage: ModelUsage) -> str:
    """The report section: calls, tokens and latency per step, then per stored question."""
    out = ["## Model calls", ""]
    out += [
        "| step | calls | tokens in | of which cached | tokens out | p50 s | p95 s | outcomes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, s in (*usage.steps, ("all", usage.total)):
        outcomes = ", ".join(f"{k} {n}" for k, n in s.outcomes) or "–"
        out.append(
            f"| {name} | {s.calls:,} | {s.prompt_tokens:,} | {s.cached_tokens:,} | "
            f"{s.completion_tokens:,} | {_seconds(s.latency_p50)} | {_seconds(s.latency_p95)} "
            f"| {outcomes} |"
        )
    out += ["", *_per_question(usage.total)]
    out += _what_went_wrong(usage)
    return "\n".join(out) + "\n"


def _per_question(t: UsageSummary) -> list[str]:
    retries = f" HTTP requests, the SDK's retries included: {t.requests:,}."
    if not t.stored:
        return [f"No question was stored: {t.calls:,} calls bought none.{retries}"]
    return [
        f"{t.stored:,} questions stored: {t.calls_per_question:.2f} calls and "
        f"{_per(t.prompt_tokens + t.completion_tokens, t.stored)} tokens per stored question "
        f"({_per(t.prompt_tokens, t.stored)} in, of which {_per(t.cached_tokens, t.stored)} "
        f"cached; {_per(t.completion_tokens, t.stored)} out).{retries[:-1]}, "
        f"{t.requests_per_question:.2f} per stored question."
    ]


def _what_went_wrong(usage: ModelUsage) -> list[str]:
    lines = []
    if usage.draft_rejections:
        reasons = ", ".join(f"{k} {n}" for k, n in usage.draft_rejections)
        lines.append(f"Draft replies refused before any solver saw them: {reasons}.")
    if usage.unsolved:
        lines.append(
            f"Solves with no reply (no verdict recorded; the drafts may be solved in a later "
            f"run): {usage.unsolved}."
        )
    if usage.stopped:
        lines.append(f"Drafting stopped early: {usage.stopped}.")
    return ["", *lines] if lines else []


def usage_lines(usage: ModelUsage) -> list[str]:
    """The same, in a few lines for the terminal."""
    t = usage.total
    steps = ", ".join(f"{name} {s.calls:,}" for name, s in usage.steps)
    lines = [
        f"model calls: {t.calls:,} ({steps}); latency p50 {_seconds(t.latency_p50)} s, "
        f"p95 {_seconds(t.latency_p95)} s",
        f"tokens: {t.prompt_tokens:,} in (of which {t.cached_tokens:,} cached), "
        f"{t.completion_tokens:,} out",
        f"HTTP requests, the SDK's retries included: {t.requests:,}",
    ]
    if t.stored:
        lines.append(
            f"per stored question ({t.stored:,}): {t.calls_per_question:.2f} calls, "
            f"{_per(t.prompt_tokens, t.stored)} tokens in ({_per(t.cached_tokens, t.stored)} "
            f"cached), {_per(t.completion_tokens, t.stored)} out"
        )
    if usage.draft_rejections:
        lines.append(
            "draft rejections: " + ", ".join(f"{k} ×{n}" for k, n in usage.draft_rejections)
        )
    if usage.unsolved:
        lines.append(f"solves with no reply (left for a later run): {usage.unsolved}")
    if usage.stopped:
        lines.append(f"drafting stopped early: {usage.stopped}")
    return lines


@dataclass(frozen=True)
class TokenBudget:
    """A per-run cap on tokens (prompt + completion) across every call in the ledger.

    Checked before each draft call, so a run stops drafting cleanly once it is reached; it may
    end over the cap by the calls already under way (at most one per worker).
    """

    limit: int | None
    ledger: UsageLedger

    @property
    def spent(self) -> int:
        return self.ledger.total_tokens

    @property
    def exhausted(self) -> bool:
        return self.limit is not None and self.spent >= self.limit


def usage_counts(body: Mapping[str, Any]) -> tuple[int, int, int]:
    """Prompt, completion and cached prompt tokens of a chat completion body (0 when absent)."""
    usage = body.get("usage")
    usage = usage if isinstance(usage, Mapping) else {}
    details = usage.get("prompt_tokens_details")
    details = details if isinstance(details, Mapping) else {}

    def count(value: Any) -> int:  # a server's odd field must not cost the call its record
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    return (
        count(usage.get("prompt_tokens")),
        count(usage.get("completion_tokens")),
        count(details.get("cached_tokens")),
    )


def reply_of(body: Mapping[str, Any]) -> ModelReply:
    """The first choice of a chat completion body as a ModelReply (never raises)."""
    choices = body.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    choice: Mapping[str, Any] = first if isinstance(first, Mapping) else {}
    message = choice.get("message")
    if not isinstance(message, Mapping):
        message = {}
    content = message.get("content")
    refusal = message.get("refusal")
    return ModelReply(
        content=content if isinstance(content, str) else None,
        refusal=refusal if isinstance(refusal, str) and refusal.strip() else None,
        finish_reason=choice.get("finish_reason"),
    )


def _outcome(reply: ModelReply) -> str:
    if reply.refusal:
        return "refusal"
    if reply.finish_reason in ("length", "content_filter"):
        return str(reply.finish_reason)
    return "ok"


def transport_outcome(exc: Exception) -> str:
    """A short name for an SDK error raised after its retries."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.RateLimitError):
        return "rate_limited"
    if isinstance(exc, openai.APIStatusError):
        return f"http_{exc.status_code}"
    if isinstance(exc, openai.APIConnectionError):
        return "connection_error"
    return "api_error"


def structured_call(
    client: Any,
    *,
    model: str,
    messages: Sequence[Mapping[str, Any]],
    schema: type[BaseModel],
    purpose: str,
    ledger: UsageLedger,
    label: str = "",
    max_tokens: int | None = None,
    temperature: float | None = None,
) -> tuple[ModelReply | None, CallRecord]:
    """Ask for a reply in `schema` (the SDK's structured-output parse); record the call.

    The SDK retries timeouts, 429 (honouring Retry-After) and 5xx itself, as often as the client
    was built to; what is still failing after that comes back as (None, record), never raised.
    """
    import openai

    extra: dict[str, Any] = {}
    if max_tokens is not None:
        extra["max_tokens"] = max_tokens
    if temperature is not None:
        extra["temperature"] = temperature
    started = time.perf_counter()
    reply: ModelReply | None = None
    tokens = (0, 0, 0)
    raw: Any = None
    try:
        raw = client.chat.completions.with_raw_response.parse(
            model=model, messages=list(messages), response_format=schema, **extra
        )
        body = raw.http_response.json()
        if not isinstance(body, Mapping):
            raise ValueError("the response body is not a JSON object")
    except openai.OpenAIError as exc:
        outcome = transport_outcome(exc)
        requests = 1 + (_retries(client) if _retried(exc) else 0)
    except ValueError:  # a 200 whose body is not a chat completion
        outcome = "malformed_response"
        requests = 1 + int(getattr(raw, "retries_taken", 0) or 0)
    else:
        requests = 1 + int(getattr(raw, "retries_taken", 0) or 0)
        tokens = usage_counts(body)
        reply = reply_of(body)
        outcome = _outcome(reply)
        try:  # the SDK's own parse; its failures are named by the step's parse function
            parsed = raw.parse().choices[0].message.parsed
        except (ValueError, TypeError, KeyError, AttributeError, IndexError, openai.OpenAIError):
            parsed = None
        if isinstance(parsed, schema):
            reply = ModelReply(reply.content, reply.refusal, reply.finish_reason, parsed)
    record = CallRecord(
        purpose=purpose,
        model=model,
        prompt_tokens=tokens[0],
        completion_tokens=tokens[1],
        cached_tokens=tokens[2],
        latency_seconds=time.perf_counter() - started,
        outcome=outcome,
        label=label,
        requests=requests,
    )
    ledger.record(record)
    return reply, record


def _retries(client: Any) -> int:
    retries = getattr(client, "max_retries", 0)
    return retries if isinstance(retries, int) else 0


def _retried(exc: Exception) -> bool:
    """Whether the SDK retried before raising this (it retries timeouts, connection errors, 408,
    409, 429 and 5xx, as many times as the client allows)."""
    import openai

    if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError):
        return True
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and (status in (408, 409, 429) or status >= 500)
