"""Graph figure templates, Chemistry: Raoult's-law plots, Kohlrausch plots, ΔG–T lines and the
first ionisation enthalpies of the first twenty elements."""

from __future__ import annotations

import itertools
import math
import random

from core.figures import GraphSpec
from core.figures.graph import Axis, Mark, Series, point_text
from core.records import QuestionFormat
from pipeline.difficulty import Demand
from pipeline.figures.graph_kit import (
    CHE,
    KJMOL,
    KPA,
    axis,
    numeric,
    t_,
    template,
    ticks,
)
from pipeline.figures.templates import FigureQuestion, FigureTemplate

CHEMISTRY_PHYSICAL: list[FigureTemplate] = []

KELVIN = r"\mathrm{K}"
JKMOL = r"\mathrm{J\,K^{-1}\,mol^{-1}}"
SCM2MOL = r"\mathrm{S\,cm^{2}\,mol^{-1}}"
SCM = r"\mathrm{S\,cm^{-1}}"


# ── Chemistry: solutions (Raoult's law) ─────────────────────────────────────────────────────
def _raoult(rng: random.Random) -> tuple[GraphSpec, float, float, float] | None:
    """Vapour pressure against x_A for an ideal solution of A and B: the partial pressures and
    the total, straight lines whose ends sit on grid lines; and a mole fraction to ask about."""
    pa, pb = rng.sample((20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0), 2)
    if abs(pa - pb) < 20:  # the three lines' labels would crowd
        return None
    xa = rng.choice((0.1, 0.3, 0.4, 0.6, 0.7, 0.9, 0.25, 0.75))
    spec = GraphSpec(
        x=axis("xA", "", ticks(0, 1, 0.2)),
        y=axis("p", KPA, ticks(0, max(pa, pb) + 10, 10)),
        series=(
            Series(points=((0.0, 0.0), (1.0, pa)), label="pA"),
            Series(points=((0.0, pb), (1.0, 0.0)), label="pB"),
            Series(points=((0.0, pb), (1.0, pa)), label="p total"),
        ),
    )
    return spec, xa, pa, pb


RAOULT_ALT = (
    "A graph of vapour pressure p in kilopascals against the mole fraction xA of A in the "
    "liquid, from 0 to 1: three straight lines, the partial pressure of A rising from zero, the "
    "partial pressure of B falling to zero, and the total vapour pressure joining the pure "
    "liquids' vapour pressures, their ends on grid lines."
)
RAOULT_STEM = (
    "Two liquids A and B form an ideal solution. The figure shows the partial vapour pressures "
    "and the total vapour pressure at a fixed temperature against the mole fraction $x_A$ of A "
    "in the liquid."
)


@template(CHEMISTRY_PHYSICAL, "fig-graph-raoult-partial-pressure", CHE, "che-raoults-law", Demand())
def raoult_partial(rng: random.Random) -> FigureQuestion | None:
    drawn = _raoult(rng)
    if drawn is None:
        return None
    spec, xa, pa, pb = drawn
    xb = 1 - xa
    return numeric(
        rng,
        spec=spec,
        caption="Figure: vapour pressure of an ideal solution of A and B",
        alt=RAOULT_ALT,
        stem=f"{RAOULT_STEM} The partial vapour pressure of A over a solution with "
        f"$x_{{\\mathrm{{A}}}} = {t_(xa)}$ is",
        answer=xa * pa,
        unit=KPA,
        mistakes=[
            ("using the mole fraction of B", xb * pa),
            ("using the vapour pressure of pure B", xa * pb),
            ("taking the vapour pressure of pure A", pa),
            ("using the total vapour pressure of the solution", xa * pa + xb * pb),
        ],
        method="By Raoult's law $p_A = x_A\\,p_A^\\circ$, with $p_A^\\circ$ read where the "
        f"$p_A$ line reaches $x_A = 1$: $p_A = {t_(xa)} \\times {t_(pa)}\\ \\mathrm{{kPa}}$",
    )


@template(
    CHEMISTRY_PHYSICAL,
    "fig-graph-raoult-total-pressure",
    CHE,
    "che-raoults-law",
    Demand(steps=2),
)
def raoult_total(rng: random.Random) -> FigureQuestion | None:
    drawn = _raoult(rng)
    if drawn is None:
        return None
    spec, xa, pa, pb = drawn
    xb = 1 - xa
    return numeric(
        rng,
        spec=spec,
        caption="Figure: vapour pressure of an ideal solution of A and B",
        alt=RAOULT_ALT,
        stem=f"{RAOULT_STEM} The total vapour pressure over a solution with "
        f"$x_{{\\mathrm{{A}}}} = {t_(xa)}$ is",
        answer=xa * pa + xb * pb,
        unit=KPA,
        mistakes=[
            ("swapping the pure components' vapour pressures", xa * pb + xb * pa),
            ("adding the pure liquids' vapour pressures", pa + pb),
            ("leaving out the partial pressure of B", xa * pa),
            ("averaging the pure liquids' vapour pressures", (pa + pb) / 2),
        ],
        method="The intercepts give $p_A^\\circ = "
        f"{t_(pa)}$ kPa (at $x_A = 1$) and $p_B^\\circ = {t_(pb)}$ kPa (at $x_A = 0$); "
        "$p = x_A\\,p_A^\\circ + x_B\\,p_B^\\circ = "
        f"{t_(xa)} \\times {t_(pa)} + {t_(round(xb, 9))} \\times {t_(pb)}$",
    )


@template(
    CHEMISTRY_PHYSICAL,
    "fig-graph-raoult-vapour-composition",
    CHE,
    "che-raoults-law",
    Demand(steps=3, concepts=2),
)
def raoult_vapour(rng: random.Random) -> FigureQuestion | None:
    drawn = _raoult(rng)
    if drawn is None:
        return None
    spec, xa, pa, pb = drawn
    xb = 1 - xa
    total = xa * pa + xb * pb
    ya = xa * pa / total
    return numeric(
        rng,
        spec=spec,
        caption="Figure: vapour pressure of an ideal solution of A and B",
        alt=RAOULT_ALT,
        stem=f"{RAOULT_STEM} For the solution with $x_{{\\mathrm{{A}}}} = {t_(xa)}$, the mole "
        "fraction of A in the vapour in equilibrium with it is",
        answer=ya,
        unit="",
        mistakes=[
            ("taking the vapour to have the liquid's composition", xa),
            ("giving the mole fraction of B in the vapour", 1 - ya),
            ("dividing by the sum of the pure vapour pressures", xa * pa / (pa + pb)),
            ("swapping the pure components' vapour pressures", xa * pb / (xa * pb + xb * pa)),
        ],
        method=f"Raoult's law gives $p_A = {t_(xa)} \\times {t_(pa)}$ kPa and "
        f"$p_B = {t_(round(xb, 9))} \\times {t_(pb)}$ kPa; by Dalton's law "
        "$y_A = \\dfrac{p_A}{p_A + p_B}$",
    )


# ── Chemistry: thermodynamics (ΔG = ΔH − TΔS) ───────────────────────────────────────────────
# (reaction, ΔrH° in kJ mol⁻¹, ΔrS° in J K⁻¹ mol⁻¹): standard values near 298 K, taken as
# independent of temperature.
GIBBS_REACTIONS = (
    (r"\mathrm{CaCO_3(s) \rightarrow CaO(s) + CO_2(g)}", 178.0, 160.0),
    (r"\mathrm{N_2O_4(g) \rightarrow 2NO_2(g)}", 57.2, 175.8),
    (r"\mathrm{NH_4Cl(s) \rightarrow NH_3(g) + HCl(g)}", 176.0, 284.0),
    (r"\mathrm{2HgO(s) \rightarrow 2Hg(l) + O_2(g)}", 181.6, 216.0),
    (r"\mathrm{PCl_5(g) \rightarrow PCl_3(g) + Cl_2(g)}", 87.9, 170.0),
    (r"\mathrm{H_2O(l) \rightarrow H_2O(g)}", 44.0, 118.8),
)


def _gibbs(rng: random.Random) -> tuple[GraphSpec, str, float, float, float]:
    reaction, dh, ds = rng.choice(GIBBS_REACTIONS)
    t_cross = dh * 1000 / ds
    step = 50.0 if t_cross < 600 else 100.0
    t2 = rng.choice([t for t in ticks(step, 10 * step, step) if 0.35 <= t / t_cross <= 0.85])
    g2 = round(dh - t2 * ds / 1000, 3)
    y_step = 10.0 if dh < 100 else 20.0
    spec = GraphSpec(
        x=axis("T", KELVIN, ticks(0, t2 + step, step)),
        y=axis("ΔG°", KJMOL, ticks(0, math.ceil(dh / y_step) * y_step + y_step, y_step)),
        series=(Series(points=((0.0, dh), (t2, g2))),),
        marks=(
            Mark(x=0.0, y=dh, text=point_text(0, dh)),
            Mark(x=t2, y=g2, text=point_text(t2, g2)),
        ),
    )
    return spec, reaction, dh, t2, g2


GIBBS_ALT = (
    "A graph of the standard Gibbs energy change ΔG° in kilojoules per mole against the "
    "temperature T in kelvin: a falling straight line from the ΔG° axis, still above zero at "
    "its end; both ends are labelled with their coordinates."
)


def _gibbs_stem(reaction: str) -> str:
    return (
        f"For the reaction ${reaction}$, the standard Gibbs energy change $\\Delta_r G^\\circ$ "
        "varies with temperature as shown (take $\\Delta_r H^\\circ$ and $\\Delta_r S^\\circ$ "
        "as independent of temperature)."
    )


@template(
    CHEMISTRY_PHYSICAL,
    "fig-graph-gibbs-entropy-from-slope",
    CHE,
    "che-gibbs-energy-and-equilibrium",
    Demand(reversed=True),
)
def gibbs_entropy(rng: random.Random) -> FigureQuestion | None:
    spec, reaction, dh, t2, g2 = _gibbs(rng)
    return numeric(
        rng,
        spec=spec,
        caption="Figure: ΔG° against temperature",
        alt=GIBBS_ALT,
        stem=f"{_gibbs_stem(reaction)} The standard entropy change of the reaction, "
        "$\\Delta_r S^\\circ$, is",
        answer=(dh - g2) * 1000 / t2,
        unit=JKMOL,
        mistakes=[
            ("taking ΔS = ΔG/T at the end of the line", g2 * 1000 / t2),
            ("taking ΔS = ΔH/T at the end of the line", dh * 1000 / t2),
            ("leaving ΔG in kJ while giving ΔS in J", (dh - g2) / t2, True),
            ("losing the sign of the slope", -(dh - g2) * 1000 / t2),
        ],
        method="$\\Delta_r G^\\circ = \\Delta_r H^\\circ - T\\,\\Delta_r S^\\circ$ is a straight "
        "line of slope $-\\Delta_r S^\\circ$: $\\Delta_r S^\\circ = "
        f"\\dfrac{{({t_(dh)} - {t_(g2)}) \\times 1000}}{{{t_(t2)}}}\\ "
        "\\mathrm{J\\,K^{-1}\\,mol^{-1}}$",
    )


@template(
    CHEMISTRY_PHYSICAL,
    "fig-graph-gibbs-spontaneity-temperature",
    CHE,
    "che-gibbs-energy-and-equilibrium",
    Demand(steps=3, concepts=2),
)
def gibbs_temperature(rng: random.Random) -> FigureQuestion | None:
    spec, reaction, dh, t2, g2 = _gibbs(rng)
    ds_read = (dh - g2) / t2  # kJ K⁻¹ mol⁻¹
    t_cross = dh / ds_read
    return numeric(
        rng,
        spec=spec,
        caption="Figure: ΔG° against temperature",
        alt=GIBBS_ALT,
        stem=f"{_gibbs_stem(reaction)} The temperature above which the reaction is "
        "spontaneous under standard conditions is",
        answer=t_cross,
        unit=KELVIN,
        mistakes=[
            ("taking ΔS = ΔG/T at the end of the line", dh * t2 / g2),
            ("dividing ΔG at the end of the line by ΔS", g2 / ds_read),
            ("adding the temperature of the end to ΔG/ΔS there", t2 + dh / ds_read),
            ("taking the temperature at the end of the line", t2),
        ],
        method="The intercept is $\\Delta_r H^\\circ = "
        f"{t_(dh)}$ kJ mol⁻¹ and the slope $-\\Delta_r S^\\circ$, so $\\Delta_r S^\\circ = "
        f"\\dfrac{{{t_(dh)} - {t_(g2)}}}{{{t_(t2)}}}\\ \\mathrm{{kJ\\,K^{{-1}}\\,mol^{{-1}}}}$; "
        "$\\Delta_r G^\\circ < 0$ when $T > \\dfrac{\\Delta_r H^\\circ}{\\Delta_r S^\\circ}$",
    )


# ── Chemistry: electrochemistry (Kohlrausch) ────────────────────────────────────────────────
# (strong electrolyte, Λ°m in S cm² mol⁻¹ at 298 K, NCERT's table 2.3 and nearby values).
STRONG_ELECTROLYTES = (
    ("KCl", 149.9),
    ("NaCl", 126.4),
    ("KNO_3", 145.0),
    ("LiCl", 115.0),
    ("AgNO_3", 133.4),
)
ROOT_C = "√(c/mol L⁻¹)"


def _kohlrausch(
    rng: random.Random,
) -> tuple[GraphSpec, str, tuple[float, float], tuple[float, float]]:
    """Λm against √c, a straight line Λm = Λ°m − A√c drawn from the Λm axis; two points on it
    labelled with their coordinates, the intercept itself not on a grid line."""
    name, lam0 = rng.choice(STRONG_ELECTROLYTES)
    a = float(rng.choice((80, 85, 90, 95, 100)))
    r1 = rng.choice((0.1, 0.15, 0.2))
    r2 = round(r1 + rng.choice((0.1, 0.15)), 9)
    p1 = (r1, round(lam0 - a * r1, 3))
    p2 = (r2, round(lam0 - a * r2, 3))
    end = round(r2 + 0.05, 9)
    low = math.floor((lam0 - a * end) / 10) * 10 - 10
    marks_y = ticks(low, math.ceil(lam0 / 10) * 10 + 10, 10)
    pad = 0.04 * (marks_y[-1] - marks_y[0])
    spec = GraphSpec(
        x=axis(ROOT_C, "", ticks(0, end + 0.05, 0.05)),
        y=Axis(name="Λm", unit=SCM2MOL, ticks=marks_y, low=marks_y[0], high=marks_y[-1] + pad),
        series=(Series(points=((0.0, lam0), p1, p2, (end, round(lam0 - a * end, 6)))),),
        marks=(
            Mark(x=p1[0], y=p1[1], text=point_text(*p1)),
            Mark(x=p2[0], y=p2[1], text=point_text(*p2)),
        ),
    )
    return spec, name, p1, p2


KOHL_ALT = (
    "A graph of the molar conductivity Λm in siemens square centimetre per mole against the "
    "square root of the concentration in moles per litre: a falling straight line starting on "
    "the Λm axis, with two points on it labelled with their coordinates."
)


def _kohl_stem(name: str) -> str:
    return (
        f"The molar conductivity $\\Lambda_m$ of aqueous $\\mathrm{{{name}}}$ at 298 K, "
        "plotted against $\\sqrt{c}$, gives the straight line shown."
    )


@template(
    CHEMISTRY_PHYSICAL,
    "fig-graph-kohlrausch-limiting-conductivity",
    CHE,
    "che-kohlrausch-law",
    Demand(steps=2),
)
def kohlrausch_limiting(rng: random.Random) -> FigureQuestion | None:
    spec, name, (x1, y1), (x2, y2) = _kohlrausch(rng)
    slope = (y1 - y2) / (x2 - x1)
    return numeric(
        rng,
        spec=spec,
        caption="Figure: molar conductivity against √c",
        alt=KOHL_ALT,
        stem=f"{_kohl_stem(name)} The limiting molar conductivity $\\Lambda_m^\\circ$ of "
        f"$\\mathrm{{{name}}}$ is",
        answer=y1 + slope * x1,
        unit=SCM2MOL,
        mistakes=[
            ("taking the reading at the more dilute point", y1),
            ("taking the reading at the more concentrated point", y2),
            ("extrapolating the wrong way, Λ₁ − A√c₁", y1 - slope * x1),
            ("adding A√c of the concentrated point to the dilute reading", y1 + slope * x2),
            ("averaging the two readings", (y1 + y2) / 2),
        ],
        method="Kohlrausch: $\\Lambda_m = \\Lambda_m^\\circ - A\\sqrt{c}$; the slope gives "
        f"$A = \\dfrac{{{t_(y1)} - {t_(y2)}}}{{{t_(x2)} - {t_(x1)}}}$, and "
        f"$\\Lambda_m^\\circ = {t_(y1)} + A \\times {t_(x1)}$",
    )


@template(
    CHEMISTRY_PHYSICAL,
    "fig-graph-kohlrausch-conductivity",
    CHE,
    "che-kohlrausch-law",
    Demand(steps=3, concepts=2),
)
def kohlrausch_conductivity(rng: random.Random) -> FigureQuestion | None:
    spec, name, (x1, y1), (x2, y2) = _kohlrausch(rng)
    slope = (y1 - y2) / (x2 - x1)
    root = rng.choice([r for r in (0.05, 0.1, 0.15, 0.2, 0.25, 0.3) if r not in (x1, x2)])
    c = round(root**2, 9)
    lam = y1 - slope * (root - x1)
    return numeric(
        rng,
        spec=spec,
        caption="Figure: molar conductivity against √c",
        alt=KOHL_ALT,
        stem=f"{_kohl_stem(name)} The conductivity $\\kappa$ of a solution of "
        f"$\\mathrm{{{name}}}$ with $c = {t_(c)}\\ \\mathrm{{mol\\,L^{{-1}}}}$ is",
        answer=lam * c / 1000,
        unit=SCM,
        mistakes=[
            ("forgetting the 1000 cm³ in a litre", lam * c, True),
            ("reading the line at √c = c", (y1 - slope * (c - x1)) * c / 1000),
            ("using the limiting molar conductivity", (y1 + slope * x1) * c / 1000),
            ("multiplying by √c instead of c", lam * root / 1000),
            ("using the reading at the more dilute point", y1 * c / 1000),
        ],
        method=f"The line gives $A = \\dfrac{{{t_(y1)} - {t_(y2)}}}{{{t_(x2)} - {t_(x1)}}}$; at "
        f"$\\sqrt{{c}} = {t_(root)}$, $\\Lambda_m = {t_(y1)} - A({t_(root)} - {t_(x1)})$ "
        "S cm² mol⁻¹, and $\\kappa = \\dfrac{\\Lambda_m\\,c}{1000}$",
    )


# ── Chemistry: periodicity (first ionisation enthalpy) ──────────────────────────────────────
# First ionisation enthalpies, kJ mol⁻¹ (NCERT, Class XI, Unit 3), Z = 1 to 20.
IONISATION = (
    ("H", 1312),
    ("He", 2372),
    ("Li", 520),
    ("Be", 899),
    ("B", 801),
    ("C", 1086),
    ("N", 1402),
    ("O", 1314),
    ("F", 1681),
    ("Ne", 2080),
    ("Na", 496),
    ("Mg", 737),
    ("Al", 577),
    ("Si", 786),
    ("P", 1012),
    ("S", 1000),
    ("Cl", 1251),
    ("Ar", 1521),
    ("K", 419),
    ("Ca", 590),
)
# Neighbours in one period where the later element's first ionisation enthalpy is the lower:
# a p electron above a filled s subshell (Be/B, Mg/Al), a paired p electron (N/O, P/S).
ANOMALIES = {
    ("Be", "B"): "B loses a 2p electron, higher in energy and shielded by the filled 2s subshell",
    ("N", "O"): "O loses a paired 2p electron, repelled by its partner, while N has a stable "
    "half-filled 2p³",
    ("Mg", "Al"): "Al loses a 3p electron, higher in energy and shielded by the filled 3s subshell",
    ("P", "S"): "S loses a paired 3p electron, repelled by its partner, while P has a stable "
    "half-filled 3p³",
}


@template(
    CHEMISTRY_PHYSICAL,
    "fig-graph-ionisation-enthalpy-anomaly",
    CHE,
    "che-ionisation-enthalpy",
    Demand(near_miss=True),
)
def ionisation_anomaly(rng: random.Random) -> FigureQuestion | None:
    first, last = rng.choice((1, 2, 3)), rng.choice(range(12, 21))
    shown = IONISATION[first - 1 : last]
    symbols = [sym for sym, _ in shown]
    pair = rng.choice([p for p in ANOMALIES if p[1] in symbols and p[0] in symbols])
    # Neighbours in one period whose ionisation enthalpy rises, as it usually does.
    rising = [(a, b) for (a, ia), (b, ib) in itertools.pairwise(shown) if ib > ia]
    others = rng.sample(rising, 3)
    options = [f"{a} and {b}" for a, b in (pair, *others)]
    correct = options[0]
    rng.shuffle(options)
    spec = GraphSpec(
        x=axis("Z", "", ticks(0, 20, 2)),
        y=axis("ΔiH₁", KJMOL, ticks(0, 2500, 500)),
        series=(
            Series(points=tuple((float(first + i), float(v)) for i, (_, v) in enumerate(shown))),
        ),
        marks=tuple(
            Mark(x=float(first + i), y=float(v), text=sym, guides=False)
            for i, (sym, v) in enumerate(shown)
        ),
    )
    return FigureQuestion(
        spec=spec,
        caption="Figure: first ionisation enthalpy against atomic number",
        alt="A graph of the first ionisation enthalpy in kilojoules per mole against the atomic "
        f"number Z, from Z = {first} to {last}: each element's point labelled with its symbol, "
        "joined by straight lines, with peaks at the noble gases and troughs at the alkali "
        "metals.",
        format=QuestionFormat.SINGLE_CORRECT,
        stem="The figure shows the first ionisation enthalpies of successive elements. In which "
        "pair of neighbouring elements does the element of higher atomic number have the lower "
        "first ionisation enthalpy, against the general rise across a period?",
        options=(options[0], options[1], options[2], options[3]),
        correct=correct,
        explanation=f"Across a period the first ionisation enthalpy generally rises with the "
        f"nuclear charge, but it falls from {pair[0]} to {pair[1]}: {ANOMALIES[pair]}. In the "
        "other pairs the graph rises.",
        group=f"{pair[0]}-{pair[1]}",
    )
