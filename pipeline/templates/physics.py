"""More Physics numerical templates, one group per syllabus unit."""

from __future__ import annotations

import math

from core.records import Subject
from pipeline.generate.numerical import (
    ANSWER_SIG_FIGS,
    ONE_STEP,
    TWO_STEPS,
    NumericalTemplate,
    Quantity,
    span,
    unit_slip,
)
from pipeline.quantities.numbers import round_sig

PHY = Subject.PHYSICS
Q = Quantity
MS, MS2 = r"\mathrm{m\,s^{-1}}", r"\mathrm{m\,s^{-2}}"
PCT = r"\%"
DEG = r"^\circ"
CELSIUS = r"^\circ\mathrm{C}"
RPM = r"\mathrm{rev\,min^{-1}}"
RPM_SI = 2 * math.pi / 60  # rev/min to rad/s
G_EARTH = Q("g", "g", MS2, choices=(9.8,))
G_TEN = Q("g", "g", MS2, choices=(9.8, 10.0))
ANGLES = (30.0, 45.0, 60.0)
# Nuclear mass numbers: every third from 6 to 240, with the cubes 64 and 125, and helium-4.
MASS_NUMBERS = tuple(float(a) for a in (4, 64, 125, *range(6, 241, 3)))
# Majority-carrier concentrations (m⁻³) of doped semiconductors.
DOPED_DENSITIES = tuple(
    m * 10.0**e for e in (21, 22, 23) for m in (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0)
)


def _sin(deg: float) -> float:
    return math.sin(math.radians(deg))


def _cos(deg: float) -> float:
    """cos of an angle in degrees, exactly 0 at 90° (a cos-for-sin slip there is no option)."""
    c = math.cos(math.radians(deg))
    return 0.0 if abs(c) < 1e-12 else c


def _leading(x: float) -> tuple[float, int]:
    """x as (leading digits, power of ten): 1.5e16 as (1.5, 16)."""
    k = math.floor(math.log10(x))
    return round(x / 10.0**k, 9), k


def _fraction(x: float) -> float:
    """x when it can pass for an efficiency; NaN (the option is dropped) when it exceeds 1."""
    return x if x < 1 else math.nan


# ── Unit 1: Physics and Measurement ──────────────────────────────────────────────────────────
MEASUREMENT: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-percent-error-cylinder-density",
        PHY,
        "phy-errors-in-measurement",
        ONE_STEP,
        "one relation: the relative errors of m, r and L add, each weighted by its power (2 for r)",
        givens=(
            Q("pm", r"\Delta m/m", PCT, choices=span(0.5, 3, 0.5)),
            Q("pr", r"\Delta r/r", PCT, choices=span(0.5, 2.5, 0.5)),
            Q("pl", r"\Delta L/L", PCT, choices=span(0.5, 2, 0.5)),
        ),
        unknown=Q("pd", r"\Delta\rho/\rho", PCT),
        relation="Eq(pd, pm + 2*pr + pl)",
        compute=lambda p: p["pm"] + 2 * p["pr"] + p["pl"],
        mistakes=(
            ("ignoring the square on r", lambda p: p["pm"] + p["pr"] + p["pl"]),
            (
                "weighting r by 3, as for the volume of a sphere",
                lambda p: p["pm"] + 3 * p["pr"] + p["pl"],
            ),
            ("leaving out the error in L", lambda p: p["pm"] + 2 * p["pr"]),
            ("leaving out the error in m", lambda p: 2 * p["pr"] + p["pl"]),
        ),
        stem="The density of a solid cylinder is found by dividing its mass $m$ by its volume "
        "$\\pi r^2 L$. The mass, radius and length are measured with percentage errors {pm}, "
        "{pr} and {pl} respectively. The maximum percentage error in the density is",
        method="Since $\\rho \\propto m\\,r^{{-2}}L^{{-1}}$, the maximum relative errors add, each "
        "multiplied by the magnitude of its power: $\\dfrac{{\\Delta\\rho}}{{\\rho}} = "
        "\\dfrac{{\\Delta m}}{{m}} + 2\\dfrac{{\\Delta r}}{{r}} + \\dfrac{{\\Delta L}}{{L}} = "
        "{pm} + 2({pr}) + {pl}$ per cent $=$ {answer}.",
    ),
    NumericalTemplate(
        "phy-percent-error-from-least-count",
        PHY,
        "phy-least-count-and-accuracy",
        ONE_STEP,
        "one relation: percentage error = least count / reading × 100",
        givens=(
            Q("lc", r"\mathrm{LC}", r"\mathrm{mm}", si=1e-3, choices=(0.1, 0.5, 1.0)),
            Q("L", "L", r"\mathrm{cm}", si=0.01, choices=span(5, 50, 0.5)),
        ),
        unknown=Q("pe", r"\Delta L/L", PCT, si=0.01),
        relation="Eq(pe, lc/L)",
        compute=lambda p: p["lc"] / p["L"],
        mistakes=(
            ("taking the error as half the least count", lambda p: p["lc"] / (2 * p["L"])),
            (
                "doubling the least count, as for two readings",
                lambda p: 2 * p["lc"] / p["L"],
            ),
            unit_slip("dividing millimetres by centimetres", lambda p: 10 * p["lc"] / p["L"]),
            unit_slip("forgetting to multiply by 100", lambda p: p["lc"] / p["L"] / 100),
        ),
        stem="A length is measured with an instrument of least count {lc}, and the reading is "
        "{L}. The maximum percentage error in this measurement is",
        method="The maximum absolute error is the least count, $\\Delta L = {lc}$ mm $= "
        "{lc}\\times 10^{{-1}}$ cm, so the percentage error is $\\dfrac{{\\Delta L}}{{L}}\\times "
        "100$ with $L = {L}$ cm: {answer}.",
    ),
    NumericalTemplate(
        "phy-percent-error-sphere-volume",
        PHY,
        "phy-errors-in-measurement",
        ONE_STEP,
        "one relation: the relative error of r³ is three times that of r",
        givens=(Q("pr", r"\Delta r/r", PCT, choices=span(0.1, 6, 0.1)),),
        unknown=Q("pv", r"\Delta V/V", PCT),
        relation="Eq(pv, 3*pr)",
        compute=lambda p: 3 * p["pr"],
        mistakes=(
            ("taking the error in V equal to the error in r", lambda p: p["pr"]),
            ("using the power 2, as for an area", lambda p: 2 * p["pr"]),
            ("also multiplying by the constant 4/3", lambda p: 4 * p["pr"]),
            ("dividing by the power instead of multiplying", lambda p: p["pr"] / 3),
        ),
        stem="The radius of a sphere is measured with a percentage error {pr}. The percentage "
        "error in the volume of the sphere calculated from this measurement is",
        method="$V = \\tfrac{{4}}{{3}}\\pi r^3$; constants carry no error, and a power multiplies "
        "the relative error: $\\dfrac{{\\Delta V}}{{V}} = 3\\dfrac{{\\Delta r}}{{r}} = 3({pr})$ "
        "per cent $=$ {answer}.",
    ),
)

# ── Unit 3: Laws of Motion ───────────────────────────────────────────────────────────────────
LAWS_OF_MOTION: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-incline-kinetic-friction",
        PHY,
        "phy-static-and-kinetic-friction",
        ONE_STEP,
        "one relation: Newton's second law along the incline, a = g(sin θ − μ_k cos θ)",
        givens=(
            Q("theta", r"\theta", DEG, choices=ANGLES),
            Q("mu", r"\mu_k", choices=span(0.1, 0.5, 0.02)),
            G_TEN,
        ),
        unknown=Q("a", "a", MS2),
        relation="Eq(a, g*sin(theta*pi/180) - mu*g*cos(theta*pi/180))",
        compute=lambda p: p["g"] * (_sin(p["theta"]) - p["mu"] * _cos(p["theta"])),
        mistakes=(
            ("ignoring friction, a = g sin θ", lambda p: p["g"] * _sin(p["theta"])),
            (
                "taking the friction force as μmg, without cos θ",
                lambda p: p["g"] * (_sin(p["theta"]) - p["mu"]),
            ),
            (
                "adding friction, a = g(sin θ + μ cos θ)",
                lambda p: p["g"] * (_sin(p["theta"]) + p["mu"] * _cos(p["theta"])),
            ),
            (
                "swapping sin and cos, a = g(cos θ − μ sin θ)",
                lambda p: p["g"] * (_cos(p["theta"]) - p["mu"] * _sin(p["theta"])),
            ),
        ),
        stem="A block slides down a rough plane inclined at {theta} to the horizontal. The "
        "coefficient of kinetic friction between the block and the plane is {mu}. Taking {g}, "
        "the acceleration of the block down the plane is",
        method="Along the incline, $ma = mg\\sin\\theta - \\mu_k N$ with $N = mg\\cos\\theta$, so "
        "$a = g(\\sin\\theta - \\mu_k\\cos\\theta) = {g}(\\sin {theta}^\\circ - "
        "{mu}\\cos {theta}^\\circ)$ $=$ {answer}.",
        accept=lambda p: _sin(p["theta"]) - p["mu"] * _cos(p["theta"]) > 0.15,
    ),
    NumericalTemplate(
        "phy-impulse-ball-rebound",
        PHY,
        "phy-impulse",
        ONE_STEP,
        "one relation: impulse = change of momentum, m(u + v) since the velocity reverses",
        givens=(
            Q("m", "m", r"\mathrm{g}", si=1e-3, choices=span(50, 500, 10)),
            Q("v1", "u", MS, choices=span(10, 30, 1)),
            Q("v2", "v", MS, choices=span(4, 25, 1)),
        ),
        unknown=Q("J", "J", r"\mathrm{N\,s}"),
        relation="Eq(J, m*(v1 + v2))",
        compute=lambda p: p["m"] * (p["v1"] + p["v2"]),
        mistakes=(
            (
                "ignoring the reversal of direction, m(u − v)",
                lambda p: p["m"] * (p["v1"] - p["v2"]),
            ),
            ("counting only the incoming momentum, mu", lambda p: p["m"] * p["v1"]),
            ("counting only the rebound momentum, mv", lambda p: p["m"] * p["v2"]),
            unit_slip("leaving the mass in grams", lambda p: 1000 * p["m"] * (p["v1"] + p["v2"])),
        ),
        stem="A ball of mass {m} moving horizontally with a speed {v1} hits a vertical wall "
        "normally and rebounds along the same line with a speed {v2}. The magnitude of the "
        "impulse exerted by the wall on the ball is",
        method="The velocity reverses, so the change of momentum is $m(v - (-u)) = m(u + v) = "
        "({m}\\times 10^{{-3}})({v1} + {v2})$ N s, and the impulse equals it: {answer}.",
        accept=lambda p: p["v2"] <= 0.8 * p["v1"],
    ),
    NumericalTemplate(
        "phy-centripetal-force-car",
        PHY,
        "phy-centripetal-force",
        ONE_STEP,
        "one relation: F = mv²/r",
        givens=(
            Q("m", "m", r"\mathrm{kg}", choices=span(500, 1500, 100)),
            Q("v", "v", MS, choices=span(5, 10, 0.5)),
            Q("r", "r", r"\mathrm{m}", choices=span(20, 200, 10)),
        ),
        unknown=Q("F", "F", r"\mathrm{N}"),
        relation="Eq(F*r, m*v**2)",
        compute=lambda p: p["m"] * p["v"] ** 2 / p["r"],
        mistakes=(
            ("using the kinetic energy, ½mv²/r", lambda p: 0.5 * p["m"] * p["v"] ** 2 / p["r"]),
            (
                "taking the change of momentum 2mv over half a turn, 2mv²/πr",
                lambda p: 2 * p["m"] * p["v"] ** 2 / (math.pi * p["r"]),
            ),
            ("not squaring the speed, mv/r", lambda p: p["m"] * p["v"] / p["r"]),
            (
                "dividing by the circumference 2πr instead of r",
                lambda p: p["m"] * p["v"] ** 2 / (2 * math.pi * p["r"]),
            ),
        ),
        stem="A car of mass {m} moves with a constant speed {v} around a level circular curve of "
        "radius {r}. The magnitude of the centripetal force acting on the car is",
        method="$F = \\dfrac{{mv^2}}{{r}} = \\dfrac{{({m})({v})^2}}{{{r}}}$ N $=$ {answer}.",
    ),
)

# ── Unit 4: Work, Energy and Power ───────────────────────────────────────────────────────────
WORK_ENERGY_POWER: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-power-force-at-angle",
        PHY,
        "phy-power",
        TWO_STEPS,
        "two steps: the work W = Fd cos θ done by the force along the motion, then the power W/t",
        givens=(
            Q("F", "F", r"\mathrm{N}", choices=span(20, 200, 10)),
            Q("theta", r"\theta", DEG, choices=ANGLES),
            Q("d", "d", r"\mathrm{m}", choices=span(2, 20, 1)),
            Q("t", "t", r"\mathrm{s}", choices=span(2, 9, 1)),
        ),
        unknown=Q("P", "P", r"\mathrm{W}"),
        relation="Eq(P*t, F*d*cos(theta*pi/180))",
        compute=lambda p: p["F"] * p["d"] * _cos(p["theta"]) / p["t"],
        mistakes=(
            ("using sin θ instead of cos θ", lambda p: p["F"] * p["d"] * _sin(p["theta"]) / p["t"]),
            ("ignoring the angle, P = Fd/t", lambda p: p["F"] * p["d"] / p["t"]),
            (
                "reporting the work instead of the power",
                lambda p: p["F"] * p["d"] * _cos(p["theta"]),
            ),
            (
                "dividing by cos θ instead of multiplying",
                lambda p: p["F"] * p["d"] / (_cos(p["theta"]) * p["t"]),
            ),
        ),
        stem="A box is pulled along a level floor by a rope that exerts a force {F} at an angle "
        "{theta} above the horizontal. The box moves through a distance {d} in a time {t}. "
        "The average power delivered by the pulling force is",
        method="Only the horizontal component does work: $W = Fd\\cos\\theta = ({F})({d})\\cos "
        "{theta}^\\circ$ J, and $P = W/t$ with $t = {t}$ s gives $P =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-spring-potential-energy",
        PHY,
        "phy-potential-energy-of-spring",
        ONE_STEP,
        "one relation: U = ½kx², with x in metres",
        givens=(
            Q("k", "k", r"\mathrm{N\,m^{-1}}", choices=span(100, 1000, 50)),
            Q("x", "x", r"\mathrm{cm}", si=0.01, choices=span(10, 20, 1)),
        ),
        unknown=Q("U", "U", r"\mathrm{J}"),
        relation="Eq(U, k*x**2/2)",
        compute=lambda p: 0.5 * p["k"] * p["x"] ** 2,
        mistakes=(
            ("dropping the ½, U = kx²", lambda p: p["k"] * p["x"] ** 2),
            ("not squaring x, U = ½kx", lambda p: 0.5 * p["k"] * p["x"]),
            ("squaring the ½ along with x, U = k(x/2)²", lambda p: 0.25 * p["k"] * p["x"] ** 2),
            unit_slip("leaving x in centimetres", lambda p: 0.5 * p["k"] * (100 * p["x"]) ** 2),
        ),
        stem="A spring of force constant {k} is stretched by {x} from its natural length. "
        "The elastic potential energy stored in it is",
        method="$U = \\tfrac{{1}}{{2}}kx^2$ with $x = {x}\\ \\mathrm{{cm}}$ in metres: "
        "$U = \\tfrac{{1}}{{2}}({k})({x}\\times 10^{{-2}})^2 =$ {answer}.",
    ),
)

# ── Unit 5: Rotational Motion ────────────────────────────────────────────────────────────────
ROTATION: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-torque-on-spanner",
        PHY,
        "phy-torque",
        ONE_STEP,
        "one relation: τ = rF sin θ",
        givens=(
            Q("F", "F", r"\mathrm{N}", choices=span(10, 100, 5)),
            Q("r", "r", r"\mathrm{m}", choices=span(0.1, 0.5, 0.05)),
            # Not 45° (sin = cos) nor 90° (the angle drops out): the angle slips give no options.
            Q("theta", r"\theta", DEG, choices=(30.0, 37.0, 53.0, 60.0)),
        ),
        unknown=Q("tau", r"\tau", r"\mathrm{N\,m}"),
        relation="Eq(tau, r*F*sin(theta*pi/180))",
        compute=lambda p: p["r"] * p["F"] * _sin(p["theta"]),
        mistakes=(
            ("using cos θ instead of sin θ", lambda p: p["r"] * p["F"] * _cos(p["theta"])),
            ("ignoring the angle, τ = rF", lambda p: p["r"] * p["F"]),
            (
                "dividing by sin θ instead of multiplying",
                lambda p: p["r"] * p["F"] / _sin(p["theta"]),
            ),
            ("resolving the wrong way, τ = rF/cos θ", lambda p: p["r"] * p["F"] / _cos(p["theta"])),
        ),
        stem="A force {F} is applied at the end of a spanner, at a distance {r} from the axis of "
        "the bolt, and the force makes an angle {theta} with the spanner. The magnitude of the "
        "torque about the axis of the bolt is",
        method="$\\tau = rF\\sin\\theta = ({r})({F})\\sin {theta}^\\circ$, so $\\tau =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-angular-momentum-coaxial-discs",
        PHY,
        "phy-angular-momentum",
        ONE_STEP,
        "one relation: angular momentum is conserved, I₁ω₁ = (I₁ + I₂)ω",
        givens=(
            Q("I1", "I_1", r"\mathrm{kg\,m^2}", choices=span(0.5, 5, 0.5)),
            Q("w1", r"\omega_1", RPM, si=RPM_SI, choices=span(60, 600, 30)),
            Q("I2", "I_2", r"\mathrm{kg\,m^2}", choices=span(0.5, 5, 0.5)),
        ),
        unknown=Q("w", r"\omega", RPM, si=RPM_SI),
        relation="Eq(I1*w1, (I1 + I2)*w)",
        compute=lambda p: p["I1"] * p["w1"] / (p["I1"] + p["I2"]),
        mistakes=(
            (
                "dividing by the second disc's moment of inertia alone",
                lambda p: p["I1"] * p["w1"] / p["I2"],
            ),
            (
                "conserving kinetic energy instead of angular momentum",
                lambda p: p["w1"] * math.sqrt(p["I1"] / (p["I1"] + p["I2"])),
            ),
            ("simply halving the angular speed", lambda p: p["w1"] / 2),
            (
                "swapping the moments of inertia, I₂ω₁/(I₁ + I₂)",
                lambda p: p["I2"] * p["w1"] / (p["I1"] + p["I2"]),
            ),
        ),
        stem="A disc of moment of inertia {I1} rotates freely about its axis at {w1}. A second "
        "disc of moment of inertia {I2}, initially at rest, is gently placed on it coaxially, "
        "and the two finally rotate together. Their common angular speed is",
        method="No external torque acts about the axis, so $I_1\\omega_1 = (I_1 + I_2)\\omega$: "
        "$\\omega = \\dfrac{{({I1})({w1})}}{{{I1} + {I2}}}$ $=$ {answer}.",
        accept=lambda p: p["I1"] != p["I2"] and p["I1"] <= 8 * p["I2"],
    ),
)

# ── Unit 6: Gravitation ──────────────────────────────────────────────────────────────────────
GRAVITATION: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-escape-speed-planet",
        PHY,
        "phy-escape-velocity",
        ONE_STEP,
        "one relation: v_e = √(2gR), with R in metres",
        givens=(
            Q("R", "R", r"\mathrm{km}", si=1000, choices=span(2000, 8000, 200)),
            Q("g", "g", MS2, choices=span(2, 15, 0.5)),
        ),
        unknown=Q("ve", "v_e", r"\mathrm{km\,s^{-1}}", si=1000),
        relation="Eq(ve**2, 2*g*R)",
        compute=lambda p: math.sqrt(2 * p["g"] * p["R"]),
        mistakes=(
            ("using the orbital speed √(gR)", lambda p: math.sqrt(p["g"] * p["R"])),
            ("taking the 2 outside the root, 2√(gR)", lambda p: 2 * math.sqrt(p["g"] * p["R"])),
            (
                "using the Earth's g = 9.8 m s⁻² in place of the planet's",
                lambda p: math.sqrt(2 * 9.8 * p["R"]),
            ),
            unit_slip("leaving R in kilometres", lambda p: math.sqrt(2 * p["g"] * p["R"] / 1000)),
        ),
        stem="A planet of radius {R} has acceleration due to gravity {g} at its surface. "
        "Neglecting its rotation and atmosphere, the escape speed from its surface is",
        method="$v_e = \\sqrt{{2GM/R}} = \\sqrt{{2gR}}$ since $GM = gR^2$; with $R = {R}\\times "
        "10^3$ m and $g = {g}$, $v_e =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-satellite-period",
        PHY,
        "phy-orbital-velocity",
        ONE_STEP,
        "one relation: the orbital period T = 2π√((R + h)³/GM) with GM = gR²",
        givens=(
            Q("h", "h", r"\mathrm{km}", si=1000, choices=span(400, 3600, 50)),
            Q("R", "R", r"\mathrm{km}", si=1000, choices=(6400.0,)),
            G_EARTH,
        ),
        unknown=Q("T", "T", r"\mathrm{min}", si=60),
        relation="Eq(T**2*g*R**2, 4*pi**2*(R + h)**3)",
        compute=lambda p: 2 * math.pi * math.sqrt((p["R"] + p["h"]) ** 3 / (p["g"] * p["R"] ** 2)),
        mistakes=(
            (
                "ignoring the height (orbit radius R)",
                lambda p: 2 * math.pi * math.sqrt(p["R"] / p["g"]),
            ),
            (
                "using the surface orbital speed √(gR) on the whole orbit",
                lambda p: 2 * math.pi * (p["R"] + p["h"]) / math.sqrt(p["g"] * p["R"]),
            ),
            (
                "dropping the 2π",
                lambda p: math.sqrt((p["R"] + p["h"]) ** 3 / (p["g"] * p["R"] ** 2)),
            ),
            unit_slip(
                "leaving the period in seconds",
                lambda p: (
                    60 * 2 * math.pi * math.sqrt((p["R"] + p["h"]) ** 3 / (p["g"] * p["R"] ** 2))
                ),
            ),
        ),
        stem="A satellite revolves in a circular orbit at a height {h} above the Earth's surface. "
        "Taking the radius of the Earth as {R} and {g} at its surface, the period of revolution "
        "of the satellite is",
        method="Gravity supplies the centripetal force, so $T = 2\\pi\\sqrt{{\\dfrac{{(R+h)^3}}"
        "{{GM}}}}$ with $GM = gR^2$. Here $R + h = {R} + {h}$ km; converting to metres gives "
        "$T$ in seconds, and dividing by 60: $T =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-weight-on-another-planet",
        PHY,
        "phy-acceleration-due-to-gravity",
        ONE_STEP,
        "one relation: g = GM/R², so the weight scales as (mass ratio)/(radius ratio)²",
        givens=(
            Q("W", "W", r"\mathrm{N}", choices=span(100, 900, 50)),
            Q("km", r"M_p/M_E", choices=(0.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 9.0, 10.0)),
            Q("kr", r"R_p/R_E", choices=(0.5, 1.5, 2.0, 3.0)),
        ),
        unknown=Q("Wp", "W_p", r"\mathrm{N}"),
        relation="Eq(Wp*kr**2, W*km)",
        compute=lambda p: p["W"] * p["km"] / p["kr"] ** 2,
        mistakes=(
            ("not squaring the radius ratio", lambda p: p["W"] * p["km"] / p["kr"]),
            ("ignoring the change of radius", lambda p: p["W"] * p["km"]),
            ("ignoring the change of mass", lambda p: p["W"] / p["kr"] ** 2),
            (
                "dividing by the cube of the radius ratio, as for density",
                lambda p: p["W"] * p["km"] / p["kr"] ** 3,
            ),
            ("inverting the ratio, W R²/M", lambda p: p["W"] * p["kr"] ** 2 / p["km"]),
        ),
        stem="A body weighs {W} on the surface of the Earth. A planet of mass $M_p$ and radius "
        "$R_p$ has {km} and {kr}, where $M_E$ and $R_E$ are the mass and radius of the Earth. "
        "The weight of the body on the surface of the planet is",
        method="Weight $= mg$ with $g = GM/R^2$, so $\\dfrac{{W_p}}{{W}} = \\dfrac{{M_p/M_E}}"
        "{{(R_p/R_E)^2}} = \\dfrac{{{km}}}{{({kr})^2}}$, and $W_p = {W}\\times$ this ratio $=$ "
        "{answer}.",
        accept=lambda p: 0.1 <= p["km"] / p["kr"] ** 2 <= 5 and p["km"] != p["kr"] ** 2,
    ),
    NumericalTemplate(
        "phy-g-decrease-small-height",
        PHY,
        "phy-variation-of-g",
        ONE_STEP,
        "one relation: Δg/g = 2h/R for h ≪ R",
        givens=(
            Q("R", "R", r"\mathrm{km}", si=1000, choices=(6400.0,)),
            Q("h", "h", r"\mathrm{km}", si=1000, choices=span(2, 160, 2)),
        ),
        unknown=Q("pct", r"\Delta g/g", PCT, si=0.01),
        relation="Eq(pct, 2*h/R)",
        compute=lambda p: 2 * p["h"] / p["R"],
        mistakes=(
            ("using the depth formula h/R (missing the factor 2)", lambda p: p["h"] / p["R"]),
            ("halving instead of doubling, h/2R", lambda p: p["h"] / (2 * p["R"])),
            ("taking g ∝ 1/r³, Δg/g = 3h/R", lambda p: 3 * p["h"] / p["R"]),
            unit_slip("forgetting to multiply by 100", lambda p: 2 * p["h"] / p["R"] / 100),
        ),
        stem="Taking the radius of the Earth as {R}, the percentage decrease in the acceleration "
        "due to gravity at a height {h} above the Earth's surface ($h \\ll R$) is",
        method="For $h \\ll R$, $g_h \\approx g\\left(1 - \\dfrac{{2h}}{{R}}\\right)$, so "
        "$\\dfrac{{\\Delta g}}{{g}} = \\dfrac{{2h}}{{R}} = \\dfrac{{2({h})}}{{{R}}}$; times 100 "
        "this is {answer}.",
    ),
)

# ── Unit 7: Properties of Solids and Liquids ─────────────────────────────────────────────────
SOLIDS_LIQUIDS: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-wire-extension-youngs-modulus",
        PHY,
        "phy-youngs-modulus",
        ONE_STEP,
        "one relation: ΔL = FL/(AY) from the definition of Young's modulus, with F = mg and "
        "A = πd²/4",
        givens=(
            Q("L", "L", r"\mathrm{m}", choices=span(1, 4, 0.5)),
            Q("d", "d", r"\mathrm{mm}", si=1e-3, choices=(0.5, 0.6, 0.8, 1.0, 1.2, 1.5, 2.0)),
            Q("m", "m", r"\mathrm{kg}", choices=span(1, 20, 1)),
            Q("Y", "Y", r"\mathrm{N\,m^{-2}}", choices=(1e11, 1.2e11, 2e11)),
            G_EARTH,
        ),
        unknown=Q("dL", r"\Delta L", r"\mathrm{mm}", si=1e-3),
        relation="Eq(Y, (m*g/(pi*d**2/4))/(dL/L))",
        compute=lambda p: p["m"] * p["g"] * p["L"] / (math.pi * p["d"] ** 2 / 4 * p["Y"]),
        mistakes=(
            (
                "taking the diameter as the radius",
                lambda p: p["m"] * p["g"] * p["L"] / (math.pi * p["d"] ** 2 * p["Y"]),
            ),
            (
                "leaving π out of the area, A = d²/4",
                lambda p: p["m"] * p["g"] * p["L"] / (p["d"] ** 2 / 4 * p["Y"]),
            ),
            (
                "using the mass as the force (forgetting g)",
                lambda p: p["m"] * p["L"] / (math.pi * p["d"] ** 2 / 4 * p["Y"]),
            ),
            unit_slip(
                "leaving d in millimetres",
                lambda p: p["m"] * p["g"] * p["L"] / (math.pi * (1000 * p["d"]) ** 2 / 4 * p["Y"]),
            ),
        ),
        stem="A wire of length {L} and diameter {d} hangs vertically from a rigid support and a "
        "load of mass {m} is attached to its lower end. Young's modulus of the material of the "
        "wire is {Y}. Taking {g}, the extension of the wire is",
        method="$Y = \\dfrac{{F/A}}{{\\Delta L/L}}$ with $F = mg = ({m})({g})$ N and "
        "$A = \\pi d^2/4$ for $d = {d}\\times 10^{{-3}}$ m, so $\\Delta L = \\dfrac{{mgL}}{{AY}}$ "
        "$=$ {answer}.",
        accept=lambda p: p["m"] * p["g"] / (math.pi * p["d"] ** 2 / 4) <= 2e8,
    ),
    NumericalTemplate(
        "phy-terminal-velocity-stokes",
        PHY,
        "phy-viscosity-and-stokes-law",
        ONE_STEP,
        "one relation: at terminal velocity weight = buoyancy + Stokes drag, v = 2r²(ρ − σ)g/9η",
        givens=(
            Q("r", "r", r"\mathrm{mm}", si=1e-3, choices=(0.5, 1.0, 1.5, 2.0, 2.5, 3.0)),
            Q("rho", r"\rho", r"\mathrm{kg\,m^{-3}}", choices=(2700.0, 7800.0, 8900.0, 11300.0)),
            Q("sigma", r"\sigma", r"\mathrm{kg\,m^{-3}}", choices=(1260.0,)),
            Q("eta", r"\eta", r"\mathrm{Pa\,s}", choices=(0.8, 1.0, 1.2, 1.5)),
            G_EARTH,
        ),
        unknown=Q("v", "v_t", r"\mathrm{cm\,s^{-1}}", si=0.01),
        relation="Eq(6*pi*eta*r*v, (4*pi*r**3/3)*(rho - sigma)*g)",
        compute=lambda p: 2 * p["r"] ** 2 * (p["rho"] - p["sigma"]) * p["g"] / (9 * p["eta"]),
        mistakes=(
            (
                "ignoring the buoyancy of the liquid",
                lambda p: 2 * p["r"] ** 2 * p["rho"] * p["g"] / (9 * p["eta"]),
            ),
            (
                "using the diameter in place of the radius",
                lambda p: 8 * p["r"] ** 2 * (p["rho"] - p["sigma"]) * p["g"] / (9 * p["eta"]),
            ),
            (
                "adding the buoyancy instead of subtracting it, (ρ + σ)",
                lambda p: 2 * p["r"] ** 2 * (p["rho"] + p["sigma"]) * p["g"] / (9 * p["eta"]),
            ),
            unit_slip(
                "giving the speed in m s⁻¹ as cm s⁻¹",
                lambda p: 0.02 * p["r"] ** 2 * (p["rho"] - p["sigma"]) * p["g"] / (9 * p["eta"]),
            ),
        ),
        stem="A small metal sphere of radius {r} and density {rho} falls through glycerine of "
        "density {sigma} and coefficient of viscosity {eta}. Taking {g}, the terminal velocity "
        "of the sphere is",
        method="At terminal velocity $6\\pi\\eta r v_t = \\tfrac{{4}}{{3}}\\pi r^3(\\rho - "
        "\\sigma)g$, so $v_t = \\dfrac{{2r^2(\\rho-\\sigma)g}}{{9\\eta}}$ with $r = {r}\\times "
        "10^{{-3}}$ m and $\\rho - \\sigma = {rho} - {sigma}$: $v_t =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-excess-pressure-drop",
        PHY,
        "phy-capillary-rise",
        ONE_STEP,
        "one relation: ΔP = 2T/r for a drop, with r in metres",
        givens=(
            Q("tens", "T", r"\mathrm{N\,m^{-1}}", choices=span(0.03, 0.075, 0.005)),
            Q("r", "r", r"\mathrm{mm}", si=1e-3, choices=span(0.5, 5, 0.5)),
        ),
        unknown=Q("dP", r"\Delta P", r"\mathrm{Pa}"),
        relation="Eq(dP*r, 2*tens)",
        compute=lambda p: 2 * p["tens"] / p["r"],
        mistakes=(
            ("using the soap-bubble formula 4T/r", lambda p: 4 * p["tens"] / p["r"]),
            ("using the cylindrical-jet formula T/r", lambda p: p["tens"] / p["r"]),
            unit_slip("leaving r in millimetres", lambda p: 2 * p["tens"] / (1000 * p["r"])),
        ),
        stem="A liquid has surface tension {tens}. The excess pressure inside a spherical drop "
        "of this liquid of radius {r} is",
        method="A drop has a single surface, so $\\Delta P = \\dfrac{{2T}}{{r}} = "
        "\\dfrac{{2({tens})}}{{{r}\\times 10^{{-3}}}}$ $=$ {answer}.",
    ),
)

# ── Unit 8: Thermodynamics ───────────────────────────────────────────────────────────────────
THERMODYNAMICS: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-first-law-isobaric-expansion",
        PHY,
        "phy-first-law-of-thermodynamics",
        TWO_STEPS,
        "two steps: the work done by the gas W = PΔV, then the first law ΔU = Q − W",
        givens=(
            Q("heat", "Q", r"\mathrm{J}", choices=span(300, 2000, 50)),
            Q("P", "P", r"\mathrm{kPa}", si=1000, choices=span(100, 300, 20)),
            Q("V1", "V_1", r"\mathrm{L}", si=1e-3, choices=span(1, 4, 0.5)),
            Q("V2", "V_2", r"\mathrm{L}", si=1e-3, choices=span(1.5, 6, 0.5)),
        ),
        unknown=Q("dU", r"\Delta U", r"\mathrm{J}"),
        relation="Eq(heat, dU + P*(V2 - V1))",
        compute=lambda p: p["heat"] - p["P"] * (p["V2"] - p["V1"]),
        mistakes=(
            ("adding the work, ΔU = Q + PΔV", lambda p: p["heat"] + p["P"] * (p["V2"] - p["V1"])),
            ("ignoring the work done by the gas", lambda p: p["heat"]),
            ("reporting the work PΔV instead of ΔU", lambda p: p["P"] * (p["V2"] - p["V1"])),
            ("taking the work as PV₂", lambda p: p["heat"] - p["P"] * p["V2"]),
        ),
        stem="A gas absorbs heat {heat} and expands at a constant pressure {P} from a volume "
        "{V1} to a volume {V2}. The change in the internal energy of the gas is",
        method="Work done by the gas $W = P(V_2 - V_1) = ({P}\\times 10^3)({V2} - {V1})\\times "
        "10^{{-3}}$ J. By the first law $Q = \\Delta U + W$, so $\\Delta U = {heat} - W =$ "
        "{answer}.",
        accept=lambda p: (
            p["V2"] > p["V1"] and 0.1 * p["heat"] <= p["P"] * (p["V2"] - p["V1"]) < 0.8 * p["heat"]
        ),
    ),
    NumericalTemplate(
        "phy-carnot-efficiency-celsius",
        PHY,
        "phy-second-law-of-thermodynamics",
        ONE_STEP,
        "one relation: η = 1 − T₂/T₁, with both temperatures in kelvin",
        givens=(
            Q("T1", "T_1", CELSIUS, choices=span(127, 927, 100)),
            Q("T2", "T_2", CELSIUS, choices=(7.0, 17.0, 27.0, 37.0, 47.0, 57.0, 77.0, 127.0)),
        ),
        unknown=Q("eta", r"\eta", PCT, si=0.01, bounds=(0, 100)),
        relation="Eq(eta, 1 - (T2 + 273)/(T1 + 273))",
        compute=lambda p: 1 - (p["T2"] + 273) / (p["T1"] + 273),
        mistakes=(
            ("using the Celsius temperatures directly", lambda p: 1 - p["T2"] / p["T1"]),
            (
                "reporting T₂/T₁, the fraction of heat rejected",
                lambda p: (p["T2"] + 273) / (p["T1"] + 273),
            ),
            (
                "converting only the source temperature to kelvin",
                lambda p: 1 - p["T2"] / (p["T1"] + 273),
            ),
            (
                "dividing the temperature difference by the sink temperature",
                lambda p: _fraction((p["T1"] - p["T2"]) / (p["T2"] + 273)),
            ),
            (
                "converting only the sink temperature to kelvin",
                lambda p: _fraction(1 - (p["T2"] + 273) / p["T1"]),
            ),
        ),
        stem="A Carnot engine works between a source at {T1} and a sink at {T2}. Taking 0 °C as "
        "273 K, the efficiency of the engine is",
        method="In kelvin, $T_1 = {T1} + 273$ and $T_2 = {T2} + 273$; the Carnot efficiency is "
        "$\\eta = 1 - \\dfrac{{T_2}}{{T_1}}$ $=$ {answer}.",
        accept=lambda p: p["T1"] - p["T2"] >= 100,
    ),
    NumericalTemplate(
        "phy-isobaric-work-done",
        PHY,
        "phy-isobaric-and-isochoric-processes",
        ONE_STEP,
        "one relation: W = PΔV",
        givens=(
            Q("P", "P", r"\mathrm{kPa}", si=1000, choices=span(100, 500, 20)),
            Q("V1", "V_1", r"\mathrm{L}", si=1e-3, choices=span(1, 5, 0.5)),
            Q("V2", "V_2", r"\mathrm{L}", si=1e-3, choices=span(2, 10, 0.5)),
        ),
        unknown=Q("W", "W", r"\mathrm{J}"),
        relation="Eq(W, P*(V2 - V1))",
        compute=lambda p: p["P"] * (p["V2"] - p["V1"]),
        mistakes=(
            ("taking W = PV₂, the final volume alone", lambda p: p["P"] * p["V2"]),
            ("adding the volumes, P(V₁ + V₂)", lambda p: p["P"] * (p["V2"] + p["V1"])),
            ("taking W = PV₁, the initial volume alone", lambda p: p["P"] * p["V1"]),
            unit_slip("dropping the kilo of kPa", lambda p: p["P"] * (p["V2"] - p["V1"]) / 1000),
        ),
        stem="A gas expands at a constant pressure {P} from a volume {V1} to a volume {V2}. "
        "The work done by the gas is",
        method="At constant pressure $W = P(V_2 - V_1) = ({P}\\times 10^3\\ \\mathrm{{Pa}})"
        "({V2} - {V1})\\times 10^{{-3}}\\ \\mathrm{{m^3}}$ $=$ {answer}.",
        accept=lambda p: p["V2"] >= 1.25 * p["V1"],
    ),
    NumericalTemplate(
        "phy-heat-engine-efficiency",
        PHY,
        "phy-second-law-of-thermodynamics",
        ONE_STEP,
        "one relation: η = W/Q₁ = 1 − Q₂/Q₁",
        givens=(
            Q("heat1", "Q_1", r"\mathrm{J}", choices=span(500, 5000, 100)),
            Q("heat2", "Q_2", r"\mathrm{J}", choices=span(200, 4000, 100)),
        ),
        unknown=Q("eta", r"\eta", PCT, si=0.01, bounds=(0, 100)),
        relation="Eq(eta, 1 - heat2/heat1)",
        compute=lambda p: 1 - p["heat2"] / p["heat1"],
        mistakes=(
            ("reporting Q₂/Q₁, the fraction of heat rejected", lambda p: p["heat2"] / p["heat1"]),
            (
                "dividing the work by the heat rejected",
                lambda p: _fraction((p["heat1"] - p["heat2"]) / p["heat2"]),
            ),
            (
                "dividing the work by the total heat exchanged, Q₁ + Q₂",
                lambda p: (p["heat1"] - p["heat2"]) / (p["heat1"] + p["heat2"]),
            ),
            unit_slip(
                "forgetting to multiply by 100", lambda p: (1 - p["heat2"] / p["heat1"]) / 100
            ),
        ),
        stem="In each cycle, a heat engine absorbs heat {heat1} from its source and rejects heat "
        "{heat2} to its sink. The efficiency of the engine is",
        method="The work per cycle is $W = Q_1 - Q_2$, so $\\eta = \\dfrac{{W}}{{Q_1}} = 1 - "
        "\\dfrac{{Q_2}}{{Q_1}} = 1 - \\dfrac{{{heat2}}}{{{heat1}}}$ $=$ {answer}.",
        accept=lambda p: 0.2 <= p["heat2"] / p["heat1"] <= 0.85,
    ),
)

# ── Unit 9: Kinetic Theory of Gases ──────────────────────────────────────────────────────────
KINETIC_THEORY: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-rms-speed-gas",
        PHY,
        "phy-rms-speed",
        ONE_STEP,
        "one relation: v_rms = √(3RT/M), with M in kg mol⁻¹",
        givens=(
            Q(
                "Mm",
                "M",
                r"\mathrm{g\,mol^{-1}}",
                si=1e-3,
                choices=(2.0, 4.0, 16.0, 28.0, 32.0, 44.0),
            ),
            Q("R", "R", r"\mathrm{J\,mol^{-1}\,K^{-1}}", choices=(8.314,)),
            Q("T", "T", r"\mathrm{K}", choices=span(200, 1000, 50)),
        ),
        unknown=Q("v", r"v_{rms}", MS),
        relation="Eq(Mm*v**2, 3*R*T)",
        compute=lambda p: math.sqrt(3 * p["R"] * p["T"] / p["Mm"]),
        mistakes=(
            (
                "using the most probable speed √(2RT/M)",
                lambda p: math.sqrt(2 * p["R"] * p["T"] / p["Mm"]),
            ),
            (
                "using the mean speed √(8RT/πM)",
                lambda p: math.sqrt(8 * p["R"] * p["T"] / (math.pi * p["Mm"])),
            ),
            ("dropping the 3, √(RT/M)", lambda p: math.sqrt(p["R"] * p["T"] / p["Mm"])),
            unit_slip(
                "leaving the molar mass in grams",
                lambda p: math.sqrt(3 * p["R"] * p["T"] / (1000 * p["Mm"])),
            ),
        ),
        stem="A gas has molar mass {Mm}. Taking {R}, the rms speed of its molecules at a "
        "temperature {T} is",
        method="$v_{{rms}} = \\sqrt{{\\dfrac{{3RT}}{{M}}}}$ with $M = {Mm}\\times 10^{{-3}}$ "
        "kg mol⁻¹: $v_{{rms}} = \\sqrt{{\\dfrac{{3({R})({T})}}{{{Mm}\\times 10^{{-3}}}}}}$ $=$ "
        "{answer}.",
    ),
    NumericalTemplate(
        "phy-rms-speed-temperature-ratio",
        PHY,
        "phy-rms-speed",
        ONE_STEP,
        "one relation: v_rms ∝ √T, applied as a ratio",
        givens=(
            Q("v1", "v_1", MS, choices=span(200, 1000, 50)),
            Q("T1", "T_1", r"\mathrm{K}", choices=(200.0, 250.0, 300.0, 400.0, 500.0, 600.0)),
            Q(
                "T2",
                "T_2",
                r"\mathrm{K}",
                choices=(200.0, 300.0, 400.0, 600.0, 800.0, 900.0, 1200.0),
            ),
        ),
        unknown=Q("v2", "v_2", MS),
        relation="Eq(v2**2*T1, v1**2*T2)",
        compute=lambda p: p["v1"] * math.sqrt(p["T2"] / p["T1"]),
        mistakes=(
            ("no square root, v ∝ T", lambda p: p["v1"] * p["T2"] / p["T1"]),
            ("inverting the ratio, √(T₁/T₂)", lambda p: p["v1"] * math.sqrt(p["T1"] / p["T2"])),
            ("squaring the ratio, v ∝ T²", lambda p: p["v1"] * (p["T2"] / p["T1"]) ** 2),
            (
                "inverting the ratio with no square root, v ∝ 1/T",
                lambda p: p["v1"] * p["T1"] / p["T2"],
            ),
        ),
        stem="The rms speed of the molecules of a gas is {v1} at a temperature {T1}. The rms "
        "speed of the molecules of the same gas at a temperature {T2} is",
        method="$v_{{rms}} = \\sqrt{{3RT/M}} \\propto \\sqrt{{T}}$, so $v_2 = v_1\\sqrt{{T_2/T_1}} "
        "= {v1}\\sqrt{{{T2}/{T1}}}$ $=$ {answer}.",
        accept=lambda p: p["T1"] != p["T2"] and 0.25 <= p["T2"] / p["T1"] <= 4,
    ),
    NumericalTemplate(
        "phy-mean-kinetic-energy-molecule",
        PHY,
        "phy-kinetic-interpretation-of-temperature",
        ONE_STEP,
        "one relation: average translational kinetic energy = (3/2)k_BT",
        givens=(
            Q("T", "T", r"\mathrm{K}", choices=span(100, 1200, 25)),
            Q("kB", "k_B", r"\mathrm{J\,K^{-1}}", choices=(1.38e-23,)),
        ),
        unknown=Q("K", r"\bar{K}", r"\mathrm{J}"),
        relation="Eq(K, 3*kB*T/2)",
        compute=lambda p: 1.5 * p["kB"] * p["T"],
        mistakes=(
            ("dropping the 3/2, K = k_BT", lambda p: p["kB"] * p["T"]),
            ("using ½k_BT, the share of one degree of freedom", lambda p: 0.5 * p["kB"] * p["T"]),
            ("using 3k_BT", lambda p: 3 * p["kB"] * p["T"]),
            (
                "counting rotation as for a diatomic molecule, (5/2)k_BT",
                lambda p: 2.5 * p["kB"] * p["T"],
            ),
        ),
        stem="An ideal gas is kept at a temperature {T}. Taking Boltzmann's constant {kB}, the "
        "average translational kinetic energy of one of its molecules is",
        method="Three translational degrees of freedom share $\\tfrac{{1}}{{2}}k_BT$ each, so "
        "$\\bar K = \\tfrac{{3}}{{2}}k_BT = \\tfrac{{3}}{{2}}({kB})({T})$ J $=$ {answer}.",
    ),
)

# ── Unit 10: Oscillations and Waves ──────────────────────────────────────────────────────────
OSCILLATIONS_WAVES: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-spring-mass-period",
        PHY,
        "phy-spring-oscillations",
        ONE_STEP,
        "one relation: T = 2π√(m/k)",
        givens=(
            Q("m", "m", r"\mathrm{kg}", choices=span(0.2, 4, 0.2)),
            Q("k", "k", r"\mathrm{N\,m^{-1}}", choices=span(20, 400, 20)),
        ),
        unknown=Q("T", "T", r"\mathrm{s}"),
        relation="Eq(T**2*k, 4*pi**2*m)",
        compute=lambda p: 2 * math.pi * math.sqrt(p["m"] / p["k"]),
        mistakes=(
            ("dropping the 2π", lambda p: math.sqrt(p["m"] / p["k"])),
            (
                "giving the time from one extreme to the other, half a period",
                lambda p: math.pi * math.sqrt(p["m"] / p["k"]),
            ),
            (
                "reporting the frequency instead of the period",
                lambda p: 1 / (2 * math.pi * math.sqrt(p["m"] / p["k"])),
            ),
            ("forgetting the square root, 2πm/k", lambda p: 2 * math.pi * p["m"] / p["k"]),
            ("reporting the angular frequency √(k/m)", lambda p: math.sqrt(p["k"] / p["m"])),
            ("inverting the ratio, 2π√(k/m)", lambda p: 2 * math.pi * math.sqrt(p["k"] / p["m"])),
        ),
        stem="A block of mass {m} attached to a light spring of force constant {k} oscillates "
        "on a smooth horizontal surface. The time period of its oscillations is",
        method="$T = 2\\pi\\sqrt{{m/k}} = 2\\pi\\sqrt{{{m}/{k}}}$, so $T =$ {answer}.",
        accept=lambda p: 0.7 <= 2 * math.pi * math.sqrt(p["m"] / p["k"]) <= 2.5,
    ),
    NumericalTemplate(
        "phy-string-fundamental-frequency",
        PHY,
        "phy-standing-waves",
        ONE_STEP,
        "one relation: the fundamental frequency of a string f₁ = (1/2L)√(T/μ)",
        givens=(
            Q("L", "L", r"\mathrm{cm}", si=0.01, choices=span(30, 150, 10)),
            Q("mu", r"\mu", r"\mathrm{g\,m^{-1}}", si=1e-3, choices=span(1, 10, 0.5)),
            Q("tens", "T", r"\mathrm{N}", choices=span(20, 200, 10)),
        ),
        unknown=Q("f", "f_1", r"\mathrm{Hz}"),
        relation="Eq(2*L*f, sqrt(tens/mu))",
        compute=lambda p: math.sqrt(p["tens"] / p["mu"]) / (2 * p["L"]),
        mistakes=(
            (
                "taking L as one wavelength, f = v/L",
                lambda p: math.sqrt(p["tens"] / p["mu"]) / p["L"],
            ),
            (
                "using the closed-pipe relation f = v/4L",
                lambda p: math.sqrt(p["tens"] / p["mu"]) / (4 * p["L"]),
            ),
            (
                "inverting L = λ/2 to λ = L/2, f = 2v/L",
                lambda p: 2 * math.sqrt(p["tens"] / p["mu"]) / p["L"],
            ),
            unit_slip(
                "leaving μ in g m⁻¹",
                lambda p: math.sqrt(p["tens"] / (1000 * p["mu"])) / (2 * p["L"]),
            ),
        ),
        stem="A string of length {L}, fixed at both ends, has a linear mass density {mu} and is "
        "kept under a tension {tens}. The frequency of its fundamental mode of vibration is",
        method="The wave speed is $v = \\sqrt{{T/\\mu}}$ with $\\mu = {mu}\\times 10^{{-3}}$ "
        "kg m⁻¹, and the fundamental has $L = \\lambda/2$, so $f_1 = \\dfrac{{1}}{{2L}}"
        "\\sqrt{{\\dfrac{{T}}{{\\mu}}}}$ with $L = {L}\\times 10^{{-2}}$ m: $f_1 =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-beats-count",
        PHY,
        "phy-beats",
        ONE_STEP,
        "one relation: beats heard = beat frequency (f₁ − f₂) × time",
        givens=(
            Q("f1", "f_1", r"\mathrm{Hz}", choices=span(380, 420, 1)),
            Q("f2", "f_2", r"\mathrm{Hz}", choices=span(370, 415, 1)),
            Q("t", "t", r"\mathrm{s}", choices=span(2, 10, 1)),
        ),
        unknown=Q("nb", "N"),
        relation="Eq(nb, (f1 - f2)*t)",
        compute=lambda p: (p["f1"] - p["f2"]) * p["t"],
        mistakes=(
            ("giving the beat frequency, ignoring t", lambda p: p["f1"] - p["f2"]),
            ("counting two beats per cycle", lambda p: 2 * (p["f1"] - p["f2"]) * p["t"]),
            (
                "taking the envelope frequency (f₁ − f₂)/2 as the beat frequency",
                lambda p: (p["f1"] - p["f2"]) * p["t"] / 2,
            ),
            ("dividing by t instead of multiplying", lambda p: (p["f1"] - p["f2"]) / p["t"]),
        ),
        stem="Two tuning forks of frequencies {f1} and {f2} are sounded together. The number of "
        "beats heard in a time {t} is",
        method="The beat frequency is $f_1 - f_2 = {f1} - {f2}$ Hz, so in $t = {t}$ s the number "
        "of beats is $(f_1 - f_2)t =$ {answer}.",
        accept=lambda p: 1 <= p["f1"] - p["f2"] <= 10,
    ),
)

# ── Unit 11: Electrostatics ──────────────────────────────────────────────────────────────────
ELECTROSTATICS: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-capacitor-stored-energy",
        PHY,
        "phy-energy-stored-in-capacitor",
        ONE_STEP,
        "one relation: U = ½CV²",
        givens=(
            Q("C", "C", r"\mu\mathrm{F}", si=1e-6, choices=span(1, 20, 1)),
            Q("V", "V", r"\mathrm{V}", choices=span(10, 200, 10)),
        ),
        unknown=Q("U", "U", r"\mathrm{mJ}", si=1e-3),
        relation="Eq(U, C*V**2/2)",
        compute=lambda p: 0.5 * p["C"] * p["V"] ** 2,
        mistakes=(
            ("giving the work done by the battery, QV = CV²", lambda p: p["C"] * p["V"] ** 2),
            unit_slip("reading μF as mF", lambda p: 500 * p["C"] * p["V"] ** 2),
            unit_slip(
                "giving the energy in joules as millijoules",
                lambda p: 0.5e-3 * p["C"] * p["V"] ** 2,
            ),
            ("not squaring V, U = ½CV", lambda p: 0.5 * p["C"] * p["V"]),
        ),
        stem="A capacitor of capacitance {C} is charged to a potential difference {V}. The "
        "energy stored in it is",
        method="$U = \\tfrac{{1}}{{2}}CV^2 = \\tfrac{{1}}{{2}}({C}\\times 10^{{-6}})({V})^2$ J, "
        "so $U =$ {answer}.",
    ),
)

# ── Unit 12: Current Electricity ─────────────────────────────────────────────────────────────
CURRENT_ELECTRICITY: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-power-in-load-with-internal-resistance",
        PHY,
        "phy-emf-and-internal-resistance",
        TWO_STEPS,
        "two steps: the current I = ε/(R + r), then the power I²R in the load",
        givens=(
            Q("emf", r"\varepsilon", r"\mathrm{V}", choices=(1.5, 2.0, 3.0, 4.5, 6.0, 9.0, 12.0)),
            Q("r", "r", r"\Omega", choices=(0.5, 1.0, 1.5, 2.0, 2.5, 3.0)),
            Q("R", "R", r"\Omega", choices=span(2, 20, 1)),
        ),
        unknown=Q("P", "P", r"\mathrm{W}"),
        relation="Eq(P*(R + r)**2, emf**2*R)",
        compute=lambda p: p["emf"] ** 2 * p["R"] / (p["R"] + p["r"]) ** 2,
        mistakes=(
            ("ignoring the internal resistance, P = ε²/R", lambda p: p["emf"] ** 2 / p["R"]),
            (
                "giving the total power drawn from the cell, ε²/(R + r)",
                lambda p: p["emf"] ** 2 / (p["R"] + p["r"]),
            ),
            (
                "giving the power lost inside the cell, I²r",
                lambda p: p["emf"] ** 2 * p["r"] / (p["R"] + p["r"]) ** 2,
            ),
            (
                "not squaring the current, P = IR",
                lambda p: p["emf"] * p["R"] / (p["R"] + p["r"]),
            ),
        ),
        stem="A cell of emf {emf} and internal resistance {r} is connected across an external "
        "resistor {R}. The power dissipated in the external resistor is",
        method="The current is $I = \\dfrac{{\\varepsilon}}{{R + r}} = \\dfrac{{{emf}}}{{{R} + "
        "{r}}}$ A, and the power in the resistor is $P = I^2R$ $=$ {answer}.",
        accept=lambda p: p["R"] <= 9 * p["r"] and p["R"] != p["r"],
    ),
    NumericalTemplate(
        "phy-wire-resistance-from-resistivity",
        PHY,
        "phy-resistivity",
        ONE_STEP,
        "one relation: R = ρL/A, with the cross-section A = πd²/4",
        givens=(
            Q("L", "L", r"\mathrm{m}", choices=span(0.5, 10, 0.5)),
            Q("d", "d", r"\mathrm{mm}", si=1e-3, choices=(0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0)),
            Q("rho", r"\rho", r"\Omega\,\mathrm{m}", choices=(1.7e-8, 2.8e-8, 4.9e-7, 1.1e-6)),
        ),
        unknown=Q("R", "R", r"\Omega"),
        relation="Eq(R*pi*d**2, 4*rho*L)",
        compute=lambda p: 4 * p["rho"] * p["L"] / (math.pi * p["d"] ** 2),
        mistakes=(
            (
                "taking the diameter as the radius, A = πd²",
                lambda p: p["rho"] * p["L"] / (math.pi * p["d"] ** 2),
            ),
            ("leaving π out of the area, A = d²/4", lambda p: 4 * p["rho"] * p["L"] / p["d"] ** 2),
            (
                "taking the cross-section as a square, A = d²",
                lambda p: p["rho"] * p["L"] / p["d"] ** 2,
            ),
            unit_slip(
                "leaving d in millimetres",
                lambda p: 4 * p["rho"] * p["L"] / (math.pi * (1000 * p["d"]) ** 2),
            ),
        ),
        stem="A wire of length {L} and diameter {d} is made of a material of resistivity {rho}. "
        "The resistance of the wire is",
        method="The cross-section is $A = \\pi d^2/4$ with $d = {d}\\times 10^{{-3}}$ m, and "
        "$R = \\dfrac{{\\rho L}}{{A}} = \\dfrac{{4({rho})({L})}}{{\\pi d^2}}$ $=$ {answer}.",
        accept=lambda p: 0.1 <= 4 * p["rho"] * p["L"] / (math.pi * p["d"] ** 2) <= 200,
    ),
    NumericalTemplate(
        "phy-identical-cells-in-series",
        PHY,
        "phy-combination-of-cells",
        ONE_STEP,
        "one relation: for n cells in series, I = nε/(R + nr)",
        givens=(
            Q("ncell", "n", choices=(2.0, 3.0, 4.0, 5.0, 6.0)),
            Q("emf", r"\varepsilon", r"\mathrm{V}", choices=(1.2, 1.5, 2.0)),
            Q("r", "r", r"\Omega", choices=(0.2, 0.25, 0.5, 1.0, 1.5, 2.0)),
            Q("R", "R", r"\Omega", choices=span(1, 20, 1)),
        ),
        unknown=Q("cur", "I", r"\mathrm{A}"),
        relation="Eq(cur*(R + ncell*r), ncell*emf)",
        compute=lambda p: p["ncell"] * p["emf"] / (p["R"] + p["ncell"] * p["r"]),
        mistakes=(
            ("ignoring the internal resistances, nε/R", lambda p: p["ncell"] * p["emf"] / p["R"]),
            (
                "counting only one internal resistance, nε/(R + r)",
                lambda p: p["ncell"] * p["emf"] / (p["R"] + p["r"]),
            ),
            (
                "using the parallel combination, ε/(R + r/n)",
                lambda p: p["emf"] / (p["R"] + p["r"] / p["ncell"]),
            ),
            ("counting one cell only, ε/(R + r)", lambda p: p["emf"] / (p["R"] + p["r"])),
            (
                "adding the internal resistances but not the emfs, ε/(R + nr)",
                lambda p: p["emf"] / (p["R"] + p["ncell"] * p["r"]),
            ),
        ),
        stem="Identical cells, {ncell} in number, each of emf {emf} and internal resistance {r}, "
        "are connected in series across an external resistor {R}. The current in the circuit is",
        method="In series the emfs add to $n\\varepsilon = {ncell}\\times{emf}$ V and the internal "
        "resistances to $nr = {ncell}\\times{r}\\ \\Omega$, so $I = \\dfrac{{n\\varepsilon}}"
        "{{R + nr}}$ with $R = {R}\\ \\Omega$: $I =$ {answer}.",
        # The cells' resistance matters: otherwise every slip about it gives the key.
        accept=lambda p: p["ncell"] * p["r"] >= 0.2 * p["R"],
    ),
)

# ── Unit 13: Magnetic Effects of Current and Magnetism ───────────────────────────────────────
MAGNETISM: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-field-at-centre-of-coil",
        PHY,
        "phy-biot-savart-law",
        ONE_STEP,
        "one relation: B = μ₀NI/2R at the centre of a coil",
        givens=(
            Q("turns", "N", choices=span(10, 100, 10)),
            Q("R", "R", r"\mathrm{cm}", si=0.01, choices=span(5, 20, 1)),
            Q("cur", "I", r"\mathrm{A}", choices=span(0.5, 5, 0.5)),
            Q("k", r"\mu_0/4\pi", r"\mathrm{T\,m\,A^{-1}}", choices=(1e-7,)),
        ),
        unknown=Q("B", "B", r"\mathrm{mT}", si=1e-3),
        relation="Eq(B*2*R, 4*pi*k*turns*cur)",
        compute=lambda p: 4 * math.pi * p["k"] * p["turns"] * p["cur"] / (2 * p["R"]),
        mistakes=(
            (
                "dropping the 2, B = μ₀NI/R",
                lambda p: 4 * math.pi * p["k"] * p["turns"] * p["cur"] / p["R"],
            ),
            (
                "using the straight-wire formula μ₀NI/(2πR)",
                lambda p: 2 * p["k"] * p["turns"] * p["cur"] / p["R"],
            ),
            (
                "using the field of a semicircular arc, μ₀NI/4R",
                lambda p: 4 * math.pi * p["k"] * p["turns"] * p["cur"] / (4 * p["R"]),
            ),
            unit_slip(
                "leaving R in centimetres",
                lambda p: 4 * math.pi * p["k"] * p["turns"] * p["cur"] / (200 * p["R"]),
            ),
            (
                "forgetting the number of turns",
                lambda p: 4 * math.pi * p["k"] * p["cur"] / (2 * p["R"]),
            ),
        ),
        stem="A circular coil of {turns} turns and radius {R} carries a current {cur}. Taking "
        "{k}, the magnitude of the magnetic field at the centre of the coil is",
        method="At the centre of a coil, $B = \\dfrac{{\\mu_0 N I}}{{2R}} = \\dfrac{{4\\pi\\times "
        "10^{{-7}}({turns})({cur})}}{{2({R}\\times 10^{{-2}})}}$ T $=$ {answer}.",
    ),
    NumericalTemplate(
        "phy-proton-radius-in-magnetic-field",
        PHY,
        "phy-lorentz-force",
        TWO_STEPS,
        "two steps: the speed from eV = ½mv², then the radius r = mv/(eB)",
        givens=(
            Q("V", "V", r"\mathrm{V}", choices=span(500, 5000, 250)),
            Q("B", "B", r"\mathrm{T}", choices=(0.05, 0.1, 0.2, 0.25, 0.5)),
            Q("mp", "m_p", r"\mathrm{kg}", choices=(1.67e-27,)),
            Q("e", "e", r"\mathrm{C}", choices=(1.6e-19,)),
        ),
        unknown=Q("r", "r", r"\mathrm{cm}", si=0.01),
        relation="Eq((e*B*r)**2, 2*mp*e*V)",
        compute=lambda p: math.sqrt(2 * p["mp"] * p["V"] / p["e"]) / p["B"],
        mistakes=(
            (
                "dropping the ½ in eV = ½mv²",
                lambda p: math.sqrt(p["mp"] * p["V"] / p["e"]) / p["B"],
            ),
            (
                "solving eV = ½mv² as v = √(eV/2m)",
                lambda p: 0.5 * math.sqrt(2 * p["mp"] * p["V"] / p["e"]) / p["B"],
            ),
            (
                "reporting the diameter of the circle",
                lambda p: 2 * math.sqrt(2 * p["mp"] * p["V"] / p["e"]) / p["B"],
            ),
            unit_slip(
                "leaving the radius in metres",
                lambda p: 0.01 * math.sqrt(2 * p["mp"] * p["V"] / p["e"]) / p["B"],
            ),
        ),
        stem="A proton, initially at rest, is accelerated through a potential difference {V} "
        "and then enters a uniform magnetic field {B}, moving perpendicular to the field. "
        "Taking {mp} and {e}, the radius of its circular path is",
        method="From $eV = \\tfrac{{1}}{{2}}m_pv^2$, $v = \\sqrt{{2eV/m_p}}$; the magnetic force "
        "gives $evB = m_pv^2/r$, so $r = \\dfrac{{m_pv}}{{eB}} = \\dfrac{{1}}{{B}}"
        "\\sqrt{{\\dfrac{{2m_pV}}{{e}}}}$ with $V = {V}$ V and $B = {B}$ T: $r =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-force-on-current-wire",
        PHY,
        "phy-force-on-current-carrying-conductor",
        ONE_STEP,
        "one relation: F = BIL sin θ",
        givens=(
            Q("l", "L", r"\mathrm{cm}", si=0.01, choices=span(10, 100, 10)),
            Q("cur", "I", r"\mathrm{A}", choices=span(1, 10, 1)),
            Q("B", "B", r"\mathrm{T}", choices=(0.1, 0.2, 0.25, 0.4, 0.5, 0.6, 0.8, 1.0)),
            # Not 90° (sin θ = 1): the angle slips would give no options.
            Q("theta", r"\theta", DEG, choices=(30.0, 37.0, 45.0, 53.0, 60.0)),
        ),
        unknown=Q("F", "F", r"\mathrm{N}"),
        relation="Eq(F, B*cur*l*sin(theta*pi/180))",
        compute=lambda p: p["B"] * p["cur"] * p["l"] * _sin(p["theta"]),
        mistakes=(
            (
                "using cos θ instead of sin θ",
                lambda p: p["B"] * p["cur"] * p["l"] * _cos(p["theta"]),
            ),
            ("ignoring the angle, F = BIL", lambda p: p["B"] * p["cur"] * p["l"]),
            unit_slip(
                "leaving L in centimetres",
                lambda p: 100 * p["B"] * p["cur"] * p["l"] * _sin(p["theta"]),
            ),
            (
                "dividing by sin θ instead of multiplying",
                lambda p: p["B"] * p["cur"] * p["l"] / _sin(p["theta"]),
            ),
        ),
        stem="A straight wire of length {l} carrying a current {cur} is placed in a uniform "
        "magnetic field {B}, the wire making an angle {theta} with the field. The magnitude of "
        "the magnetic force on the wire is",
        method="$F = BIL\\sin\\theta = ({B})({cur})({l}\\times 10^{{-2}})\\sin {theta}^\\circ$ N "
        "$=$ {answer}.",
    ),
    NumericalTemplate(
        "phy-field-of-long-straight-wire",
        PHY,
        "phy-magnetic-field-of-straight-wire",
        ONE_STEP,
        "one relation: B = μ₀I/2πr",
        givens=(
            Q("cur", "I", r"\mathrm{A}", choices=span(1, 20, 1)),
            Q("k", r"\mu_0/4\pi", r"\mathrm{T\,m\,A^{-1}}", choices=(1e-7,)),
            Q("r", "r", r"\mathrm{cm}", si=0.01, choices=span(1, 20, 1)),
        ),
        unknown=Q("B", "B", r"\mu\mathrm{T}", si=1e-6),
        relation="Eq(B*r, 2*k*cur)",
        compute=lambda p: 2 * p["k"] * p["cur"] / p["r"],
        mistakes=(
            (
                "using the field at the centre of a loop, μ₀I/2r",
                lambda p: 2 * math.pi * p["k"] * p["cur"] / p["r"],
            ),
            ("dropping the 2, μ₀I/4πr", lambda p: p["k"] * p["cur"] / p["r"]),
            unit_slip("leaving r in centimetres", lambda p: 2 * p["k"] * p["cur"] / (100 * p["r"])),
            ("dropping the 2 from 2πr, μ₀I/πr", lambda p: 4 * p["k"] * p["cur"] / p["r"]),
        ),
        stem="A long straight wire carries a current {cur}. Taking {k}, the magnitude of the "
        "magnetic field at a perpendicular distance {r} from the wire is",
        method="$B = \\dfrac{{\\mu_0 I}}{{2\\pi r}} = 2\\left(\\dfrac{{\\mu_0}}{{4\\pi}}\\right)"
        "\\dfrac{{I}}{{r}} = \\dfrac{{2(10^{{-7}})({cur})}}{{{r}\\times 10^{{-2}}}}$ T $=$ "
        "{answer}.",
    ),
)

# ── Unit 14: Electromagnetic Induction and Alternating Currents ──────────────────────────────
INDUCTION_AC: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-motional-emf-rod",
        PHY,
        "phy-motional-emf",
        ONE_STEP,
        "one relation: ε = Blv, with l in metres",
        givens=(
            Q("l", "l", r"\mathrm{cm}", si=0.01, choices=span(40, 90, 10)),
            Q("v", "v", MS, choices=span(1, 20, 1)),
            Q("B", "B", r"\mathrm{T}", choices=(0.1, 0.2, 0.25, 0.4, 0.5, 0.8, 1.0)),
        ),
        unknown=Q("emf", r"\varepsilon", r"\mathrm{V}"),
        relation="Eq(emf, B*l*v)",
        compute=lambda p: p["B"] * p["l"] * p["v"],
        mistakes=(
            ("using the rotating-rod formula ½Blv", lambda p: 0.5 * p["B"] * p["l"] * p["v"]),
            ("dividing by the length, ε = Bv/l", lambda p: p["B"] * p["v"] / p["l"]),
            unit_slip("leaving l in centimetres", lambda p: 100 * p["B"] * p["l"] * p["v"]),
        ),
        stem="A straight conductor of length {l} moves with a speed {v} through a uniform "
        "magnetic field {B}; the conductor, its velocity and the field are mutually "
        "perpendicular. The emf induced between its ends is",
        method="$\\varepsilon = Blv = ({B})({l}\\times 10^{{-2}})({v})$ V, so $\\varepsilon =$ "
        "{answer}.",
    ),
    NumericalTemplate(
        "phy-lc-resonant-frequency",
        PHY,
        "phy-lcr-series-circuit",
        ONE_STEP,
        "one relation: the resonant frequency f₀ = 1/(2π√(LC))",
        givens=(
            Q("L", "L", r"\mathrm{mH}", si=1e-3, choices=span(10, 100, 10)),
            Q("C", "C", r"\mu\mathrm{F}", si=1e-6, choices=span(1, 20, 1)),
        ),
        unknown=Q("f", "f_0", r"\mathrm{Hz}"),
        relation="Eq(4*pi**2*f**2*L*C, 1)",
        compute=lambda p: 1 / (2 * math.pi * math.sqrt(p["L"] * p["C"])),
        mistakes=(
            (
                "reporting the angular frequency 1/√(LC)",
                lambda p: 1 / math.sqrt(p["L"] * p["C"]),
            ),
            ("dividing by π instead of 2π", lambda p: 1 / (math.pi * math.sqrt(p["L"] * p["C"]))),
            unit_slip(
                "reading μF as mF",
                lambda p: 1 / (2 * math.pi * math.sqrt(1000 * p["L"] * p["C"])),
            ),
            (
                "forgetting the square root, 1/(2πLC)",
                lambda p: 1 / (2 * math.pi * p["L"] * p["C"]),
            ),
        ),
        stem="A series LCR circuit contains an inductor of inductance {L} and a capacitor of "
        "capacitance {C}. The resonant frequency of the circuit is",
        method="At resonance $X_L = X_C$, i.e. $2\\pi f_0 L = \\dfrac{{1}}{{2\\pi f_0 C}}$, so "
        "$f_0 = \\dfrac{{1}}{{2\\pi\\sqrt{{LC}}}}$ with $L = {L}\\times 10^{{-3}}$ H and "
        "$C = {C}\\times 10^{{-6}}$ F: $f_0 =$ {answer}.",
    ),
)

# ── Unit 15: Electromagnetic Waves ───────────────────────────────────────────────────────────
EM_WAVES: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-em-wave-wavelength-fm",
        PHY,
        "phy-electromagnetic-spectrum",
        ONE_STEP,
        "one relation: λ = c/f",
        givens=(
            Q("freq", "f", r"\mathrm{MHz}", si=1e6, choices=span(88, 108, 0.5)),
            Q("c", "c", MS, choices=(3e8,)),
        ),
        unknown=Q("lam", r"\lambda", r"\mathrm{m}"),
        relation="Eq(c, freq*lam)",
        compute=lambda p: p["c"] / p["freq"],
        mistakes=(
            ("giving the half-wave antenna length c/2f", lambda p: p["c"] / (2 * p["freq"])),
            ("giving the quarter-wave antenna length c/4f", lambda p: p["c"] / (4 * p["freq"])),
            unit_slip("reading MHz as kHz", lambda p: 1000 * p["c"] / p["freq"]),
            unit_slip("reading MHz as GHz", lambda p: p["c"] / p["freq"] / 1000),
        ),
        stem="An FM radio station broadcasts at a frequency {freq}. Taking {c} as the speed of "
        "electromagnetic waves, the wavelength of the radio waves is",
        method="$\\lambda = c/f = \\dfrac{{3\\times 10^8}}{{{freq}\\times 10^6}}$ m, so "
        "$\\lambda =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-em-wave-intensity-from-b0",
        PHY,
        "phy-em-wave-characteristics",
        TWO_STEPS,
        "two steps: the electric amplitude E₀ = cB₀, then the intensity ½cε₀E₀²",
        givens=(
            Q("B0", "B_0", r"\mathrm{nT}", si=1e-9, choices=span(10, 300, 5)),
            Q("c", "c", MS, choices=(3e8,)),
            Q("eps0", r"\varepsilon_0", r"\mathrm{C^2\,N^{-1}\,m^{-2}}", choices=(8.85e-12,)),
        ),
        unknown=Q("Iav", "I", r"\mathrm{W\,m^{-2}}"),
        relation="Eq(Iav, c*eps0*(c*B0)**2/2)",
        compute=lambda p: p["c"] * p["eps0"] * (p["c"] * p["B0"]) ** 2 / 2,
        mistakes=(
            (
                "dropping the ½ (taking E₀ as the rms value)",
                lambda p: p["c"] * p["eps0"] * (p["c"] * p["B0"]) ** 2,
            ),
            (
                "taking E_rms = √2 E₀, multiplying instead of dividing",
                lambda p: 2 * p["c"] * p["eps0"] * (p["c"] * p["B0"]) ** 2,
            ),
            unit_slip(
                "reading nT as μT",
                lambda p: 1e6 * p["c"] * p["eps0"] * (p["c"] * p["B0"]) ** 2 / 2,
            ),
        ),
        stem="In a plane electromagnetic wave travelling through vacuum, the amplitude of the "
        "oscillating magnetic field is {B0}. Taking {c} and {eps0}, the average intensity of "
        "the wave is",
        method="The field amplitudes are related by $E_0 = cB_0 = (3\\times 10^8)({B0}\\times "
        "10^{{-9}})$ V m⁻¹, and the average intensity is $I = \\tfrac{{1}}{{2}}c\\varepsilon_0 "
        "E_0^2$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "phy-displacement-current-capacitor",
        PHY,
        "phy-displacement-current",
        TWO_STEPS,
        "two steps: the capacitance C = ε₀A/d, then the displacement current I_d = C dV/dt",
        givens=(
            Q("area", "A", r"\mathrm{cm^2}", si=1e-4, choices=span(50, 500, 25)),
            Q("gap", "d", r"\mathrm{mm}", si=1e-3, choices=(0.5, 1.0, 1.5, 2.0, 2.5, 3.0)),
            Q("rate", r"dV/dt", r"\mathrm{V\,s^{-1}}", choices=(1e5, 2e5, 5e5, 1e6, 2e6, 5e6)),
            Q("eps0", r"\varepsilon_0", r"\mathrm{C^2\,N^{-1}\,m^{-2}}", choices=(8.85e-12,)),
        ),
        unknown=Q("Id", "I_d", r"\mu\mathrm{A}", si=1e-6),
        relation="Eq(Id*gap, eps0*area*rate)",
        compute=lambda p: p["eps0"] * p["area"] * p["rate"] / p["gap"],
        mistakes=(
            unit_slip(
                "converting cm² to m² with 10⁻² (not squaring the factor)",
                lambda p: 100 * p["eps0"] * p["area"] * p["rate"] / p["gap"],
            ),
            unit_slip(
                "reading cm² as m²", lambda p: 1e4 * p["eps0"] * p["area"] * p["rate"] / p["gap"]
            ),
            unit_slip(
                "leaving the separation in millimetres",
                lambda p: p["eps0"] * p["area"] * p["rate"] / (1000 * p["gap"]),
            ),
        ),
        stem="A parallel-plate capacitor has plates of area {area} separated by a vacuum gap "
        "{gap}. The potential difference across it is changing at the rate {rate}. Taking "
        "{eps0}, the displacement current between the plates is",
        method="The capacitance is $C = \\varepsilon_0 A/d$ with $A = {area}\\times 10^{{-4}}$ "
        "m² and $d = {gap}\\times 10^{{-3}}$ m, and the displacement current equals the "
        "conduction current charging it: $I_d = C\\,\\dfrac{{dV}}{{dt}} = C({rate})$ $=$ "
        "{answer}.",
    ),
)

# ── Unit 16: Optics ──────────────────────────────────────────────────────────────────────────
OPTICS: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-concave-mirror-image-height",
        PHY,
        "phy-mirror-formula",
        TWO_STEPS,
        "two steps: the image distance v from the mirror formula, then the magnification v/u",
        givens=(
            Q("h", "h_o", r"\mathrm{cm}", si=0.01, choices=span(1, 10, 1)),
            Q("d", "u", r"\mathrm{cm}", si=0.01, choices=span(15, 90, 5)),
            Q("f", "f", r"\mathrm{cm}", si=0.01, choices=span(10, 30, 5)),
        ),
        unknown=Q("hi", "h_i", r"\mathrm{cm}", si=0.01),
        relation="Eq(hi, h*(1/(1/f - 1/d))/d)",
        compute=lambda p: p["h"] * p["f"] / (p["d"] - p["f"]),
        mistakes=(
            (
                "a sign error in the mirror formula, v = uf/(u + f)",
                lambda p: p["h"] * p["f"] / (p["d"] + p["f"]),
            ),
            ("taking the magnification as f/u", lambda p: p["h"] * p["f"] / p["d"]),
            ("inverting the magnification, m = u/v", lambda p: p["h"] * (p["d"] - p["f"]) / p["f"]),
            ("taking the magnification as v/f", lambda p: p["h"] * p["d"] / (p["d"] - p["f"])),
        ),
        stem="An object of height {h} stands upright on the principal axis at a distance {d} in "
        "front of a concave mirror of focal length {f}. The height of its image is",
        method="With distances measured against the incident light negative, $\\dfrac{{1}}{{v}} + "
        "\\dfrac{{1}}{{-{d}}} = \\dfrac{{1}}{{-{f}}}$ gives $|v| = \\dfrac{{uf}}{{u - f}} = "
        "\\dfrac{{({d})({f})}}{{{d} - {f}}}$ cm (a real, inverted image). Its size is "
        "$h_i = h_o\\dfrac{{|v|}}{{u}} = h_o\\dfrac{{f}}{{u - f}}$ $=$ {answer}.",
        accept=lambda p: 1.35 * p["f"] <= p["d"] <= 4 * p["f"],
    ),
    NumericalTemplate(
        "phy-refractive-index-from-critical-angle",
        PHY,
        "phy-total-internal-reflection",
        ONE_STEP,
        "one relation: n = 1/sin C",
        givens=(Q("crit", "C", DEG, choices=span(30, 60, 1)),),
        unknown=Q("n", "n"),
        relation="Eq(n*sin(crit*pi/180), 1)",
        compute=lambda p: 1 / _sin(p["crit"]),
        mistakes=(
            ("using cos C, n = 1/cos C", lambda p: 1 / _cos(p["crit"])),
            ("taking n = sin C", lambda p: _sin(p["crit"])),
            ("using Brewster's law, n = tan C", lambda p: math.tan(math.radians(p["crit"]))),
            ("using tan C, n = 1/tan C", lambda p: 1 / math.tan(math.radians(p["crit"]))),
        ),
        stem="The critical angle for light travelling from a transparent medium into air is "
        "{crit}. The refractive index of the medium is",
        method="At the critical angle the refracted ray grazes the surface: $n\\sin C = 1$, so "
        "$n = \\dfrac{{1}}{{\\sin {crit}^\\circ}}$ $=$ {answer}.",
    ),
)

# ── Unit 17: Dual Nature of Matter and Radiation ─────────────────────────────────────────────
DUAL_NATURE: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-threshold-frequency",
        PHY,
        "phy-stopping-potential",
        ONE_STEP,
        "one relation: hν₀ = φ, with φ in joules",
        givens=(
            Q("phi", r"\phi", r"\mathrm{eV}", choices=span(1.8, 5.0, 0.05)),
            Q("h", "h", r"\mathrm{J\,s}", choices=(6.63e-34,)),
            Q("e", "e", r"\mathrm{C}", choices=(1.6e-19,)),
        ),
        unknown=Q("nu", r"\nu_0", r"\mathrm{Hz}"),
        relation="Eq(h*nu, phi*e)",
        compute=lambda p: p["phi"] * p["e"] / p["h"],
        mistakes=(
            ("using h/2π in place of h", lambda p: 2 * math.pi * p["phi"] * p["e"] / p["h"]),
            (
                "dropping the 1.6 of the electron charge, 1 eV = 10⁻¹⁹ J",
                lambda p: p["phi"] * 1e-19 / p["h"],
            ),
            unit_slip("leaving φ in electronvolts", lambda p: p["phi"] / p["h"]),
        ),
        stem="The work function of a metal surface is {phi}. Taking {h} and {e}, the threshold "
        "frequency for photoelectric emission from this surface is",
        method="At threshold the photon energy equals the work function: $h\\nu_0 = \\phi$, with "
        "$\\phi = {phi}\\times 1.6\\times 10^{{-19}}$ J, so $\\nu_0 = \\phi/h$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "phy-photon-energy-ev",
        PHY,
        "phy-photon",
        ONE_STEP,
        "one relation: E = hc/λ, with hc = 1240 eV nm",
        givens=(
            Q("lam", r"\lambda", r"\mathrm{nm}", choices=span(200, 800, 5)),
            Q("hc", "hc", r"\mathrm{eV\,nm}", choices=(1240.0,)),
        ),
        unknown=Q("En", "E", r"\mathrm{eV}"),
        relation="Eq(En*lam, hc)",
        compute=lambda p: p["hc"] / p["lam"],
        mistakes=(
            ("halving, as if E = hc/2λ", lambda p: p["hc"] / (2 * p["lam"])),
            unit_slip("using hc = 12400 eV Å with λ left in nm", lambda p: 10 * p["hc"] / p["lam"]),
            unit_slip(
                "converting λ to ångström but keeping hc in eV nm",
                lambda p: p["hc"] / (10 * p["lam"]),
            ),
        ),
        stem="Light of wavelength {lam} is incident on a surface. Taking {hc}, the energy of "
        "each photon of this light is",
        method="$E = \\dfrac{{hc}}{{\\lambda}} = \\dfrac{{1240\\ \\mathrm{{eV\\,nm}}}}{{{lam}\\ "
        "\\mathrm{{nm}}}}$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "phy-de-broglie-electron-speed",
        PHY,
        "phy-de-broglie-wavelength",
        ONE_STEP,
        "one relation: λ = h/mv",
        givens=(
            Q("me", "m_e", r"\mathrm{kg}", choices=(9.1e-31,)),
            Q("v", "v", MS, choices=tuple(x * 1e6 for x in span(0.5, 9.5, 0.1))),
            Q("h", "h", r"\mathrm{J\,s}", choices=(6.63e-34,)),
        ),
        unknown=Q("lam", r"\lambda", r"\mathrm{nm}", si=1e-9),
        relation="Eq(lam*me*v, h)",
        compute=lambda p: p["h"] / (p["me"] * p["v"]),
        mistakes=(
            ("using ħ = h/2π in place of h", lambda p: p["h"] / (2 * math.pi * p["me"] * p["v"])),
            ("taking the momentum as 2mv", lambda p: p["h"] / (2 * p["me"] * p["v"])),
            (
                "taking the momentum as ½mv, as in the kinetic energy",
                lambda p: 2 * p["h"] / (p["me"] * p["v"]),
            ),
            unit_slip("a nanometre–ångström slip", lambda p: 10 * p["h"] / (p["me"] * p["v"])),
        ),
        stem="An electron of mass {me} moves with a speed {v}. Taking {h}, its de Broglie "
        "wavelength is",
        method="$\\lambda = \\dfrac{{h}}{{p}} = \\dfrac{{h}}{{m_ev}} = \\dfrac{{{h}}}{{({me})"
        "({v})}}$ m $=$ {answer}.",
    ),
)

# ── Unit 18: Atoms and Nuclei ────────────────────────────────────────────────────────────────
ATOMS_NUCLEI: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-hydrogen-line-wavelength",
        PHY,
        "phy-hydrogen-spectrum",
        ONE_STEP,
        "one relation: the Rydberg formula 1/λ = R(1/n₁² − 1/n₂²)",
        givens=(
            Q("n2", "n_2", choices=(2.0, 3.0, 4.0, 5.0, 6.0, 7.0)),
            Q("n1", "n_1", choices=(1.0, 2.0, 3.0, 4.0)),
            Q("Rh", "R", r"\mathrm{m^{-1}}", choices=(1.097e7,)),
        ),
        unknown=Q("lam", r"\lambda", r"\mathrm{nm}", si=1e-9),
        relation="Eq(1/lam, Rh*(1/n1**2 - 1/n2**2))",
        compute=lambda p: 1 / (p["Rh"] * (1 / p["n1"] ** 2 - 1 / p["n2"] ** 2)),
        mistakes=(
            ("using 1/n instead of 1/n²", lambda p: 1 / (p["Rh"] * (1 / p["n1"] - 1 / p["n2"]))),
            (
                "adding the two terms",
                lambda p: 1 / (p["Rh"] * (1 / p["n1"] ** 2 + 1 / p["n2"] ** 2)),
            ),
            ("giving the series limit (ignoring n₂)", lambda p: p["n1"] ** 2 / p["Rh"]),
            (
                "squaring the difference, R(1/n₁ − 1/n₂)², not taking the difference of squares",
                lambda p: 1 / (p["Rh"] * (1 / p["n1"] - 1 / p["n2"]) ** 2),
            ),
        ),
        stem="In a hydrogen atom, the electron jumps from the orbit {n2} to the orbit {n1}. "
        "Taking the Rydberg constant {Rh}, the wavelength of the photon emitted is",
        method="$\\dfrac{{1}}{{\\lambda}} = R\\left(\\dfrac{{1}}{{n_1^2}} - \\dfrac{{1}}{{n_2^2}}"
        "\\right) = {Rh}\\left(\\dfrac{{1}}{{{n1}^2}} - \\dfrac{{1}}{{{n2}^2}}\\right)$ m⁻¹; "
        "inverting and converting to nanometres gives $\\lambda =$ {answer}.",
        accept=lambda p: p["n2"] > p["n1"],
    ),
    NumericalTemplate(
        "phy-nuclear-radius",
        PHY,
        "phy-nuclear-composition-and-size",
        ONE_STEP,
        "one relation: R = R₀A^(1/3)",
        givens=(
            Q("R0", "R_0", r"\mathrm{fm}", si=1e-15, choices=(1.1, 1.2, 1.3, 1.4)),
            Q("mass_no", "A", choices=MASS_NUMBERS),
        ),
        unknown=Q("Rn", "R", r"\mathrm{fm}", si=1e-15),
        relation="Eq(Rn, R0*mass_no**(1/3))",
        compute=lambda p: p["R0"] * p["mass_no"] ** (1 / 3),
        mistakes=(
            ("using A^(1/2) in place of A^(1/3)", lambda p: p["R0"] * p["mass_no"] ** 0.5),
            ("using A^(2/3) in place of A^(1/3)", lambda p: p["R0"] * p["mass_no"] ** (2 / 3)),
            (
                "using the number of protons, about A/2, in place of A",
                lambda p: p["R0"] * (p["mass_no"] / 2) ** (1 / 3),
            ),
            (
                "taking the cube root of R₀A, (R₀A)^(1/3)",
                lambda p: (p["R0"] * 1e15 * p["mass_no"]) ** (1 / 3) * 1e-15,
            ),
            ("forgetting the cube root, R = R₀A", lambda p: p["R0"] * p["mass_no"]),
        ),
        stem="Taking {R0}, the radius of a nucleus of mass number {mass_no} is",
        method="Nuclear volume is proportional to the number of nucleons, so $R = R_0A^{{1/3}} = "
        "{R0}\\times({mass_no})^{{1/3}}$ fm $=$ {answer}.",
    ),
    NumericalTemplate(
        "phy-binding-energy-from-mass-defect",
        PHY,
        "phy-binding-energy",
        ONE_STEP,
        "one relation: E_b = Δm c², with c² = 931.5 MeV u⁻¹",
        givens=(
            Q("dm", r"\Delta m", r"\mathrm{u}", choices=span(0.02, 2.0, 0.02)),
            Q("c2", "c^2", r"\mathrm{MeV\,u^{-1}}", choices=(931.5,)),
        ),
        unknown=Q("Eb", "E_b", r"\mathrm{MeV}"),
        relation="Eq(Eb, dm*c2)",
        compute=lambda p: p["dm"] * p["c2"],
        mistakes=(
            ("halving, as if E = ½Δm c²", lambda p: p["dm"] * p["c2"] / 2),
            unit_slip("taking c² as 931.5 keV u⁻¹", lambda p: p["dm"] * p["c2"] / 1000),
            unit_slip(
                "dividing by 931.5 MeV u⁻¹ instead of multiplying", lambda p: p["dm"] / p["c2"]
            ),
        ),
        stem="The mass defect of a nucleus is {dm}. Taking {c2}, the binding energy of the "
        "nucleus is",
        method="The mass defect appears as binding energy, $E_b = \\Delta m\\,c^2$, and each "
        "atomic mass unit is worth 931.5 MeV: $E_b = ({dm})(931.5)$ MeV $=$ {answer}.",
    ),
)

# ── Unit 19: Electronic Devices ──────────────────────────────────────────────────────────────
ELECTRONIC_DEVICES: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-diode-series-current",
        PHY,
        "phy-diode-characteristics",
        ONE_STEP,
        "one relation: Ohm's law for the resistor, I = (V − V₀)/R",
        givens=(
            Q("V0", "V_0", r"\mathrm{V}", choices=(0.3, 0.7)),
            Q("R", "R", r"\Omega", choices=span(100, 1000, 50)),
            Q("V", "V", r"\mathrm{V}", choices=span(2, 12, 0.5)),
        ),
        unknown=Q("cur", "I", r"\mathrm{mA}", si=1e-3),
        relation="Eq(cur*R, V - V0)",
        compute=lambda p: (p["V"] - p["V0"]) / p["R"],
        mistakes=(
            ("ignoring the drop across the diode, V/R", lambda p: p["V"] / p["R"]),
            ("adding the diode drop, (V + V₀)/R", lambda p: (p["V"] + p["V0"]) / p["R"]),
            unit_slip(
                "reading amperes as milliamperes", lambda p: (p["V"] - p["V0"]) / p["R"] / 1000
            ),
            (
                "counting the diode drop twice, (V − 2V₀)/R",
                lambda p: (p["V"] - 2 * p["V0"]) / p["R"],
            ),
        ),
        stem="A p-n junction diode with a constant forward voltage drop {V0} is connected in "
        "forward bias, in series with a resistor {R}, across a battery of emf {V} and "
        "negligible internal resistance. The current in the circuit is",
        method="The resistor takes the rest of the battery voltage: $I = \\dfrac{{V - V_0}}{{R}} "
        "= \\dfrac{{{V} - {V0}}}{{{R}}}$ A $=$ {answer}.",
        accept=lambda p: p["V"] <= 20 * p["V0"],
    ),
    NumericalTemplate(
        "phy-mass-action-hole-density",
        PHY,
        "phy-semiconductors",
        ONE_STEP,
        "one relation: the mass-action law n_e n_h = n_i²",
        givens=(
            Q("ni", "n_i", r"\mathrm{m^{-3}}", choices=(1e16, 1.5e16, 2e16, 1e19, 2.4e19)),
            Q("ne", "n_e", r"\mathrm{m^{-3}}", choices=DOPED_DENSITIES),
        ),
        unknown=Q("nh", "n_h", r"\mathrm{m^{-3}}"),
        relation="Eq(nh*ne, ni**2)",
        compute=lambda p: p["ni"] ** 2 / p["ne"],
        mistakes=(
            (
                "squaring only the power of ten of n_i, not its leading digits",
                lambda p: _leading(p["ni"])[0] * 10.0 ** (2 * _leading(p["ni"])[1]) / p["ne"],
            ),
            (
                "a slip of one in the power of ten, 10 times too large",
                lambda p: 10 * round_sig(p["ni"] ** 2 / p["ne"], ANSWER_SIG_FIGS),
            ),
            (
                "a slip of one in the power of ten, 10 times too small",
                lambda p: round_sig(p["ni"] ** 2 / p["ne"], ANSWER_SIG_FIGS) / 10,
            ),
            ("taking n_h = n_i²/2n_e", lambda p: p["ni"] ** 2 / (2 * p["ne"])),
        ),
        stem="A pure semiconductor has an intrinsic carrier concentration {ni}. When it is doped "
        "with a pentavalent impurity, its electron concentration becomes {ne}. The hole "
        "concentration in the doped semiconductor is",
        method="In thermal equilibrium $n_en_h = n_i^2$, so $n_h = \\dfrac{{n_i^2}}{{n_e}} = "
        "\\dfrac{{({ni})^2}}{{{ne}}}$ m⁻³ $=$ {answer}.",
        accept=lambda p: p["ne"] >= 1000 * p["ni"],
    ),
    NumericalTemplate(
        "phy-zener-regulator-current",
        PHY,
        "phy-zener-diode",
        TWO_STEPS,
        "two steps: Ohm's law for the currents in R_s and in the load, then Kirchhoff's current "
        "law at the junction, I_Z = I_s − I_L",
        givens=(
            Q("Vz", "V_Z", r"\mathrm{V}", choices=(5.0, 5.6, 6.0, 6.2, 8.0, 9.0)),
            Q("Vin", r"V_{in}", r"\mathrm{V}", choices=span(10, 30, 1)),
            Q("Rs", "R_s", r"\Omega", choices=span(100, 1000, 50)),
            Q("RL", "R_L", r"\mathrm{k}\Omega", si=1000, choices=span(0.5, 5, 0.25)),
        ),
        unknown=Q("Iz", "I_Z", r"\mathrm{mA}", si=1e-3),
        relation="Eq(Iz, (Vin - Vz)/Rs - Vz/RL)",
        compute=lambda p: (p["Vin"] - p["Vz"]) / p["Rs"] - p["Vz"] / p["RL"],
        mistakes=(
            ("forgetting the load current", lambda p: (p["Vin"] - p["Vz"]) / p["Rs"]),
            (
                "taking the whole input voltage across R_s",
                lambda p: p["Vin"] / p["Rs"] - p["Vz"] / p["RL"],
            ),
            (
                "adding the load current instead of subtracting it",
                lambda p: (p["Vin"] - p["Vz"]) / p["Rs"] + p["Vz"] / p["RL"],
            ),
            ("giving the load current V_Z/R_L", lambda p: p["Vz"] / p["RL"]),
            (
                "treating R_s and R_L as in series, (V_in − V_Z)/(R_s + R_L)",
                lambda p: (p["Vin"] - p["Vz"]) / (p["Rs"] + p["RL"]),
            ),
        ),
        stem="A Zener diode of breakdown voltage {Vz} is used as a voltage regulator. An "
        "unregulated input {Vin} is applied through a series resistor {Rs}, and a load resistor "
        "{RL} is connected across the Zener diode. The current through the Zener diode is",
        method="The load holds $V_Z$, so the series resistor carries $I_s = \\dfrac{{V_{{in}} - "
        "V_Z}}{{R_s}} = \\dfrac{{{Vin} - {Vz}}}{{{Rs}}}$ A and the load $I_L = V_Z/R_L = "
        "{Vz}/({RL}\\times 10^3)$ A; the Zener diode takes the difference, $I_Z = I_s - I_L$ "
        "$=$ {answer}.",
        accept=lambda p: (
            p["Vin"] - p["Vz"] >= 3
            and 0.2 <= (p["Vz"] / p["RL"]) / ((p["Vin"] - p["Vz"]) / p["Rs"]) <= 0.75
        ),
    ),
    NumericalTemplate(
        "phy-full-wave-rectifier-dc-output",
        PHY,
        "phy-diode-as-rectifier",
        TWO_STEPS,
        "two steps: the peak voltage V_m = √2 V_rms, then the full-wave average 2V_m/π",
        givens=(Q("Vrms", r"V_{rms}", r"\mathrm{V}", choices=span(5, 50, 0.5)),),
        unknown=Q("Vdc", r"V_{dc}", r"\mathrm{V}"),
        relation="Eq(pi*Vdc, 2*sqrt(2)*Vrms)",
        compute=lambda p: 2 * math.sqrt(2) * p["Vrms"] / math.pi,
        mistakes=(
            ("using the half-wave average V_m/π", lambda p: math.sqrt(2) * p["Vrms"] / math.pi),
            ("taking V_rms as the peak voltage", lambda p: 2 * p["Vrms"] / math.pi),
            ("reporting the peak voltage √2 V_rms", lambda p: math.sqrt(2) * p["Vrms"]),
            ("taking the rms input as the dc output", lambda p: p["Vrms"]),
        ),
        stem="The secondary of a transformer supplies an alternating voltage of rms value {Vrms} "
        "to a full-wave rectifier with ideal diodes. The average (dc) value of the rectified "
        "output voltage is",
        method="The peak voltage is $V_m = \\sqrt{{2}}V_{{rms}} = \\sqrt{{2}}({Vrms})$ V, and a "
        "full-wave output averages $V_{{dc}} = \\dfrac{{2V_m}}{{\\pi}}$ $=$ {answer}.",
    ),
)

# ── Unit 20: Experimental Skills ─────────────────────────────────────────────────────────────
EXPERIMENTAL_SKILLS: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-screw-gauge-reading",
        PHY,
        "phy-expt-screw-gauge",
        ONE_STEP,
        "one relation: reading = main-scale reading + coinciding division × least count",
        givens=(
            Q("lc", r"\mathrm{LC}", r"\mathrm{mm}", si=1e-3, choices=(0.01,)),
            Q("msr", r"\mathrm{MSR}", r"\mathrm{mm}", si=1e-3, choices=span(0.5, 5, 0.5)),
            Q("n", "n", choices=span(1, 49, 1)),
        ),
        unknown=Q("dia", "D", r"\mathrm{mm}", si=1e-3),
        relation="Eq(dia, msr + n*lc)",
        compute=lambda p: p["msr"] + p["n"] * p["lc"],
        mistakes=(
            ("taking each circular division as 0.1 mm", lambda p: p["msr"] + 10 * p["n"] * p["lc"]),
            (
                "counting an extra half-millimetre mark on the main scale",
                lambda p: p["msr"] + 0.5e-3 + p["n"] * p["lc"],
            ),
            (
                "missing a half-millimetre mark on the main scale",
                lambda p: p["msr"] - 0.5e-3 + p["n"] * p["lc"] if p["msr"] >= 1e-3 else math.nan,
            ),
            (
                "taking each circular division as 0.001 mm",
                lambda p: p["msr"] + p["n"] * p["lc"] / 10,
            ),
            (
                "misreading the main scale by one millimetre",
                lambda p: p["msr"] + 1e-3 + p["n"] * p["lc"],
            ),
            ("ignoring the main-scale reading", lambda p: p["n"] * p["lc"]),
        ),
        stem="A screw gauge of least count {lc} with no zero error is used to measure the "
        "diameter of a wire. The main-scale reading is {msr}, and circular-scale division {n} "
        "lies on the reference line. The diameter of the wire is",
        method="Diameter $=$ main-scale reading $+$ circular-scale division $\\times$ least count "
        "$= {msr} + {n}\\times{lc}$ mm $=$ {answer}.",
    ),
    NumericalTemplate(
        "phy-metre-bridge-unknown-resistance",
        PHY,
        "phy-expt-metre-bridge",
        ONE_STEP,
        "one relation: the balance condition R/X = l/(L − l)",
        givens=(
            Q("Lw", "L", r"\mathrm{cm}", si=0.01, choices=(100.0,)),
            Q("R", "R", r"\Omega", choices=span(2, 20, 1)),
            Q("l", "l", r"\mathrm{cm}", si=0.01, choices=span(20, 80, 1)),
        ),
        unknown=Q("X", "X", r"\Omega"),
        relation="Eq(X*l, R*(Lw - l))",
        compute=lambda p: p["R"] * (p["Lw"] - p["l"]) / p["l"],
        mistakes=(
            ("inverting the ratio of the lengths", lambda p: p["R"] * p["l"] / (p["Lw"] - p["l"])),
            (
                "using the whole wire length, X = RL/l",
                lambda p: p["R"] * p["Lw"] / p["l"],
            ),
            (
                "taking X = R(L − l)/L",
                lambda p: p["R"] * (p["Lw"] - p["l"]) / p["Lw"],
            ),
            ("taking X = Rl/L", lambda p: p["R"] * p["l"] / p["Lw"]),
        ),
        stem="In a metre bridge with a wire of length {Lw}, a known resistance {R} is placed in "
        "the left gap and an unknown resistance $X$ in the right gap. The null point is found at "
        "a distance {l} from the left end of the wire. The value of $X$ is",
        method="At balance $\\dfrac{{R}}{{X}} = \\dfrac{{l}}{{L - l}}$, so $X = R\\,\\dfrac{{L - "
        "l}}{{l}} = {R}\\times\\dfrac{{{Lw} - {l}}}{{{l}}}$ $=$ {answer}.",
        # The null point not at the centre, nor so far off that the inverted ratio is 10x out.
        accept=lambda p: abs(p["l"] - 0.5) >= 0.03 and 0.25 <= p["l"] <= 0.75,
    ),
)

PHYSICS_MORE: tuple[NumericalTemplate, ...] = (
    MEASUREMENT
    + LAWS_OF_MOTION
    + WORK_ENERGY_POWER
    + ROTATION
    + GRAVITATION
    + SOLIDS_LIQUIDS
    + THERMODYNAMICS
    + KINETIC_THEORY
    + OSCILLATIONS_WAVES
    + ELECTROSTATICS
    + CURRENT_ELECTRICITY
    + MAGNETISM
    + INDUCTION_AC
    + EM_WAVES
    + OPTICS
    + DUAL_NATURE
    + ATOMS_NUCLEI
    + ELECTRONIC_DEVICES
    + EXPERIMENTAL_SKILLS
)
