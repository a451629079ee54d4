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


# ── Unit 4: Work, Energy and Power ───────────────────────────────────────────────────────────
def _putty_rise(p: Params) -> float:
    """Height risen by block + putty: V = mu/(m + M), then h = V²/2g."""
    return (p["m"] * p["u"] / (p["m"] + p["M"])) ** 2 / (2 * p["g"])


def _slide_after_elastic(p: Params) -> float:
    """B's sliding distance: v_B = 2m₁u/(m₁ + m₂), then s = v_B²/(2μg)."""
    return (2 * p["m1"] * p["u"] / (p["m1"] + p["m2"])) ** 2 / (2 * p["mu"] * p["g"])


def _spring_energy(p: Params) -> float:
    """Kinetic energy reaching the spring: mgh less the work done by friction on the patch."""
    return p["m"] * p["g"] * (p["h"] - p["mu"] * p["d"])


# ── Unit 5: Rotational Motion ────────────────────────────────────────────────────────────────
def _disc_loss(p: Params) -> float:
    """Kinetic energy lost when putty sticks to the rim of a spinning disc (I = ½MR²)."""
    i, i_putty = p["M"] * p["R"] ** 2 / 2, p["m"] * p["R"] ** 2
    return i * p["w0"] ** 2 / 2 * i_putty / (i + i_putty)


def _pulley_speed(p: Params, inertia: float = 0.5) -> float:
    """Speed after falling h: a = mg/(m + I/R²) with I = inertia × MR², then v = √(2ah)."""
    return math.sqrt(2 * p["h"] * p["m"] * p["g"] / (p["m"] + inertia * p["M"]))


# ── Unit 6: Gravitation ──────────────────────────────────────────────────────────────────────
def _gm(p: Params) -> float:
    return p["g"] * p["R"] ** 2


def _launch_energy(p: Params) -> float:
    """Orbital energy −GMm/2r less the surface energy −GMm/R."""
    return _gm(p) * p["m"] * (1 / p["R"] - 1 / (2 * (p["R"] + p["h"])))


def _orbital_speed(p: Params) -> float:
    return math.sqrt(_gm(p) / (p["R"] + p["h"]))


# ── Unit 7: Properties of Solids and Liquids ─────────────────────────────────────────────────
def _wire_energy(p: Params, radius: float = 0.5) -> float:
    """½FΔL with ΔL = FL/(AY), A = π(radius × d)²."""
    force = p["M"] * p["g"]
    return force**2 * p["L"] / (2 * math.pi * (radius * p["d"]) ** 2 * p["Y"])


def _venturi_level(p: Params, power: float = 2.0) -> float:
    """(v₂² − v₁²)/2g with v₂ = v₁(d₁/d₂)^power."""
    v2 = p["v1"] * (p["d1"] / p["d2"]) ** power
    return (v2**2 - p["v1"] ** 2) / (2 * p["g"])


def _ice_final(p: Params) -> float:
    return (p["M"] * p["c"] * p["T"] - p["mi"] * p["Lf"]) / (p["c"] * (p["M"] + p["mi"]))


def _ice_melted(p: Params) -> float:
    """Heat conducted through the six faces in time t, over the latent heat."""
    return p["k"] * 6 * p["a"] ** 2 * p["T"] * p["t"] / (p["d"] * p["Lf"])


# ── Unit 8: Thermodynamics ───────────────────────────────────────────────────────────────────
def _adiabatic_work(p: Params, exponent: float | None = None) -> float:
    """Work done on n moles compressed adiabatically: nR(T₂ − T₁)/(γ − 1)."""
    t2 = p["T1"] * (p["V1"] / p["V2"]) ** (p["gam"] - 1 if exponent is None else exponent)
    return p["n"] * p["Rg"] * (t2 - p["T1"]) / (p["gam"] - 1)


def _fridge_heat(p: Params) -> float:
    """Heat removed to cool water from the room to 0 °C and freeze it."""
    return p["m"] * (p["c"] * (p["T1"] - p["T2"]) + p["Lf"])


# ── Unit 9: Kinetic Theory ───────────────────────────────────────────────────────────────────
def _rms_from_pv(p: Params) -> float:
    return math.sqrt(3 * p["P"] * p["V"] / p["m"])


def _gamma_mix(cv: float) -> float:
    return (cv + 1) / cv


def _collision_time(p: Params) -> float:
    free_path = p["kB"] * p["T"] / (math.sqrt(2) * math.pi * p["d"] ** 2 * p["P"])
    return free_path / math.sqrt(3 * p["Rg"] * p["T"] / p["M"])


# ── Unit 10: Oscillations and Waves ──────────────────────────────────────────────────────────
def _shm_speed(p: Params) -> float:
    return math.sqrt(p["g"] / p["e"] * (p["A"] ** 2 - p["x"] ** 2))


def _string_speed(p: Params) -> float:
    return math.sqrt(p["M"] * p["g"] * p["L"] / p["ms"])


def _putty_amplitude(p: Params) -> float:
    speed = p["m"] * p["u"] / (p["M"] + p["m"])
    return speed * math.sqrt((p["M"] + p["m"]) / p["k"])


# ── Unit 20: Experimental Skills ─────────────────────────────────────────────────────────────
VERNIER_LC = 1e-4  # m: 10 vernier divisions = 9 main-scale divisions of 1 mm
SCREW_LC = 1e-5  # m: pitch 0.5 mm over 50 circular divisions


def _ball_density(p: Params, zero: float = -1.0, radius_slip: bool = False) -> float:
    """m / (πd³/6), the diameter read as MSR + (n + zero × n₀) × LC (zero = −1: corrected)."""
    d = p["M0"] + (p["n"] + zero * p["z"]) * VERNIER_LC
    return p["m"] / (math.pi * d**3 / 6) / (8 if radius_slip else 1)


def _wire_modulus(p: Params, zero: float = -1.0) -> float:
    """MgL/(π(d/2)²ΔL), the diameter read as MSR + n × LC + zero × e (zero = −1: corrected)."""
    d = p["s"] + p["n"] * SCREW_LC + zero * p["e"]
    return p["M"] * p["g"] * p["L"] / (math.pi * (d / 2) ** 2 * p["dL"])


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
        unknown=Q("dF", r"\Delta F", r"\mathrm{mN}", si=1e-3),
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
    # ── Unit 4: Work, Energy and Power ───────────────────────────────────────────────────────
    NumericalTemplate(
        "phy-chain-putty-block-pendulum-rise",
        PHY,
        "phy-collisions",
        Demand(steps=2, concepts=2),
        "the common velocity from momentum conservation in the perfectly inelastic collision, "
        "then the height from conservation of mechanical energy as the block swings up",
        givens=(
            Q("m", "m", r"\mathrm{g}", si=1e-3, choices=span(50, 500, 10)),
            Q("u", "u", MS, choices=span(4, 20, 1)),
            Q("M", "M", r"\mathrm{kg}", choices=span(0.5, 4.0, 0.1)),
            G_TEN,
        ),
        unknown=Q("h", "h", r"\mathrm{cm}", si=0.01),
        chain=(
            Step(
                Q("V", "V", MS),
                "Eq((m + M)*V, m*u)",
                "conservation of linear momentum in a perfectly inelastic collision",
                compute=lambda p: p["m"] * p["u"] / (p["m"] + p["M"]),
            ),
        ),
        relation="Eq((m + M)*V**2/2, (m + M)*g*h)",
        concept="conservation of mechanical energy",
        compute=_putty_rise,
        mistakes=(
            Mistake(
                "conserving kinetic energy in the collision",
                lambda p: _near(
                    p["m"] * p["u"] ** 2 / (2 * (p["m"] + p["M"]) * p["g"]), _putty_rise(p)
                ),
            ),
            Mistake("dropping the ½ in the kinetic energy: h = V²/g", lambda p: 2 * _putty_rise(p)),
            Mistake(
                "leaving the putty out of the moving mass: V = mu/M",
                lambda p: (p["m"] * p["u"] / p["M"]) ** 2 / (2 * p["g"]),
            ),
            Mistake(
                "letting the block rise with the putty's speed u",
                lambda p: _near(p["u"] ** 2 / (2 * p["g"]), _putty_rise(p)),
            ),
        ),
        stem="A lump of putty of mass {m} moving horizontally with a speed {u} strikes a "
        "wooden block of mass {M} that hangs at rest from a long light string, and sticks to "
        "it. Taking {g}, the greatest height through which the block rises is",
        method="In the collision momentum is conserved (kinetic energy is not): $(m + M)V = "
        "mu$, so $V = {V}\\ \\mathrm{{m\\,s^{{-1}}}}$. As block and putty swing up, mechanical "
        "energy is conserved: $\\tfrac{{1}}{{2}}(m + M)V^2 = (m + M)gh$, so $h = "
        "\\dfrac{{V^2}}{{2g}} =$ {answer}.",
        accept=lambda p: (p["M"] + p["m"]) / p["m"] <= 9 and 1 <= 100 * _putty_rise(p) <= 100,
    ),
    NumericalTemplate(
        "phy-chain-elastic-collision-then-friction",
        PHY,
        "phy-work-energy-theorem",
        Demand(steps=2, concepts=2),
        "the struck block's speed from a one-dimensional elastic collision, then its sliding "
        "distance from the work–energy theorem with kinetic friction",
        givens=(
            Q("m1", "m_A", r"\mathrm{kg}", choices=span(0.5, 5.0, 0.5)),
            Q("u", "u", MS, choices=span(2, 10, 0.5)),
            Q("m2", "m_B", r"\mathrm{kg}", choices=span(0.5, 5.0, 0.5)),
            Q("mu", r"\mu_k", choices=span(0.1, 0.6, 0.05)),
            G_TEN,
        ),
        unknown=Q("s", "s", r"\mathrm{m}"),
        chain=(
            Step(
                Q("vB", "v_B", MS),
                "Eq(vB, 2*m1*u/(m1 + m2))",
                "elastic collision in one dimension",
                compute=lambda p: 2 * p["m1"] * p["u"] / (p["m1"] + p["m2"]),
            ),
        ),
        relation="Eq(m2*vB**2/2, mu*m2*g*s)",
        concept="work–energy theorem",
        compute=_slide_after_elastic,
        mistakes=(
            Mistake(
                "assuming B moves off with A's speed u, as for equal masses",
                lambda p: _near(p["u"] ** 2 / (2 * p["mu"] * p["g"]), _slide_after_elastic(p)),
            ),
            Mistake(
                "using the perfectly inelastic result v_B = m_A u/(m_A + m_B)",
                lambda p: _slide_after_elastic(p) / 4,
            ),
            Mistake(
                "dropping the ½ in the kinetic energy",
                lambda p: 2 * _slide_after_elastic(p),
            ),
            Mistake(
                "taking A to stop, so that v_B = m_A u/m_B",
                lambda p: _near(
                    (p["m1"] * p["u"] / p["m2"]) ** 2 / (2 * p["mu"] * p["g"]),
                    _slide_after_elastic(p),
                ),
            ),
        ),
        stem="Block A of mass {m1} slides with a speed {u} on a smooth floor and collides "
        "head-on and elastically with block B of mass {m2}, which is at rest. Just after the "
        "collision B moves onto a rough stretch of the floor, where the coefficient of kinetic "
        "friction is {mu}. Taking {g}, the distance B slides on the rough stretch before "
        "stopping is",
        method="In a one-dimensional elastic collision with B at rest, $v_B = "
        "\\dfrac{{2m_A u}}{{m_A + m_B}} = {vB}\\ \\mathrm{{m\\,s^{{-1}}}}$. On the rough "
        "stretch, friction's work removes B's kinetic energy: $\\tfrac{{1}}{{2}}m_B v_B^2 = "
        "\\mu_k m_B g s$, so $s = \\dfrac{{v_B^2}}{{2\\mu_k g}} =$ {answer}.",
        accept=lambda p: (
            p["m1"] != p["m2"] and 0.25 <= p["m2"] / p["m1"] <= 4 and _slide_after_elastic(p) <= 25
        ),
    ),
    NumericalTemplate(
        "phy-chain-spring-compression-after-rough-patch",
        PHY,
        "phy-potential-energy-of-spring",
        Demand(steps=2, concepts=2),
        "the kinetic energy reaching the spring from the work–energy theorem (gravity's work "
        "less friction's on the rough patch), then the compression from the spring's "
        "potential energy ½kx²",
        givens=(
            Q("m", "m", r"\mathrm{kg}", choices=span(0.2, 2.0, 0.1)),
            Q("h", "h", r"\mathrm{m}", choices=span(0.5, 3.0, 0.1)),
            Q("d", "d", r"\mathrm{m}", choices=span(0.5, 3.0, 0.1)),
            Q("mu", r"\mu_k", choices=span(0.1, 0.5, 0.05)),
            Q("k", "k", r"\mathrm{N\,m^{-1}}", choices=span(200, 2000, 100)),
            G_TEN,
        ),
        unknown=Q("x", "x", r"\mathrm{cm}", si=0.01),
        chain=(
            Step(
                Q("K", "K", r"\mathrm{J}"),
                "Eq(K, m*g*h - mu*m*g*d)",
                "work–energy theorem",
                compute=_spring_energy,
            ),
        ),
        relation="Eq(k*x**2/2, K)",
        concept="potential energy of a spring",
        compute=lambda p: math.sqrt(2 * _spring_energy(p) / p["k"]),
        mistakes=(
            Mistake(
                "ignoring the work done by friction",
                lambda p: math.sqrt(2 * p["m"] * p["g"] * p["h"] / p["k"]),
            ),
            Mistake(
                "adding the work done by friction instead of subtracting it",
                lambda p: math.sqrt(2 * p["m"] * p["g"] * (p["h"] + p["mu"] * p["d"]) / p["k"]),
            ),
            Mistake(
                "writing the spring's energy as kx², without the ½",
                lambda p: math.sqrt(_spring_energy(p) / p["k"]),
            ),
            Mistake(
                "taking the friction force as μm, leaving out g",
                lambda p: math.sqrt(2 * p["m"] * (p["g"] * p["h"] - p["mu"] * p["d"]) / p["k"]),
            ),
        ),
        stem="A block of mass {m} is released from rest at a height {h} on a smooth curved "
        "track that ends on a horizontal floor. On the floor the block first crosses a rough "
        "patch of length {d}, where the coefficient of kinetic friction is {mu}, and then, on "
        "the smooth floor beyond, runs into a light spring of force constant {k}. Taking {g}, "
        "the maximum compression of the spring is",
        method="By the work–energy theorem, the kinetic energy on reaching the spring is "
        "gravity's work less friction's: $K = mgh - \\mu_k mgd = {K}$ J. At maximum "
        "compression it is all stored in the spring: $\\tfrac{{1}}{{2}}kx^2 = K$, so $x = "
        "\\sqrt{{2K/k}} =$ {answer}.",
        accept=lambda p: 0.12 <= p["mu"] * p["d"] / p["h"] <= 0.7,
    ),
    NumericalTemplate(
        "phy-chain-car-climbing-power",
        PHY,
        "phy-power",
        Demand(steps=2, concepts=2),
        "the engine's driving force from the balance of forces along the slope at constant "
        "speed (weight's component plus resistance), then the power as force times velocity",
        givens=(
            Q("m", "m", r"\mathrm{kg}", choices=span(800, 2000, 100)),
            Q("s", r"\sin\theta", choices=(0.02, 0.04, 0.05, 0.08, 0.1)),
            Q("v", "v", KMH, si=KMH_SI, choices=span(36, 90, 6)),
            Q("f", "f", r"\mathrm{N}", choices=span(200, 1000, 50)),
            G_TEN,
        ),
        unknown=Q("P", "P", r"\mathrm{kW}", si=1e3),
        chain=(
            Step(
                Q("F", "F", r"\mathrm{N}"),
                "Eq(F, m*g*s + f)",
                "balance of forces at constant velocity (Newton's first law)",
                compute=lambda p: p["m"] * p["g"] * p["s"] + p["f"],
            ),
        ),
        relation="Eq(P, F*v)",
        concept="power as force times velocity",
        compute=lambda p: (p["m"] * p["g"] * p["s"] + p["f"]) * p["v"],
        mistakes=(
            Mistake(
                "ignoring the resistive forces",
                lambda p: p["m"] * p["g"] * p["s"] * p["v"],
            ),
            Mistake(
                "ignoring the weight's component along the slope",
                lambda p: p["f"] * p["v"],
            ),
            Mistake(
                "subtracting the resistive forces, as if they helped the car",
                lambda p: _near(
                    (p["m"] * p["g"] * p["s"] - p["f"]) * p["v"],
                    (p["m"] * p["g"] * p["s"] + p["f"]) * p["v"],
                ),
            ),
            unit_slip(
                "leaving the speed in km h⁻¹",
                lambda p: 3.6 * (p["m"] * p["g"] * p["s"] + p["f"]) * p["v"],
            ),
        ),
        stem="A car of mass {m} climbs a straight road inclined at an angle $\\theta$ to the "
        "horizontal, where {s}, at a constant speed {v}. The resistive forces of friction and "
        "air drag on it together amount to {f}. Taking {g}, the power delivered by the engine "
        "is",
        method="At constant velocity the net force is zero, so the driving force balances the "
        "weight's component down the slope and the resistance: $F = mg\\sin\\theta + f = {F}$ "
        "N. With $v$ in m s⁻¹, $P = Fv =$ {answer}.",
        accept=lambda p: 0.4 <= p["m"] * p["g"] * p["s"] / p["f"] <= 2.5,
    ),
    # ── Unit 5: Rotational Motion ────────────────────────────────────────────────────────────
    NumericalTemplate(
        "phy-chain-putty-on-spinning-disc-energy-loss",
        PHY,
        "phy-angular-momentum",
        Demand(steps=3, concepts=3),
        "the disc's moment of inertia ½MR², the new angular speed from conservation of angular "
        "momentum, then the loss of rotational kinetic energy",
        givens=(
            Q("M", "M", r"\mathrm{kg}", choices=span(1.0, 10.0, 0.5)),
            Q("R", "R", r"\mathrm{m}", choices=span(0.1, 0.5, 0.05)),
            Q("w0", r"\omega_0", r"\mathrm{rad\,s^{-1}}", choices=span(10, 60, 2)),
            Q("m", "m", r"\mathrm{g}", si=1e-3, choices=span(100, 1000, 50)),
        ),
        unknown=Q("dK", r"\Delta K", r"\mathrm{J}"),
        chain=(
            Step(
                Q("I", "I", r"\mathrm{kg\,m^2}"),
                "Eq(I, M*R**2/2)",
                "moment of inertia of a uniform disc",
                compute=lambda p: p["M"] * p["R"] ** 2 / 2,
            ),
            Step(
                Q("w", r"\omega", r"\mathrm{rad\,s^{-1}}"),
                "Eq(I*w0, (I + m*R**2)*w)",
                "conservation of angular momentum",
                compute=lambda p: p["w0"] * p["M"] / (p["M"] + 2 * p["m"]),
            ),
        ),
        relation="Eq(dK, I*w0**2/2 - (I + m*R**2)*w**2/2)",
        concept="rotational kinetic energy",
        compute=_disc_loss,
        mistakes=(
            Mistake(
                "taking the disc's moment of inertia as MR²",
                lambda p: p["R"] ** 2 * p["w0"] ** 2 / 2 * p["M"] * p["m"] / (p["M"] + p["m"]),
            ),
            Mistake(
                "taking the putty's kinetic energy at the original angular speed as the loss",
                lambda p: p["m"] * p["R"] ** 2 * p["w0"] ** 2 / 2,
            ),
            Mistake(
                "giving the final kinetic energy instead of the loss",
                lambda p: (
                    p["M"]
                    * p["R"] ** 2
                    / 4
                    * (p["w0"] * p["M"] / (p["M"] + 2 * p["m"])) ** 2
                    * (1 + 2 * p["m"] / p["M"])
                ),
            ),
            Mistake(
                "taking the kinetic energy gained by the putty as the loss",
                lambda p: (
                    p["m"] * p["R"] ** 2 / 2 * (p["w0"] * p["M"] / (p["M"] + 2 * p["m"])) ** 2
                ),
            ),
        ),
        stem="A uniform disc of mass {M} and radius {R} rotates freely about a fixed axis "
        "through its centre, perpendicular to its plane, with an angular speed {w0}. A small "
        "lump of putty of mass {m} is dropped gently onto the disc and sticks at its rim. The "
        "loss of kinetic energy in this process is",
        method="For a uniform disc $I = \\tfrac{{1}}{{2}}MR^2 = {I}\\ \\mathrm{{kg\\,m^2}}$. No "
        "external torque acts about the axis, so $I\\omega_0 = (I + mR^2)\\omega$ gives "
        "$\\omega = {w}\\ \\mathrm{{rad\\,s^{{-1}}}}$. The loss is $\\tfrac{{1}}{{2}}I\\omega_0^2 "
        "- \\tfrac{{1}}{{2}}(I + mR^2)\\omega^2 =$ {answer}.",
        accept=lambda p: 0.06 <= p["m"] / p["M"] <= 0.5,
    ),
    NumericalTemplate(
        "phy-chain-block-unwinding-pulley-speed",
        PHY,
        "phy-rotational-dynamics",
        Demand(steps=3, concepts=3),
        "the pulley's moment of inertia ½MR², the acceleration from Newton's second law for "
        "the block together with τ = Iα for the pulley, then the speed from v² = 2ah",
        givens=(
            Q("M", "M", r"\mathrm{kg}", choices=span(0.5, 5.0, 0.5)),
            Q("R", "R", r"\mathrm{cm}", si=0.01, choices=span(10, 50, 5)),
            Q("m", "m", r"\mathrm{kg}", choices=span(0.2, 3.0, 0.1)),
            G_TEN,
            Q("h", "h", r"\mathrm{m}", choices=span(0.5, 3.0, 0.1)),
        ),
        unknown=Q("v", "v", MS),
        chain=(
            Step(
                Q("I", "I", r"\mathrm{kg\,m^2}"),
                "Eq(I, M*R**2/2)",
                "moment of inertia of a uniform disc",
                compute=lambda p: p["M"] * p["R"] ** 2 / 2,
            ),
            Step(
                Q("a", "a", MS2),
                "Eq(m*g - m*a, I*a/R**2)",
                "Newton's second law with the torque on the pulley (τ = Iα)",
                compute=lambda p: p["m"] * p["g"] / (p["m"] + p["M"] / 2),
            ),
        ),
        relation="Eq(v**2, 2*a*h)",
        concept="equations of uniformly accelerated motion",
        compute=_pulley_speed,
        mistakes=(
            Mistake(
                "ignoring the pulley's inertia, as in free fall",
                lambda p: math.sqrt(2 * p["g"] * p["h"]),
            ),
            Mistake(
                "taking the pulley's moment of inertia as MR²",
                lambda p: _pulley_speed(p, inertia=1.0),
            ),
            Mistake(
                "taking the tension equal to mg, so that mgR = Iα",
                lambda p: _near(math.sqrt(4 * p["m"] * p["g"] * p["h"] / p["M"]), _pulley_speed(p)),
            ),
            Mistake(
                "dropping the 2 in v² = 2ah",
                lambda p: _pulley_speed(p) / math.sqrt(2),
            ),
        ),
        stem="A light string is wound round a uniform disc-shaped pulley of mass {M} and "
        "radius {R}, which can turn without friction about a fixed horizontal axis through its "
        "centre. A block of mass {m} hangs from the free end of the string and is released "
        "from rest. The string does not slip. Taking {g}, the speed of the block after it has "
        "fallen through {h} is",
        method="For the pulley $I = \\tfrac{{1}}{{2}}MR^2 = {I}\\ \\mathrm{{kg\\,m^2}}$. For the "
        "block $mg - T = ma$; for the pulley $TR = I\\alpha$ with $\\alpha = a/R$, so $T = "
        "Ia/R^2$ and $a = \\dfrac{{mg}}{{m + I/R^2}} = {a}\\ \\mathrm{{m\\,s^{{-2}}}}$. From rest, "
        "$v^2 = 2ah$ gives $v =$ {answer}.",
        accept=lambda p: 0.2 <= p["m"] / p["M"] <= 3,
    ),
    NumericalTemplate(
        "phy-chain-rod-swinging-from-end",
        PHY,
        "phy-parallel-and-perpendicular-axes",
        Demand(steps=2, concepts=2),
        "the moment of inertia about the end from the parallel axes theorem, then the angular "
        "speed from conservation of energy (the centre of mass falls L/2)",
        givens=(
            Q("M", "M", r"\mathrm{kg}", choices=span(0.5, 5.0, 0.5)),
            Q("L", "L", r"\mathrm{m}", choices=span(0.4, 2.0, 0.1)),
            G_TEN,
        ),
        unknown=Q("w", r"\omega", r"\mathrm{rad\,s^{-1}}"),
        chain=(
            Step(
                Q("I", "I", r"\mathrm{kg\,m^2}"),
                "Eq(I, M*L**2/12 + M*(L/2)**2)",
                "parallel axes theorem",
                compute=lambda p: p["M"] * p["L"] ** 2 / 3,
            ),
        ),
        relation="Eq(I*w**2/2, M*g*L/2)",
        concept="conservation of mechanical energy with rotational kinetic energy",
        compute=lambda p: math.sqrt(3 * p["g"] / p["L"]),
        mistakes=(
            Mistake(
                "using the moment of inertia about the centre, ML²/12",
                lambda p: math.sqrt(12 * p["g"] / p["L"]),
            ),
            Mistake(
                "taking the centre of mass to fall through L instead of L/2",
                lambda p: math.sqrt(6 * p["g"] / p["L"]),
            ),
            Mistake(
                "writing the rotational kinetic energy as Iω², without the ½",
                lambda p: math.sqrt(1.5 * p["g"] / p["L"]),
            ),
            Mistake(
                "adding M(L/2)² to ML²/3 instead of to ML²/12",
                lambda p: math.sqrt(12 * p["g"] / (7 * p["L"])),
            ),
        ),
        stem="A uniform rod of mass {M} and length {L} can turn freely in a vertical plane "
        "about a horizontal axis through one of its ends. It is held horizontal and released "
        "from rest. Taking {g}, its angular speed as it passes through the vertical position "
        "is",
        method="About its end, by the parallel axes theorem, $I = \\dfrac{{ML^2}}{{12}} + "
        "M\\left(\\dfrac{{L}}{{2}}\\right)^2 = \\dfrac{{ML^2}}{{3}} = {I}\\ \\mathrm{{kg\\,m^2}}$. "
        "The centre of mass falls $L/2$: $\\tfrac{{1}}{{2}}I\\omega^2 = Mg\\dfrac{{L}}{{2}}$, so "
        "$\\omega = \\sqrt{{3g/L}} =$ {answer}.",
    ),
    # ── Unit 6: Gravitation ──────────────────────────────────────────────────────────────────
    NumericalTemplate(
        "phy-chain-satellite-launch-energy",
        PHY,
        "phy-energy-of-satellite",
        Demand(steps=3, concepts=3),
        "GM from g = GM/R², the satellite's total energy −GMm/2r in orbit, then the energy to "
        "be supplied as that less its potential energy −GMm/R on the surface",
        givens=(
            Q("m", "m", r"\mathrm{kg}", choices=span(100, 2000, 100)),
            Q("h", "h", r"\mathrm{km}", si=1e3, choices=span(400, 6400, 400)),
            R_EARTH,
            G_EARTH,
        ),
        unknown=Q("W", "W", r"\mathrm{GJ}", si=1e9),
        chain=(
            Step(
                Q("GM", "GM", r"\mathrm{N\,m^2\,kg^{-1}}"),
                "Eq(GM, g*R**2)",
                "acceleration due to gravity at the surface (g = GM/R²)",
                compute=_gm,
            ),
            Step(
                Q("En", "E", r"\mathrm{J}"),
                "Eq(En, -GM*m/(2*(R + h)))",
                "total energy of a satellite in a circular orbit",
                compute=lambda p: -_gm(p) * p["m"] / (2 * (p["R"] + p["h"])),
            ),
        ),
        relation="Eq(W, En + GM*m/R)",
        concept="gravitational potential energy",
        compute=_launch_energy,
        mistakes=(
            Mistake(
                "counting only the gain in potential energy, leaving out the orbital kinetic "
                "energy",
                lambda p: _near(
                    _gm(p) * p["m"] * (1 / p["R"] - 1 / (p["R"] + p["h"])), _launch_energy(p)
                ),
            ),
            Mistake(
                "giving only the orbital kinetic energy GMm/2(R + h)",
                lambda p: _gm(p) * p["m"] / (2 * (p["R"] + p["h"])),
            ),
            Mistake(
                "taking the gain in potential energy as mgh, with g constant, plus the orbital "
                "kinetic energy",
                lambda p: p["m"] * p["g"] * p["h"] + _gm(p) * p["m"] / (2 * (p["R"] + p["h"])),
            ),
            Mistake(
                "taking the energy needed as mgh alone",
                lambda p: _near(p["m"] * p["g"] * p["h"], _launch_energy(p)),
            ),
        ),
        stem="A satellite of mass {m} is to be placed in a circular orbit at a height {h} "
        "above the Earth's surface. Taking the Earth's radius as {R} and {g} at the surface, "
        "and ignoring the Earth's rotation and air resistance, the minimum energy that must be "
        "given to the satellite on the surface is",
        method="From $g = GM/R^2$, $GM = gR^2 = {GM}\\ \\mathrm{{N\\,m^2\\,kg^{{-1}}}}$. In orbit "
        "of radius $r = R + h$ the total energy is $E = -\\dfrac{{GMm}}{{2r}} = {En}$ J; on the "
        "surface (at rest) it is $-\\dfrac{{GMm}}{{R}}$. The energy to be supplied is $E + "
        "\\dfrac{{GMm}}{{R}} =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-chain-pendulum-period-at-altitude",
        PHY,
        "phy-variation-of-g",
        Demand(steps=2, concepts=2),
        "g at the height from g' = gR²/(R + h)², then the pendulum's period there from "
        "T = 2π√(L/g')",
        givens=(
            Q("L", "L", r"\mathrm{m}", choices=span(0.5, 2.0, 0.1)),
            Q("h", "h", r"\mathrm{km}", si=1e3, choices=span(1280, 3200, 160)),
            R_EARTH,
            G_EARTH,
        ),
        unknown=Q("T", "T", r"\mathrm{s}"),
        chain=(
            Step(
                Q("gh", "g'", MS2),
                "Eq(gh*(R + h)**2, g*R**2)",
                "variation of g with altitude",
                compute=lambda p: p["g"] * (p["R"] / (p["R"] + p["h"])) ** 2,
            ),
        ),
        relation="Eq(T, 2*pi*sqrt(L/gh))",
        concept="time period of a simple pendulum",
        compute=lambda p: 2 * math.pi * math.sqrt(p["L"] / p["g"]) * (1 + p["h"] / p["R"]),
        mistakes=(
            Mistake(
                "using g' = g(1 − 2h/R), which holds only for h ≪ R",
                lambda p: 2 * math.pi * math.sqrt(p["L"] / (p["g"] * (1 - 2 * p["h"] / p["R"]))),
            ),
            Mistake(
                "using the formula for depth, g' = g(1 − h/R)",
                lambda p: 2 * math.pi * math.sqrt(p["L"] / (p["g"] * (1 - p["h"] / p["R"]))),
            ),
            Mistake(
                "not squaring: g' = gR/(R + h)",
                lambda p: 2 * math.pi * math.sqrt(p["L"] * (p["R"] + p["h"]) / (p["g"] * p["R"])),
            ),
            Mistake(
                "ignoring the change of g with height",
                lambda p: 2 * math.pi * math.sqrt(p["L"] / p["g"]),
            ),
        ),
        stem="A simple pendulum of length {L} is taken to a height {h} above the Earth's "
        "surface. Taking the Earth's radius as {R} and {g} at the surface, the time period of "
        "the pendulum at that height is",
        method="At height $h$, $g' = g\\left(\\dfrac{{R}}{{R + h}}\\right)^2 = {gh}\\ "
        "\\mathrm{{m\\,s^{{-2}}}}$ (the approximation $g(1 - 2h/R)$ fails when $h$ is not small "
        "beside $R$). Then $T = 2\\pi\\sqrt{{L/g'}} =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-chain-escape-from-orbit-speed-boost",
        PHY,
        "phy-escape-velocity",
        Demand(steps=2, concepts=2),
        "the orbital speed from gravity supplying the centripetal force, then the extra speed "
        "that makes the total energy zero (escape from that orbit)",
        givens=(
            Q("h", "h", r"\mathrm{km}", si=1e3, choices=span(400, 6400, 400)),
            R_EARTH,
            G_EARTH,
        ),
        unknown=Q("dv", r"\Delta v", r"\mathrm{km\,s^{-1}}", si=1e3),
        chain=(
            Step(
                Q("vo", "v_o", r"\mathrm{km\,s^{-1}}", si=1e3),
                "Eq(vo**2*(R + h), g*R**2)",
                "orbital velocity (gravity supplies the centripetal force)",
                compute=_orbital_speed,
            ),
        ),
        relation="Eq((vo + dv)**2*(R + h), 2*g*R**2)",
        concept="escape velocity from energy conservation",
        compute=lambda p: (math.sqrt(2) - 1) * _orbital_speed(p),
        mistakes=(
            Mistake(
                "using the escape speed from the surface, √(2gR), less the orbital speed",
                lambda p: math.sqrt(2 * p["g"] * p["R"]) - _orbital_speed(p),
            ),
            Mistake(
                "giving the escape speed from the orbit, √2 v_o, as the increase",
                lambda p: math.sqrt(2) * _orbital_speed(p),
            ),
            Mistake(
                "equating ½mΔv² to the binding energy GMm/2r, as if starting from rest",
                _orbital_speed,
            ),
            Mistake(
                "taking the surface escape speed √(2gR) as the increase",
                lambda p: math.sqrt(2 * p["g"] * p["R"]),
            ),
        ),
        stem="A satellite moves in a circular orbit at a height {h} above the Earth's surface. "
        "Taking the Earth's radius as {R} and {g} at the surface, the least increase in its "
        "speed, given along its direction of motion, that lets it escape from the Earth's "
        "gravity is",
        method="In orbit of radius $r = R + h$, $\\dfrac{{mv_o^2}}{{r}} = \\dfrac{{GMm}}{{r^2}}$ "
        "with $GM = gR^2$, so $v_o = \\sqrt{{gR^2/r}} = {vo}\\ \\mathrm{{km\\,s^{{-1}}}}$. To "
        "escape, the total energy must reach zero: $\\tfrac{{1}}{{2}}mv^2 = \\dfrac{{GMm}}{{r}}$, "
        "so $v = \\sqrt{{2}}\\,v_o$ and the increase is $(\\sqrt{{2}} - 1)v_o =$ {answer}.",
    ),
    # ── Unit 7: Properties of Solids and Liquids ─────────────────────────────────────────────
    NumericalTemplate(
        "phy-chain-loaded-wire-elastic-energy",
        PHY,
        "phy-youngs-modulus",
        Demand(steps=2, concepts=2),
        "the extension from Young's modulus (stress over strain, with A = πd²/4), then the "
        "elastic potential energy ½FΔL stored in the wire",
        givens=(
            Q("M", "M", r"\mathrm{kg}", choices=span(2, 20, 1)),
            Q("L", "L", r"\mathrm{m}", choices=span(1.0, 3.0, 0.5)),
            Q("d", "d", r"\mathrm{mm}", si=1e-3, choices=span(0.5, 2.0, 0.1)),
            Q("Y", "Y", r"\mathrm{N\,m^{-2}}", choices=(7e10, 1.1e11, 2e11)),
            G_TEN,
        ),
        unknown=Q("U", "U", r"\mathrm{mJ}", si=1e-3),
        chain=(
            Step(
                Q("dL", r"\Delta L", r"\mathrm{mm}", si=1e-3),
                "Eq(Y*pi*(d/2)**2*dL, M*g*L)",
                "Young's modulus (stress = Y × strain)",
                compute=lambda p: p["M"] * p["g"] * p["L"] / (math.pi * (p["d"] / 2) ** 2 * p["Y"]),
            ),
        ),
        relation="Eq(U, M*g*dL/2)",
        concept="elastic potential energy of a stretched wire",
        compute=_wire_energy,
        mistakes=(
            Mistake(
                "equating the stored energy to the work MgΔL done by the load, without the ½",
                lambda p: 2 * _wire_energy(p),
            ),
            Mistake(
                "using the diameter as the radius in the cross-section",
                lambda p: _wire_energy(p, radius=1.0),
            ),
            Mistake(
                "using the diameter as the radius and leaving out the ½",
                lambda p: 2 * _wire_energy(p, radius=1.0),
            ),
        ),
        stem="A load of mass {M} hangs from a vertical wire of length {L} and diameter {d}. "
        "Young's modulus of the material of the wire is {Y}. Taking {g}, the elastic potential "
        "energy stored in the stretched wire is",
        method="Stress over strain: $Y = \\dfrac{{Mg/A}}{{\\Delta L/L}}$ with $A = \\pi d^2/4$, so "
        "$\\Delta L = \\dfrac{{MgL}}{{AY}} = {dL}$ mm. The energy stored is half the load "
        "times the extension, $U = \\tfrac{{1}}{{2}}Mg\\,\\Delta L =$ {answer}.",
        accept=lambda p: (
            p["M"] * p["g"] / (math.pi * (p["d"] / 2) ** 2 * p["Y"]) <= 2e-3
            and 1e-3 <= _wire_energy(p) <= 10
        ),
    ),
    NumericalTemplate(
        "phy-chain-venturi-tube-level-difference",
        PHY,
        "phy-bernoullis-principle",
        Demand(steps=3, concepts=3),
        "the speed in the narrow part from the equation of continuity, the pressure difference "
        "from Bernoulli's principle, then the difference in water levels from the pressure of "
        "a liquid column",
        givens=(
            Q("d1", "d_1", r"\mathrm{cm}", si=0.01, choices=span(4, 10, 1)),
            Q("d2", "d_2", r"\mathrm{cm}", si=0.01, choices=span(2, 6, 0.5)),
            Q("v1", "v_1", MS, choices=span(0.5, 2.0, 0.1)),
            Q("rho", r"\rho", r"\mathrm{kg\,m^{-3}}", choices=(1000.0,)),
            G_TEN,
        ),
        unknown=Q("h", "h", r"\mathrm{cm}", si=0.01),
        chain=(
            Step(
                Q("v2", "v_2", MS),
                "Eq(v2*d2**2, v1*d1**2)",
                "equation of continuity",
                compute=lambda p: p["v1"] * (p["d1"] / p["d2"]) ** 2,
            ),
            Step(
                Q("dP", r"\Delta p", r"\mathrm{Pa}"),
                "Eq(dP, rho*(v2**2 - v1**2)/2)",
                "Bernoulli's principle",
                compute=lambda p: p["rho"] * p["g"] * _venturi_level(p),
            ),
        ),
        relation="Eq(dP, rho*g*h)",
        concept="pressure due to a liquid column",
        compute=_venturi_level,
        mistakes=(
            Mistake(
                "taking the speed inversely proportional to the diameter, not its square",
                lambda p: _venturi_level(p, power=1.0),
            ),
            Mistake(
                "leaving out the speed in the wide part: Δp = ½ρv₂²",
                lambda p: (p["v1"] * (p["d1"] / p["d2"]) ** 2) ** 2 / (2 * p["g"]),
            ),
            Mistake("dropping the ½ in Bernoulli's equation", lambda p: 2 * _venturi_level(p)),
            Mistake(
                "squaring the difference of the speeds: Δp = ½ρ(v₂ − v₁)²",
                lambda p: (p["v1"] * (p["d1"] / p["d2"]) ** 2 - p["v1"]) ** 2 / (2 * p["g"]),
            ),
        ),
        stem="Water flows steadily through a horizontal pipe whose internal diameter narrows "
        "from {d1} to {d2}. The speed of the water in the wide part is {v1}. Open vertical "
        "tubes are fitted to the wide and to the narrow section. Taking the density of water "
        "as {rho} and {g}, the difference between the water levels in the two tubes is",
        method="Continuity: $v_1 d_1^2 = v_2 d_2^2$, so $v_2 = {v2}\\ \\mathrm{{m\\,s^{{-1}}}}$. "
        "Bernoulli along the horizontal pipe: $p_1 - p_2 = \\tfrac{{1}}{{2}}\\rho(v_2^2 - "
        "v_1^2) = {dP}$ Pa. This pressure difference holds up a water column $h$: $p_1 - p_2 "
        "= \\rho g h$, so $h =$ {answer}.",
        accept=lambda p: 1.3 <= p["d1"] / p["d2"] <= 2.2 and _venturi_level(p) <= 2,
    ),
    NumericalTemplate(
        "phy-chain-ice-melting-in-water-final-temperature",
        PHY,
        "phy-latent-heat",
        Demand(steps=2, concepts=2),
        "the heat needed to melt the ice from its latent heat, then the final temperature from "
        "the principle of calorimetry (the melted ice is then warmed too)",
        givens=(
            Q("mi", "m", r"\mathrm{g}", si=1e-3, choices=span(10, 100, 5)),
            Q("M", "M", r"\mathrm{g}", si=1e-3, choices=span(100, 500, 20)),
            Q("T", r"\theta", CELSIUS, choices=span(30, 60, 2)),
            C_WATER,
            L_ICE,
        ),
        unknown=Q("Tf", r"\theta_f", CELSIUS),
        chain=(
            Step(
                Q("Qm", "Q", r"\mathrm{J}"),
                "Eq(Qm, mi*Lf)",
                "latent heat of fusion",
                compute=lambda p: p["mi"] * p["Lf"],
            ),
        ),
        relation="Eq(M*c*(T - Tf), Qm + mi*c*Tf)",
        concept="principle of calorimetry",
        compute=_ice_final,
        mistakes=(
            Mistake(
                "forgetting to warm the melted ice from 0 °C to the final temperature",
                lambda p: (p["M"] * p["c"] * p["T"] - p["mi"] * p["Lf"]) / (p["M"] * p["c"]),
            ),
            Mistake(
                "leaving out the latent heat, as if the ice were water at 0 °C",
                lambda p: p["M"] * p["T"] / (p["M"] + p["mi"]),
            ),
            Mistake(
                "adding the latent heat, as if melting released heat",
                lambda p: _near(
                    (p["M"] * p["c"] * p["T"] + p["mi"] * p["Lf"]) / (p["c"] * (p["M"] + p["mi"])),
                    _ice_final(p),
                ),
            ),
        ),
        stem="A piece of ice of mass {mi} at $0\\,^\\circ\\mathrm{{C}}$ is dropped into {M} of "
        "water at {T} in an insulated vessel of negligible heat capacity. Taking the specific "
        "heat of water as {c} and the latent heat of fusion of ice as {Lf}, the temperature "
        "of the water once all the ice has melted is",
        method="Melting the ice takes $Q = mL_f = {Qm}$ J. The melted ice then warms from "
        "$0\\,^\\circ$C to $\\theta_f$ while the hot water cools to it: $Mc(\\theta - "
        "\\theta_f) = mL_f + mc\\,\\theta_f$, so $\\theta_f = \\dfrac{{Mc\\theta - "
        "mL_f}}{{c(M + m)}} =$ {answer}.",
        accept=lambda p: 0.1 <= p["mi"] / p["M"] <= 0.35 and _ice_final(p) >= 5,
    ),
    NumericalTemplate(
        "phy-chain-ice-box-conduction-melting",
        PHY,
        "phy-heat-conduction",
        Demand(steps=2, concepts=2),
        "the heat conducted in through the six walls from Q = KAΔTt/d, then the mass of ice "
        "it melts from the latent heat of fusion",
        givens=(
            Q("a", "a", r"\mathrm{cm}", si=0.01, choices=span(30, 60, 5)),
            Q("d", "d", r"\mathrm{cm}", si=0.01, choices=span(2, 6, 0.5)),
            Q("k", "K", r"\mathrm{W\,m^{-1}\,K^{-1}}", choices=(0.01, 0.02)),
            Q("T", r"\theta", CELSIUS, choices=span(31, 45, 1)),
            L_ICE,
            Q("t", "t", r"\mathrm{h}", si=3600, choices=span(2, 12, 1)),
        ),
        unknown=Q("m", "m", r"\mathrm{g}", si=1e-3),
        chain=(
            Step(
                Q("Qh", "Q", r"\mathrm{J}"),
                "Eq(Qh, k*6*a**2*T*t/d)",
                "thermal conduction through a slab",
                compute=lambda p: p["k"] * 6 * p["a"] ** 2 * p["T"] * p["t"] / p["d"],
            ),
        ),
        relation="Eq(Qh, m*Lf)",
        concept="latent heat of fusion",
        compute=_ice_melted,
        mistakes=(
            Mistake("using the area of one face only", lambda p: _ice_melted(p) / 6),
            Mistake(
                "using the outside temperature in kelvin as the temperature difference",
                lambda p: _near(_ice_melted(p) * (p["T"] + 273) / p["T"], _ice_melted(p)),
            ),
            unit_slip(
                "leaving the wall thickness in centimetres",
                lambda p: _ice_melted(p) / 100,
            ),
            unit_slip("leaving the time in hours", lambda p: _ice_melted(p) / 3600),
        ),
        stem="An ice box is a closed cube of side {a} with walls of thermocole {d} thick, of "
        "thermal conductivity {k}. It is packed with ice at $0\\,^\\circ\\mathrm{{C}}$ and "
        "kept where the outside temperature is {T}. Taking the latent heat of fusion of ice as "
        "{Lf}, and treating each face as a flat slab, the mass of ice that melts in {t} is",
        method="Heat flows in through all six faces, of total area $6a^2$: $Q = "
        "\\dfrac{{K(6a^2)(\\theta - 0)t}}{{d}} = {Qh}$ J (with $a$ and $d$ in metres and $t$ in "
        "seconds). This heat melts ice at $0\\,^\\circ$C: $m = Q/L_f =$ {answer}.",
        accept=lambda p: 20 <= 1000 * _ice_melted(p) <= 5000,
    ),
    NumericalTemplate(
        "phy-chain-clamped-rod-thermal-force",
        PHY,
        "phy-thermal-expansion",
        Demand(steps=2, concepts=2),
        "the free thermal expansion ΔL = αLΔT that the walls prevent, then the force from "
        "Young's modulus with that compressive strain ΔL/L",
        givens=(
            Q("L", "L", r"\mathrm{m}", choices=(0.5, 0.8, 1.2, 1.5, 2.5)),
            Q("A", "A", r"\mathrm{cm^{2}}", si=1e-4, choices=span(1, 10, 1)),
            Q("alpha", r"\alpha", r"\mathrm{K^{-1}}", choices=(1.2e-5,)),
            Q("Y", "Y", r"\mathrm{N\,m^{-2}}", choices=(2e11,)),
            Q("dT", r"\Delta T", r"\mathrm{K}", choices=span(10, 100, 5)),
        ),
        unknown=Q("F", "F", r"\mathrm{kN}", si=1e3),
        chain=(
            Step(
                Q("dL", r"\Delta L", r"\mathrm{mm}", si=1e-3),
                "Eq(dL, alpha*L*dT)",
                "linear thermal expansion",
                compute=lambda p: p["alpha"] * p["L"] * p["dT"],
            ),
        ),
        relation="Eq(F*L, Y*A*dL)",
        concept="Young's modulus (stress = Y × strain)",
        compute=lambda p: p["Y"] * p["A"] * p["alpha"] * p["dT"],
        mistakes=(
            Mistake(
                "using the areal expansion coefficient 2α",
                lambda p: 2 * p["Y"] * p["A"] * p["alpha"] * p["dT"],
            ),
            Mistake(
                "using the volume expansion coefficient 3α",
                lambda p: 3 * p["Y"] * p["A"] * p["alpha"] * p["dT"],
            ),
            Mistake(
                "taking the strain as ΔL itself, without dividing by L",
                lambda p: p["Y"] * p["A"] * p["alpha"] * p["dT"] * p["L"],
            ),
        ),
        stem="A steel rod of length {L} and cross-sectional area {A} is fixed between two "
        "rigid walls, just touching them without stress. The coefficient of linear expansion "
        "of steel is {alpha} and its Young's modulus is {Y}. When the temperature of the rod "
        "rises by {dT}, the force it exerts on each wall is",
        method="Free, the rod would lengthen by $\\Delta L = \\alpha L\\Delta T = {dL}$ mm. The "
        "walls prevent it, so the rod is compressed by a strain $\\Delta L/L = \\alpha\\Delta "
        "T$, and the force is $F = YA\\,\\dfrac{{\\Delta L}}{{L}} = YA\\alpha\\Delta T =$ "
        "{answer} (independent of $L$).",
    ),
    # ── Unit 8: Thermodynamics ───────────────────────────────────────────────────────────────
    NumericalTemplate(
        "phy-chain-diatomic-isobaric-heat",
        PHY,
        "phy-first-law-of-thermodynamics",
        Demand(steps=3, concepts=3),
        "the work pΔV at constant pressure, the rise in internal energy (5/2)nRΔT = (5/2)pΔV "
        "from equipartition and the gas equation, then the heat from the first law",
        givens=(
            Q("P", "p", r"\mathrm{kPa}", si=1e3, choices=span(100, 500, 50)),
            Q("V1", "V_1", r"\mathrm{L}", si=1e-3, choices=span(1, 10, 0.5)),
            Q("V2", "V_2", r"\mathrm{L}", si=1e-3, choices=span(2, 20, 0.5)),
        ),
        unknown=Q("Qh", "Q", r"\mathrm{J}"),
        chain=(
            Step(
                Q("W", "W", r"\mathrm{J}"),
                "Eq(W, P*(V2 - V1))",
                "work done by a gas at constant pressure",
                compute=lambda p: p["P"] * (p["V2"] - p["V1"]),
            ),
            Step(
                Q("dU", r"\Delta U", r"\mathrm{J}"),
                "Eq(dU, 5*P*(V2 - V1)/2)",
                "internal energy of a diatomic ideal gas (equipartition)",
                compute=lambda p: 2.5 * p["P"] * (p["V2"] - p["V1"]),
            ),
        ),
        relation="Eq(Qh, dU + W)",
        concept="first law of thermodynamics",
        compute=lambda p: 3.5 * p["P"] * (p["V2"] - p["V1"]),
        mistakes=(
            Mistake(
                "taking the heat equal to the work done, as in an isothermal process",
                lambda p: p["P"] * (p["V2"] - p["V1"]),
            ),
            Mistake(
                "taking the heat equal to the rise in internal energy, as at constant volume",
                lambda p: 2.5 * p["P"] * (p["V2"] - p["V1"]),
            ),
            Mistake(
                "subtracting the work: Q = ΔU − W",
                lambda p: 1.5 * p["P"] * (p["V2"] - p["V1"]),
            ),
            Mistake(
                "counting vibration too, ΔU = (7/2)pΔV",
                lambda p: 4.5 * p["P"] * (p["V2"] - p["V1"]),
            ),
        ),
        stem="An ideal diatomic gas with rigid molecules expands at a constant pressure {P} "
        "from a volume {V1} to {V2}. The heat supplied to the gas in this process is",
        method="Work done by the gas: $W = p(V_2 - V_1) = {W}$ J. For rigid diatomic molecules "
        "(5 degrees of freedom) $\\Delta U = \\tfrac{{5}}{{2}}nR\\Delta T$, and $nR\\Delta T = "
        "p\\Delta V$ at constant pressure, so $\\Delta U = \\tfrac{{5}}{{2}}p\\Delta V = {dU}$ "
        "J. First law: $Q = \\Delta U + W =$ {answer}.",
        accept=lambda p: 1.2 * p["V1"] <= p["V2"] <= 3 * p["V1"],
    ),
    NumericalTemplate(
        "phy-chain-adiabatic-compression-work",
        PHY,
        "phy-isothermal-and-adiabatic-processes",
        Demand(steps=2, concepts=2),
        "the final temperature from TV^(γ−1) = constant, then the work done on the gas from "
        "the first law with Q = 0 (W = ΔU = nR ΔT/(γ − 1))",
        givens=(
            Q("n", "n", r"\mathrm{mol}", choices=span(0.5, 3.0, 0.5)),
            Q("T1", "T_1", r"\mathrm{K}", choices=span(280, 320, 10)),
            Q("V1", "V_1", r"\mathrm{L}", si=1e-3, choices=span(4, 24, 1)),
            Q("V2", "V_2", r"\mathrm{L}", si=1e-3, choices=span(1, 12, 0.5)),
            Q("gam", r"\gamma", choices=(1.4,)),
            R_GAS,
        ),
        unknown=Q("W", "W", r"\mathrm{J}"),
        chain=(
            Step(
                Q("T2", "T_2", r"\mathrm{K}"),
                "Eq(T2, T1*(V1/V2)**(gam - 1))",
                "adiabatic relation TV^(γ−1) = constant",
                compute=lambda p: p["T1"] * (p["V1"] / p["V2"]) ** (p["gam"] - 1),
            ),
        ),
        relation="Eq(W, n*Rg*(T2 - T1)/(gam - 1))",
        concept="first law of thermodynamics for an adiabatic process",
        compute=_adiabatic_work,
        mistakes=(
            Mistake(
                "using the isothermal work nRT₁ ln(V₁/V₂)",
                lambda p: p["n"] * p["Rg"] * p["T1"] * math.log(p["V1"] / p["V2"]),
            ),
            Mistake(
                "using the exponent γ instead of γ − 1 in TV^(γ−1) = constant",
                lambda p: _near(_adiabatic_work(p, exponent=p["gam"]), _adiabatic_work(p)),
            ),
            Mistake(
                "using C_P = γR/(γ − 1) instead of C_V for the change in internal energy",
                lambda p: p["gam"] * _adiabatic_work(p),
            ),
            Mistake(
                "taking T₂ = T₁V₁/V₂, as if the temperature scaled with the volume ratio",
                lambda p: _near(_adiabatic_work(p, exponent=1.0), _adiabatic_work(p)),
            ),
        ),
        stem="An amount {n} of an ideal diatomic gas at a temperature {T1} is compressed "
        "adiabatically and reversibly from a volume {V1} to {V2}. Taking {gam} and {Rg}, the "
        "work done on the gas is",
        method="For a reversible adiabatic change $TV^{{\\gamma - 1}}$ is constant: $T_2 = "
        "T_1(V_1/V_2)^{{\\gamma - 1}} = {T2}$ K. With $Q = 0$ the first law gives the work "
        "done on the gas as the rise in internal energy: $W = nC_V\\Delta T = "
        "\\dfrac{{nR(T_2 - T_1)}}{{\\gamma - 1}} =$ {answer}.",
        accept=lambda p: 1.5 <= p["V1"] / p["V2"] <= 6,
    ),
    NumericalTemplate(
        "phy-chain-carnot-refrigerator-freezing-water",
        PHY,
        "phy-second-law-of-thermodynamics",
        Demand(steps=2, concepts=2),
        "the heat to be removed (cooling the water to 0 °C, then its latent heat of fusion), "
        "then the least work from the coefficient of performance T₂/(T₁ − T₂) of a Carnot "
        "refrigerator",
        givens=(
            Q("T2", "T_2", r"\mathrm{K}", choices=(273.0,)),
            Q("T1", "T_1", r"\mathrm{K}", choices=span(293, 313, 1)),
            Q("m", "m", r"\mathrm{kg}", choices=span(0.5, 5.0, 0.5)),
            C_WATER,
            L_ICE,
        ),
        unknown=Q("W", "W", r"\mathrm{kJ}", si=1e3),
        chain=(
            Step(
                Q("Q2", "Q_2", r"\mathrm{kJ}", si=1e3),
                "Eq(Q2, m*c*(T1 - T2) + m*Lf)",
                "specific heat and latent heat",
                compute=_fridge_heat,
            ),
        ),
        relation="Eq(W*T2, Q2*(T1 - T2))",
        concept="coefficient of performance of a Carnot refrigerator",
        compute=lambda p: _fridge_heat(p) * (p["T1"] - p["T2"]) / p["T2"],
        mistakes=(
            Mistake(
                "leaving out the heat to cool the water to 0 °C",
                lambda p: p["m"] * p["Lf"] * (p["T1"] - p["T2"]) / p["T2"],
            ),
            Mistake(
                "leaving out the latent heat of fusion",
                lambda p: p["m"] * p["c"] * (p["T1"] - p["T2"]) ** 2 / p["T2"],
            ),
            Mistake(
                "dividing by T₁ instead of T₂, as in a Carnot engine's efficiency",
                lambda p: _fridge_heat(p) * (p["T1"] - p["T2"]) / p["T1"],
            ),
        ),
        stem="A Carnot refrigerator has its cold compartment at {T2} and works in a room at "
        "{T1}. It turns {m} of water, initially at room temperature, into ice at "
        "$0\\,^\\circ\\mathrm{{C}}$. Taking the specific heat of water as {c} and the latent "
        "heat of fusion of ice as {Lf}, and treating the coefficient of performance as fixed "
        "by these two temperatures, the least work the refrigerator must do is",
        method="Heat to be removed: cooling the water through $T_1 - T_2$ and then freezing it, "
        "$Q_2 = mc(T_1 - T_2) + mL_f = {Q2}$ kJ. A Carnot refrigerator has $\\beta = "
        "\\dfrac{{Q_2}}{{W}} = \\dfrac{{T_2}}{{T_1 - T_2}}$, so $W = Q_2\\,\\dfrac{{T_1 - "
        "T_2}}{{T_2}} =$ {answer}.",
    ),
    # ── Unit 9: Kinetic Theory of Gases ──────────────────────────────────────────────────────
    NumericalTemplate(
        "phy-chain-rms-speed-from-gas-sample",
        PHY,
        "phy-rms-speed",
        Demand(steps=2, concepts=2),
        "the temperature from the ideal gas equation (n = m/M), then the rms speed √(3RT/M)",
        givens=(
            Q("m", "m", r"\mathrm{g}", si=1e-3, choices=span(1, 20, 1)),
            Q("M", "M", r"\mathrm{g\,mol^{-1}}", si=1e-3, choices=(2.0, 4.0, 28.0, 32.0, 44.0)),
            Q("V", "V", r"\mathrm{L}", si=1e-3, choices=span(1, 20, 1)),
            Q("P", "p", r"\mathrm{kPa}", si=1e3, choices=span(100, 500, 25)),
            R_GAS,
        ),
        unknown=Q("v", r"v_{\mathrm{rms}}", MS),
        chain=(
            Step(
                Q("T", "T", r"\mathrm{K}"),
                "Eq(P*V, (m/M)*Rg*T)",
                "ideal gas equation",
                compute=lambda p: p["P"] * p["V"] * p["M"] / (p["m"] * p["Rg"]),
            ),
        ),
        relation="Eq(v**2, 3*Rg*T/M)",
        concept="rms speed from kinetic theory",
        compute=_rms_from_pv,
        mistakes=(
            Mistake(
                "using the most probable speed √(2RT/M)",
                lambda p: _rms_from_pv(p) * math.sqrt(2 / 3),
            ),
            Mistake(
                "using the mean speed √(8RT/πM)",
                lambda p: _rms_from_pv(p) * math.sqrt(8 / (3 * math.pi)),
            ),
            unit_slip(
                "leaving the molar mass in g mol⁻¹ in √(3RT/M)",
                lambda p: _rms_from_pv(p) / math.sqrt(1000),
            ),
            Mistake(
                "taking the sample as one mole, T = pV/R",
                lambda p: _near(math.sqrt(3 * p["P"] * p["V"] / p["M"]), _rms_from_pv(p)),
            ),
        ),
        stem="A sample of {m} of a gas of molar mass {M} occupies a volume {V} at a pressure "
        "{P}. Treating the gas as ideal and taking {Rg}, the rms speed of its molecules is",
        method="The amount is $n = m/M$, and $pV = nRT$ gives $T = \\dfrac{{pVM}}{{mR}} = {T}$ "
        "K. Then $v_{{\\mathrm{{rms}}}} = \\sqrt{{3RT/M}}$ with $M$ in kg mol⁻¹ $=$ {answer}.",
        accept=lambda p: 200 <= p["P"] * p["V"] * p["M"] / (p["m"] * p["Rg"]) <= 700,
    ),
    NumericalTemplate(
        "phy-chain-gas-mixture-gamma",
        PHY,
        "phy-specific-heat-of-gases",
        Demand(steps=2, concepts=2),
        "the mixture's molar C_V from equipartition (3R/2 for the monatomic gas, 5R/2 for the "
        "diatomic), averaged over the moles, then γ from Mayer's relation C_P = C_V + R",
        givens=(
            Q("n1", "n_1", r"\mathrm{mol}", choices=span(1, 5, 1)),
            Q("n2", "n_2", r"\mathrm{mol}", choices=span(1, 5, 1)),
        ),
        unknown=Q("gam", r"\gamma", bounds=(1.0, 1.67)),
        chain=(
            Step(
                Q("Cv", "C_V"),
                "Eq(Cv, (3*n1 + 5*n2)/(2*(n1 + n2)))",
                "equipartition of energy",
                compute=lambda p: (3 * p["n1"] + 5 * p["n2"]) / (2 * (p["n1"] + p["n2"])),
            ),
        ),
        relation="Eq(gam, (Cv + 1)/Cv)",
        concept="Mayer's relation C_P − C_V = R",
        compute=lambda p: _gamma_mix((3 * p["n1"] + 5 * p["n2"]) / (2 * (p["n1"] + p["n2"]))),
        mistakes=(
            Mistake(
                "swapping the degrees of freedom of the two gases",
                lambda p: _gamma_mix((5 * p["n1"] + 3 * p["n2"]) / (2 * (p["n1"] + p["n2"]))),
            ),
            Mistake(
                "giving the diatomic gas 3 degrees of freedom, like the monatomic one",
                lambda p: 5 / 3,
            ),
            Mistake(
                "giving the monatomic gas 5 degrees of freedom, like the diatomic one",
                lambda p: 7 / 5,
            ),
            Mistake(
                "counting vibration in oxygen, C_V = 7R/2",
                lambda p: _gamma_mix((3 * p["n1"] + 7 * p["n2"]) / (2 * (p["n1"] + p["n2"]))),
            ),
            Mistake(
                "adding R only once to the mixture's total heat capacity",
                lambda p: _gamma_mix((3 * p["n1"] + 5 * p["n2"]) / 2),
            ),
        ),
        stem="A mixture contains {n1} of helium and {n2} of oxygen. Treating both as ideal "
        "gases, helium monatomic and oxygen diatomic with rigid molecules, the ratio of the "
        "molar specific heats $\\gamma = C_P/C_V$ of the mixture is",
        method="By equipartition $C_V = \\tfrac{{3}}{{2}}R$ for helium and $\\tfrac{{5}}{{2}}R$ "
        "for oxygen, so for the mixture $C_V = \\dfrac{{n_1\\cdot\\tfrac{{3}}{{2}}R + "
        "n_2\\cdot\\tfrac{{5}}{{2}}R}}{{n_1 + n_2}} = {Cv}R$. Mayer's relation gives $C_P = C_V "
        "+ R$, so $\\gamma = \\dfrac{{C_V + R}}{{C_V}} =$ {answer}.",
        accept=lambda p: p["n1"] != p["n2"] and 1 / 3 <= p["n1"] / p["n2"] <= 3,
    ),
    NumericalTemplate(
        "phy-chain-mean-free-path-collision-time",
        PHY,
        "phy-mean-free-path",
        Demand(steps=3, concepts=2),
        "the mean free path kT/(√2πd²p), the rms speed √(3RT/M), then the time between "
        "collisions as the mean free path covered at that speed",
        givens=(
            Q("M", "M", r"\mathrm{g\,mol^{-1}}", si=1e-3, choices=(28.0, 32.0)),
            Q("d", "d", r"\mathrm{m}", choices=(2.0e-10, 2.5e-10, 3.0e-10, 3.5e-10)),
            Q("T", "T", r"\mathrm{K}", choices=span(250, 500, 10)),
            Q("P", "p", r"\mathrm{atm}", si=101325, choices=span(0.5, 2.0, 0.1)),
            Q("kB", "k_B", r"\mathrm{J\,K^{-1}}", choices=(1.38e-23,)),
            R_GAS,
        ),
        unknown=Q("tau", r"\tau", r"\mathrm{ns}", si=1e-9),
        chain=(
            Step(
                Q("lam", r"\lambda", r"\mathrm{m}"),
                "Eq(lam, kB*T/(sqrt(2)*pi*d**2*P))",
                "mean free path",
                compute=lambda p: (
                    p["kB"] * p["T"] / (math.sqrt(2) * math.pi * p["d"] ** 2 * p["P"])
                ),
            ),
            Step(
                Q("v", r"v_{\mathrm{rms}}", MS),
                "Eq(v**2, 3*Rg*T/M)",
                "rms speed from kinetic theory",
                compute=lambda p: math.sqrt(3 * p["Rg"] * p["T"] / p["M"]),
            ),
        ),
        relation="Eq(tau*v, lam)",
        concept="mean free path",
        compute=_collision_time,
        mistakes=(
            Mistake(
                "leaving out the √2 in the mean free path",
                lambda p: _collision_time(p) * math.sqrt(2),
            ),
            Mistake(
                "using π(d/2)² for the collision cross-section instead of πd²",
                lambda p: _collision_time(p) * 4,
            ),
            Mistake(
                "using the mean speed √(8RT/πM)",
                lambda p: _collision_time(p) / math.sqrt(8 / (3 * math.pi)),
            ),
            unit_slip(
                "leaving the molar mass in g mol⁻¹ in √(3RT/M)",
                lambda p: _collision_time(p) * math.sqrt(1000),
            ),
        ),
        stem="Molecules of a gas of molar mass {M} have a diameter {d}. The gas is at a "
        "temperature {T} and a pressure {P}. Taking {kB} and {Rg}, and the molecules' speed "
        "as their rms speed, the average time between successive collisions of a molecule is",
        method="Mean free path: $\\lambda = \\dfrac{{k_BT}}{{\\sqrt{{2}}\\pi d^2 p}} = {lam}$ m "
        "(with $p$ in Pa). Rms speed: $v = \\sqrt{{3RT/M}} = {v}\\ \\mathrm{{m\\,s^{{-1}}}}$. A "
        "molecule collides once each time it covers $\\lambda$, so $\\tau = \\lambda/v =$ "
        "{answer}.",
    ),
    # ── Unit 10: Oscillations and Waves ──────────────────────────────────────────────────────
    NumericalTemplate(
        "phy-chain-hanging-spring-shm-speed",
        PHY,
        "phy-simple-harmonic-motion",
        Demand(steps=3, concepts=3),
        "the force constant from the static stretch (ke = mg), the angular frequency "
        "√(k/m), then the speed at displacement x from v = ω√(A² − x²)",
        givens=(
            Q("m", "m", r"\mathrm{kg}", choices=span(0.1, 2.0, 0.1)),
            Q("e", "e", r"\mathrm{cm}", si=0.01, choices=span(2, 20, 1)),
            Q("A", "A", r"\mathrm{cm}", si=0.01, choices=span(2, 10, 1)),
            G_TEN,
            Q("x", "x", r"\mathrm{cm}", si=0.01, choices=span(1, 8, 1)),
        ),
        unknown=Q("v", "v", r"\mathrm{cm\,s^{-1}}", si=0.01),
        chain=(
            Step(
                Q("k", "k", r"\mathrm{N\,m^{-1}}"),
                "Eq(k*e, m*g)",
                "Hooke's law at equilibrium",
                compute=lambda p: p["m"] * p["g"] / p["e"],
            ),
            Step(
                Q("w", r"\omega", r"\mathrm{rad\,s^{-1}}"),
                "Eq(w**2, k/m)",
                "angular frequency of a spring–mass oscillator",
                compute=lambda p: math.sqrt(p["g"] / p["e"]),
            ),
        ),
        relation="Eq(v**2, w**2*(A**2 - x**2))",
        concept="velocity in simple harmonic motion",
        compute=_shm_speed,
        mistakes=(
            Mistake(
                "giving the maximum speed ωA",
                lambda p: math.sqrt(p["g"] / p["e"]) * p["A"],
            ),
            Mistake(
                "writing v = ω(A − x)",
                lambda p: math.sqrt(p["g"] / p["e"]) * (p["A"] - p["x"]),
            ),
            Mistake(
                "finding k from the total stretch e + A",
                lambda p: math.sqrt(p["g"] / (p["e"] + p["A"]) * (p["A"] ** 2 - p["x"] ** 2)),
            ),
            Mistake(
                "using 2π√(k/m) for the angular frequency",
                lambda p: 2 * math.pi * _shm_speed(p),
            ),
        ),
        stem="A block of mass {m} hangs at rest from a light vertical spring, which it "
        "stretches by {e}. The block is pulled down a further {A} and released, so that it "
        "oscillates vertically. Taking {g}, its speed when it is {x} from its equilibrium "
        "position is",
        method="At equilibrium $ke = mg$, so $k = {k}\\ \\mathrm{{N\\,m^{{-1}}}}$. The angular "
        "frequency is $\\omega = \\sqrt{{k/m}} = {w}\\ \\mathrm{{rad\\,s^{{-1}}}}$ and the "
        "amplitude is $A$ (measured from equilibrium). In SHM $v = \\omega\\sqrt{{A^2 - x^2}} "
        "=$ {answer}.",
        accept=lambda p: 0.3 * p["A"] <= p["x"] <= 0.85 * p["A"] and p["A"] <= p["e"],
    ),
    NumericalTemplate(
        "phy-chain-string-second-overtone",
        PHY,
        "phy-standing-waves",
        Demand(steps=2, concepts=2),
        "the wave speed on the string from v = √(T/μ) with T = Mg and μ = m/L, then the "
        "frequency of the second overtone (third harmonic) 3v/2L",
        givens=(
            Q("L", "L", r"\mathrm{m}", choices=span(0.5, 2.0, 0.1)),
            Q("ms", "m", r"\mathrm{g}", si=1e-3, choices=span(2, 20, 1)),
            Q("M", "M", r"\mathrm{kg}", choices=span(1, 10, 0.5)),
            G_TEN,
        ),
        unknown=Q("f", "f", r"\mathrm{Hz}"),
        chain=(
            Step(
                Q("v", "v", MS),
                "Eq(v**2*ms, M*g*L)",
                "speed of a transverse wave on a stretched string",
                compute=_string_speed,
            ),
        ),
        relation="Eq(f, 3*v/(2*L))",
        concept="standing waves on a string fixed at both ends",
        compute=lambda p: 3 * _string_speed(p) / (2 * p["L"]),
        mistakes=(
            Mistake(
                "taking the second overtone as the second harmonic, 2v/2L",
                lambda p: _string_speed(p) / p["L"],
            ),
            Mistake(
                "taking the tension as M, leaving out g",
                lambda p: 3 * _string_speed(p) / (2 * p["L"] * math.sqrt(p["g"])),
            ),
            Mistake(
                "using the string's whole mass in place of its mass per unit length",
                lambda p: 3 * math.sqrt(p["M"] * p["g"] / p["ms"]) / (2 * p["L"]),
            ),
            Mistake(
                "giving the fundamental frequency v/2L",
                lambda p: _string_speed(p) / (2 * p["L"]),
            ),
        ),
        stem="A uniform string of length {L} and mass {ms} is stretched between two fixed "
        "supports, its tension equal to the weight of a block of mass {M}. Taking {g}, the "
        "frequency of the second overtone of the string's transverse vibrations is",
        method="The mass per unit length is $\\mu = m/L$ and the tension $T = Mg$, so $v = "
        "\\sqrt{{T/\\mu}} = \\sqrt{{MgL/m}} = {v}\\ \\mathrm{{m\\,s^{{-1}}}}$. With both ends "
        "fixed the harmonics are $nv/2L$; the second overtone is the third harmonic, $f = "
        "\\dfrac{{3v}}{{2L}} =$ {answer}.",
        accept=lambda p: 20 <= _string_speed(p) <= 300,
    ),
    NumericalTemplate(
        "phy-chain-closed-pipe-beats-with-fork",
        PHY,
        "phy-beats",
        Demand(steps=2, concepts=2),
        "the fundamental of the closed pipe v/4L, then the fork's frequency from the beats, "
        "the fork being higher because loading it (lowering its frequency) reduces the beats",
        givens=(
            Q("L", "L", r"\mathrm{cm}", si=0.01, choices=span(50, 100, 2)),
            Q("fb", "f_b", r"\mathrm{s^{-1}}", choices=span(4, 10, 1)),
            Q("v", "v", MS, choices=(330.0, 340.0)),
        ),
        unknown=Q("f", "f", r"\mathrm{Hz}"),
        chain=(
            Step(
                Q("fp", "f_p", r"\mathrm{Hz}"),
                "Eq(fp*4*L, v)",
                "fundamental of a closed organ pipe",
                compute=lambda p: p["v"] / (4 * p["L"]),
            ),
        ),
        relation="Eq(f, fp + fb)",
        concept="beats",
        compute=lambda p: p["v"] / (4 * p["L"]) + p["fb"],
        mistakes=(
            Mistake(
                "subtracting the beat frequency, taking the fork to be the lower",
                lambda p: p["v"] / (4 * p["L"]) - p["fb"],
            ),
            Mistake(
                "using the open-pipe fundamental v/2L",
                lambda p: p["v"] / (2 * p["L"]) + p["fb"],
            ),
            Mistake(
                "using the open-pipe fundamental v/2L and subtracting the beats",
                lambda p: p["v"] / (2 * p["L"]) - p["fb"],
            ),
            Mistake(
                "using the closed pipe's first overtone 3v/4L",
                lambda p: 3 * p["v"] / (4 * p["L"]) + p["fb"],
            ),
        ),
        stem="A closed organ pipe of length {L}, sounding its fundamental, and a tuning fork "
        "sounded together produce beats at a rate {fb}. When the prongs of the fork are "
        "loaded with a little wax, the beat frequency decreases. Taking the speed of sound in "
        "air as {v} and neglecting the end correction, the frequency of the fork before it "
        "was loaded is",
        method="The closed pipe's fundamental is $f_p = \\dfrac{{v}}{{4L}} = {fp}$ Hz, so the "
        "fork is $f_p \\pm f_b$. Wax lowers the fork's frequency; the beats then decrease, so "
        "the fork was above the pipe: $f = f_p + f_b =$ {answer}.",
        accept=lambda p: 2 * p["fb"] / (p["v"] / (4 * p["L"]) + p["fb"]) >= 0.065,
    ),
    NumericalTemplate(
        "phy-chain-putty-hits-spring-block-amplitude",
        PHY,
        "phy-energy-in-shm",
        Demand(steps=2, concepts=2),
        "the common velocity from momentum conservation in the perfectly inelastic collision, "
        "then the amplitude from the energy of the oscillation, ½kA² = ½(M + m)V²",
        givens=(
            Q("M", "M", r"\mathrm{kg}", choices=span(0.5, 4.0, 0.1)),
            Q("k", "k", r"\mathrm{N\,m^{-1}}", choices=span(50, 500, 25)),
            Q("m", "m", r"\mathrm{g}", si=1e-3, choices=span(50, 500, 25)),
            Q("u", "u", MS, choices=span(1, 8, 0.5)),
        ),
        unknown=Q("A", "A", r"\mathrm{cm}", si=0.01),
        chain=(
            Step(
                Q("V", "V", MS),
                "Eq((M + m)*V, m*u)",
                "conservation of linear momentum in a perfectly inelastic collision",
                compute=lambda p: p["m"] * p["u"] / (p["M"] + p["m"]),
            ),
        ),
        relation="Eq(k*A**2/2, (M + m)*V**2/2)",
        concept="energy in simple harmonic motion",
        compute=_putty_amplitude,
        mistakes=(
            Mistake(
                "conserving kinetic energy in the collision, ½kA² = ½mu²",
                lambda p: p["u"] * math.sqrt(p["m"] / p["k"]),
            ),
            Mistake(
                "leaving the putty out of the oscillating mass",
                lambda p: p["m"] * p["u"] / (p["M"] + p["m"]) * math.sqrt(p["M"] / p["k"]),
            ),
            Mistake(
                "giving the block the putty's speed u",
                lambda p: _near(
                    p["u"] * math.sqrt((p["M"] + p["m"]) / p["k"]), _putty_amplitude(p)
                ),
            ),
            Mistake(
                "writing the kinetic energy as (M + m)V², without the ½",
                lambda p: math.sqrt(2) * _putty_amplitude(p),
            ),
        ),
        stem="A block of mass {M} rests on a smooth horizontal floor, attached to one end of a "
        "light horizontal spring of force constant {k} whose other end is fixed to a wall. A "
        "lump of putty of mass {m}, moving along the axis of the spring with a speed {u}, "
        "hits the block and sticks to it. The amplitude of the oscillation that follows is",
        method="Momentum is conserved in the collision: $(M + m)V = mu$, so $V = {V}\\ "
        "\\mathrm{{m\\,s^{{-1}}}}$, the speed at the equilibrium position. The oscillation's "
        "energy is then all kinetic: $\\tfrac{{1}}{{2}}kA^2 = \\tfrac{{1}}{{2}}(M + m)V^2$, so "
        "$A = V\\sqrt{{(M + m)/k}} =$ {answer}.",
        accept=lambda p: 0.1 <= p["m"] / p["M"] <= 0.8 and 1 <= 100 * _putty_amplitude(p) <= 30,
    ),
    # ── Unit 20: Experimental Skills ─────────────────────────────────────────────────────────
    NumericalTemplate(
        "phy-chain-vernier-ball-density",
        PHY,
        "phy-expt-vernier-callipers",
        Demand(steps=2, concepts=2),
        "the ball's diameter from the vernier reading with its positive zero error subtracted, "
        "then the density from the mass over the volume πd³/6",
        givens=(
            Q("z", "n_0", choices=(3.0, 4.0, 5.0, 6.0)),
            Q("M0", r"\mathrm{MSR}", r"\mathrm{cm}", si=0.01, choices=span(0.5, 1.2, 0.1)),
            Q("n", "n", choices=span(0, 9, 1)),
            Q("m", "m", r"\mathrm{g}", si=1e-3, choices=span(1.0, 12.0, 0.1)),
        ),
        unknown=Q("rho", r"\rho", r"\mathrm{g\,cm^{-3}}", si=1e3),
        chain=(
            Step(
                Q("d", "d", r"\mathrm{cm}", si=0.01),
                "Eq(d, M0 + (n - z)*0.0001)",
                "vernier callipers reading with zero correction",
                compute=lambda p: p["M0"] + (p["n"] - p["z"]) * VERNIER_LC,
            ),
        ),
        relation="Eq(rho*pi*d**3, 6*m)",
        concept="density from mass and volume",
        compute=_ball_density,
        mistakes=(
            Mistake(
                "adding the zero error instead of subtracting it",
                lambda p: _ball_density(p, zero=1.0),
            ),
            Mistake("ignoring the zero error", lambda p: _ball_density(p, zero=0.0)),
            Mistake(
                "using the diameter as the radius in the volume",
                lambda p: _ball_density(p, radius_slip=True),
            ),
        ),
        stem="In a vernier callipers, 10 vernier divisions equal 9 main-scale divisions of "
        "1 mm each. With the jaws closed, the zero of the vernier lies to the right of the "
        "main-scale zero, and vernier division {z} coincides with a main-scale division. With "
        "a small solid ball held between the jaws, the main-scale reading is {M0} and vernier "
        "division {n} coincides. The mass of the ball is {m}. The density of the material "
        "of the ball is",
        method="The least count is $1\\ \\mathrm{{mm}} - 0.9\\ \\mathrm{{mm}} = 0.01$ cm. The "
        "zero error is positive, $+{z}\\times 0.01$ cm, and is subtracted: $d = {M0} + "
        "{n}\\times 0.01 - {z}\\times 0.01 = {d}$ cm. The volume is $\\pi d^3/6$, so $\\rho = "
        "\\dfrac{{6m}}{{\\pi d^3}} =$ {answer}.",
        accept=lambda p: 2500 <= _ball_density(p) <= 11500,
    ),
    NumericalTemplate(
        "phy-chain-screw-gauge-youngs-modulus",
        PHY,
        "phy-expt-youngs-modulus",
        Demand(steps=2, concepts=2),
        "the wire's diameter from the screw-gauge reading corrected for its zero error, then "
        "Young's modulus from stress over strain with A = πd²/4",
        givens=(
            Q("e", "e_0", r"\mathrm{mm}", si=1e-3, choices=(-0.05, -0.04, -0.03, 0.03, 0.04, 0.05)),
            Q("s", r"\mathrm{MSR}", r"\mathrm{mm}", si=1e-3, choices=(0.5,)),
            Q("n", "n", choices=span(0, 49, 1)),
            Q("L", "L", r"\mathrm{m}", choices=span(1.0, 3.0, 0.5)),
            Q("dL", r"\Delta L", r"\mathrm{mm}", si=1e-3, choices=span(0.3, 2.0, 0.05)),
            Q("M", "M", r"\mathrm{kg}", choices=span(2, 10, 1)),
            G_TEN,
        ),
        unknown=Q("Y", "Y", r"\mathrm{GPa}", si=1e9),
        chain=(
            Step(
                Q("d", "d", r"\mathrm{mm}", si=1e-3),
                "Eq(d, s + n*0.00001 - e)",
                "screw gauge reading with zero correction",
                compute=lambda p: p["s"] + p["n"] * SCREW_LC - p["e"],
            ),
        ),
        relation="Eq(Y*pi*(d/2)**2*dL, M*g*L)",
        concept="Young's modulus from stress and strain",
        compute=_wire_modulus,
        mistakes=(
            Mistake(
                "applying the zero correction with the wrong sign",
                lambda p: _wire_modulus(p, zero=1.0),
            ),
            Mistake("ignoring the zero error", lambda p: _wire_modulus(p, zero=0.0)),
            Mistake(
                "using the diameter as the radius in the cross-section",
                lambda p: _wire_modulus(p) / 4,
            ),
        ),
        stem="A screw gauge of pitch 0.5 mm has 50 divisions on its circular scale, and its "
        "zero error is {e}. Measuring the diameter of a wire, the main-scale reading is {s} "
        "and circular-scale division {n} lies on the reference line. A length {L} of this wire "
        "stretches by {dL} when it carries a load of mass {M}. Taking {g}, Young's modulus of "
        "the material of the wire is",
        method="The least count is $0.5\\ \\mathrm{{mm}}/50 = 0.01$ mm. The observed reading is "
        "${s} + {n}\\times 0.01$ mm, and the zero error is subtracted from it: $d = {d}$ mm. "
        "Then $Y = \\dfrac{{Mg/(\\pi d^2/4)}}{{\\Delta L/L}} = \\dfrac{{4MgL}}{{\\pi d^2\\Delta "
        "L}} =$ {answer}.",
        accept=lambda p: 0.9e11 <= _wire_modulus(p) <= 2.2e11,
    ),
)
