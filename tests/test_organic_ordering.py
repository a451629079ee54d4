"""Ordering questions: the authored rankings, the rules that must decide them, every template.

The solver orders compounds from NCERT's rules over RDKit features, never from the rankings; so
every ranking's full order must come out of those rules (a ranking they cannot decide is fixed
or removed, never skipped), and every draft of every template is answered by the solver, which
refuses the key moved to another option. Abstentions are counted: none are expected, at most
5 % of a template's drafts are allowed.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from unittest import mock

import pytest
from rdkit import Chem

from core.figures import StructureSpec
from core.records import Difficulty, Draft
from core.settings import REPO_ROOT
from kb.organic import molecules_by_id
from kb.syllabus import Syllabus
from pipeline.figures import templates as figure_templates_module
from pipeline.generate.organic.ordering import (
    NOUNS,
    PHRASES,
    RANKINGS_FILE,
    Ranking,
    ordering_templates,
    rankings,
)
from pipeline.generate.organic.template import OrganicTemplate, organic_draft
from pipeline.verify.gate import hygiene_problem, solver_view
from pipeline.verify.organic.opsin import canonical, smiles_of_names
from pipeline.verify.organic.ordering import asked, increasing_order, ordering_answer
from tests.debian import ensure_java
from tests.test_figures import STUB_SVG, key_moved

DATA_DIR = REPO_ROOT / "data"
SEEDS = 200
MAX_ABSTAIN = 0.05
RENDERED_PER_TEMPLATE = 2
TEMPLATES = ordering_templates(DATA_DIR)
RANKINGS = rankings(DATA_DIR)
ORGANIC_TOPICS = {
    "che-electronic-effects",
    "che-bond-fission-and-intermediates",
    "che-acidity-of-phenols",
    "che-carboxylic-acids",
    "che-basicity-of-amines",
    "che-alkanes",
    "che-sn1-and-sn2",
    "che-nucleophilic-addition",
    "che-electrophilic-aromatic-substitution",
    "che-alcohols-preparation",
    "che-haloalkane-preparation",
    "che-polyhalogen-compounds",
    "che-carbonyl-group",
}


@pytest.fixture(scope="module", autouse=True)
def _warm_opsin() -> None:
    """One OPSIN run for every name a question can print (the solver reads names by OPSIN)."""
    ensure_java()
    smiles_of_names([c.name for r in RANKINGS for c in r.compounds if c.name])


def _solver_property(ranking: Ranking) -> str:
    noun = NOUNS.get(ranking.property, "compounds")
    stem = f"Arrange the following {noun} in the increasing order of their "
    question = asked(stem + PHRASES[ranking.property] + ":")
    assert question is not None and question.increasing, ranking.id
    return question.prop


def test_rankings_are_many_well_formed_and_untied() -> None:
    assert len(RANKINGS) >= 30
    for r in RANKINGS:
        assert 4 <= len(r.compounds) <= 6, r.id
        shown = [canonical(c.smiles) for c in r.compounds]
        assert None not in shown, r.id
        assert len(set(shown)) == len(shown), f"{r.id}: a compound repeats"
        assert r.topic_id in ORGANIC_TOPICS, r.id
        assert r.reason and r.chapter and r.effects, r.id
        for c in r.compounds:
            mol = Chem.MolFromSmiles(c.smiles)
            charged = any(
                a.GetSymbol() == "C" and (a.GetFormalCharge() or a.GetNumRadicalElectrons())
                for a in mol.GetAtoms()
            )
            # Ions and radicals carry a display formula and are drawn, never named.
            assert (bool(c.display) and not c.name) if charged else bool(c.name), (r.id, c)


def test_every_ranking_is_decided_by_the_solver_rules() -> None:
    for r in RANKINGS:
        mols = {str(i): Chem.MolFromSmiles(c.smiles) for i, c in enumerate(r.compounds)}
        order = increasing_order(_solver_property(r), mols)
        assert order == tuple(mols), f"{r.id}: the rules give {order}"


def test_ranking_names_are_read_by_opsin_as_their_structures() -> None:
    """The table's names for the compounds the rankings use read back as the table's SMILES."""
    table = molecules_by_id(DATA_DIR)
    used = {c.molecule_id for r in RANKINGS for c in r.compounds if c.molecule_id}
    names = {table[m].iupac: table[m].smiles for m in used}
    read = smiles_of_names(names)
    wrong = {n: (read[n], s) for n, s in names.items() if read[n] != canonical(s)}
    assert not wrong


def test_compounds_are_the_tables() -> None:
    """A neutral compound is named in the rankings file by its id in the compound table alone
    (the IUPAC name, lower-cased, other characters "-"), and takes the table's name and
    structure; only ions and radicals, which the table does not hold, carry their own SMILES."""
    table = molecules_by_id(DATA_DIR)
    raw = json.loads((DATA_DIR / RANKINGS_FILE).read_text(encoding="utf-8"))
    for r in raw["rankings"]:
        for c in r["compounds"]:
            assert "name" not in c, (r["id"], c)
            assert ("molecule_id" in c) != ("smiles" in c), (r["id"], c)
            if "molecule_id" in c:
                assert c["molecule_id"] in table, f"{r['id']}: {c['molecule_id']} not in the table"
    for ranking in RANKINGS:
        for rc in ranking.compounds:
            if not rc.molecule_id:
                continue
            entry = table[rc.molecule_id]
            assert rc.molecule_id == re.sub(r"[^a-z0-9]+", "-", rc.name.lower()).strip("-")
            assert (rc.name, rc.smiles) == (entry.iupac, entry.smiles), rc.molecule_id


def test_topics_get_every_difficulty_their_rankings_allow() -> None:
    """Easy and Medium wherever a topic has a ranking of one effect, Hard wherever it has one
    of two or more; one template per cell."""
    cells = Counter((t.topic_id, t.difficulty) for t in TEMPLATES)
    assert all(n == 1 for n in cells.values())
    for topic in {r.topic_id for r in RANKINGS}:
        pool = [r for r in RANKINGS if r.topic_id == topic]
        single = any(len(r.effects) == 1 for r in pool)
        several = any(len(r.effects) >= 2 for r in pool)
        assert ((topic, Difficulty.EASY) in cells) == single, topic
        assert ((topic, Difficulty.MEDIUM) in cells) == single, topic
        assert ((topic, Difficulty.HARD) in cells) == several, topic


def _drafts(template: OrganicTemplate, syllabus: Syllabus) -> list[Draft]:
    with mock.patch.object(figure_templates_module, "svg_of", lambda spec: STUB_SVG):
        found = [organic_draft(template, seed, syllabus) for seed in range(SEEDS)]
    return [d for d in found if d is not None]


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.template_id)
def test_template_drafts_are_answered_by_the_rules(
    template: OrganicTemplate, syllabus: Syllabus
) -> None:
    drafts = _drafts(template, syllabus)
    assert len(drafts) >= SEEDS // 2
    faces = {
        d.content.stem_markdown + repr([f.spec for f in d.content.figures]) + d.content.correct_key
        for d in drafts
    }
    assert len(faces) >= 10, "a cell needs ten distinct questions"
    abstained = 0
    for d in drafts:
        assert d.content.difficulty == template.difficulty
        assert hygiene_problem(d) is None, d.content.stem_markdown
        answer = ordering_answer(solver_view(d))
        if answer.choice is None:
            abstained += 1
            continue
        assert answer.choice == d.content.correct_key, answer.note
        assert answer.confidence >= 0.1
        moved = ordering_answer(solver_view(key_moved(d)))
        assert moved.choice != d.content.correct_key, moved.note
    assert abstained <= MAX_ABSTAIN * len(drafts), f"{abstained} abstentions"
    assert abstained == 0, f"{abstained} abstentions (allowed up to 5 %, none expected)"


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.template_id)
def test_structure_figures_render(template: OrganicTemplate, syllabus: Syllabus) -> None:
    drawn = 0
    for seed in range(40):
        question = template.draw(seed)
        if question is None or question.structures is None:
            continue
        draft = organic_draft(template, seed, syllabus)
        assert draft is not None
        (figure,) = draft.content.figures
        assert isinstance(figure.spec, StructureSpec)
        assert figure.width > 0 and figure.height > 0
        drawn += 1
        if drawn == RENDERED_PER_TEMPLATE:
            return
    pytest.fail("no structure figure among the first seeds")


@pytest.mark.parametrize(
    ("prop", "smiles"),
    [
        # o- and p-nitrophenol: both −R and −I, the rules do not part them.
        ("acidity", ("Oc1ccccc1[N+](=O)[O-]", "Oc1ccc(cc1)[N+](=O)[O-]", "Oc1ccccc1")),
        # allyl against isopropyl cation: resonance against hyperconjugation, left open.
        ("carbocation", ("C=C[CH2+]", "C[CH+]C", "[CH3+]")),
        # picric acid against ethanoic acid: no class rule.
        ("acidity", ("CC(=O)O", "Oc1c(cc(cc1[N+](=O)[O-])[N+](=O)[O-])[N+](=O)[O-]", "CCO")),
        # a heavier but more branched alkane against a lighter straight one.
        ("bp", ("CCCC", "CC(C)(C)C", "CCC")),
        # benzyl against 2° halide in SN1; mixed halogen and skeleton.
        ("sn1", ("BrCc1ccccc1", "CC(C)Br", "CBr")),
        ("sn2", ("CCI", "CC(C)Br", "CCl")),
        # aqueous basicity of a methylamine against an ethylamine.
        ("basicity-aqueous", ("CN(C)C", "CCN", "N")),
    ],
)
def test_the_rules_leave_open_what_ncert_does_not_decide(prop: str, smiles: tuple[str]) -> None:
    mols = {str(i): Chem.MolFromSmiles(s) for i, s in enumerate(smiles)}
    assert isinstance(increasing_order(prop, mols), str)
