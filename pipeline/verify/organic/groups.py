"""Statement sets about drawn compounds ("A. P is a secondary amine."): each claim is checked
with the naming solver's own substructure rules on the labelled structure, and the option whose
NTA code lists exactly the true statements is chosen.

Statements about one drawn compound ("A. The compound shown contains a carboxyl group.") are
checked with the SMARTS of GROUP_RULES, which settle the cases a student confuses:
- a carboxylic acid's –OH is part of its carboxyl group, not an alcoholic (or phenolic) hydroxyl;
- an ester's single-bonded O is part of the ester group, not an ether linkage;
- a hydroxyl on a benzene-ring carbon is phenolic, one on an sp³ carbon alcoholic;
- an N on a C=O carbon is an amide's, never a primary amino group; a nitro N is neither;
- a keto C=O has two carbons on it, an aldehyde's a hydrogen.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rdkit import Chem

from core.figures import StructureSpec
from core.records import SolverAnswer, SolverView
from pipeline.verify.organic.read import abstention, coded_answer

STEM_START = "Consider the following statements about the compounds shown:"
ONE_STEM_START = "Consider the following statements about the compound shown:"
_GROUP_CLAIM = re.compile(
    r"^The compound shown contains an? (?P<group>[a-z ]+?) (?:group|linkage)\.$"
)
# The groups, each by a SMARTS that decides it alone (see the module's rules).
GROUP_RULES: dict[str, str] = {
    "carboxyl": "[CX3](=O)[OX2H1]",
    "ester": "[CX3](=O)[OX2][#6]",
    "keto": "[#6][CX3;!a](=O)[#6]",
    "aldehyde": "[CX3;H1,H2;!a;!$(C-[!#6;!#1])]=O",
    "alcoholic hydroxyl": "[OX2H1][CX4]",
    "phenolic hydroxyl": "[OX2H1]c1ccccc1",
    "ether": "[OX2;!a]([#6;!$([#6]=[O,N,S])])[#6;!$([#6]=[O,N,S])]",
    "primary amino": "[NX3;H2;+0;!$(N[#6]=[O,N,S]);!$(N-[!#6;!#1])][#6]",
    "amide": "[CX3](=O)[NX3]",
    "nitro": "[$([NX3+](=O)[O-]),$([NX3](=O)=O)]",
}
_GROUPS = {g: Chem.MolFromSmarts(s) for g, s in GROUP_RULES.items()}
_CLAIM = re.compile(r"^(?P<label>[A-Z]) is an? (?P<cls>[a-z ]+)\.$")


def statements_answer(
    view: SolverView, spec: StructureSpec, classes_of: Callable[[str], frozenset[str]]
) -> SolverAnswer:
    """The option coding exactly the true claims, each claim read as '<label> is a <class>.'."""
    panels = {p.label: p.smiles for p in spec.panels}

    def truth(claim: str) -> bool | None:
        m = _CLAIM.match(claim)
        if m is None or m["label"] not in panels:
            return None
        return m["cls"] in classes_of(panels[m["label"]])

    return coded_answer(view, truth, "the substructure rules")


def groups_of(smiles: str) -> frozenset[str]:
    """The groups of GROUP_RULES the structure contains."""
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return frozenset()
    return frozenset(g for g, p in _GROUPS.items() if mol.HasSubstructMatch(p))


def group_statements_answer(view: SolverView, spec: StructureSpec) -> SolverAnswer:
    """The option coding exactly the true claims "The compound shown contains a <group> group."
    about the one structure drawn."""
    if len(spec.panels) != 1:
        return abstention("one structure expected")
    found = groups_of(spec.panels[0].smiles)

    def truth(claim: str) -> bool | None:
        m = _GROUP_CLAIM.match(claim)
        if m is None or m["group"] not in GROUP_RULES:
            return None
        return m["group"] in found

    return coded_answer(view, truth, "the group rules")
