"""Data-driven chemistry questions from the element snapshot (kb.elements, from mendeleev).

Keys come from the data: measured first ionisation enthalpies, Pauling electronegativities,
empirical atomic radii, ground-state configurations and the unpaired electrons of 3d ions. The
solver never reads this data: it works from the atomic numbers in the question by the textbook
rules (Aufbau order, Hund's rule, periodic trends), so a data point that defies the rules a student
is taught is refused, not served.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from core.ids import digest
from core.records import (
    Difficulty,
    Draft,
    Provenance,
    QuestionFormat,
    Subject,
    choice_draft,
)
from kb.elements import Element, ElementData
from kb.syllabus import Syllabus
from pipeline.difficulty import Demand, difficulty_reason, rated
from pipeline.verify.element_solver import madelung

GENERATOR = "offline.elements"
TEMPLATE_PREFIX = "elements."
NOBLE_GASES = {2: "He", 10: "Ne", 18: "Ar", 36: "Kr", 54: "Xe"}
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
# A key must beat the runner-up by this share of its value, or the question hinges on noise.
MIN_TREND_GAP = 0.03
LAST_CONFIGURATION_Z = 36


@dataclass(frozen=True)
class Trend:
    prop: str
    label: str
    unit: str
    topic_id: str
    most: str
    least: str
    value: Callable[[Element], float | None]


TRENDS = (
    Trend(
        "ie1",
        "first ionisation enthalpy",
        "kJ mol⁻¹",
        "che-ionisation-enthalpy",
        "highest",
        "lowest",
        lambda e: e.ie1_kj_mol,
    ),
    Trend(
        "en",
        "electronegativity",
        "Pauling scale",
        "che-electronegativity",
        "highest",
        "lowest",
        lambda e: e.en_pauling,
    ),
    Trend(
        "radius",
        "atomic radius",
        "pm",
        "che-atomic-and-ionic-radii",
        "largest",
        "smallest",
        lambda e: e.atomic_radius_pm,
    ),
)
TREND_REASONS = {
    "ie1": "Down a group the outer electron is farther from the nucleus and better shielded, so "
    "less energy removes it; across a period the nuclear charge grows, so more is needed — except "
    "that group 13 falls below group 2 (a p electron is easier to remove than a paired s "
    "electron) and group 16 below group 15 (the half-filled p subshell is extra stable).",
    "en": "Electronegativity rises across a period as the nuclear charge grows and the atom "
    "shrinks, and falls down a group as the bonding electrons sit farther from the nucleus.",
    "radius": "Atomic radius shrinks across a period (more nuclear charge pulls the same shell "
    "closer) and grows down a group (a new shell is added each period).",
}


Params = tuple[tuple[str, str], ...]


def element_option(e: Element) -> str:
    return f"{e.name} ({e.symbol}, Z = {e.z})"


class _Choice(NamedTuple):
    """What a question asks and answers (four option texts, the answer among them), and what it
    demands (the rubric names its difficulty)."""

    demand: Demand
    what: str
    stem: str
    options: list[str]
    answer: str
    explanation: str


def _draft(
    template_id: str, topic_id: str, choice: _Choice, params: Params, syllabus: Syllabus, seed: str
) -> Draft | None:
    """The choice as a single-correct draft, options shuffled by the seed; None when its
    options are not four different texts with the answer among them."""
    options = list(choice.options)
    if len(set(options)) != 4 or choice.answer not in options:
        return None
    random.Random(digest([template_id, seed])).shuffle(options)
    provenance = Provenance(generator=GENERATOR, template_id=template_id, params=params)
    return choice_draft(
        syllabus.topic(topic_id).tag,
        rated(choice.demand)[0],
        difficulty_reason(choice.demand, choice.what),
        QuestionFormat.SINGLE_CORRECT,
        choice.stem,
        options,
        choice.answer,
        choice.explanation,
        provenance,
    )


def _naive_rank(e: Element, trend: Trend, same_group: bool) -> float:
    """Where the plain trend (no exceptions) puts an element: larger means more of the property."""
    across = float(e.group or 0)
    down = float(e.period)
    if trend.prop == "radius":
        return down if same_group else -across
    return -down if same_group else across


def trend_draft(
    trend: Trend, most: bool, members: tuple[Element, ...], same_group: bool, syllabus: Syllabus
) -> Draft | None:
    """Which of four elements of one period (or one group) has the most (least) of a property."""
    values = [trend.value(e) for e in members]
    if any(v is None for v in values):
        return None
    ranked = sorted(zip(values, members, strict=True), key=lambda p: p[0], reverse=most)  # type: ignore[arg-type, return-value]
    (v0, key), (v1, _) = ranked[0], ranked[1]
    assert v0 is not None and v1 is not None
    if abs(v0 - v1) < MIN_TREND_GAP * abs(v0):
        return None
    naive = sorted(members, key=lambda e: _naive_rank(e, trend, same_group), reverse=most)[0]
    scope = "group" if same_group else "period"
    if naive != key:
        # The plain trend's answer is an option: a judgement between close options.
        demand, reason = (
            Demand(near_miss=True),
            f"the plain {scope} trend points to {naive.symbol}; an exception decides the key",
        )
    else:
        demand, reason = Demand(), f"one trend across a {scope}, four members to order"
    word = trend.most if most else trend.least
    stem = f"Which of the following elements has the {word} {trend.label}?"
    listed = ", ".join(f"{e.symbol} {v:g}" for v, e in zip(values, members, strict=True))
    explanation = (
        f"**{key.name}** has the {word} {trend.label}. Values ({trend.unit}): {listed}.\n\n"
        f"{TREND_REASONS[trend.prop]}\n\nData: the mendeleev element-data package."
    )
    options = [element_option(e) for e in members]
    return _draft(
        f"{TEMPLATE_PREFIX}trend",
        trend.topic_id,
        _Choice(demand, reason, stem, options, element_option(key), explanation),
        (("property", trend.prop), ("extreme", word), ("scope", scope)),
        syllabus,
        "|".join([trend.prop, word, *(e.symbol for e in members)]),
    )


def _trend_sets(data: ElementData) -> list[tuple[tuple[Element, ...], bool]]:
    """Every four s/p elements (past helium) that share a period, or share a group."""
    sp = [e for e in data.elements if e.block in ("s", "p") and e.z > 2 and e.group]
    sets: list[tuple[tuple[Element, ...], bool]] = []
    for same_group, attr in ((True, "group"), (False, "period")):
        for value in sorted({getattr(e, attr) for e in sp}):
            members = [e for e in sp if getattr(e, attr) == value]
            sets += [(c, same_group) for c in combinations(members, 4)]
    return sets


def trend_drafts(data: ElementData, difficulty: Difficulty, syllabus: Syllabus) -> Iterator[Draft]:
    """Every trend question at a difficulty, in a fixed shuffled order."""
    jobs = [
        (trend, most, members, same_group)
        for members, same_group in _trend_sets(data)
        for trend in TRENDS
        for most in (True, False)
    ]
    jobs.sort(key=lambda j: digest([j[0].prop, j[1], *(e.z for e in j[2])]))
    for trend, most, members, same_group in jobs:
        if trend.prop != "ie1" and any(e.group == 18 for e in members):
            continue  # noble gases have no Pauling value and only van der Waals radii
        draft = trend_draft(trend, most, members, same_group, syllabus)
        if draft is not None and draft.content.difficulty is difficulty:
            yield draft


# ── Configurations ───────────────────────────────────────────────────────────────────────────


def _core_z(z: int) -> int:
    return max((n for n in NOBLE_GASES if n < z), default=0)


def configuration_tex(config: dict[str, int], core: dict[str, int], core_symbol: str) -> str:
    """`[Ar] 3d⁵ 4s¹`-style text (core subshells folded into the noble-gas symbol)."""
    order = sorted(config, key=lambda s: (int(s[0]), "spdf".index(s[1])))
    rest = [
        f"{s[:2]}{str(config[s[:2]]).translate(SUPERSCRIPT)}"
        for s in order
        if config[s] and core.get(s) != config[s]
    ]
    return " ".join(([f"[{core_symbol}]"] if core_symbol else []) + rest)


def configuration_draft(e: Element, data: ElementData, syllabus: Syllabus) -> Draft | None:
    """The ground-state configuration of an element, among named slips."""
    core_z = _core_z(e.z)
    core = dict(data.by_z[core_z].configuration) if core_z else {}
    symbol = NOBLE_GASES.get(core_z, "")
    true = dict(e.configuration)
    # Strict n + l filling is the slip that misses the Cr and Cu exceptions.
    slips: list[tuple[str, dict[str, int]]] = [("strict n + l filling", madelung(e.z))]
    outer_s = max((s for s in true if s.endswith("s")), key=lambda s: int(s[0]))
    n = int(outer_s[0])
    inner_d, outer_p = f"{n - 1}d", f"{n}p"
    if true.get(inner_d):
        moved = dict(true)
        moved[inner_d] += moved.pop(outer_s)
        slips.append(("filling 3d before 4s", moved))
    if true.get(outer_p) and true[outer_s] == 2 and true[outer_p] < 6:
        promoted = dict(true)
        promoted[outer_s], promoted[outer_p] = 1, true[outer_p] + 1
        slips.append(("promoting an s electron to p", promoted))
    for dz, name in ((-1, "one electron too few"), (1, "one electron too many")):
        other = data.by_z.get(e.z + dz)
        if other is not None and _core_z(other.z) == core_z:
            slips.append((name, dict(other.configuration)))
    answer = configuration_tex(true, core, symbol)
    chosen: list[tuple[str, str]] = []
    for name, config in slips:
        text = configuration_tex(config, core, symbol)
        if text != answer and text not in (t for _, t in chosen):
            chosen.append((name, text))
    if len(chosen) < 3:
        return None
    chosen = chosen[:3]
    exception = madelung(e.z) != true
    demand, reason = (
        # The Aufbau-order configuration is an option: a judgement between close options.
        (Demand(near_miss=True), "an Aufbau exception: half-filled or filled 3d is preferred")
        if exception
        else (Demand(), "Aufbau order applied once")
    )
    explanation = (
        f"{e.name} has {e.z} electrons: **{answer}**."
        + (
            " A half-filled or completely filled 3d subshell is extra stable, so one 4s electron "
            "moves into 3d."
            if exception
            else " Subshells fill in order of increasing n + l (lower n first on a tie)."
        )
        + "\n\nThe other options come from: "
        + "; ".join(f"{name} ({text})" for name, text in chosen)
        + ".\n\nData: the mendeleev element-data package."
    )
    stem = f"The ground-state electronic configuration of {e.name.lower()} (Z = {e.z}) is"
    options = [answer, *(t for _, t in chosen)]
    return _draft(
        f"{TEMPLATE_PREFIX}configuration",
        "che-electronic-configuration",
        _Choice(demand, reason, stem, options, answer, explanation),
        (("z", str(e.z)),),
        syllabus,
        e.symbol,
    )


def configuration_drafts(
    data: ElementData, difficulty: Difficulty, syllabus: Syllabus
) -> Iterator[Draft]:
    for e in data.elements:
        if 3 <= e.z <= LAST_CONFIGURATION_Z and e.z not in NOBLE_GASES:
            draft = configuration_draft(e, data, syllabus)
            if draft is not None and draft.content.difficulty is difficulty:
                yield draft


# ── 3d ions: unpaired electrons and spin-only moments ────────────────────────────────────────


def unpaired_in(config: dict[str, int]) -> int:
    """Hund's rule: electrons occupy a subshell's orbitals singly before pairing."""
    total = 0
    for s, n in config.items():
        orbitals = 2 * "spdf".index(s[1]) + 1
        total += n if n <= orbitals else 2 * orbitals - n
    return total


def ion_tex(e: Element, charge: int) -> str:
    sign = "+" if charge > 0 else "-"
    return f"$\\mathrm{{{e.symbol}^{{{abs(charge) if abs(charge) > 1 else ''}{sign}}}}}$"


def spin_only_moment(n: int) -> float:
    return round(math.sqrt(n * (n + 2)), 2)


def _ion_slips(e: Element, charge: int) -> list[tuple[str, int]]:
    atom = dict(e.configuration)
    d_electrons = atom.get("3d", 0) + atom.get("4s", 0) - charge
    from_d_first = dict(atom)
    from_d_first["3d"] = max(0, atom.get("3d", 0) - charge)
    return [
        ("ignoring the charge (the neutral atom's count)", unpaired_in(atom)),
        ("removing 3d electrons before 4s", unpaired_in(from_d_first)),
        ("pairing electrons before filling every orbital singly", d_electrons % 2),
        ("counting every d electron as unpaired", d_electrons),
    ]


def ion_drafts(data: ElementData, difficulty: Difficulty, syllabus: Syllabus) -> Iterator[Draft]:
    """Unpaired electrons (Medium) or spin-only magnetic moment (Hard) of tabulated 3d ions."""
    moment = difficulty is Difficulty.HARD
    if difficulty is Difficulty.EASY:
        return
    for e in data.elements:
        for ion in e.ions:
            values = [ion.unpaired]
            named: list[tuple[str, int]] = []
            for name, n in _ion_slips(e, ion.charge):
                if 0 <= n <= 7 and n not in values:
                    values.append(n)
                    named.append((name, n))
            for n in sorted(range(7), key=lambda k: (abs(k - ion.unpaired), k)):
                if len(values) >= 4:
                    break
                if n not in values:
                    values.append(n)
            values = values[:4]
            if moment:
                texts = [f"${spin_only_moment(n):.2f}\\ \\mathrm{{BM}}$" for n in values]
                stem = (
                    f"The spin-only magnetic moment of the {ion_tex(e, ion.charge)} ion "
                    f"(Z = {e.z} for {e.symbol}) is"
                )
                demand = Demand(steps=3)
                reason = "ion configuration, then the unpaired count, then √(n(n + 2))"
            else:
                texts = [str(n) for n in values]
                stem = (
                    f"The number of unpaired electrons in the {ion_tex(e, ion.charge)} ion "
                    f"(Z = {e.z} for {e.symbol}) is"
                )
                demand = Demand(steps=2)
                reason = "ion configuration (4s emptied first), then Hund's rule"
            d = dict(ion.configuration).get("3d", 0)
            answer = texts[0]
            explanation = (
                f"{ion_tex(e, ion.charge)} loses its 4s electrons first, leaving "
                f"3d{str(d).translate(SUPERSCRIPT)}; Hund's rule spreads them to give "
                f"**{ion.unpaired} unpaired electron"
                + ("s" if ion.unpaired != 1 else "")
                + "**"
                + (
                    f", so μ = √(n(n + 2)) = {spin_only_moment(ion.unpaired):.2f} BM."
                    if moment
                    else "."
                )
                + (
                    "\n\nSlips behind other options: "
                    + "; ".join(f"{name} gives {n}" for name, n in named[:3])
                    + "."
                    if named
                    else ""
                )
                + "\n\nData: the mendeleev element-data package."
            )
            draft = _draft(
                f"{TEMPLATE_PREFIX}{'ion-moment' if moment else 'ion-unpaired'}",
                "che-transition-metal-properties",
                _Choice(demand, reason, stem, texts, answer, explanation),
                (("ion", f"{e.symbol}{ion.charge}+"),),
                syllabus,
                f"{e.symbol}{ion.charge}",
            )
            if draft is not None:
                yield draft


def element_drafts(
    data: ElementData, subject: Subject, difficulty: Difficulty, syllabus: Syllabus
) -> list[tuple[str, Iterator[Draft]]]:
    """One stream per kind of element question, each with a topic whose unit all its drafts share.

    The streams are lazy: a drafter that skips a unit pays nothing for it.
    """
    if subject is not Subject.CHEMISTRY:
        return []
    return [
        (TRENDS[0].topic_id, trend_drafts(data, difficulty, syllabus)),
        ("che-electronic-configuration", configuration_drafts(data, difficulty, syllabus)),
        ("che-transition-metal-properties", ion_drafts(data, difficulty, syllabus)),
    ]
