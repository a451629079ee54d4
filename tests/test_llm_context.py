"""The drafter's context from the knowledge store's retrieval when the store exists, the bundled
knowledge base otherwise and for topics the store holds nothing on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from core.records import Difficulty, Subject
from core.settings import Settings
from core.warehouse import open_warehouse
from kb.knowledge import KnowledgeBase
from kb.syllabus import Syllabus
from pipeline.compose import build_ingestor, build_knowledge_store, build_services
from pipeline.fill.pool import fill_pool
from pipeline.llm.context import BundledContext, StoreContext
from pipeline.llm.draft import OpenAIDrafter
from tests.fake_openai import FakeModel, serving

FIGURE_TOPIC = "phy-motion-graphs"  # a bundled chunk with a figure


@dataclass(frozen=True)
class Found:
    id: str
    text: str
    where: str


class Shelf:
    """A stand-in for the store's search: fixed hits per kind and topic; counts searches."""

    def __init__(self, hits: Mapping[tuple[str, str], list[Found]]) -> None:
        self.hits = hits
        self.searches: list[tuple[str, str]] = []

    def search(
        self,
        kind: Any,
        text: str,
        k: int = 5,
        mode: Any = "hybrid",
        filters: Mapping[str, str | None] | None = None,
    ) -> list[Found]:
        topic = str((filters or {}).get("topic_id"))
        self.searches.append((kind, topic))
        return self.hits.get((kind, topic), [])[:k]


def test_store_hits_become_citable_context_and_other_topics_fall_back(
    syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    shelf = Shelf(
        {
            ("chunks", FIGURE_TOPIC): [Found("ch-1", "See ![a v–t graph](x.png) here.", "Ch 3")],
            ("figures", FIGURE_TOPIC): [Found("fig-abc", "Velocity against time", "Ch 3")],
        }
    )
    bundled = BundledContext(kb)
    source = StoreContext(shelf, bundled)
    topic = syllabus.topic(FIGURE_TOPIC)
    items = source.context(topic)
    assert [(i.context_id, i.kind, i.title) for i in items] == [
        ("ch-1", "chunk", "Ch 3"),
        ("fig-abc", "figure", "Velocity against time"),
    ]
    assert items[0].text == "See a v–t graph here."  # an image is cited by id, never by path
    assert source.context(topic) == items and len(shelf.searches) == 2  # once per topic a run
    other = syllabus.topic("phy-si-units")
    assert source.context(other) == bundled.context(other) != ()
    assert shelf.searches[-1] == ("chunks", "phy-si-units")  # no figures asked without chunks
    assert source.examples(other) == bundled.examples(other)


def test_services_draft_from_the_store_once_it_holds_chunks(tmp_path: Path) -> None:
    offline = Settings(home=tmp_path)
    model = FakeModel(bad_every=10**9, disagree_every=10**9, unsure_every=10**9)
    with serving({"/v1/chat/completions": model.script()}) as (server, _):
        settings = Settings(
            home=tmp_path,
            llm="openai",
            openai_base_url=server.base_url,
            openai_api_key=SecretStr("test"),
            openai_max_retries=0,
            llm_concurrency=4,
        )
        before = build_services(settings).drafter
        assert isinstance(before, OpenAIDrafter) and isinstance(before.context, BundledContext)
        build_ingestor(offline).ingest([offline.bundled_kb_dir])
        services = build_services(settings)
        drafter = services.drafter
        assert isinstance(drafter, OpenAIDrafter) and isinstance(drafter.context, StoreContext)
        cell = (Subject.PHYSICS, Difficulty.EASY, services.syllabus.topic(FIGURE_TOPIC).unit_id)
        with open_warehouse(settings.warehouse_path) as wh:
            [report] = fill_pool(wh, drafter, services.solver, {cell: 6}, concurrency=4)
            cited = {i for q in wh.questions() for i in q.provenance.context_ids}
    kstore = build_knowledge_store(offline)
    in_store = {r["chunk_id"] for r in kstore.table("chunks").to_arrow().to_pylist()}
    assert report.accepted == 6 and cited and cited <= in_store
    figures = drafter.context.context(services.syllabus.topic(FIGURE_TOPIC))
    [figure] = [i for i in figures if i.kind == "figure"]
    stored_figures = {r["figure_id"] for r in kstore.table("figures").to_arrow().to_pylist()}
    assert figure.context_id in stored_figures and figure.context_id != "fig-motion-graphs"
