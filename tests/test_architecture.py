"""The house rules that keep the core pure: checked on the source, not by convention."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from core.settings import REPO_ROOT

PURE = ["pipeline", "kb", "site_builder", "core"]
QFORGE_PACKAGES = {"core", "kb", "pipeline", "flows", "site_builder", "api_stub"}


def imported_roots(package: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for path in sorted((REPO_ROOT / package).rglob("*.py")):
        roots: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
