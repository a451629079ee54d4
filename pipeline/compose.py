"""The composition root: every provider and service a run needs, built once from Settings.

Both shells (`flows`, the nightly and the CLI; `api_stub`, the worker) build what they need
here and pass it down; nothing below them reads Settings to build a provider of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.providers import Embedder, object_store
from core.records import Draft, Question
from core.settings import Settings
from core.storage import ObjectStore
from kb.elements import load_element_data
from kb.knowledge import KnowledgeBase, load_knowledge_base
from kb.references import ReferenceQuestion
from kb.syllabus import Syllabus, load_syllabus
from pipeline.assemble.blueprint import Blueprint, load_blueprint
from pipeline.figures.catalogue import figure_templates
from pipeline.generate.drafter import Drafter, OfflineDrafter
from pipeline.generate.organic.catalogue import organic_templates
from pipeline.generate.sequences import load_sequences
from pipeline.llm.usage import TokenBudget, UsageLedger
from pipeline.templates.catalogue import TEMPLATES, TEMPLATES_BY_ID
from pipeline.verify.dedupe import NearDuplicateGate
from pipeline.verify.gate import Solver
from pipeline.verify.solver import OfflineSolver

if TYPE_CHECKING:  # LanceDB, jinja2 and pint load only where used (the worker needs none)
    from kb.ingest.run import Ingestor
    from kb.store import KnowledgeStore
    from pipeline.llm.context import ContextSource


@dataclass(frozen=True)
class Services:
    settings: Settings
    syllabus: Syllabus
    blueprint: Blueprint
    kb: KnowledgeBase
    drafter: Drafter
    solver: Solver
    store: ObjectStore
    # Model calls of this process (QFORGE_LLM=openai): tokens, latency, outcomes; None offline.
    usage: UsageLedger | None = None
    # Calls the pool fill keeps under way: QFORGE_LLM_CONCURRENCY for a model, 1 offline (the
    # offline engine is CPU-bound and its fills must stay deterministic).
    concurrency: int = 1
    # QFORGE_LLM=openai with QFORGE_OFFLINE_FALLBACK: the offline drafter and solver, which fill
    # what the model leaves short of the day's paper (so students still get one).
    fallback: tuple[Drafter, Solver] | None = None


def build_services(settings: Settings) -> Services:
    """Load the bundled data and build the configured providers."""
    syllabus = load_syllabus(settings.data_dir)
    kb = load_knowledge_base(settings.data_dir)
    usage: UsageLedger | None = None
    drafter: Drafter
    solver: Solver
    fallback: tuple[Drafter, Solver] | None = None
    if settings.llm == "openai":
        drafter, solver, usage = _openai_providers(settings, syllabus, kb)
        if settings.offline_fallback:
            fallback = _offline_providers(settings, kb, syllabus)
    else:
        drafter, solver = _offline_providers(settings, kb, syllabus)
    return Services(
        settings=settings,
        syllabus=syllabus,
        blueprint=load_blueprint(settings.data_dir, syllabus),
        kb=kb,
        drafter=drafter,
        solver=solver,
        store=object_store(settings),
        usage=usage,
        concurrency=settings.llm_concurrency if settings.llm == "openai" else 1,
        fallback=fallback,
    )


def offline_engine(services: Services) -> tuple[Drafter, Solver]:
    """The offline drafter and solver, whatever drafts the pool: what the topic floor fills with
    and what explains a short topic (no model call is ever paid for either)."""
    if services.settings.llm == "offline":
        return services.drafter, services.solver
    if services.fallback is not None:
        return services.fallback
    return _offline_providers(services.settings, services.kb, services.syllabus)


def _offline_providers(
    settings: Settings, kb: KnowledgeBase, syllabus: Syllabus
) -> tuple[Drafter, Solver]:
    """The offline engine: parametric templates and fact tables, and the independent solver."""
    elements = load_element_data(settings.data_dir)
    sequences = load_sequences(settings.data_dir, kb)
    figures = figure_templates(settings.data_dir)
    organic = organic_templates(settings.data_dir)
    drafter = OfflineDrafter(
        syllabus, kb, TEMPLATES, elements, settings.data_dir, sequences, figures, organic
    )
    return drafter, OfflineSolver(kb, TEMPLATES_BY_ID)


def _openai_providers(
    settings: Settings, syllabus: Syllabus, kb: KnowledgeBase
) -> tuple[Drafter, Solver, UsageLedger]:
    """Drafter and adversarial solver through one SDK client, sharing a ledger and budget."""
    from pipeline.llm.draft import OpenAIDrafter
    from pipeline.llm.solve import OpenAISolver

    client = openai_client(settings)
    prompts = settings.data_dir / "prompts"
    ledger = UsageLedger()
    drafter = OpenAIDrafter(
        client=client,
        model=settings.openai_draft_model,
        syllabus=syllabus,
        context=_context_source(settings, kb),
        prompts_dir=prompts,
        ledger=ledger,
        budget=TokenBudget(settings.llm_token_budget, ledger),
    )
    solver = OpenAISolver(
        client=client,
        model=settings.openai_solver_model,
        prompts_dir=prompts,
        ledger=ledger,
        samples=settings.solver_samples,
        min_confidence=settings.solver_min_confidence,
    )
    return drafter, solver, ledger


def _context_source(settings: Settings, kb: KnowledgeBase) -> ContextSource:
    """The knowledge store's retrieval when it holds chunks, over the bundled knowledge base
    (which also answers for topics the store has nothing on, and gives the style examples).

    Decided when the services are built: on a first nightly the store is filled by its ingest
    step after that, so that one night drafts from the bundled knowledge base.
    """
    from pipeline.llm.context import BundledContext, StoreContext

    if not Path(settings.lancedb_uri).exists():
        return BundledContext(kb)
    kstore = build_knowledge_store(settings)
    bundled = BundledContext(kb, _style_references(kstore))
    if kstore.count("chunks") == 0:
        return bundled
    return StoreContext(kstore, bundled)


def _style_references(kstore: KnowledgeStore) -> tuple[ReferenceQuestion, ...]:
    """Imported reference (past-paper) questions, the drafter's style examples (none: ())."""
    if kstore.count("references") == 0:
        return ()
    columns = ["question", "options", "answer", "subject", "topic", "source"]
    rows = kstore.table("references").to_arrow().select(columns).to_pylist()
    return tuple(
        ReferenceQuestion(
            question=r["question"],
            options=tuple(r["options"] or ()),
            answer=r["answer"],
            subject=r["subject"] or "",
            topic=r["topic"] or "",
            source=r["source"] or "",
        )
        for r in rows
    )


def openai_client(settings: Settings):
    """The OpenAI SDK client with explicit timeouts and retries (any compatible base_url)."""
    import openai

    if settings.openai_api_key is None:
        raise ValueError("the openai provider needs OPENAI_API_KEY (or QFORGE_OPENAI_API_KEY)")
    return openai.OpenAI(
        api_key=settings.openai_api_key.get_secret_value(),
        base_url=settings.openai_base_url,
        timeout=settings.openai_timeout_seconds,
        max_retries=settings.openai_max_retries,
    )


def build_embedder(settings: Settings) -> Embedder:
    """The configured embedder: the bundled static model, or OpenAI embeddings."""
    if settings.embedder == "openai":
        from kb.embeddings import OpenAIEmbedder

        return OpenAIEmbedder(openai_client(settings), settings.openai_embedding_model)
    from kb.embeddings import load_static_embedder

    return load_static_embedder(settings.embedding_model_dir)


def build_knowledge_store(settings: Settings, embedder: Embedder | None = None) -> KnowledgeStore:
    from kb.store import KnowledgeStore

    return KnowledgeStore(settings.lancedb_uri, embedder or build_embedder(settings))


def topic_examples(settings: Settings) -> dict[str, list[str]]:
    """Bundled chunk texts per topic: they describe a topic better than its name alone."""
    examples: dict[str, list[str]] = {}
    for chunk in load_knowledge_base(settings.data_dir).chunks.values():
        if chunk.topic_id:
            examples.setdefault(chunk.topic_id, []).append(f"{chunk.title}\n{chunk.text}")
    return examples


def build_ingestor(settings: Settings) -> Ingestor:
    from kb.ingest.run import Ingestor
    from kb.tagging import TopicIndex

    embedder = build_embedder(settings)
    syllabus = load_syllabus(settings.data_dir)
    captioner = None
    if settings.llm == "openai":
        from kb.captions import OpenAICaptioner

        captioner = OpenAICaptioner(
            openai_client(settings), settings.openai_vision_model, settings.data_dir / "prompts"
        )
    return Ingestor(
        kstore=build_knowledge_store(settings, embedder),
        objects=object_store(settings),
        embedder=embedder,
        syllabus=syllabus,
        topics=TopicIndex.build(syllabus, embedder, topic_examples(settings)),
        captioner=captioner,
        max_chunks_per_document=settings.kb_max_chunks_per_document,
    )


# Cosine similarity at which a draft counts as a copy of a reference (past-paper) question.
REFERENCE_NEAR_DUPLICATE = 0.95


def own_duplicate_gate(settings: Settings, stored: Iterable[Question]) -> NearDuplicateGate:
    """The gate against our own stored questions, primed with what the pool holds."""
    gate = NearDuplicateGate(build_embedder(settings).embed)
    gate.add(stored)
    return gate


def reference_screens(settings: Settings) -> list[Callable[[Draft], str | None]]:
    """Screens that refuse drafts too close to a reference question (none when none exist)."""
    from kb.store import content_text

    kstore = build_knowledge_store(settings)
    if kstore.count("references") == 0:
        return []

    def near_reference(draft: Draft) -> str | None:
        hits = kstore.near_duplicates(
            "references", content_text(draft.content), REFERENCE_NEAR_DUPLICATE, k=1
        )
        return f"near_duplicate_reference: {hits[0].id} ({hits[0].score:.3f})" if hits else None

    return [near_reference]


def duplicate_screens(
    settings: Settings, stored: Iterable[Question]
) -> tuple[list[Callable[[Draft], str | None]], Callable[[Question], None]]:
    """What the warehouse fills (the nightly, `qforge pool fill`, the Batch API fill) screen
    drafts with before the solver (past-paper references, then our own stored questions), and
    what teaches the own-duplicate screen each new question. The worker's top-ups screen by
    near-duplicate group instead (`pipeline.fill.engine.Intake`)."""
    gate = own_duplicate_gate(settings, stored)
    return [*reference_screens(settings), gate.screen], lambda q: gate.add([q])
