"""One question, one face: a week of nightly papers, a practice set and a custom exam show every
question exactly as its `/api/v1/questions/{id}` file does, and every paper keeps the rules
that replaced reordering (keys balanced by choice, no repeated family or stem)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from api_stub.app import create_app
from api_stub.runner import JobRunner
from core.figures import StructureSpec
from core.pool import question_family, shows_structures
from core.providers import object_store
from core.records import OutboxEntry, Question
from core.settings import Settings
from core.shapes import daily_question
from core.warehouse import open_warehouse
from flows.nightly import call_directly, run_nightly
from pipeline.compose import build_services
from pipeline.figures.svg import unsafe_svg
from site_builder.documents import daily_paper_key, question_key

# A week of whole nightlies, then worker jobs: a system test.
pytestmark = pytest.mark.system

FIRST = dt.date(2026, 12, 1)
DAYS = 7
ORGANIC_UNITS = {f"che-u{n}" for n in range(13, 20)}
AUTH = {"Authorization": "Bearer k-face"}


@dataclasses.dataclass
class Week:
    papers: list[dict[str, Any]]
    practice: dict[str, Any]
    exam: dict[str, Any]
    records: dict[str, Question]
    files: dict[str, dict[str, Any]]
    # Every figure URL of the week's documents: (status, content type, body) from the worker.
    images: dict[str, tuple[int, str, bytes]]


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Week]:
    home = tmp_path_factory.mktemp("face")
    settings = Settings(home=home, api_keys=(SecretStr("k-face"),), figure_floor=3)
    services = build_services(settings)
    for k in range(DAYS):
        run_nightly(services, FIRST + dt.timedelta(days=k), call=call_directly)
    store = object_store(settings)
    papers = [
        json.loads(store.get(daily_paper_key((FIRST + dt.timedelta(days=k)).isoformat())) or b"")
        for k in range(DAYS)
    ]
    runner = JobRunner(dataclasses.replace(services, store=store))
    with TestClient(create_app(settings, store, runner=runner)) as client:
        topic = Counter(q["topic"] for q in papers[-1]["questions"]).most_common(1)[0][0]
        topic_id = next(t.topic_id for t in services.syllabus.topics.values() if t.name == topic)
        jobs = [
            client.post(
                "/api/v1/practice/generate",
                json={"topic_id": topic_id, "question_count": 10, "difficulty": "medium"},
                headers=AUTH,
            ),
            client.post(
                "/api/v1/exams/generate",
                json={
                    "exam_type": "NEET_UG",
                    "difficulty_distribution": {"easy": 0.3, "medium": 0.5, "hard": 0.2},
                    "subjects": ["Physics", "Chemistry"],
                },
                headers=AUTH,
            ),
        ]
        assert all(j.status_code == 202 for j in jobs), [j.text for j in jobs]
        assert runner.drain(timeout=120)
        results = []
        for j in jobs:
            done = client.get(f"/api/v1/jobs/{j.json()['job_id']}", headers=AUTH).json()
            assert done["status"] == "COMPLETED", done
            results.append(done["result"])
        urls = {
            f["url"]
            for doc in [*papers, *results]
            for q in doc["questions"]
            for f in q.get("figures", ())
        }
        images = {}
        for url in sorted(urls):
            got = client.get(url)
            images[url] = (got.status_code, got.headers.get("content-type", ""), got.content)
    with open_warehouse(settings.warehouse_path) as wh:
        records = {q.question_id: q for q in wh.questions(wh.question_ids())}
    for key in store.keys("internal/outbox/"):  # what the worker made after the last nightly
        entry = OutboxEntry.model_validate_json(store.get(key) or b"")
        records.setdefault(entry.question.question_id, entry.question)
    shown = [q for doc in [*papers, *results] for q in doc["questions"]]
    files = {q["id"]: json.loads(store.get(question_key(q["id"])) or b"") for q in shown}
    yield Week(papers, results[0], results[1], records, files, images)


def _documents(week: Week) -> list[dict[str, Any]]:
    return [*week.papers, week.practice, week.exam]


def test_every_paper_practice_set_and_exam_shows_a_question_as_its_file(week: Week) -> None:
    shown = 0
    for document in _documents(week):
        for q in document["questions"]:
            # Exactly the record's own Daily shape: its stored option order and key.
            assert q == daily_question(week.records[q["id"]]), q["id"]
            file = week.files[q["id"]]
            assert [o["id"] for o in file["options"]] == [o["key"] for o in q["options"]]
            assert [o["id"] for o in file["options"] if o["is_correct"]] == [q["correct_key"]]
            shown += 1
    assert shown == DAYS * 180 + len(week.practice["questions"]) + 90


def test_every_subject_of_every_paper_has_8_to_14_keys_per_letter(week: Week) -> None:
    for document in [*week.papers, week.exam]:
        subjects = Counter(q["subject"] for q in document["questions"])
        assert set(subjects.values()) == {45}
        for subject in subjects:
            keys = Counter(
                q["correct_key"] for q in document["questions"] if q["subject"] == subject
            )
            assert all(8 <= keys[k] <= 14 for k in "ABCD"), (document.get("exam_id"), subject, keys)


def test_no_paper_repeats_a_family_or_a_stem(week: Week) -> None:
    for document in [*week.papers, week.exam]:
        records = [week.records[q["id"]] for q in document["questions"]]
        families = Counter(question_family(r.provenance, r.content.format.value) for r in records)
        assert max(families.values()) == 1, families.most_common(3)
        stems = Counter(" ".join(q["stem_markdown"].lower().split()) for q in document["questions"])
        assert max(stems.values()) == 1, stems.most_common(2)


def test_a_custom_exam_gets_the_whole_split_it_asked_for(week: Week) -> None:
    mix = Counter(week.records[q["id"]].content.difficulty.value for q in week.exam["questions"])
    assert mix == {"Easy": 27, "Medium": 45, "Hard": 18}


def test_the_week_is_a_week(week: Week) -> None:
    dates = [p["date"] for p in week.papers]
    assert dates == [(FIRST + dt.timedelta(days=k)).isoformat() for k in range(DAYS)]
    assert len({q["id"] for p in week.papers for q in p["questions"]}) == DAYS * 180  # cooldown


def test_every_paper_has_8_to_12_figure_questions_2_or_3_per_subject(week: Week) -> None:
    """The issue asks 8 to 15 a paper; the blueprint's 2 to 3 a subject is 8 to 12. Structural
    formulae are counted apart (the next test)."""
    for paper in week.papers:
        figured = Counter(
            q["subject"]
            for q in paper["questions"]
            if q.get("figures") and not shows_structures(week.records[q["id"]].content)
        )
        assert 8 <= sum(figured.values()) <= 12, (paper["date"], figured)
        assert set(figured) == {"Physics", "Chemistry", "Botany", "Zoology"}, figured
        assert min(figured.values()) >= 2 and max(figured.values()) <= 3, (paper["date"], figured)


def test_every_papers_chemistry_has_12_to_18_organic_questions_4_with_structures(
    week: Week,
) -> None:
    for paper in week.papers:
        chemistry = [
            week.records[q["id"]].content for q in paper["questions"] if q["subject"] == "Chemistry"
        ]
        organic = [c for c in chemistry if c.tag.unit_id in ORGANIC_UNITS]
        drawn = [c for c in chemistry if shows_structures(c)]
        assert 12 <= len(organic) <= 18, (paper["date"], len(organic))
        assert 4 <= len(drawn) <= 12, (paper["date"], len(drawn))


def test_every_figure_is_served_as_a_safe_svg_and_shown_in_both_shapes(week: Week) -> None:
    assert week.images
    for url, (status, media, body) in week.images.items():
        assert status == 200 and media.startswith("image/svg+xml"), url
        assert unsafe_svg(body.decode("utf-8")) is None, url
    for document in _documents(week):
        for q in document["questions"]:
            for f in q.get("figures", ()):
                assert f["url"] in week.images
                assert "![" in q["stem_markdown"] and f"]({f['url']})" in q["stem_markdown"]
                stored = week.files[q["id"]]
                assert stored["figures"] == q["figures"]
                assert f'<img src="{f["url"]}"' in stored["stem_html"]
                content = week.records[q["id"]].content
                key = content.option(q["correct_key"]).text
                # A key that is a structure's printed label ("R") names no answer in the alt.
                spec = content.figures[0].spec
                labels = {p.label for p in spec.panels} if isinstance(spec, StructureSpec) else ()
                if key not in labels:
                    assert key.lower() not in f["alt"].lower(), (q["id"], f["alt"])
