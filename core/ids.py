"""Content-hash identifiers: the same content always gets the same id, and only that content."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from core.records import Draft, QuestionContent

ID_HEX_CHARS = 20


def canonical_json(value: Any) -> str:
    """Deterministic JSON text (sorted keys, no spaces, UTF-8 kept)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any, length: int = ID_HEX_CHARS) -> str:
    """Hex SHA-256 prefix of the canonical JSON of value."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()[:length]


def question_identity(content: QuestionContent) -> dict[str, Any]:
    """The fields a question id covers; option order is left out, so reordering keeps the id."""
    body = content.model_dump(mode="json")
    # A figure's fields added after ids were first derived count only when set, so a figure
    # with an id and a caption alone keeps the id it always had.
    body["figures"] = [
        {k: v for k, v in figure.items() if k in ("figure_id", "caption") or v not in ("", None, 0)}
        for figure in body["figures"]
    ]
    options = sorted(o["text"] for o in body.pop("options"))
    correct = content.option(body.pop("correct_key")).text
    return {**body, "options": options, "correct": correct}


def question_id(content: QuestionContent) -> str:
    """The id of a question: `q-` and a hash of its content."""
    return "q-" + digest(question_identity(content))


def attempt_id(draft: Draft, solver: str) -> str:
    """One attempt per (draft, solver): re-running never pays for the same solve twice."""
    return "a-" + digest({"draft": question_id(draft.content), "solver": solver})
