"""Bond questions over the compound table: σ and π bonds, the hybridisation of carbon atoms,
and the double bond equivalent (degree of unsaturation) of a structure or a formula.

The generator counts by arithmetic on the molecular formula (atoms, hydrogens, the double bond
equivalent C − H/2 + N/2 + 1) and a walk over the Kekulé bond orders it reads from the SMILES
(π bonds, and a carbon's hybridisation from its multiple bonds). The solver
(pipeline.verify.organic.bonds) counts another way: RDKit's hybridisation of each atom and the
bonds of the graph with its hydrogens made explicit.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rdkit import Chem
from rdkit.Chem import rdMolDescriptors

from core.figures import StructurePanel, StructureSpec
from core.records import QuestionFormat
from kb.organic import Molecule, molecules, subscripted
from pipeline.difficulty import Demand
from pipeline.generate.organic.template import OrganicQuestion, OrganicTemplate, four_options
from pipeline.verify.gate import options_clash

KIND = "bonds"
LETTERS = ("P", "Q", "R", "S")
VARIANTS = 1
HALOGENS = ("F", "Cl", "Br", "I")
# Biomolecules' ring forms and bases: not what a question on carbon's bonds shows a student.
OUT_OF_SCOPE = frozenset({"carbohydrate", "nucleobase", "nucleoside", "nucleotide"})
ONE_ALT = "The structural formula of one organic compound."
FOUR_ALT = "Four structural formulae of organic compounds, each with its letter printed beneath."
SIGMA_PI_STEM = "The number of σ and π bonds in the compound shown are"
HYBRID_STEM = (
    "The numbers of sp³, sp² and sp hybridised carbon atoms in the compound shown are, respectively"
)
ALL_SP2_STEM = "Which of the compounds shown has all its carbon atoms sp² hybridised?"
HAS_SP_STEM = "Which of the compounds shown has an sp hybridised carbon atom?"
DBE_STRUCTURE_STEM = "The double bond equivalent (degree of unsaturation) of the compound shown is"
RING_WORDS = {1: "one ring", 2: "two rings", 3: "three rings"}


@dataclass(frozen=True)
class Counted:
    molecule: Molecule
    formula: str
    elements: tuple[tuple[str, int], ...]
    atoms: int  # every atom, hydrogens included
    hydrogens: int
    dbe: int
    pi: int
    triple: int
    rings: int  # DBE − π: what the formula leaves to rings
    benzene_rings: int
    sp3: int
    sp2: int
    sp: int
    carbonyl_carbons: int  # carbons whose multiple bond is to a heteroatom

    @property
    def sigma(self) -> int:
        return self.atoms - 1 + self.rings

    @property
    def carbons(self) -> int:
        return self.sp3 + self.sp2 + self.sp


_FORMULA = re.compile(r"([A-Z][a-z]?)(\d*)")


def elements_of(formula: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for symbol, count in _FORMULA.findall(formula):
        found[symbol] = found.get(symbol, 0) + (int(count) if count else 1)
    return found


def dbe_of(elements: dict[str, int]) -> float:
    """C − (H + X)/2 + N/2 + 1 (oxygen and sulfur leave it unchanged)."""
    h = elements.get("H", 0) + sum(elements.get(x, 0) for x in HALOGENS)
    return elements.get("C", 0) - h / 2 + elements.get("N", 0) / 2 + 1


def _counted(m: Molecule) -> Counted | None:
    mol = Chem.MolFromSmiles(m.smiles)
    if mol is None or "." in m.smiles or m.family.lower() in OUT_OF_SCOPE:
        return None
    formula = rdMolDescriptors.CalcMolFormula(mol)
    if any(ch in formula for ch in "+-"):
        return None  # ions: the formula arithmetic below is for neutral molecules
    elements = elements_of(formula)
    if set(elements) - {"C", "H", "N", "O", "S", *HALOGENS} or "C" not in elements:
        return None
    if any(a.GetFormalCharge() for a in mol.GetAtoms()):
        return None  # a nitro group's charges: its bonds are drawn one way of two
    dbe = dbe_of(elements)
    if dbe != int(dbe):
        return None
    kek = Chem.Mol(mol)
    Chem.Kekulize(kek, clearAromaticFlags=True)
    order = {Chem.BondType.SINGLE: 1, Chem.BondType.DOUBLE: 2, Chem.BondType.TRIPLE: 3}
    if any(b.GetBondType() not in order for b in kek.GetBonds()):
        return None
    pi = sum(order[b.GetBondType()] - 1 for b in kek.GetBonds())
    triple = sum(1 for b in kek.GetBonds() if b.GetBondType() == Chem.BondType.TRIPLE)
    hyb = {"sp3": 0, "sp2": 0, "sp": 0}
    carbonyl = 0
    for atom in kek.GetAtoms():
        if atom.GetSymbol() != "C":
            continue
        multiple = [order[b.GetBondType()] - 1 for b in atom.GetBonds()]
        extra = sum(multiple)
        hyb["sp3" if extra == 0 else "sp2" if extra == 1 else "sp"] += 1
        if any(
            b.GetBondType() != Chem.BondType.SINGLE and b.GetOtherAtom(atom).GetSymbol() != "C"
            for b in atom.GetBonds()
        ):
            carbonyl += 1
    ring_info = mol.GetRingInfo()
    benzene = sum(
        1
        for ring in ring_info.AtomRings()
        if len(ring) == 6
        and all(mol.GetAtomWithIdx(i).GetIsAromatic() for i in ring)
        and all(mol.GetAtomWithIdx(i).GetSymbol() == "C" for i in ring)
    )
    hydrogens = elements.get("H", 0)
    return Counted(
        molecule=m,
        formula=formula,
        elements=tuple(elements.items()),
        atoms=sum(elements.values()),
        hydrogens=hydrogens,
        dbe=int(dbe),
        pi=pi,
        triple=triple,
        rings=int(dbe) - pi,
        benzene_rings=benzene,
        sp3=hyb["sp3"],
        sp2=hyb["sp2"],
        sp=hyb["sp"],
        carbonyl_carbons=carbonyl,
    )


@cache
def counted(data_dir: Path) -> tuple[Counted, ...]:
    found = (_counted(m) for m in molecules(data_dir))
    return tuple(c for c in found if c is not None and c.rings >= 0)


def _options(
    rng: random.Random, key: str, mistakes: Sequence[str]
) -> tuple[str, str, str, str] | None:
    """The key and the first three mistakes that differ from it and each other (in the order
    given: the likeliest first), shuffled; None when there are not three."""
    chosen: list[str] = []
    for m in mistakes:
        if len(chosen) < 3 and not options_clash([key, *chosen, m]):
            chosen.append(m)
    return four_options(rng, key, chosen) if len(chosen) == 3 else None


def _pooled(
    data_dir: Path,
    keep: Callable[[Counted], bool],
    ask: Callable[[Counted, random.Random], OrganicQuestion | None],
    by_formula: bool = False,
    rings: int = 1,
) -> Callable[[int], OrganicQuestion | None]:
    """A template's draw: the seed's compound of those kept, and a generator seeded by both,
    put to `ask`; None once the pool's variants are spent."""

    def draw(seed: int) -> OrganicQuestion | None:
        pool = [c for c in counted(data_dir) if keep(c)]
        # One compound per formula (and ring count, unless rings=0): the question shows no
        # structure.
        if by_formula:
            pool = list({(c.formula, c.rings * rings): c for c in reversed(pool)}.values())[::-1]
        if not pool or seed // len(pool) >= VARIANTS:
            return None
        return ask(pool[seed % len(pool)], random.Random(f"{KIND}.{seed}.{len(pool)}"))

    return draw


def _of_compound(
    c: Counted, stem: str, options: tuple[str, str, str, str], key: str, explanation: str
) -> OrganicQuestion:
    """A single-correct question about one compound of the table, its structure drawn."""
    return OrganicQuestion(
        format=QuestionFormat.SINGLE_CORRECT,
        stem=stem,
        options=options,
        correct=key,
        explanation=explanation,
        group=c.molecule.molecule_id,
        structures=StructureSpec.of(c.molecule.smiles),
        alt=ONE_ALT,
        params=(("molecule", c.molecule.molecule_id),),
    )


# -- σ and π ----------------------------------------------------------------------------------


def _sp(sigma: int, pi: int) -> str:
    return f"{sigma} σ, {pi} π"


def _sigma_pi(
    data_dir: Path, keep: Callable[[Counted], bool]
) -> Callable[[int], OrganicQuestion | None]:
    def ask(c: Counted, rng: random.Random) -> OrganicQuestion | None:
        s, p = c.sigma, c.pi
        mistakes = [
            _sp(s - c.hydrogens, p),  # the bonds to hydrogen forgotten
            _sp(s + p, p),  # each π bond counted as a σ bond too
            _sp(s, p + 3 * c.benzene_rings) if c.benzene_rings else "",  # a ring as 6 π
            _sp(s, p - c.triple) if c.triple else "",  # a triple bond as one π
            _sp(s + p, 0),  # every line counted as a σ bond
            _sp(s - c.rings, p) if c.rings else "",  # the bond closing a ring forgotten
            _sp(s - 1, p + 1),
            _sp(s + 1, p),
        ]
        key = _sp(s, p)
        options = _options(rng, key, [m for m in mistakes if m and "-" not in m])
        if options is None:
            return None
        return _of_compound(
            c,
            SIGMA_PI_STEM,
            options,
            key,
            (
                f"Every bond has one σ bond, a double bond adds one π and a triple bond two. "
                f"In {c.molecule.iupac} ({subscripted(c.formula)}) there are {s} σ bonds (its "
                f"{c.hydrogens} bonds to hydrogen included) and {p} π bond(s)."
            ),
        )

    return _pooled(data_dir, keep, ask)


# -- hybridisation ----------------------------------------------------------------------------


def _triple(a: int, b: int, c: int) -> str:
    return f"{a}, {b}, {c}"


def _hybrid(
    data_dir: Path, keep: Callable[[Counted], bool]
) -> Callable[[int], OrganicQuestion | None]:
    def ask(c: Counted, rng: random.Random) -> OrganicQuestion | None:
        a, b, s = c.sp3, c.sp2, c.sp
        x = c.carbonyl_carbons
        mistakes = [
            _triple(a, b + s, 0) if s else "",  # a triple-bond carbon taken for sp²
            _triple(a + x, b - x, s) if x and b >= x else "",  # C=O carbons taken for sp³
            _triple(b, a, s) if a != b else "",  # sp³ and sp² swapped
            _triple(a - 1, b + 1, s) if a else "",
            _triple(a + 1, b - 1, s) if b else "",
            _triple(a, b - 1, s + 1) if b else "",
            _triple(a, s, b) if s and s != b else "",  # sp² and sp swapped
        ]
        key = _triple(a, b, s)
        options = _options(rng, key, [m for m in mistakes if m])
        if options is None:
            return None
        return _of_compound(
            c,
            HYBRID_STEM,
            options,
            key,
            (
                "A carbon with four single bonds is sp³, one with a double bond (or in a benzene "
                "ring) sp², one with a triple bond or two double bonds sp. "
                f"In {c.molecule.iupac} there are {a} sp³, {b} sp² and {s} sp carbon atoms."
            ),
        )

    return _pooled(data_dir, keep, ask)


def _pick(
    data_dir: Path, stem: str, fits: Callable[[Counted], bool], why: str
) -> Callable[[int], OrganicQuestion | None]:
    """Four structures of which exactly one fits."""

    def ask(c: Counted, rng: random.Random) -> OrganicQuestion | None:
        others = [o for o in counted(data_dir) if not fits(o) and o.carbons >= 2]
        near = sorted({o.molecule.smiles for o in others if abs(o.carbons - c.carbons) <= 2})
        if len(near) < 3:
            return None
        rng.shuffle(near)
        panels = [c.molecule.smiles, *near[:3]]
        rng.shuffle(panels)
        at = panels.index(c.molecule.smiles)
        spec = StructureSpec(
            panels=tuple(
                StructurePanel(smiles=s, label=lab) for s, lab in zip(panels, LETTERS, strict=True)
            )
        )
        return OrganicQuestion(
            format=QuestionFormat.SINGLE_CORRECT,
            stem=stem,
            options=LETTERS,
            correct=LETTERS[at],
            explanation=f"Structure {LETTERS[at]} ({c.molecule.iupac}) {why}",
            group=c.molecule.molecule_id,
            structures=spec,
            alt=FOUR_ALT,
            params=(("molecule", c.molecule.molecule_id),),
        )

    return _pooled(data_dir, fits, ask)


# -- double bond equivalent -------------------------------------------------------------------


def _numbers(
    rng: random.Random, key: int, mistakes: Sequence[int]
) -> tuple[str, str, str, str] | None:
    wrong = [str(m) for m in mistakes if m >= 0 and m != key]
    return _options(rng, str(key), list(dict.fromkeys(wrong)))


def _dbe_structure(data_dir: Path) -> Callable[[int], OrganicQuestion | None]:
    def ask(c: Counted, rng: random.Random) -> OrganicQuestion | None:
        d = c.dbe
        mistakes = [c.pi, c.rings, d + 3 * c.benzene_rings, d + 1, d - 1, d + 2]
        key = str(d)
        options = _numbers(rng, d, [m for m in mistakes if m != d])
        if options is None:
            return None
        return _of_compound(
            c,
            DBE_STRUCTURE_STEM,
            options,
            key,
            (
                f"The compound is {subscripted(c.formula)}; its double bond equivalent "
                f"C − (H + X)/2 + N/2 + 1 is {d}: each ring and each π bond counts one "
                f"({c.rings} ring(s), {c.pi} π bond(s))."
            ),
        )

    return _pooled(data_dir, lambda c: c.dbe >= 1 and c.carbons <= 10, ask)


def _dbe_formula(data_dir: Path) -> Callable[[int], OrganicQuestion | None]:
    def ask(c: Counted, rng: random.Random) -> OrganicQuestion | None:
        el = dict(c.elements)
        d = c.dbe
        n, x = el.get("N", 0), sum(el.get(h, 0) for h in HALOGENS)
        mistakes = [
            d - 1,  # the +1 forgotten
            d - n if n else -1,  # N/2 subtracted instead of added
            d + x // 2 if x >= 2 else -1,  # halogens not counted with hydrogen
            d + 1,
            d + 2,
            d - 2,
        ]
        key = str(d)
        options = _numbers(rng, d, mistakes)
        if options is None:
            return None
        return OrganicQuestion(
            format=QuestionFormat.SINGLE_CORRECT,
            stem=(
                "The double bond equivalent (degree of unsaturation) of a compound of molecular "
                f"formula {subscripted(c.formula)} is"
            ),
            options=options,
            correct=key,
            explanation=(
                f"Double bond equivalent = C − (H + X)/2 + N/2 + 1 = {d} for "
                f"{subscripted(c.formula)} (oxygen does not change it)."
            ),
            group=c.formula,
            params=(("formula", c.formula),),
        )

    return _pooled(data_dir, lambda c: c.dbe >= 1, ask, by_formula=True, rings=0)


def _pi_from_formula(data_dir: Path, benzene: bool) -> Callable[[int], OrganicQuestion | None]:
    """DBE from the formula, then the rings taken away: π bonds (outside a benzene ring)."""

    def keep(c: Counted) -> bool:
        if benzene:
            return c.benzene_rings == 1 and c.rings == 1 and c.pi >= 4
        return 1 <= c.rings <= max(RING_WORDS) and c.pi >= 1

    def ask(c: Counted, rng: random.Random) -> OrganicQuestion | None:
        d = c.dbe
        formula = subscripted(c.formula)
        if benzene:
            key = c.pi - 3
            stem = (
                f"A compound of molecular formula {formula} contains one benzene ring and no "
                "other ring. The number of π bonds outside its benzene ring is"
            )
            mistakes = [d, d - 1, c.pi, key + 1, key + 2]
            why = (
                f"Double bond equivalent = {d}; the benzene ring takes 4 of it (one ring and "
                f"three π bonds), leaving {key} π bond(s) outside the ring."
            )
        else:
            key = c.pi
            stem = (
                f"A compound of molecular formula {formula} contains {RING_WORDS[c.rings]}. "
                "The number of π bonds in it is"
            )
            mistakes = [d, d + c.rings, key - 1, key + 1, key + 2, 2 * key]
            why = (
                f"Double bond equivalent = C − (H + X)/2 + N/2 + 1 = {d}; each ring counts one, "
                f"so {d} − {c.rings} = {key} π bond(s)."
            )
        correct = str(key)
        options = _numbers(rng, key, mistakes)
        if options is None:
            return None
        return OrganicQuestion(
            format=QuestionFormat.SINGLE_CORRECT,
            stem=stem,
            options=options,
            correct=correct,
            explanation=why,
            group=f"{c.formula}-{c.rings}",
            params=(("formula", c.formula),),
        )

    return _pooled(data_dir, keep, ask, by_formula=True)


def _tid(name: str) -> str:
    return f"organic.{KIND}.{name}"


def _small(c: Counted) -> bool:
    return c.rings == 0 and c.carbons <= 4 and c.pi >= 1


def _large(c: Counted) -> bool:
    return c.rings >= 1 and c.pi >= 1 and c.atoms <= 30


def _all_sp2(c: Counted) -> bool:
    return c.sp3 == 0 and c.sp == 0 and c.sp2 >= 2


def _has_sp(c: Counted) -> bool:
    return c.sp >= 1


@cache
def bonds_templates(data_dir: Path) -> tuple[OrganicTemplate, ...]:
    return (
        OrganicTemplate(
            _tid("sigma-pi-small"),
            "che-tetravalency-of-carbon",
            Demand(),
            _sigma_pi(data_dir, _small),
        ),
        OrganicTemplate(
            _tid("sigma-pi-ring"),
            "che-tetravalency-of-carbon",
            Demand(steps=2),
            _sigma_pi(data_dir, _large),
        ),
        OrganicTemplate(
            _tid("hybrid-count-small"),
            "che-tetravalency-of-carbon",
            Demand(),
            _hybrid(data_dir, lambda c: c.carbons <= 4 and c.rings == 0 and c.sp2 + c.sp > 0),
        ),
        OrganicTemplate(
            _tid("hybrid-count-large"),
            "che-tetravalency-of-carbon",
            Demand(near_miss=True),
            _hybrid(
                data_dir,
                lambda c: c.carbons >= 5 and sum(1 for n in (c.sp3, c.sp2, c.sp) if n) >= 2,
            ),
        ),
        OrganicTemplate(
            _tid("pick-all-sp2"),
            "che-tetravalency-of-carbon",
            Demand(reversed=True),
            _pick(
                data_dir,
                ALL_SP2_STEM,
                _all_sp2,
                "has only carbons with a double bond or in "
                "a benzene ring (sp²); each of the others has an sp³ or sp carbon.",
            ),
        ),
        OrganicTemplate(
            _tid("pick-sp"),
            "che-tetravalency-of-carbon",
            Demand(reversed=True),
            _pick(
                data_dir,
                HAS_SP_STEM,
                _has_sp,
                "has a carbon with a triple bond (or two "
                "double bonds), which is sp; the others have only sp³ and sp² carbons.",
            ),
        ),
        OrganicTemplate(
            _tid("dbe-of-structure"),
            "che-formulae-from-analysis",
            Demand(),
            _dbe_structure(data_dir),
        ),
        OrganicTemplate(
            _tid("dbe-of-formula"),
            "che-formulae-from-analysis",
            Demand(),
            _dbe_formula(data_dir),
        ),
        OrganicTemplate(
            _tid("pi-bonds-from-formula"),
            "che-formulae-from-analysis",
            Demand(steps=2),
            _pi_from_formula(data_dir, benzene=False),
        ),
        OrganicTemplate(
            _tid("pi-bonds-beside-benzene"),
            "che-formulae-from-analysis",
            Demand(steps=2, concepts=2),
            _pi_from_formula(data_dir, benzene=True),
        ),
    )
