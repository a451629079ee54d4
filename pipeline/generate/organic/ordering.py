"""Ordering questions: arrange three or four compounds by a property, in NCERT's stated order.

Each ranking (`data/kb/organic/rankings.json`) lists compounds in increasing order of one
property, as NCERT states it or as its rules decide it unambiguously, with the effects the order
rests on. A neutral compound is named there by its `molecule_id` alone: its IUPAC name and
SMILES are the compound table's (`kb.organic.molecules`), so they live in one place; an ion or
radical, which the table does not hold, carries its own SMILES and display formula. A question
draws some of them (any subset keeps the order), shows them as labelled structures (I, II, …)
or by name on lettered lines (A, B, …), and asks for the increasing or the decreasing order.
Options are written "II < I < IV < III" (or with ">" from the top).

Difficulty follows what the order asks of a student:
- Easy: three compounds from a ranking of one effect; the distractors are the reverse and the
  two orders that put every compound out of place (no near miss).
- Medium: four compounds from a ranking of one effect; one distractor swaps a neighbouring
  pair (a near miss), one is the reverse, one a plausible confusion (the order of molar mass,
  else an order with three compounds out of place).
- Hard: four compounds from a ranking of two or more effects, always including its two ends
  (and any compound the ranking names in `hard_include`) so both effects are in play (−I
  against −R, resonance against hyperconjugation), with the same distractors as Medium.
"""

from __future__ import annotations

import json
import random
from functools import cache
from itertools import combinations, permutations
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationInfo, model_validator
from rdkit import Chem
from rdkit.Chem import rdMolDescriptors

from core.figures import StructurePanel, StructureSpec
from core.ids import digest
from core.record import Record
from core.records import QuestionFormat
from kb.organic import molecules_by_id
from pipeline.difficulty import Demand
from pipeline.generate.organic.template import OrganicQuestion, OrganicTemplate, four_options

RANKINGS_FILE = Path("kb") / "organic" / "rankings.json"
ROMAN = ("I", "II", "III", "IV")
LETTERS = ("A", "B", "C", "D")
CLOSING = "Choose the correct answer from the options given below:"

# What the stem asks, by property: the phrase after "order of their".
PHRASES = {
    "acidity": "acidic strength",
    "basicity (aqueous)": "basic strength in aqueous solution",
    "basicity (gas phase)": "basic strength in the gas phase",
    "carbocation stability": "stability",
    "free-radical stability": "stability",
    "boiling point": "boiling points",
    "SN1 reactivity": "reactivity towards SN1 reaction",
    "SN2 reactivity": "reactivity towards SN2 reaction",
    "reactivity towards nucleophilic addition": "reactivity towards nucleophilic addition",
    "reactivity towards electrophilic substitution": (
        "reactivity towards electrophilic substitution"
    ),
    "C–X bond enthalpy": "C–X bond enthalpies",
}
NOUNS = {"carbocation stability": "carbocations", "free-radical stability": "free radicals"}

EASY = Demand()
MEDIUM = Demand(near_miss=True)
HARD = Demand(steps=2, concepts=2, near_miss=True)


class RankedCompound(Record):
    smiles: str = Field(min_length=1)
    # A neutral compound: its id in the compound table and its IUPAC name (as the table has
    # them); an ion or radical has neither, only `display`. `display` is the condensed formula
    # an explanation prints where the name would be unwieldy (C₆H₅CH(CH₃)Br).
    molecule_id: str = ""
    name: str = ""
    display: str = ""

    @model_validator(mode="before")
    @classmethod
    def _from_table(cls, data: Any, info: ValidationInfo) -> Any:
        """Read from the rankings file (with the table as context): a neutral compound gives its
        `molecule_id` alone and takes its name and SMILES from the table; an ion or radical
        gives its SMILES and display formula, never a name."""
        table = (info.context or {}).get("table")
        if table is None or not isinstance(data, dict):
            return data
        if "name" in data or ("molecule_id" in data and "smiles" in data):
            raise ValueError(f"{data}: a neutral compound's name and SMILES are the table's")
        if "molecule_id" not in data:
            return data
        entry = table.get(data["molecule_id"])
        if entry is None:
            raise ValueError(f"{data['molecule_id']!r} is not in the compound table")
        return {**data, "smiles": entry.smiles, "name": entry.iupac}


class Ranking(Record):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    property: str
    rule: str
    effects: tuple[str, ...] = Field(min_length=1)
    topic_id: str
    chapter: str
    reason: str
    compounds: tuple[RankedCompound, ...] = Field(min_length=4, max_length=6)
    structures_only: bool = False
    # Compounds (by index) every Hard draw shows besides the two ends, where the ends alone
    # would not bring in the second effect (CH₃CH₂⁺ for hyperconjugation beside the rings).
    hard_include: tuple[int, ...] = ()

    def named(self) -> bool:
        """Whether the stem may name the compounds instead of drawing them."""
        return not self.structures_only and all(c.name for c in self.compounds)

    def text(self, i: int) -> str:
        c = self.compounds[i]
        return c.display or c.name


class RankingFile(Record):
    source: str
    rankings: tuple[Ranking, ...]


@cache
def rankings(data_dir: Path) -> tuple[Ranking, ...]:
    path = data_dir / RANKINGS_FILE
    raw = json.loads(path.read_text(encoding="utf-8"))
    table = RankingFile.model_validate(raw, context={"table": molecules_by_id(data_dir)})
    ids = [r.id for r in table.rankings]
    if len(set(ids)) != len(ids):
        raise ValueError("ranking ids repeat")
    for r in table.rankings:
        if r.property not in PHRASES:
            raise ValueError(f"{r.id}: unknown property {r.property!r}")
    return table.rankings


@cache
def _mass(smiles: str) -> float:
    mol = Chem.MolFromSmiles(smiles)
    return float(rdMolDescriptors.CalcExactMolWt(mol))


def _subsets(ranking: Ranking, size: int, hard: bool) -> list[tuple[int, ...]]:
    n = len(ranking.compounds)
    every = list(combinations(range(n), size))
    if hard:
        must = {0, n - 1, *ranking.hard_include}
        return [s for s in every if must <= set(s)]
    return every


def _swapped(order: tuple[int, ...], at: int) -> tuple[int, ...]:
    out = list(order)
    out[at], out[at + 1] = out[at + 1], out[at]
    return tuple(out)


def _wrong_orders(
    ranking: Ranking, key: tuple[int, ...], rng: random.Random
) -> tuple[list[tuple[int, ...]], str]:
    """Three wrong increasing orders, and what the plausible confusion was."""
    reverse = tuple(reversed(key))
    if len(key) == 3:
        cycles = [p for p in permutations(key) if all(a != b for a, b in zip(p, key, strict=True))]
        return [reverse, *cycles], "put every compound out of place"
    near = _swapped(key, rng.randrange(len(key) - 1))
    by_mass = tuple(sorted(key, key=lambda i: _mass(ranking.compounds[i].smiles)))
    masses = {_mass(ranking.compounds[i].smiles) for i in key}
    if len(masses) == len(key) and by_mass not in (key, reverse, near):
        return [near, reverse, by_mass], "follow the order of molar mass"
    far = [
        p
        for p in permutations(key)
        if sum(a != b for a, b in zip(p, key, strict=True)) >= 3 and p not in (reverse, near)
    ]
    return [near, reverse, rng.choice(sorted(far))], "put three compounds out of place"


def ranking_question(ranking: Ranking, seed: int, size: int, hard: bool) -> OrganicQuestion:
    rng = random.Random(digest([ranking.id, size, hard, seed]))
    key = rng.choice(_subsets(ranking, size, hard))  # increasing, by index in the ranking
    increasing = rng.random() < 0.5
    named = ranking.named() and rng.random() < 0.5
    labels = (LETTERS if named else ROMAN)[:size]
    # Which compound each label shows: never the true order read off the labels.
    letterings = [p for p in permutations(key) if p != key]
    shown = rng.choice(letterings)
    label_of = {c: labels[pos] for pos, c in enumerate(shown)}
    wrong, confusion = _wrong_orders(ranking, key, rng)
    sep = " < " if increasing else " > "

    def text(order: tuple[int, ...]) -> str:
        listed = order if increasing else tuple(reversed(order))
        return sep.join(label_of[c] for c in listed)

    correct = text(key)
    options = four_options(rng, correct, [text(o) for o in wrong])
    direction = "increasing" if increasing else "decreasing"
    noun = NOUNS.get(ranking.property, "compounds")
    shown_labels = [label_of[c] for c in shown]
    # Drawn compounds are named by their labels, so the stem says which the figure shows.
    which = (
        f"following {noun}"
        if named
        else f"{noun} {', '.join(shown_labels[:-1])} and {shown_labels[-1]} shown"
    )
    ask = f"Arrange the {which} in the {direction} order of their {PHRASES[ranking.property]}:"
    structures = None
    if named:
        lines = "\n\n".join(f"{label_of[c]}. {ranking.text(c)}" for c in shown)
        stem = f"{ask}\n\n{lines}\n\n{CLOSING}"
    else:
        panels = tuple(
            StructurePanel(smiles=ranking.compounds[c].smiles, label=label_of[c]) for c in shown
        )
        structures = StructureSpec(panels=panels)
        stem = f"{ask}\n\n{CLOSING}"
    walk = " < ".join(f"{ranking.text(c)} ({label_of[c]})" for c in key)
    explanation = (
        f"The correct order is **{correct}**. In increasing order of "
        f"{PHRASES[ranking.property]}: {walk}. {ranking.reason} "
        f"(The other options swap one neighbouring pair, reverse the order, or "
        f"{confusion}.) Source: NCERT {ranking.chapter}."
        if size == 4
        else f"The correct order is **{correct}**. In increasing order of "
        f"{PHRASES[ranking.property]}: {walk}. {ranking.reason} Source: NCERT {ranking.chapter}."
    )
    return OrganicQuestion(
        format=QuestionFormat.ORDERING,
        stem=stem,
        options=options,
        correct=correct,
        explanation=explanation,
        group=f"ranking:{ranking.id}",
        structures=structures,
        caption=f"{noun.capitalize()} {', '.join(labels)}" if structures else "",
        alt=f"Structural formulae of {size} {noun} labelled {', '.join(labels)}"
        if structures
        else "",
        params=(
            ("ranking", ranking.id),
            ("shown", ",".join(str(c) for c in shown)),
            ("direction", direction),
        ),
    )


def _template(topic: str, level: str, pool: tuple[Ranking, ...], demand: Demand) -> OrganicTemplate:
    size = 3 if level == "easy" else 4
    hard = level == "hard"

    def draw(seed: int) -> OrganicQuestion | None:
        ranking = pool[seed % len(pool)]
        return ranking_question(ranking, seed // len(pool), size, hard)

    name = topic.removeprefix("che-")
    return OrganicTemplate(
        template_id=f"organic.ordering.{name}-{level}",
        topic_id=topic,
        demand=demand,
        draw=draw,
    )


@cache
def ordering_templates(data_dir: Path) -> tuple[OrganicTemplate, ...]:
    """One template per topic and difficulty the rankings can honestly serve."""
    found = []
    by_topic: dict[str, list[Ranking]] = {}
    for r in rankings(data_dir):
        by_topic.setdefault(r.topic_id, []).append(r)
    for topic, pool in by_topic.items():
        single = tuple(r for r in pool if len(r.effects) == 1)
        several = tuple(r for r in pool if len(r.effects) >= 2)
        if single:
            found.append(_template(topic, "easy", single, EASY))
            found.append(_template(topic, "medium", single, MEDIUM))
        if several:
            found.append(_template(topic, "hard", several, HARD))
    return tuple(found)
