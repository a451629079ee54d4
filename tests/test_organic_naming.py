"""The naming templates: every draft clean, solved by OPSIN (names) and the solver's own
substructure rules (classes), its key moved refused, its difficulty its template's; the
structure figures stable and their alt text silent about the answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.syllabus import Syllabus
from pipeline.generate.organic.naming import naming_templates
from pipeline.generate.organic.template import OrganicTemplate
from pipeline.verify.organic.naming import naming_answer
from tests.conftest import DATA_DIR
from tests.debian import ensure_java
from tests.test_organic_bonds import (
    assert_table,
    check_small_tables,
    check_stable_figures,
    check_template,
)

TEMPLATES = naming_templates(DATA_DIR)


@pytest.fixture(scope="module", autouse=True)
def java() -> None:
    ensure_java()


@pytest.mark.parametrize("template", TEMPLATES, ids=[t.template_id for t in TEMPLATES])
def test_every_draft_is_clean_and_solved(template: OrganicTemplate, syllabus: Syllabus) -> None:
    assert_table()
    check_template(template, syllabus, naming_answer)


@pytest.mark.parametrize("template", TEMPLATES, ids=[t.template_id for t in TEMPLATES])
def test_structure_figures_are_byte_stable(template: OrganicTemplate, syllabus: Syllabus) -> None:
    assert_table()
    check_stable_figures(template, syllabus)


def test_name_options_name_different_compounds(syllabus: Syllabus) -> None:
    """No option is a wrong name of the shown compound: OPSIN reads the four names as four
    different structures."""
    from pipeline.generate.organic.template import organic_drafts
    from pipeline.verify.organic.opsin import smiles_of_names

    assert_table()
    for template in TEMPLATES:
        if "name-of" not in template.template_id:
            continue
        for n, draft in enumerate(organic_drafts(template, syllabus)):
            texts = [o.text for o in draft.content.options]
            read = smiles_of_names(texts)
            assert len({read[t] for t in texts}) == 4, texts
            if n == 50:
                break


def test_templates_survive_small_tables(tmp_path: Path) -> None:
    check_small_tables(naming_templates, tmp_path)


@pytest.mark.parametrize("name", ["amine-statements", "group-statements"])
def test_statement_codes_name_each_statement_twice(name: str, syllabus: Syllabus) -> None:
    """The statement sets offer four two-statement codes naming every statement twice: no
    letter's frequency points to the key; the group statements span 20+ compounds."""
    from pipeline.generate.organic.template import organic_drafts

    assert_table()
    template = next(t for t in TEMPLATES if t.template_id.endswith(name))
    drafts = list(organic_drafts(template, syllabus))
    assert len({d.content.stem_markdown for d in drafts}) >= 10
    if name == "group-statements":
        assert len({d.provenance.params for d in drafts}) >= 20
    for draft in drafts:
        texts = " ".join(o.text for o in draft.content.options)
        assert all(texts.count(c) == 2 for c in "ABCD"), texts


@pytest.mark.parametrize(
    ("smiles", "name", "groups"),
    [
        ("CC(=O)OC", "methyl ethanoate: its O is the ester's, not an ether", {"ester"}),
        ("COC", "methoxymethane", {"ether"}),
        ("CC(=O)O", "ethanoic acid: its OH is the carboxyl's, not alcoholic", {"carboxyl"}),
        ("CC(O)C(=O)O", "2-hydroxypropanoic acid", {"carboxyl", "alcoholic hydroxyl"}),
        ("CC(=O)Oc1ccccc1C(=O)O", "aspirin", {"carboxyl", "ester"}),
        ("COc1ccc(C(=O)O)cc1", "4-methoxybenzoic acid", {"carboxyl", "ether"}),
        ("Oc1ccccc1", "phenol", {"phenolic hydroxyl"}),
        ("OCc1ccccc1", "phenylmethanol: OH on an sp3 carbon", {"alcoholic hydroxyl"}),
        ("OC(=O)c1ccc(O)cc1", "4-hydroxybenzoic acid", {"carboxyl", "phenolic hydroxyl"}),
        ("NC(=O)c1ccccc1", "benzamide: its NH2 is the amide's", {"amide"}),
        ("CC(=O)Nc1ccccc1", "N-phenylethanamide", {"amide"}),
        ("Nc1ccc(O)cc1", "4-aminophenol", {"primary amino", "phenolic hydroxyl"}),
        ("Nc1ccc([N+](=O)[O-])cc1", "4-nitroaniline", {"primary amino", "nitro"}),
        ("CC(=O)CC(=O)O", "3-oxobutanoic acid", {"keto", "carboxyl"}),
        ("CC(=O)CCC=O", "4-oxopentanal", {"keto", "aldehyde"}),
        ("COC(=O)c1ccc(O)cc1", "methyl 4-hydroxybenzoate", {"ester", "phenolic hydroxyl"}),
    ],
)
def test_group_rules_settle_the_near_misses(smiles: str, name: str, groups: set[str]) -> None:
    """The solver's SMARTS, on the cases a student confuses (ester vs ether vs carboxyl OH;
    phenolic vs alcoholic OH; amide vs amine), and the generator's atom walk agree."""
    from pipeline.generate.organic.groups import groups_found
    from pipeline.verify.organic.groups import groups_of

    assert groups_of(smiles) == groups, name
    assert groups_found(smiles) == groups, name
