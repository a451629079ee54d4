"""Multi-step, multi-concept Physics numericals: mechanics, properties of matter, heat, waves.

Each template chains relations from different concepts (`Step`s, then the final relation); the
solver re-derives every step from the stem's numbers with sympy. Every distractor is a named
mistake at some step.
"""

from __future__ import annotations

import math

from core.records import Subject
from pipeline.difficulty import Demand
from pipeline.generate.numerical import (
    Mistake,
    NumericalTemplate,
    Params,
    Quantity,
    Step,
    span,
    unit_slip,
)

PHY = Subject.PHYSICS
Q = Quantity
MS, MS2 = r"\mathrm{m\,s^{-1}}", r"\mathrm{m\,s^{-2}}"
KMH = r"\mathrm{km\,h^{-1}}"
KMH_SI = 1 / 3.6
CELSIUS = r"^\circ\mathrm{C}"
DEG = r"^\circ"
G_TEN = Q("g", "g", MS2, choices=(9.8, 10.0))
G_EARTH = Q("g", "g", MS2, choices=(9.8,))
R_EARTH = Q("R", "R", r"\mathrm{km}", si=1e3, choices=(6400.0,))
R_GAS = Q("Rg", "R", r"\mathrm{J\,mol^{-1}\,K^{-1}}", choices=(8.31,))
C_WATER = Q("c", "c", r"\mathrm{J\,kg^{-1}\,K^{-1}}", choices=(4200.0,))
L_ICE = Q("Lf", "L_f", r"\mathrm{J\,kg^{-1}}", choices=(3.36e5,))
# Beyond this factor from the key a distractor gives itself away (pipeline.verify.giveaway).
FAR = 9.5


def _sin(deg: float) -> float:
    return math.sin(math.radians(deg))


def _cos(deg: float) -> float:
    return math.cos(math.radians(deg))


def _near(value: float, key: float) -> float:
    """A mistake's value when it stays within FAR of the key; NaN (no option) when it does not,
    since a value that far off gives itself away."""
    return value if key and 1 / FAR <= abs(value / key) <= FAR else math.nan


# ── Unit 1: Physics and Measurement ──────────────────────────────────────────────────────────
def _pendulum_g(p: Params) -> float:
    """g from a pendulum timed over 20 oscillations: T = t/20, g = 4π²L/T²."""
    return 4 * math.pi**2 * 400 * p["L"] / p["t"] ** 2


def _trolley_force(p: Params) -> float:
    """F = ma with a = 2s/t² (uniform acceleration from rest)."""
    return p["m"] * 2 * p["s"] / p["t"] ** 2


def _trolley_error(p: Params) -> float:
    return _trolley_force(p) * (p["dm"] / p["m"] + p["ds"] / p["s"] + 2 * p["dt"] / p["t"])


# ── Unit 2: Kinematics ───────────────────────────────────────────────────────────────────────
def _flight_time(p: Params, up: float = 1.0) -> float:
    """Time to reach the ground from a tower of height h, thrown at θ above (up=1) or below
    (up=-1) the horizontal: the positive root of h = −u sinθ t + ½gt² (downward positive)."""
    us = up * p["u"] * _sin(p["theta"])
    return (us + math.sqrt(us**2 + 2 * p["g"] * p["h"])) / p["g"]


# ── Unit 3: Laws of Motion ───────────────────────────────────────────────────────────────────
def _recoil_distance(p: Params) -> float:
    speed = p["m"] * p["v"] / p["M"]
    return speed**2 / (2 * p["mu"] * p["g"])


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
    # ── Unit 1: Physics and Measurement ──────────────────────────────────────────────────────
    NumericalTemplate(
        "phy-chain-pendulum-g-absolute-error",
        PHY,
        "phy-errors-in-measurement",
        Demand(steps=2, concepts=2),
        "g from the period of the simple pendulum, then its maximum absolute error from the "
        "relative errors of L and t, the time's doubled by its power 2",
        givens=(
            Q("L", "L", r"\mathrm{cm}", si=0.01, choices=span(60, 150, 0.5)),
            Q("dL", r"\Delta L", r"\mathrm{mm}", si=1e-3, choices=(1.0,)),
            Q("t", "t", r"\mathrm{s}", choices=span(30, 50, 0.1)),
            Q("dt", r"\Delta t", r"\mathrm{s}", choices=(0.1, 0.2)),
        ),
        unknown=Q("dg", r"\Delta g", r"\mathrm{cm\,s^{-2}}", si=0.01),
        chain=(
            Step(
                Q("gv", "g", MS2),
                "Eq(gv, 4*pi**2*L/(t/20)**2)",
                "time period of a simple pendulum",
                compute=_pendulum_g,
            ),
        ),
        relation="Eq(dg, gv*(dL/L + 2*dt/t))",
        concept="propagation of relative errors through a product of powers",
        compute=lambda p: _pendulum_g(p) * (p["dL"] / p["L"] + 2 * p["dt"] / p["t"]),
        mistakes=(
            Mistake(
                "not doubling the relative error of t, though g ∝ t⁻²",
                lambda p: _pendulum_g(p) * (p["dL"] / p["L"] + p["dt"] / p["t"]),
            ),
            Mistake(
                "subtracting the relative error of t because t is in the denominator",
                lambda p: _pendulum_g(p) * abs(p["dL"] / p["L"] - 2 * p["dt"] / p["t"]),
            ),
            Mistake(
                "leaving out the error in the length",
                lambda p: _pendulum_g(p) * 2 * p["dt"] / p["t"],
            ),
            unit_slip(
                "dividing ΔL in millimetres by L in centimetres",
                lambda p: _pendulum_g(p) * (10 * p["dL"] / p["L"] + 2 * p["dt"] / p["t"]),
            ),
        ),
        stem="In an experiment to measure $g$ with a simple pendulum, the effective length is "
        "measured as {L} with a metre scale of least count {dL}, and the time for 20 "
        "oscillations is measured as {t} with a stopwatch of least count {dt}. Taking each "
        "least count as the maximum error of its reading, the maximum absolute error in the "
        "value of $g$ found from these readings is",
        method="The period is $T = t/20$, so $g = \\dfrac{{4\\pi^2 L}}{{T^2}} = "
        "\\dfrac{{4\\pi^2(400)L}}{{t^2}} = {gv}\\ \\mathrm{{m\\,s^{{-2}}}}$. Since $g \\propto "
        "L\\,t^{{-2}}$, the maximum relative errors add, each times its power: "
        "$\\dfrac{{\\Delta g}}{{g}} = \\dfrac{{\\Delta L}}{{L}} + 2\\dfrac{{\\Delta t}}{{t}} = "
        "\\dfrac{{0.1}}{{{L}}} + 2\\cdot\\dfrac{{{dt}}}{{{t}}}$ ($\\Delta L = {dL}$ mm $= 0.1$ "
        "cm), so $\\Delta g =$ {answer}.",
        accept=lambda p: 9.6 <= _pendulum_g(p) <= 10.0,
    ),
    NumericalTemplate(
        "phy-chain-trolley-force-error",
        PHY,
        "phy-errors-in-measurement",
        Demand(steps=3, concepts=3),
        "the acceleration from s = ½at² (starting from rest), the force from Newton's second "
        "law, then the force's maximum absolute error from the relative errors of m, s and t",
        givens=(
            Q("m", "m", r"\mathrm{kg}", choices=span(0.5, 5.0, 0.1)),
            Q("dm", r"\Delta m", r"\mathrm{g}", si=1e-3, choices=(5.0, 10.0, 20.0, 50.0)),
            Q("s", "s", r"\mathrm{m}", choices=span(0.5, 3.0, 0.1)),
            Q("ds", r"\Delta s", r"\mathrm{cm}", si=0.01, choices=(0.5, 1.0, 2.0)),
            Q("t", "t", r"\mathrm{s}", choices=span(1.0, 5.0, 0.1)),
            Q("dt", r"\Delta t", r"\mathrm{s}", choices=(0.02, 0.05, 0.1)),
        ),
        unknown=Q("dF", r"\Delta F", r"\mathrm{N}"),
        chain=(
            Step(
                Q("a", "a", MS2),
                "Eq(s, a*t**2/2)",
                "equations of uniformly accelerated motion",
                compute=lambda p: 2 * p["s"] / p["t"] ** 2,
            ),
            Step(Q("F", "F", r"\mathrm{N}"), "Eq(F, m*a)", "Newton's second law", _trolley_force),
        ),
        relation="Eq(dF, F*(dm/m + ds/s + 2*dt/t))",
        concept="propagation of relative errors through a product of powers",
        compute=_trolley_error,
        mistakes=(
            Mistake(
                "not doubling the relative error of t, though F ∝ t⁻²",
                lambda p: (
                    _trolley_force(p) * (p["dm"] / p["m"] + p["ds"] / p["s"] + p["dt"] / p["t"])
                ),
            ),
            Mistake(
                "dropping the ½ in s = ½at², so a = s/t²",
                lambda p: _trolley_error(p) / 2,
            ),
            Mistake(
                "subtracting the relative error of t because t is in the denominator",
                lambda p: _near(
                    _trolley_force(p)
                    * abs(p["dm"] / p["m"] + p["ds"] / p["s"] - 2 * p["dt"] / p["t"]),
                    _trolley_error(p),
                ),
            ),
            Mistake(
                "keeping only the error of the time measurement",
                lambda p: _trolley_force(p) * 2 * p["dt"] / p["t"],
            ),
        ),
        stem="A trolley of mass {m}, measured with a maximum error {dm}, starts from rest and is "
        "pulled along a straight track by a constant net force. It covers a distance {s}, "
        "measured with a maximum error {ds}, in a time {t}, measured with a maximum error {dt}. "
        "The force is calculated from these readings. The maximum absolute error in the "
        "calculated force is",
        method="From rest, $s = \\tfrac{{1}}{{2}}at^2$ gives $a = 2s/t^2 = {a}\\ "
        "\\mathrm{{m\\,s^{{-2}}}}$, and $F = ma = {F}$ N. Since $F = 2ms\\,t^{{-2}}$, the "
        "relative errors add, the time's doubled: $\\dfrac{{\\Delta F}}{{F}} = "
        "\\dfrac{{\\Delta m}}{{m}} + \\dfrac{{\\Delta s}}{{s}} + 2\\dfrac{{\\Delta t}}{{t}}$ "
        "(with $\\Delta m = {dm}$ g and $\\Delta s = {ds}$ cm in kg and m), so $\\Delta F =$ "
        "{answer}.",
        accept=lambda p: (
            0.3
            <= 2 * p["dt"] / p["t"] / (p["dm"] / p["m"] + p["ds"] / p["s"] + 2 * p["dt"] / p["t"])
            <= 0.85
        ),
    ),
    # ── Unit 2: Kinematics ───────────────────────────────────────────────────────────────────
    NumericalTemplate(
        "phy-chain-circular-track-net-acceleration",
        PHY,
        "phy-uniform-circular-motion",
        Demand(steps=3, concepts=3),
        "the speed after time t from v = a_t t, the centripetal acceleration v²/r at that "
        "speed, then the net acceleration as the resultant of the two perpendicular components",
        givens=(
            Q("r", "r", r"\mathrm{m}", choices=span(20, 200, 10)),
            Q("at", "a_t", MS2, choices=span(0.5, 4.0, 0.5)),
            Q("t", "t", r"\mathrm{s}", choices=span(2, 15, 1)),
        ),
        unknown=Q("a", "a", MS2),
        chain=(
            Step(
                Q("v", "v", MS),
                "Eq(v, at*t)",
                "equations of uniformly accelerated motion",
                compute=lambda p: p["at"] * p["t"],
            ),
            Step(
                Q("ac", "a_c", MS2),
                "Eq(ac*r, v**2)",
                "centripetal acceleration",
                compute=lambda p: (p["at"] * p["t"]) ** 2 / p["r"],
            ),
        ),
        relation="Eq(a**2, at**2 + ac**2)",
        concept="addition of perpendicular vectors",
        compute=lambda p: math.hypot(p["at"], (p["at"] * p["t"]) ** 2 / p["r"]),
        mistakes=(
            Mistake(
                "giving only the centripetal acceleration v²/r",
                lambda p: (p["at"] * p["t"]) ** 2 / p["r"],
            ),
            Mistake(
                "adding the two components as numbers: a_t + v²/r",
                lambda p: p["at"] + (p["at"] * p["t"]) ** 2 / p["r"],
            ),
            Mistake(
                "using the average speed ½a_t t in v²/r",
                lambda p: math.hypot(p["at"], (p["at"] * p["t"] / 2) ** 2 / p["r"]),
            ),
            Mistake("giving only the tangential acceleration", lambda p: p["at"]),
        ),
        stem="A car starts from rest on a circular track of radius {r} and speeds up with a "
        "constant tangential acceleration {at}. The magnitude of its total acceleration a "
        "time {t} after the start is",
        method="Along the track $v = a_t t = {v}\\ \\mathrm{{m\\,s^{{-1}}}}$. The centripetal "
        "acceleration at that speed is $a_c = v^2/r = {ac}\\ \\mathrm{{m\\,s^{{-2}}}}$, "
        "perpendicular to $a_t$, so $a = \\sqrt{{a_t^2 + a_c^2}} =$ {answer}.",
        accept=lambda p: (
            0.4 <= (p["at"] * p["t"]) ** 2 / p["r"] / p["at"] <= 4 and p["at"] * p["t"] <= 40
        ),
    ),
    NumericalTemplate(
        "phy-chain-projectile-from-tower",
        PHY,
        "phy-projectile-motion",
        Demand(steps=2, concepts=2),
        "the time of flight from the vertical motion under gravity (a quadratic in t), then the "
        "horizontal distance from the uniform horizontal velocity",
        givens=(
            Q("h", "h", r"\mathrm{m}", choices=span(10, 60, 5)),
            Q("u", "u", MS, choices=span(10, 30, 1)),
            Q("theta", r"\theta", DEG, choices=(30.0, 45.0, 60.0)),
            G_TEN,
        ),
        unknown=Q("x", "x", r"\mathrm{m}"),
        chain=(
            Step(
                Q("tf", "t", r"\mathrm{s}"),
                "Eq(-h, u*sin(theta*pi/180)*tf - g*tf**2/2)",
                "equations of motion for the vertical motion under gravity",
                compute=_flight_time,
            ),
        ),
        relation="Eq(x, u*cos(theta*pi/180)*tf)",
        concept="uniform horizontal motion of a projectile",
        compute=lambda p: p["u"] * _cos(p["theta"]) * _flight_time(p),
        mistakes=(
            Mistake(
                "using the level-ground time of flight 2u sin θ/g",
                lambda p: p["u"] * _cos(p["theta"]) * 2 * p["u"] * _sin(p["theta"]) / p["g"],
            ),
            Mistake(
                "ignoring the vertical component of the launch velocity, t = √(2h/g)",
                lambda p: p["u"] * _cos(p["theta"]) * math.sqrt(2 * p["h"] / p["g"]),
            ),
            Mistake(
                "taking the vertical component downward, as if thrown below the horizontal",
                lambda p: _near(
                    p["u"] * _cos(p["theta"]) * _flight_time(p, up=-1.0),
                    p["u"] * _cos(p["theta"]) * _flight_time(p),
                ),
            ),
            Mistake(
                "interchanging sin θ and cos θ in the components",
                lambda p: p["u"] * _sin(p["theta"]) * _flight_time({**p, "theta": 90 - p["theta"]}),
            ),
        ),
        stem="A ball is thrown from the top of a tower of height {h} with a speed {u} at an "
        "angle {theta} above the horizontal. Taking {g} and neglecting air resistance, the "
        "ball strikes the level ground at a horizontal distance from the foot of the tower of",
        method="Taking upward as positive with the origin at the top, the ball lands where "
        "$-h = (u\\sin\\theta)t - \\tfrac{{1}}{{2}}gt^2$; the positive root is $t = {tf}$ s. "
        "The horizontal velocity $u\\cos\\theta$ is constant, so $x = (u\\cos\\theta)t =$ "
        "{answer}.",
    ),
    NumericalTemplate(
        "phy-chain-braking-to-avoid-collision",
        PHY,
        "phy-relative-velocity-1d",
        Demand(steps=2, concepts=2),
        "the speed of the rear car relative to the front car, then the least retardation that "
        "brings that relative speed to zero within the gap (v² = u² − 2as in the front car's "
        "frame)",
        givens=(
            Q("uA", "u_A", KMH, si=KMH_SI, choices=span(36, 108, 6)),
            Q("uB", "u_B", KMH, si=KMH_SI, choices=span(18, 72, 6)),
            Q("d", "d", r"\mathrm{m}", choices=span(20, 100, 5)),
        ),
        unknown=Q("a", "a", MS2),
        chain=(
            Step(
                Q("ur", "u_{AB}", MS),
                "Eq(ur, uA - uB)",
                "relative velocity in one dimension",
                compute=lambda p: p["uA"] - p["uB"],
            ),
        ),
        relation="Eq(ur**2, 2*a*d)",
        concept="equations of uniformly accelerated motion",
        compute=lambda p: (p["uA"] - p["uB"]) ** 2 / (2 * p["d"]),
        mistakes=(
            Mistake(
                "using the rear car's own speed instead of the relative speed",
                lambda p: p["uA"] ** 2 / (2 * p["d"]),
            ),
            Mistake(
                "subtracting the squares of the speeds, (u_A² − u_B²)/2d",
                lambda p: (p["uA"] ** 2 - p["uB"] ** 2) / (2 * p["d"]),
            ),
            Mistake(
                "dropping the 2 in v² = u² − 2as",
                lambda p: (p["uA"] - p["uB"]) ** 2 / p["d"],
            ),
            unit_slip(
                "leaving the speeds in km h⁻¹",
                lambda p: (3.6 * (p["uA"] - p["uB"])) ** 2 / (2 * p["d"]),
            ),
        ),
        stem="Car A moves along a straight road at {uA} behind car B, which moves in the same "
        "direction at a steady {uB}. When the gap between them is {d}, the driver of A applies "
        "the brakes. The least uniform retardation of A that avoids a collision is",
        method="In B's frame, A approaches at $u_A - u_B = {ur}\\ \\mathrm{{m\\,s^{{-1}}}}$ (the "
        "speeds in m s⁻¹), and must come to rest relative to B within $d$: $0 = (u_A - u_B)^2 "
        "- 2ad$, so $a = \\dfrac{{(u_A - u_B)^2}}{{2d}} =$ {answer}.",
        accept=lambda p: (
            p["uA"] >= 1.5 * p["uB"] and 0.1 <= (p["uA"] - p["uB"]) ** 2 / (2 * p["d"]) <= 6
        ),
    ),
    # ── Unit 3: Laws of Motion ───────────────────────────────────────────────────────────────
    NumericalTemplate(
        "phy-chain-dropped-ball-average-force",
        PHY,
        "phy-impulse",
        Demand(steps=2, concepts=2),
        "the speeds just before and after the bounce from v² = 2gh, then the average force "
        "from the impulse–momentum theorem with the velocity reversed",
        givens=(
            Q("m", "m", r"\mathrm{g}", si=1e-3, choices=span(50, 500, 10)),
            Q("h1", "h_1", r"\mathrm{m}", choices=span(1.0, 5.0, 0.2)),
            Q("h2", "h_2", r"\mathrm{m}", choices=span(0.2, 3.0, 0.1)),
            Q("dt", r"\Delta t", r"\mathrm{ms}", si=1e-3, choices=span(5, 50, 5)),
            G_TEN,
        ),
        unknown=Q("F", "F", r"\mathrm{N}"),
        chain=(
            Step(
                Q("dv", r"\Delta v", MS),
                "Eq(dv, sqrt(2*g*h1) + sqrt(2*g*h2))",
                "free fall under gravity",
                compute=lambda p: math.sqrt(2 * p["g"] * p["h1"]) + math.sqrt(2 * p["g"] * p["h2"]),
            ),
        ),
        relation="Eq(F*dt, m*dv)",
        concept="impulse–momentum theorem",
        compute=lambda p: (
            p["m"] * (math.sqrt(2 * p["g"] * p["h1"]) + math.sqrt(2 * p["g"] * p["h2"])) / p["dt"]
        ),
        mistakes=(
            Mistake(
                "ignoring the reversal: Δv = v₁ − v₂",
                lambda p: (
                    p["m"]
                    * (math.sqrt(2 * p["g"] * p["h1"]) - math.sqrt(2 * p["g"] * p["h2"]))
                    / p["dt"]
                ),
            ),
            Mistake(
                "counting only the incoming velocity, as if the ball stopped",
                lambda p: p["m"] * math.sqrt(2 * p["g"] * p["h1"]) / p["dt"],
            ),
            Mistake(
                "taking v = √(gh), dropping the 2",
                lambda p: (
                    p["m"] * (math.sqrt(p["g"] * p["h1"]) + math.sqrt(p["g"] * p["h2"])) / p["dt"]
                ),
            ),
            Mistake(
                "counting only the rebound velocity",
                lambda p: p["m"] * math.sqrt(2 * p["g"] * p["h2"]) / p["dt"],
            ),
        ),
        stem="A ball of mass {m} is dropped from a height {h1} onto a hard floor and rebounds "
        "to a height {h2}. It is in contact with the floor for {dt}. Taking {g}, and ignoring "
        "the ball's weight during the brief contact, the average force exerted by the floor "
        "on the ball is",
        method="Free fall gives the speed on arrival $v_1 = \\sqrt{{2gh_1}}$ and the speed on "
        "leaving $v_2 = \\sqrt{{2gh_2}}$; the velocity reverses, so its change is $\\Delta v = "
        "v_1 + v_2 = {dv}\\ \\mathrm{{m\\,s^{{-1}}}}$. Impulse equals change of momentum: "
        "$F\\Delta t = m\\Delta v$, so $F =$ {answer}.",
        accept=lambda p: 0.2 * p["h1"] <= p["h2"] <= 0.6 * p["h1"],
    ),
    NumericalTemplate(
        "phy-chain-block-up-rough-incline",
        PHY,
        "phy-static-and-kinetic-friction",
        Demand(steps=2, concepts=2),
        "the retardation up the incline from Newton's second law with gravity and kinetic "
        "friction both acting down the slope, then the stopping distance from v² = u² − 2as",
        givens=(
            Q("theta", r"\theta", DEG, choices=span(15, 45, 5)),
            Q("mu", r"\mu_k", choices=span(0.1, 0.5, 0.05)),
            Q("u", "u", MS, choices=span(4, 15, 1)),
            G_TEN,
        ),
        unknown=Q("s", "s", r"\mathrm{m}"),
        chain=(
            Step(
                Q("a", "a", MS2),
                "Eq(a, g*sin(theta*pi/180) + mu*g*cos(theta*pi/180))",
                "Newton's second law with kinetic friction",
                compute=lambda p: p["g"] * (_sin(p["theta"]) + p["mu"] * _cos(p["theta"])),
            ),
        ),
        relation="Eq(0, u**2 - 2*a*s)",
        concept="equations of uniformly accelerated motion",
        compute=lambda p: (
            p["u"] ** 2 / (2 * p["g"] * (_sin(p["theta"]) + p["mu"] * _cos(p["theta"])))
        ),
        mistakes=(
            Mistake(
                "ignoring friction: a = g sin θ",
                lambda p: p["u"] ** 2 / (2 * p["g"] * _sin(p["theta"])),
            ),
            Mistake(
                "taking friction up the slope, as when the block slides down",
                lambda p: _near(
                    p["u"] ** 2 / (2 * p["g"] * (_sin(p["theta"]) - p["mu"] * _cos(p["theta"]))),
                    p["u"] ** 2 / (2 * p["g"] * (_sin(p["theta"]) + p["mu"] * _cos(p["theta"]))),
                ),
            ),
            Mistake(
                "dropping the 2 in v² = u² − 2as",
                lambda p: p["u"] ** 2 / (p["g"] * (_sin(p["theta"]) + p["mu"] * _cos(p["theta"]))),
            ),
            Mistake(
                "interchanging sin θ and cos θ when resolving the weight",
                lambda p: (
                    p["u"] ** 2 / (2 * p["g"] * (_cos(p["theta"]) + p["mu"] * _sin(p["theta"])))
                ),
            ),
        ),
        stem="A block is projected up a rough plane inclined at {theta} to the horizontal, "
        "with the coefficient of kinetic friction {mu} between the block and the plane. Its "
        "initial speed up the plane is {u}. Taking {g}, the distance it travels up the plane "
        "before coming to rest is",
        method="Moving up, both the weight's component $mg\\sin\\theta$ and kinetic friction "
        "$\\mu_k mg\\cos\\theta$ act down the plane: $a = g(\\sin\\theta + \\mu_k\\cos\\theta) = "
        "{a}\\ \\mathrm{{m\\,s^{{-2}}}}$ (a retardation). Then $0 = u^2 - 2as$ gives $s = "
        "\\dfrac{{u^2}}{{2a}} =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-chain-cannon-recoil-on-rough-floor",
        PHY,
        "phy-conservation-of-linear-momentum",
        Demand(steps=3, concepts=3),
        "the recoil speed from conservation of linear momentum, the retardation from kinetic "
        "friction, then the sliding distance from v² = u² − 2as",
        givens=(
            Q("M", "M", r"\mathrm{kg}", choices=span(1, 6, 0.5)),
            Q("m", "m", r"\mathrm{g}", si=1e-3, choices=span(100, 600, 50)),
            Q("v", "v", MS, choices=span(20, 100, 5)),
            Q("mu", r"\mu_k", choices=span(0.1, 0.5, 0.05)),
            G_TEN,
        ),
        unknown=Q("s", "s", r"\mathrm{cm}", si=0.01),
        chain=(
            Step(
                Q("V", "V", MS),
                "Eq(M*V, m*v)",
                "conservation of linear momentum",
                compute=lambda p: p["m"] * p["v"] / p["M"],
            ),
            Step(
                Q("a", "a", MS2),
                "Eq(M*a, mu*M*g)",
                "kinetic friction and Newton's second law",
                compute=lambda p: p["mu"] * p["g"],
            ),
        ),
        relation="Eq(V**2, 2*a*s)",
        concept="equations of uniformly accelerated motion",
        compute=_recoil_distance,
        mistakes=(
            Mistake(
                "taking the recoiling mass as M + m",
                lambda p: (p["m"] * p["v"] / (p["M"] + p["m"])) ** 2 / (2 * p["mu"] * p["g"]),
            ),
            Mistake("dropping the 2 in v² = 2as", lambda p: 2 * _recoil_distance(p)),
            Mistake(
                "giving the cannon the same kinetic energy as the shell instead of conserving "
                "momentum",
                lambda p: _near(
                    p["m"] * p["v"] ** 2 / p["M"] / (2 * p["mu"] * p["g"]), _recoil_distance(p)
                ),
            ),
            Mistake(
                "taking the retardation as μ, leaving out g",
                lambda p: _near(p["g"] * _recoil_distance(p), _recoil_distance(p)),
            ),
        ),
        stem="A toy cannon of mass {M} (without its shell) rests on a rough horizontal floor. "
        "It fires a shell of mass {m} horizontally with a speed {v}. The coefficient of "
        "kinetic friction between the cannon and the floor is {mu}. Taking {g}, the distance "
        "the cannon slides back before stopping is",
        method="Momentum is conserved in the firing (friction is negligible during it): $MV = "
        "mv$, so the recoil speed is $V = {V}\\ \\mathrm{{m\\,s^{{-1}}}}$. On the floor, "
        "friction $\\mu_k Mg$ gives a retardation $a = \\mu_k g = {a}\\ "
        "\\mathrm{{m\\,s^{{-2}}}}$, and $0 = V^2 - 2as$ gives $s = \\dfrac{{V^2}}{{2a}} =$ "
        "{answer}.",
        accept=lambda p: 0.11 <= p["m"] / p["M"] <= 0.4 and 2 <= 100 * _recoil_distance(p) <= 300,
    ),
)
