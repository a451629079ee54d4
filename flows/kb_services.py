"""Knowledge-store providers built from Settings: the embedder, LanceDB store and the ingestor."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from core.providers import Embedder, object_store
from core.records import Draft, Question
from core.settings import Settings
from kb.ingest.run import Ingestor
from kb.knowledge import load_knowledge_base
from kb.store import KnowledgeStore, content_text
from kb.syllabus import load_syllabus
from kb.tagging import TopicIndex
from pipeline.verify.dedupe import NearDuplicateGate


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
    return KnowledgeStore(settings.lancedb_uri, embedder or build_embedder(settings))


def topic_examples(settings: Settings) -> dict[str, list[str]]:
    """Bundled chunk texts per topic: they describe a topic better than its name alone."""
    examples: dict[str, list[str]] = {}
    for chunk in load_knowledge_base(settings.data_dir).chunks.values():
        if chunk.topic_id:
            examples.setdefault(chunk.topic_id, []).append(f"{chunk.title}\n{chunk.text}")
    return examples


def build_ingestor(settings: Settings) -> Ingestor:
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
    kstore = build_knowledge_store(settings)
    if kstore.count("references") == 0:
        return []

    def near_reference(draft: Draft) -> str | None:
        hits = kstore.near_duplicates(
            "references", content_text(draft.content), REFERENCE_NEAR_DUPLICATE, k=1
        )
        return f"near_duplicate_reference: {hits[0].id} ({hits[0].score:.3f})" if hits else None

    return [near_reference]
