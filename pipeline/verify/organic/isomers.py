"""The isomer solver: counts isomers by its own RDKit enumeration, and judges stereo and isomer
types by rules over RDKit features. It never reads the generator's authored counts.

Question shapes, told apart by the stem's wording (the phrases below are the one grammar the
generator writes and this module reads):

- structural-isomer counts of a formula within a stated family ("The number of structurally
  isomeric alcohols possible for C₄H₁₀O is"): grow every acyclic heavy-atom tree of the formula
  atom by atom (from a benzene ring for aromatic families), raise bond orders for the remaining
  unsaturation, deduplicate by canonical SMILES, keep the family's SMARTS matches, count (and
  add each member's stereoisomers when the family says so);
- monochloro derivatives of a drawn alkane: one Cl in place of each H, deduplicated (with
  stereoisomers when asked); which of four drawn alkanes gives only one;
- stereoisomers of a shown structure: RDKit's stereo enumeration, unique canonical isomeric
  SMILES (a meso form collapses with its mirror image);
- which of four shown structures, or of four named isomers of a formula (names read by OPSIN),
  shows geometrical isomerism / is optically active;
- the type of isomerism between two shown structures (chain, position, functional, metamerism,
  geometrical).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache

from rdkit import Chem
from rdkit.Chem.EnumerateStereoisomers import EnumerateStereoisomers, StereoEnumerationOptions

from core.records import SolverAnswer, SolverView
from kb.organic import plain_formula, subscripted
from pipeline.verify.organic.opsin import smiles_of_names
from pipeline.verify.organic.read import abstention, answered, structures_shown

# ---------------------------------------------------------------------------------------------
# The stem grammar (shared with the generator: wording only, never an answer).


@dataclass(frozen=True)
class Family:
    """A family of isomers as a stem names it: the phrase, the classes it admits (any one of
    them), whether the count is of open-chain or benzene-ring compounds, and whether
    stereoisomers are counted too."""

    key: str
    phrase: str
    classes: tuple[str, ...]
    scope: str = "open"  # "open": acyclic; "aromatic": one benzene ring, acyclic side chains
    stereo: bool = False


# Compound classes as SMARTS (each molecule of a formula falls in at most one of the classes a
# family lists; "any" takes every molecule).
CLASS_SMARTS: dict[str, str] = {
    "alkene": "[CX3]=[CX3]",
    "alkyne": "[CX2]#[CX2]",
    "alcohol": "[OX2H][CX4]",
    "primary-alcohol": "[OX2H][CX4;H2,H3]",
    "ether": "[OD2]([#6;!$(C=O)])[#6;!$(C=O)]",
    "aldehyde": "[$([CX3H1](=O)[#6]),$([CX3H2]=O)]",
    "ketone": "[#6][CX3](=O)[#6]",
    "acid": "[CX3](=O)[OX2H1]",
    "ester": "[CX3](=O)[OX2][#6]",
    "primary-amine": "[NX3H2][#6]",
    "secondary-amine": "[NX3H1]([#6])[#6]",
    "tertiary-amine": "[NX3H0]([#6])([#6])[#6]",
    "haloalkane": "[CX4][Cl,Br]",
    "any": "*",
}
AMINES = ("primary-amine", "secondary-amine", "tertiary-amine")

FAMILIES: tuple[Family, ...] = (
    Family("any", "structural isomers", ("any",)),
    Family("alcohol", "structurally isomeric alcohols", ("alcohol",)),
    Family("primary-alcohol", "structurally isomeric primary alcohols", ("primary-alcohol",)),
    Family("ether", "structurally isomeric ethers", ("ether",)),
    Family("alcohol-ether", "structural isomers (alcohols and ethers)", ("alcohol", "ether")),
    Family("aldehyde", "structurally isomeric aldehydes", ("aldehyde",)),
    Family("ketone", "structurally isomeric ketones", ("ketone",)),
    Family(
        "carbonyl",
        "open-chain structurally isomeric aldehydes and ketones",
        ("aldehyde", "ketone"),
    ),
    Family("acid", "structurally isomeric carboxylic acids", ("acid",)),
    Family("ester", "structurally isomeric esters", ("ester",)),
    Family("acid-ester", "structural isomers (carboxylic acids and esters)", ("acid", "ester")),
    Family("amine", "structurally isomeric amines (primary, secondary and tertiary)", AMINES),
    Family("primary-amine", "structurally isomeric primary amines", ("primary-amine",)),
    Family("haloalkane", "structurally isomeric alkyl halides", ("haloalkane",)),
    Family(
        "alkene",
        "open-chain structurally isomeric alkenes (geometrical isomers not counted)",
        ("alkene",),
    ),
    Family("alkyne", "structurally isomeric alkynes", ("alkyne",)),
    Family("aromatic", "aromatic structural isomers (one benzene ring)", ("any",), "aromatic"),
    Family(
        "alkene-stereo",
        "open-chain alkene isomers (stereoisomers included)",
        ("alkene",),
        stereo=True,
    ),
    Family(
        "alcohol-stereo",
        "alcohol isomers (stereoisomers included)",
        ("alcohol",),
        stereo=True,
    ),
    Family(
        "haloalkane-stereo",
        "alkyl halide isomers (stereoisomers included)",
        ("haloalkane",),
        stereo=True,
    ),
    Family(
        "amine-stereo",
        "amine isomers (primary, secondary and tertiary; stereoisomers included)",
        AMINES,
        stereo=True,
    ),
    Family(
        "carbonyl-stereo",
        "open-chain aldehyde and ketone isomers (stereoisomers included)",
        ("aldehyde", "ketone"),
        stereo=True,
    ),
)
FAMILY_BY_KEY = {f.key: f for f in FAMILIES}

COUNT_STEM = "The number of {phrase} possible for {formula} is"
# The drawing fixes no configuration (RDKit draws an unspecified double bond one way or the
# other): the stem says so, or "the compound shown" would be one stereoisomer.
STEREO_STEM = (
    "The total number of stereoisomers possible for the compound whose structure is shown "
    "(without its configuration) is"
)
GEOMETRICAL_STEM = "Which of the compounds P, Q, R and S shown exhibits geometrical isomerism?"
CHIRAL_STEM = "Which of the compounds P, Q, R and S shown is optically active?"
MONO_STEM = (
    "The number of structurally isomeric monochloro derivatives possible for the alkane shown is"
)
MONO_STEREO_STEM = (
    "The number of monochloro derivatives (stereoisomers included) possible for the alkane shown is"
)
SINGLE_STEM = (
    "Which of the alkanes P, Q, R and S shown gives only one monochloro derivative on "
    "free-radical chlorination?"
)
TYPE_STEM = "The compounds I and II shown are related as"
TYPE_OPTIONS: dict[str, str] = {
    "chain": "chain isomers",
    "position": "position isomers",
    "functional": "functional isomers",
    "metamerism": "metamers",
    "geometrical": "geometrical isomers",
}
PANEL_LABELS = ("P", "Q", "R", "S")
NAMED_GEOMETRICAL_STEM = "Which of the following isomers of {formula} shows geometrical isomerism?"
NAMED_CHIRAL_STEM = "Which of the following isomers of {formula} is optically active?"
_NAMED_RE = re.compile(
    r"^Which of the following isomers of (?P<formula>[A-Za-z₀-₉]+) "
    r"(?P<what>shows geometrical isomerism|is optically active)\?$"
)


def parse_named_stem(stem: str) -> tuple[str, str] | None:
    """("geometrical" | "chiral", plain formula) for a named-options stem, or None."""
    m = _NAMED_RE.match(stem.strip())
    if m is None:
        return None
    what = "geometrical" if m["what"].startswith("shows") else "chiral"
    return what, plain_formula(m["formula"])


def count_stem(family: Family, formula: str) -> str:
    return COUNT_STEM.format(phrase=family.phrase, formula=subscripted(formula))


_COUNT_RE = re.compile(r"^The number of (?P<phrase>.+) possible for (?P<formula>[A-Za-z₀-₉]+) is")


def parse_count_stem(stem: str) -> tuple[Family, str] | None:
    """The family and plain formula a count stem asks about, or None."""
    m = _COUNT_RE.match(stem.strip())
    if m is None:
        return None
    family = next((f for f in FAMILIES if f.phrase == m["phrase"]), None)
    return (family, plain_formula(m["formula"])) if family is not None else None


# ---------------------------------------------------------------------------------------------
# The enumerator.

_VALENCE = {"C": 4, "N": 3, "O": 2, "S": 2, "Cl": 1, "Br": 1, "I": 1, "F": 1}
_FORMULA_RE = re.compile(r"([A-Z][a-z]?)(\d*)")


def formula_counts(formula: str) -> Counter[str]:
    counts: Counter[str] = Counter()
    for element, n in _FORMULA_RE.findall(formula):
        counts[element] += int(n) if n else 1
    return counts


def unsaturation(counts: Counter[str]) -> int:
    """Degree of unsaturation (rings + π bonds) of a formula."""
    twice = 2 + sum((_VALENCE[e] - 2) * n for e, n in counts.items() if e != "H") - counts["H"]
    if twice < 0 or twice % 2:
        raise ValueError(f"no neutral closed-shell molecule has the formula {dict(counts)}")
    return twice // 2


def _grown(smiles: str, element: str) -> set[str]:
    """Every molecule made by bonding one more `element` atom to an atom of `smiles` that
    still carries a hydrogen."""
    mol = Chem.MolFromSmiles(smiles)
    out = set()
    for atom in mol.GetAtoms():
        if atom.GetTotalNumHs() == 0:
            continue
        rw = Chem.RWMol(mol)
        new = rw.AddAtom(Chem.Atom(element))
        rw.AddBond(atom.GetIdx(), new, Chem.BondType.SINGLE)
        grown = rw.GetMol()
        if Chem.SanitizeMol(grown, catchErrors=True) == Chem.SanitizeFlags.SANITIZE_NONE:
            out.add(Chem.MolToSmiles(grown))
    return out


def _raised(smiles: str) -> set[str]:
    """Every molecule made by raising the order of one non-aromatic bond by one."""
    mol = Chem.MolFromSmiles(smiles)
    order = {Chem.BondType.SINGLE: Chem.BondType.DOUBLE, Chem.BondType.DOUBLE: Chem.BondType.TRIPLE}
    out = set()
    for bond in mol.GetBonds():
        a, b = bond.GetBeginAtom(), bond.GetEndAtom()
        if bond.GetIsAromatic() or bond.GetBondType() not in order:
            continue
        if a.GetTotalNumHs() == 0 or b.GetTotalNumHs() == 0:
            continue
        rw = Chem.RWMol(mol)
        rw.GetBondWithIdx(bond.GetIdx()).SetBondType(order[bond.GetBondType()])
        raised = rw.GetMol()
        for atom in raised.GetAtoms():
            atom.SetNoImplicit(False)
            atom.SetNumExplicitHs(0)
        if Chem.SanitizeMol(raised, catchErrors=True) == Chem.SanitizeFlags.SANITIZE_NONE:
            out.add(Chem.MolToSmiles(raised))
    return out


def mol_counts(mol: Chem.Mol) -> Counter[str]:
    """The molecular formula of a molecule as element counts (hydrogens included)."""
    counts = Counter(a.GetSymbol() for a in mol.GetAtoms())
    counts["H"] += sum(a.GetTotalNumHs() for a in mol.GetAtoms())
    return counts


@cache
def constitutions(formula: str, scope: str) -> frozenset[str]:
    """Every constitution (canonical SMILES, no stereo) of the formula: acyclic ("open") or one
    benzene ring with acyclic side chains ("aromatic")."""
    counts = formula_counts(formula)
    dou = unsaturation(counts)
    heavy = Counter({e: n for e, n in counts.items() if e != "H"})
    if scope == "aromatic":
        if heavy["C"] < 6 or dou < 4:
            return frozenset()
        seed, dou = "c1ccccc1", dou - 4
    else:
        if heavy["C"] < 1:
            return frozenset()
        seed = "C"
    layer = {seed}
    for _ in range(sum(heavy.values()) - sum(_heavy_counts(seed).values())):
        nxt: set[str] = set()
        for smiles in layer:
            have = _heavy_counts(smiles)
            for element in heavy:
                if have[element] < heavy[element]:
                    nxt |= _grown(smiles, element)
        layer = nxt
    for _ in range(dou):
        layer = {r for s in layer for r in _raised(s)}
    return frozenset(s for s in layer if mol_counts(Chem.MolFromSmiles(s)) == counts)


@cache
def _pattern(name: str) -> Chem.Mol:
    return Chem.MolFromSmarts(CLASS_SMARTS[name])


def in_class(mol: Chem.Mol, name: str) -> bool:
    return mol.HasSubstructMatch(_pattern(name))


def stereo_count(mol: Chem.Mol) -> int:
    """Stereoisomers of a constitution: unique canonical isomeric SMILES of RDKit's
    enumeration over its unassigned stereo elements (a meso form collapses with its mirror)."""
    options = StereoEnumerationOptions(unique=True, onlyUnassigned=True)
    return len({Chem.MolToSmiles(m) for m in EnumerateStereoisomers(mol, options=options)})


@cache
def family_members(formula: str, family_key: str) -> tuple[str, ...]:
    """The constitutions of the formula the family admits, sorted."""
    family = FAMILY_BY_KEY[family_key]
    open_any = family.classes == ("any",) and family.scope == "open"
    if open_any and unsaturation(formula_counts(formula)):
        raise ValueError(f"{formula} has rings among its isomers; this counts chains only")
    found = []
    for smiles in constitutions(formula, family.scope):
        mol = Chem.MolFromSmiles(smiles)
        if any(in_class(mol, c) for c in family.classes):
            found.append(smiles)
    return tuple(sorted(found))


def family_count(formula: str, family_key: str) -> int:
    """The number of isomers the family counts: constitutions, and their stereoisomers when the
    family counts those too."""
    members = family_members(formula, family_key)
    if not FAMILY_BY_KEY[family_key].stereo:
        return len(members)
    return sum(stereo_count(Chem.MolFromSmiles(s)) for s in members)


@cache
def monochloro_products(smiles: str) -> tuple[str, ...]:
    """Every constitution made by putting one Cl in place of one H of the molecule, sorted."""
    return tuple(sorted(_grown(Chem.MolToSmiles(Chem.MolFromSmiles(smiles)), "Cl")))


def monochloro_count(smiles: str, stereo: bool) -> int:
    products = monochloro_products(smiles)
    if not stereo:
        return len(products)
    return sum(stereo_count(Chem.MolFromSmiles(p)) for p in products)


def _heavy_counts(smiles: str) -> Counter[str]:
    return Counter(a.GetSymbol() for a in Chem.MolFromSmiles(smiles).GetAtoms())


# ---------------------------------------------------------------------------------------------
# Stereo and isomer-type rules over RDKit features.


def shows_geometrical_isomerism(mol: Chem.Mol) -> bool:
    """A double bond whose two ends each carry two different groups (RDKit's potential stereo)."""
    return any(
        e.type == Chem.StereoType.Bond_Double for e in Chem.FindPotentialStereo(Chem.Mol(mol))
    )


def chiral_centres(mol: Chem.Mol) -> int:
    centres = Chem.FindMolChiralCenters(mol, includeUnassigned=True, useLegacyImplementation=False)
    return len(centres)


def is_optically_active(mol: Chem.Mol) -> bool | None:
    """Whether the molecule shown is chiral. A structure with every centre configured is chiral
    when it differs from its mirror image (a meso form does not). An unconfigured one is chiral
    when it has a chiral centre and none of its stereoisomers is meso; None when it depends on
    the configuration (a meso form among its isomers)."""
    total = chiral_centres(mol)
    if total == 0:
        return False
    if len(Chem.FindMolChiralCenters(mol, useLegacyImplementation=False)) == total:
        return Chem.MolToSmiles(mol) != Chem.MolToSmiles(_mirror(mol))
    options = StereoEnumerationOptions(unique=True, onlyUnassigned=True)
    for isomer in EnumerateStereoisomers(mol, options=options):
        if Chem.MolToSmiles(isomer) == Chem.MolToSmiles(_mirror(isomer)):
            return None
    return True


def _mirror(mol: Chem.Mol) -> Chem.Mol:
    mirror = Chem.Mol(mol)
    flip = {
        Chem.ChiralType.CHI_TETRAHEDRAL_CW: Chem.ChiralType.CHI_TETRAHEDRAL_CCW,
        Chem.ChiralType.CHI_TETRAHEDRAL_CCW: Chem.ChiralType.CHI_TETRAHEDRAL_CW,
    }
    for atom in mirror.GetAtoms():
        if atom.GetChiralTag() in flip:
            atom.SetChiralTag(flip[atom.GetChiralTag()])
    return mirror


# Functional classes in priority order: a molecule's class is the first it matches.
FG_PRIORITY = (
    "acid",
    "ester",
    "aldehyde",
    "ketone",
    "alcohol",
    "ether",
    "primary-amine",
    "secondary-amine",
    "tertiary-amine",
    "haloalkane",
    "alkyne",
    "alkene",
)
_PHENOL = "[OX2H]c"


def functional_class(mol: Chem.Mol) -> str:
    if mol.HasSubstructMatch(Chem.MolFromSmarts(_PHENOL)):
        return "phenol"
    return next((c for c in FG_PRIORITY if in_class(mol, c)), "hydrocarbon")


def carbon_skeleton(mol: Chem.Mol) -> str:
    """The carbon graph with every heteroatom removed and every bond made single."""
    rw = Chem.RWMol(mol)
    Chem.Kekulize(rw, clearAromaticFlags=True)
    for idx in sorted((a.GetIdx() for a in rw.GetAtoms() if a.GetSymbol() != "C"), reverse=True):
        rw.RemoveAtom(idx)
    for bond in rw.GetBonds():
        bond.SetBondType(Chem.BondType.SINGLE)
    for atom in rw.GetAtoms():
        atom.SetNoImplicit(False)
        atom.SetNumExplicitHs(0)
        atom.SetIsAromatic(False)
    skeleton = rw.GetMol()
    Chem.SanitizeMol(skeleton)
    return Chem.MolToSmiles(skeleton)


_LINKS = {"ether": "[OD2]([#6])[#6]", "secondary-amine": "[NX3H1]([#6])[#6]"}


def _link_sides(mol: Chem.Mol, cls: str) -> tuple[int, ...] | None:
    """The carbon counts of the two groups on either side of the divalent link (O, NH), or None
    when there is not exactly one link."""
    matches = mol.GetSubstructMatches(Chem.MolFromSmarts(_LINKS[cls]))
    if len(matches) != 1:
        return None
    link, a, b = matches[0]
    sides = []
    for start in (a, b):
        seen, todo = {link, start}, [start]
        while todo:
            atom = mol.GetAtomWithIdx(todo.pop())
            for n in atom.GetNeighbors():
                if n.GetIdx() not in seen:
                    seen.add(n.GetIdx())
                    todo.append(n.GetIdx())
        sides.append(sum(mol.GetAtomWithIdx(i).GetSymbol() == "C" for i in seen - {link}))
    return tuple(sorted(sides))


def isomerism_type(first: Chem.Mol, second: Chem.Mol) -> str | None:
    """How two structures are isomers in NCERT's terms, or None (not isomers, the same
    compound, or a pair NCERT's terms do not tell apart)."""
    if mol_counts(first) != mol_counts(second):
        return None
    flat = [Chem.MolToSmiles(m, isomericSmiles=False) for m in (first, second)]
    if flat[0] == flat[1]:
        if Chem.MolToSmiles(first) == Chem.MolToSmiles(second):
            return None
        geometrical = all(shows_geometrical_isomerism(m) for m in (first, second))
        return "geometrical" if geometrical and chiral_centres(first) == 0 else None
    classes = [functional_class(m) for m in (first, second)]
    if classes[0] != classes[1]:
        return "functional"
    if classes[0] in _LINKS:
        sides = [_link_sides(m, classes[0]) for m in (first, second)]
        if None in sides or sides[0] == sides[1]:
            return None
        return "metamerism"
    skeletons = [carbon_skeleton(m) for m in (first, second)]
    return "chain" if skeletons[0] != skeletons[1] else "position"


# ---------------------------------------------------------------------------------------------
# The solver.


def _answer(view: SolverView, wanted: str, how: str) -> SolverAnswer:
    chosen = [o.key for o in view.options if o.text.strip() == wanted]
    if len(chosen) != 1:
        return abstention(f"{how}; no option {wanted}")
    return answered(chosen[0], 1.0, how)


def _named_answer(view: SolverView, what: str, formula: str) -> SolverAnswer:
    names = [o.text.strip() for o in view.options]
    read = smiles_of_names(names)  # no Java: OpsinUnavailableError, a named abstention
    mols = {n: Chem.MolFromSmiles(read.get(n) or "") for n in names}
    if any(m is None or m.GetNumAtoms() == 0 for m in mols.values()):
        return abstention("an option OPSIN cannot read")
    want = formula_counts(formula)
    if any(mol_counts(m) != want for m in mols.values()):
        return abstention(f"an option is not an isomer of {formula}")
    if what == "geometrical":
        verdicts: dict[str, bool | None] = {
            n: shows_geometrical_isomerism(m) for n, m in mols.items()
        }
    else:
        verdicts = {n: is_optically_active(m) for n, m in mols.items()}
    if None in verdicts.values():
        return abstention("an option whose activity depends on its configuration")
    yes = [n for n, v in verdicts.items() if v]
    if len(yes) != 1:
        return abstention(f"{len(yes)} options qualify")
    return _answer(view, yes[0], f"only {yes[0]} qualifies ({what}, names read by OPSIN)")


def isomers_answer(view: SolverView) -> SolverAnswer:
    """The option the solver's own enumeration or rules give, or an abstention."""
    stem = view.stem_markdown.strip()
    parsed = parse_count_stem(stem)
    if parsed is not None:
        family, formula = parsed
        try:
            count = family_count(formula, family.key)
        except (ValueError, KeyError) as err:
            return abstention(f"cannot enumerate {formula}: {err}")
        return _answer(view, str(count), f"enumerated {count} {family.key} of {formula}")
    named = parse_named_stem(stem)
    if named is not None:
        return _named_answer(view, *named)
    spec = structures_shown(view)
    if spec is None:
        return abstention("no structure figure")
    mols = {p.label: Chem.MolFromSmiles(p.smiles) for p in spec.panels}
    if any(m is None for m in mols.values()):
        return abstention("a structure RDKit cannot read")
    if stem.startswith((MONO_STEM, MONO_STEREO_STEM)) and len(mols) == 1:
        stereo = stem.startswith(MONO_STEREO_STEM)
        count = monochloro_count(Chem.MolToSmiles(next(iter(mols.values()))), stereo)
        return _answer(view, str(count), f"{count} monochloro products enumerated")
    if stem.startswith(SINGLE_STEM) and set(mols) == set(PANEL_LABELS):
        single = [k for k, m in mols.items() if monochloro_count(Chem.MolToSmiles(m), False) == 1]
        if len(single) != 1:
            return abstention(f"{len(single)} alkanes give one monochloro product")
        return _answer(view, single[0], "only one set of equivalent hydrogens")
    if stem.startswith(STEREO_STEM) and len(mols) == 1:
        count = stereo_count(next(iter(mols.values())))
        return _answer(view, str(count), f"{count} unique stereoisomers enumerated")
    if stem.startswith((GEOMETRICAL_STEM, CHIRAL_STEM)) and set(mols) == set(PANEL_LABELS):
        if stem.startswith(GEOMETRICAL_STEM):
            verdicts: dict[str, bool | None] = {
                k: shows_geometrical_isomerism(m) for k, m in mols.items()
            }
        else:
            verdicts = {k: is_optically_active(m) for k, m in mols.items()}
        if None in verdicts.values():
            return abstention("a structure whose activity depends on its configuration")
        yes = [k for k, v in verdicts.items() if v]
        if len(yes) != 1:
            return abstention(f"{len(yes)} structures qualify")
        return _answer(view, yes[0], f"only {yes[0]} qualifies")
    if stem.startswith(TYPE_STEM) and set(mols) == {"I", "II"}:
        kind = isomerism_type(mols["I"], mols["II"])
        if kind is None:
            return abstention("no single NCERT type of isomerism")
        return _answer(view, TYPE_OPTIONS[kind], f"{kind} by RDKit rules")
    return abstention("not an isomer question this solver reads")
