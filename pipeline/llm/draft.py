"""Drafts from a language model, grounded in retrieved context: build → call → parse.

`draft_messages` (pure) renders `data/prompts/draft_question.j2`: the static instructions first,
so providers can cache the prefix, then the topic's context (theory chunks and figure captions,
each with its id), two or three style examples, and the request. `parse_draft` (pure) turns the
reply into a `Draft` or a `Rejection` with a named reason; nothing a model says can crash a run.
`OpenAIDrafter` is the thin shell: one structured call per draft, rejections counted on it.
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.records import (
    OPTION_KEYS,
    Difficulty,
    Draft,
    FigureRef,
    Provenance,
    QuestionContent,
    QuestionFormat,
    Subject,
    keyed_options,
)
from core.render import live_markup, markdown_html
from kb.references import ReferenceQuestion
from kb.syllabus import Syllabus, Topic
from pipeline.difficulty import Demand, difficulty_reason, rated
from pipeline.generate import causes
from pipeline.llm.context import ContextItem, ContextSource
from pipeline.llm.numeric_key import numerical_problem
from pipeline.llm.rejections import Reason, Rejection
from pipeline.llm.usage import CallRecord, ModelReply, TokenBudget, UsageLedger, structured_call

PROMPT = "draft_question.j2"
GENERATOR_PREFIX = "openai:"
TEMPLATE_PREFIX = "llm:"

# What the drafter asks for, per subject (every difficulty).
DRAFT_FORMATS: Mapping[Subject, tuple[QuestionFormat, ...]] = {
    Subject.PHYSICS: (QuestionFormat.SINGLE_CORRECT, QuestionFormat.NUMERICAL),
    Subject.CHEMISTRY: (QuestionFormat.SINGLE_CORRECT, QuestionFormat.NUMERICAL),
    Subject.BOTANY: (
        QuestionFormat.SINGLE_CORRECT,
        QuestionFormat.TWO_STATEMENTS,
        QuestionFormat.ASSERTION_REASON,
    ),
    Subject.ZOOLOGY: (
        QuestionFormat.SINGLE_CORRECT,
        QuestionFormat.TWO_STATEMENTS,
        QuestionFormat.ASSERTION_REASON,
    ),
}
# The claims a question of each format the model drafts asks the student to judge: fixed by the
# format, not the model's to declare (a direct question declaring four close claims is not Hard).
FORMAT_CLAIMS: Mapping[QuestionFormat, int] = {
    QuestionFormat.SINGLE_CORRECT: 1,
    QuestionFormat.NUMERICAL: 1,
    QuestionFormat.TWO_STATEMENTS: 2,
    QuestionFormat.ASSERTION_REASON: 2,
}
# The difficulties the rubric (pipeline.difficulty) can give each format a model drafts, as it
# gives the offline generators': assertion-reason is the causes generator's demand (two claims
# and the link between them); two statements are two claims, never the three Hard asks, far or
# close. A request the rubric cannot label as asked would only be paid for and refused.
REACHABLE: Mapping[QuestionFormat, frozenset[Difficulty]] = {
    QuestionFormat.ASSERTION_REASON: frozenset({causes.DIFFICULTY}),
    QuestionFormat.TWO_STATEMENTS: frozenset(
        rated(
            Demand(
                claims=FORMAT_CLAIMS[QuestionFormat.TWO_STATEMENTS],
                near_miss=near,
                all_near=all_near,
            )
        )[0]
        for near, all_near in ((False, False), (True, False), (True, True))
    ),
}


# -- what the model is asked ------------------------------------------------------------------


def request_template(topic_id: str, difficulty: Difficulty, question_format: QuestionFormat) -> str:
    """`llm:<topic>:<difficulty>:<format>`: what a draft's template id starts with."""
    return f"{TEMPLATE_PREFIX}{topic_id}:{difficulty.value.lower()}:{question_format.value}"


@dataclass(frozen=True)
class DraftRequest:
    """One draft to ask for: a topic, difficulty and format, its context and examples."""

    topic: Topic
    difficulty: Difficulty
    format: QuestionFormat
    variant: int
    context: tuple[ContextItem, ...]
    examples: tuple[ReferenceQuestion, ...] = ()
    generator: str = "openai"

    @property
    def template(self) -> str:
        """The template id of every variant of this request, without the variant number."""
        return request_template(self.topic.topic_id, self.difficulty, self.format)

    @property
    def template_id(self) -> str:
        """Unique per variant, so the own near-duplicate gate compares drafts with each other."""
        return f"{self.template}:{self.variant}"

    @property
    def context_ids(self) -> frozenset[str]:
        return frozenset(item.context_id for item in self.context)


@lru_cache(maxsize=8)
def _environment(prompts_dir: Path) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(prompts_dir),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def prompt_module(prompts_dir: Path, name: str) -> Any:
    """A prompt file's macros (`system()`, `user(...)`)."""
    return _environment(prompts_dir).get_template(name).module


def draft_messages(prompts_dir: Path, request: DraftRequest) -> list[dict[str, Any]]:
    """Chat messages for one draft: the same system message every time, then context,
    examples and the request."""
    prompt = prompt_module(prompts_dir, PROMPT)
    return [
        {"role": "system", "content": str(prompt.system()).strip()},
        {
            "role": "user",
            "content": str(prompt.user(request, request.context, request.examples)).strip(),
        },
    ]


# -- what the model says ----------------------------------------------------------------------


class DraftReply(BaseModel):
    """The reply schema of the draft step (sent as a strict JSON schema)."""

    model_config = ConfigDict(extra="forbid")

    stem_markdown: str = Field(description="The question, Markdown with $TeX$ math")
    options: list[str] = Field(description="Exactly four option texts, no letters")
    correct_key: str = Field(description="A, B, C or D: the correct option's letter")
    explanation_markdown: str
    context_ids: list[str] = Field(description="Ids of the CONTEXT items used")
    figure_id: str | None = Field(default=None, description="A CONTEXT figure id, or null")
    answer_expression: str | None = Field(
        default=None, description="Numericals: an arithmetic expression for the key's value"
    )
    answer_unit: str | None = Field(default=None, description="Numericals: unit of that value")
    # What the question demands (pipeline.difficulty.Demand): the rubric, not the model, names
    # the difficulty, and a draft whose demand is not of the difficulty asked for is refused.
    steps: int = Field(default=1, description="Steps in sequence, each using the one before")
    concepts: int = Field(default=1, description="Distinct concepts those steps chain")
    reversed_relation: bool = Field(default=False, description="A relation used in reverse")
    claims: int = Field(default=1, description="Independent claims the student must judge")
    near_miss: bool = Field(default=False, description="The best distractor is a near miss")
    all_near: bool = Field(default=False, description="Every false claim is a near miss")
    demand_note: str = Field(default="", description="The steps in a few words")


_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.DOTALL)
_TAG = re.compile(r"<\s*[/!?]?\s*[A-Za-z]")
_UNKNOWN_COMMAND = re.compile(r">\\[A-Za-z]+<")


def html_problem(markdown: str) -> str | None:
    """An HTML tag or a script URL in Markdown, inside math or out, or None.

    The Markdown is published as it is (`stem_markdown`, options' `text`): a client that
    renders it without a math engine must meet no live markup, even between `$` signs.
    """
    prose = _MATH.sub(" ", markdown)
    if m := _TAG.search(prose):
        return f"tag at {prose[m.start() : m.start() + 20]!r}"
    if snippet := live_markup(markdown):
        return f"markup at {snippet!r}"
    return None


def _braces_balanced(tex: str) -> bool:
    depth = 0
    for m in re.finditer(r"\\.|[{}]", tex):
        token = m.group(0)
        depth += {"{": 1, "}": -1}.get(token, 0)
        if depth < 0:
            return False
    return depth == 0


def math_problem(markdown: str) -> str | None:
    """TeX that the renderer cannot turn into MathML, or a stray `$`, or None.

    The renderer (core.render) falls back to the escaped TeX in <code> when latex2mathml
    raises, and prints an unknown command as text; unbalanced braces it silently repairs.
    """
    for m in _MATH.finditer(markdown):
        tex = m.group(1) or m.group(2) or ""
        if not _braces_balanced(tex):
            return f"unbalanced braces in ${tex.strip()[:40]}$"
    rendered = markdown_html(markdown)
    if "<code>" in rendered and "`" not in markdown:
        return "TeX that does not parse: " + rendered.split("<code>", 1)[1].split("</code>")[0]
    if unknown := _UNKNOWN_COMMAND.search(rendered):
        return f"unknown TeX command {unknown.group(0)[1:-1]}"
    if "$" in re.sub(r"<[^>]+>", "", rendered):
        return "a $ that opens no math (unpaired, or math with spaces inside its delimiters)"
    return None


def _same_text(text: str) -> str:
    return " ".join(text.split()).casefold()


def _reply_data(reply: ModelReply) -> DraftReply | Rejection:
    if reply.refusal:
        return Rejection(Reason.REFUSAL, reply.refusal[:200])
    if reply.finish_reason == "length":
        return Rejection(Reason.TRUNCATED, "the reply was cut off at the token limit")
    if reply.finish_reason == "content_filter":
        return Rejection(Reason.CONTENT_FILTER, "the provider withheld the reply")
    if isinstance(reply.parsed, DraftReply):
        return reply.parsed
    if reply.content is None or not reply.content.strip():
        return Rejection(Reason.EMPTY_REPLY)
    try:
        data = json.loads(reply.content)
    except json.JSONDecodeError as exc:
        return Rejection(Reason.INVALID_JSON, f"{exc.msg} at {exc.pos}")
    try:
        return DraftReply.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "reply"
        return Rejection(Reason.SCHEMA_VIOLATION, f"{where}: {first['msg']}")


def parse_draft(
    reply: ModelReply | str | None, request: DraftRequest, known_context_ids: Collection[str]
) -> Draft | Rejection:
    """The draft a model reply describes, or a Rejection naming the first thing wrong with it."""
    if not isinstance(reply, ModelReply):
        reply = ModelReply(content=reply)
    data = _reply_data(reply)
    if isinstance(data, Rejection):
        return data
    texts = [data.stem_markdown, *data.options, data.explanation_markdown]
    if any(not t.strip() for t in texts):
        return Rejection(Reason.EMPTY_TEXT, "the stem, an option or the explanation is empty")
    if len(data.options) != 4:
        return Rejection(Reason.NOT_FOUR_OPTIONS, f"{len(data.options)} options")
    options = [o.strip() for o in data.options]
    if len({_same_text(o) for o in options}) < 4:
        return Rejection(Reason.DUPLICATE_OPTIONS, " | ".join(options))
    key = data.correct_key.strip().upper().strip("().")
    if key not in OPTION_KEYS:
        return Rejection(Reason.KEY_NOT_AN_OPTION, f"correct_key {data.correct_key!r}")
    for text in texts:
        if problem := html_problem(text):
            return Rejection(Reason.HTML_IN_MARKDOWN, problem)
    for text in texts:
        if problem := math_problem(text):
            return Rejection(Reason.MATH_DOES_NOT_PARSE, problem)
    known = set(known_context_ids)
    unknown = [i for i in data.context_ids if i not in known]
    if unknown:
        return Rejection(Reason.UNKNOWN_CONTEXT_IDS, ", ".join(unknown[:5]))
    if known and not data.context_ids:
        return Rejection(Reason.UNGROUNDED, "no context ids cited")
    figures = {i.context_id: i for i in request.context if i.kind == "figure"}
    figure_refs: tuple[FigureRef, ...] = ()
    if data.figure_id:
        if data.figure_id not in figures or data.figure_id not in known:
            return Rejection(Reason.UNKNOWN_FIGURE, data.figure_id)
        item = figures[data.figure_id]
        figure_refs = (FigureRef(figure_id=item.context_id, caption=item.title or item.text),)
    if request.format is QuestionFormat.NUMERICAL:
        if not (data.answer_expression or "").strip():
            return Rejection(Reason.NUMERICAL_WITHOUT_EXPRESSION)
        mismatch = numerical_problem(
            data.answer_expression or "", data.answer_unit or "", options, OPTION_KEYS.index(key)
        )
        if mismatch is not None:
            return mismatch
    claims = FORMAT_CLAIMS.get(request.format)
    if claims is not None and data.claims != claims:
        return Rejection(
            Reason.DIFFICULTY_MISMATCH,
            f"declares {data.claims} claims; a {request.format.value} question has {claims}",
        )
    try:
        demand = Demand(
            steps=data.steps,
            concepts=data.concepts,
            reversed=data.reversed_relation,
            claims=data.claims,
            near_miss=data.near_miss,
            all_near=data.all_near,
        )
    except ValueError as exc:
        return Rejection(Reason.SCHEMA_VIOLATION, f"demand: {exc}")
    label = rated(demand)[0]
    if label is not request.difficulty:
        return Rejection(
            Reason.DIFFICULTY_MISMATCH,
            f"asked for {request.difficulty.value}, the demand it declares is {label.value}",
        )
    context_ids = tuple(dict.fromkeys(data.context_ids))
    if data.figure_id and data.figure_id not in context_ids:
        context_ids += (data.figure_id,)
    try:
        content = QuestionContent(
            tag=request.topic.tag,
            difficulty=label,
            difficulty_reason=difficulty_reason(
                demand, data.demand_note.strip() or "as the drafting model described it"
            ),
            format=request.format,
            stem_markdown=data.stem_markdown.strip(),
            options=keyed_options(options),
            correct_key=key,  # checked against OPTION_KEYS above
            explanation_markdown=data.explanation_markdown.strip(),
            figures=figure_refs,
        )
    except ValidationError as exc:  # the checks above should leave nothing for this
        return Rejection(Reason.SCHEMA_VIOLATION, str(exc.errors()[0]["msg"]))
    provenance = Provenance(
        generator=request.generator,
        template_id=request.template_id,
        context_ids=context_ids,
        params=(("variant", str(request.variant)),),
    )
    return Draft(content=content, provenance=provenance)


# -- the provider -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RejectedDraft:
    """A draft call that produced no draft: which request, and why."""

    template_id: str
    reason: str
    detail: str


def variant_starts(attempts: Mapping[str, int]) -> Counter[str]:
    """How many variants of each request template earlier runs used (from attempt template ids)."""
    starts: Counter[str] = Counter()
    for template_id in attempts:
        if template_id.startswith(TEMPLATE_PREFIX):
            template, _, variant = template_id.rpartition(":")
            if variant.isdigit():
                starts[template] = max(starts[template], int(variant) + 1)
    return starts


@dataclass
class OpenAIDrafter:
    """The `Drafter` backed by a language model through the OpenAI SDK (any compatible server).

    Each call drafts one question for one (topic, difficulty, format); topics without context
    in the knowledge store are never asked for. The stream is finite: `rounds` variants of each
    request, fewer when the token budget runs out or `max_consecutive_failures` calls in a row
    fail after the SDK's retries (`stopped` says which; both hold for the rest of the run). A
    reply that is not a good draft is counted in `rejections` (and listed in `rejected`) and
    skipped, never raised. It is also a `CallDrafter`: `pending` and `draft` let the pool fill
    keep several calls under way (`draft` is thread-safe).
    """

    client: Any
    model: str
    syllabus: Syllabus
    context: ContextSource
    prompts_dir: Path
    ledger: UsageLedger = field(default_factory=UsageLedger)
    budget: TokenBudget | None = None
    formats: Mapping[Subject, tuple[QuestionFormat, ...]] = field(
        default_factory=lambda: dict(DRAFT_FORMATS)
    )
    rounds: int = 3
    max_tokens: int = 1500
    temperature: float | None = 0.7
    max_consecutive_failures: int = 8
    consecutive_failures: int = 0
    rejections: Counter[str] = field(default_factory=Counter)
    rejected: list[RejectedDraft] = field(default_factory=list)
    stopped: str | None = None
    # Requests (by template id: topic, difficulty, format, variant) whose reply was refused this
    # run: never sent again with the same body; the fill goes on to other variants instead.
    refused_requests: set[str] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def generator(self) -> str:
        return GENERATOR_PREFIX + self.model

    @property
    def calls(self) -> list[CallRecord]:
        return [c for c in self.ledger.calls if c.purpose == "draft"]

    def requests(
        self,
        subject: Subject,
        difficulty: Difficulty,
        starts: Mapping[str, int],
        unit_id: str | None = None,
        topic_id: str | None = None,
    ) -> Iterator[DraftRequest]:
        """The requests, round by round over the live topics (with context) and formats."""
        topics = [
            t
            for t in self.syllabus.live_topics(subject)
            if (unit_id is None or t.unit_id == unit_id)
            and (topic_id is None or t.topic_id == topic_id)
        ]
        cells = [
            (t, f, ctx)
            for t in topics
            if (ctx := self.context.context(t))
            for f in self.formats.get(subject, (QuestionFormat.SINGLE_CORRECT,))
            if difficulty in REACHABLE.get(f, frozenset(Difficulty))
        ]
        variants = variant_starts(starts)
        examples: dict[str, tuple[ReferenceQuestion, ...]] = {}
        for n in range(self.rounds):
            for topic, fmt, ctx in cells:
                if topic.topic_id not in examples:
                    examples[topic.topic_id] = self.context.examples(topic)
                variant = variants[request_template(topic.topic_id, difficulty, fmt)] + n
                yield DraftRequest(
                    topic, difficulty, fmt, variant, ctx, examples[topic.topic_id], self.generator
                )

    def pending(
        self,
        subject: Subject,
        difficulty: Difficulty,
        starts: Mapping[str, int],
        unit_id: str | None = None,
        topic_id: str | None = None,
    ) -> Iterator[DraftRequest]:
        """The requests still to call: `requests`, until the drafter has to stop (`stopped`).

        Checked as each request is taken, so with calls under way a run may end over its token
        budget, or past `max_consecutive_failures`, by at most the calls under way.
        """
        for request in self.requests(subject, difficulty, starts, unit_id, topic_id):
            if self.budget is not None and self.budget.exhausted:
                self.stopped = "token_budget"
            # Counted across cells: a provider that is down is not asked again by every cell.
            elif self.consecutive_failures >= self.max_consecutive_failures:
                self.stopped = "provider_unavailable"
            if self.stopped is not None:
                return
            if request.template_id in self.refused_requests:
                continue  # asked already and refused: the same body would be paid for twice
            yield request

    def drafts(
        self,
        subject: Subject,
        difficulty: Difficulty,
        starts: Mapping[str, int],
        unit_id: str | None = None,
        topic_id: str | None = None,
    ) -> Iterator[Draft]:
        for request in self.pending(subject, difficulty, starts, unit_id, topic_id):
            result = self.draft(request)
            if isinstance(result, Draft):
                yield result

    def draft(self, request: DraftRequest) -> Draft | Rejection:
        """One call for one request: the draft, or the rejection (also recorded here)."""
        reply, record = structured_call(
            self.client,
            model=self.model,
            messages=draft_messages(self.prompts_dir, request),
            schema=DraftReply,
            purpose="draft",
            ledger=self.ledger,
            label=request.template_id,
            max_tokens=self.max_tokens,
            temperature=self.temperature,
        )
        result = (
            Rejection(Reason.TRANSPORT, record.outcome)
            if reply is None
            else parse_draft(reply, request, request.context_ids)
        )
        with self._lock:  # calls may run in several threads
            self.consecutive_failures = self.consecutive_failures + 1 if reply is None else 0
            if isinstance(result, Rejection):
                key = (
                    f"{Reason.TRANSPORT.value}: {result.detail}"
                    if result.reason is Reason.TRANSPORT
                    else result.reason.value
                )
                self.rejections[key] += 1
                self.rejected.append(RejectedDraft(request.template_id, key, result.detail))
                if result.reason is not Reason.TRANSPORT:  # a failed transport may be retried
                    self.refused_requests.add(request.template_id)
        return result
