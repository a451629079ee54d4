"""The contract of what students send back: answer logs and error reports, with their receipts
(listed in `site_builder.contract.COMPONENTS`, so the OpenAPI document carries them).

An answer row states types only: its values are checked per row (`pipeline.serve.feedback`) and
a failing row is refused in the receipt, with reasons, while the rest are kept. A fuzzer reading
the schema therefore expects a 202 for any well-typed row, which is what it gets.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, Strict, ValidatorFunctionWrapHandler, WrapValidator
from pydantic_core import PydanticCustomError

from core.feedback import (
    BATCH_ID_PATTERN,
    LEARNER_ID_LENGTH,
    LEARNER_ID_PATTERN,
    MAX_ANSWER_SECONDS,
    MAX_BATCH_ANSWERS,
    MAX_REPORT_CHARS,
    ReportReason,
)
from core.ids import ID_HEX_CHARS
from core.records import OPTION_KEYS, OptionKey, Record
from pipeline.serve.feedback import learner_id_problem
from site_builder.contract_fields import AnyCase, explained
from site_builder.documents import QUESTION_ID_PATTERN

LEARNER_ID_DESCRIPTION = (
    "a pseudonymous id the client makes: a UUID or a hex digest (16 to 64 characters, at least "
    "one letter a-f); never a name, email or phone number"
)
PER_ROW = "; checked per row: a row that fails is refused in the receipt, the rest are kept"
REFUSAL_NAMES = (
    "unknown_question",
    "unknown_exam_id",
    "learner_id_looks_like_email",
    "learner_id_looks_like_phone",
    "learner_id_looks_like_name",
    "learner_id_invalid",
    "chosen_key_not_a_to_d",
    "seconds_out_of_range",
)


def _pseudonymous(value: Any, inner: ValidatorFunctionWrapHandler) -> Any:
    """A learner id, or the refusal worded for what it looks like (an email, a phone, a name)."""
    if isinstance(value, str) and (problem := learner_id_problem(value)) is not None:
        raise PydanticCustomError("learner_id", problem)
    return inner(value)


def _rows(value: Any) -> Any:
    if isinstance(value, list) and not 1 <= len(value) <= MAX_BATCH_ANSWERS:
        raise PydanticCustomError(
            "answers", f"answers must hold 1 to {MAX_BATCH_ANSWERS} rows, got {len(value)}"
        )
    return value


class AnswerRow(Record):
    """One answer as posted; a null `chosen_key` is a skipped question."""

    question_id: Annotated[
        str,
        Strict(),
        Field(
            description="a question's id (q-…); one this bank does not hold is refused" + PER_ROW
        ),
    ]
    exam_id: Annotated[
        str,
        Strict(),
        Field(
            description="the daily paper (daily-YYYY-MM-DD), custom exam (exam-…) or practice "
            "set (practice-…) it was answered in" + PER_ROW
        ),
    ]
    learner_id: Annotated[str, Strict(), Field(description=LEARNER_ID_DESCRIPTION + PER_ROW)]
    chosen_key: Annotated[
        str | None,
        Strict(),
        Field(description="A, B, C or D, in any letter case; null: skipped" + PER_ROW),
    ]
    seconds: Annotated[
        float,
        Strict(),
        Field(description=f"time spent on it, 0 to {MAX_ANSWER_SECONDS} (3 h)" + PER_ROW),
    ]


class AttemptsRequest(Record):
    """An answer log: up to 500 answers under the client's batch id. Posted again with the same
    id and rows (a retry), it is answered the same and kept once; other rows under a kept id
    are refused (409 batch_id_reused)."""

    batch_id: Annotated[
        str,
        Strict(),
        Field(
            pattern=BATCH_ID_PATTERN,
            description="the client's id of this batch, per API key",
        ),
        explained(
            "batch_id must be 8 to 64 letters, digits, _ or -, starting with a letter or digit, "
            "got {got}"
        ),
    ]
    answers: Annotated[
        tuple[AnswerRow, ...],
        # The count is checked before the rows (one message, not pydantic's count of the rows
        # left after a row failed); the schema states it.
        Field(json_schema_extra={"minItems": 1, "maxItems": MAX_BATCH_ANSWERS}),
        BeforeValidator(_rows),
    ]


class RefusedAnswer(Record):
    index: int = Field(ge=0, description="the row's position in `answers`, from 0")
    reasons: list[str] = Field(
        min_length=1, description=f"each `name: detail`; names: {', '.join(REFUSAL_NAMES)}"
    )


class AttemptReceipt(Record):
    """What was kept of a batch: how many answers, and each refused row with its reasons."""

    batch_id: str = Field(pattern=BATCH_ID_PATTERN)
    accepted: int = Field(ge=0)
    refused: list[RefusedAnswer]
    replayed: bool = Field(description="true: this batch was kept before; nothing new was kept")


OptionName = Annotated[
    OptionKey,
    AnyCase(
        tuple((k, k) for k in OPTION_KEYS),
        "option must be A, B, C or D (any case), got {got}",
        "A, B, C or D, in any letter case",
    ),
]
_REASONS = ", ".join(ReportReason)


class ReportRequest(Record):
    """A learner's report that a question is wrong (one per learner, reason, option and text)."""

    learner_id: Annotated[
        str,
        Strict(),
        Field(
            pattern=LEARNER_ID_PATTERN,
            min_length=LEARNER_ID_LENGTH[0],
            max_length=LEARNER_ID_LENGTH[1],
            description=LEARNER_ID_DESCRIPTION,
        ),
        WrapValidator(_pseudonymous),
    ]
    reason: Annotated[
        ReportReason,
        AnyCase(
            tuple((r.value, r) for r in ReportReason),
            f"reason must be one of {_REASONS} (any case), got {{got}}",
            f"one of {_REASONS}, in any letter case",
        ),
    ]
    option: OptionName | None = Field(default=None, description="the option it is about")
    text: Annotated[
        str,
        Strict(),
        Field(
            max_length=MAX_REPORT_CHARS,
            description="plain text; HTML tags and control characters but newlines are dropped",
        ),
        explained(f"text must be a string of at most {MAX_REPORT_CHARS} characters"),
    ] = ""


class ReportReceipt(Record):
    report_id: str = Field(
        pattern=f"^r-[0-9a-f]{{{ID_HEX_CHARS}}}$",
        description="the same report from the same learner twice has one id",
    )
    question_id: str = Field(pattern=QUESTION_ID_PATTERN)
    status: Literal["received"]
