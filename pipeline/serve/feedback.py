"""What students send back, checked: answer rows refused one by one with named reasons, learner
ids worded for what they look like, report text made safe to keep, and the receipt a batch is
answered with. Pure: the worker (`api_stub`) brings the rows, the clock and what it knows."""

from __future__ import annotations

import datetime as dt
import html
import math
import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import nh3

from core.feedback import (
    MAX_ANSWER_SECONDS,
    MAX_REPORT_CHARS,
    Answer,
    AnswerBatch,
    ErrorReport,
    RefusedRow,
    ReportReason,
    is_pseudonym,
    report_id,
)
from core.records import OPTION_KEYS, OptionKey

PSEUDONYM = "send a pseudonymous id: a UUID or a hex digest of 16 to 64 characters"
_EMAIL = re.compile(r"@")
_PHONE = re.compile(r"^\+?[0-9 ().-]{7,20}$")
_HEXISH = re.compile(r"[0-9a-fA-F-]+")
_NAME = re.compile(r"^[^\W\d_]+(?:[ .'-]+[^\W\d_]+)*\.?$")  # letters, words apart
_EMAIL_IN_TEXT = re.compile(r"\S+@\S+")
_PHONE_IN_TEXT = re.compile(r"\+?\d(?:[ ()-]?\d){6,}")  # 7 digits or more, as phones are written
_DETAIL_CHARS = 40  # of a refused value echoed back: enough to find it, never a whole body


class AnswerRow(Protocol):
    """One posted row, its types already checked (the contract's `AnswerRowBody`)."""

    @property
    def question_id(self) -> str: ...
    @property
    def exam_id(self) -> str: ...
    @property
    def learner_id(self) -> str: ...
    @property
    def chosen_key(self) -> str | None: ...
    @property
    def seconds(self) -> float: ...


def _shown(value: object) -> str:
    """A refused value as the reason shows it: repr (escapes control characters and lone
    surrogates, so the receipt is always valid UTF-8), cut short."""
    shown = repr(value)
    return shown if len(shown) <= _DETAIL_CHARS else shown[: _DETAIL_CHARS - 1] + "…"


def learner_id_problem(learner_id: str) -> str | None:
    """Why learner_id is not a pseudonymous id, worded for what it looks like (never echoing
    it: it may be the very name, email or phone it must not be); None if it is one."""
    if is_pseudonym(learner_id):
        return None
    if _EMAIL.search(learner_id):
        looks = "learner_id_looks_like_email: looks like an email address"
    elif _PHONE.fullmatch(learner_id.strip()) and sum(c.isdigit() for c in learner_id) >= 7:
        looks = "learner_id_looks_like_phone: looks like a phone number"
    elif _HEXISH.fullmatch(learner_id):  # a digest's alphabet, the wrong length or no letter
        looks = "learner_id_invalid: a hex id needs 16 to 64 characters, one a letter a-f"
    elif _NAME.fullmatch(learner_id.strip()):
        looks = "learner_id_looks_like_name: looks like a name"
    else:
        looks = "learner_id_invalid: not a UUID or hex digest"
    return f"{looks}; {PSEUDONYM}"


def option_key(value: object) -> OptionKey | None:
    """A, B, C or D from any letter case ("b" is B, as the API takes its other names); None
    for anything else."""
    if isinstance(value, str) and value.isascii():
        for key in OPTION_KEYS:
            if value.upper() == key:
                return key
    return None


def row_reasons(
    row: AnswerRow, known: Callable[[str], bool], issued: Callable[[str], bool]
) -> tuple[str, ...]:
    """Every reason the row cannot be taken ("name: detail"); empty when it can.

    `known` says whether a question id is this bank's; `issued` whether an exam id names a
    daily paper or a custom exam or practice set this bank made (so no free text, a name or a
    phone number among it, reaches the warehouse as an exam id)."""
    reasons = []
    if not known(row.question_id):
        reasons.append(
            f"unknown_question: {_shown(row.question_id)} is not a question of this bank"
        )
    if not issued(row.exam_id):
        reasons.append(
            f"unknown_exam_id: {_shown(row.exam_id)} is not a daily-YYYY-MM-DD id, nor a custom "
            "exam's or practice set's id this bank made"
        )
    if (problem := learner_id_problem(row.learner_id)) is not None:
        reasons.append(problem)
    if row.chosen_key is not None and option_key(row.chosen_key) is None:
        reasons.append(
            f"chosen_key_not_a_to_d: {_shown(row.chosen_key)}; send A, B, C or D (any case), "
            "or null for a skipped question"
        )
    if not (math.isfinite(row.seconds) and 0 <= row.seconds <= MAX_ANSWER_SECONDS):
        reasons.append(
            f"seconds_out_of_range: {_shown(row.seconds)}; from 0 to {MAX_ANSWER_SECONDS} (3 h)"
        )
    return tuple(reasons)


def checked_batch(
    batch_id: str,
    key_id: str,
    rows: Iterable[AnswerRow],
    known: Callable[[str], bool],
    issued: Callable[[str], bool],
    received_at: dt.datetime,
) -> AnswerBatch:
    """The batch as kept: the rows that pass every check, and each other row's index and
    reasons."""
    answers: list[Answer] = []
    refused: list[RefusedRow] = []
    for index, row in enumerate(rows):
        reasons = row_reasons(row, known, issued)
        if reasons:
            refused.append(RefusedRow(index=index, reasons=reasons))
            continue
        answers.append(
            Answer(
                question_id=row.question_id,
                exam_id=row.exam_id,
                learner_id=row.learner_id,
                chosen_key=option_key(row.chosen_key),
                seconds=row.seconds,
            )
        )
    return AnswerBatch(
        batch_id=batch_id,
        key_id=key_id,
        received_at=received_at,
        answers=tuple(answers),
        refused=tuple(refused),
    )


def same_rows(kept: AnswerBatch, posted: AnswerBatch) -> bool:
    """Whether a batch posted again under a kept batch's id is the same post (a retry): the same
    accepted answers and the same rows refused. Anything else reuses the id (409)."""
    return kept.answers == posted.answers and [r.index for r in kept.refused] == [
        r.index for r in posted.refused
    ]


def receipt(batch: AnswerBatch, replayed: bool) -> dict[str, Any]:
    """The answer to a posted batch (the contract's `AttemptReceipt`)."""
    return {
        "batch_id": batch.batch_id,
        "accepted": len(batch.answers),
        "refused": [{"index": r.index, "reasons": list(r.reasons)} for r in batch.refused],
        "replayed": replayed,
    }


def _without_controls(text: str) -> str:
    """Newlines kept (CR LF and CR become LF), tabs as spaces, every other control, format
    (bidi overrides, zero-width) and lone-surrogate character dropped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    return "".join(
        c for c in text if c == "\n" or unicodedata.category(c) not in {"Cc", "Cf", "Cs", "Co"}
    )


def sanitised_text(text: str) -> str:
    """Report text safe to keep and show: NFC, no control characters but newlines, no HTML tag
    (nh3 strips them, keeping their text; a tag hidden in entities, `&lt;b&gt;`, is stripped
    too, since the text is unescaped until nothing changes), email addresses and phone numbers
    replaced by `[email]` and `[phone]`, trimmed, at most 500 characters.

    Plain text, not HTML: whoever shows it escapes it. A `<` that opens no tag (`a < b`) stays,
    one that does (`x<y`) is read as a tag, as a browser would."""
    text = _without_controls(unicodedata.normalize("NFC", text))
    for _ in range(len(text) + 1):  # each round removes a tag or an entity, or is the last
        plain = html.unescape(nh3.clean(text, tags=set(), strip_comments=True))
        if plain == text:
            break
        text = plain
    text = unicodedata.normalize("NFC", _without_controls(text))
    # A student may write who they are: the warehouse keeps no email address or phone number.
    text = _PHONE_IN_TEXT.sub("[phone]", _EMAIL_IN_TEXT.sub("[email]", text))
    return text.strip()[:MAX_REPORT_CHARS].strip()


def error_report(
    question_id: str,
    learner_id: str,
    reason: ReportReason,
    option: OptionKey | None,
    text: str,
    key_id: str,
    received_at: dt.datetime,
) -> ErrorReport:
    """The report as kept, its text sanitised; the same report twice has one id."""
    clean = sanitised_text(text)
    return ErrorReport(
        report_id=report_id(question_id, learner_id, reason, option, clean),
        question_id=question_id,
        learner_id=learner_id,
        reason=reason,
        option=option,
        text=clean,
        key_id=key_id,
        received_at=received_at,
    )
