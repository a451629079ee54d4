"""The near-duplicate gate between our own questions, with the bundled static embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.records import Difficulty, Draft, Subject
from core.settings import Settings
from core.warehouse import open_warehouse
from kb.embeddings import load_static_embedder
from kb.knowledge import KnowledgeBase
from kb.syllabus import Syllabus
from pipeline.fill.pool import fill_pool
from pipeline.generate.drafter import OfflineDrafter
from pipeline.templates.catalogue import TEMPLATES, TEMPLATES_BY_ID
from pipeline.verify.dedupe import NearDuplicateGate
from pipeline.verify.gate import judged, solver_view
from pipeline.verify.solver import OfflineSolver
from tests.conftest import sound_drafts


@pytest.fixture(scope="module")
def gate_embed():
    return load_static_embedder(Settings().embedding_model_dir).embed


def _stored(draft: Draft, solver: OfflineSolver):
    question = judged(draft, solver.solve(solver_view(draft)))[1]
    assert question is not None
    return question


def test_a_question_restated_by_another_source_is_refused(gate_embed, syllabus, kb) -> None:
    solver = OfflineSolver(kb, TEMPLATES_BY_ID)
    template = TEMPLATES[0]
    original, variant = sound_drafts(template.template_id, syllabus, 2)
    gate = NearDuplicateGate(gate_embed)
    gate.add([_stored(original, solver)])
    # The same question with one word changed, drafted by another template id.
    c = original.content
    copy = original.model_copy(
        update={
            "content": c.model_copy(
                update={"stem_markdown": c.stem_markdown.replace("The", "A", 1)}
            ),
            "provenance": original.provenance.model_copy(update={"template_id": "another"}),
        }
    )
    reason = gate.screen(copy)
    assert reason is not None and reason.startswith("near_duplicate_own: ")
    # The template's own variants (other numbers) are intended, not duplicates.
    assert gate.screen(variant) is None


def test_questions_of_different_sources_pass(
    gate_embed, syllabus: Syllabus, kb: KnowledgeBase
) -> None:
    drafter = OfflineDrafter(syllabus, kb, TEMPLATES)
    solver = OfflineSolver(kb, TEMPLATES_BY_ID)
    gate = NearDuplicateGate(gate_embed)
    refused = 0
    drafts = drafter.drafts(Subject.BOTANY, Difficulty.EASY, {})
    for draft in [next(drafts) for _ in range(150)]:
        if gate.screen(draft):
            refused += 1
        else:
            gate.add([_stored(draft, solver)])
    assert len(gate) + refused == 150
    assert refused <= 3  # calibration: no pair of different relations reached 0.95


def test_the_fill_feeds_accepted_questions_to_the_gate(
    tmp_path: Path, gate_embed, syllabus, kb
) -> None:
    gate = NearDuplicateGate(gate_embed)
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        reports = fill_pool(
            wh,
            OfflineDrafter(syllabus, kb, TEMPLATES),
            OfflineSolver(kb, TEMPLATES_BY_ID),
            {(Subject.PHYSICS, Difficulty.MEDIUM): 40},
            screens=[gate.screen],
            on_accept=lambda q: gate.add([q]),
        )
        assert len(gate) == reports[0].accepted == len(wh.question_ids()) == 40
