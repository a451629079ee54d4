"""OpenAI-backed drafting and adversarial solving, through the real SDK against a local fake.

Every bad thing a model or its server can do becomes a named rejection or a retried call; the
run goes on; nothing unverified is ever stored.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import openai
import pytest
from pydantic import SecretStr

from core.ids import question_id
from core.records import (
    Difficulty,
    Draft,
    QuestionFormat,
    SolverView,
    Subject,
    Verdict,
    keyed_options,
)
from core.settings import REPO_ROOT, Settings
from core.warehouse import open_warehouse
from kb.knowledge import KnowledgeBase
from kb.references import ReferenceQuestion
from kb.syllabus import Syllabus, Topic
from pipeline.compose import build_services
from pipeline.fill.pool import fill_pool
from pipeline.llm.context import BundledContext, ContextItem
from pipeline.llm.draft import DraftRequest, OpenAIDrafter, draft_messages, parse_draft
from pipeline.llm.numeric_key import numerical_problem
from pipeline.llm.rejections import Reason, Rejection
from pipeline.llm.solve import (
    DERANGEMENTS,
    IDENTITY,
    OpenAISolver,
    parse_solve,
    shuffled_order,
    solver_messages,
    view_id,
    vote,
)
from pipeline.llm.usage import ModelReply, TokenBudget, UsageLedger
from pipeline.quantities.expressions import UnsafeExpressionError, safe_eval
from pipeline.verify.gate import judged, solver_view, verified
from tests.fake_openai import (
    ChatScript,
    Delayed,
    FakeOpenAI,
    api_error,
    chat_completion,
    serving,
    user_text,
)

PROMPTS = REPO_ROOT / "data" / "prompts"
TOPIC = "phy-si-units"
CHUNK = "phy-u01-si-units"
E2E_UNIT = "phy-u17"  # five Physics topics, all with context: ten requests a round


# -- replies ----------------------------------------------------------------------------------


def reply(**fields: Any) -> str:
    """A good single-correct draft reply as JSON text, with fields overridden."""
    body: dict[str, Any] = {
        "stem_markdown": "Which of these quantities is a vector?",
        "options": ["Speed", "Velocity", "Mass", "Work"],
        "correct_key": "B",
        "explanation_markdown": "Velocity has magnitude and direction; the others only size.",
        "context_ids": [CHUNK],
        "figure_id": None,
        "answer_expression": None,
        "answer_unit": None,
    }
    body.update(fields)
    return json.dumps(body)


NUMERICAL = {
    "stem_markdown": (
        "A body of mass $m = 2\\ \\mathrm{kg}$ moves with speed $v = 3\\ \\mathrm{m\\,s^{-1}}$."
        " What is its kinetic energy?"
    ),
    "options": [
        "$9.00\\ \\mathrm{J}$",
        "$18.0\\ \\mathrm{J}$",
        "$4.50\\ \\mathrm{J}$",
        "$6.00\\ \\mathrm{J}$",
    ],
    "correct_key": "A",
    "explanation_markdown": "$K = \\tfrac{1}{2} m v^2 = \\tfrac{1}{2}(2)(3)^2 = 9\\ \\mathrm{J}$.",
    "answer_expression": "0.5 * 2 * 3**2",
    "answer_unit": "J",
}


def shown_options(body: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """The stem and the options (shown letter → text) a solve request displays."""
    text = user_text(body)
    stem, _, listing = text.partition("\n\n(A) ")
    options = dict(re.findall(r"^\(([ABCD])\) (.*)$", "(A) " + listing, re.MULTILINE))
    return stem, options


def solve_reply(choice: str, confidence: float = 0.9) -> str:
    return json.dumps({"working": "scripted", "choice": choice, "confidence": confidence})


def pick_text(text: str, confidence: float = 0.9) -> Callable[[dict[str, Any]], str]:
    """A fake solver that answers the letter where `text` is shown (after the shuffle)."""

    def turn(body: dict[str, Any]) -> str:
        _, options = shown_options(body)
        letter = next(k for k, t in options.items() if t == text)
        return solve_reply(letter, confidence)

    return turn


# -- fixtures ---------------------------------------------------------------------------------


class OneTopic:
    """Context for a single topic (the other topics get none, so are never asked for)."""

    def __init__(self, kb: KnowledgeBase, topic_id: str) -> None:
        self.inner = BundledContext(kb)
        self.topic_id = topic_id

    def context(self, topic: Topic) -> tuple[ContextItem, ...]:
        return self.inner.context(topic) if topic.topic_id == self.topic_id else ()

    def examples(self, topic: Topic) -> tuple[ReferenceQuestion, ...]:
        return ()


@pytest.fixture
def topic(syllabus: Syllabus) -> Topic:
    return syllabus.topic(TOPIC)


def request_for(
    topic: Topic, kb: KnowledgeBase, fmt: QuestionFormat = QuestionFormat.SINGLE_CORRECT
) -> DraftRequest:
    return DraftRequest(topic, Difficulty.EASY, fmt, 0, BundledContext(kb).context(topic))


@pytest.fixture
def script() -> ChatScript:
    return ChatScript()


@pytest.fixture
def fake(script: ChatScript) -> Iterator[FakeOpenAI]:
    with serving({"/v1/chat/completions": script}) as (server, _):
        yield server


def drafter_for(
    server: FakeOpenAI,
    syllabus: Syllabus,
    kb: KnowledgeBase,
    fmt: QuestionFormat = QuestionFormat.SINGLE_CORRECT,
    rounds: int = 2,
    max_retries: int = 0,
    timeout: float = 10.0,
    **kwargs: Any,
) -> OpenAIDrafter:
    return OpenAIDrafter(
        client=server.client(max_retries=max_retries, timeout=timeout),
        model="draft-model",
        syllabus=syllabus,
        context=OneTopic(kb, TOPIC),
        prompts_dir=PROMPTS,
        formats={Subject.PHYSICS: (fmt,)},
        rounds=rounds,
        **kwargs,
    )


def all_drafts(drafter: OpenAIDrafter) -> list[Draft]:
    return list(drafter.drafts(Subject.PHYSICS, Difficulty.EASY, {}))


# -- the prompt -------------------------------------------------------------------------------


def test_draft_prompt_puts_static_instructions_first(syllabus: Syllabus, kb: KnowledgeBase):
    refs = (ReferenceQuestion("Past question?", ("w", "x", "y", "z"), "x", subject="Physics"),)
    a = request_for(syllabus.topic(TOPIC), kb)
    other = syllabus.topic("phy-errors-in-measurement")
    b = DraftRequest(
        other,
        Difficulty.HARD,
        QuestionFormat.NUMERICAL,
        4,
        BundledContext(kb).context(other),
        BundledContext(kb, refs).examples(other),
    )
    ma, mb = draft_messages(PROMPTS, a), draft_messages(PROMPTS, b)
    assert ma[0] == mb[0] and ma[0]["role"] == "system"  # one cacheable prefix for every call
    assert TOPIC not in ma[0]["content"] and "{{" not in ma[0]["content"]
    user = mb[1]["content"]
    assert user.index("CONTEXT") < user.index("STYLE EXAMPLES") < user.index("REQUEST")
    assert all(f"[{i.context_id}]" in user for i in b.context)
    assert "Past question?" in user and "Format: numerical" in user
    assert "STYLE EXAMPLES" not in ma[1]["content"]  # no references: the prompt works without


def test_figures_in_chunks_become_citable_context(syllabus: Syllabus, kb: KnowledgeBase):
    topic = next(
        t
        for t in syllabus.live_topics(Subject.BOTANY)
        if any(i.kind == "figure" for i in BundledContext(kb).context(t))
    )
    request = DraftRequest(
        topic, Difficulty.EASY, QuestionFormat.SINGLE_CORRECT, 0, BundledContext(kb).context(topic)
    )
    figure = next(i for i in request.context if i.kind == "figure")
    chunk = next(i for i in request.context if i.kind == "chunk")
    assert f"[figure {figure.context_id}]" in chunk.text and "![" not in chunk.text
    draft = parse_draft(
        reply(context_ids=[chunk.context_id], figure_id=figure.context_id),
        request,
        request.context_ids,
    )
    assert isinstance(draft, Draft)
    assert draft.content.figures[0].figure_id == figure.context_id
    assert draft.content.figures[0].caption == figure.title
    assert draft.provenance.context_ids == (chunk.context_id, figure.context_id)


# -- parse_draft: each bad reply is a named rejection -----------------------------------------


def test_a_good_reply_is_a_draft(topic: Topic, kb: KnowledgeBase) -> None:
    request = request_for(topic, kb)
    draft = parse_draft(reply(), request, request.context_ids)
    assert isinstance(draft, Draft)
    assert draft.content.correct_key == "B" and draft.content.option("B").text == "Velocity"
    assert draft.content.tag.topic_id == TOPIC
    assert draft.provenance.context_ids == (CHUNK,)
    assert draft.provenance.template_id == f"llm:{TOPIC}:easy:single_correct:0"


def test_the_rubric_labels_a_models_draft_from_the_demand_it_declares(
    topic: Topic, kb: KnowledgeBase
) -> None:
    hard = replace(request_for(topic, kb), difficulty=Difficulty.HARD)
    chained = reply(steps=2, concepts=2, demand_note="momentum, then energy")
    draft = parse_draft(chained, hard, hard.context_ids)
    assert isinstance(draft, Draft) and draft.content.difficulty is Difficulty.HARD
    assert draft.content.difficulty_reason == (
        "Hard: 2 steps, 2 concepts chained (momentum, then energy)"
    )
    # A one-step question asked for as Hard is refused, named.
    refused = parse_draft(reply(), hard, hard.context_ids)
    assert isinstance(refused, Rejection) and refused.reason is Reason.DIFFICULTY_MISMATCH
    impossible = parse_draft(reply(steps=1, concepts=2), hard, hard.context_ids)
    assert isinstance(impossible, Rejection) and impossible.reason is Reason.SCHEMA_VIOLATION


def options(*texts: str) -> str:
    return reply(options=list(texts))


BAD_REPLIES: dict[str, tuple[ModelReply, Reason]] = {
    "invalid_json": (ModelReply('{"stem_markdown": "Which'), Reason.INVALID_JSON),
    "schema_violation": (
        ModelReply('{"stem_markdown": "x", "options": "A"}'),
        Reason.SCHEMA_VIOLATION,
    ),
    "three_options": (ModelReply(options("Speed", "Velocity", "Mass")), Reason.NOT_FOUR_OPTIONS),
    "identical_options": (
        ModelReply(options("Speed", "Velocity", "velocity ", "Work")),
        Reason.DUPLICATE_OPTIONS,
    ),
    "key_not_an_option": (ModelReply(reply(correct_key="E")), Reason.KEY_NOT_AN_OPTION),
    "key_is_the_text": (ModelReply(reply(correct_key="Velocity")), Reason.KEY_NOT_AN_OPTION),
    "unparseable_math": (
        ModelReply(reply(stem_markdown="If $x = \\frac{1}{$ then which is a vector?")),
        Reason.MATH_DOES_NOT_PARSE,
    ),
    "tex_error": (
        ModelReply(
            reply(stem_markdown="Given $\\begin{matrix} a \\end{pmatrix}$, which is a vector?")
        ),
        Reason.MATH_DOES_NOT_PARSE,
    ),
    "unknown_tex_command": (
        ModelReply(reply(options=["Speed", "Velocity", "Mass", "$\\ce{H2O}$"])),
        Reason.MATH_DOES_NOT_PARSE,
    ),
    "unbalanced_braces": (
        ModelReply(reply(explanation_markdown="Since $v^{2 = u^2$, velocity.")),
        Reason.MATH_DOES_NOT_PARSE,
    ),
    "stray_dollar": (
        ModelReply(reply(stem_markdown="Which $ of these is a vector?")),
        Reason.MATH_DOES_NOT_PARSE,
    ),
    "script": (
        ModelReply(reply(stem_markdown="Which is a vector?<script>alert(1)</script>")),
        Reason.HTML_IN_MARKDOWN,
    ),
    "any_tag": (
        ModelReply(options("Speed", "<b>Velocity</b>", "Mass", "Work")),
        Reason.HTML_IN_MARKDOWN,
    ),
    "script_in_math": (
        ModelReply(reply(stem_markdown="Which is a vector? $<script>alert(1)</script>$")),
        Reason.HTML_IN_MARKDOWN,
    ),
    "img_in_math_text": (
        ModelReply(options("Speed", "$\\text{<img src=x onerror=alert(1)>}$", "Mass", "Work")),
        Reason.HTML_IN_MARKDOWN,
    ),
    "closing_tag_in_math": (
        ModelReply(reply(explanation_markdown="Since $v</b>u$, velocity.")),
        Reason.HTML_IN_MARKDOWN,
    ),
    "script_link": (
        ModelReply(reply(explanation_markdown="See [this](javascript:alert(1)).")),
        Reason.HTML_IN_MARKDOWN,
    ),
    "refusal": (ModelReply(None, refusal="I can't help with that."), Reason.REFUSAL),
    "empty": (ModelReply(""), Reason.EMPTY_REPLY),
    "no_content": (ModelReply(None), Reason.EMPTY_REPLY),
    "truncated": (ModelReply('{"stem', finish_reason="length"), Reason.TRUNCATED),
    "content_filter": (ModelReply(None, finish_reason="content_filter"), Reason.CONTENT_FILTER),
    "unknown_context_ids": (
        ModelReply(reply(context_ids=[CHUNK, "made-up"])),
        Reason.UNKNOWN_CONTEXT_IDS,
    ),
    "ungrounded": (ModelReply(reply(context_ids=[])), Reason.UNGROUNDED),
    "unknown_figure": (ModelReply(reply(figure_id="fig-nowhere")), Reason.UNKNOWN_FIGURE),
    "empty_option": (ModelReply(options("Speed", "Velocity", " ", "Work")), Reason.EMPTY_TEXT),
    # A demand beyond any question (it would not fit the pool's step count) and a direct
    # question declaring the claims of a statement set (to be rated Hard by them).
    "too_many_steps": (ModelReply(reply(steps=200, concepts=2)), Reason.SCHEMA_VIOLATION),
    "claims_unlike_its_format": (
        ModelReply(reply(claims=4, near_miss=True, all_near=True)),
        Reason.DIFFICULTY_MISMATCH,
    ),
}


@pytest.mark.parametrize("case", BAD_REPLIES)
def test_a_bad_reply_is_a_named_rejection(case: str, topic: Topic, kb: KnowledgeBase) -> None:
    model_reply, reason = BAD_REPLIES[case]
    request = request_for(topic, kb)
    result = parse_draft(model_reply, request, request.context_ids)
    assert isinstance(result, Rejection) and result.reason is reason, result


def test_less_than_in_math_is_written_so_no_markdown_client_sees_a_tag(
    topic: Topic, kb: KnowledgeBase
) -> None:
    # `$a<b$ and $c>d$` is a <b> tag to a Markdown renderer without a math engine.
    request = request_for(topic, kb)
    tag_like = reply(stem_markdown="If $a<b$ and $c>d$, which of these quantities is a vector?")
    refused = parse_draft(tag_like, request, request.context_ids)
    assert isinstance(refused, Rejection) and refused.reason is Reason.HTML_IN_MARKDOWN
    for stem in (
        "If $a < b$ and $c > d$, which of these quantities is a vector?",
        "If $a \\lt b$ and $c \\gt d$, which of these quantities is a vector?",
    ):
        text = reply(stem_markdown=stem)
        assert isinstance(parse_draft(text, request, request.context_ids), Draft), stem


# -- numericals: the key must be what the expression computes ---------------------------------


def numerical(**fields: Any) -> str:
    return reply(**{**NUMERICAL, **fields})


def units(unit: str, *values: str) -> list[str]:
    """Option texts `$<value>\\ \\mathrm{<unit>}$`."""
    return [f"${v}\\ \\mathrm{{{unit}}}$" for v in values]


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({}, None),
        ({"answer_expression": "0.5 * 2 * 3"}, Reason.EXPRESSION_DISAGREES_WITH_KEY),
        ({"correct_key": "B"}, Reason.EXPRESSION_DISAGREES_WITH_KEY),
        (
            {"options": units("J", "9.00", "9.004", "4.50", "6.00")},
            Reason.DISTRACTOR_MATCHES_EXPRESSION,
        ),
        ({"answer_expression": None}, Reason.NUMERICAL_WITHOUT_EXPRESSION),
        ({"answer_expression": "__import__('os').getcwd()"}, Reason.UNSAFE_EXPRESSION),
        ({"answer_unit": "blargs"}, Reason.UNREADABLE_UNIT),
        ({"answer_expression": "0.5 * 2 * 3**2 / 1000", "answer_unit": "kJ"}, None),
        ({"answer_unit": "m/s"}, Reason.EXPRESSION_DISAGREES_WITH_KEY),
        (
            {"options": ["nine", *units("J", "18.0", "4.50", "6.00")]},
            Reason.OPTION_WITHOUT_NUMBER,
        ),
        (
            {"options": units("J", "9.00", "2.5 \\times 10^{400}", "4.50", "6.00")},
            Reason.UNCHECKABLE_NUMBERS,
        ),
        ({"answer_unit": "1/0"}, Reason.UNCHECKABLE_NUMBERS),
    ],
    ids=[
        "agrees",
        "wrong_value",
        "wrong_key",
        "distractor_too",
        "no_expression",
        "unsafe",
        "bad_unit",
        "converted_unit",
        "other_dimension",
        "no_number",
        "overflowing_option",
        "unit_divides_by_zero",
    ],
)
def test_numerical_key_must_match_the_expression(
    fields: dict[str, Any], reason: Reason | None, topic: Topic, kb: KnowledgeBase
) -> None:
    request = request_for(topic, kb, QuestionFormat.NUMERICAL)
    result = parse_draft(numerical(**fields), request, request.context_ids)
    if reason is None:
        assert isinstance(result, Draft), result
    else:
        assert isinstance(result, Rejection) and result.reason is reason, result


def test_numerical_options_match_within_their_printed_rounding() -> None:
    metres = units("m", "24.5", "49.0", "12.3", "2.45")
    assert numerical_problem("9.81 * 2.5", "m", metres, 0) is None  # 24.525 prints as 24.5
    moles = [*units("mol", "2.50 \\times 10^{-3}", "2.50"), *units("mmol", "25.0")]
    moles += units("mol", "0.250")
    assert numerical_problem("0.1 * 0.025", "mol", moles, 0) is None
    problem = numerical_problem("0.1 * 0.025", "mol", moles, 2)
    assert problem is not None and problem.reason is Reason.EXPRESSION_DISAGREES_WITH_KEY


# -- the restricted evaluator -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("0.5 * 2 * 3**2", 9.0),
        ("-(2 + 3) * 4 / 8", -2.5),
        ("sqrt(2 * 9.8 * 20)", 19.79898987),
        ("h * c / 500e-9", 3.97289e-19),
        ("log(e**2) + sin(pi / 2)", 3.0),
        ("2**-3", 0.125),
        ("log(8, 2) + max(1, 2.5)", 5.5),
    ],
)
def test_safe_eval_computes_arithmetic(expression: str, value: float) -> None:
    assert safe_eval(expression) == pytest.approx(value, rel=1e-6)


@pytest.mark.parametrize(
    "expression",
    [
        "__import__('os')",
        "__import__('os').system('true')",
        "(1).__class__",
        "().__class__.__bases__[0].__subclasses__()",
        "x[0]",
        "[1, 2][0]",
        "lambda: 1",
        "(lambda x: x)(2)",
        "[x for x in (1, 2)]",
        "10**10**10",
        "9**9**9",
        "2.0**100000",
        "1e400",
        "exp(1000)",
        "'a' * 3",
        "open('/etc/passwd')",
        "sqrt(x=4)",
        "pi.real",
        "import os",
        "1 if 1 else 2",
        "2 ^ 3",
        "1/0",
        "sqrt(-1)",
        "",
        "1 +" + " 1 +" * 300 + " 1",
        # simpleeval takes all of these by default; the evaluator must not.
        "1 < 2",
        "not 1",
        "1 and 2",
        "7 // 2",
        "7 % 2",
        "1 << 2",
        "~1",
        "(1, 2)",
        "True",
        "1j",
        "sqrt",
        "max()",
        "min(*(1, 2))",
        "f'{1}'",
        "x = 1",
        "-" * 199 + "1",
    ],
)
def test_safe_eval_refuses(expression: str) -> None:
    with pytest.raises(UnsafeExpressionError):
        safe_eval(expression)


# -- through the SDK: bad replies are recorded and skipped, the run goes on -------------------


@pytest.mark.parametrize("case", [c for c in BAD_REPLIES if c not in {"unknown_figure"}])
def test_bad_replies_over_http_are_recorded_and_skipped(
    case: str, fake: FakeOpenAI, script: ChatScript, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    bad, reason = BAD_REPLIES[case]
    body = chat_completion(
        bad.content, refusal=bad.refusal, finish_reason=bad.finish_reason or "stop"
    )
    script.add("DraftReply", body, reply())
    drafter = drafter_for(fake, syllabus, kb)
    drafts = all_drafts(drafter)
    assert [d.content.option("B").text for d in drafts] == ["Velocity"]
    assert drafter.rejections == Counter({reason.value: 1})
    assert [r.reason for r in drafter.rejected] == [reason.value]
    assert len(drafter.calls) == 2 and len(fake.requests) == 2


def test_the_request_carries_the_schema_and_explicit_limits(
    fake: FakeOpenAI, script: ChatScript, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    script.add("DraftReply", reply())
    drafter = drafter_for(fake, syllabus, kb, rounds=1)
    assert len(all_drafts(drafter)) == 1
    [body] = fake.requests
    assert body["model"] == "draft-model" and body["max_tokens"] == drafter.max_tokens
    schema = body["response_format"]["json_schema"]
    assert schema["name"] == "DraftReply" and schema["strict"] is True
    assert set(schema["schema"]["required"]) >= {"stem_markdown", "options", "correct_key"}
    [call] = drafter.calls
    assert (call.model, call.prompt_tokens, call.completion_tokens, call.outcome) == (
        "draft-model",
        100,
        20,
        "ok",
    )
    assert call.latency_seconds > 0


def test_cached_tokens_are_recorded(
    fake: FakeOpenAI, script: ChatScript, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    script.add("DraftReply", chat_completion(reply(), prompt_tokens=1500, cached_tokens=1024))
    drafter = drafter_for(fake, syllabus, kb, rounds=1)
    all_drafts(drafter)
    assert drafter.calls[0].cached_tokens == 1024
    assert drafter.ledger.summary(stored=1).cached_tokens == 1024


def test_a_timeout_is_recorded_and_the_run_goes_on(
    fake: FakeOpenAI, script: ChatScript, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    script.add("DraftReply", Delayed(1.0, reply()), reply())
    drafter = drafter_for(fake, syllabus, kb, timeout=0.3)
    assert len(all_drafts(drafter)) == 1
    assert drafter.rejections == Counter({"transport: timeout": 1})
    assert [c.outcome for c in drafter.calls] == ["timeout", "ok"]


def test_429_is_retried_by_the_sdk(
    fake: FakeOpenAI, script: ChatScript, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    script.add("DraftReply", api_error(429, "slow down"), reply())
    drafter = drafter_for(fake, syllabus, kb, rounds=1, max_retries=2)
    assert len(all_drafts(drafter)) == 1
    assert drafter.rejections == Counter()
    assert len(fake.requests) == 2  # one call, retried once after Retry-After
    assert [c.outcome for c in drafter.calls] == ["ok"]


def test_a_5xx_storm_is_recorded_and_the_run_goes_on(
    fake: FakeOpenAI, script: ChatScript, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    storm = [api_error(500), api_error(502), api_error(503), api_error(503)]
    second = reply(stem_markdown="Which of these is a vector quantity?")
    script.add("DraftReply", *storm, reply(), second)
    drafter = drafter_for(fake, syllabus, kb, rounds=4, max_retries=1)
    assert len(all_drafts(drafter)) == 2
    assert drafter.rejections == Counter({"transport: http_502": 1, "transport: http_503": 1})
    assert [c.outcome for c in drafter.calls] == ["http_502", "http_503", "ok", "ok"]
    assert drafter.stopped is None


def test_a_provider_that_stays_down_stops_drafting_cleanly(
    fake: FakeOpenAI, script: ChatScript, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    script.fallback["DraftReply"] = api_error(503)
    drafter = drafter_for(fake, syllabus, kb, rounds=50, max_consecutive_failures=3)
    assert all_drafts(drafter) == []
    assert drafter.stopped == "provider_unavailable" and len(drafter.calls) == 3
    assert list(drafter.drafts(Subject.PHYSICS, Difficulty.HARD, {})) == []  # the next cell
    assert len(drafter.calls) == 3


def test_the_token_budget_stops_drafting_cleanly(
    fake: FakeOpenAI, script: ChatScript, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    script.fallback["DraftReply"] = lambda body: reply(
        stem_markdown=f"Which of these quantities is a vector? ({len(fake.requests)})"
    )
    ledger = UsageLedger()
    drafter = drafter_for(
        fake, syllabus, kb, rounds=10, ledger=ledger, budget=TokenBudget(250, ledger)
    )
    drafts = all_drafts(drafter)
    assert len(drafts) == 3 and len(fake.requests) == 3  # 0, 120, 240 spent before each call
    assert drafter.stopped == "token_budget" and ledger.total_tokens == 360


def test_a_wrong_numerical_never_reaches_the_solver(
    fake: FakeOpenAI, script: ChatScript, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    script.add("DraftReply", numerical(correct_key="B"), numerical())
    drafter = drafter_for(fake, syllabus, kb, fmt=QuestionFormat.NUMERICAL, rounds=2)
    [draft] = all_drafts(drafter)
    assert draft.content.correct_key == "A"
    assert drafter.rejections == Counter({"expression_disagrees_with_key": 1})


def test_progress_continues_the_variants(
    fake: FakeOpenAI, script: ChatScript, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    script.add("DraftReply", reply())
    drafter = drafter_for(fake, syllabus, kb, rounds=1)
    progress = {f"llm:{TOPIC}:easy:single_correct:4": 1, "phy-kinetic-energy": 9}
    [draft] = drafter.drafts(Subject.PHYSICS, Difficulty.EASY, progress)
    assert draft.provenance.template_id == f"llm:{TOPIC}:easy:single_correct:5"
    assert "Variation: 5" in user_text(fake.requests[0])


# -- the adversarial solver -------------------------------------------------------------------


def a_view() -> SolverView:
    return SolverView(
        subject=Subject.PHYSICS,
        topic_id=TOPIC,
        format=QuestionFormat.SINGLE_CORRECT,
        template_id="llm:x",
        stem_markdown="Which of these quantities is a vector?",
        options=keyed_options(["Speed", "Velocity", "Mass", "Work"]),
    )


def a_draft(topic: Topic, kb: KnowledgeBase) -> Draft:
    request = request_for(topic, kb)
    draft = parse_draft(reply(), request, request.context_ids)
    assert isinstance(draft, Draft)
    return draft


def solver_for(server: FakeOpenAI, **kwargs: Any) -> OpenAISolver:
    return OpenAISolver(server.client(), "solver-model", PROMPTS, **kwargs)


def test_orders_are_deterministic_derangements() -> None:
    assert len(DERANGEMENTS) == 9
    seed = view_id(a_view())
    orders = [shuffled_order(seed, i) for i in range(12)]
    assert orders == [shuffled_order(seed, i) for i in range(12)]
    assert len(set(orders)) > 1
    assert all(all(o[i] != IDENTITY[i] for i in range(4)) for o in orders)


def test_the_solver_sees_only_stem_and_shuffled_options(topic: Topic, kb: KnowledgeBase) -> None:
    draft = a_draft(topic, kb)
    messages = solver_messages(PROMPTS, solver_view(draft), "CDAB")
    text = json.dumps(messages)
    assert draft.content.explanation_markdown not in text
    assert (
        CHUNK not in text and "correct_key" not in text and draft.provenance.template_id not in text
    )
    user = messages[1]["content"]
    assert user.endswith("(A) Mass\n(B) Work\n(C) Speed\n(D) Velocity")


def test_parse_solve_maps_the_choice_back_through_the_shuffle() -> None:
    answer = parse_solve(solve_reply("D", 0.8), "CDAB", "s")
    assert (answer.choice, answer.confidence) == ("B", 0.8)


@pytest.mark.parametrize(
    ("model_reply", "note"),
    [
        (ModelReply("not json"), "invalid_json"),
        (ModelReply('{"choice": "A"}'), "schema"),
        (ModelReply(solve_reply("E")), "invalid choice"),
        (ModelReply(solve_reply("A", 1.5)), "invalid confidence"),
        (ModelReply(None, refusal="no"), "refusal"),
        (ModelReply(""), "empty_reply"),
        (ModelReply("{", finish_reason="length"), "finish_reason length"),
    ],
)
def test_a_bad_solver_reply_abstains(model_reply: ModelReply, note: str) -> None:
    answer = parse_solve(model_reply, "CDAB", "s")
    assert answer.choice is None and note in answer.note


def test_a_solver_that_disagrees_rejects_the_draft(
    fake: FakeOpenAI, script: ChatScript, topic: Topic, kb: KnowledgeBase
) -> None:
    script.add("SolveReply", pick_text("Speed"))
    draft = a_draft(topic, kb)
    attempt, question = verified(draft, solver_for(fake))
    assert question is None and attempt.verdict is Verdict.REJECTED
    assert attempt.rejection_reason == "solver_disagreed"
    assert attempt.solver == "openai:solver-model" and attempt.solver_choice == "A"


def test_a_solver_agrees_only_once_the_shuffle_is_undone(
    fake: FakeOpenAI, script: ChatScript, topic: Topic, kb: KnowledgeBase
) -> None:
    draft = a_draft(topic, kb)  # key B, "Velocity"
    script.add("SolveReply", pick_text("Velocity"))
    attempt, question = verified(draft, solver_for(fake))
    assert question is not None and attempt.verdict is Verdict.ACCEPTED
    [body] = fake.requests
    _, shown = shown_options(body)
    shown_letter = next(k for k, t in shown.items() if t == "Velocity")
    assert shown_letter != "B"  # the letter the solver said is not the stored key's letter
    # a solver that ignored the shuffle and answered the stored key's letter picks another option
    script.add("SolveReply", solve_reply("B"))
    naive = solver_for(fake).solve(solver_view(draft))
    assert naive.choice != "B"
    assert judged(draft, naive)[0].rejection_reason == "solver_disagreed"


def test_low_confidence_abstains(
    fake: FakeOpenAI, script: ChatScript, topic: Topic, kb: KnowledgeBase
) -> None:
    script.add("SolveReply", pick_text("Velocity", confidence=0.4))
    attempt, question = verified(a_draft(topic, kb), solver_for(fake, min_confidence=0.6))
    assert question is None
    assert attempt.rejection_reason == "solver_abstained: low confidence 0.40 < 0.6 (chose B)"


def test_voting_takes_the_majority_and_the_mean_confidence(
    fake: FakeOpenAI, script: ChatScript, topic: Topic, kb: KnowledgeBase
) -> None:
    script.add(
        "SolveReply",
        pick_text("Velocity", 0.9),
        pick_text("Speed", 0.6),
        pick_text("Velocity", 0.9),
    )
    solver = solver_for(fake, samples=3, min_confidence=0.5)
    answer = solver.solve(solver_view(a_draft(topic, kb)))
    assert answer.choice == "B" and answer.confidence == pytest.approx(0.6)
    assert solver.name == "openai:solver-model" + "x3"
    orders = {shown_options(b)[1]["A"] for b in fake.requests}
    assert len(fake.requests) == 3 and len(orders) > 1  # each sample saw its own order


def test_a_tied_vote_abstains() -> None:
    from core.records import SolverAnswer

    answers = [
        SolverAnswer(solver="s", choice="A", confidence=0.9),
        SolverAnswer(solver="s", choice="B", confidence=0.9),
        SolverAnswer(solver="s", choice=None, confidence=0.0, note="transport: timeout"),
    ]
    assert vote(answers, "v").choice is None
    assert vote(answers[:1] * 2 + answers[1:], "v").choice == "A"


def test_a_solver_transport_failure_abstains(
    fake: FakeOpenAI, script: ChatScript, topic: Topic, kb: KnowledgeBase
) -> None:
    script.add("SolveReply", api_error(503))
    solver = solver_for(fake)
    attempt, question = verified(a_draft(topic, kb), solver)
    assert question is None
    assert attempt.rejection_reason == "solver_abstained: transport: http_503"
    assert [c.outcome for c in solver.calls] == ["http_503"]


# -- end to end: settings → services → pool, stored set == verified drafts --------------------


class Scenario:
    """Scripted drafts by kind, and a fake solver that behaves as each kind says."""

    KINDS = (
        "agree",
        "bad_json",
        "disagree",
        "agree",
        "hygiene",
        "unsure",
        "refusal",
        "agree",
        "three_options",
        "agree",
    )

    def __init__(self) -> None:
        self.behaviour: dict[str, tuple[str, str]] = {}  # stem → (kind, key text)

    def draft_turn(self, n: int, kind: str) -> Callable[[dict[str, Any]], Any]:
        def turn(body: dict[str, Any]) -> Any:
            text = user_text(body)
            chunk = re.search(r"^\[([^\]]+)\] \(chunk\)", text, re.MULTILINE)
            assert chunk is not None
            ids = [chunk.group(1)]
            if kind == "bad_json":
                return '{"stem_markdown": '
            if kind == "refusal":
                return chat_completion(None, refusal="I won't.")
            if "Format: numerical" in text:
                stem = f"Q{n} ({kind}). {NUMERICAL['stem_markdown']}"
                fields = {**NUMERICAL, "stem_markdown": stem, "context_ids": ids}
                key_text = NUMERICAL["options"][0]
            else:
                stem = f"Q{n} ({kind}). Which of these quantities is a vector?"
                fields = {"stem_markdown": stem, "context_ids": ids}
                key_text = "Velocity"
            if kind == "hygiene":
                key_text = "Velocity, which has both magnitude and direction"
                fields["options"] = ["Speed", key_text, "Mass", "Work"]
            if kind == "three_options":
                fields["options"] = ["Speed", "Velocity", "Mass"]
            self.behaviour[stem] = (kind, key_text)
            return reply(**fields)

        return turn

    def solve_turn(self, body: dict[str, Any]) -> str:
        stem, shown = shown_options(body)
        kind, key_text = self.behaviour[stem]
        key_letter = next(k for k, t in shown.items() if t == key_text)
        if kind == "disagree":
            return solve_reply(next(k for k in shown if k != key_letter), 0.95)
        return solve_reply(key_letter, 0.3 if kind == "unsure" else 0.95)


def test_end_to_end_only_verified_drafts_are_stored(tmp_path: Path) -> None:
    scenario = Scenario()
    script = ChatScript(
        {"DraftReply": [scenario.draft_turn(n, k) for n, k in enumerate(Scenario.KINDS)]},
        fallback={"SolveReply": scenario.solve_turn},
    )
    with serving({"/v1/chat/completions": script}) as (server, _):
        settings = Settings(
            home=tmp_path / "home",
            llm="openai",
            openai_base_url=server.base_url,
            openai_api_key=SecretStr("test"),
            openai_max_retries=0,
            openai_draft_model="draft-model",
            openai_solver_model="solver-model",
            solver_min_confidence=0.6,
        )
        services = build_services(settings)
        drafter, solver = services.drafter, services.solver
        assert isinstance(drafter, OpenAIDrafter) and isinstance(solver, OpenAISolver)
        assert drafter.ledger is solver.ledger is services.usage
        drafter.rounds = 1  # ten requests: five topics × (single correct, numerical)
        with open_warehouse(settings.warehouse_path) as wh:
            [report] = fill_pool(
                wh, drafter, solver, {(Subject.PHYSICS, Difficulty.EASY, E2E_UNIT): 10}
            )
            stored = wh.questions()
            attempts = wh.con.execute(
                "SELECT verdict, rejection_reason, question_id FROM attempts"
            ).fetchall()
    kinds = Counter(scenario.behaviour[q.content.stem_markdown][0] for q in stored)
    assert kinds == Counter({"agree": 4})  # exactly the drafts the solver confirmed
    assert report.accepted == 4 and report.exhausted
    accepted = {qid for verdict, _, qid in attempts if verdict == Verdict.ACCEPTED}
    assert accepted == {q.question_id for q in stored}
    assert {q.question_id for q in stored} == {question_id(q.content) for q in stored}
    reasons = Counter((r or "").split(":")[0] for v, r, _ in attempts if v == Verdict.REJECTED)
    assert reasons == Counter({"solver_disagreed": 1, "hygiene": 1, "solver_abstained": 1})
    assert drafter.rejections == Counter({"invalid_json": 1, "refusal": 1, "not_four_options": 1})
    assert all(q.provenance.generator == "openai:draft-model" for q in stored)
    assert all(q.verdict.solver == "openai:solver-model" for q in stored)
    assert services.usage is not None
    usage = services.usage.summary(stored=len(stored))
    assert usage.calls == 10 + 6  # ten drafts; six solves (hygiene refused one before solving)
    assert usage.calls_per_question == pytest.approx(16 / 4)
    assert usage.tokens_per_question == pytest.approx(16 * 120 / 4)


def test_offline_stays_the_default(settings: Settings) -> None:
    assert settings.llm == "offline"
    assert settings.openai_draft_model == settings.openai_solver_model == "gpt-4o-mini"
    assert (settings.solver_samples, settings.llm_token_budget) == (1, None)


def test_bad_replies_never_raise_through_the_client(
    fake: FakeOpenAI, script: ChatScript, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    script.add("DraftReply", (200, {"unexpected": True}), "[]", reply())
    drafter = drafter_for(fake, syllabus, kb, rounds=3)
    assert len(all_drafts(drafter)) == 1
    assert drafter.rejections == Counter({"empty_reply": 1, "schema_violation": 1})


def test_the_client_builder_sets_retries_and_timeout() -> None:
    from pipeline.compose import openai_client

    client = openai_client(
        Settings(openai_api_key=SecretStr("k"), openai_timeout_seconds=7.5, openai_max_retries=5)
    )
    assert isinstance(client, openai.OpenAI)
    assert (client.timeout, client.max_retries) == (7.5, 5)


@pytest.mark.parametrize(
    ("body", "counts"),
    [
        ({"usage": {"prompt_tokens": 10, "completion_tokens": 3}}, (10, 3, 0)),
        ({"usage": {"prompt_tokens_details": {"cached_tokens": 4}}}, (0, 0, 4)),
        ({"usage": "lots"}, (0, 0, 0)),
        ({"usage": {"prompt_tokens": "10", "prompt_tokens_details": []}}, (0, 0, 0)),
        ({}, (0, 0, 0)),
    ],
)
def test_usage_counts_never_raise(body: dict[str, Any], counts: tuple[int, int, int]) -> None:
    from pipeline.llm.usage import usage_counts

    assert usage_counts(body) == counts


def test_no_request_asks_for_a_difficulty_the_rubric_cannot_give_its_format(
    fake: FakeOpenAI, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    """Assertion-reason is two claims and their link (Medium); two statements never make the
    three close claims Hard asks: those requests would be paid for and refused."""
    drafter = drafter_for(fake, syllabus, kb, rounds=1)
    drafter.formats = {
        Subject.PHYSICS: (
            QuestionFormat.SINGLE_CORRECT,
            QuestionFormat.TWO_STATEMENTS,
            QuestionFormat.ASSERTION_REASON,
        )
    }
    asked = {
        level: {r.format for r in drafter.requests(Subject.PHYSICS, level, {})}
        for level in Difficulty
    }
    S, T, A = (
        QuestionFormat.SINGLE_CORRECT,
        QuestionFormat.TWO_STATEMENTS,
        QuestionFormat.ASSERTION_REASON,
    )
    assert asked == {
        Difficulty.EASY: {S, T},
        Difficulty.MEDIUM: {S, T, A},
        Difficulty.HARD: {S},
    }
    assert not fake.requests  # listing requests calls nothing
