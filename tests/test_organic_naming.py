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
    check_small_tables,
    check_stable_figures,
    check_template,
    table_or_skip,
)

TEMPLATES = naming_templates(DATA_DIR)


@pytest.fixture(scope="module", autouse=True)
def java() -> None:
    ensure_java()


@pytest.mark.parametrize("template", TEMPLATES, ids=[t.template_id for t in TEMPLATES])
def test_every_draft_is_clean_and_solved(template: OrganicTemplate, syllabus: Syllabus) -> None:
    table_or_skip()
    check_template(template, syllabus, naming_answer)


@pytest.mark.parametrize("template", TEMPLATES, ids=[t.template_id for t in TEMPLATES])
def test_structure_figures_are_byte_stable(template: OrganicTemplate, syllabus: Syllabus) -> None:
    table_or_skip()
    check_stable_figures(template, syllabus)


def test_name_options_name_different_compounds(syllabus: Syllabus) -> None:
    """No option is a wrong name of the shown compound: OPSIN reads the four names as four
    different structures."""
    from pipeline.generate.organic.template import organic_drafts
    from pipeline.verify.organic.opsin import smiles_of_names

    table_or_skip()
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


def test_statement_codes_name_each_statement_twice(syllabus: Syllabus) -> None:
    """The amine statement sets offer four two-statement codes naming every statement twice:
    no letter's frequency points to the key."""
    from pipeline.generate.organic.template import organic_drafts

    table_or_skip()
    template = next(t for t in TEMPLATES if t.template_id.endswith("amine-statements"))
    drafts = list(organic_drafts(template, syllabus))
    assert len({d.content.stem_markdown for d in drafts}) >= 10
    for draft in drafts:
        texts = " ".join(o.text for o in draft.content.options)
        assert all(texts.count(c) == 2 for c in "ABCD"), texts
