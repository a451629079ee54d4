"""Shared fixtures: real engines on tmp_path, the bundled data, offline providers."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

# Prefect reads its settings at import: keep its state out of the user's home for the whole session.
os.environ.setdefault("PREFECT_HOME", tempfile.mkdtemp(prefix="qforge-test-prefect-"))
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "60")
# The nightly's topic floor fills every live topic × difficulty (some 17,000 questions): a test
# that wants it says so (tests/test_topic_coverage.py); every other nightly skips it.
os.environ["QFORGE_TOPIC_FLOOR"] = "0"
# Likewise the figure floor (some 400 figure questions, each drawn): the tests of papers with
# figures turn it on (tests/test_one_face.py, tests/test_nightly_e2e.py).
os.environ["QFORGE_FIGURE_FLOOR"] = "0"

import pytest
from hypothesis import settings as hypothesis_settings

from core.records import Draft
from core.settings import REPO_ROOT, Settings
from kb.knowledge import KnowledgeBase, load_knowledge_base
from kb.syllabus import Syllabus, load_syllabus
from pipeline.compose import Services, build_services
from pipeline.generate.numerical import numerical_draft
from pipeline.templates.catalogue import TEMPLATES_BY_ID
from pipeline.verify.gate import screen_refusal

DATA_DIR = REPO_ROOT / "data"
# `make test-fast` runs property tests on a quarter of their examples (`--hypothesis-profile
# fast`); `make test` and CI run them all.
hypothesis_settings.register_profile("fast", max_examples=25)


def examples(n: int) -> int:
    """n examples (property-test cases, seeds) under the default profile; a quarter of them
    under `fast`."""
    return max(5, n * hypothesis_settings().max_examples // 100)


def sound_drafts(template_id: str, syllabus: Syllabus, n: int, start: int = 0) -> list[Draft]:
    """The first n drafts of a numerical template from seed `start` on that the screens pass
    (a draw whose named mistakes give no three distinct options, or a giveaway, is skipped)."""
    template = TEMPLATES_BY_ID[template_id]
    found = []
    for seed in range(start, start + 500):
        draft = numerical_draft(template, seed, syllabus)
        if draft is not None and screen_refusal(draft) is None:
            found.append(draft)
            if len(found) == n:
                return found
    raise AssertionError(f"{template_id}: fewer than {n} sound drafts from seed {start}")


def sound_draft(template_id: str, syllabus: Syllabus, start: int = 0) -> Draft:
    return sound_drafts(template_id, syllabus, 1, start)[0]


@pytest.fixture(scope="session")
def syllabus() -> Syllabus:
    return load_syllabus(DATA_DIR)


@pytest.fixture(scope="session")
def kb() -> KnowledgeBase:
    return load_knowledge_base(DATA_DIR)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(home=tmp_path / "home")


@pytest.fixture
def services(settings: Settings) -> Services:
    return build_services(settings)


# The longest modules start first, longest of all first, so the two xdist workers finish
# together (loadfile hands out modules in collection order; a long module started last runs
# alone at the end). Ordered by their seconds in a full run on 2 cores (2026-11-27: `pytest -n 2
# --dist loadfile --durations=0`, the durations summed per module); the rest follow in
# collection order. Measure again when a module's place changes.
SLOW_MODULES = (
    "test_docs_commands.py",  # 203 s
    "test_topic_practice.py",  # 126 s
    "test_nightly_e2e.py",  # 107 s
    "test_one_face.py",  # 99 s
    "test_nightly_crash.py",  # 94 s
    "test_nightly_no_paper.py",  # 69 s
    "test_full_disk.py",  # 53 s
    "test_generation.py",  # 41 s
    "test_one_run.py",  # 37 s
    "test_sequences.py",  # 32 s
    "test_feedback_week.py",  # 28 s
    "test_figures_graph.py",  # 17 s
    "test_templates.py",  # 16 s
    "test_nightly_steps.py",  # 15 s
    "test_openai_batch.py",  # 13 s
    "test_llm_report.py",  # 11 s
    "test_worker.py",  # 10 s
    "test_assembly_properties.py",  # 10 s
)
_START_RANK = {name: rank for rank, name in enumerate(SLOW_MODULES)}


# Modules that are system tests through and through (`pytestmark = pytest.mark.system`):
# `-m "not system"` does not even import them, so the fast tier pays nothing for Prefect's,
# schemathesis's and moto's imports. tests/test_architecture.py keeps this list and the marks
# in step.
SYSTEM_MODULES = frozenset(
    {
        "test_feedback_week.py",
        "test_full_disk.py",
        "test_nightly_crash.py",
        "test_nightly_e2e.py",
        "test_one_face.py",
        "test_one_run.py",
        "test_topic_practice.py",
        "test_worker_schemathesis.py",
    }
)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.name in SYSTEM_MODULES and config.getoption("markexpr") == "not system":
        return True
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: _START_RANK.get(item.path.name, len(SLOW_MODULES)))
