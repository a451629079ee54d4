"""Why a model's draft was refused before any solve: a named reason, never a crash."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Reason(StrEnum):
    """Why a draft reply was refused before any solver saw it."""

    EMPTY_REPLY = "empty_reply"
    REFUSAL = "refusal"
    TRUNCATED = "truncated"
    CONTENT_FILTER = "content_filter"
    INVALID_JSON = "invalid_json"
    SCHEMA_VIOLATION = "schema_violation"
    EMPTY_TEXT = "empty_text"
    NOT_FOUR_OPTIONS = "not_four_options"
    DUPLICATE_OPTIONS = "duplicate_options"
    KEY_NOT_AN_OPTION = "key_not_an_option"
    HTML_IN_MARKDOWN = "html_in_markdown"
    MATH_DOES_NOT_PARSE = "math_does_not_parse"
    UNKNOWN_CONTEXT_IDS = "unknown_context_ids"
    UNGROUNDED = "ungrounded"
    UNKNOWN_FIGURE = "unknown_figure"
    NUMERICAL_WITHOUT_EXPRESSION = "numerical_without_expression"
    UNSAFE_EXPRESSION = "unsafe_expression"
    UNREADABLE_UNIT = "unreadable_unit"
    OPTION_WITHOUT_NUMBER = "option_without_number"
    EXPRESSION_DISAGREES_WITH_KEY = "expression_disagrees_with_key"
    DISTRACTOR_MATCHES_EXPRESSION = "distractor_matches_expression"
    UNCHECKABLE_NUMBERS = "uncheckable_numbers"
    # The demand the reply declares makes another difficulty than the one asked for.
    DIFFICULTY_MISMATCH = "difficulty_mismatch"
    # Transport outcomes (no reply to parse) are recorded under `transport` by the drafter.
    TRANSPORT = "transport"


@dataclass(frozen=True)
class Rejection:
    """A draft reply refused with a named reason, and what exactly was wrong."""

    reason: Reason
    detail: str = ""
