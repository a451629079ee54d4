"""Incremental, immutable export: only new files are written, compressed variants, no rewrites."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import brotli
import pytest
from fastapi.testclient import TestClient

from api_stub.app import create_app
from core.records import Difficulty, Subject
from core.settings import Settings
from core.storage import LocalObjectStore
from core.warehouse import open_warehouse
from pipeline.generate.drafter import OfflineDrafter
from pipeline.templates.catalogue import TEMPLATES, TEMPLATES_BY_ID
from pipeline.verify.gate import judged, solver_view
from pipeline.verify.solver import OfflineSolver
from site_builder.documents import DAILY_POINTER_KEY, daily_paper_key, question_key
from site_builder.export import (
    export_daily_paper,
    exported_question_ids,
    publish_daily_pointer,
    verify_question_files,
    write_question_files,
)
from site_builder.integrity import ExportMismatchError


@pytest.fixture(scope="module")
def questions(syllabus, kb):
    drafter, solver = OfflineDrafter(syllabus, kb, TEMPLATES), OfflineSolver(kb, TEMPLATES_BY_ID)
    found = []
    for draft in drafter.drafts(Subject.PHYSICS, Difficulty.MEDIUM, {}):
        question = judged(draft, solver.solve(solver_view(draft)))[1]
        if question is not None:
            found.append(question)
        if len(found) == 12:
            return found
    raise AssertionError("the drafter ran dry")


def _paper(questions):
    from core.records import Paper

    return Paper(
        exam_id="daily-2026-05-01",
        kind="daily",
        title="NEET-UG Daily Mock Test — 1 May 2026",
        exam_date="2026-05-01",
        question_ids=tuple(q.question_id for q in questions[:4]),
        blueprint="test",
    )


def test_only_new_questions_are_written(tmp_path: Path, questions) -> None:
    store = LocalObjectStore(tmp_path)
    assert write_question_files(store, questions[:5]) == (5, 0)
    assert write_question_files(store, questions) == (7, 5)
    assert write_question_files(store, questions) == (0, 12)
    assert exported_question_ids(store) == {q.question_id for q in questions}
    assert verify_question_files(store, questions) == []


def test_a_changed_file_is_found_and_never_overwritten(tmp_path: Path, questions) -> None:
    store = LocalObjectStore(tmp_path)
    write_question_files(store, questions)
    tampered = questions[3]
    store.put(question_key(tampered.question_id), b'{"id":"edited"}')
    assert verify_question_files(store, questions) == [tampered.question_id]
    paper = _paper(questions)
    export_daily_paper(store, paper, questions[:4], questions)
    other = paper.model_copy(update={"title": "Another title"})
    with pytest.raises(ExportMismatchError, match="daily-2026-05-01"):
        export_daily_paper(store, other, questions[:4], questions)


def test_papers_get_compressed_variants_that_the_worker_serves(
    tmp_path: Path, questions, settings: Settings
) -> None:
    store = LocalObjectStore(tmp_path)
    export_daily_paper(store, _paper(questions), questions[:4], questions)
    publish_daily_pointer(store, "2026-05-01")
    key = daily_paper_key("2026-05-01")
    plain = store.get(key)
    assert plain is not None
    assert gzip.decompress(store.get(key + ".gz") or b"") == plain
    assert brotli.decompress(store.get(key + ".br") or b"") == plain
    assert store.get(DAILY_POINTER_KEY + ".br") == store.get(key + ".br")
    client = TestClient(create_app(settings, store))
    r = client.get("/" + key, headers={"Accept-Encoding": "br"})
    assert r.headers["content-encoding"] == "br" and r.headers["vary"] == "Accept-Encoding"
    assert r.content == plain  # the client decodes it
    r = client.get("/" + key, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in r.headers and r.content == plain


def test_a_warehouse_export_writes_only_what_is_new(tmp_path: Path, questions) -> None:
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.insert_questions(questions)
    store = LocalObjectStore(tmp_path / "store")
    export_daily_paper(store, _paper(questions), questions[:4], questions)
    mtimes = {p: p.stat().st_mtime_ns for p in (tmp_path / "store").rglob("*.obj")}
    export_daily_paper(store, _paper(questions), questions[:4], questions)
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "store").rglob("*.obj")} == mtimes


def test_a_file_the_manifest_missed_is_compared_not_overwritten(tmp_path: Path, questions) -> None:
    from site_builder.export import EXPORT_MANIFEST_KEY

    store = LocalObjectStore(tmp_path)
    write_question_files(store, questions)
    # As after a run killed between writing files and recording them: the manifest lags.
    store.put(EXPORT_MANIFEST_KEY, b"")
    key = question_key(questions[0].question_id)
    edited = json.loads(store.get(key) or b"") | {"stem_html": "<p>edited</p>"}
    store.put(key, json.dumps(edited).encode())  # a whole, valid file, but other bytes
    with pytest.raises(ExportMismatchError, match=questions[0].question_id):
        write_question_files(store, questions)


def test_a_cut_off_file_is_repaired_not_kept(tmp_path: Path, questions) -> None:
    from site_builder.export import EXPORT_MANIFEST_KEY

    store = LocalObjectStore(tmp_path)
    export_daily_paper(store, _paper(questions), questions[:4], questions)
    right = {k: store.get(k) for k in store.keys("api/v1/")}
    # As a full disk left it under the old writer: the first 4,096 bytes, not a document.
    store.put(EXPORT_MANIFEST_KEY, b"")
    qkey = question_key(questions[1].question_id)
    store.put(qkey, (right[qkey] or b"")[:40])
    pkey = daily_paper_key("2026-05-01")
    store.put(pkey, (right[pkey] or b"")[:4096])
    store.put(pkey + ".gz", (right[pkey + ".gz"] or b"")[:100])
    export_daily_paper(store, _paper(questions), questions[:4], questions)
    assert {k: store.get(k) for k in store.keys("api/v1/")} == right


def test_a_paper_with_live_markup_in_its_markdown_is_not_published(
    tmp_path: Path, questions
) -> None:
    from core.render import published_markup
    from core.shapes import daily_question
    from site_builder.integrity import LiveMarkupError

    # Whatever path let it in (the drafts' gate refuses it), the export is the last check.
    q = questions[0]
    c = q.content
    hostile_option = c.options[1].model_copy(update={"text": "$\\text{<img src=x onerror=1>}$"})
    hostile = q.model_copy(
        update={
            "content": c.model_copy(
                update={
                    "stem_markdown": c.stem_markdown + " $<script>alert(1)</script>$",
                    "options": (c.options[0], hostile_option, *c.options[2:]),
                }
            )
        }
    )
    store = LocalObjectStore(tmp_path)
    paper = _paper([hostile, *questions[1:]])
    with pytest.raises(LiveMarkupError, match="stem_markdown") as refused:
        export_daily_paper(store, paper, [hostile, *questions[1:4]], questions)
    assert "options" in str(refused.value)
    assert store.get(daily_paper_key("2026-05-01")) is None
    # The offline questions themselves carry none, in any published Markdown field.
    assert published_markup({"questions": [daily_question(q) for q in questions]}) == []
