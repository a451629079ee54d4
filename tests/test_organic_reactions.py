"""Reaction questions: the authored table agrees with the solver's reaction SMARTS, and every
template's drafts are fair and solved to their key (pipeline.generate.organic.reactions)."""

from __future__ import annotations

import json
from collections import Counter
from unittest import mock

import pytest

from core.figures import StructurePanel, StructureSpec
from core.records import Difficulty
from core.render import live_markup
from core.settings import REPO_ROOT
from kb.organic import molecules
from kb.syllabus import Syllabus
from pipeline.figures import templates as figure_templates
from pipeline.figures.render import svg_of
from pipeline.figures.svg import unsafe_svg
from pipeline.generate.organic.reactions import (
    _chain_question,
    _product_question,
    index,
    reactions_templates,
    table,
)
from pipeline.generate.organic.template import OrganicTemplate, organic_draft
from pipeline.verify.gate import hygiene_problem, solver_view
from pipeline.verify.organic.opsin import smiles_of_names
from pipeline.verify.organic.reaction_types import classify
from pipeline.verify.organic.reactions import (
    fragments_key,
    names_of,
    product_of,
    reactions_answer,
    rules,
)
from tests.test_figures import STUB_SVG, key_moved

DATA_DIR = REPO_ROOT / "data"
TEMPLATES = reactions_templates(DATA_DIR)
IDS = [t.template_id for t in TEMPLATES]
SEEDS = 200
MIN_THREE_STEP_CHAINS = 60
TYPES_TOPIC = "che-types-of-organic-reactions"
MIN_TYPES_GROUPS = 12  # the topic floor (10) and some to spare, per difficulty


@pytest.fixture(scope="module", autouse=True)
def _opsin_warm() -> None:
    """Every compound name read by OPSIN in one batch, shared by the solver's calls."""
    smiles_of_names([c.name for c in table(DATA_DIR).compounds.values()])


def test_every_compound_name_is_read_by_opsin_as_its_structure() -> None:
    compounds = table(DATA_DIR).compounds
    read = smiles_of_names([c.name for c in compounds.values()])
    wrong = [
        c.name
        for c in compounds.values()
        if fragments_key(read[c.name] or "") != fragments_key(c.smiles)
    ]
    assert wrong == []
    structures = [fragments_key(c.smiles) for c in compounds.values()]
    assert len(structures) == len(set(structures))  # one name per structure


def test_the_shared_table_is_the_only_compound_list() -> None:
    """reactions.json keeps no compounds of its own: every instance names the shared table's
    `molecule_id`, and a compound is called by the table's IUPAC name, its SMILES the table's."""
    raw = json.loads((DATA_DIR / "kb/organic/reactions.json").read_text(encoding="utf-8"))
    assert set(raw) == {"source", "reactions"}
    shared = {m.molecule_id: m for m in molecules(DATA_DIR)}
    used = {
        c
        for r in raw["reactions"]
        for i in r["instances"]
        for c in (i["substrate"], *i["products"])
    }
    assert used - set(shared) == set()
    for c in table(DATA_DIR).compounds.values():
        m = shared[c.molecule_id]
        assert (c.name, c.smiles, c.family) == (m.iupac, m.smiles, m.family)


def test_every_authored_instance_is_what_the_reagents_smarts_make() -> None:
    t = table(DATA_DIR)
    disagree = []
    for step in t.steps:
        start = fragments_key(t.compounds[step.substrate].smiles)
        want = fragments_key(".".join(t.compounds[p].smiles for p in step.products))
        assert start is not None and want is not None
        got = product_of(step.reaction.reagent, start)
        named = names_of(step.reaction.reagent, start, want)
        if got != want or step.reaction.name not in named:
            disagree.append((step.reaction.reaction_id, step.substrate, got, want, named))
    assert disagree == []
    assert len(t.steps) >= 200


def test_the_rules_are_keyed_by_reagent_and_every_reagent_has_one() -> None:
    raw = json.loads((DATA_DIR / "kb/organic/reaction_rules.json").read_text(encoding="utf-8"))
    reagents = [r["reagent"] for r in raw["rules"]]
    assert len(reagents) == len(set(reagents))
    compiled = rules()
    for r in table(DATA_DIR).reactions:
        assert compiled.get(r.reagent), r.reaction_id
    for transforms in compiled.values():
        for tr in transforms:
            assert tr.reaction.GetNumReactantTemplates() == (2 if tr.pair else 1)


def test_there_are_enough_distinct_three_step_chains() -> None:
    chains = index(DATA_DIR).chains
    assert len(chains[3]) >= MIN_THREE_STEP_CHAINS
    assert len(chains[2]) >= MIN_THREE_STEP_CHAINS


def test_every_topic_has_easy_medium_and_hard_templates() -> None:
    by_topic: dict[str, set[Difficulty]] = {}
    for t in TEMPLATES:
        by_topic.setdefault(t.topic_id, set()).add(t.difficulty)
        assert t.template_id.startswith("organic.reactions.")
    assert all(len(levels) == 3 for levels in by_topic.values()), by_topic
    assert len(IDS) == len(set(IDS))


@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_drafts_are_fair_and_solved_to_their_key(
    template: OrganicTemplate, syllabus: Syllabus
) -> None:
    faces, groups, made = set(), set(), 0
    abstained = Counter[str]()
    with mock.patch.object(figure_templates, "svg_of", lambda spec: STUB_SVG):
        for seed in range(SEEDS):
            draft = organic_draft(template, seed, syllabus)
            if draft is None:
                continue
            made += 1
            c = draft.content
            assert c.difficulty == template.difficulty
            assert hygiene_problem(draft) is None, (seed, [o.text for o in c.options])
            texts = [c.stem_markdown, c.explanation_markdown, *(o.text for o in c.options)]
            assert all(live_markup(x) is None for x in texts)
            if template.topic_id == TYPES_TOPIC:
                assert not c.figures  # conversions written by name, classified by structure
            else:
                assert len(c.figures) == 1 and isinstance(c.figures[0].spec, StructureSpec)
                key_text = next(o.text for o in c.options if o.key == c.correct_key)
                assert key_text not in c.figures[0].alt
            got = reactions_answer(solver_view(draft))
            if got.choice is None:
                abstained[got.note] += 1
                continue
            assert got.choice == c.correct_key and got.confidence >= 0.1, (seed, got)
            moved = reactions_answer(solver_view(key_moved(draft)))
            assert moved.choice != c.correct_key, (seed, moved)
            faces.add(c.stem_markdown + repr(c.figures[0].spec if c.figures else None))
            groups.add(dict(draft.provenance.params)["key"])
    assert made >= SEEDS // 4, made
    assert not abstained, abstained
    if template.topic_id == TYPES_TOPIC:  # one group: the same conversions in any order
        assert len(groups) >= MIN_TYPES_GROUPS, len(groups)
    else:
        assert len(faces) >= 1 and len(groups) == len(faces)


def test_every_starting_structure_is_drawn() -> None:
    """Every compound a question can start from (the figure's one panel) renders safely."""
    t = table(DATA_DIR)
    starts = sorted({s.substrate for s in t.steps})
    for molecule_id in starts:
        spec = StructureSpec(panels=(StructurePanel(smiles=t.compounds[molecule_id].smiles),))
        svg = svg_of(spec)
        assert svg.startswith("<") and unsafe_svg(svg) is None, molecule_id


def test_a_real_draft_carries_its_drawn_figure(syllabus: Syllabus) -> None:
    drafts = (organic_draft(TEMPLATES[0], seed, syllabus) for seed in range(20))
    draft = next((d for d in drafts if d is not None), None)
    assert draft is not None
    figure = draft.content.figures[0]
    assert isinstance(figure.spec, StructureSpec) and figure.width > 0 and figure.height > 0


def test_the_types_solver_classifies_by_structure_and_reagent() -> None:
    """The rule tables of pipeline.verify.organic.reaction_types on NCERT's own examples: the
    same substrate with two reagents, the same reagent with and without peroxide."""
    cases = {
        ("2-bromopropane", "aq. KOH", "propan-2-ol"): "Nucleophilic substitution",
        ("2-bromopropane", "alc. KOH, heat", "propene"): "Elimination",
        ("propene", "HBr", "2-bromopropane"): "Electrophilic addition",
        ("propene", "HBr, (C₆H₅CO)₂O₂", "1-bromopropane"): "Free radical addition",
        ("methane", "Cl₂, hν", "chloromethane"): "Free radical substitution",
        ("benzene", "Cl₂, anhyd. FeCl₃", "chlorobenzene"): "Electrophilic substitution",
        ("propanone", "HCN, OH⁻", "2-hydroxy-2-methylpropanenitrile"): "Nucleophilic addition",
        (
            "chlorobenzene",
            "(i) NaOH, 623 K, 300 atm (ii) H⁺",
            "phenol",
        ): "Nucleophilic substitution",
        ("ethene", "H₂, Ni, 523 K", "ethane"): None,
    }
    for (substrate, reagent, product), want in cases.items():
        assert classify(substrate, reagent, product) == want, (substrate, reagent)
    types = (REPO_ROOT / "pipeline/verify/organic/reaction_types.py").read_text(encoding="utf-8")
    assert "pipeline.generate.organic" not in types and "reactions.json" not in types


def test_the_types_topic_has_every_difficulty() -> None:
    levels = {t.difficulty for t in TEMPLATES if t.topic_id == TYPES_TOPIC}
    assert levels == set(Difficulty)


def test_the_solver_never_reads_the_generator_or_its_table() -> None:
    solver = (REPO_ROOT / "pipeline/verify/organic/reactions.py").read_text(encoding="utf-8")
    assert "pipeline.generate" not in solver and "reactions.json" not in solver
    generator = (REPO_ROOT / "pipeline/generate/organic/reactions.py").read_text(encoding="utf-8")
    # The gate's option hygiene is shared; no organic solver is.
    assert "pipeline.verify.organic" not in generator and "reaction_rules" not in generator


def test_a_name_question_never_offers_a_name_a_teacher_would_also_accept() -> None:
    """Review 22, finding 1: 'aldol reaction' never beside 'aldol condensation' (NCERT prints
    the dil. NaOH reaction under the heading 'Aldol condensation'), nor Wurtz beside Fittig."""
    t = table(DATA_DIR)
    confusable = {r.name: set(r.confusable) for r in t.reactions}
    assert "aldol condensation" in confusable["aldol reaction"]
    for template in TEMPLATES:
        if ".name-" not in template.template_id:
            continue
        for seed in range(60):
            q = template.draw(seed)
            if q is None:
                continue
            others = set(q.options) - {q.correct}
            assert not others & confusable[q.correct], (template.template_id, q.options)
            assert all(q.correct not in confusable.get(o, set()) for o in others)


def test_a_reagent_question_never_offers_a_reagent_ncert_also_accepts() -> None:
    """Review 22, finding 2: ethanol to ethanal keyed PCC never offers acidified K2Cr2O7."""
    t = table(DATA_DIR)
    pcc = next(r for r in t.reactions if r.reagent == "PCC")
    assert "K₂Cr₂O₇, dil. H₂SO₄" in pcc.also_accepted
    by_key = {(s.reaction.reagent, s.substrate): s.reaction for s in t.steps}
    for template in TEMPLATES:
        if ".reagent-" not in template.template_id:
            continue
        for seed in range(60):
            q = template.draw(seed)
            if q is None:
                continue
            accepted = {
                a
                for (reagent, _), r in by_key.items()
                if reagent == q.correct
                for a in r.also_accepted
            }
            assert not accepted & set(q.options), (template.template_id, q.options)


def test_no_option_needs_an_element_the_substrate_and_reagents_lack() -> None:
    """Review 22, finding 3: every compound option is built from the elements of the substrate
    and of the products the reagents make (no trifluoroethanoic acid for a Wurtz reaction)."""
    ix = index(DATA_DIR)
    compounds = ix.table.compounds
    by_name = {c.name: c for c in compounds.values()}
    items = [(s,) for s in ix.table.steps] + list(ix.chains[2][::7]) + list(ix.chains[3][::11])
    checked = 0
    for chain in items:
        ids = (chain[0].substrate, *(p for s in chain for p in s.products))
        pool = frozenset(e for m in ids for e in compounds[m].elements)
        for seed in range(3):
            if len(chain) == 1:
                q = _product_question(ix, chain[0], seed)
            else:
                q = _chain_question(ix, chain, seed)
            if q is None:
                continue
            for option in q.options:
                for name in option.split(" and "):
                    assert by_name[name].elements <= pool, (ids, option)
                    checked += 1
    assert checked > 500
