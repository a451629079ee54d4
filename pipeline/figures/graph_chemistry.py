"""Graph figure templates, Chemistry: kinetics plots, titration curves and p–V work."""

from __future__ import annotations

import math
import random

from core.figures import GraphSpec
from core.figures.graph import Mark, Series, point_text
from core.records import QuestionFormat
from pipeline.difficulty import Demand
from pipeline.figures.graph_kit import (
    BAR,
    CHE,
    JOULE,
    KJMOL,
    LITRE,
    LN2,
    LN10,
    MIN,
    ML,
    MOLL,
    PER_K,
    PER_MIN,
    Mistake,
    S,
    axis,
    numeric,
    t_,
    template,
    ticks,
)
from pipeline.figures.templates import FigureQuestion, FigureTemplate

CHEMISTRY: list[FigureTemplate] = []


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


@template(
    CHEMISTRY, "fig-graph-zero-order-rate-constant", CHE, "che-zero-order-reactions", Demand()
)
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


@template(
    CHEMISTRY, "fig-graph-zero-order-half-life", CHE, "che-zero-order-reactions", Demand(steps=2)
)
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


@template(
    CHEMISTRY, "fig-graph-first-order-half-life", CHE, "che-first-order-reactions", Demand(steps=2)
)
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


@template(
    CHEMISTRY, "fig-graph-first-order-log-rate-constant", CHE, "che-first-order-reactions", Demand()
)
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


@template(CHEMISTRY, "fig-graph-order-from-plot", CHE, "che-order-and-molecularity", Demand())
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


@template(
    CHEMISTRY,
    "fig-graph-arrhenius-activation-energy",
    CHE,
    "che-arrhenius-equation",
    Demand(steps=2),
)
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
    tex_name = "\\log k" if log10 else "\\ln k"
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
        stem=f"The figure shows the Arrhenius plot of ${tex_name}$ against $1/T$ "
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
    CHEMISTRY,
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
    CHEMISTRY,
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
@template(
    CHEMISTRY, "fig-graph-pv-work-on-gas", CHE, "che-ideal-gas-equation", Demand(near_miss=True)
)
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
