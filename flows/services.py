"""Everything a run needs, built once from Settings at the edge and passed down."""

from __future__ import annotations

from dataclasses import dataclass

from core.providers import object_store
from core.settings import Settings
from core.storage import ObjectStore
from kb.elements import load_element_data
from kb.knowledge import KnowledgeBase, load_knowledge_base
from kb.syllabus import Syllabus, load_syllabus
from pipeline.blueprint import Blueprint, load_blueprint
from pipeline.generation import Drafter, OfflineDrafter, Solver
from pipeline.solver import OfflineSolver
from pipeline.templates import TEMPLATES, TEMPLATES_BY_ID


@dataclass(frozen=True)
class Services:
    settings: Settings
    syllabus: Syllabus
    blueprint: Blueprint
    kb: KnowledgeBase
    drafter: Drafter
    solver: Solver
    store: ObjectStore


def build_services(settings: Settings) -> Services:
    """Load the bundled data and build the configured providers."""
    if settings.llm != "offline":
        raise NotImplementedError(
            f"QFORGE_LLM={settings.llm!r} is not available yet; use 'offline' (the default)"
        )
    syllabus = load_syllabus(settings.data_dir)
    kb = load_knowledge_base(settings.data_dir)
    return Services(
        settings=settings,
        syllabus=syllabus,
        blueprint=load_blueprint(settings.data_dir, syllabus),
        kb=kb,
        drafter=OfflineDrafter(syllabus, kb, TEMPLATES, load_element_data(settings.data_dir)),
        solver=OfflineSolver(kb, TEMPLATES_BY_ID),
        store=object_store(settings),
    )
