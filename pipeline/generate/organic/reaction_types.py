"""Type-of-reaction questions (che-types-of-organic-reactions, NCERT Class 11 Unit 8): the
authored conversions of `reactions.json` classified as substitution, addition or elimination with
the attacking species where NCERT states it (halogenation of alkanes: free radical; arenes:
electrophilic substitution; haloalkanes with nucleophiles: nucleophilic substitution; HX, X₂ and
acid-catalysed water on alkenes: electrophilic addition, HBr with peroxide: free radical; HCN and
Grignard reagents on carbonyls: nucleophilic addition; alc. KOH on haloalkanes and acid on
alcohols: elimination).

- match (Hard): Match List-I (four conversions) with List-II (their types), the wrong codings the
  key with two separate pairs of close rows swapped, alone and together (`square_codings`);
- claims (Hard): four statements "The conversion … is a … reaction", each false one naming a
  close type (the other species of the same type, or substitution for elimination from a
  haloalkane with KOH), coded "A, B and D only";
- type (Medium): the conversion shown is an example of …, one distractor a close type;
- type-far (Easy): the same, no distractor close to the key.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import TYPE_CHECKING

from core.records import QuestionFormat
from pipeline.difficulty import Demand
from pipeline.generate.fact_formats import (
    MULTI_STATEMENT_STEM,
    coding_demand,
    match_code,
    pair_swaps,
    same_size_codes,
    statement_code,
)
from pipeline.generate.organic.template import OrganicQuestion, OrganicTemplate, four_options
from pipeline.verify.gate import options_clash

if TYPE_CHECKING:
    from pipeline.generate.organic.reactions import Step, Table

TOPIC = "che-types-of-organic-reactions"
ROMAN = ("I", "II", "III", "IV")
FRS, ES, NS = "Free radical substitution", "Electrophilic substitution", "Nucleophilic substitution"
EA, FRA, NA = "Electrophilic addition", "Free radical addition", "Nucleophilic addition"
EL = "Elimination"
# The NCERT class of each authored reaction that NCERT classifies (others are never asked).
CLASS_OF = {
    "chlorination-alkane": FRS,
    "bromination-alkane": FRS,
    **dict.fromkeys(
        (
            "nitration",
            "chlorination-benzene",
            "bromination-benzene",
            "sulphonation",
            "fc-methylation",
            "fc-ethylation",
            "fc-acylation",
            "haloarene-nitration",
            "haloarene-chlorination",
            "haloarene-methylation",
            "haloarene-acylation",
            "phenol-bromine-water",
            "picric",
            "kolbe",
            "aniline-bromine-water",
        ),
        ES,
    ),
    **dict.fromkeys(("aq-koh", "kcn", "finkelstein", "williamson", "dow"), NS),
    **dict.fromkeys(("markovnikov-hbr", "markovnikov-hcl", "bromine-addition", "hydration"), EA),
    "peroxide-hbr": FRA,
    **dict.fromkeys(("hcn-addition", "grignard-methyl", "grignard-ethyl"), NA),
    **dict.fromkeys(("alc-koh", "dehydration", "dihalide-alkyne", "aldol-dehydration"), EL),
}
WHY = {
    FRS: "a hydrogen of the alkane is replaced by a halogen in light, by a free radical chain",
    ES: "a hydrogen of the aromatic ring is replaced by an electrophile",
    NS: "the halogen is replaced by a nucleophile",
    EA: "the reagent adds across the multiple bond, an electrophile attacking first",
    FRA: "with a peroxide HBr adds by a free radical chain (anti-Markovnikov, peroxide effect)",
    NA: "the nucleophile adds to the carbonyl carbon",
    EL: "atoms are removed from adjacent carbons, forming a multiple bond",
}
SPECIES = ("electrophilic", "nucleophilic", "free radical")
KINDS = ("substitution", "addition")
HARD_MATCH = Demand(claims=4, near_miss=True, all_near=True)
CLOSE = Demand(near_miss=True)
EASY = Demand()
SINGLE_STEM = "is an example of"


def _near(a: str, b: str) -> bool:
    """Two types a student confuses: one type with another species, one species with another
    type, or elimination against nucleophilic substitution (a haloalkane with KOH)."""
    words = {w for w in (*SPECIES, *KINDS) if w in a.lower() and w in b.lower()}
    return a != b and (bool(words) or {a, b} == {EL, NS})


def _article(cls: str) -> str:
    return "an" if cls[0].lower() in "aeiou" else "a"


def _conversion(t: Table, step: Step) -> str:
    return (
        f"{t.compounds[step.substrate].name} —[{step.reaction.reagent}]→ "
        f"{t.compounds[step.products[0]].name}"
    )


def _why(t: Table, step: Step) -> str:
    cls = CLASS_OF[step.reaction.reaction_id]
    return f"{_conversion(t, step)}: {WHY[cls]}, so it is {_article(cls)} {cls.lower()} reaction."


def _group(kind: str, steps: list[Step]) -> str:
    return f"{kind}|" + "|".join(sorted(f"{s.reaction.reaction_id}:{s.substrate}" for s in steps))


def _match_question(t: Table, by_class: dict[str, list[Step]], seed: int) -> OrganicQuestion | None:
    rng = random.Random(seed)
    close = [(a, b) for a in sorted(by_class) for b in sorted(by_class) if a < b and _near(a, b)]
    first = rng.choice(close)
    rest = [p for p in close if not set(p) & set(first)]
    if not rest:
        return None
    classes = [*first, *rng.choice(rest)]
    # Elimination pairs with nucleophilic substitution only: both a haloalkane with KOH.
    pools = [
        [s for s in by_class[c] if c != EL or s.reaction.reaction_id == "alc-koh"] for c in classes
    ]
    steps = [rng.choice(pool) for pool in pools]
    if len({s.substrate for s in steps}) < 4:
        return None
    order = list(range(4))
    rng.shuffle(order)
    rows = [steps[i] for i in order]
    row_of = {i: order.index(i) for i in range(4)}  # class index -> row
    values = classes[:]
    rng.shuffle(values)
    truth = [ROMAN[values.index(CLASS_OF[s.reaction.reaction_id])] for s in rows]

    pairs = ((row_of[0], row_of[1]), (row_of[2], row_of[3]))
    codings = [match_code(truth), *(match_code(w) for w in pair_swaps(truth, pairs))]
    key = codings[0]
    options = four_options(rng, key, codings[1:])
    table_rows = "\n".join(
        f"| {k}. | {_conversion(t, s)} | {r}. | {v} |"
        for k, s, r, v in zip("ABCD", rows, ROMAN, values, strict=True)
    )
    stem = (
        "Match List-I with List-II:\n\n"
        "| | List-I (conversion) | | List-II (type of reaction) |\n"
        f"|---|---|---|---|\n{table_rows}\n\n"
        "Choose the correct answer from the options given below:"
    )
    explanation = "\n\n".join(
        f"**{k}.** {_why(t, s)} ({r})" for k, s, r in zip("ABCD", rows, truth, strict=True)
    )
    return OrganicQuestion(
        format=QuestionFormat.MATCH_LIST,
        stem=stem,
        options=options,
        correct=key,
        explanation=explanation,
        group=_group("match", rows),
        demand=coding_demand(key, codings[1:]),
    )


def _claims_question(
    t: Table, by_class: dict[str, list[Step]], seed: int
) -> OrganicQuestion | None:
    rng = random.Random(seed)
    classes = rng.sample(sorted(by_class), 4)
    steps = [rng.choice(by_class[c]) for c in classes]
    if len({s.substrate for s in steps}) < 4:
        return None
    n_true = 2 + seed % 2
    lines, notes, shown = [], [], []
    for i, (cls, step) in enumerate(zip(classes, steps, strict=True)):
        said = cls
        if i >= n_true:
            close = [c for c in sorted(by_class) if _near(cls, c)]
            if cls == EL and step.reaction.reaction_id != "alc-koh":
                close = [c for c in close if c != NS]  # KOH's two courses: haloalkanes only
            if not close:
                return None
            said = rng.choice(close)
        shown.append((step, said, i < n_true))
    rng.shuffle(shown)
    for letter, (step, said, true) in zip("ABCD", shown, strict=True):
        lines.append(
            f"{letter}. The conversion {_conversion(t, step)} is {_article(said)} "
            f"{said.lower()} reaction."
        )
        verdict = "correct" if true else "incorrect"
        notes.append(f"{letter} is {verdict}: {_why(t, step)}")
    key = [c for c, (_, _, true) in zip("ABCD", shown, strict=True) if true]
    all_sets = [[c for i, c in enumerate("ABCD") if mask >> i & 1] for mask in range(1, 16)]
    others = [x for x in all_sets if x != key and len(x) == len(key)]
    wrong = rng.sample(others, 3)
    codes = [statement_code(x) for x in [key, *wrong]]
    rng.shuffle(codes)
    stem = (
        f"{MULTI_STATEMENT_STEM}\n\n" + "\n\n".join(lines) + "\n\n"
        "Choose the correct answer from the options given below:"
    )
    all_close = same_size_codes(statement_code(key), [statement_code(x) for x in wrong])
    return OrganicQuestion(
        format=QuestionFormat.MULTI_STATEMENT,
        stem=stem,
        options=(codes[0], codes[1], codes[2], codes[3]),
        correct=statement_code(key),
        explanation="\n\n".join(notes),
        group=_group("claims", steps),
        demand=Demand(claims=4, near_miss=True, all_near=all_close),
    )


def _single_question(t: Table, step: Step, seed: int, near: bool) -> OrganicQuestion | None:
    """One conversion's type; `near`: one distractor a close type (Medium), else none (Easy)."""
    rng = random.Random(seed)
    cls = CLASS_OF[step.reaction.reaction_id]
    classes = sorted(set(CLASS_OF.values()) - {cls})
    close = [c for c in classes if _near(cls, c)]
    if cls == EL and step.reaction.reaction_id != "alc-koh":
        close = [c for c in close if c != NS]
    far = [c for c in classes if c not in close]
    if near and close:
        first = rng.choice(close)
        options = four_options(
            rng, cls, [first, *rng.sample([c for c in classes if c != first], 2)]
        )
    elif not near and len(far) >= 3:
        options = four_options(rng, cls, rng.sample(far, 3))
    else:
        return None
    if options_clash(options):
        return None
    stem = f"The conversion\n\n{_conversion(t, step)}\n\n{SINGLE_STEM}"
    return OrganicQuestion(
        format=QuestionFormat.SINGLE_CORRECT,
        stem=stem,
        options=options,
        correct=cls,
        explanation=_why(t, step),
        group=_group("single", [step]),
        demand=CLOSE if near else EASY,
    )


def types_templates(t: Table, kind: str) -> tuple[OrganicTemplate, ...]:
    """The type-of-reaction templates over the authored single-product conversions."""
    steps = [s for s in t.steps if s.reaction.reaction_id in CLASS_OF and len(s.products) == 1]
    by_class: dict[str, list[Step]] = defaultdict(list)
    for s in steps:
        by_class[CLASS_OF[s.reaction.reaction_id]].append(s)

    short = TOPIC.removeprefix("che-")
    return (
        OrganicTemplate(
            template_id=f"organic.{kind}.match-{short}",
            topic_id=TOPIC,
            demand=HARD_MATCH,
            draw=lambda seed: _match_question(t, by_class, seed),
        ),
        OrganicTemplate(
            template_id=f"organic.{kind}.claims-{short}",
            topic_id=TOPIC,
            demand=HARD_MATCH,
            draw=lambda seed: _claims_question(t, by_class, seed),
        ),
        OrganicTemplate(
            template_id=f"organic.{kind}.type-{short}",
            topic_id=TOPIC,
            demand=CLOSE,
            draw=lambda seed: _single_question(t, steps[seed % len(steps)], seed, True),
        ),
        OrganicTemplate(
            template_id=f"organic.{kind}.type-far-{short}",
            topic_id=TOPIC,
            demand=EASY,
            draw=lambda seed: _single_question(t, steps[seed % len(steps)], seed, False),
        ),
    )
