from __future__ import annotations

import pytest

from core.ids import attempt_id, question_id
from core.records import (
    Difficulty,
    Draft,
    Option,
    Provenance,
    QuestionContent,
    QuestionFormat,
    Subject,
    SyllabusTag,
)

TAG = SyllabusTag(
    subject=Subject.PHYSICS,
    unit_id="phy-u02",
    chapter_id="phy-u02-x",
    topic_id="phy-t",
    topic_name="T",
)


def content(options=("1", "2", "3", "4"), key="B", stem="What is $x$?") -> QuestionContent:
    return QuestionContent.model_validate(
        {
            "tag": TAG,
            "difficulty": Difficulty.EASY,
            "difficulty_reason": "r",
            "format": QuestionFormat.NUMERICAL,
            "stem_markdown": stem,
            "options": [{"key": k, "text": t} for k, t in zip("ABCD", options, strict=True)],
            "correct_key": key,
            "explanation_markdown": "because",
        }
    )


def test_question_id_is_stable_and_prefixed() -> None:
    assert question_id(content()) == question_id(content())
    assert question_id(content()).startswith("q-")
    assert len(question_id(content())) == 22


def test_reordering_options_keeps_the_id() -> None:
    # Same options, same correct text ("2"), different order and key letter.
    assert question_id(content(("2", "1", "3", "4"), key="A")) == question_id(content())


@pytest.mark.parametrize(
    "changed",
    [
        content(stem="What is $y$?"),
        content(key="C"),
        content(options=("1", "2", "3", "5")),
    ],
)
def test_any_content_change_changes_the_id(changed: QuestionContent) -> None:
    assert question_id(changed) != question_id(content())


def test_attempt_id_depends_on_draft_and_solver() -> None:
    d = Draft(content=content(), provenance=Provenance(generator="g", template_id="t"))
    assert attempt_id(d, "s1") == attempt_id(d, "s1")
    assert attempt_id(d, "s1") != attempt_id(d, "s2")


def test_options_must_be_distinct_and_keyed_in_order() -> None:
    with pytest.raises(ValueError, match="distinct"):
        content(options=("1", "1", "3", "4"))
    with pytest.raises(ValueError, match="keyed A, B, C, D"):
        QuestionContent(
            **{
                **content().model_dump(),
                "options": tuple(
                    Option.model_validate({"key": k, "text": t})
                    for k, t in zip("BACD", "1234", strict=True)
                ),
            }
        )
