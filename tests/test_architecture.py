"""The house rules that keep the core pure: checked on the source, not by convention."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from core.settings import REPO_ROOT

PURE = ["pipeline", "kb", "site_builder", "core"]
QFORGE_PACKAGES = {"core", "kb", "pipeline", "flows", "site_builder", "api_stub"}


@functools.cache
def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of a module's syntax tree (each module is parsed once per run)."""
    return tuple(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def imported_roots(package: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for path in sorted((REPO_ROOT / package).rglob("*.py")):
        roots: set[str] = set()
        for node in nodes(path):
            if isinstance(node, ast.Import):
                roots |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                roots.add(node.module.split(".")[0])
        out[str(path.relative_to(REPO_ROOT))] = roots
    return out


@pytest.mark.parametrize("package", PURE)
def test_pure_packages_never_import_prefect(package: str) -> None:
    offenders = [f for f, roots in imported_roots(package).items() if "prefect" in roots]
    assert offenders == []


def test_core_is_a_leaf() -> None:
    offenders = {
        f: roots & (QFORGE_PACKAGES - {"core"})
        for f, roots in imported_roots("core").items()
        if roots & (QFORGE_PACKAGES - {"core"})
    }
    assert offenders == {}


@pytest.mark.parametrize("package", ["pipeline", "kb", "site_builder", "core"])
def test_business_code_reads_no_environment(package: str) -> None:
    for path in (REPO_ROOT / package).rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "os.environ" not in text and "getenv" not in text, path


def test_prompts_and_data_folders_exist() -> None:
    for folder in ["data/syllabus", "data/kb/chunks", "data/kb/facts"]:
        assert (REPO_ROOT / folder).is_dir(), folder
    assert Path(REPO_ROOT / "data/syllabus/neet_ug.json").is_file()


# The pure packages in layers: each may import only those before it (no package cycle).
LAYERS = ("core", "kb", "pipeline", "site_builder")


@pytest.mark.parametrize("package", LAYERS)
def test_pure_packages_import_only_the_layers_below(package: str) -> None:
    above = set(LAYERS[LAYERS.index(package) + 1 :])
    offenders = {f: roots & above for f, roots in imported_roots(package).items() if roots & above}
    assert offenders == {}


SHELLS = ("flows", "api_stub")


@pytest.mark.parametrize(("shell", "other"), [SHELLS, SHELLS[::-1]])
def test_the_shells_never_import_each_other(shell: str, other: str) -> None:
    """The nightly/CLI and the worker share only what sits below them; `qforge api` names the
    worker's app for uvicorn instead of importing it."""
    offenders = [f for f, roots in imported_roots(shell).items() if other in roots]
    assert offenders == []


def test_only_the_shells_import_the_shells() -> None:
    for package in PURE:
        offenders = [f for f, roots in imported_roots(package).items() if roots & set(SHELLS)]
        assert offenders == [], package


# What builds a provider: only the composition root does (the shells call it).
PROVIDER_CONSTRUCTORS = {
    "OpenAI",
    "OpenAIDrafter",
    "OpenAISolver",
    "OfflineDrafter",
    "OfflineSolver",
    "KnowledgeStore",
    "Ingestor",
    "OpenAIEmbedder",
    "OpenAICaptioner",
}
COMPOSITION_ROOT = "pipeline/compose.py"


def _called_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in nodes(path):
        if isinstance(node, ast.Call):
            f = node.func
            names.add(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", ""))
    return names


def test_providers_are_built_only_in_the_composition_root() -> None:
    offenders = {}
    for package in sorted(QFORGE_PACKAGES):
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            where = str(path.relative_to(REPO_ROOT))
            built = _called_names(path) & PROVIDER_CONSTRUCTORS
            if built and where != COMPOSITION_ROOT:
                offenders[where] = built
    assert offenders == {}
    shells = {f: roots for s in SHELLS for f, roots in imported_roots(s).items()}
    users = [f for f, roots in shells.items() if "pipeline" in roots]
    assert any("compose" in (REPO_ROOT / f).read_text() for f in users)


# A string that is a SQL statement: an upper-case statement word, then what it acts on.
SQL_STATEMENT = re.compile(
    r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|WITH|COPY)\b[\s\S]*"
    r"\b(FROM|INTO|TABLE|VIEW|SCHEMA|SET|AS)\b"
)
# The warehouse's modules: the tables and their queries, and the analysts' views over them.
WAREHOUSE_MODULES = {
    "core/warehouse.py",
    "core/warehouse_feedback.py",
    "core/schema.py",
    "core/analytics.py",
}


def test_no_sql_outside_the_warehouse() -> None:
    offenders = []
    for package in sorted(QFORGE_PACKAGES):
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            where = str(path.relative_to(REPO_ROOT))
            if where in WAREHOUSE_MODULES:
                continue
            for node in nodes(path):
                if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                    continue
                if SQL_STATEMENT.match(node.value):
                    offenders.append(f"{where}:{node.lineno}")
    assert offenders == []


def test_the_sql_detector_sees_sql() -> None:
    assert SQL_STATEMENT.match("SELECT question_id FROM questions")
    assert SQL_STATEMENT.match("\n  WITH p AS (SELECT 1)")
    assert not SQL_STATEMENT.match("With the object on the incoming side, v = 2")
    assert not SQL_STATEMENT.match("Drop every tag not on the allow-list")


# Template content (question templates written as data-like Python) may be long; code may not.
CONTENT_MODULES = ("pipeline/templates/",)
# Figure templates are template content too: one seeded question maker after another.
FIGURE_TEMPLATE_MODULES = re.compile(r"pipeline/figures/\w+_templates\.py")
MAX_MODULE_LINES = 600


def test_no_module_is_over_600_lines_outside_template_content() -> None:
    long = {}
    for package in sorted(QFORGE_PACKAGES | {"bench", "scripts"}):
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            where = str(path.relative_to(REPO_ROOT))
            lines = len(path.read_text(encoding="utf-8").splitlines())
            content = where.startswith(CONTENT_MODULES) or FIGURE_TEMPLATE_MODULES.fullmatch(where)
            if lines > MAX_MODULE_LINES and not content:
                long[where] = lines
    assert long == {}


def test_the_fast_tier_skips_exactly_the_modules_marked_system_throughout() -> None:
    from tests.conftest import SYSTEM_MODULES

    marked = {
        p.name
        for p in (REPO_ROOT / "tests").glob("test_*.py")
        if "\npytestmark = pytest.mark.system\n" in p.read_text(encoding="utf-8")
    }
    assert marked == SYSTEM_MODULES
