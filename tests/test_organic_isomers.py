"""Isomer questions: every template's drafts are answered by the isomer solver (its own RDKit
enumeration and rules, never the authored counts), a moved key is refused, the drafts are rated
as their template, and the enumerator agrees with well-known counts."""

from __future__ import annotations

import json
from itertools import islice

import pytest
from rdkit import Chem
from rdkit.Chem import rdCIPLabeler

from core.figures import StructureSpec
from core.settings import REPO_ROOT
from kb.syllabus import Syllabus
from pipeline.generate.organic.isomers import isomers_templates
from pipeline.generate.organic.template import OrganicTemplate, organic_drafts
from pipeline.verify.gate import hygiene_problem, solver_view
from pipeline.verify.organic.isomers import (
    FAMILIES,
    count_stem,
    family_count,
    isomerism_type,
    isomers_answer,
    parse_count_stem,
)
from pipeline.verify.organic.opsin import canonical, smiles_of_names
from tests.debian import ensure_java
from tests.test_figures import key_moved

DATA_DIR = REPO_ROOT / "data"
SEEDS = 200
TEMPLATES = isomers_templates(DATA_DIR)
IDS = [t.template_id for t in TEMPLATES]


@pytest.mark.parametrize(
    ("formula", "family", "count"),
    [
        ("C6H14", "any", 5),
        ("C7H16", "any", 9),
        ("C4H10O", "alcohol-ether", 7),
        ("C5H12O", "alcohol", 8),
        ("C4H11N", "amine", 8),
        ("C5H11Cl", "haloalkane", 8),
        ("C5H10O", "carbonyl", 7),
        ("C8H10", "aromatic", 4),
        ("C7H8O", "aromatic", 5),
        ("C5H10", "alkene", 5),
        ("C4H8O2", "acid-ester", 6),
    ],
)
def test_the_enumerator_agrees_with_well_known_counts(
    formula: str, family: str, count: int
) -> None:
    assert family_count(formula, family) == count


def test_every_family_phrase_reads_back() -> None:
    assert len({f.phrase for f in FAMILIES}) == len(FAMILIES)
    for f in FAMILIES:
        assert parse_count_stem(count_stem(f, "C4H10O")) == (f, "C4H10O")


def test_templates_have_unique_ids_and_cover_three_difficulties() -> None:
    assert len(set(IDS)) == len(IDS)
    assert all(t.startswith("organic.isomers.") for t in IDS)
    assert {t.difficulty for t in TEMPLATES if t.topic_id == "che-isomerism"} == {
        t.difficulty for t in TEMPLATES
    }


@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_every_draft_is_sound_and_solved(template: OrganicTemplate, syllabus: Syllabus) -> None:
    drafts = list(islice(organic_drafts(template, syllabus), SEEDS))
    assert drafts, template.template_id
    if ".named-" in template.template_id:
        ensure_java()
        # One OPSIN run for every name the options print (the solver reads them one question
        # at a time, each a Java start).
        smiles_of_names(o.text for d in drafts for o in d.content.options)
    for draft in drafts:
        c = draft.content
        assert c.difficulty == template.difficulty
        assert hygiene_problem(draft) is None, (c.stem_markdown, c.options)
        answer = isomers_answer(solver_view(draft))
        assert answer.choice == c.correct_key, (c.stem_markdown, c.options, answer.note)
        moved = isomers_answer(solver_view(key_moved(draft)))
        assert moved.choice != c.correct_key, (c.stem_markdown, moved.note)
        for figure in c.figures:  # drawn by organic_draft (RDKit, checked safe), sized
            assert isinstance(figure.spec, StructureSpec)
            assert figure.figure_id and figure.width > 0 and figure.height > 0


def test_configured_structures_carry_the_configurations_their_names_say() -> None:
    shown = json.loads((DATA_DIR / "kb/organic/isomer_counts.json").read_text())["shown"]
    for entry in shown["configured_chiral"] + shown["configured_meso"]:
        mol = Chem.MolFromSmiles(entry["smiles"])
        rdCIPLabeler.AssignCIPLabels(mol)
        labels = sorted(a.GetProp("_CIPCode") for a in mol.GetAtoms() if a.HasProp("_CIPCode"))
        meso = entry in shown["configured_meso"]
        assert labels == (["R", "S"] if meso else ["R", "R"]), entry


def test_every_authored_name_is_its_structure() -> None:
    """OPSIN reads each name printed in an explanation to the structure drawn (configurations
    and cis/trans included where the drawing shows them)."""
    ensure_java()
    table = json.loads((DATA_DIR / "kb/organic/isomer_counts.json").read_text())
    items = [(e["name"], e["smiles"]) for e in table["stereo"]]
    items += [(m["name"], m["smiles"]) for pool in table["shown"].values() for m in pool]

    for p in table["pairs"]:
        items += [(p["names"][0], p["first"]), (p["names"][1], p["second"])]
    items += [(e["name"], e["smiles"]) for e in table["monochloro"]]
    for kind in ("geometrical", "chiral"):
        for e in table["named"][kind]:
            items += [(n, None) for n in e["yes"] + e["no"]]
    single = table["single_monochloride"]
    items += [(m["name"], m["smiles"]) for m in single["yes"] + single["no"]]
    read = smiles_of_names(name for name, _ in items)
    for name, smiles in items:
        if smiles is None:  # a named option: OPSIN must read it (the solver checks the rest)
            assert read[name] is not None, name
        else:
            assert read[name] == canonical(smiles), (name, read[name], smiles)


def test_every_topic_cell_has_ten_distinct_questions() -> None:
    """Distinct questions (groups: one formula and family, one compound, one key compound, one
    pair) per topic and difficulty, drawn without drawing the figures."""
    cells: dict[tuple[str, str], set[str]] = {}
    for t in TEMPLATES:
        groups = {q.group for q in (t.draw(seed) for seed in range(SEEDS)) if q is not None}
        cells.setdefault((t.topic_id, t.difficulty.value), set()).update(groups)
    thin = {cell: len(groups) for cell, groups in cells.items() if len(groups) < 10}
    assert not thin, thin


@pytest.mark.parametrize(
    ("first", "second", "kind"),
    [
        ("CCCCC", "CC(C)(C)C", "chain"),
        ("CCCCO", "CCC(C)O", "position"),
        ("CCO", "COC", "functional"),
        ("COCCC", "CCOCC", "metamerism"),
        ("C/C=C/C", "C/C=C\\C", "geometrical"),
        ("COCCCC", "COC(C)CC", None),  # same alkyl sizes about the O: not a metamer pair
        ("CCCC", "CCCCC", None),  # not isomers
        ("CCC(C)O", "CCC(C)O", None),  # one compound
    ],
)
def test_isomerism_type_rules(first: str, second: str, kind: str | None) -> None:
    assert isomerism_type(Chem.MolFromSmiles(first), Chem.MolFromSmiles(second)) == kind


def test_a_count_where_rings_are_possible_is_refused() -> None:
    with pytest.raises(ValueError, match="rings"):
        family_count("C4H8", "any")
