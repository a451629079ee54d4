"""Graph figure templates, Physics: radioactive decay curves and photoelectric lines."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from core.figures import GraphSpec
from core.figures.graph import Mark, Series, point_text
from pipeline.difficulty import Demand
from pipeline.figures.graph_kit import (
    BQ,
    EV,
    HZ,
    JS,
    LN2,
    LN10,
    MIN,
    PER_MIN,
    PHY,
    VOLT,
    axis,
    numeric,
    t_,
    template,
    ticks,
)
from pipeline.figures.templates import FigureQuestion, FigureTemplate

MODERN: list[FigureTemplate] = []


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


@template(MODERN, "fig-graph-decay-constant", PHY, "phy-radioactive-decay", Demand())
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


@template(MODERN, "fig-graph-decay-remaining", PHY, "phy-radioactive-decay", Demand(steps=2))
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


@template(
    MODERN, "fig-graph-decay-activity", PHY, "phy-radioactive-decay", Demand(steps=3, concepts=2)
)
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
    MODERN,
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
    MODERN,
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
