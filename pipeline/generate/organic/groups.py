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
from pathlib import Path

from core.figures import StructurePanel, StructureSpec
from core.records import QuestionFormat
from pipeline.generate.fact_formats import statement_code
from pipeline.generate.organic.compounds import Compound, compounds
from pipeline.generate.organic.template import OrganicQuestion

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
    # The key, its complement and another complementary pair: every statement is then named by
    # exactly two options, so no letter's frequency points to the key.
    complement = [c for c in CLAIM_LETTERS if c not in key]
    pairings = [
        [["A", x], [c for c in CLAIM_LETTERS if c not in ("A", x)]] for x in CLAIM_LETTERS[1:]
    ]
    other_pairings = [p for p in pairings if key not in p]
    wrong = [complement, *rng.choice(other_pairings)]
    options = [statement_code(x) for x in [key, *wrong]]
    rng.shuffle(options)
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
        options=(options[0], options[1], options[2], options[3]),
        correct=statement_code(key),
        explanation=explanation,
        group="amine-statements." + ".".join(sorted(c.molecule.molecule_id for c in chosen)),
        structures=spec,
        alt=ALT,
        params=(("molecules", ",".join(c.molecule.molecule_id for c in chosen)),),
    )
