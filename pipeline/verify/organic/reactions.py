"""The solver of reaction questions: the reagents in the stem, applied as reaction SMARTS.

It reads a question as a chemist does: the starting compound A off the structure figure, the
reagent(s) printed over each arrow of the stem (`A —[HBr]→ B —[aq. KOH]→ C`), and applies, for
each reagent, the reaction SMARTS of `data/kb/organic/reaction_rules.json` (keyed by the reagent
and conditions, never by a product). Where a reagent can act at more than one site, the rule's
ranking picks the major product (Markovnikov: the new group on the carbon with fewer hydrogens;
Saytzeff: the more substituted alkene). The products are sanitised and compared, as canonical
SMILES, with the options (names read by OPSIN). Four kinds of question:

- product: the compound at the end of the arrows ("The major product Q is", "The compound S is");
- reagent: "The reagent X is" for `A —[X]→ <name>`: the one option whose SMARTS gives the target;
- name: "is known as" for `A —[reagent]→ <name>`: the name of the reagent's rule that gives it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem
from rdkit.Chem.rdChemReactions import ChemicalReaction

from core.records import SolverAnswer, SolverView
from core.settings import REPO_ROOT
from pipeline.verify.organic.opsin import smiles_of_names
from pipeline.verify.organic.reaction_types import is_types_question, types_answer
from pipeline.verify.organic.read import abstention, answered, structures_shown

RULES_FILE = Path("kb") / "organic" / "reaction_rules.json"
# One step of a stem: "—[reagent]→".
ARROW = re.compile(r"—\[([^\]]+)\]→")
TARGET = re.compile(r"\*\*(.+?)\*\*")
MAX_REPEATS = 6  # an exhaustive rule (every nitro group reduced) acts at most this often

LETTERS: tuple[Literal["A", "B", "C", "D"], ...] = ("A", "B", "C", "D")

RDLogger.DisableLog("rdApp.*")  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Transform:
    name: str
    reaction: ChemicalReaction
    rank_atoms: tuple[int, ...]
    prefer_max: bool | None  # None: no ranking (every site gives the same product)
    pair: bool  # two molecules of the substrate react (Wurtz, aldol, Cannizzaro)
    exhaustive: bool  # the reagent acts at every site it matches


@cache
def rules(data_dir: Path = REPO_ROOT / "data") -> dict[str, tuple[Transform, ...]]:
    """Each reagent text's compiled transforms."""
    raw = json.loads((data_dir / RULES_FILE).read_text(encoding="utf-8"))
    found: dict[str, tuple[Transform, ...]] = {}
    for rule in raw["rules"]:
        transforms = []
        for t in rule["transforms"]:
            rank = t.get("rank")
            transforms.append(
                Transform(
                    name=t["name"],
                    reaction=AllChem.ReactionFromSmarts(t["smarts"]),  # type: ignore[attr-defined]
                    rank_atoms=tuple(rank["atoms"]) if rank else (),
                    prefer_max=(rank["prefer"] == "max") if rank else None,
                    pair=bool(t.get("pair", False)),
                    exhaustive=bool(t.get("exhaustive", False)),
                )
            )
        found[rule["reagent"]] = tuple(transforms)
    return found


@cache
def fragments_key(smiles: str) -> str | None:
    """A structure (or set of products) as its distinct fragments' canonical SMILES, sorted."""
    mol = Chem.MolFromSmiles(smiles) if smiles else None
    if mol is None:
        return None
    return ".".join(sorted(set(Chem.MolToSmiles(mol).split("."))))


def _score(product: Chem.Mol, transform: Transform) -> int:
    """The ranking's measure: heavy-atom degree of the mapped atoms (more = more substituted)."""
    total = 0
    for atom in product.GetAtoms():
        if atom.HasProp("old_mapno") and atom.GetIntProp("old_mapno") in transform.rank_atoms:
            total += atom.GetDegree()
    return total


def _outcomes(transform: Transform, mol: Chem.Mol) -> list[tuple[int, str]]:
    reactants = (mol, mol) if transform.pair else (mol,)
    found = []
    for products in transform.reaction.RunReactants(reactants):
        parts = []
        score = 0
        try:
            for p in products:
                Chem.SanitizeMol(p)
                score += _score(p, transform)
                parts.append(Chem.MolToSmiles(p))
        except Exception:  # an impossible valence: the rule does not apply at that site
            continue
        key = fragments_key(".".join(parts))
        if key is not None:
            found.append((score, key))
    return found


def _apply_once(transform: Transform, smiles: str) -> set[str]:
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return set()
    found = _outcomes(transform, mol)
    if not found:
        return set()
    if transform.prefer_max is not None:
        best = (max if transform.prefer_max else min)(s for s, _ in found)
        found = [(s, k) for s, k in found if s == best]
    return {k for _, k in found}


def _apply(transform: Transform, smiles: str) -> set[str]:
    got = _apply_once(transform, smiles)
    if transform.exhaustive:
        for _ in range(MAX_REPEATS):
            if len(got) != 1:
                break
            again = _apply_once(transform, next(iter(got)))
            if not again:
                break
            got = again
    return got


@cache
def product_of(reagent: str, smiles: str) -> str | None:
    """The product(s) of the reagent acting on the compound, as a fragments key; None when the
    reagent is unknown, does not act, or leaves more than one major product."""
    made: set[str] = set()
    for t in rules().get(reagent, ()):
        made |= _apply(t, smiles)
    return next(iter(made)) if len(made) == 1 else None


@cache
def names_of(reagent: str, smiles: str, product: str) -> frozenset[str]:
    """The names of the reagent's transforms that turn the compound into the product."""
    named = set()
    for t in rules().get(reagent, ()):
        if _apply(t, smiles) == {product}:
            named.add(t.name)
    return frozenset(named)


@cache
def compound_key(text: str) -> str | None:
    """An option's or a stem's compound name(s) ("ethanal and methanal") as a fragments key."""
    parts = [p.strip() for p in text.split(" and ")]
    read = smiles_of_names(parts)
    if any(read[p] is None for p in parts):
        return None
    return fragments_key(".".join(str(read[p]) for p in parts))


def _answer(choice: int | None, note: str, options: tuple[str, ...]) -> SolverAnswer:
    if choice is None:
        return abstention(note)
    return answered(LETTERS[choice], 0.9, note)


def _single(hits: list[int]) -> int | None:
    return hits[0] if len(hits) == 1 else None


def reactions_answer(view: SolverView) -> SolverAnswer:
    """The option the reagents of the stem lead to, or an abstention; a question about the
    type of a conversion is classified by its own rules (reaction_types)."""
    if is_types_question(view):
        return types_answer(view)
    spec = structures_shown(view)
    options = tuple(o.text for o in view.options)
    if spec is None or len(spec.panels) != 1:
        return _answer(None, "no single starting structure shown", options)
    start = fragments_key(spec.panels[0].smiles)
    reagents = ARROW.findall(view.stem_markdown)
    if start is None or not reagents:
        return _answer(None, "no starting compound or no reagent read", options)
    stem = view.stem_markdown
    if "The reagent X is" in stem or "is known as" in stem:
        target_names = TARGET.findall(stem)
        target = compound_key(target_names[0]) if target_names else None
        if target is None:
            return _answer(None, "target compound not read", options)
        if "is known as" in stem:
            names = names_of(reagents[0], start, target)
            hits = [i for i, o in enumerate(options) if o in names]
            return _answer(_single(hits), f"{reagents[0]}: {sorted(names)}", options)
        hits = [i for i, o in enumerate(options) if product_of(o, start) == target]
        return _answer(_single(hits), f"reagents giving the target: {hits}", options)
    smiles_of_names([p.strip() for o in options for p in o.split(" and ")])  # one batch
    current: str | None = start
    for reagent in reagents:
        current = product_of(reagent, current) if current is not None else None
    if current is None:
        return _answer(None, "the reagents give no single product", options)
    hits = [i for i, o in enumerate(options) if compound_key(o) == current]
    return _answer(_single(hits), f"product {current}", options)
