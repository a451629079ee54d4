"""Multi-step, multi-concept Physics numericals: mechanics, properties of matter, heat, waves.

Each template chains relations from different concepts (`Step`s, then the final relation); the
solver re-derives every step from the stem's numbers with sympy. Every distractor is a named
mistake at some step.
"""

from __future__ import annotations

from core.records import Subject
from pipeline.difficulty import Demand
from pipeline.generate.numerical import Mistake, NumericalTemplate, Quantity, Step, span

PHY = Subject.PHYSICS
Q = Quantity
MS, MS2 = r"\mathrm{m\,s^{-1}}", r"\mathrm{m\,s^{-2}}"
G_TEN = Q("g", "g", MS2, choices=(9.8, 10.0))

MECHANICS_CHAINS: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-chain-pendulum-tension-at-bottom",
        PHY,
        "phy-motion-in-vertical-circle",
        Demand(steps=2, concepts=2),
        "the speed at the lowest point from energy conservation, then the tension from the "
        "centripetal force there",
        givens=(
            Q("m", "m", r"\mathrm{kg}", choices=span(0.1, 2.0, 0.1)),
            Q("L", "L", r"\mathrm{m}", choices=span(0.5, 2.5, 0.1)),
            Q("h", "h", r"\mathrm{m}", choices=span(0.1, 2.0, 0.1)),
            G_TEN,
        ),
        unknown=Q("T", "T", r"\mathrm{N}"),
        chain=(
            Step(
                Q("v", "v", MS),
                "Eq(m*v**2/2, m*g*h)",
                "conservation of mechanical energy",
                compute=lambda p: (2 * p["g"] * p["h"]) ** 0.5,
            ),
        ),
        relation="Eq(T - m*g, m*v**2/L)",
        concept="centripetal force in a vertical circle",
        compute=lambda p: p["m"] * p["g"] + 2 * p["m"] * p["g"] * p["h"] / p["L"],
        mistakes=(
            Mistake(
                "leaving out the weight: T = mv²/L",
                lambda p: 2 * p["m"] * p["g"] * p["h"] / p["L"],
            ),
            Mistake(
                "subtracting the weight: T = mv²/L − mg",
                lambda p: 2 * p["m"] * p["g"] * p["h"] / p["L"] - p["m"] * p["g"],
            ),
            Mistake(
                "taking v² = gh (dropping the 2 in energy conservation)",
                lambda p: p["m"] * p["g"] + p["m"] * p["g"] * p["h"] / p["L"],
            ),
            Mistake(
                "using the height h as the radius of the circle",
                lambda p: p["m"] * p["g"] + 2 * p["m"] * p["g"],
            ),
        ),
        stem="A small bob of mass {m} hangs from a light inextensible string of length {L}. "
        "It is pulled aside, with the string taut, until it is a height {h} above its lowest "
        "point, and released from rest. Taking {g} and neglecting air resistance, the tension "
        "in the string as the bob passes through the lowest point is",
        method="Energy conservation from release to the lowest point: $\\tfrac{{1}}{{2}}mv^2 = "
        "mgh$, so $v = \\sqrt{{2gh}} = {v}\\ \\mathrm{{m\\,s^{{-1}}}}$. At the lowest point the "
        "net upward force is centripetal: $T - mg = \\dfrac{{mv^2}}{{L}}$, so $T = mg + "
        "\\dfrac{{2mgh}}{{L}} =$ {answer}.",
        accept=lambda p: p["h"] <= p["L"],
    ),
)
