"""Graph figure templates, Physics: motion graphs, I–V lines and p–V cycles."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from core.figures import GraphSpec
from core.figures.graph import Axis, Mark, Series, point_text
from pipeline.difficulty import Demand
from pipeline.figures.graph_kit import (
    AMP,
    JOULE,
    KPA,
    LITRE,
    MS,
    MS2,
    OHM,
    PHY,
    VOLT,
    M,
    Mistake,
    S,
    axis,
    numeric,
    t_,
    template,
    ticks,
)
from pipeline.figures.templates import FigureQuestion, FigureTemplate

PHYSICS: list[FigureTemplate] = []


# ── Physics: motion in a straight line ──────────────────────────────────────────────────────
VT_CAPTION = "Figure: a velocity–time graph"


def _vt_axes(times: Sequence[float], speeds: Sequence[float]) -> tuple[Axis, Axis]:
    t_step = 1.0 if max(times) <= 6 else 2.0
    lo = min(0.0, *speeds)
    return (
        axis("t", S, ticks(0, max(times), t_step)),
        axis("v", MS, ticks(lo, max(speeds), 5)),
    )


@template(PHYSICS, "fig-graph-vt-acceleration", PHY, "phy-motion-graphs", Demand())
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


@template(PHYSICS, "fig-graph-vt-distance", PHY, "phy-motion-graphs", Demand(near_miss=True))
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
    PHYSICS,
    "fig-graph-vt-displacement-signed",
    PHY,
    "phy-motion-graphs",
    Demand(steps=2, near_miss=True),
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


@template(
    PHYSICS, "fig-graph-vt-average-speed", PHY, "phy-motion-graphs", Demand(steps=3, near_miss=True)
)
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


@template(PHYSICS, "fig-graph-xt-velocity", PHY, "phy-motion-graphs", Demand())
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


@template(PHYSICS, "fig-graph-iv-resistance", PHY, "phy-ohms-law", Demand())
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
    PHYSICS,
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
@template(
    PHYSICS, "fig-graph-pv-cycle-work", PHY, "phy-heat-work-internal-energy", Demand(near_miss=True)
)
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
