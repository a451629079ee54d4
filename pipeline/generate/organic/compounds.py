"""The compound table as the organic generators read it: each compound's formula, carbon count,
functional groups and class, from its SMILES by RDKit (stereo entries, salts and ions left out)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rdkit import Chem
from rdkit.Chem import rdMolDescriptors

from kb.organic import Molecule, molecules

ORGANIC = frozenset({"C", "H", "N", "O", "S", "F", "Cl", "Br", "I"})

# Groups the generator tells apart when it calls a compound polyfunctional (the principal group
# has to be chosen before the chain is numbered).
GROUP_PATTERNS = {
    "carboxylic acid": "[CX3](=O)[OX2H1]",
    "ester": "[CX3](=O)[OX2][#6]",
    "amide": "[CX3](=O)[NX3]",
    "nitrile": "C#N",
    "aldehyde": "[CX3;H1,H2;!$(C-[O,N])]=O",
    "ketone": "[#6][CX3](=O)[#6]",
    "hydroxy": "[OX2H1][#6;!$(C=O)]",
    "amino": "[NX3;!$(N-C=O);!$(N-[N+,O])]",
    "nitro": "[N+](=O)[O-]",
    "halo": "[F,Cl,Br,I]",
    "alkene": "[CX3]=[CX3]",
    "alkyne": "C#C",
    "ether": "[OD2;!$(O-C=O)]([#6])[#6]",
}
_GROUPS = {k: Chem.MolFromSmarts(v) for k, v in GROUP_PATTERNS.items()}


@dataclass(frozen=True)
class Compound:
    molecule: Molecule
    formula: str
    carbons: int
    family: str  # normalised: lower case, singular
    groups: frozenset[str]
    heteroatoms: int
    one_unit: bool  # every heteroatom within two bonds of every other: one functional group
    aromatic: bool
    amine_degree: int  # carbons on the one nitrogen of an amine (4: a quaternary salt), else 0
    alcohol_degree: int  # carbons on the carbinol carbon of a one-OH alcohol, else -1
    canonical: str  # RDKit's canonical SMILES: one structure, however the table writes it
    plain: bool  # of carbon, hydrogen, nitrogen and oxygen only (no sulfonamide, no salt)

    @property
    def name(self) -> str:
        return self.molecule.iupac

    @property
    def smiles(self) -> str:
        return self.molecule.smiles


def family_of(text: str) -> str:
    f = text.strip().lower().replace("-", " ")
    return f[:-1] if f.endswith("s") and not f.endswith("ss") else f


def amine_degree(mol: Chem.Mol) -> int:
    nitrogens = [a for a in mol.GetAtoms() if a.GetSymbol() == "N"]
    others = [a for a in mol.GetAtoms() if a.GetSymbol() not in ("C", "N")]
    if len(nitrogens) != 1 or others:
        return 0
    n = nitrogens[0]
    carbons = sum(1 for b in n.GetNeighbors() if b.GetSymbol() == "C")
    if any(b.GetBondType() != Chem.BondType.SINGLE for b in n.GetBonds()):
        return 0
    if n.GetFormalCharge() == 1 and carbons == 4:
        return 4
    return carbons if n.GetFormalCharge() == 0 and n.GetTotalNumHs() == 3 - carbons else 0


def alcohol_degree(mol: Chem.Mol) -> int:
    oxygens = [a for a in mol.GetAtoms() if a.GetSymbol() == "O"]
    if len(oxygens) != 1 or any(a.GetSymbol() not in ("C", "O") for a in mol.GetAtoms()):
        return -1
    o = oxygens[0]
    if o.GetTotalNumHs() != 1 or o.GetDegree() != 1:
        return -1
    c = o.GetNeighbors()[0]
    if c.GetIsAromatic() or any(b.GetBondType() != Chem.BondType.SINGLE for b in c.GetBonds()):
        return -1
    return sum(1 for b in c.GetNeighbors() if b.GetSymbol() == "C")


def compound_of(m: Molecule) -> Compound | None:
    mol = Chem.MolFromSmiles(m.smiles)
    if mol is None or "." in m.smiles or any(ch in m.smiles for ch in "@/\\"):
        return None  # stereo and salts: a drawing and a name would have to agree on more
    if Chem.GetFormalCharge(mol) or any(a.GetSymbol() not in ORGANIC for a in mol.GetAtoms()):
        return None  # ions (a carboxylate, a diazonium salt) and organometallics
    hetero = [a.GetIdx() for a in mol.GetAtoms() if a.GetSymbol() not in ("C", "H")]
    distances = Chem.GetDistanceMatrix(mol)
    one_unit = all(distances[i][j] <= 2 for i in hetero for j in hetero)
    groups = frozenset(k for k, p in _GROUPS.items() if mol.HasSubstructMatch(p))
    return Compound(
        molecule=m,
        formula=rdMolDescriptors.CalcMolFormula(mol),
        carbons=sum(1 for a in mol.GetAtoms() if a.GetSymbol() == "C"),
        family=family_of(m.family),
        groups=groups,
        heteroatoms=len(hetero),
        one_unit=one_unit,
        aromatic=any(a.GetIsAromatic() for a in mol.GetAtoms()),
        amine_degree=amine_degree(mol),
        alcohol_degree=alcohol_degree(mol),
        canonical=Chem.MolToSmiles(mol),
        plain=all(
            a.GetSymbol() in ("C", "N", "O") and not a.GetFormalCharge() for a in mol.GetAtoms()
        ),
    )


@cache
def compounds(data_dir: Path) -> tuple[Compound, ...]:
    found = (compound_of(m) for m in molecules(data_dir))
    return tuple(c for c in found if c is not None)
