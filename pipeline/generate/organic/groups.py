"""Statement sets over drawn amines: four amines shown (P, Q, R, S), one claim of degree about
each, and the NTA's code of the true claims ("A and C only") to choose.

Every false claim is a near miss: the amine's degree moved by one (primary read as secondary,
secondary as primary or tertiary, tertiary as secondary), the misreading a student makes who
counts the nitrogen's carbons wrongly. The codes offered all name as many statements as the
key's, and each statement is named by exactly two of them, so none stands out by its
length or by how often its letters recur. The solver (pipeline.verify.organic.groups) checks each
claim with its own substructure rules.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from rdkit import Chem

from core.figures import StructurePanel, StructureSpec
from core.records import QuestionFormat
from pipeline.generate.fact_formats import statement_code
from pipeline.generate.organic.compounds import Compound, compounds
from pipeline.generate.organic.template import OrganicQuestion, four_options

KIND = "naming"
LETTERS = ("P", "Q", "R", "S")
CLAIM_LETTERS = ("A", "B", "C", "D")
DEGREE = {1: "primary", 2: "secondary", 3: "tertiary"}
STEM = "Consider the following statements about the compounds shown:"
CLOSING = "Choose the correct answer from the options given below:"
ALT = "Four structural formulae labelled (P), (Q), (R) and (S)."
# Distinct four-amine sets drawn before the template stops.
DRAWS = 60


def _amines(data_dir: Path) -> list[Compound]:
    return [c for c in compounds(data_dir) if c.family == "amine" and c.amine_degree in DEGREE]


def _balanced_codes(rng: random.Random, key: list[str]) -> tuple[str, str, str, str]:
    """The key (two letters), its complement and another complementary pair, shuffled: every
    statement is then named by exactly two options, so no letter's frequency points to the key."""
    complement = [c for c in CLAIM_LETTERS if c not in key]
    pairings = [
        [["A", x], [c for c in CLAIM_LETTERS if c not in ("A", x)]] for x in CLAIM_LETTERS[1:]
    ]
    other_pairings = [p for p in pairings if key not in p]
    wrong = [complement, *rng.choice(other_pairings)]
    return four_options(rng, statement_code(key), [statement_code(x) for x in wrong])


def amine_statements(data_dir: Path, seed: int) -> OrganicQuestion | None:
    """Four amines, four degree claims (two true, two one degree off)."""
    pool = _amines(data_dir)
    if seed >= DRAWS or len(pool) < 4:
        return None
    rng = random.Random(f"{KIND}.amine-statements.{seed}")
    by_degree = {
        d: sorted((c for c in pool if c.amine_degree == d), key=lambda c: c.name) for d in DEGREE
    }
    if any(len(v) < 1 for v in by_degree.values()):
        return None
    # Every degree shown at least once, so no claim is settled by the others.
    chosen = [rng.choice(by_degree[d]) for d in DEGREE]
    rest = [c for c in pool if c not in chosen]
    chosen.append(rng.choice(sorted(rest, key=lambda c: c.name)))
    rng.shuffle(chosen)
    truths = [True, True, False, False]
    rng.shuffle(truths)
    lines: list[str] = []
    notes: list[str] = []
    for letter, claim, c, true in zip(LETTERS, CLAIM_LETTERS, chosen, truths, strict=True):
        degree = c.amine_degree
        near = [d for d in (degree - 1, degree + 1) if d in DEGREE]
        said = degree if true else rng.choice(near)
        lines.append(f"{claim}. {letter} is a {DEGREE[said]} amine.")
        verdict = "correct" if true else "incorrect"
        notes.append(
            f"{claim} is {verdict}: the nitrogen of {letter} ({c.name}) carries {degree} carbon "
            f"group(s), so it is a {DEGREE[degree]} amine."
        )
    key = [c for c, t in zip(CLAIM_LETTERS, truths, strict=True) if t]
    options = _balanced_codes(rng, key)
    spec = StructureSpec(
        panels=tuple(
            StructurePanel(smiles=c.smiles, label=lab)
            for c, lab in zip(chosen, LETTERS, strict=True)
        )
    )
    stem = f"{STEM}\n\n" + "\n\n".join(lines) + f"\n\n{CLOSING}"
    explanation = (
        "An amine is primary, secondary or tertiary as one, two or three hydrogens of ammonia are "
        "replaced by alkyl or aryl groups. " + " ".join(notes)
    )
    return OrganicQuestion(
        format=QuestionFormat.MULTI_STATEMENT,
        stem=stem,
        options=options,
        correct=statement_code(key),
        explanation=explanation,
        group="amine-statements." + ".".join(sorted(c.molecule.molecule_id for c in chosen)),
        structures=spec,
        alt=ALT,
        params=(("molecules", ",".join(c.molecule.molecule_id for c in chosen)),),
    )


# The groups claimed, worded as NCERT names them, and the near misses a student makes for each:
# another reading of the same C=O, O or N.
GROUP_PHRASE = {
    "carboxyl": "a carboxyl group",
    "ester": "an ester group",
    "keto": "a keto group",
    "aldehyde": "an aldehyde group",
    "alcoholic hydroxyl": "an alcoholic hydroxyl group",
    "phenolic hydroxyl": "a phenolic hydroxyl group",
    "ether": "an ether linkage",
    "primary amino": "a primary amino group",
    "amide": "an amide group",
    "nitro": "a nitro group",
}
NEAR_MISS = {
    "carboxyl": ("ester", "aldehyde", "keto", "alcoholic hydroxyl"),
    "ester": ("ether", "keto", "carboxyl"),
    "keto": ("aldehyde", "ester", "carboxyl"),
    "aldehyde": ("keto", "carboxyl"),
    "alcoholic hydroxyl": ("phenolic hydroxyl", "ether"),
    "phenolic hydroxyl": ("alcoholic hydroxyl",),
    "ether": ("ester", "alcoholic hydroxyl"),
    "primary amino": ("amide", "nitro"),
    "amide": ("primary amino",),
    "nitro": ("primary amino",),
}
WHY = {
    "carboxyl": "–COOH, an –OH on a C=O carbon",
    "ester": "–COO– joining the C=O carbon to another carbon through oxygen",
    "keto": "a C=O carbon between two carbons",
    "aldehyde": "–CHO, a C=O carbon carrying a hydrogen",
    "alcoholic hydroxyl": "an –OH on an sp³ carbon",
    "phenolic hydroxyl": "an –OH on a benzene-ring carbon",
    "ether": "C–O–C with neither carbon a C=O carbon",
    "primary amino": "–NH₂ on a carbon that is not a C=O carbon",
    "amide": "–CO–N<, a nitrogen on a C=O carbon",
    "nitro": "–NO₂, nitrogen bonded to carbon and two oxygens",
}
ONE_STEM = "Consider the following statements about the compound shown:"
ONE_ALT = "The structural formula of one organic compound."
# Statement sets drawn per compound before the template moves on.
GROUP_VARIANTS = 2


def _carbonyl(atom: Chem.Atom) -> bool:
    return atom.GetSymbol() == "C" and any(
        b.GetBondType() == Chem.BondType.DOUBLE and b.GetOtherAtom(atom).GetSymbol() == "O"
        for b in atom.GetBonds()
    )


def groups_found(smiles: str) -> frozenset[str] | None:
    """The claimable groups of the structure, by a walk over its atoms; None when it has an
    atom this walk does not classify (S, P, a nitrile's N, an enol, an anhydride…)."""
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return None
    found: set[str] = set()
    for a in mol.GetAtoms():
        sym = a.GetSymbol()
        heavy = list(a.GetNeighbors())
        if sym in ("C", "F", "Cl", "Br", "I"):
            if sym == "C" and _carbonyl(a):
                if a.GetIsAromatic():
                    return None  # a ring C=O (tropolone, a pyridone): no textbook group
                others = [
                    b.GetOtherAtom(a)
                    for b in a.GetBonds()
                    if b.GetBondType() == Chem.BondType.SINGLE
                ]
                hetero = [n.GetSymbol() for n in others if n.GetSymbol() != "C"]
                if hetero == ["O"]:
                    o = next(n for n in others if n.GetSymbol() == "O")
                    found.add("carboxyl" if o.GetTotalNumHs() == 1 else "ester")
                elif hetero == ["N"]:
                    found.add("amide")
                elif hetero:
                    return None
                else:
                    found.add("keto" if len(others) == 2 else "aldehyde")
            continue
        if a.GetIsAromatic():
            return None  # a ring O or N (furan, pyridine): not a group this question names
        if sym == "O":
            if a.GetDegree() == 1 and a.GetTotalNumHs() == 1:
                c = heavy[0]
                if _carbonyl(c):
                    continue  # the carboxyl's OH
                if c.GetIsAromatic():
                    found.add("phenolic hydroxyl")
                elif c.GetHybridization() == Chem.HybridizationType.SP3:
                    found.add("alcoholic hydroxyl")
                else:
                    return None
            elif a.GetDegree() == 2 and all(n.GetSymbol() == "C" for n in heavy):
                if not any(_carbonyl(n) for n in heavy):
                    found.add("ether")
            elif a.GetDegree() == 1 and (_carbonyl(heavy[0]) or heavy[0].GetSymbol() == "N"):
                continue  # a C=O oxygen, or a nitro oxygen
            else:
                return None
            continue
        if sym == "N":
            oxygens = [n for n in heavy if n.GetSymbol() == "O"]
            if a.GetFormalCharge() == 1 and len(oxygens) == 2 and a.GetDegree() == 3:
                found.add("nitro")
            elif any(_carbonyl(n) for n in heavy) and not a.GetIsAromatic():
                continue  # the amide's N (its C=O carbon is counted above)
            elif (
                a.GetDegree() == 1
                and a.GetTotalNumHs() == 2
                and a.GetFormalCharge() == 0
                and heavy[0].GetSymbol() == "C"
            ):
                found.add("primary amino")
            else:
                return None
            continue
        return None
    return frozenset(found)


@cache
def _polyfunctional(data_dir: Path) -> tuple[tuple[Compound, frozenset[str]], ...]:
    """Compounds with two or more claimable groups and two or more near misses absent."""
    out: list[tuple[Compound, frozenset[str]]] = []
    for c in sorted(compounds(data_dir), key=lambda c: c.molecule.molecule_id):
        found = groups_found(c.smiles)
        if found is None or len(found) < 2:
            continue
        if len(_near(found)) >= 2:
            out.append((c, found))
    return tuple(out)


def _near(found: frozenset[str]) -> list[str]:
    return sorted({m for g in found for m in NEAR_MISS[g]} - found)


def _group_note(claim: str, group: str, true: bool, found: frozenset[str]) -> str:
    noun = GROUP_PHRASE[group].split(" ", 1)[1]
    if true:
        return f"{claim} is correct: the {noun} ({WHY[group]}) is present."
    source = next(g for g in sorted(found) if group in NEAR_MISS[g])
    return (
        f"{claim} is incorrect: there is no {noun} ({WHY[group]}); what the structure has "
        f"instead is the {GROUP_PHRASE[source].split(' ', 1)[1]}."
    )


def group_statements(data_dir: Path, seed: int) -> OrganicQuestion | None:
    """One polyfunctional compound, four claims of a group it contains: two true, two false,
    each false one a near miss for a group drawn."""
    pool = _polyfunctional(data_dir)
    if seed >= GROUP_VARIANTS * len(pool):
        return None
    c, found = pool[seed % len(pool)]
    rng = random.Random(f"{KIND}.group-statements.{seed}")
    said = [*rng.sample(sorted(found), 2), *rng.sample(_near(found), 2)]
    truths = [True, True, False, False]
    order = list(range(4))
    rng.shuffle(order)
    said = [said[i] for i in order]
    truths = [truths[i] for i in order]
    lines = [
        f"{claim}. The compound shown contains {GROUP_PHRASE[g]}."
        for claim, g in zip(CLAIM_LETTERS, said, strict=True)
    ]
    notes = [
        _group_note(claim, g, t, found)
        for claim, g, t in zip(CLAIM_LETTERS, said, truths, strict=True)
    ]
    key = [c for c, t in zip(CLAIM_LETTERS, truths, strict=True) if t]
    options = _balanced_codes(rng, key)
    stem = f"{ONE_STEM}\n\n" + "\n\n".join(lines) + f"\n\n{CLOSING}"
    explanation = (
        f"The compound shown is {c.name}; a group is named by the atoms it is bonded to. "
        + " ".join(notes)
    )
    return OrganicQuestion(
        format=QuestionFormat.MULTI_STATEMENT,
        stem=stem,
        options=options,
        correct=statement_code(key),
        explanation=explanation,
        group="group-statements." + c.molecule.molecule_id,
        structures=StructureSpec.of(c.smiles),
        alt=ONE_ALT,
        params=(("molecule", c.molecule.molecule_id),),
    )
