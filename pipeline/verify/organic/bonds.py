"""The bonds solver: counts on the drawn structure's graph, hydrogens made explicit.

- σ and π bonds: every bond of the explicit-H Kekulé graph is one σ; a double bond adds one π,
  a triple bond two.
- Hybridisation: RDKit's hybridisation of each carbon atom.
- Double bond equivalent of a structure: its rings (RDKit's ring count) plus its π bonds.
- Double bond equivalent of a formula: 1 + Σ nᵢ(vᵢ − 2)/2 over the atoms' valences, then, for a
  question about π bonds, the rings the stem states taken away (a benzene ring: one ring and
  three π bonds).

It never sees the key, nor the generator's counts.
"""

from __future__ import annotations

import re

from rdkit import Chem
from rdkit.Chem import rdMolDescriptors

from core.records import SolverAnswer, SolverView
from kb.organic import plain_formula
from pipeline.verify.organic.read import abstention, answered, structures_shown

VALENCE = {
    "C": 4,
    "Si": 4,
    "N": 3,
    "P": 3,
    "O": 2,
    "S": 2,
    "H": 1,
    "F": 1,
    "Cl": 1,
    "Br": 1,
    "I": 1,
}
_FORMULA_IN_STEM = re.compile(r"molecular formula ((?:[A-Z][a-z]?[0-9]*)+)")
_ELEMENT = re.compile(r"([A-Z][a-z]?)([0-9]*)")
_RINGS = {"one ring": 1, "two rings": 2, "three rings": 3}
_ORDER = {Chem.BondType.SINGLE: 1, Chem.BondType.DOUBLE: 2, Chem.BondType.TRIPLE: 3}


def bond_counts(smiles: str) -> tuple[int, int] | None:
    """(σ, π) of the molecule with its hydrogens drawn."""
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return None
    full = Chem.AddHs(mol)
    Chem.Kekulize(full, clearAromaticFlags=True)
    bonds = list(full.GetBonds())
    if any(b.GetBondType() not in _ORDER for b in bonds):
        return None
    return len(bonds), sum(_ORDER[b.GetBondType()] - 1 for b in bonds)


def hybridisations(smiles: str) -> tuple[int, int, int] | None:
    """(sp³, sp², sp) carbon atoms, as RDKit assigns them."""
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return None
    kinds = [a.GetHybridization() for a in mol.GetAtoms() if a.GetSymbol() == "C"]
    h = Chem.HybridizationType
    return (
        kinds.count(h.SP3),
        kinds.count(h.SP2),
        kinds.count(h.SP),
    )


def dbe_by_valence(formula: str) -> float | None:
    total = 0.0
    for symbol, count in _ELEMENT.findall(formula):
        if symbol not in VALENCE:
            return None
        total += (int(count) if count else 1) * (VALENCE[symbol] - 2) / 2
    return 1 + total


def _only(view: SolverView, wanted: str, note: str) -> SolverAnswer:
    hits = [o.key for o in view.options if o.text.strip() == wanted]
    if len(hits) == 1:
        return answered(hits[0], 1.0, note)
    return abstention(f"{len(hits)} options read {wanted!r}")


def bonds_answer(view: SolverView) -> SolverAnswer:
    stem = view.stem_markdown.strip()
    spec = structures_shown(view)
    plain = plain_formula(stem)
    formula = _FORMULA_IN_STEM.search(plain)
    if spec is None and formula is not None:
        dbe = dbe_by_valence(formula[1])
        if dbe is None or dbe != int(dbe):
            return abstention("no whole double bond equivalent")
        if stem.startswith("The double bond equivalent"):
            return _only(view, str(int(dbe)), "1 + Σ n(v − 2)/2")
        if "benzene ring" in stem and stem.endswith("outside its benzene ring is"):
            return _only(view, str(int(dbe) - 4), "DBE less a benzene ring's 4")
        if stem.endswith("The number of π bonds in it is"):
            rings = next((n for w, n in _RINGS.items() if f"contains {w}." in stem), None)
            if rings is None:
                return abstention("the stem states no ring count")
            return _only(view, str(int(dbe) - rings), "DBE less the rings")
        return abstention("a formula question this solver does not read")
    if spec is None:
        return abstention("no structure shown")
    if len(spec.panels) == 1:
        smiles = spec.panels[0].smiles
        if stem.startswith("The number of σ and π bonds"):
            counts = bond_counts(smiles)
            if counts is None:
                return abstention("unreadable bonds")
            return _only(view, f"{counts[0]} σ, {counts[1]} π", "explicit-H bond graph")
        if stem.startswith("The numbers of sp³, sp² and sp hybridised carbon atoms"):
            hyb = hybridisations(smiles)
            if hyb is None:
                return abstention("unreadable structure")
            return _only(view, ", ".join(str(n) for n in hyb), "RDKit hybridisation")
        if stem.startswith("The double bond equivalent"):
            counts = bond_counts(smiles)
            mol = Chem.MolFromSmiles(smiles)
            if counts is None or mol is None:
                return abstention("unreadable structure")
            dbe = rdMolDescriptors.CalcNumRings(mol) + counts[1]
            return _only(view, str(dbe), "rings plus π bonds")
        return abstention("a one-structure question this solver does not read")
    if "all its carbon atoms sp²" in stem or "an sp hybridised carbon" in stem:
        everyone = "all its carbon atoms" in stem
        labels = []
        for panel in spec.panels:
            hyb = hybridisations(panel.smiles)
            if hyb is None:
                return abstention("unreadable structure")
            if (everyone and hyb[0] == hyb[2] == 0 and hyb[1] > 0) or (not everyone and hyb[2] > 0):
                labels.append(panel.label)
        hits = [o.key for o in view.options if o.text in labels]
        if len(labels) == 1 and len(hits) == 1:
            return answered(hits[0], 1.0, f"only panel {labels[0]} fits (RDKit hybridisation)")
        return abstention(f"{len(labels)} panels fit")
    return abstention("a bonds question this solver does not read")
