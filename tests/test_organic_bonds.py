"""The bonds templates: every draft clean, solved by the solver's own counts, its key moved
refused, its difficulty its template's; the structure figures stable and their alt text silent
about the answer."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from core.records import Draft, SolverAnswer, SolverView
from kb.organic import molecules
from kb.syllabus import Syllabus
from pipeline.generate.organic.bonds import bonds_templates
from pipeline.generate.organic.template import OrganicTemplate, organic_draft, organic_drafts
from pipeline.verify.gate import hygiene_problem, solver_view
from pipeline.verify.organic.bonds import bonds_answer
from tests.conftest import DATA_DIR
from tests.test_figures import key_moved

# Every template is run over all its drafts (today's table makes at most ~600), capped here so a
# larger table keeps the file under ~25 s.
MAX_DRAFTS = 600
LETTERED = ("P", "Q", "R", "S")


def assert_table() -> None:
    assert molecules(DATA_DIR), "no compound table under data/kb/organic/molecules"


def check_template(
    template: OrganicTemplate,
    syllabus: Syllabus,
    answer: Callable[[SolverView], SolverAnswer],
    max_abstain: float = 0.0,
) -> list[Draft]:
    """Every draft of the template (up to MAX_DRAFTS) holds; returns them."""
    drafts: list[Draft] = []
    for draft in organic_drafts(template, syllabus):
        drafts.append(draft)
        if len(drafts) == MAX_DRAFTS:
            break
    abstained = 0
    for draft in drafts:
        c = draft.content
        seed = dict(draft.provenance.params)["seed"]
        assert hygiene_problem(draft) is None, (seed, hygiene_problem(draft), c.options)
        assert c.difficulty is template.difficulty, seed
        solved = answer(solver_view(draft))
        if solved.choice is None:
            abstained += 1
        else:
            assert solved.choice == c.correct_key, (seed, c.stem_markdown, c.options, solved)
            assert solved.confidence >= 0.1
        moved = answer(solver_view(key_moved(draft)))
        assert moved.choice != c.correct_key, (seed, moved)
        key_text = next(o.text for o in c.options if o.key == c.correct_key)
        for figure in c.figures:
            assert figure.figure_id, seed
            assert key_text not in figure.alt, seed
    assert abstained <= max_abstain * len(drafts), f"{abstained} of {len(drafts)} abstained"
    if drafts and all(o.text in LETTERED for o in drafts[0].content.options):
        keys: Counter[str] = Counter(d.content.correct_key for d in drafts)
        if len(drafts) >= 20:
            assert all(keys[k] >= len(drafts) / 10 for k in "ABCD"), keys
    return drafts


def check_stable_figures(template: OrganicTemplate, syllabus: Syllabus) -> None:
    """The same seed draws the same figure, byte for byte (its id is the drawing's hash)."""
    seen = 0
    for seed in range(40):
        first = organic_draft(template, seed, syllabus)
        if first is None or not first.content.figures:
            continue
        again = organic_draft(template, seed, syllabus)
        assert again is not None
        assert [f.figure_id for f in again.content.figures] == [
            f.figure_id for f in first.content.figures
        ]
        seen += 1
        if seen == 2:
            return


def check_small_tables(make: Callable[[Path], tuple[OrganicTemplate, ...]], tmp: Path) -> None:
    """No table, or a table of three compounds: fewer drafts, never a crash."""
    empty = tmp / "empty"
    (empty / "kb" / "organic" / "molecules").mkdir(parents=True)
    small = tmp / "small"
    (small / "kb" / "organic" / "molecules").mkdir(parents=True)
    rows = [
        {"molecule_id": "ethanol", "smiles": "CCO", "iupac": "ethanol", "family": "alcohol"},
        {"molecule_id": "ethene", "smiles": "C=C", "iupac": "ethene", "family": "alkene"},
        {"molecule_id": "benzene", "smiles": "c1ccccc1", "iupac": "benzene", "family": "arene"},
    ]
    path = small / "kb" / "organic" / "molecules" / "a.json"
    path.write_text(json.dumps({"source": "test", "molecules": rows}), encoding="utf-8")
    for data_dir in (empty, small):
        for template in make(data_dir):
            for seed in range(12):
                template.draw(seed)


TEMPLATES = bonds_templates(DATA_DIR)


@pytest.mark.parametrize("template", TEMPLATES, ids=[t.template_id for t in TEMPLATES])
def test_every_draft_is_clean_and_solved(template: OrganicTemplate, syllabus: Syllabus) -> None:
    assert_table()
    check_template(template, syllabus, bonds_answer)


@pytest.mark.parametrize("template", TEMPLATES, ids=[t.template_id for t in TEMPLATES])
def test_structure_figures_are_byte_stable(template: OrganicTemplate, syllabus: Syllabus) -> None:
    assert_table()
    check_stable_figures(template, syllabus)


def test_every_difficulty_of_each_topic_is_served() -> None:
    cells = {(t.topic_id, t.difficulty.value) for t in TEMPLATES}
    assert {d for topic, d in cells if topic == "che-tetravalency-of-carbon"} >= {"Easy", "Medium"}
    assert {d for topic, d in cells if topic == "che-formulae-from-analysis"} == {
        "Easy",
        "Medium",
        "Hard",
    }


def test_templates_survive_small_tables(tmp_path: Path) -> None:
    check_small_tables(bonds_templates, tmp_path)
