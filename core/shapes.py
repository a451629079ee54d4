"""The two public renderings of one canonical question (Daily and Stored), field names exact."""

from __future__ import annotations

import json
from typing import Any

from core.records import IDENTITY_ORDER, OPTION_KEYS, Question
from core.render import inline_markdown_html, markdown_html


def daily_question(question: Question, option_order: str = IDENTITY_ORDER) -> dict[str, Any]:
    """The Daily question shape (2.2), options in the paper's order (keys stay A to D)."""
    c = question.content
    return {
        "id": question.question_id,
        "subject": c.tag.subject.value,
        "topic": c.tag.topic_name,
        "stem_markdown": c.stem_markdown,
        "options": [
            {"key": key, "text": c.option(stored).text}
            for key, stored in zip(OPTION_KEYS, option_order, strict=True)
        ],
        "correct_key": OPTION_KEYS[option_order.index(c.correct_key)],
        "explanation_markdown": c.explanation_markdown,
    }


def stored_question(question: Question) -> dict[str, Any]:
    """The Stored question shape (2.3): sanitised HTML with MathML and one `is_correct` option."""
    c = question.content
    return {
        "id": question.question_id,
        "subject": c.tag.subject.value,
        "topic": c.tag.topic_name,
        "difficulty": c.difficulty.value,
        "stem_html": markdown_html(c.stem_markdown),
        "options": [
            {
                "id": o.key,
                "text_html": inline_markdown_html(o.text),
                "is_correct": o.key == c.correct_key,
            }
            for o in c.options
        ],
        "explanation_html": markdown_html(c.explanation_markdown),
    }


def question_file_bytes(question: Question) -> bytes:
    """The published bytes of a question's file (2.3): stable, compact, UTF-8 JSON."""
    document = stored_question(question)
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
