"""Naming questions over the compound table: structure to IUPAC name, name to structure, and the
class of a compound (functional class; primary, secondary, tertiary amines and alcohols).

Every option is a compound of the table, so a name option always names a different compound
from the one shown (isomers or compounds of other classes), never a wrong name of the same
structure: OPSIN, like a teacher, reads many wrong names as the right structure. The answers
come from the table (its IUPAC names and families) and from walks over the structure's atoms;
the solver (pipeline.verify.organic.naming) reads names with OPSIN and classes with its own
substructure rules.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from core.figures import StructurePanel, StructureSpec
from core.records import QuestionFormat
from kb.organic import subscripted
from kb.retrieval import content_tokens
from pipeline.difficulty import Demand
from pipeline.generate.organic.compounds import Compound, compounds
from pipeline.generate.organic.groups import amine_statements, group_statements
from pipeline.generate.organic.template import OrganicQuestion, OrganicTemplate, four_options
from pipeline.verify.gate import key_stands_out, options_clash

KIND = "naming"
LETTERS = ("P", "Q", "R", "S")
NAME_STEM = "The IUPAC name of the compound shown is"
# Variants (other distractor sets, other shuffles) drawn per compound before a template stops.
VARIANTS = 2

# The table's families (as NCERT names compound classes), normalised to the class names the
# functional-class question offers.
FAMILY_CLASS = {
    "alcohol": "alcohol",
    "phenol": "phenol",
    "ether": "ether",
    "aldehyde": "aldehyde",
    "ketone": "ketone",
    "carboxylic acid": "carboxylic acid",
    "ester": "ester",
    "amide": "amide",
    "amine": "amine",
    "nitrile": "nitrile",
}
# Families whose naming NCERT teaches in their own chapter: their isomer-naming questions are
# filed under that chapter's topic (every other family under che-iupac-nomenclature).
FAMILY_TOPIC = {
    "alkane": "che-alkanes",
    "alkene": "che-alkenes",
    "alkyne": "che-alkynes",
    "haloarene": "che-haloarenes",
    "aldehyde": "che-carbonyl-group",
    "ketone": "che-carbonyl-group",
    "carboxylic acid": "che-carboxylic-acids",
    "ether": "che-ethers",
}
CLASS_ARTICLE = {c: ("an " if c[0] in "aeiou" else "a ") + c for c in FAMILY_CLASS.values()}
AMINE_CLASSES = ("primary amine", "secondary amine", "tertiary amine", "quaternary ammonium salt")
ALCOHOL_CLASSES = ("primary alcohol", "secondary alcohol", "tertiary alcohol", "phenol")
DEGREE = {1: "primary", 2: "secondary", 3: "tertiary"}


def _pick(rng: random.Random, key: str, pools: Sequence[Sequence[str]], n: int = 3) -> list[str]:
    """n distractors, taken from the pools in order (each pool shuffled), none clashing."""
    chosen: list[str] = []
    for pool in pools:
        items = sorted(set(pool))
        rng.shuffle(items)
        for item in items:
            if len(chosen) < n and not options_clash([key, *chosen, item]):
                chosen.append(item)
    return chosen if len(chosen) == n and not key_stands_out(key, chosen) else []


ONE_ALT = "The structural formula of one organic compound."
FOUR_ALT = "Four structural formulae of organic compounds, each with its letter printed beneath."


# -- structure to name ------------------------------------------------------------------------


def _easy_name(table: tuple[Compound, ...], c: Compound, rng: random.Random) -> list[str]:
    if c.carbons > 6 or not c.one_unit or len(c.groups) > 1:
        return []
    others = [
        o
        for o in table
        if o.family != c.family and o.formula != c.formula and o.one_unit and len(o.groups) <= 1
    ]
    near = [o.name for o in others if o.carbons == c.carbons]
    close = [o.name for o in others if abs(o.carbons - c.carbons) == 1]
    return _pick(rng, c.name, [near, close])


def _isomer_names(table: tuple[Compound, ...], c: Compound) -> tuple[list[str], list[str]]:
    isomers = [o for o in table if o.formula == c.formula and o.canonical != c.canonical]
    same = [o.name for o in isomers if o.family == c.family]
    other = [o.name for o in isomers if o.family != c.family]
    return same, other


def _medium_name(table: tuple[Compound, ...], c: Compound, rng: random.Random) -> list[str]:
    if len(c.groups) > 1:
        return []
    same, other = _isomer_names(table, c)
    if not same or len(same) + len(other) < 2:
        return []
    return _pick(rng, c.name, [same, other])


def _hard_name(table: tuple[Compound, ...], c: Compound, rng: random.Random) -> list[str]:
    if len(c.groups) < 2 or c.groups <= {"halo", "alkene", "alkyne", "nitro", "ether"}:
        return []  # a principal group has to be chosen among two or more
    same, other = _isomer_names(table, c)
    if len(same) + len(other) < 2:
        return []
    parent = [
        o.name
        for o in table
        if o.family == c.family and o.carbons == c.carbons and o.canonical != c.canonical
    ]
    return _pick(rng, c.name, [same, other, parent])


NAME_EXPLAIN = {
    "easy": "The structure is {name} ({formula}): the parent name counts the carbons of its "
    "longest chain and the suffix names its class ({family}); the other options name compounds "
    "of other classes or chains.",
    "medium": "The structure is {name} ({formula}): the longest chain carrying the principal "
    "group is numbered to give it (then the substituents) the lowest locants. The other "
    "options name isomers of {formula} with other chains or positions.",
    "medium-ring": "The structure is {name} ({formula}): the benzene ring is numbered from the "
    "principal group (or to give the substituents the lowest locants, alphabetical order "
    "breaking a tie). The other options name isomers of {formula} with other positions or "
    "groups.",
    "hard": "The principal group ({family}) takes the suffix and the lowest locant, the other "
    "groups are prefixes in alphabetical order: the structure is {name} ({formula}). The "
    "other options name isomers or compounds with other positions.",
}


def _structure_to_name(
    data_dir: Path,
    level: str,
    distract: Callable[[tuple[Compound, ...], Compound, random.Random], list[str]],
    keep: Callable[[Compound], bool] = lambda c: True,
) -> Callable[[int], OrganicQuestion | None]:
    def draw(seed: int) -> OrganicQuestion | None:
        table = compounds(data_dir)
        pool = [c for c in table if keep(c)]
        if not pool or seed // len(pool) >= VARIANTS:
            return None
        c = pool[seed % len(pool)]
        variant = seed // len(pool)

        def distractors_of(v: int) -> list[str]:
            return distract(table, c, random.Random(f"{KIND}.{level}.{c.canonical}.{v}"))

        distractors = distractors_of(variant)
        if len(distractors) != 3 or (variant and set(distractors) == set(distractors_of(0))):
            return None  # no question, or the first variant's options in another order
        rng = random.Random(f"{KIND}.{level}.{seed}")
        options, correct = four_options(rng, c.name, distractors), c.name
        ring = "-ring" if level == "medium" and c.aromatic else ""
        explanation = NAME_EXPLAIN[level + ring].format(
            name=c.name, formula=subscripted(c.formula), family=c.family
        )
        return OrganicQuestion(
            format=QuestionFormat.SINGLE_CORRECT,
            stem=NAME_STEM,
            options=options,
            correct=correct,
            explanation=explanation,
            group=c.molecule.molecule_id,
            structures=StructureSpec.of(c.smiles),
            caption="",
            alt=ONE_ALT,
            params=(("molecule", c.molecule.molecule_id),),
        )

    return draw


# -- name to structure ------------------------------------------------------------------------


# NCERT's common names of the "alkyl + class word" kind (isobutyl alcohol, ethyl methyl ketone)
# and the o-/m-/p- names of disubstituted benzenes (p-cresol): the common names a question may
# give in place of the IUPAC one (not anilide names such as p-acetotoluidide).
COMMON_NAME = re.compile(
    r"^(?:[a-z-]+ )+(?:alcohol|chloride|bromide|iodide|fluoride|ether|ketone|amine|cyanide)$"
    r"|^[omp]-[a-z]+(?<!ide)$"
)


def _name_to_structure(
    data_dir: Path, common: bool, keep: Callable[[Compound], bool]
) -> Callable[[int], OrganicQuestion | None]:
    def draw(seed: int) -> OrganicQuestion | None:
        table = compounds(data_dir)
        pool = [
            c for c in table if keep(c) and (not common or COMMON_NAME.match(c.molecule.common))
        ]
        if not pool or seed // len(pool) >= VARIANTS:
            return None
        c = pool[seed % len(pool)]
        name = c.molecule.common if common else c.name
        isomers = {o.canonical: o.smiles for o in table if o.formula == c.formula}
        isomers.pop(c.canonical, None)
        if len(isomers) < 3:
            return None
        variant = seed // len(pool)

        def others_of(v: int) -> list[str]:
            others = sorted(isomers.values())
            random.Random(f"{KIND}.to-structure.{c.canonical}.{v}").shuffle(others)
            return others[:3]

        others = others_of(variant)
        if variant and set(others) == set(others_of(0)):
            return None
        rng = random.Random(f"{KIND}.to-structure.{common}.{seed}")
        panels = [c.smiles, *others]
        rng.shuffle(panels)
        at = panels.index(c.smiles)
        stem = f"Which of the structures shown is {name}?"
        if LETTERS[at].lower() in content_tokens(stem):  # "p-cresol" keyed P: a false hint
            nxt = (at + 1) % 4
            panels[at], panels[nxt] = panels[nxt], panels[at]
            at = nxt
        spec = StructureSpec(
            panels=tuple(
                StructurePanel(smiles=s, label=lab) for s, lab in zip(panels, LETTERS, strict=True)
            )
        )
        also = f" (IUPAC name {c.name})" if common else ""
        return OrganicQuestion(
            format=QuestionFormat.SINGLE_CORRECT,
            stem=stem,
            options=LETTERS,
            correct=LETTERS[at],
            explanation=(
                f"Structure {LETTERS[at]} is {name}{also}: the name fixes the carbon chain, the "
                "principal group and the positions; the others are isomers "
                f"({subscripted(c.formula)}) with other chains or positions."
            ),
            group=c.molecule.molecule_id,
            structures=spec,
            alt=FOUR_ALT,
            params=(("molecule", c.molecule.molecule_id),),
        )

    return draw


# -- classes ----------------------------------------------------------------------------------


def _class_of(c: Compound) -> str | None:
    cls = FAMILY_CLASS.get(c.family)
    if cls is None or not c.one_unit or c.heteroatoms == 0:
        return None
    if c.groups & {"alkene", "alkyne", "halo", "nitro"} or not c.plain:
        return None
    return cls


def _amine_class(c: Compound) -> str | None:
    return AMINE_CLASSES[c.amine_degree - 1] if c.family == "amine" and c.amine_degree else None


def _alcohol_class(c: Compound) -> str | None:
    if c.family == "phenol" and c.heteroatoms == 1 and c.groups == frozenset({"hydroxy"}):
        return "phenol"
    if c.family == "alcohol" and c.alcohol_degree in DEGREE and c.groups == {"hydroxy"}:
        return f"{DEGREE[c.alcohol_degree]} alcohol"
    return None


CLASS_EXPLAIN = {
    "functional": "The compound shown carries the {cls} group alone, so it is {article}.",
    "amine": "An amine is primary, secondary or tertiary as one, two or three hydrogens of "
    "ammonia are replaced by alkyl or aryl groups: the nitrogen here carries {n} carbon "
    "group(s), so the compound is a {cls}.",
    "alcohol": "An alcohol is primary, secondary or tertiary as the carbon bearing the –OH "
    "carries one, two or three carbons (an –OH on a benzene ring makes a phenol): the "
    "compound is a {cls}.",
}


def _class_shown(
    data_dir: Path, what: str, classify: Callable[[Compound], str | None], labels: Sequence[str]
) -> Callable[[int], OrganicQuestion | None]:
    def draw(seed: int) -> OrganicQuestion | None:
        pool = [c for c in compounds(data_dir) if classify(c) is not None]
        if not pool or seed // len(pool) >= 1:
            return None
        c = pool[seed % len(pool)]
        cls = classify(c)
        assert cls is not None
        rng = random.Random(f"{KIND}.class-{what}.{seed}")
        if what == "functional":
            rest = [x for x in labels if x != cls]
            rng.shuffle(rest)
            distractors = rest[:3]
            if key_stands_out(cls, distractors):  # "carboxylic acid" among "amine", "ester", …
                longest = max(rest, key=len)
                distractors = [longest, *[x for x in distractors if x != longest][:2]]
            key = cls
        else:
            distractors = [x for x in labels if x != cls]
            key = cls
        options, correct = four_options(rng, key, distractors), key
        explanation = CLASS_EXPLAIN[what].format(
            cls=cls, article=CLASS_ARTICLE.get(cls, cls), n=c.amine_degree
        )
        return OrganicQuestion(
            format=QuestionFormat.SINGLE_CORRECT,
            stem="The compound shown is a"
            if what != "functional"
            else "The compound shown belongs to the class of",
            options=options,
            correct=correct,
            explanation=explanation,
            group=c.molecule.molecule_id,
            structures=StructureSpec.of(c.smiles),
            alt=ONE_ALT,
            params=(("molecule", c.molecule.molecule_id),),
        )

    return draw


def _class_pick(
    data_dir: Path, what: str, classify: Callable[[Compound], str | None]
) -> Callable[[int], OrganicQuestion | None]:
    """Which of four structures is of the asked class (exactly one is)."""

    def draw(seed: int) -> OrganicQuestion | None:
        table = [c for c in compounds(data_dir) if classify(c) is not None]
        if not table or seed // len(table) >= VARIANTS:
            return None
        c = table[seed % len(table)]
        cls = classify(c)
        others = [o for o in table if classify(o) != cls]
        same = {o.canonical: o.smiles for o in others if o.formula == c.formula}
        close = {o.canonical: o.smiles for o in others if abs(o.carbons - c.carbons) <= 1}
        if not same and what == "functional":
            return None
        variant = seed // len(table)

        def chosen_of(v: int) -> list[str]:
            pick = random.Random(f"{KIND}.pick-{what}.{c.canonical}.{v}")
            isomers = sorted(same.values())
            near = sorted(smi for k, smi in close.items() if k not in same)
            pick.shuffle(isomers)
            pick.shuffle(near)
            return (isomers + near)[:3]

        chosen = chosen_of(variant)
        if len(chosen) < 3 or (variant and set(chosen) == set(chosen_of(0))):
            return None
        rng = random.Random(f"{KIND}.pick-{what}.{seed}")
        panels = [c.smiles, *chosen]
        rng.shuffle(panels)
        at = panels.index(c.smiles)
        spec = StructureSpec(
            panels=tuple(
                StructurePanel(smiles=s, label=lab) for s, lab in zip(panels, LETTERS, strict=True)
            )
        )
        article = CLASS_ARTICLE.get(str(cls), f"a {cls}")
        return OrganicQuestion(
            format=QuestionFormat.SINGLE_CORRECT,
            stem=f"Which of the compounds shown is {article}?",
            options=LETTERS,
            correct=LETTERS[at],
            explanation=(
                f"Structure {LETTERS[at]} ({c.name}) is {article}; each of the others belongs "
                "to another class."
            ),
            group=c.molecule.molecule_id,
            structures=spec,
            alt=FOUR_ALT,
            params=(("molecule", c.molecule.molecule_id),),
        )

    return draw


def _of_family(family: str) -> Callable[[Compound], bool]:
    return lambda c: c.family == family


def _tid(name: str) -> str:
    return f"organic.{KIND}.{name}"


@cache
def naming_templates(data_dir: Path) -> tuple[OrganicTemplate, ...]:
    functional = sorted(set(FAMILY_CLASS.values()))
    return (
        OrganicTemplate(
            _tid("name-of-structure"),
            "che-iupac-nomenclature",
            Demand(),
            _structure_to_name(data_dir, "easy", _easy_name),
        ),
        OrganicTemplate(
            _tid("name-of-structure-isomers"),
            "che-iupac-nomenclature",
            Demand(near_miss=True),
            _structure_to_name(
                data_dir, "medium", _medium_name, lambda c: c.family not in FAMILY_TOPIC
            ),
        ),
        *(
            OrganicTemplate(
                _tid(f"name-of-{family.replace(' ', '-')}-isomers"),
                topic,
                Demand(near_miss=True),
                _structure_to_name(data_dir, "medium", _medium_name, _of_family(family)),
            )
            for family, topic in FAMILY_TOPIC.items()
        ),
        OrganicTemplate(
            _tid("name-of-polyfunctional"),
            "che-iupac-nomenclature",
            Demand(steps=2, concepts=2, near_miss=True),
            _structure_to_name(data_dir, "hard", _hard_name),
        ),
        OrganicTemplate(
            _tid("structure-of-name"),
            "che-iupac-nomenclature",
            Demand(reversed=True, near_miss=True),
            _name_to_structure(data_dir, False, lambda c: c.family not in FAMILY_TOPIC),
        ),
        *(
            OrganicTemplate(
                _tid(f"structure-of-{family.replace(' ', '-')}-name"),
                topic,
                Demand(reversed=True, near_miss=True),
                _name_to_structure(data_dir, False, _of_family(family)),
            )
            for family, topic in FAMILY_TOPIC.items()
        ),
        OrganicTemplate(
            _tid("structure-of-common-name"),
            "che-iupac-nomenclature",
            Demand(reversed=True, near_miss=True),
            _name_to_structure(data_dir, True, lambda c: True),
        ),
        OrganicTemplate(
            _tid("functional-class"),
            "che-functional-groups",
            Demand(),
            _class_shown(data_dir, "functional", _class_of, functional),
        ),
        OrganicTemplate(
            _tid("pick-functional-class"),
            "che-functional-groups",
            Demand(reversed=True, near_miss=True),
            _class_pick(data_dir, "functional", _class_of),
        ),
        OrganicTemplate(
            _tid("amine-class"),
            "che-amine-classification",
            Demand(),
            _class_shown(data_dir, "amine", _amine_class, AMINE_CLASSES),
        ),
        OrganicTemplate(
            _tid("pick-amine-class"),
            "che-amine-classification",
            Demand(reversed=True),
            _class_pick(data_dir, "amine", _amine_class),
        ),
        OrganicTemplate(
            _tid("amine-statements"),
            "che-amine-classification",
            Demand(claims=4, near_miss=True, all_near=True),
            lambda seed: amine_statements(data_dir, seed),
        ),
        OrganicTemplate(
            _tid("group-statements"),
            "che-functional-groups",
            Demand(claims=4, near_miss=True, all_near=True),
            lambda seed: group_statements(data_dir, seed),
        ),
        OrganicTemplate(
            _tid("alcohol-class"),
            "che-functional-groups",
            Demand(),
            _class_shown(data_dir, "alcohol", _alcohol_class, ALCOHOL_CLASSES),
        ),
    )
