"""Everything a run needs, built once from Settings at the edge and passed down."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.providers import object_store
from core.settings import Settings
from core.storage import ObjectStore
from kb.elements import load_element_data
from kb.knowledge import KnowledgeBase, load_knowledge_base
from kb.references import ReferenceQuestion
from kb.syllabus import Syllabus, load_syllabus
from pipeline.assemble.blueprint import Blueprint, load_blueprint
from pipeline.generate.drafter import Drafter, OfflineDrafter
from pipeline.llm.usage import TokenBudget, UsageLedger
from pipeline.templates.catalogue import TEMPLATES, TEMPLATES_BY_ID
from pipeline.verify.gate import Solver
from pipeline.verify.solver import OfflineSolver

if TYPE_CHECKING:  # both import heavy libraries (LanceDB, jinja2, pint): only with a model
    from kb.store import KnowledgeStore
    from pipeline.llm.draft import ContextSource


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


def _offline_providers(
    settings: Settings, kb: KnowledgeBase, syllabus: Syllabus
) -> tuple[Drafter, Solver]:
    """The offline engine: parametric templates and fact tables, and the independent solver."""
    elements = load_element_data(settings.data_dir)
    return OfflineDrafter(syllabus, kb, TEMPLATES, elements), OfflineSolver(kb, TEMPLATES_BY_ID)


def _openai_providers(
    settings: Settings, syllabus: Syllabus, kb: KnowledgeBase
) -> tuple[Drafter, Solver, UsageLedger]:
    """Drafter and adversarial solver through one SDK client, sharing a ledger and budget."""
    from flows.kb_services import openai_client
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
    from pipeline.llm.draft import BundledContext, StoreContext

    if not Path(settings.lancedb_uri).exists():
        return BundledContext(kb)
    from flows.kb_services import build_knowledge_store

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
