"""Isomer questions: counts of structural isomers, stereoisomers and monochloro derivatives,
which compound shows geometrical or optical isomerism (drawn or named), and the type of
isomerism between two structures.

Every answer here is authored in `data/kb/organic/isomer_counts.json`, each entry citing the
NCERT section (or standard result) it rests on. The stem's wording comes from the solver's
grammar (`pipeline.verify.organic.isomers`: family phrases and stems, never its counts), and the
solver answers by its own RDKit enumeration.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from core.figures import StructurePanel, StructureSpec
from core.records import QuestionFormat
from kb.organic import subscripted
from pipeline.difficulty import Demand
from pipeline.generate.organic.template import OrganicQuestion, OrganicTemplate, four_options
from pipeline.verify.gate import options_clash
from pipeline.verify.organic.isomers import (
    CHIRAL_STEM,
    FAMILY_BY_KEY,
    GEOMETRICAL_STEM,
    MONO_STEM,
    MONO_STEREO_STEM,
    NAMED_CHIRAL_STEM,
    NAMED_GEOMETRICAL_STEM,
    PANEL_LABELS,
    SINGLE_STEM,
    STEREO_STEM,
    TYPE_OPTIONS,
    TYPE_STEM,
    count_stem,
)

COUNTS_FILE = Path("kb") / "organic" / "isomer_counts.json"
KIND = "organic.isomers."
DEMANDS = {
    "easy": Demand(),
    "medium": Demand(steps=2),
    "hard": Demand(steps=3),
}
TOPIC_SHORT = {
    "che-isomerism": "isomerism",
    "che-alkenes": "alkenes",
    "che-halogenation-of-alkanes": "halogenation",
}
SC = QuestionFormat.SINGLE_CORRECT
Entry = dict[str, Any]


@cache
def _table(data_dir: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((data_dir / COUNTS_FILE).read_text(encoding="utf-8"))
    return loaded


def _rng(template_id: str, seed: int) -> random.Random:
    return random.Random(f"{template_id}:{seed}")


def _numbers(
    key: int, distractors: Sequence[int], rng: random.Random
) -> tuple[tuple[str, str, str, str], str]:
    wrong = [str(d) for d in dict.fromkeys(distractors) if d != key and d > 0][:3]
    return four_options(rng, str(key), wrong), str(key)


def _cap(text: str) -> str:
    """The text with its first letter capitalised (str.capitalize would lower N,N- and R)."""
    return text[:1].upper() + text[1:]


def _grouped(entries: Sequence[Entry]) -> dict[tuple[str, str], list[Entry]]:
    cells: dict[tuple[str, str], list[Entry]] = {}
    for e in entries:
        cells.setdefault((e["topic"], e["difficulty"]), []).append(e)
    return cells


def _count_draw(template_id: str, entries: list[Entry]) -> Callable[[int], OrganicQuestion]:
    def draw(seed: int) -> OrganicQuestion:
        e = entries[seed % len(entries)]
        family = FAMILY_BY_KEY[e["family"]]
        options, key = _numbers(e["count"], e["distractors"], _rng(template_id, seed))
        return OrganicQuestion(
            format=SC,
            stem=count_stem(family, e["formula"]),
            options=options,
            correct=key,
            explanation=f"{e['why']} ({e['source']})",
            group=f"count:{e['formula']}:{e['family']}",
            params=(("formula", subscripted(e["formula"])), ("family", e["family"])),
        )

    return draw


def _stereo_distractors(count: int, difficulty: str) -> list[int]:
    if difficulty == "hard":  # a meso form: 2ⁿ without subtracting it, or only the pair
        return [4, 2, 6]
    if count == 2:
        return [1, 3, 4]
    return [count // 2, count * 2, count - 1]


def _stereo_draw(template_id: str, entries: list[Entry]) -> Callable[[int], OrganicQuestion]:
    def draw(seed: int) -> OrganicQuestion:
        e = entries[seed % len(entries)]
        distractors = e.get("distractors") or _stereo_distractors(e["count"], e["difficulty"])
        options, key = _numbers(e["count"], distractors, _rng(template_id, seed))
        return OrganicQuestion(
            format=SC,
            stem=STEREO_STEM,
            options=options,
            correct=key,
            explanation=f"{_cap(e['name'])}: {e['why']} ({e['source']})",
            group=f"stereo:{e['smiles']}",
            structures=StructureSpec.of(e["smiles"]),
            caption="The compound",
            alt="Skeletal structure of an organic compound, drawn without stereo marks.",
            params=(("compound", e["name"]),),
        )

    return draw


def _pick_draw(
    template_id: str,
    stem: str,
    yes: list[Entry],
    no_pools: tuple[list[Entry], ...],
    why: str,
) -> Callable[[int], OrganicQuestion]:
    """One qualifying compound among three that do not, drawn as P, Q, R and S; the
    distractors come one from each pool in turn (near misses when the pools are)."""

    def draw(seed: int) -> OrganicQuestion:
        rng = _rng(template_id, seed)
        key = yes[seed % len(yes)]
        distractors: list[Entry] = []
        for i in range(3):
            pool = [d for d in no_pools[i % len(no_pools)] if d not in distractors]
            distractors.append(rng.choice(pool))
        shown = [key, *distractors]
        rng.shuffle(shown)
        label = PANEL_LABELS[shown.index(key)]
        panels = tuple(
            StructurePanel(smiles=m["smiles"], label=lab)
            for m, lab in zip(shown, PANEL_LABELS, strict=True)
        )
        others = ", ".join(
            f"{lab} ({m['name']})" for m, lab in zip(shown, PANEL_LABELS, strict=True) if m != key
        )
        return OrganicQuestion(
            format=SC,
            stem=stem,
            options=PANEL_LABELS,
            correct=label,
            explanation=f"{label} is {key['name']}: {why} Not {others}.",
            group=f"{template_id}:{key['smiles']}",
            structures=StructureSpec(panels=panels),
            caption="Compounds P, Q, R and S",
            alt="Four skeletal structures of organic compounds labelled P, Q, R and S.",
            params=(("compounds", " | ".join(m["name"] for m in shown)),),
        )

    return draw


def _type_draw(template_id: str, entries: list[Entry]) -> Callable[[int], OrganicQuestion]:
    def draw(seed: int) -> OrganicQuestion:
        rng = _rng(template_id, seed)
        e = entries[seed % len(entries)]
        pair = [(e["first"], e["names"][0]), (e["second"], e["names"][1])]
        rng.shuffle(pair)
        key = TYPE_OPTIONS[e["type"]]
        # Geometrical isomers are offered only when the pair is one (a cis/trans pair).
        pool = [t for k, t in TYPE_OPTIONS.items() if t != key and k != "geometrical"]
        options = four_options(rng, key, rng.sample(pool, 3))
        panels = tuple(
            StructurePanel(smiles=s, label=lab)
            for (s, _), lab in zip(pair, ("I", "II"), strict=True)
        )
        return OrganicQuestion(
            format=SC,
            stem=TYPE_STEM,
            options=options,
            correct=key,
            explanation=(
                f"I is {pair[0][1]} and II is {pair[1][1]}: {e['why']} "
                f"({TYPE_SOURCE if e['type'] != 'geometrical' else GEOMETRICAL_SOURCE})"
            ),
            group=f"type:{'|'.join(sorted([e['first'], e['second']]))}",
            structures=StructureSpec(panels=panels),
            caption="Compounds I and II",
            alt="Two skeletal structures of organic compounds labelled I and II.",
            params=(("pair", f"{pair[0][1]} | {pair[1][1]}"),),
        )

    return draw


def _mono_draw(template_id: str, entries: list[Entry]) -> Callable[[int], OrganicQuestion]:
    def draw(seed: int) -> OrganicQuestion:
        e = entries[seed % len(entries)]
        options, key = _numbers(e["count"], e["distractors"], _rng(template_id, seed))
        return OrganicQuestion(
            format=SC,
            stem=MONO_STEREO_STEM if e["stereo"] else MONO_STEM,
            options=options,
            correct=key,
            explanation=f"The alkane is {e['name']}. {e['why']} ({e['source']})",
            group=f"mono:{e['name']}:{e['stereo']}",
            structures=StructureSpec.of(e["smiles"]),
            caption="The alkane",
            alt="Skeletal structure of an alkane.",
            params=(("alkane", e["name"]),),
        )

    return draw


def _named_draw(
    template_id: str, stem: str, sets: list[Entry], why: str
) -> Callable[[int], OrganicQuestion | None]:
    """Four named isomers of one formula, exactly one of which qualifies; no name may sit
    inside another (that would point at one)."""

    def draw(seed: int) -> OrganicQuestion | None:
        rng = _rng(template_id, seed)
        e = sets[seed % len(sets)]
        key = rng.choice(e["yes"])
        for _ in range(50):
            others = rng.sample(e["no"], 3)
            if not options_clash([key, *others]):
                break
        else:
            return None
        names = four_options(rng, key, others)
        rest = ", ".join(n for n in names if n != key)
        return OrganicQuestion(
            format=SC,
            stem=stem.format(formula=subscripted(e["formula"])),
            options=names,
            correct=key,
            explanation=f"{_cap(key)}: {why} Not {rest}.",
            group=f"{template_id}:{e['formula']}:{key}",
            params=(("formula", subscripted(e["formula"])), ("names", " | ".join(names))),
        )

    return draw


TYPE_SOURCE = "NCERT Class 11, Unit 8, §8.6.1 Structural isomerism"
GEOMETRICAL_SOURCE = "NCERT Class 11, Unit 9, §9.3.2 Geometrical isomerism"
GEOMETRICAL_WHY = (
    "each doubly bonded carbon carries two different groups, so cis and trans forms exist "
    "(NCERT Class 11, Unit 9, §9.3.2)."
)
CHIRAL_WHY = (
    "it has a carbon bonded to four different groups, so its molecule is not superimposable "
    "on its mirror image (NCERT Class 12, Unit 6, §6.7)."
)
CONFIGURED_WHY = (
    "its two like chiral centres have the same configuration, so no plane of symmetry; the "
    "others as drawn are meso forms (an internal plane of symmetry), optically inactive "
    "(NCERT Class 12, Unit 6, §6.7)."
)


def isomers_templates(data_dir: Path) -> tuple[OrganicTemplate, ...]:
    """Every isomer template: counts and stereo counts per topic and difficulty, the
    geometrical / optical pick, and the type of isomerism."""
    table = _table(data_dir)
    templates: list[OrganicTemplate] = []

    def add(name: str, topic: str, demand: Demand, draw: Callable[[int], Any]) -> None:
        templates.append(OrganicTemplate(KIND + name, topic, demand, draw))

    for (topic, diff), entries in _grouped(table["counts"]).items():
        tid = f"count-{TOPIC_SHORT[topic]}-{diff}"
        add(tid, topic, DEMANDS[diff], _count_draw(KIND + tid, entries))
    for (topic, diff), entries in _grouped(table["stereo"]).items():
        tid = f"stereo-{TOPIC_SHORT[topic]}-{diff}"
        add(tid, topic, DEMANDS[diff], _stereo_draw(KIND + tid, entries))
    for (topic, diff), entries in _grouped(table["monochloro"]).items():
        tid = f"monochloro-{TOPIC_SHORT[topic]}-{diff}"
        add(tid, topic, DEMANDS[diff], _mono_draw(KIND + tid, entries))
    single = table["single_monochloride"]
    add(
        "single-monochloride-medium",
        "che-halogenation-of-alkanes",
        Demand(reversed=True),
        _pick_draw(
            KIND + "single-monochloride-medium",
            SINGLE_STEM,
            single["yes"],
            (single["no"],),
            "all its hydrogens are equivalent, so replacing any one by Cl gives the same "
            f"product ({single['source']}).",
        ),
    )
    shown = table["shown"]
    near = Demand(near_miss=True)
    for name, topic, demand, stem, yes, pools, why in (
        (
            "geometrical-easy",
            "che-alkenes",
            DEMANDS["easy"],
            GEOMETRICAL_STEM,
            shown["geometrical_yes"],
            (shown["geometrical_no_far"],),
            GEOMETRICAL_WHY,
        ),
        (
            "geometrical-medium",
            "che-alkenes",
            near,
            GEOMETRICAL_STEM,
            shown["geometrical_yes"],
            (
                shown["geometrical_no_near"],
                shown["geometrical_no_near"],
                shown["geometrical_no_far"],
            ),
            GEOMETRICAL_WHY,
        ),
        (
            "chiral-easy",
            "che-isomerism",
            DEMANDS["easy"],
            CHIRAL_STEM,
            shown["chiral_yes"],
            (shown["chiral_no_far"],),
            CHIRAL_WHY,
        ),
        (
            "chiral-medium",
            "che-isomerism",
            near,
            CHIRAL_STEM,
            shown["chiral_yes"],
            (shown["chiral_no_near"], shown["chiral_no_near"], shown["chiral_no_far"]),
            CHIRAL_WHY,
        ),
        (
            "chiral-hard",
            "che-isomerism",
            DEMANDS["hard"],
            CHIRAL_STEM,
            shown["configured_chiral"],
            (shown["configured_meso"],),
            CONFIGURED_WHY,
        ),
    ):
        add(name, topic, demand, _pick_draw(KIND + name, stem, yes, pools, why))
    named = table["named"]
    add(
        "named-geometrical-medium",
        "che-alkenes",
        near,
        _named_draw(
            KIND + "named-geometrical-medium",
            NAMED_GEOMETRICAL_STEM,
            named["geometrical"],
            GEOMETRICAL_WHY,
        ),
    )
    add(
        "named-chiral-medium",
        "che-isomerism",
        near,
        _named_draw(KIND + "named-chiral-medium", NAMED_CHIRAL_STEM, named["chiral"], CHIRAL_WHY),
    )
    pairs = [
        {**p, "topic": "che-alkenes" if p["type"] == "geometrical" else "che-isomerism"}
        for p in table["pairs"]
    ]
    for (topic, diff), entries in _grouped(pairs).items():
        tid = f"type-{TOPIC_SHORT[topic]}-{diff}"
        add(tid, topic, DEMANDS[diff], _type_draw(KIND + tid, entries))
    return tuple(templates)
