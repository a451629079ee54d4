"""Reaction questions: named reactions and conversions of NCERT Class 11 ch. 9 and Class 12
ch. 6–9, and chains of two or three of them.

The authored table `data/kb/organic/reactions.json` lists each reaction (NCERT's name, its
reagent and conditions as NCERT prints them, its topic) and concrete instances (substrate ->
product, by the shared compound table's `molecule_id`: kb.organic.molecules is the one list of
compounds, names and structures). The templates, per topic:

- product (Easy): `P —[reagent]→ Q`, the starting compound drawn; which is Q?
- name (Easy): the conversion shown is known as … (named reactions only);
- reagent (Medium, a relation used in reverse): which reagent converts P into the named Q?
- chain2 (Medium, 2 steps) and chain3 (Hard, 3 steps): instances composed so that each product
  is the next substrate; which is the last compound? A chain belongs to its last step's topic.

Distractors come from the table itself: the products of the same substrate with other reagents
(Markovnikov against anti-Markovnikov, aldehyde against acid), the end of a chain whose one step
is swapped for its near alternative, the unreacted intermediate, and isomers or neighbours of the
same family. Reagent distractors are reagents of the same substrate or class whose result on A
the table knows differs (or whose kind of change differs).
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from rdkit import Chem
from rdkit.Chem.rdMolDescriptors import CalcMolFormula

from core.figures import StructureSpec
from core.records import QuestionFormat
from kb.organic import molecules
from pipeline.difficulty import Demand
from pipeline.generate.organic.reaction_types import types_templates
from pipeline.generate.organic.template import OrganicQuestion, OrganicTemplate, four_options
from pipeline.verify.gate import option_hygiene, options_clash

KIND = "reactions"
TABLE = Path("kb") / "organic" / "reactions.json"
# The compounds of a conversion are P, Q, R, S, never A–D, the options' own letters.
CHAIN_LETTERS = "PQRS"
EASY = Demand(steps=1)
REVERSED = Demand(steps=1, reversed=True)
TWO_STEPS = Demand(steps=2)
THREE_STEPS = Demand(steps=3)
CAPTION = "Compound P"
ALT = "The structural formula of the starting compound P."


@dataclass(frozen=True)
class Compound:
    molecule_id: str
    smiles: str
    name: str
    family: str
    formula: str
    carbons: int
    aromatic: bool
    elements: frozenset[str]


@dataclass(frozen=True)
class Reaction:
    reaction_id: str
    name: str
    named: bool
    topic_id: str
    source: str
    substrate_class: str
    reagent: str
    role: str
    note: str  # why the product is this one (a rule of selectivity), or ""
    # Names a teacher would also accept for this conversion (aldol reaction / condensation):
    # a name question never offers them beside this one.
    confusable: tuple[str, ...] = ()
    # Other reagents NCERT says make the same product from this substrate (PCC and acidified
    # K2Cr2O7 for an alcohol to a carbonyl compound): never a reagent distractor.
    also_accepted: tuple[str, ...] = ()


@dataclass(frozen=True)
class Step:
    reaction: Reaction
    substrate: str
    products: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    compounds: dict[str, Compound]
    reactions: tuple[Reaction, ...]
    steps: tuple[Step, ...]

    def name(self, products: tuple[str, ...]) -> str:
        return " and ".join(self.compounds[p].name for p in products)


def _canonical(smiles: str) -> str | None:
    """The structure without stereo: (E)-but-2-ene is but-2-ene for a distractor's purposes."""
    mol = Chem.MolFromSmiles(smiles)
    return Chem.MolToSmiles(mol, isomericSmiles=False) if mol is not None else None


def _compound(molecule_id: str, smiles: str, name: str, family: str) -> Compound:
    mol = Chem.MolFromSmiles(smiles)
    carbons = sum(1 for a in mol.GetAtoms() if a.GetSymbol() == "C")
    aromatic = any(a.GetIsAromatic() for a in mol.GetAtoms())
    elements = frozenset(a.GetSymbol() for a in mol.GetAtoms() if a.GetSymbol() not in ("Na", "K"))
    return Compound(
        molecule_id, smiles, name, family, CalcMolFormula(mol), carbons, aromatic, elements
    )


@cache
def table(data_dir: Path) -> Table:
    """The reactions of `reactions.json` over the shared compound table (kb.organic.molecules):
    an instance names its compounds by the table's `molecule_id`, and every other compound of
    the table may serve as a distractor."""
    raw = json.loads((data_dir / TABLE).read_text(encoding="utf-8"))
    # Names: a compound is always called by the table's IUPAC name (`iupac`), in stems, options
    # and explanations alike; NCERT's common names are never used (these questions never chose
    # one deliberately: "aniline", "benzaldehyde", "toluene" were written as IUPAC names, and
    # the table writes them benzenamine, benzenecarbaldehyde, methylbenzene). One structure
    # keeps one entry (stereoisomers count as one structure), so no two options name the same
    # compound: the entry an instance names, else the one without stereo, else the first.
    used = {
        c
        for r in raw["reactions"]
        for i in r["instances"]
        for c in (i["substrate"], *i["products"])
    }
    shared = molecules(data_dir)
    missing = used - {m.molecule_id for m in shared}
    if missing:
        raise KeyError(f"reactions.json names compounds the table lacks: {sorted(missing)}")
    ordered = sorted(
        shared, key=lambda m: (m.molecule_id not in used, any(c in m.smiles for c in "@/\\"))
    )
    compounds: dict[str, Compound] = {}
    seen: set[str | None] = set()
    for m in ordered:
        key = _canonical(m.smiles)
        if key is not None and key not in seen:
            compounds[m.molecule_id] = _compound(m.molecule_id, m.smiles, m.iupac, m.family)
            seen.add(key)
    reactions, steps = [], []
    for r in raw["reactions"]:
        reaction = Reaction(
            r["id"],
            r["name"],
            r["named"],
            r["topic_id"],
            r["source"],
            r["substrate_class"],
            r["reagent"],
            r["role"],
            r.get("note", ""),
            tuple(r.get("confusable_with", ())),
            tuple(r.get("also_accepted", ())),
        )
        reactions.append(reaction)
        for i in r["instances"]:
            steps.append(Step(reaction, i["substrate"], tuple(i["products"])))
    return Table(compounds, tuple(reactions), tuple(steps))


@dataclass(frozen=True)
class Index:
    table: Table
    by_substrate: dict[str, tuple[Step, ...]]
    by_reagent_substrate: dict[tuple[str, str], Step]
    roles: dict[str, frozenset[str]]
    substrates_of: dict[str, frozenset[str]]
    chains: dict[int, tuple[tuple[Step, ...], ...]]
    # Each compound's isomers, family neighbours and look-alikes, found once.
    neighbours: dict[str, tuple[list[str], list[str], list[str]]]


@cache
def index(data_dir: Path) -> Index:
    t = table(data_dir)
    by_sub: dict[str, list[Step]] = defaultdict(list)
    by_rs: dict[tuple[str, str], Step] = {}
    roles: dict[str, set[str]] = defaultdict(set)
    subs: dict[str, set[str]] = defaultdict(set)
    for s in t.steps:
        by_sub[s.substrate].append(s)
        by_rs[(s.reaction.reagent, s.substrate)] = s
        roles[s.reaction.reagent].add(s.reaction.role)
        subs[s.reaction.reagent].add(s.substrate)
    chains: dict[int, list[tuple[Step, ...]]] = {2: [], 3: []}
    for first in t.steps:
        if len(first.products) != 1:
            continue
        for second in by_sub.get(first.products[0], ()):
            pair = (first, second)
            if _distinct(pair):
                chains[2].append(pair)
            if len(second.products) != 1:
                continue
            for third in by_sub.get(second.products[0], ()):
                triple = (first, second, third)
                if _distinct(triple):
                    chains[3].append(triple)
    return Index(
        t,
        {k: tuple(v) for k, v in by_sub.items()},
        by_rs,
        {k: frozenset(v) for k, v in roles.items()},
        {k: frozenset(v) for k, v in subs.items()},
        {k: tuple(v) for k, v in chains.items()},
        {},
    )


def _distinct(chain: tuple[Step, ...]) -> bool:
    """Every compound of the chain appears once (no step undoes another), and no reagent acts
    twice in a row."""
    seen = [chain[0].substrate] + [p for s in chain for p in s.products]
    reagents = [s.reaction.reagent for s in chain]
    return len(seen) == len(set(seen)) and all(a != b for a, b in pairwise(reagents))


# --- options -------------------------------------------------------------------------------


def _pick(
    key: str, tiers: Iterable[list[str]], rng: random.Random, stem: str
) -> tuple[str, str, str, str] | None:
    """The key and three distractors, taken tier by tier (shuffled within a tier), skipping any
    that would break the screens; None when three cannot be found."""
    chosen = [key]
    for tier in tiers:
        pool = list(dict.fromkeys(t for t in tier if t not in chosen))
        rng.shuffle(pool)
        for text in pool:
            if len(chosen) == 4:
                break
            if options_clash([*chosen, text]):
                continue
            chosen.append(text)
    if len(chosen) < 4:
        return None
    options = four_options(rng, key, chosen[1:])
    flaw = option_hygiene(QuestionFormat.SINGLE_CORRECT, stem, options, options.index(key))
    return options if flaw is None else None


def _neighbours(ix: Index, product: str, avoid: set[str]) -> tuple[list[str], list[str], list[str]]:
    """Isomers of a compound in the table, then members of its family one carbon away, then
    compounds of as many carbons, aromatic where it is."""
    found = ix.neighbours.get(product)
    if found is None:
        found = ix.neighbours[product] = _all_neighbours(ix.table, product)
    isomers, family, alike = found
    return (
        [m for m in isomers if m not in avoid],
        [m for m in family if m not in avoid],
        [m for m in alike if m not in avoid],
    )


def _all_neighbours(t: Table, product: str) -> tuple[list[str], list[str], list[str]]:
    """Every isomer, family neighbour and look-alike of a compound in the table."""
    c = t.compounds[product]
    isomers = [
        m.molecule_id
        for m in t.compounds.values()
        if m.formula == c.formula and m.molecule_id != product
    ]
    family = [
        m.molecule_id
        for m in t.compounds.values()
        if m.family == c.family
        and m.aromatic == c.aromatic
        and abs(m.carbons - c.carbons) <= 1
        and m.molecule_id != product
    ]
    alike = [
        m.molecule_id
        for m in t.compounds.values()
        if m.carbons == c.carbons and m.aromatic == c.aromatic and m.molecule_id != product
    ]
    return isomers, family, alike


def _elements(ix: Index, products: tuple[str, ...]) -> frozenset[str]:
    """The elements of a product (set), hydrogen and counter-ions aside."""
    return frozenset(e for p in products for e in ix.table.compounds[p].elements)


def _compound_tiers(
    ix: Index,
    products: tuple[str, ...],
    near: list[tuple[str, ...]],
    avoid: set[str],
    made_of: frozenset[str],
) -> list[list[str]]:
    """Distractor names for a product (or product set): the near ones first, then isomers and
    family neighbours (for a set, one member swapped for its neighbour). Only compounds built
    from the elements `made_of` (the substrate's and the reagents', as the products show them)
    qualify: a fluoro acid for a Wurtz coupling, or a Grignard reagent for a decarboxylation,
    would give the answer away. Compounds that merely share the carbon count are never used."""
    t = ix.table
    key = t.name(products)

    def fits(ids: tuple[str, ...]) -> bool:
        return _elements(ix, ids) <= made_of

    near = [p for p in near if set(p) != set(products) and fits(p)]
    elements = _elements(ix, products)
    # A product of the same elements (the other regiochemistry, one oxidation level off) is the
    # nearest miss; a product that would need another reagent's atoms comes after the isomers.
    alike = [t.name(p) for p in near if _elements(ix, p) == elements]
    swapped: list[list[str]] = [[], []]
    for i, member in enumerate(products):
        isomers, family, _ = _neighbours(ix, member, avoid | set(products))
        for level, group in enumerate((isomers, family)):
            for other in group:
                ids = (*products[:i], other, *products[i + 1 :])
                if fits(ids):
                    swapped[level].append(t.name(ids))
    tiers = [alike, swapped[0], [t.name(p) for p in near], swapped[1]]
    return [[n for n in tier if n != key] for tier in tiers]


def _figure(ix: Index, molecule_id: str) -> StructureSpec:
    return StructureSpec.of(ix.table.compounds[molecule_id].smiles)


def _arrows(chain: tuple[Step, ...], last: str | None = None) -> str:
    parts = [CHAIN_LETTERS[0]]
    for i, s in enumerate(chain):
        target = last if (last is not None and i == len(chain) - 1) else CHAIN_LETTERS[i + 1]
        parts.append(f"—[{s.reaction.reagent}]→ {target}")
    return " ".join(parts)


def _question(
    stem: str,
    options: tuple[str, str, str, str],
    key: str,
    explanation: str,
    group: str,
    figure: StructureSpec,
    demand: Demand,
    params: tuple[tuple[str, str], ...],
) -> OrganicQuestion:
    return OrganicQuestion(
        format=QuestionFormat.SINGLE_CORRECT,
        stem=stem,
        options=options,
        correct=key,
        explanation=explanation,
        group=group,
        structures=figure,
        caption=CAPTION,
        alt=ALT,
        demand=demand,
        params=params,
    )


# --- the four kinds ------------------------------------------------------------------------


def _product_question(ix: Index, step: Step, seed: int) -> OrganicQuestion | None:
    t = ix.table
    rng = random.Random(seed)
    a = step.substrate
    near = [s.products for s in ix.by_substrate.get(a, ()) if s.products != step.products]
    key = t.name(step.products)
    stem = (
        "Compound P, whose structure is shown, reacts as follows:\n\n"
        f"{_arrows((step,))}\n\nThe major product Q is"
    )
    made_of = _elements(ix, (a, *step.products))
    options = _pick(key, _compound_tiers(ix, step.products, near, {a}, made_of), rng, stem)
    if options is None:
        return None
    r = step.reaction
    explanation = (
        f"P is {t.compounds[a].name}; with {r.reagent} it undergoes {r.name} "
        f"({r.source}), giving {key}" + (f"; {r.note}." if r.note else ".")
    )
    group = f"{r.reaction_id}|{a}"
    return _question(stem, options, key, explanation, group, _figure(ix, a), EASY, ())


def _reagent_question(ix: Index, step: Step, seed: int) -> OrganicQuestion | None:
    t = ix.table
    rng = random.Random(seed)
    a, r = step.substrate, step.reaction
    target = t.name(step.products)

    def allowed(reagent: str) -> bool:
        if reagent in r.also_accepted:
            return False
        known = ix.by_reagent_substrate.get((reagent, a))
        if known is not None:
            return set(known.products) != set(step.products)
        return not (ix.roles[reagent] & ix.roles[r.reagent])

    tiers = [
        [s.reaction.reagent for s in ix.by_substrate.get(a, ())],
        [x.reagent for x in t.reactions if x.substrate_class == r.substrate_class],
        [x.reagent for x in t.reactions if x.source == r.source],
    ]
    tiers = [[g for g in tier if g != r.reagent and allowed(g)] for tier in tiers]
    stem = (
        f"Compound P, whose structure is shown, is converted into **{target}**:\n\n"
        f"{_arrows((step,), target)}\n\nThe reagent X is"
    ).replace(f"—[{r.reagent}]→", "—[X]→")
    options = _pick(r.reagent, tiers, rng, stem)
    if options is None:
        return None
    explanation = (
        f"{t.compounds[a].name} gives {target} with {r.reagent} ({r.name}, {r.source}); "
        "each other reagent gives a different product or none."
    )
    group = f"conversion|{a}|" + "|".join(step.products)  # one conversion, whatever the reagent
    return _question(stem, options, r.reagent, explanation, group, _figure(ix, a), REVERSED, ())


def _name_question(ix: Index, step: Step, seed: int) -> OrganicQuestion | None:
    t = ix.table
    rng = random.Random(seed)
    a, r = step.substrate, step.reaction
    target = t.name(step.products)
    named = [
        x
        for x in t.reactions
        if x.named
        and x.name != r.name
        and x.name not in r.confusable
        and r.name not in x.confusable
    ]
    tiers = [
        [x.name for x in named if x.topic_id == r.topic_id],
        [x.name for x in named if x.source == r.source],
        [x.name for x in named],
    ]
    stem = (
        f"The conversion of compound P, whose structure is shown, into **{target}**\n\n"
        f"{_arrows((step,), target)}\n\nis known as"
    )
    options = _pick(r.name, tiers, rng, stem)
    if options is None:
        return None
    explanation = (
        f"{r.reagent} turning {t.compounds[a].name} into {target} is {r.name} ({r.source})."
    )
    group = f"{r.reaction_id}|{a}"
    return _question(stem, options, r.name, explanation, group, _figure(ix, a), EASY, ())


def _follow(ix: Index, start: tuple[str, ...], steps: tuple[Step, ...]) -> tuple[str, ...] | None:
    """Where the table takes a compound through the reagents of these steps, or None."""
    current = start
    for later in steps:
        if len(current) != 1:
            return None
        nxt = ix.by_reagent_substrate.get((later.reaction.reagent, current[0]))
        if nxt is None:
            return None
        current = nxt.products
    return current


def _swapped_ends(ix: Index, chain: tuple[Step, ...]) -> list[tuple[str, ...]]:
    """The ends of the chain with one step swapped for another reagent's product of the same
    substrate, the later reagents then applied as the table knows them."""
    ends: list[tuple[str, ...]] = []
    for i, step in enumerate(chain):
        for alt in ix.by_substrate.get(step.substrate, ()):
            if alt.products == step.products or len(alt.products) != 1:
                continue
            if i == len(chain) - 1:
                ends.append(alt.products)
                continue
            end = _follow(ix, alt.products, chain[i + 1 :])
            if end is not None:
                ends.append(end)
    return ends


def _chain_question(ix: Index, chain: tuple[Step, ...], seed: int) -> OrganicQuestion | None:
    t = ix.table
    rng = random.Random(seed)
    a, last = chain[0].substrate, chain[-1]
    key = t.name(last.products)
    near = _swapped_ends(ix, chain)
    near += [s.products for s in ix.by_substrate.get(last.substrate, ())]
    near += [(s.substrate,) for s in chain[1:]]
    letter = CHAIN_LETTERS[len(chain)]
    stem = (
        "Compound P, whose structure is shown, is taken through the sequence\n\n"
        f"{_arrows(chain)}\n\nThe compound {letter} is"
    )
    made_of = _elements(ix, (a, *(p for s in chain for p in s.products)))
    options = _pick(key, _compound_tiers(ix, last.products, near, {a}, made_of), rng, stem)
    if options is None:
        return None
    said = [f"P is {t.compounds[a].name}"]
    for i, s in enumerate(chain):
        said.append(
            f"{s.reaction.reagent} gives {CHAIN_LETTERS[i + 1]} = {t.name(s.products)} "
            f"({s.reaction.name}{': ' + s.reaction.note if s.reaction.note else ''})"
        )
    explanation = "; ".join(said) + "."
    group = "chain|" + a + "|" + "|".join(s.reaction.reaction_id for s in chain)
    demand = TWO_STEPS if len(chain) == 2 else THREE_STEPS
    return _question(stem, options, key, explanation, group, _figure(ix, a), demand, ())


# --- templates -----------------------------------------------------------------------------


Maker = Callable[[Index, Any, int], OrganicQuestion | None]


def _drawer(
    ix: Index, items: tuple[Any, ...], make: Maker
) -> Callable[[int], OrganicQuestion | None]:
    def draw(seed: int) -> OrganicQuestion | None:
        return make(ix, items[seed % len(items)], seed) if items else None

    return draw


def reactions_templates(data_dir: Path) -> tuple[OrganicTemplate, ...]:
    """Per topic of the table: product and name (Easy), reagent and 2-step chain (Medium),
    3-step chain (Hard); a template only where the topic has items for it."""
    ix = index(data_dir)
    topics = list(dict.fromkeys(r.topic_id for r in ix.table.reactions))
    made = []
    for topic in topics:
        steps = tuple(s for s in ix.table.steps if s.reaction.topic_id == topic)
        named = tuple(s for s in steps if s.reaction.named)
        short = topic.removeprefix("che-")
        kinds: list[tuple[str, tuple[Any, ...], Demand, Maker]]
        kinds = [
            ("product", steps, EASY, _product_question),
            ("name", named, EASY, _name_question),
            ("reagent", steps, REVERSED, _reagent_question),
        ]
        for n, demand in ((2, TWO_STEPS), (3, THREE_STEPS)):
            chains = tuple(c for c in ix.chains[n] if c[-1].reaction.topic_id == topic)
            kinds.append((f"chain{n}", chains, demand, _chain_question))
        for name, items, demand, fn in kinds:
            if not items:
                continue
            made.append(
                OrganicTemplate(
                    template_id=f"organic.{KIND}.{name}-{short}",
                    topic_id=topic,
                    demand=demand,
                    draw=_drawer(ix, items, fn),
                )
            )
    return (*made, *types_templates(ix.table, KIND))
