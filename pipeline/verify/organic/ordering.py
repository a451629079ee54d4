"""The ordering solver: arranges the compounds a question shows by NCERT's stated rules.

It reads the property and the direction from the stem, the compounds from the structure figure
(labels I, II, …) or from the stem's lettered lines (names read by OPSIN), and scores each
compound with RDKit features: substituents found on the ring (–NO₂ −R at ortho/para stronger
than −I alone at meta, halogen −I, –CH₃ +I, –OCH₃ +R), −I of groups on the chain by strength
and distance, the degree of a carbocation or radical and its benzylic/allylic resonance, the
class of an amine, molar mass and branching for boiling points, the crowding of the carbon
bearing the leaving group. A rule compares two compounds or says it cannot (None); the solver
answers only when the decided pairs leave exactly one order, else it abstains. It never sees
the authored rankings.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from rdkit import Chem
from rdkit.Chem import rdMolDescriptors

from core.records import SolverAnswer, SolverView
from pipeline.verify.organic.opsin import smiles_of_names
from pipeline.verify.organic.read import abstention, answered, structures_shown

Pairs = tuple[tuple[str, str], ...]

# How strongly a ring substituent withdraws electrons from the group it is compared with
# (positive withdraws, negative releases), by position relative to that group. NO₂ at o/p acts
# by −R and −I, at meta by −I alone; a halogen by −I (outweighing its +R); CH₃ releases by +I
# and hyperconjugation; OCH₃ and OH release by +R from o/p.
WITHDRAWING: dict[str, dict[str, float]] = {"NO2": {"o": 3.0, "m": 1.5, "p": 3.0}}
WITHDRAWING |= {"X": dict.fromkeys("omp", 1.0), "CH3": dict.fromkeys("omp", -0.3)}
WITHDRAWING |= {"OCH3": dict.fromkeys("op", -0.6), "OH": dict.fromkeys("op", -0.6)}
# Activation of the ring towards electrophiles, whatever the position.
ACTIVATION = {"NO2": -3.0, "COOH": -2.0, "CHO": -2.0, "X": -0.5, "CH3": 1.0, "OH": 3.0}
ACTIVATION |= {"OCH3": 3.0, "NH2": 4.0}
# −I of a group on the α-carbon of an acid (by electronegativity and NCERT's order
# NO₂ > CN > F > Cl > Br > I); a phenyl (sp² carbon) −I weakly; an alkyl carbon +I.
MINUS_I = {"NO2": 4.5, "CN": 4.2, "F": 4.0, "Cl": 3.0, "Br": 2.8, "I": 2.5, "aryl": 0.3}
MINUS_I["alkyl"] = -0.2
# Ring substituents by SMARTS, each match starting at the atom bonded to the ring.
RING_GROUPS = tuple(
    (name, Chem.MolFromSmarts(smarts))
    for name, smarts in (
        ("NO2", "[N+](=O)[O-]"),
        ("NH2", "[NX3H2]"),
        ("OH", "[OX2H1]"),
        ("OCH3", "[OX2][CH3]"),
        ("CHO", "[CX3H1]=O"),
        ("COOH", "[CX3](=O)[OX2H1]"),
        ("X", "[F,Cl,Br,I]"),
        ("CH3", "[CH3]"),
    )
)
# Where each −I group starts (its first atom), found by SMARTS.
CHAIN_GROUPS: Pairs = (("F", "F"), ("Cl", "Cl"), ("Br", "Br"), ("I", "I"), ("CN", "C#N"))
CHAIN_GROUPS += (("NO2", "[N+](=O)[O-]"), ("aryl", "c-[CX4]"))
# The −I effect fades along the chain: on the α-carbon, one bond further, two bonds further.
FADE = (1.0, 0.3, 0.1)
HALOGENS = ("F", "Cl", "Br", "I")
BP_CLASS = {"alkane": 0, "ether": 1, "carbonyl": 2, "alcohol": 3, "acid": 4}
COMPARABLE_MASS = 1.25
# Boiling-point classes by SMARTS, the first that matches; a haloalkane boils above an alkane
# and below an alcohol or acid of comparable mass (no rule against ethers or carbonyls).
BP_GROUPS: Pairs = (("acid", "[CX3](=O)[OX2H1]"), ("alcohol", "[OX2H1][CX4]"))
BP_GROUPS += (("carbonyl", "[CX3;!$(C-[O,N])]=O"), ("ether", "[CX4]O[CX4]"))
HALOALKANE_ABOVE = {"alkane": 1, "alcohol": -1, "acid": -1}

# The stem's phrase for each property (the first that occurs decides).
ASKS: Pairs = (("acidic strength", "acidity"), ("in the gas phase", "basicity-gas"))
ASKS += (("in aqueous solution", "basicity-aqueous"), ("boiling point", "bp"))
ASKS += (("sn1", "sn1"), ("sn2", "sn2"), ("nucleophilic addition", "nucleophilic-addition"))
ASKS += (("electrophilic substitution", "eas"), ("bond enthalp", "cx-bond"))

Score = tuple[str, float] | None  # (what the score can be compared with, value)
Compare = Callable[[Chem.Mol, Chem.Mol], int | None]


@dataclass(frozen=True)
class Asked:
    prop: str  # acidity, basicity-aqueous, basicity-gas, carbocation, radical, bp, sn1, sn2,
    # nucleophilic-addition, eas, cx-bond
    increasing: bool


def asked(stem: str) -> Asked | None:
    """The property and direction the stem asks for, or None."""
    text = stem.lower()
    direction = re.search(r"\b(increasing|decreasing)\b order", text)
    if direction is None:
        return None
    prop = next((p for phrase, p in ASKS if phrase in text), None)
    if prop is None and "stability" in text:
        prop = "carbocation" if "carbocation" in text else "radical" if "radical" in text else None
    return Asked(prop, direction.group(1) == "increasing") if prop else None


def _ring_substituents(mol: Chem.Mol, anchor: int) -> list[tuple[str, str]] | None:
    """(group, position o/m/p) of each substituent on the benzene ring bearing atom `anchor`
    (a ring atom), the anchor's own group left out; None for a group the rules do not know."""
    ring = next(
        (r for r in mol.GetRingInfo().AtomRings() if anchor in r and len(r) == 6),
        None,
    )
    if ring is None:
        return None
    found = []
    for i, idx in enumerate(ring):
        if idx == anchor:
            continue
        at = ring.index(anchor)
        gap = min((i - at) % 6, (at - i) % 6)
        position = {1: "o", 2: "m", 3: "p"}[gap]
        for nb in mol.GetAtomWithIdx(idx).GetNeighbors():
            if nb.GetIdx() in ring:
                continue
            group = _group(mol, nb.GetIdx())
            if group is None:
                return None
            found.append((group, position))
    return found


def _group(mol: Chem.Mol, idx: int) -> str | None:
    """The substituent whose first atom is idx, as the rules name it (None: unknown)."""
    for name, pattern in RING_GROUPS:
        if any(m[0] == idx for m in mol.GetSubstructMatches(pattern)):
            return name
    return None


def _withdrawing(mol: Chem.Mol, anchor: int) -> float | None:
    subs = _ring_substituents(mol, anchor)
    if subs is None:
        return None
    total = 0.0
    for group, position in subs:
        effect = WITHDRAWING.get(group, {}).get(position)
        if effect is None:
            return None
        total += effect
    return total


def _matches(mol: Chem.Mol, smarts: str) -> list[tuple[int, ...]]:
    return list(mol.GetSubstructMatches(Chem.MolFromSmarts(smarts)))


def _acid_score(mol: Chem.Mol) -> Score:
    """(class, score): carboxylic acid > phenol > alcohol; within a class, more electron
    withdrawal from the conjugate base's charge, a higher score."""
    acids = _matches(mol, "[CX3](=O)[OX2H1]")
    phenols = _matches(mol, "[OX2H1]c")
    alcohols = _matches(mol, "[OX2H1][CX4]")
    if len(acids) + len(phenols) + len(alcohols) != 1:
        return None
    if phenols:
        w = _withdrawing(mol, phenols[0][1])
        return None if w is None else ("phenol", w)
    if alcohols:
        carbinol = mol.GetAtomWithIdx(alcohols[0][1])
        if carbinol.GetDegree() > 1 and any(
            n.GetSymbol() != "C" for n in carbinol.GetNeighbors() if n.GetIdx() != alcohols[0][0]
        ):
            return None
        alkyls = sum(n.GetSymbol() == "C" for n in carbinol.GetNeighbors())
        return ("alcohol", -float(alkyls))
    carboxyl = acids[0][0]
    rest = [n for n in mol.GetAtomWithIdx(carboxyl).GetNeighbors() if n.GetSymbol() == "C"]
    if not rest:
        return ("acid", 0.0)  # methanoic acid: no alkyl group
    alpha = rest[0]
    if alpha.GetIsAromatic():
        w = _withdrawing(mol, alpha.GetIdx())
        return None if w is None else ("acid", -0.5 + 0.3 * w)
    if alpha.GetHybridization() != Chem.HybridizationType.SP3:
        return None
    dist = Chem.GetDistanceMatrix(mol)
    carbons = [n for n in alpha.GetNeighbors() if n.GetIdx() != carboxyl]
    chain = [n for n in carbons if not n.GetIsAromatic()]
    if any(sum(c.GetSymbol() == "C" for c in n.GetNeighbors()) > 2 for n in chain):
        return None  # a branched chain: the rules below count straight chains only
    sp3 = Chem.HybridizationType.SP3
    alkyls = sum(n.GetSymbol() == "C" and n.GetHybridization() == sp3 for n in carbons)
    score = -1.0 + MINUS_I["alkyl"] * alkyls
    for kind, smarts in CHAIN_GROUPS:
        for match in _matches(mol, smarts):
            d = int(dist[match[0]][alpha.GetIdx()])
            if 1 <= d <= len(FADE):
                score += MINUS_I[kind] * FADE[d - 1]
    return ("acid", score)


def _cmp_acid(a: Chem.Mol, b: Chem.Mol) -> int | None:
    sa, sb = _acid_score(a), _acid_score(b)
    if sa is None or sb is None:
        return None
    order = ("alcohol", "phenol", "acid")
    if sa[0] == sb[0]:
        return _sign(sa[1] - sb[1])
    # A phenol with two or more o/p nitro groups rivals carboxylic acids: no class rule then.
    if {sa[0], sb[0]} == {"phenol", "acid"} and max(
        s[1] for s in (sa, sb) if s[0] == "phenol"
    ) >= 2 * WITHDRAWING["NO2"]["p"]:
        return None
    return _sign(order.index(sa[0]) - order.index(sb[0]))


def _amine(mol: Chem.Mol) -> Chem.Atom | None:
    """The one amine nitrogen (bonded to carbons only, none of them C=X), or None."""
    found = _matches(mol, "[NX3;+0;!$(N~[!#6]);!$(N-C=*)]")
    return mol.GetAtomWithIdx(found[0][0]) if len(found) == 1 else None


def _alkyl_family(n: Chem.Atom) -> str | None:
    """ "methyl" or "ethyl" when every group on N is that one, else None."""
    kinds = set()
    for c in n.GetNeighbors():
        heavy = [x for x in c.GetNeighbors() if x.GetIdx() != n.GetIdx()]
        if not heavy:
            kinds.add("methyl")
        elif len(heavy) == 1 and heavy[0].GetSymbol() == "C" and heavy[0].GetDegree() == 1:
            kinds.add("ethyl")
        else:
            return None
    return kinds.pop() if len(kinds) == 1 else None


# NCERT's aqueous orders: for methyl groups 2° > 1° > 3° > NH₃, for ethyl 2° > 3° > 1° > NH₃
# (+I, solvation of the ammonium ion by H-bonding, and steric hindrance together).
AQUEOUS = {"methyl": {1: 2.0, 2: 3.0, 3: 1.0}, "ethyl": {1: 1.0, 2: 3.0, 3: 2.0}}


def _base_score(mol: Chem.Mol, gas: bool) -> Score:
    n = _amine(mol)
    if n is None:
        return None
    degree = n.GetDegree()
    if degree == 0:
        return ("any", 0.0)  # ammonia
    aryl = [c for c in n.GetNeighbors() if c.GetIsAromatic()]
    if aryl:
        if gas or degree != 1:
            return None
        w = _withdrawing(mol, aryl[0].GetIdx())
        return None if w is None else ("any", -10.0 - w)  # lone pair delocalised: below NH₃
    if gas:
        return ("any", float(degree))  # +I alone
    family = _alkyl_family(n)
    return None if family is None else (family, AQUEOUS[family][degree])


def _cmp_base(gas: bool) -> Compare:
    def compare(a: Chem.Mol, b: Chem.Mol) -> int | None:
        sa, sb = _base_score(a, gas), _base_score(b, gas)
        if sa is None or sb is None:
            return None
        if sa[0] != sb[0] and "any" not in (sa[0], sb[0]):
            return None
        return _sign(sa[1] - sb[1])

    return compare


def _centre_score(mol: Chem.Mol, centre: Chem.Atom, skip: int | None = None) -> float | None:
    """How a carbon's neighbours stabilise a positive charge or an odd electron on it: an
    alkyl group 1 (hyperconjugation, +I), an aryl or vinyl group 2 (resonance) corrected by
    the ring's own substituents."""
    score = 0.0
    for nb in centre.GetNeighbors():
        if nb.GetIdx() == skip:
            continue
        if nb.GetSymbol() != "C":
            return None
        if nb.GetIsAromatic():
            w = _withdrawing(mol, nb.GetIdx())
            if w is None:
                return None
            score += 2.0 - 0.3 * w
        elif nb.GetHybridization() == Chem.HybridizationType.SP3:
            score += 1.0
        elif nb.GetHybridization() == Chem.HybridizationType.SP2:
            score += 2.0
        else:
            return None
    return score


def _cmp_intermediate(kind: str) -> Compare:
    def score(mol: Chem.Mol) -> float | None:
        atoms = list(mol.GetAtoms())
        plus = [a for a in atoms if a.GetSymbol() == "C" and a.GetFormalCharge() == 1]
        odd = [a for a in atoms if a.GetNumRadicalElectrons()]
        centres, others = (plus, odd) if kind == "carbocation" else (odd, plus)
        if len(centres) != 1 or others or centres[0].GetSymbol() != "C":
            return None
        return _centre_score(mol, centres[0])

    return _by_score(score)


def _halide(mol: Chem.Mol) -> tuple[Chem.Atom, Chem.Atom] | None:
    pairs = [(a, n) for a in mol.GetAtoms() if a.GetSymbol() in HALOGENS for n in a.GetNeighbors()]
    if len(pairs) != 1 or pairs[0][1].GetHybridization() != Chem.HybridizationType.SP3:
        return None
    return pairs[0]


def _openness(mol: Chem.Mol, alpha: Chem.Atom, x: int) -> float | None:
    """Minus the steric hindrance at the carbon attacked in SN2: each alkyl group 1 (0.2 more
    for each branch at its own carbon, the β-carbon), each phenyl 1.5."""
    total = 0.0
    for nb in alpha.GetNeighbors():
        if nb.GetIdx() == x:
            continue
        if nb.GetSymbol() != "C":
            return None
        if nb.GetIsAromatic():
            total += 1.5
        elif nb.GetHybridization() == Chem.HybridizationType.SP3:
            carbons = sum(c.GetSymbol() == "C" for c in nb.GetNeighbors()) - 1
            total += 1.0 + 0.2 * max(0, carbons - 1)
        else:
            return None
    return -total


def _skeleton(mol: Chem.Mol, x: Chem.Atom) -> str:
    """The molecule with its halogen replaced by a marker: same skeleton, different halogen."""
    rw = Chem.RWMol(mol)
    rw.GetAtomWithIdx(x.GetIdx()).SetAtomicNum(0)
    return Chem.MolToSmiles(rw)


def _cmp_substitution(mode: str) -> Compare:
    """SN1: the stability of the carbocation left; SN2: less crowding faster; the C–X bond:
    stronger from I to F. For one halogen the skeleton decides, for one skeleton the halogen
    (R–I > R–Br > R–Cl > R–F in reactivity); anything else the rules leave open."""

    def compare(a: Chem.Mol, b: Chem.Mol) -> int | None:
        ha, hb = _halide(a), _halide(b)
        if ha is None or hb is None:
            return None
        xa, xb = ha[0].GetSymbol(), hb[0].GetSymbol()
        if xa != xb:
            if _skeleton(a, ha[0]) != _skeleton(b, hb[0]):
                return None
            weaker = HALOGENS.index(xa) - HALOGENS.index(xb)  # larger index: weaker C–X bond
            return _sign(-weaker if mode == "bond" else weaker)
        if mode == "bond":
            return None
        if mode == "sn1":
            sa = _centre_score(a, ha[1], skip=ha[0].GetIdx())
            sb = _centre_score(b, hb[1], skip=hb[0].GetIdx())
        else:
            sa = _openness(a, ha[1], ha[0].GetIdx())
            sb = _openness(b, hb[1], hb[0].GetIdx())
        if sa is None or sb is None:
            return None
        return _sign(sa - sb)

    return compare


def _carbonyl_score(mol: Chem.Mol) -> float | None:
    """Electrophilicity and openness of an aldehyde's or ketone's carbonyl carbon: each alkyl
    group −1 (+I, steric; −0.1 more per carbon on it), each aryl −1.5 (resonance) corrected by
    the ring's substituents."""
    found = _matches(mol, "[CX3;!$(C-[O,N,S])](=O)")
    if len(found) != 1:
        return None
    carbon = mol.GetAtomWithIdx(found[0][0])
    score = 0.0
    for nb in carbon.GetNeighbors():
        if nb.GetSymbol() == "O":
            continue
        if nb.GetSymbol() != "C":
            return None
        if nb.GetIsAromatic():
            w = _withdrawing(mol, nb.GetIdx())
            if w is None:
                return None
            score += -1.5 + 0.3 * w
        elif nb.GetHybridization() == Chem.HybridizationType.SP3:
            carbons = sum(c.GetSymbol() == "C" for c in nb.GetNeighbors()) - 1
            score += -1.0 - 0.1 * carbons
        else:
            return None
    return score


def _eas_score(mol: Chem.Mol) -> float | None:
    rings = [r for r in mol.GetRingInfo().AtomRings()]
    if len(rings) != 1 or len(rings[0]) != 6:
        return None
    ring = rings[0]
    if not all(mol.GetAtomWithIdx(i).GetIsAromatic() for i in ring):
        return None
    total = 0.0
    for idx in ring:
        for nb in mol.GetAtomWithIdx(idx).GetNeighbors():
            if nb.GetIdx() in ring:
                continue
            group = _group(mol, nb.GetIdx())
            if group is None or group not in ACTIVATION:
                return None
            total += ACTIVATION[group]
    return total


def _bp_class(mol: Chem.Mol) -> str | None:
    for name, smarts in BP_GROUPS:
        if _matches(mol, smarts):
            return name
    symbols = {a.GetSymbol() for a in mol.GetAtoms()}
    if symbols <= {"C"}:
        return "alkane"
    if symbols - {"C"} <= set(HALOGENS) and not _matches(mol, "[#6]=,#[#6]"):
        return "haloalkane"
    return None


def _branches(mol: Chem.Mol, carbon_only: bool) -> int:
    total = 0
    for a in mol.GetAtoms():
        if carbon_only and a.GetSymbol() != "C":
            continue
        heavy = sum(1 for n in a.GetNeighbors() if not carbon_only or n.GetSymbol() == "C")
        total += max(0, heavy - 2)
    return total


def _cmp_bp(a: Chem.Mol, b: Chem.Mol) -> int | None:
    """Same class: isomers by branching (more branched, lower), else the heavier higher when it
    is no more branched. Comparable masses (within 25 %): alkane < ether < carbonyl (dipoles)
    < alcohol < acid (H-bonds); a haloalkane above alkanes and below alcohols only."""
    ca, cb = _bp_class(a), _bp_class(b)
    if ca is None or cb is None:
        return None
    ma, mb = rdMolDescriptors.CalcExactMolWt(a), rdMolDescriptors.CalcExactMolWt(b)
    if ca == cb:
        if rdMolDescriptors.CalcMolFormula(a) == rdMolDescriptors.CalcMolFormula(b):
            return _sign(_branches(b, False) - _branches(a, False))
        heavier, lighter = (a, b) if ma > mb else (b, a)
        if _branches(heavier, True) > _branches(lighter, True):
            return None
        return 1 if heavier is a else -1
    rank = _class_order(ca, cb)
    if rank is None:
        return None
    if max(ma, mb) / min(ma, mb) <= COMPARABLE_MASS:
        return rank
    heavier_higher = 1 if ma > mb else -1
    return rank if rank == heavier_higher else None


def _class_order(ca: str, cb: str) -> int | None:
    if "haloalkane" in (ca, cb):
        other, sign = (cb, 1) if ca == "haloalkane" else (ca, -1)
        above = HALOALKANE_ABOVE.get(other)
        return None if above is None else sign * above
    return _sign(BP_CLASS[ca] - BP_CLASS[cb])


def _sign(x: float) -> int | None:
    return None if abs(x) < 1e-9 else 1 if x > 0 else -1


def _by_score(score: Callable[[Chem.Mol], float | None]) -> Compare:
    def compare(a: Chem.Mol, b: Chem.Mol) -> int | None:
        sa, sb = score(a), score(b)
        if sa is None or sb is None:
            return None
        return _sign(sa - sb)

    return compare


def comparer(prop: str) -> Compare | None:
    """The rule comparing two compounds for a property: +1 when the first ranks higher."""
    rules: dict[str, Compare] = {
        "acidity": _cmp_acid,
        "basicity-aqueous": _cmp_base(gas=False),
        "basicity-gas": _cmp_base(gas=True),
        "carbocation": _cmp_intermediate("carbocation"),
        "radical": _cmp_intermediate("radical"),
        "sn1": _cmp_substitution("sn1"),
        "sn2": _cmp_substitution("sn2"),
        "cx-bond": _cmp_substitution("bond"),
        "nucleophilic-addition": _by_score(_carbonyl_score),
        "eas": _by_score(_eas_score),
        "bp": _cmp_bp,
    }
    return rules.get(prop)


def increasing_order(prop: str, mols: dict[str, Chem.Mol]) -> tuple[str, ...] | str:
    """The labels in increasing order of the property, or why the rules cannot decide it."""
    compare = comparer(prop)
    if compare is None:
        return f"no rule for {prop}"
    labels = list(mols)
    decided: dict[tuple[str, str], int] = {}
    for x, y in itertools.combinations(labels, 2):
        c = compare(mols[x], mols[y])
        if c is not None:
            decided[(x, y)] = c
            decided[(y, x)] = -c
    fits = [
        p
        for p in itertools.permutations(labels)
        if all(
            decided.get((p[i], p[j]), -1) == -1 for i in range(len(p)) for j in range(i + 1, len(p))
        )
    ]
    if len(fits) != 1:
        open_pairs = [
            f"{x}/{y}" for x, y in itertools.combinations(labels, 2) if (x, y) not in decided
        ]
        return f"the rules leave {len(fits)} orders (undecided: {', '.join(open_pairs)})"
    return fits[0]


LINE = re.compile(r"^([A-F])\.\s+(.+?)\s*$", re.MULTILINE)


def _compounds(view: SolverView) -> dict[str, Chem.Mol] | str:
    spec = structures_shown(view)
    if spec is not None:
        found = {p.label: Chem.MolFromSmiles(p.smiles) for p in spec.panels}
    else:
        named = dict(LINE.findall(view.stem_markdown))
        if not named:
            return "no compounds shown"
        read = smiles_of_names(named.values())
        found = {}
        for label, name in named.items():
            smiles = read.get(name)
            if smiles is None:
                return f"OPSIN cannot read {name!r}"
            found[label] = Chem.MolFromSmiles(smiles)
    if any(m is None for m in found.values()):
        return "a structure RDKit cannot read"
    return found


def _option_order(text: str) -> tuple[tuple[str, ...], bool] | None:
    """An option's labels from left to right, and whether it reads '<' (increasing)."""
    for sep, up in (("<", True), (">", False)):
        if sep in text:
            return tuple(t.strip() for t in text.split(sep)), up
    return None


def ordering_answer(view: SolverView) -> SolverAnswer:
    def abstain(note: str) -> SolverAnswer:
        return abstention(note)

    question = asked(view.stem_markdown)
    if question is None:
        return abstain("the stem asks for no property or direction I know")
    mols = _compounds(view)
    if isinstance(mols, str):
        return abstain(mols)
    order = increasing_order(question.prop, mols)
    if isinstance(order, str):
        return abstain(order)
    matches = []
    for option in view.options:
        parsed = _option_order(option.text)
        if parsed is None:
            continue
        labels, up = parsed
        # "a < b < c" lists the increasing order; "c > b > a" lists it from the top.
        if (labels if up else tuple(reversed(labels))) == order:
            matches.append(option.key)
    if len(matches) != 1:
        return abstain(f"{len(matches)} options give the order {' < '.join(order)}")
    return answered(matches[0], 0.9, f"{question.prop}: increasing {' < '.join(order)}")
