"""The naming solver: reads names with OPSIN and classes with substructure rules of its own.

- "The IUPAC name of the compound shown is": each option is read by OPSIN and compared, by
  canonical SMILES (stereo set aside), with the structure shown; exactly one must match.
- "Which of the structures shown is <name>?": the name is read by OPSIN and compared with each
  labelled structure.
- "The compound shown is a" / "belongs to the class of", and "Which of the compounds shown is a
  <class>?": the structure's class is read by SMARTS rules written here (functional groups; an
  amine's and an alcohol's degree).
- "Consider the following statements about the compound(s) shown:": each claim is checked by the
  rules of pipeline.verify.organic.groups.

It never sees the key, and never reads the generator's tables of answers; the compound table's
names only warm OPSIN's cache (one Java run for them all).
"""

from __future__ import annotations

import re

from rdkit import Chem

from core.records import SolverAnswer, SolverView
from pipeline.verify.organic.groups import (
    ONE_STEM_START,
    STEM_START,
    group_statements_answer,
    statements_answer,
)
from pipeline.verify.organic.opsin import OpsinUnavailableError, smiles_of_names
from pipeline.verify.organic.read import abstention, answered, structures_shown

_TO_STRUCTURE = re.compile(r"^Which of the structures shown is (?P<name>.+)\?$")
_PICK_CLASS = re.compile(r"^Which of the compounds shown is an? (?P<cls>[a-z ]+)\?$")

# Functional classes, most senior first: a compound is of the first class whose pattern it has.
CLASS_RULES: tuple[tuple[str, str], ...] = (
    ("carboxylic acid", "[CX3](=O)[OX2H1]"),
    ("ester", "[CX3](=O)[OX2][#6]"),
    ("amide", "[CX3](=O)[NX3]"),
    ("nitrile", "[CX2]#[NX1]"),
    ("aldehyde", "[CX3;H1,H2;!$(C-[O,N,S,Cl,Br,I,F])]=O"),
    ("ketone", "[#6][CX3](=O)[#6]"),
    ("phenol", "[OX2H1]c"),
    ("alcohol", "[OX2H1][CX4]"),
    ("amine", "[$([NX3;!$(N-[#6]=[O,N,S]);!$(N-[O,N,S])]),$([NX4+])]"),
    ("ether", "[OD2]([#6;!$([#6]=O)])[#6;!$([#6]=O)]"),
)
DEGREE_RULES: tuple[tuple[str, str], ...] = (
    ("primary amine", "[NX3;H2;!$(N-[#6]=[O,N,S]);!$(N-[O,N,S])][#6]"),
    ("secondary amine", "[NX3;H1;!$(N-[#6]=[O,N,S]);!$(N-[O,N,S])]([#6])[#6]"),
    ("tertiary amine", "[NX3;H0;!$(N-[#6]=[O,N,S]);!$(N-[O,N])]([#6])([#6])[#6]"),
    ("quaternary ammonium salt", "[NX4+]([#6])([#6])([#6])[#6]"),
    ("primary alcohol", "[OX2H1][CX4;D2]"),
    ("secondary alcohol", "[OX2H1][CX4;D3]"),
    ("tertiary alcohol", "[OX2H1][CX4;D4]"),
    ("phenol", "[OX2H1]c"),
)
_CLASS = tuple((c, Chem.MolFromSmarts(s)) for c, s in CLASS_RULES)
_DEGREE = {c: Chem.MolFromSmarts(s) for c, s in DEGREE_RULES}


def _flat(smiles: str | None) -> str | None:
    """Canonical SMILES with stereo set aside (a drawing without wedges names no isomer)."""
    mol = Chem.MolFromSmiles(smiles) if smiles else None
    return Chem.MolToSmiles(mol, isomericSmiles=False) if mol is not None else None


def _read(names: list[str]) -> dict[str, str | None]:
    return {n: _flat(s) for n, s in smiles_of_names(names).items()}


def classes_of(smiles: str) -> frozenset[str]:
    """Every functional class and degree class the structure shows."""
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return frozenset()
    found = {c for c, p in _CLASS if mol.HasSubstructMatch(p)}
    found |= {c for c, p in _DEGREE.items() if mol.HasSubstructMatch(p)}
    return frozenset(found)


def naming_answer(view: SolverView) -> SolverAnswer:
    try:
        return _naming_answer(view)
    except OpsinUnavailableError as e:
        return abstention(str(e))


def _naming_answer(view: SolverView) -> SolverAnswer:
    spec = structures_shown(view)
    if spec is None:
        return abstention("no structure shown")
    stem = view.stem_markdown.strip()
    texts = [o.text for o in view.options]
    keys = [o.key for o in view.options]
    if stem.startswith("The IUPAC name of the compound shown is") and len(spec.panels) == 1:
        shown = _flat(spec.panels[0].smiles)
        read = _read(texts)
        hits = [k for k, t in zip(keys, texts, strict=True) if read[t] == shown]
        if len(hits) == 1:
            return answered(hits[0], 1.0, "OPSIN reads exactly one option as the structure")
        return abstention(f"{len(hits)} options name the structure")
    named = _TO_STRUCTURE.match(stem)
    if named:
        target = _read([named["name"]])[named["name"]]
        if target is None:
            return abstention("OPSIN cannot read the name")
        labels = [p.label for p in spec.panels if _flat(p.smiles) == target]
        hits = [k for k, t in zip(keys, texts, strict=True) if t in labels]
        if len(labels) == 1 and len(hits) == 1:
            return answered(hits[0], 1.0, f"OPSIN's structure is panel {labels[0]}")
        return abstention(f"{len(labels)} panels match the name")
    if stem in ("The compound shown is a", "The compound shown belongs to the class of"):
        if len(spec.panels) != 1:
            return abstention("one structure expected")
        found = classes_of(spec.panels[0].smiles)
        if stem.endswith("class of"):
            senior = next((c for c, p in _CLASS if c in found), None)
            found = frozenset({senior}) if senior else frozenset()
        hits = [k for k, t in zip(keys, texts, strict=True) if t in found]
        if len(hits) == 1:
            return answered(hits[0], 0.9, "the substructure rules give one class")
        return abstention(f"{len(hits)} options fit the structure")
    if stem.startswith(STEM_START):
        return statements_answer(view, spec, classes_of)
    if stem.startswith(ONE_STEM_START):
        return group_statements_answer(view, spec)
    picked = _PICK_CLASS.match(stem)
    if picked:
        wanted = picked["cls"]
        rules = dict(CLASS_RULES) | dict(DEGREE_RULES)
        if wanted not in rules:
            return abstention(f"unknown class {wanted!r}")
        labels = [p.label for p in spec.panels if wanted in classes_of(p.smiles)]
        hits = [k for k, t in zip(keys, texts, strict=True) if t in labels]
        if len(labels) == 1 and len(hits) == 1:
            return answered(hits[0], 0.9, f"only panel {labels[0]} is of the class")
        return abstention(f"{len(labels)} panels are of the class")
    return abstention("a naming question of a kind this solver does not read")
