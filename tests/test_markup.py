"""No live markup is ever stored or published, whatever a model drafts: inside math or out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.records import Difficulty, Subject
from core.render import live_markup, published_markup
from core.shapes import daily_question
from core.warehouse import open_warehouse
from pipeline.compose import build_services
from pipeline.fill.pool import fill_pool
from tests.fake_openai import FakeModel, FakeOpenAI, openai_settings, serving


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    model = FakeModel(markup_every=3, disagree_every=1000, unsure_every=1000)
    with serving({"/v1/chat/completions": model.script()}) as (fake, _):
        yield fake


@pytest.mark.parametrize(
    ("text", "live"),
    [
        ("$<script>alert(1)</script>$", True),
        ("$\\text{<img src=x onerror=alert(1)>}$", True),
        ("$v</b>u$", True),
        ("See [this](JavaScript:alert(1))", True),
        ("$a < b$ and $x<5$", False),  # a comparison is not a tag
        ("$\\lt$ and plain prose", False),
    ],
)
def test_what_counts_as_live_markup(text: str, live: bool) -> None:
    assert (live_markup(text) is not None) is live


def test_drafts_with_markup_in_or_out_of_math_are_never_stored(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    settings = openai_settings(tmp_path, server.base_url)
    services = build_services(settings)
    with open_warehouse(settings.warehouse_path) as wh:
        reports = fill_pool(
            wh,
            services.drafter,
            services.solver,
            {(Subject.ZOOLOGY, d): 8 for d in Difficulty},
            concurrency=services.concurrency,
        )
        stored = wh.questions()
    refused = getattr(services.drafter, "rejections", None)
    assert refused is not None and refused["html_in_markdown"] >= 5, refused
    assert sum(r.accepted for r in reports) == len(stored) > 10
    # An export-time scan of every published Markdown field finds nothing.
    assert published_markup({"questions": [daily_question(q) for q in stored]}) == []
