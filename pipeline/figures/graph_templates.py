"""Graph figure templates (Physics and Chemistry): a plotted graph, and a question read off it.

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
from core.figures.graph import Axis, Mark, Series, point_text, tick_text
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

TEMPLATES: list[FigureTemplate] = []


def template(tid: str, subject: Subject, topic: str, demand: Demand) -> Callable[[Draw], Draw]:
    """Register a draw as a template; each seed gets its own deterministic random stream."""

    def wrap(draw: Draw) -> Draw:
        TEMPLATES.append(
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
        alt=alt,
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


# ── Physics: motion in a straight line ──────────────────────────────────────────────────────
VT_CAPTION = "Figure: a velocity–time graph"


def _vt_axes(times: Sequence[float], speeds: Sequence[float]) -> tuple[Axis, Axis]:
    t_step = 1.0 if max(times) <= 6 else 2.0
    lo = min(0.0, *speeds)
    return (
        axis("t", S, ticks(0, max(times), t_step)),
        axis("v", MS, ticks(lo, max(speeds), 5)),
    )


@template("fig-graph-vt-acceleration", PHY, "phy-motion-graphs", Demand())
def vt_acceleration(rng: random.Random) -> FigureQuestion | None:
    t1 = rng.choice((2, 4, 5, 6, 8, 10))
    u = rng.choice((0, 5, 10, 15, 20))
    v1 = rng.choice([v for v in range(0, 45, 5) if v != u])
    a = (v1 - u) / t1
    tx, vy = _vt_axes((t1,), (u, v1))
    spec = GraphSpec(x=tx, y=vy, series=(Series(points=((0.0, float(u)), (float(t1), float(v1)))),))
    mistakes: list[Mistake] = []
    if a < 0:
        mistakes.append(("dropping the minus sign of a retardation", -a))
    mistakes += [
        ("dividing the final velocity by the time, ignoring the initial velocity", v1 / t1),
        ("adding the initial velocity instead of subtracting it", (v1 + u) / t1),
        ("taking Δt/Δv, reading the axes the wrong way round", t1 / (v1 - u)),
        (
            "finding the area under the graph (the displacement) instead of the slope",
            (u + v1) * t1 / 2,
        ),
        ("halving the slope, as for the area of a triangle", (v1 - u) / (2 * t1)),
        ("taking the average velocity (u + v)/2 for the acceleration", (u + v1) / 2),
    ]
    return numeric(
        rng,
        spec=spec,
        caption=VT_CAPTION,
        alt=f"A velocity–time graph, velocity v in metres per second against time t in seconds: "
        f"a straight line from {u} m/s at t = 0 to {v1} m/s at t = {t1} s.",
        stem="The figure shows the velocity–time graph of a body moving along a straight line. "
        "The acceleration of the body is",
        answer=a,
        unit=MS2,
        mistakes=mistakes,
        method=f"Acceleration is the slope of the $v$–$t$ graph: $a = \\dfrac{{v - u}}{{t}} = "
        f"\\dfrac{{{v1} - {u}}}{{{t1}}}$",
    )


def _trapezium(rng: random.Random) -> tuple[list[tuple[float, float]], float]:
    t1 = rng.choice((2, 4))
    t2 = t1 + rng.choice((2, 4, 6))
    t3 = t2 + rng.choice((2, 4))
    top = rng.choice((10, 15, 20, 25, 30))
    u = rng.choice((0, 0, 5)) if top > 10 else 0
    pts = [(0.0, float(u)), (float(t1), float(top)), (float(t2), float(top)), (float(t3), 0.0)]
    return pts, float(top)


@template("fig-graph-vt-distance", PHY, "phy-motion-graphs", Demand(near_miss=True))
def vt_distance(rng: random.Random) -> FigureQuestion | None:
    pts, top = _trapezium(rng)
    (_, u), (t1, _), (t2, _), (t3, _) = pts
    first, flat, last = (u + top) / 2 * t1, top * (t2 - t1), top * (t3 - t2) / 2
    tx, vy = _vt_axes([p[0] for p in pts], [p[1] for p in pts])
    spec = GraphSpec(x=tx, y=vy, series=(Series(points=tuple(pts)),))
    mistakes: list[Mistake] = [
        ("leaving out the last (retarding) triangle", first + flat),
        ("leaving out the first (accelerating) part", flat + last),
        ("taking the whole rectangle, top speed × total time", top * t3),
        ("counting only the uniform-velocity part", flat),
    ]
    if u:
        mistakes.insert(
            1, ("treating the first part as a triangle from rest", top * t1 / 2 + flat + last)
        )
    return numeric(
        rng,
        spec=spec,
        caption=VT_CAPTION,
        alt="A velocity–time graph, velocity v in metres per second against time t in seconds: "
        "the velocity rises in a straight line, stays constant, then falls in a straight line "
        "to zero.",
        stem="The figure shows the velocity–time graph of a car moving along a straight road. "
        f"The distance covered by the car in the first ${t_(t3)}\\ \\mathrm{{s}}$ is",
        answer=first + flat + last,
        unit=M,
        mistakes=mistakes,
        method="The distance is the area under the $v$–$t$ graph: the first part (a trapezium or "
        f"triangle) gives ${t_(first)}$ m, the constant part ${t_(flat)}$ m and the last "
        f"triangle ${t_(last)}$ m; in all",
    )


def _there_and_back(rng: random.Random) -> tuple[list[tuple[float, float]], float, float]:
    """Forward on a trapezium, then back on a triangle below the axis: areas A₁ and A₂."""
    t1 = rng.choice((2, 4))
    t2 = t1 + rng.choice((2, 4))
    t3 = t2 + rng.choice((2, 4))
    t4 = t3 + rng.choice((2, 4))
    t5 = t4 + rng.choice((2, 4))
    v1, v2 = rng.choice((10, 15, 20, 25)), rng.choice((5, 10, 15))
    pts = [(0.0, 0.0), (t1, v1), (t2, v1), (t3, 0.0), (t4, -v2), (t5, 0.0)]
    a1 = v1 * (t2 - t1) + v1 * t1 / 2 + v1 * (t3 - t2) / 2
    a2 = v2 * (t5 - t3) / 2
    return [(float(t), float(v)) for t, v in pts], a1, a2


VT_BACK_ALT = (
    "A velocity–time graph, velocity v in metres per second against time t in seconds: the "
    "velocity rises from zero, stays constant, falls to zero, then becomes negative and returns "
    "to zero, the last part below the time axis."
)


@template(
    "fig-graph-vt-displacement-signed", PHY, "phy-motion-graphs", Demand(steps=2, near_miss=True)
)
def vt_displacement(rng: random.Random) -> FigureQuestion | None:
    pts, a1, a2 = _there_and_back(rng)
    if math.isclose(a1, a2):
        return None
    tx, vy = _vt_axes([p[0] for p in pts], [p[1] for p in pts])
    spec = GraphSpec(x=tx, y=vy, series=(Series(points=tuple(pts)),))
    end = pts[-1][0]
    return numeric(
        rng,
        spec=spec,
        caption=VT_CAPTION,
        alt=VT_BACK_ALT,
        stem="The figure shows the velocity–time graph of a particle moving along a straight "
        f"line. The displacement of the particle in the first ${t_(end)}\\ \\mathrm{{s}}$ is",
        answer=a1 - a2,
        unit=M,
        mistakes=[
            ("adding the area below the time axis instead of subtracting it", a1 + a2),
            ("counting only the area above the time axis", a1),
            ("subtracting the areas the wrong way round", a2 - a1),
            ("taking only the area below the axis", a2),
        ],
        method=f"Displacement is the signed area under the $v$–$t$ graph: ${t_(a1)}$ m above the "
        f"axis and ${t_(a2)}$ m below it, so $s = {t_(a1)} - {t_(a2)}$",
    )


@template("fig-graph-vt-average-speed", PHY, "phy-motion-graphs", Demand(steps=3, near_miss=True))
def vt_average_speed(rng: random.Random) -> FigureQuestion | None:
    pts, a1, a2 = _there_and_back(rng)
    end, back = pts[-1][0], pts[3][0]
    tx, vy = _vt_axes([p[0] for p in pts], [p[1] for p in pts])
    spec = GraphSpec(x=tx, y=vy, series=(Series(points=tuple(pts)),))
    v1, v2 = pts[1][1], -pts[4][1]
    return numeric(
        rng,
        spec=spec,
        caption=VT_CAPTION,
        alt=VT_BACK_ALT,
        stem="The figure shows the velocity–time graph of a particle moving along a straight "
        f"line. The average speed of the particle over the ${t_(end)}\\ \\mathrm{{s}}$ shown is",
        answer=(a1 + a2) / end,
        unit=MS,
        mistakes=[
            ("dividing the displacement (areas subtracted) by the time", abs(a1 - a2) / end),
            ("dividing the distance by the time of the forward motion only", (a1 + a2) / back),
            ("averaging the two peak speeds", (v1 + v2) / 2),
            ("counting only the forward distance", a1 / end),
        ],
        method=f"Distance is the total area between the graph and the time axis, "
        f"${t_(a1)} + {t_(a2)} = {t_(a1 + a2)}$ m (the part below the axis counts as positive "
        f"distance); average speed $= \\dfrac{{{t_(a1 + a2)}}}{{{t_(end)}}}$",
    )


@template("fig-graph-xt-velocity", PHY, "phy-motion-graphs", Demand())
def xt_velocity(rng: random.Random) -> FigureQuestion | None:
    t0 = rng.choice((2, 4))
    t1 = t0 + rng.choice((2, 4, 6))
    t2 = t1 + rng.choice((2, 4))
    t3 = t2 + rng.choice((2, 4, 6))
    x0 = rng.choice((0, 5, 10, 15))
    x1 = x0 + rng.choice((10, 15, 20, 25))
    x3 = rng.choice([x for x in range(0, x1, 5) if x != x0])
    pts = tuple((float(t), float(x)) for t, x in ((0, x0), (t0, x0), (t1, x1), (t2, x1), (t3, x3)))
    forward = rng.random() < 0.5
    (ta, xa), (tb, xb) = (pts[1], pts[2]) if forward else (pts[3], pts[4])
    v = (xb - xa) / (tb - ta)
    spec = GraphSpec(
        x=axis("t", S, ticks(0, t3, 2)),
        y=axis("x", M, ticks(0, x1, 5)),
        series=(Series(points=pts),),
    )
    mistakes: list[Mistake] = []
    if v < 0:
        mistakes.append(("dropping the sign: the particle moves back towards the origin", -v))
    mistakes += [
        ("dividing the position (not the displacement) by the time", xb / tb),
        ("dividing the displacement by the time from t = 0, not by the interval", (xb - xa) / tb),
        ("dividing the final position by the interval", xb / (tb - ta)),
        ("taking Δt/Δx, the axes the wrong way round", (tb - ta) / (xb - xa)),
    ]
    return numeric(
        rng,
        spec=spec,
        caption="Figure: a position–time graph",
        alt="A position–time graph, position x in metres against time t in seconds, made of "
        "straight pieces: x stays constant, rises, stays constant, then falls.",
        stem="The figure shows the position–time graph of a particle moving along the x-axis. "
        f"The velocity of the particle between $t = {t_(ta)}\\ \\mathrm{{s}}$ and "
        f"$t = {t_(tb)}\\ \\mathrm{{s}}$ is",
        answer=v,
        unit=MS,
        mistakes=mistakes,
        method="Velocity is the slope of the $x$–$t$ graph over the interval: "
        f"$v = \\dfrac{{{t_(xb)} - {t_(xa)}}}{{{t_(tb)} - {t_(ta)}}}$",
    )


# ── Physics: current electricity ────────────────────────────────────────────────────────────
def _two_conductors(
    rng: random.Random, resistances: Sequence[float], currents: Sequence[float]
) -> tuple[GraphSpec, dict[str, tuple[float, float]]]:
    ra, rb = rng.sample(list(resistances), 2)
    read = {}
    for name, r in (("A", ra), ("B", rb)):
        i = rng.choice(currents)
        read[name] = (round(r * i, 9), float(i))
    vmax = max(v for v, _ in read.values())
    imax = max(i for _, i in read.values())
    v_step = 1.0 if vmax <= 8 else 2.0 if vmax <= 16 else 5.0
    i_step = 0.5 if imax <= 4 else 1.0
    spec = GraphSpec(
        x=axis("V", VOLT, ticks(0, math.ceil(vmax / v_step) * v_step, v_step)),
        y=axis("I", AMP, ticks(0, math.ceil(imax / i_step) * i_step, i_step)),
        series=tuple(Series(points=((0.0, 0.0), read[n]), label=n) for n in ("A", "B")),
        marks=tuple(Mark(x=v, y=i, text=point_text(v, i)) for v, i in read.values()),
    )
    return spec, read


IV_ALT = (
    "A current–voltage graph, current I in amperes against potential difference V in volts: "
    "two straight lines A and B from the origin, each with one point labelled with its "
    "coordinates."
)


@template("fig-graph-iv-resistance", PHY, "phy-ohms-law", Demand())
def iv_resistance(rng: random.Random) -> FigureQuestion | None:
    spec, read = _two_conductors(rng, (1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0), (2.0, 3.0))
    which = rng.choice(("A", "B"))
    other = "B" if which == "A" else "A"
    v, i = read[which]
    vo, io = read[other]
    return numeric(
        rng,
        spec=spec,
        caption="Figure: I–V graphs of two conductors",
        alt=IV_ALT,
        stem="The figure shows the current–voltage graphs of two ohmic conductors A and B. The "
        f"resistance of conductor {which} is",
        answer=v / i,
        unit=OHM,
        mistakes=[
            ("reading the other conductor's line", vo / io),
            ("taking the slope I/V of this graph as the resistance", i / v),
            ("multiplying V by I (that is the power)", v * i),
        ],
        method=f"By Ohm's law $R = V/I$; the labelled point on {which} gives "
        f"$R = \\dfrac{{{t_(v)}}}{{{t_(i)}}}$ (the slope of an $I$–$V$ graph is $1/R$)",
        group=which,
    )


@template(
    "fig-graph-iv-combination",
    PHY,
    "phy-resistors-in-series-and-parallel",
    Demand(steps=2, concepts=2),
)
def iv_combination(rng: random.Random) -> FigureQuestion | None:
    spec, read = _two_conductors(rng, (2.0, 2.5, 4.0, 5.0, 8.0, 10.0), (0.5, 1.0, 1.5, 2.0))
    ra, rb = (v / i for v, i in (read["A"], read["B"]))
    series, parallel = ra + rb, ra * rb / (ra + rb)
    in_series = rng.random() < 0.5
    how = "in series" if in_series else "in parallel"
    key, other = (series, parallel) if in_series else (parallel, series)
    return numeric(
        rng,
        spec=spec,
        caption="Figure: I–V graphs of two conductors",
        alt=IV_ALT,
        stem="The figure shows the current–voltage graphs of two ohmic conductors A and B. If A "
        f"and B are connected {how}, their equivalent resistance is",
        answer=key,
        unit=OHM,
        mistakes=[
            ("combining them the other way", other),
            ("averaging the two resistances", (ra + rb) / 2),
            ("taking the larger resistance alone", max(ra, rb)),
            ("taking the smaller resistance alone", min(ra, rb)),
            ("taking the slopes I/V as the resistances", 1 / ra + 1 / rb),
        ],
        method=f"From the labelled points, $R_A = {t_(ra)}\\ \\Omega$ and $R_B = {t_(rb)}\\ "
        f"\\Omega$ ($R = V/I$); connected {how}, "
        + ("$R = R_A + R_B$" if in_series else "$R = \\dfrac{R_A R_B}{R_A + R_B}$"),
        group=how,
    )


# ── Physics: thermodynamics ─────────────────────────────────────────────────────────────────
@template("fig-graph-pv-cycle-work", PHY, "phy-heat-work-internal-energy", Demand(near_miss=True))
def pv_cycle_work(rng: random.Random) -> FigureQuestion | None:
    v1 = rng.choice((1, 2))
    v2 = v1 + rng.choice((1, 2, 3, 4))
    p1 = rng.choice((100, 200))
    p2 = p1 + rng.choice((100, 200, 300))
    triangle = rng.random() < 0.5
    clockwise = rng.random() < 0.5
    corners = [(v1, p2), (v2, p2), (v2, p1)] + ([] if triangle else [(v1, p1)])
    if not clockwise:
        corners = [corners[0], *reversed(corners[1:])]
    pts = tuple((float(v), float(p)) for v, p in [*corners, corners[0]])
    names = "ABCD"[: len(corners)]
    spec = GraphSpec(
        x=axis("V", LITRE, ticks(0, v2 + 1, 1)),
        y=axis("p", KPA, ticks(0, p2 + 100, 100)),
        series=(Series(points=pts, arrows=True),),
        marks=tuple(
            Mark(x=float(v), y=float(p), text=n, guides=False)
            for n, (v, p) in zip(names, corners, strict=True)
        ),
    )
    area = (v2 - v1) * (p2 - p1) * (0.5 if triangle else 1.0)
    w = area if clockwise else -area
    cycle = "".join(names) + "A"
    half = "\\tfrac{1}{2}" if triangle else ""
    lower = p1 * (v2 - v1) if not triangle else (p1 + p2) / 2 * (v2 - v1)
    shape = "a right-angled triangle" if triangle else "a rectangle"
    return numeric(
        rng,
        spec=spec,
        caption="Figure: a cyclic process on a p–V diagram",
        alt=f"A pressure–volume diagram, pressure p in kilopascals against volume V in litres: "
        f"the cycle {cycle} forms {shape} with corners on grid lines; arrows show the "
        "direction of the cycle.",
        stem=f"An ideal gas is taken through the cyclic process {cycle} shown in the figure. "
        "The net work done by the gas in one cycle is",
        answer=w,
        unit=JOULE,
        mistakes=[
            ("ignoring the sense of the cycle (its sign)", -w),
            (
                "leaving out the factor ½ of a triangle" if triangle else "halving the area",
                2 * w if triangle else w / 2,
            ),
            (
                "taking the work of the expansion alone, under the upper side",
                math.copysign(p2 * (v2 - v1), w),
            ),
            ("taking the area under the lower side", math.copysign(lower, w)),
        ],
        method="The net work in a cycle is the area enclosed on the $p$–$V$ diagram, positive "
        "when the cycle runs clockwise (expansion at the higher pressure). Here it is "
        f"{shape}, $|W| = {half}({t_(v2 - v1)}\\ \\mathrm{{L}})"
        f"({t_(p2 - p1)}\\ \\mathrm{{kPa}})$, and the cycle runs "
        + ("clockwise" if clockwise else "anticlockwise"),
        group="triangle" if triangle else "rectangle",
    )


# ── Physics: nuclei ─────────────────────────────────────────────────────────────────────────
DECAY_POWER = 20


def _decay_graph(rng: random.Random) -> tuple[GraphSpec, float, float]:
    """N (in 10²⁰) against t (min): the decay curve over three half-lives, sampled finely;
    N₀ and its halves fall on grid lines, and the first half-life point is labelled."""
    n0 = float(rng.choice((8, 12, 16, 24)))
    half = float(rng.choice((2, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40)))
    steps = 8
    pts = tuple(
        (round(k * half / steps, 9), round(n0 * 2.0 ** (-k / steps), 9))
        for k in range(3 * steps + 1)
    )
    spec = GraphSpec(
        x=axis("t", MIN, ticks(0, 3 * half, half)),
        y=axis("N", "", ticks(0, n0, n0 / 8), power=DECAY_POWER),
        series=(Series(points=pts, smooth=True),),
        marks=(Mark(x=half, y=n0 / 2, text=point_text(half, n0 / 2)),),
    )
    return spec, n0, half


DECAY_ALT = (
    "A graph of the number N of undecayed nuclei, in units of 10 to the power 20, against time "
    "t in minutes: a curve falling from its starting value, with one point on it labelled with "
    "its coordinates and grid lines at the printed ticks."
)
DECAY_CAPTION = "Figure: the decay curve of a radioactive sample"
DECAY_STEM = (
    "The figure shows the number N of undecayed nuclei in a radioactive sample against time t."
)


@template("fig-graph-decay-constant", PHY, "phy-radioactive-decay", Demand())
def decay_constant(rng: random.Random) -> FigureQuestion | None:
    spec, _, half = _decay_graph(rng)
    return numeric(
        rng,
        spec=spec,
        caption=DECAY_CAPTION,
        alt=DECAY_ALT,
        stem=f"{DECAY_STEM} The decay constant of the nuclide is",
        answer=LN2 / half,
        unit=PER_MIN,
        mistakes=[
            ("forgetting ln 2, λ = 1/T½", 1 / half),
            ("using 2.303 in place of ln 2", LN10 / half),
            ("reading the time to fall to a quarter as the half-life", LN2 / (2 * half)),
        ],
        method=f"N falls to half its initial value in $T_{{1/2}} = {t_(half)}$ min (the labelled "
        f"point), and $\\lambda = \\dfrac{{\\ln 2}}{{T_{{1/2}}}} = \\dfrac{{0.693}}{{{t_(half)}}}$",
    )


@template("fig-graph-decay-remaining", PHY, "phy-radioactive-decay", Demand(steps=2))
def decay_remaining(rng: random.Random) -> FigureQuestion | None:
    spec, n0, half = _decay_graph(rng)
    n = rng.choice((4, 5, 6))
    t = n * half
    scale = 10.0**DECAY_POWER
    return numeric(
        rng,
        spec=spec,
        caption=DECAY_CAPTION,
        alt=DECAY_ALT,
        stem=f"{DECAY_STEM} The number of undecayed nuclei left at $t = {t_(t)}\\ "
        "\\mathrm{min}$ is",
        answer=n0 * scale / 2**n,
        unit="",
        mistakes=[
            ("halving linearly, N₀/(2n)", n0 * scale / (2 * n)),
            ("counting one half-life too few", n0 * scale / 2 ** (n - 1)),
            ("counting one half-life too many", n0 * scale / 2 ** (n + 1)),
            ("reading the time to fall to a quarter as the half-life", n0 * scale / 2 ** (n / 2)),
            ("giving the number decayed, not the number left", n0 * scale * (1 - 2.0**-n)),
        ],
        method=f"The graph halves in $T_{{1/2}} = {t_(half)}$ min, so ${t_(t)}$ min is ${n}$ "
        f"half-lives and $N = N_0/2^{{{n}}}$ with $N_0 = {t_(n0)} \\times 10^{{20}}$",
    )


@template("fig-graph-decay-activity", PHY, "phy-radioactive-decay", Demand(steps=3, concepts=2))
def decay_activity(rng: random.Random) -> FigureQuestion | None:
    spec, n0, half = _decay_graph(rng)
    n = rng.choice((4, 5))
    t = n * half
    left = n0 * 10.0**DECAY_POWER / 2**n
    lam = LN2 / (half * 60)
    return numeric(
        rng,
        spec=spec,
        caption=DECAY_CAPTION,
        alt=DECAY_ALT,
        stem=f"{DECAY_STEM} The activity of the sample at $t = {t_(t)}\\ \\mathrm{{min}}$ is",
        answer=lam * left,
        unit=BQ,
        mistakes=[
            ("forgetting ln 2, A = N/T½", left / (half * 60)),
            ("counting one half-life too few", lam * 2 * left),
            ("using 2.303 in place of ln 2", LN10 / (half * 60) * left),
            ("leaving the half-life in minutes", lam * 60 * left, True),
        ],
        method=f"The graph halves in $T_{{1/2}} = {t_(half)}$ min $= {t_(half * 60)}$ s, so "
        f"$\\lambda = 0.693/{t_(half * 60)}\\ \\mathrm{{s^{{-1}}}}$; after ${n}$ half-lives "
        f"$N = N_0/2^{{{n}}}$ with $N_0 = {t_(n0)} \\times 10^{{20}}$, and the activity "
        "$A = \\lambda N$",
    )


# ── Physics: dual nature of radiation ───────────────────────────────────────────────────────
E_STEM = "Take $e = 1.6 \\times 10^{-19}\\ \\mathrm{C}$."
E_CHARGE = 1.6e-19


def _photo_graph(
    rng: random.Random, threshold: Sequence[float]
) -> tuple[GraphSpec, float, list[tuple[float, float]]]:
    """V₀ (V) against ν (10¹⁴ Hz): a line from the threshold with two labelled points."""
    slope = rng.choice((0.40, 0.41, 0.42, 0.43))
    nu0 = rng.choice(threshold)
    nu1 = nu0 + rng.choice((1.0, 2.0, 3.0))
    nu2 = nu1 + rng.choice((2.0, 3.0))
    pts = [(nu, round(slope * (nu - nu0), 9)) for nu in (nu1, nu2)]
    top = pts[-1][1]
    spec = GraphSpec(
        x=axis("ν", HZ, ticks(0, math.ceil(nu2) + 1, 1), power=14),
        y=axis("V₀", VOLT, ticks(0, math.ceil(top * 2) / 2, 0.5)),
        series=(
            Series(points=((nu0, 0.0), *pts, (nu2 + 0.8, round(slope * (nu2 + 0.8 - nu0), 9)))),
        ),
        marks=tuple(Mark(x=x, y=y, text=point_text(x, y)) for x, y in pts),
    )
    return spec, slope, pts


PHOTO_ALT = (
    "A graph of stopping potential V₀ in volts against frequency ν of the incident light in "
    "units of 10 to the power 14 hertz: a straight line starting on the frequency axis and "
    "rising, with two points labelled with their coordinates."
)
PHOTO_STEM = (
    "In a photoelectric experiment, the stopping potential $V_0$ is plotted against the "
    "frequency $\\nu$ of the incident light, as shown."
)


@template(
    "fig-graph-photoelectric-planck",
    PHY,
    "phy-einsteins-photoelectric-equation",
    Demand(reversed=True),
)
def photoelectric_planck(rng: random.Random) -> FigureQuestion | None:
    spec, slope, ((nu1, v1), (nu2, v2)) = _photo_graph(rng, (4.0, 5.0, 6.0))
    h = E_CHARGE * slope * 1e-14
    return numeric(
        rng,
        spec=spec,
        caption="Figure: stopping potential against frequency",
        alt=PHOTO_ALT,
        stem=f"{PHOTO_STEM} {E_STEM} The value of Planck's constant obtained from the graph is",
        answer=h,
        unit=JS,
        mistakes=[
            (
                "dividing one reading V₀/ν, as if the line passed through the origin",
                E_CHARGE * v2 / (nu2 * 1e14),
            ),
            (
                "using V₀ at one point instead of the change in V₀",
                E_CHARGE * v2 / ((nu2 - nu1) * 1e14),
            ),
            ("dividing the first reading V₀/ν", E_CHARGE * v1 / (nu1 * 1e14)),
        ],
        method="From $eV_0 = h\\nu - \\phi$ the slope of the line is $h/e$: "
        f"$\\dfrac{{{t_(v2)} - {t_(v1)}}}{{({t_(nu2)} - {t_(nu1)}) \\times 10^{{14}}}}$ V s, "
        "so $h = e \\times$ slope",
    )


@template(
    "fig-graph-photoelectric-work-function",
    PHY,
    "phy-einsteins-photoelectric-equation",
    Demand(steps=3),
)
def photoelectric_work_function(rng: random.Random) -> FigureQuestion | None:
    spec, slope, ((nu1, v1), (nu2, v2)) = _photo_graph(rng, (4.5, 5.5, 6.5))
    phi = slope * nu1 - v1  # in eV
    return numeric(
        rng,
        spec=spec,
        caption="Figure: stopping potential against frequency",
        alt=PHOTO_ALT,
        stem=f"{PHOTO_STEM} The work function of the metal is",
        answer=phi,
        unit=EV,
        mistakes=[
            ("taking hν at a point without subtracting eV₀", slope * nu1),
            ("adding eV₀ to hν instead of subtracting it", slope * nu1 + v1),
            ("taking a stopping potential for the work function", v2),
            ("taking the other stopping potential for the work function", v1),
        ],
        method="The slope of the line is $h/e = "
        f"\\dfrac{{{t_(v2)} - {t_(v1)}}}{{{t_(nu2)} - {t_(nu1)}}}$ V per $10^{{14}}$ Hz "
        f"$= {t_(slope)}$; the line meets the frequency axis at the threshold "
        f"$\\nu_0 = {t_(nu1)} - {t_(v1)}/{t_(slope)} = {t_(round(nu1 - v1 / slope, 6))}"
        "\\times 10^{14}$ Hz, and $\\phi = h\\nu_0$, in eV slope × $\\nu_0$",
    )


# ── Chemistry: chemical kinetics ────────────────────────────────────────────────────────────
ZERO_ALT = (
    "A graph of the concentration [A] of the reactant in mol per litre against time t in "
    "minutes: a straight line falling from its starting value, its ends on grid lines."
)
ZERO_STEM = (
    "For a reaction A → products, the concentration of A falls with time as shown in the figure."
)


def _zero_order(rng: random.Random) -> tuple[GraphSpec, float, float, float]:
    a0 = rng.choice((0.8, 1.0, 1.2, 1.6, 2.0))
    a1 = rng.choice([x for x in ticks(0.2, a0 - 0.2, 0.2)])
    t1 = float(rng.choice((10, 20, 30, 40, 50, 60)))
    spec = GraphSpec(
        x=axis("t", MIN, ticks(0, t1, 10)),
        y=axis("[A]", MOLL, ticks(0, a0, 0.2)),
        series=(Series(points=((0.0, a0), (t1, a1))),),
    )
    return spec, a0, a1, t1


@template("fig-graph-zero-order-rate-constant", CHE, "che-zero-order-reactions", Demand())
def zero_order_rate_constant(rng: random.Random) -> FigureQuestion | None:
    spec, a0, a1, t1 = _zero_order(rng)
    return numeric(
        rng,
        spec=spec,
        caption="Figure: concentration against time",
        alt=ZERO_ALT,
        stem=f"{ZERO_STEM} The rate constant of the reaction is",
        answer=(a0 - a1) / t1,
        unit=r"\mathrm{mol\,L^{-1}\,min^{-1}}",
        mistakes=[
            ("dividing the initial concentration by the time", a0 / t1),
            ("dividing the concentration left by the time", a1 / t1),
            ("using the first-order law, k = ln([A]₀/[A])/t", math.log(a0 / a1) / t1),
        ],
        method="A straight $[A]$–$t$ line means zero order, $[A] = [A]_0 - kt$: "
        f"$k = -\\text{{slope}} = \\dfrac{{{t_(a0)} - {t_(a1)}}}{{{t_(t1)}}}$",
    )


@template("fig-graph-zero-order-half-life", CHE, "che-zero-order-reactions", Demand(steps=2))
def zero_order_half_life(rng: random.Random) -> FigureQuestion | None:
    spec, a0, a1, t1 = _zero_order(rng)
    k = (a0 - a1) / t1
    return numeric(
        rng,
        spec=spec,
        caption="Figure: concentration against time",
        alt=ZERO_ALT,
        stem=f"{ZERO_STEM} The half-life of the reaction, for the initial concentration shown, is",
        answer=a0 / (2 * k),
        unit=MIN,
        mistakes=[
            ("forgetting the factor 2, [A]₀/k (the time for complete reaction)", a0 / k),
            ("using the concentration at the end of the line for [A]₀", a1 / (2 * k)),
            ("using the first-order formula 0.693/k", LN2 / k),
            ("halving the time read off the graph", t1 / 2),
        ],
        method="The straight line is zero order with $k = "
        f"\\dfrac{{{t_(a0)} - {t_(a1)}}}{{{t_(t1)}}}\\ \\mathrm{{mol\\,L^{{-1}}\\,min^{{-1}}}}$, "
        f"and $t_{{1/2}} = \\dfrac{{[A]_0}}{{2k}} = \\dfrac{{{t_(a0)}}}{{2k}}$",
    )


def _first_order(rng: random.Random, log10: bool) -> tuple[GraphSpec, float, float, float]:
    y0 = rng.choice((0.5, 0.0, -0.5) if not log10 else (0.0, -0.2, -0.4))
    drop = rng.choice((1.0, 1.5, 2.0, 2.5, 3.0) if not log10 else (0.4, 0.6, 0.8, 1.0))
    t1 = float(rng.choice((20, 30, 40, 50, 60)))
    y1 = round(y0 - drop, 9)
    step = 0.5 if not log10 else 0.2
    spec = GraphSpec(
        x=axis("t", MIN, ticks(0, t1, 10)),
        y=axis("log [A]" if log10 else "ln [A]", "", ticks(min(y1, 0.0), max(y0, 0.0), step)),
        series=(Series(points=((0.0, y0), (t1, y1))),),
        marks=(
            Mark(x=0.0, y=y0, text=point_text(0, y0)),
            Mark(x=t1, y=y1, text=point_text(t1, y1)),
        ),
    )
    return spec, y0, y1, t1


FIRST_STEM = "For a reaction A → products, the plot of {f} against time is the straight line shown."


@template("fig-graph-first-order-half-life", CHE, "che-first-order-reactions", Demand(steps=2))
def first_order_half_life(rng: random.Random) -> FigureQuestion | None:
    spec, y0, y1, t1 = _first_order(rng, log10=False)
    k = (y0 - y1) / t1
    return numeric(
        rng,
        spec=spec,
        caption="Figure: ln [A] against time",
        alt="A graph of ln [A] against time t in minutes: a falling straight line between two "
        "points labelled with their coordinates.",
        stem=FIRST_STEM.format(f="$\\ln[A]$") + " The half-life of the reaction is",
        answer=LN2 / k,
        unit=MIN,
        mistakes=[
            ("forgetting ln 2, t½ = 1/k", 1 / k),
            ("multiplying the slope by 2.303, as for a log₁₀ plot", LN2 / (LN10 * k)),
            ("using 2.303/k without log 2", LN10 / k),
            ("halving the time of the line", t1 / 2),
        ],
        method="A straight $\\ln[A]$–$t$ line means first order, $\\ln[A] = \\ln[A]_0 - kt$: "
        f"$k = \\dfrac{{{t_(y0)} - ({t_(y1)})}}{{{t_(t1)}}}\\ \\mathrm{{min^{{-1}}}}$ and "
        "$t_{1/2} = \\dfrac{0.693}{k}$",
    )


@template("fig-graph-first-order-log-rate-constant", CHE, "che-first-order-reactions", Demand())
def first_order_log_k(rng: random.Random) -> FigureQuestion | None:
    spec, y0, y1, t1 = _first_order(rng, log10=True)
    slope = (y0 - y1) / t1
    return numeric(
        rng,
        spec=spec,
        caption="Figure: log [A] against time",
        alt="A graph of log [A] against time t in minutes: a falling straight line between two "
        "points labelled with their coordinates.",
        stem=FIRST_STEM.format(f="$\\log[A]$") + " The rate constant of the reaction is",
        answer=LN10 * slope,
        unit=PER_MIN,
        mistakes=[
            ("taking the slope itself, forgetting the factor 2.303", slope),
            ("dividing the slope by 2.303 instead of multiplying", slope / LN10),
            ("using the final reading alone, 2.303 × |log [A]|/t", LN10 * abs(y1) / t1),
            ("using ln 2 in place of 2.303", LN2 * slope),
        ],
        method="For first order $\\log[A] = \\log[A]_0 - \\dfrac{kt}{2.303}$, so "
        f"$k = 2.303 \\times \\dfrac{{{t_(y0)} - ({t_(y1)})}}{{{t_(t1)}}}$",
    )


ORDER_OPTIONS = ("Zero order", "First order", "Second order", "Third order")
# (variant, y name, y unit, x name, x unit, order): the straight line each order gives.
ORDER_PLOTS = (
    ("conc-time", "[A]", MOLL, "t", S, 0),
    ("ln-time", "ln [A]", "", "t", S, 1),
    ("inverse-time", "1/[A]", r"\mathrm{L\,mol^{-1}}", "t", S, 2),
    ("rate-flat", "rate", r"\mathrm{mol\,L^{-1}\,s^{-1}}", "[A]", MOLL, 0),
    ("rate-line", "rate", r"\mathrm{mol\,L^{-1}\,s^{-1}}", "[A]", MOLL, 1),
    ("half-life-flat", "t½", S, "[A]₀", MOLL, 1),
    ("half-life-line", "t½", S, "[A]₀", MOLL, 0),
)


@template("fig-graph-order-from-plot", CHE, "che-order-and-molecularity", Demand())
def order_from_plot(rng: random.Random) -> FigureQuestion | None:
    variant, yname, yunit, xname, xunit, order = rng.choice(ORDER_PLOTS)
    x_end = float(
        rng.choice((20, 30, 40, 50)) if xname == "t" else rng.choice((0.4, 0.6, 0.8, 1.0))
    )
    x_step = 10.0 if xname == "t" else 0.2
    y_step = rng.choice((0.5, 1.0)) if yname != "rate" else 0.01
    n = rng.choice((3, 4, 5, 6))
    falling = variant in ("conc-time", "ln-time")
    if variant in ("rate-flat", "half-life-flat"):
        pts = ((0.0, (n - 1) * y_step), (x_end, (n - 1) * y_step))
    elif variant in ("rate-line", "half-life-line"):
        pts = ((0.0, 0.0), (x_end, n * y_step))
    elif falling:
        pts = ((0.0, n * y_step), (x_end, y_step if variant == "conc-time" else -y_step))
    else:
        pts = ((0.0, y_step), (x_end, n * y_step))
    pts = ((round(pts[0][0], 9), round(pts[0][1], 9)), (round(pts[1][0], 9), round(pts[1][1], 9)))
    ys = [b for _, b in pts]
    spec = GraphSpec(
        x=axis(xname, xunit, ticks(0, x_end, x_step)),
        y=axis(yname, yunit, ticks(min(0.0, *ys), max(ys) + y_step, y_step)),
        series=(Series(points=pts),),
    )
    shape = (
        "a horizontal straight line"
        if "flat" in variant
        else "a straight line through the origin"
        if variant.endswith("-line")
        else "a falling straight line"
        if falling
        else "a rising straight line"
    )
    options = list(ORDER_OPTIONS)
    rng.shuffle(options)
    why = {
        "conc-time": "$[A] = [A]_0 - kt$ is linear in $t$ only for zero order",
        "ln-time": "$\\ln[A] = \\ln[A]_0 - kt$ is linear in $t$ for first order",
        "inverse-time": "$\\dfrac{1}{[A]} = \\dfrac{1}{[A]_0} + kt$ is linear in $t$ for second "
        "order",
        "rate-flat": "a rate independent of $[A]$ means rate $= k[A]^0$, zero order",
        "rate-line": "rate $\\propto [A]$ means first order",
        "half-life-flat": "a half-life independent of the initial concentration, "
        "$t_{1/2} = 0.693/k$, means first order",
        "half-life-line": "$t_{1/2} = [A]_0/2k \\propto [A]_0$ means zero order",
    }[variant]
    return FigureQuestion(
        spec=spec,
        caption="Figure: a kinetics plot",
        alt=f"A graph of {yname} against {xname}: {shape}.",
        format=QuestionFormat.SINGLE_CORRECT,
        stem="For a reaction A → products, the plot shown in the figure is obtained. The order "
        "of the reaction is",
        options=(options[0], options[1], options[2], options[3]),
        correct=ORDER_OPTIONS[order],
        explanation=f"The plot is {shape}: {why}.",
        group=variant,
    )


@template("fig-graph-arrhenius-activation-energy", CHE, "che-arrhenius-equation", Demand(steps=2))
def arrhenius_energy(rng: random.Random) -> FigureQuestion | None:
    log10 = rng.random() < 0.5
    x1 = rng.choice((2.8, 3.0, 3.2))
    dx = rng.choice((0.2, 0.4, 0.6))
    y1 = float(rng.choice((0, -1, -2)))
    drop = float(rng.choice((1, 2, 3, 4, 5, 6) if log10 else (2, 3, 4, 5, 6, 8, 10)))
    x2, y2 = round(x1 + dx, 9), y1 - drop
    per = LN10 if log10 else 1.0
    ea = per * 8.314 * drop / dx  # kJ mol⁻¹ (the axis is in 10⁻³ K⁻¹)
    if not 20 <= ea <= 300:
        return None
    name = "log k" if log10 else "ln k"
    spec = GraphSpec(
        x=axis("1/T", PER_K, ticks(2.6, 3.8, 0.2), power=-3),
        y=axis(name, "", ticks(y2 - 1, 1.0, 1.0)),
        series=(
            Series(
                points=(
                    (x1 - 0.1, y1 + drop / dx * 0.1),
                    (x1, y1),
                    (x2, y2),
                    (x2 + 0.1, y2 - drop / dx * 0.1),
                )
            ),
        ),
        marks=(
            Mark(x=x1, y=y1, text=point_text(x1, y1)),
            Mark(x=x2, y=y2, text=point_text(x2, y2)),
        ),
    )
    spec = spec.model_copy(update={"x": spec.x.model_copy(update={"low": 2.6, "high": 3.9})})
    mistakes: list[Mistake] = (
        [
            ("forgetting the factor 2.303 of a log₁₀ plot", ea / LN10),
            ("using R = 1.987 (in calories) with the answer in joules", ea * 1.987 / 8.314),
            ("dividing by 2.303 instead of multiplying", ea / LN10**2),
        ]
        if log10
        else [
            ("multiplying by 2.303 as for a log₁₀ plot", ea * LN10),
            ("dividing by 2.303", ea / LN10),
            ("using R = 1.987 (in calories) with the answer in joules", ea * 1.987 / 8.314),
        ]
    )
    factor = "2.303\\," if log10 else ""
    law = (
        "\\log k = \\log A - \\dfrac{E_a}{2.303RT}"
        if log10
        else "\\ln k = \\ln A - \\dfrac{E_a}{RT}"
    )
    return numeric(
        rng,
        spec=spec,
        caption="Figure: an Arrhenius plot",
        alt=f"An Arrhenius plot of {name} against 1/T in units of 10 to the power −3 per kelvin: "
        "a falling straight line through two points labelled with their coordinates.",
        stem=f"The figure shows the Arrhenius plot of ${name.replace(' ', '')}$ against $1/T$ "
        "for a reaction. Taking $R = 8.314\\ \\mathrm{J\\,K^{-1}\\,mol^{-1}}$, the activation "
        "energy of the reaction is",
        answer=ea,
        unit=KJMOL,
        mistakes=mistakes,
        method=f"${law}$, so the slope is "
        f"$-\\dfrac{{{t_(drop)}}}{{{t_(dx)} \\times 10^{{-3}}}}\\ \\mathrm{{K}}$ and "
        f"$E_a = -{factor}R \\times \\text{{slope}}$",
        group=name,
    )


# ── Chemistry: ionic equilibrium ────────────────────────────────────────────────────────────
def _titration(ca: float, va: float, cb: float) -> GraphSpec:
    """pH against volume of NaOH (mL) for HCl (ca, va mL) titrated with NaOH (cb)."""
    v_eq = round(ca * va / cb, 9)
    v_max = math.ceil(2 * v_eq / 5) * 5

    def ph(v: float) -> float:
        excess = (ca * va - cb * v) / (va + v)
        if abs(excess) < 1e-12:
            return 7.0
        return -math.log10(excess) if excess > 0 else 14 + math.log10(-excess)

    near = (0.999, 0.995, 0.99, 0.98, 0.95, 1.0, 1.01, 1.005, 1.001, 1.02, 1.05)
    vs = sorted({round(x, 6) for x in [*ticks(0, v_max, 1), *(v_eq * f for f in near)]})
    return GraphSpec(
        x=axis("V", ML, ticks(0, v_max, 5)),
        y=axis("pH", "", ticks(0, 14, 2)),
        series=(Series(points=tuple((v, round(ph(v), 6)) for v in vs), smooth=True),),
        marks=(
            Mark(x=0.0, y=round(ph(0), 6), text=point_text(0, round(ph(0), 6))),
            Mark(x=v_eq, y=7.0, text=point_text(v_eq, 7)),
        ),
    )


TITRATION_ALT = (
    "A titration curve, pH against the volume V of sodium hydroxide added in millilitres: the "
    "pH starts low, rises slowly, then steeply, then levels off high; the starting point and "
    "the point at pH 7 are labelled with their coordinates."
)


@template(
    "fig-graph-titration-acid-molarity",
    CHE,
    "che-ph-of-strong-acids-and-bases",
    Demand(reversed=True),
)
def titration_acid(rng: random.Random) -> FigureQuestion | None:
    va = float(rng.choice((10, 20, 25)))
    cb = rng.choice((0.1, 0.2))
    v_eq = float(rng.choice((10, 12, 15, 16, 20, 24, 25, 30)))
    ca = cb * v_eq / va
    if not 0.02 <= ca <= 0.5:
        return None
    spec = _titration(ca, va, cb)
    spec = spec.model_copy(update={"marks": spec.marks[1:]})  # the start's pH is not needed
    return numeric(
        rng,
        spec=spec,
        caption="Figure: the titration curve of HCl with NaOH",
        alt=TITRATION_ALT.replace(
            "the starting point and the point at pH 7 are", "the point at pH 7 is"
        ),
        stem=f"$V_{{\\mathrm{{HCl}}}} = {t_(va)}\\ \\mathrm{{mL}}$ of a hydrochloric acid "
        "solution is "
        f"titrated with $c_{{\\mathrm{{NaOH}}}} = {t_(cb)}\\ \\mathrm{{mol\\,L^{{-1}}}}$ sodium "
        "hydroxide, and the pH is plotted against the volume $V$ of NaOH added, as shown. The "
        "molarity of the HCl solution is",
        answer=ca,
        unit=MOLL,
        mistakes=[
            ("inverting the ratio of the volumes", cb * va / v_eq),
            ("dividing by the total volume at the equivalence point", cb * v_eq / (va + v_eq)),
            ("counting two moles of NaOH per mole of HCl", cb * v_eq / (2 * va)),
            ("taking the acid as concentrated as the base", cb),
        ],
        method="For a strong acid and a strong base the equivalence point is at pH 7, where "
        f"$V = {t_(v_eq)}$ mL; there $c_{{\\mathrm{{HCl}}}} V_{{\\mathrm{{HCl}}}} = "
        f"c_{{\\mathrm{{NaOH}}}} V$, so $c_{{\\mathrm{{HCl}}}} = "
        f"\\dfrac{{{t_(cb)} \\times {t_(v_eq)}}}{{{t_(va)}}}$",
    )


@template(
    "fig-graph-titration-base-from-ph",
    CHE,
    "che-ph-of-strong-acids-and-bases",
    Demand(steps=2, concepts=2),
)
def titration_base(rng: random.Random) -> FigureQuestion | None:
    va = float(rng.choice((10, 20, 25)))
    ph0 = rng.choice((1, 2))
    ca = 10.0**-ph0
    v_eq = float(rng.choice((10, 12, 15, 16, 20, 24, 25, 30)))
    cb = ca * va / v_eq
    spec = _titration(ca, va, cb)
    return numeric(
        rng,
        spec=spec,
        caption="Figure: the titration curve of HCl with NaOH",
        alt=TITRATION_ALT,
        stem=f"$V_{{\\mathrm{{HCl}}}} = {t_(va)}\\ \\mathrm{{mL}}$ of a hydrochloric acid "
        "solution is "
        "titrated with a sodium hydroxide solution, and the pH is plotted against the volume "
        "$V$ of NaOH added, as shown. The molarity of the NaOH solution is",
        answer=cb,
        unit=MOLL,
        mistakes=[
            ("inverting the ratio of the volumes", ca * v_eq / va),
            ("dividing by the total volume at the equivalence point", ca * va / (va + v_eq)),
            ("taking the base as concentrated as the acid", ca),
            ("counting two moles of HCl per mole of NaOH", ca * va / (2 * v_eq)),
        ],
        method=f"The starting pH {ph0} of the strong acid gives $c_{{\\mathrm{{HCl}}}} = "
        f"[\\mathrm{{H^+}}] = 10^{{-{ph0}}}$ mol L⁻¹; equivalence (pH 7) is at "
        f"$V = {t_(v_eq)}$ mL, so $c_{{\\mathrm{{NaOH}}}} = "
        f"\\dfrac{{10^{{-{ph0}}} \\times {t_(va)}}}{{{t_(v_eq)}}}$",
    )


# ── Chemistry: thermodynamics ───────────────────────────────────────────────────────────────
@template("fig-graph-pv-work-on-gas", CHE, "che-ideal-gas-equation", Demand(near_miss=True))
def pv_work_on_gas(rng: random.Random) -> FigureQuestion | None:
    v1 = float(rng.choice((1, 2, 3)))
    v2 = v1 + rng.choice((2, 3, 4, 5))
    pa, pb = rng.sample((1.0, 2.0, 3.0, 4.0), 2)
    isobaric_first = rng.random() < 0.5
    corners = [(v1, pa), (v2, pa), (v2, pb)] if isobaric_first else [(v1, pa), (v1, pb), (v2, pb)]
    p_work, p_other = (pa, pb) if isobaric_first else (pb, pa)
    spec = GraphSpec(
        x=axis("V", LITRE, ticks(0, v2 + 1, 1)),
        y=axis("p", BAR, ticks(0, max(pa, pb) + 1, 1)),
        series=(Series(points=tuple(corners), arrows=True),),
        marks=tuple(
            Mark(x=v, y=p, text=n, guides=False) for n, (v, p) in zip("ABC", corners, strict=True)
        ),
    )
    w = -p_work * (v2 - v1) * 100  # J (1 L bar = 100 J)
    return numeric(
        rng,
        spec=spec,
        caption="Figure: a gas taken from A to C on a p–V diagram",
        alt="A pressure–volume diagram, pressure p in bar against volume V in litres: the path "
        "A → B → C made of one horizontal and one vertical step, corners on grid lines.",
        stem="An ideal gas is taken from state A to state C along the path A → B → C shown in the "
        "figure. The work done on the gas, $w$, is (1 L bar = 100 J)",
        answer=w,
        unit=JOULE,
        mistakes=[
            ("leaving out the minus sign of w = −p ΔV (work done by the gas)", -w),
            ("using the pressure of the other state", -p_other * (v2 - v1) * 100),
            ("using the final volume instead of the change in volume", -p_work * v2 * 100),
            ("using the initial volume instead of the change", -p_work * v1 * 100),
        ],
        method="Only the constant-pressure step changes the volume; on the gas "
        f"$w = -p\\,\\Delta V = -{t_(p_work)}\\ \\mathrm{{bar}} \\times ({t_(v2)} - {t_(v1)})"
        "\\ \\mathrm{L}$ (the constant-volume step does no work), $\\times 100$ J per L bar",
    )


GRAPH_TEMPLATES: tuple[FigureTemplate, ...] = tuple(TEMPLATES)
