"""The graph templates' kit: axes, option building from named slips, registration.

Every value a question needs is printed on the graph: a vertex sits where two grid lines of
printed ticks cross, or is labelled with its coordinates. Distractors are the slips students
make reading graphs: slope for area, the wrong axis, a lost sign, ln 2 or 2.303 forgotten, the
total time for the interval, the wrong line. Numerical options carry TeX units the giveaway
screen reads (`number_and_unit`); a slip by a power of ten is named a unit slip for it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from core.figures import GraphSpec
from core.figures.graph import Axis, point_text, tick_text, unit_text
from core.ids import canonical_json
from core.records import QuestionFormat, Subject
from pipeline.difficulty import Demand
from pipeline.figures.templates import FigureQuestion, FigureTemplate
from pipeline.generate.numerical import DISTRACTORS_PARAM, MIN_SEPARATION
from pipeline.quantities.numbers import round_sig, tex_number

PHY, CHE = Subject.PHYSICS, Subject.CHEMISTRY
SIG = 3
MAX_FACTOR = 10.0
S, MIN = r"\mathrm{s}", r"\mathrm{min}"
M, MS, MS2 = r"\mathrm{m}", r"\mathrm{m\,s^{-1}}", r"\mathrm{m\,s^{-2}}"
VOLT, AMP, OHM = r"\mathrm{V}", r"\mathrm{A}", r"\Omega"
JOULE, KPA, LITRE, BAR = r"\mathrm{J}", r"\mathrm{kPa}", r"\mathrm{L}", r"\mathrm{bar}"
MOLL, ML = r"\mathrm{mol\,L^{-1}}", r"\mathrm{mL}"
HZ, EV, JS, BQ = r"\mathrm{Hz}", r"\mathrm{eV}", r"\mathrm{J\,s}", r"\mathrm{Bq}"
PER_MIN, KJMOL = r"\mathrm{min^{-1}}", r"\mathrm{kJ\,mol^{-1}}"
PER_K = r"\mathrm{K^{-1}}"
LN2, LN10 = math.log(2), math.log(10)

# A mistake: its name, the value it leads to, and whether it is a unit slip (a power of ten
# or of sixty away from the key, allowed past the giveaway screen's factor of ten).
Mistake = tuple[str, float] | tuple[str, float, bool]
Draw = Callable[[random.Random], FigureQuestion | None]


def template(
    registry: list[FigureTemplate], tid: str, subject: Subject, topic: str, demand: Demand
) -> Callable[[Draw], Draw]:
    """Register a draw as a template in `registry`; each seed gets its own random stream."""

    def wrap(draw: Draw) -> Draw:
        registry.append(
            FigureTemplate(tid, subject, topic, demand, lambda seed: draw(_rng(tid, seed)))
        )
        return draw

    return wrap


def _rng(tid: str, seed: int) -> random.Random:
    return random.Random(f"{tid}:{seed}")


def ticks(low: float, high: float, step: float) -> tuple[float, ...]:
    n = round((high - low) / step)
    return tuple(round(low + i * step, 9) for i in range(n + 1))


def axis(name: str, unit: str, marks: tuple[float, ...], power: int = 0) -> Axis:
    """An axis over its ticks, a little past the last (and below the first when negative)."""
    pad = 0.08 * (marks[-1] - marks[0])
    low = marks[0] - pad if marks[0] < 0 else min(0.0, marks[0])
    return Axis(name=name, unit=unit, power=power, ticks=marks, low=low, high=marks[-1] + pad)


def option_tex(value: float, unit: str) -> str:
    number = tex_number(value, SIG)
    return f"${number}\\ {unit}$" if unit else f"${number}$"


def _distinct(values: list[float], x: float) -> bool:
    return all(abs(x - v) > MIN_SEPARATION * max(abs(x), abs(v)) for v in values)


# A straight-segment line with more vertices than this is a sampled curve, not a shape to read.
MAX_DESCRIBED_VERTICES = 8


def printed_data(spec: GraphSpec) -> str:
    """What the graph prints, in words, for a screen reader: each axis's quantity, unit and
    tick range, and the labelled points (a sighted student reads the answer off these too)."""
    parts = []
    for axis, which in ((spec.x, "horizontal"), (spec.y, "vertical")):
        unit = unit_text(axis.unit) if axis.unit else ""
        scale = f" ×10^{axis.power}" if axis.power else ""
        what = f"{axis.name}{f' ({unit}{scale})' if unit or scale else ''}"
        ticks = axis.ticks
        step = f" in steps of {tick_text(ticks[1] - ticks[0])}" if len(ticks) > 1 else ""
        parts.append(
            f"The {which} axis, {what}, is marked from {tick_text(ticks[0])} to "
            f"{tick_text(ticks[-1])}{step}."
        )
    for series in spec.series:
        if not series.smooth and len(series.points) <= MAX_DESCRIBED_VERTICES:
            name = f"Line {series.label}" if series.label else "The line"
            corners = ", ".join(point_text(x, y) for x, y in series.points)
            parts.append(f"{name} joins {corners}.")
    if spec.marks:
        parts.append("Labelled points: " + ", ".join(m.text for m in spec.marks) + ".")
    return " ".join(parts)


def numeric(
    rng: random.Random,
    *,
    spec: GraphSpec,
    caption: str,
    alt: str,
    stem: str,
    answer: float,
    unit: str,
    mistakes: Sequence[Mistake],
    method: str,
    group: str = "",
) -> FigureQuestion | None:
    """A numerical question: the key, and three distractors from the first named mistakes that
    give distinct values within a factor of ten of the key (unit slips excepted)."""
    key = round_sig(answer, SIG)
    if not math.isfinite(key) or key == 0:
        return None
    values, chosen = [key], []
    for name, raw, *slip in mistakes:
        v = round_sig(raw, SIG)
        unit_slip = bool(slip and slip[0])
        if not math.isfinite(v) or v == 0 or not _distinct(values, v):
            continue
        if not unit_slip and not 1 / MAX_FACTOR <= abs(v / key) <= MAX_FACTOR:
            continue
        values.append(v)
        chosen.append((name, v, unit_slip))
        if len(chosen) == 3:
            break
    if len(chosen) < 3:
        return None
    texts = [option_tex(v, unit) for v in values]
    correct = texts[0]
    rng.shuffle(texts)
    slips = "; ".join(f"{name} gives {option_tex(v, unit)}" for name, v, _ in chosen)
    distractors = [[option_tex(v, unit), name, slip] for name, v, slip in chosen]
    return FigureQuestion(
        spec=spec,
        caption=caption,
        alt=f"{alt} {printed_data(spec)}",
        format=QuestionFormat.NUMERICAL,
        stem=stem,
        options=(texts[0], texts[1], texts[2], texts[3]),
        correct=correct,
        explanation=f"{method} $=$ {correct}.\n\nCommon slips behind the other options: {slips}.",
        group=group,
        params=((DISTRACTORS_PARAM, canonical_json(distractors)),),
    )


def t_(x: float) -> str:
    """A number in a stem or explanation as the graph prints it."""
    return tick_text(x)
