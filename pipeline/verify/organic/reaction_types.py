"""The solver of "type of reaction" questions (che-types-of-organic-reactions): each conversion
`substrate —[reagent]→ product` classified by its own structures, never by a name of reaction.

How a conversion is classified (NCERT Class 11, Unit 8: substitution, addition, elimination,
rearrangement; the attacking species where NCERT states it):

1. The type, from the structures (OPSIN reads the names; RDKit maps the substrate's atoms onto the
   product's by their largest common substructure, bonds of any order, choosing the mapping that
   changes the fewest bond orders):

   | bonds of the mapped skeleton        | type          |
   |-------------------------------------|---------------|
   | some order falls, none rises        | addition      |
   | some order rises, none falls        | elimination   |
   | none changes, a group replaced      | substitution  |
   | none changes, same formula          | rearrangement |

2. The attacking species, from the site and (where NCERT's classification rests on it) the
   reagent text:

   | type         | site / reagent                                      | class                    |
   |--------------|-----------------------------------------------------|--------------------------|
   | substitution | a halogen or O group leaves the carbon              | nucleophilic             |
   | substitution | H of an aromatic ring replaced                      | electrophilic            |
   | substitution | H of an sp³ carbon replaced by halogen, reagent hν  | free radical             |
   | addition     | to C=O                                              | nucleophilic             |
   | addition     | to C=C/C≡C, reagent with a peroxide                 | free radical             |
   | addition     | to C=C/C≡C, reagent H₂ with a metal catalyst        | (none stated: abstain)   |
   | addition     | to C=C/C≡C, any other reagent                       | electrophilic            |
   | elimination  |                                                     | elimination              |

Three kinds of question: a match list (conversions against types, NTA codes "A-II, B-IV, …"), a
statement set ("The conversion … is an electrophilic addition reaction", coded "A, B and D
only"), and a single conversion ("… is an example of").
"""

from __future__ import annotations

import re
from functools import cache
from typing import Literal

from rdkit import Chem
from rdkit.Chem import rdFMCS
from rdkit.Chem.rdMolDescriptors import CalcMolFormula

from core.records import QuestionFormat, SolverAnswer, SolverView
from pipeline.generate.fact_formats import LETTERED_LINE
from pipeline.verify.organic.opsin import smiles_of_names
from pipeline.verify.organic.read import abstention, answered, coded_answer

LETTERS: tuple[Literal["A", "B", "C", "D"], ...] = ("A", "B", "C", "D")
CONVERSION = re.compile(r"(.+?)\s+—\[([^\]]+)\]→\s+(.+)")
LIST_ROW = re.compile(r"^\|\s*([A-D])\.\s*\|\s*(.+?)\s*\|\s*(IV|I{1,3})\.\s*\|\s*(.+?)\s*\|$", re.M)
CLAIM = re.compile(r"^The conversion (.+) is an? (.+) reaction\.$")
SINGLE_STEM = "is an example of"
CODE = re.compile(r"([A-D])-(IV|I{1,3})")
HALOGENS = frozenset({"F", "Cl", "Br", "I"})
LEAVING = HALOGENS | {"O"}
PEROXIDE = (")₂O₂", "peroxide")  # (C₆H₅CO)₂O₂, benzoyl peroxide
RADICAL_LIGHT = ("hν", "light")
MCS_TIMEOUT = 2  # seconds; the table's molecules map in milliseconds


def _mol(name: str) -> Chem.Mol | None:
    smiles = smiles_of_names([name])[name]
    return Chem.MolFromSmiles(smiles) if smiles else None


def _order(mol: Chem.Mol, a: int, b: int) -> float:
    bond = mol.GetBondBetweenAtoms(a, b)
    return bond.GetBondTypeAsDouble() if bond is not None else 0.0


@cache
def classify(substrate: str, reagent: str, product: str) -> str | None:
    """The conversion's class ("Electrophilic addition", "Elimination", …) by the rule tables
    above, or None when the rules do not decide it."""
    sub, prod = _mol(substrate), _mol(product)
    if sub is None or prod is None:
        return None
    found = rdFMCS.FindMCS(
        [sub, prod],
        atomCompare=rdFMCS.AtomCompare.CompareElements,
        bondCompare=rdFMCS.BondCompare.CompareAny,
        ringMatchesRingOnly=False,
        timeout=MCS_TIMEOUT,
    )
    query = Chem.MolFromSmarts(found.smartsString) if found.numAtoms else None
    if query is None:
        return None
    on_sub = sub.GetSubstructMatch(query)
    best: tuple[int, list[tuple[int, int, float]], tuple[int, ...]] | None = None
    for on_prod in prod.GetSubstructMatches(query, uniquify=False, maxMatches=2000):
        changes = []
        for bond in query.GetBonds():
            i, j = bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()
            was = _order(sub, on_sub[i], on_sub[j])
            now = _order(prod, on_prod[i], on_prod[j])
            if was != now:
                changes.append((on_sub[i], on_sub[j], now - was))
        if best is None or len(changes) < best[0]:
            best = (len(changes), changes, on_prod)
    if best is None:
        return None
    _, changes, on_prod = best
    falls = [c for c in changes if c[2] < 0]
    rises = [c for c in changes if c[2] > 0]
    if rises and not falls:
        return "Elimination"
    if falls and not rises:
        return _addition(sub, falls, reagent)
    if falls or rises:
        return None
    if CalcMolFormula(sub) == CalcMolFormula(prod):
        return "Rearrangement"
    return _substitution(sub, prod, on_sub, on_prod, reagent)


def _addition(sub: Chem.Mol, falls: list[tuple[int, int, float]], reagent: str) -> str | None:
    elements = {sub.GetAtomWithIdx(k).GetSymbol() for a, b, _ in falls for k in (a, b)}
    if "O" in elements:
        return "Nucleophilic addition"
    if elements != {"C"}:
        return None
    if any(p in reagent for p in PEROXIDE):
        return "Free radical addition"
    if reagent.startswith("H₂,"):
        return None  # catalytic hydrogenation: NCERT names no attacking species
    return "Electrophilic addition"


def _substitution(
    sub: Chem.Mol,
    prod: Chem.Mol,
    on_sub: tuple[int, ...],
    on_prod: tuple[int, ...],
    reagent: str,
) -> str | None:
    """The class of a substitution by its site: the mapped atoms whose heavy neighbours or
    hydrogens changed."""
    mapped_sub, mapped_prod = set(on_sub), set(on_prod)
    lost: list[str] = []
    sites = []
    for q, s in enumerate(on_sub):
        atom, twin = sub.GetAtomWithIdx(s), prod.GetAtomWithIdx(on_prod[q])
        gone = [n.GetSymbol() for n in atom.GetNeighbors() if n.GetIdx() not in mapped_sub]
        new = [n.GetSymbol() for n in twin.GetNeighbors() if n.GetIdx() not in mapped_prod]
        if gone or new or atom.GetTotalNumHs() != twin.GetTotalNumHs():
            sites.append((atom, new))
            lost += gone
    if not sites:
        return None
    if any(e in LEAVING for e in lost):
        return "Nucleophilic substitution"
    if lost:
        return None
    if all(atom.GetIsAromatic() for atom, _ in sites):
        return "Electrophilic substitution"
    sp3_halogenated = all(
        not atom.GetIsAromatic() and new and set(new) <= HALOGENS for atom, new in sites
    )
    if sp3_halogenated and any(p in reagent for p in RADICAL_LIGHT):
        return "Free radical substitution"
    return None


def _conversion(text: str) -> str | None:
    found = CONVERSION.fullmatch(text.strip())
    if found is None:
        return None
    substrate, reagent, product = (g.strip() for g in found.groups())
    return classify(substrate, reagent, product)


def _answer(choice: int | None, note: str) -> SolverAnswer:
    if choice is None:
        return abstention(note)
    return answered(LETTERS[choice], 0.9, note)


def _warm(texts: list[str]) -> None:
    """Every compound name of the question read by OPSIN in one batch."""
    names = []
    for text in texts:
        found = CONVERSION.search(text)
        if found is not None:
            names += [found.group(1).strip(), found.group(3).strip()]
    if names:
        smiles_of_names(names)


def _match_list(view: SolverView, options: tuple[str, ...]) -> SolverAnswer:
    rows = LIST_ROW.findall(view.stem_markdown)
    if len(rows) != 4:
        return _answer(None, "cannot read the two lists")
    _warm([conversion for _, conversion, _, _ in rows])
    numeral = {value.lower(): roman for _, _, roman, value in rows}
    code = []
    for letter, conversion, _, _ in rows:
        found = _conversion(conversion)
        if found is None or found.lower() not in numeral:
            return _answer(None, f"row {letter} not classified ({found})")
        code.append((letter, numeral[found.lower()]))
    hits = [i for i, o in enumerate(options) if sorted(CODE.findall(o)) == sorted(code)]
    return _answer(hits[0] if len(hits) == 1 else None, f"coding {code}")


def _statements(view: SolverView) -> SolverAnswer:
    lines = LETTERED_LINE.findall(view.stem_markdown)
    _warm([m.group(1) for _, text in lines if (m := CLAIM.match(text.strip()))])

    def truth(text: str) -> bool | None:
        claim = CLAIM.match(text)
        found = _conversion(claim.group(1)) if claim else None
        if claim is None or found is None:
            return None
        return found.lower() == claim.group(2).lower()

    return coded_answer(view, truth, "the bond-change rules")


def _single(view: SolverView, options: tuple[str, ...]) -> SolverAnswer:
    lines = [line for line in view.stem_markdown.splitlines() if "—[" in line]
    if len(lines) != 1:
        return _answer(None, "cannot read the conversion")
    _warm(lines)
    found = _conversion(lines[0])
    hits = [i for i, o in enumerate(options) if found and o.lower() == found.lower()]
    return _answer(hits[0] if len(hits) == 1 else None, f"class {found}")


def is_types_question(view: SolverView) -> bool:
    """A question about the type of a conversion (answered here, not by the reaction SMARTS)."""
    return view.format in (QuestionFormat.MATCH_LIST, QuestionFormat.MULTI_STATEMENT) or (
        SINGLE_STEM in view.stem_markdown
    )


def types_answer(view: SolverView) -> SolverAnswer:
    """The option coding each conversion's type as the rule tables classify it, or None."""
    options = tuple(o.text for o in view.options)
    if view.format is QuestionFormat.MATCH_LIST:
        return _match_list(view, options)
    if view.format is QuestionFormat.MULTI_STATEMENT:
        return _statements(view)
    return _single(view, options)
