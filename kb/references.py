"""Reference (past-style) questions: style examples and a near-duplicate guard, never served."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.ids import digest
from core.providers import Embedder

REQUIRED = ("question", "options", "answer")


class ReferenceFileError(ValueError):
    """A reference file or line that cannot be imported; the message says where and why."""


@dataclass(frozen=True)
class ReferenceQuestion:
    question: str
    options: tuple[str, ...]
    answer: str
    subject: str = ""
    topic: str = ""
    source: str = ""

    @property
    def ref_id(self) -> str:
        return "ref-" + digest([self.question, list(self.options), self.answer])

    @property
    def text(self) -> str:
        return self.question + "\n" + "\n".join(self.options)


def _reference(record: dict[str, Any], where: str) -> ReferenceQuestion:
    missing = [k for k in REQUIRED if not record.get(k)]
    if missing:
        raise ReferenceFileError(f"{where}: missing {', '.join(missing)}")
    options = record["options"]
    if isinstance(options, str):
        options = [o.strip() for o in options.split("|")]
    if (
        not isinstance(options, list)
        or len(options) < 2
        or not all(isinstance(o, str) for o in options)
    ):
        raise ReferenceFileError(f"{where}: options must be a list of at least two strings")
    return ReferenceQuestion(
        question=str(record["question"]).strip(),
        options=tuple(o.strip() for o in options),
        answer=str(record["answer"]).strip(),
        subject=str(record.get("subject") or ""),
        topic=str(record.get("topic") or ""),
        source=str(record.get("source") or ""),
    )


def parse_references(path: Path) -> list[ReferenceQuestion]:
    """JSONL (one object a line) or CSV (options separated by `|`); errors name the line."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise ReferenceFileError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise ReferenceFileError(f"{path}: cannot read ({exc.strerror})") from None
    suffix = path.suffix.lower()
    refs = []
    if suffix in {".jsonl", ".ndjson"}:
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ReferenceFileError(f"{path}:{n}: not JSON ({exc.msg})") from None
            if not isinstance(record, dict):
                raise ReferenceFileError(f"{path}:{n}: expected a JSON object")
            refs.append(_reference(record, f"{path}:{n}"))
    elif suffix == ".csv":
        reader = csv.DictReader(io.StringIO(text))
        for n, row in enumerate(reader, start=2):
            refs.append(_reference(dict(row), f"{path}:{n}"))
    else:
        raise ReferenceFileError(f"{path}: unknown format {suffix!r} (use .jsonl or .csv)")
    return refs


def reference_rows(refs: list[ReferenceQuestion], embedder: Embedder) -> list[dict[str, Any]]:
    """LanceDB rows for reference questions, vectors included."""
    if not refs:
        return []
    vectors = embedder.embed([r.text for r in refs])
    return [
        {
            "ref_id": r.ref_id,
            "question": r.question,
            "options": list(r.options),
            "answer": r.answer,
            "subject": r.subject,
            "topic": r.topic,
            "source": r.source,
            "text": r.text,
            "embedding_model": embedder.model_id,
            "vector": v.tolist(),
        }
        for r, v in zip(refs, vectors, strict=True)
    ]
