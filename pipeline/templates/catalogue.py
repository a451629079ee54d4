"""The bundled numerical templates. Every formula here is checked by the solver's own path."""

from __future__ import annotations

import math

from core.records import Subject
from pipeline.generate.numerical import (
    ONE_STEP,
    TWO_STEPS,
    NumericalTemplate,
    Quantity,
    span,
    unit_slip,
)

PHY, CHE = Subject.PHYSICS, Subject.CHEMISTRY
Q = Quantity
MS, MS2 = r"\mathrm{m\,s^{-1}}", r"\mathrm{m\,s^{-2}}"
G_EARTH = Q("g", "g", MS2, choices=(9.8,))
G_TEN = Q("g", "g", MS2, choices=(9.8, 10.0))

PHYSICS: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-eom-final-velocity",
        PHY,
        "phy-equations-of-motion",
        ONE_STEP,
        "substituting u, a and t in v = u + at",
        givens=(
            Q("u", "u", MS, choices=span(2, 20, 1)),
            Q("a", "a", MS2, choices=span(0.5, 5, 0.5)),
            Q("t", "t", r"\mathrm{s}", choices=span(2, 12, 1)),
        ),
        unknown=Q("v", "v", MS),
        relation="Eq(v, u + a*t)",
        compute=lambda p: p["u"] + p["a"] * p["t"],
        mistakes=(
            ("a stray factor ½, v = u + ½at", lambda p: p["u"] + 0.5 * p["a"] * p["t"]),
            ("ignoring the initial velocity, v = at", lambda p: p["a"] * p["t"]),
            ("a sign error, v = u − at", lambda p: p["u"] - p["a"] * p["t"]),
            (
                "carrying the 2 of v² = u² + 2as over, v = u + 2at",
                lambda p: p["u"] + 2 * p["a"] * p["t"],
            ),
            (
                "using the distance equation s = ut + ½at² for the speed",
                lambda p: p["u"] * p["t"] + 0.5 * p["a"] * p["t"] ** 2,
            ),
        ),
        stem="A car moving along a straight road with initial speed {u} accelerates uniformly at "
        "{a} for {t}. What is its speed at the end of this interval?",
        method="With uniform acceleration, $v = u + at = {u} + ({a})({t})$, so $v =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-eom-displacement",
        PHY,
        "phy-equations-of-motion",
        ONE_STEP,
        "substituting u, a and t in s = ut + ½at²",
        givens=(
            Q("u", "u", MS, choices=span(0, 15, 1)),
            Q("a", "a", MS2, choices=span(1, 6, 0.5)),
            Q("t", "t", r"\mathrm{s}", choices=span(2, 10, 1)),
        ),
        unknown=Q("s", "s", r"\mathrm{m}"),
        relation="Eq(s, u*t + a*t**2/2)",
        compute=lambda p: p["u"] * p["t"] + 0.5 * p["a"] * p["t"] ** 2,
        mistakes=(
            ("dropping the ½, s = ut + at²", lambda p: p["u"] * p["t"] + p["a"] * p["t"] ** 2),
            ("ignoring u, s = ½at²", lambda p: 0.5 * p["a"] * p["t"] ** 2),
            ("not squaring t, s = ut + ½at", lambda p: p["u"] * p["t"] + 0.5 * p["a"] * p["t"]),
            (
                "using the speed equation v = u + at for the distance",
                lambda p: p["u"] + p["a"] * p["t"],
            ),
        ),
        stem="A body starts with velocity {u} and moves in a straight line with a constant "
        "acceleration {a} along its velocity. How far does it travel in time {t}?",
        method="$s = ut + \\tfrac{{1}}{{2}}at^2$ with $u = {u}$, $a = {a}$, $t = {t}$ (SI units) "
        "gives $s =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-projectile-range",
        PHY,
        "phy-projectile-motion",
        ONE_STEP,
        "substituting u, θ and g in the range formula R = u² sin 2θ/g",
        givens=(
            Q("u", "u", MS, choices=span(10, 40, 1)),
            Q("theta", r"\theta", r"^\circ", choices=(15.0, 30.0, 45.0, 60.0, 75.0)),
            G_TEN,
        ),
        unknown=Q("R", "R", r"\mathrm{m}"),
        relation="Eq(R, u**2*sin(2*theta*pi/180)/g)",
        compute=lambda p: p["u"] ** 2 * math.sin(math.radians(2 * p["theta"])) / p["g"],
        mistakes=(
            (
                "using sin θ instead of sin 2θ",
                lambda p: p["u"] ** 2 * math.sin(math.radians(p["theta"])) / p["g"],
            ),
            (
                "a stray factor ½, R = u² sin 2θ/(2g)",
                lambda p: p["u"] ** 2 * math.sin(math.radians(2 * p["theta"])) / (2 * p["g"]),
            ),
            (
                "multiplying u by the time of flight without resolving it, R = u(2u sin θ/g)",
                lambda p: 2 * p["u"] ** 2 * math.sin(math.radians(p["theta"])) / p["g"],
            ),
            ("giving the maximum range u²/g, ignoring the angle", lambda p: p["u"] ** 2 / p["g"]),
            (
                "using cos 2θ in place of sin 2θ",
                lambda p: p["u"] ** 2 * math.cos(math.radians(2 * p["theta"])) / p["g"],
            ),
        ),
        stem="A ball is projected from level ground with speed {u} at an angle {theta} above the "
        "horizontal. Taking {g} and neglecting air resistance, its horizontal range is",
        method="The range on level ground is $R = \\dfrac{{u^2 \\sin 2\\theta}}{{g}}$ with "
        "$u = {u}$, $\\theta = {theta}^\\circ$, $g = {g}$, so $R =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-kinetic-energy",
        PHY,
        "phy-kinetic-energy",
        ONE_STEP,
        "substituting m and v in K = ½mv²",
        givens=(
            Q("m", "m", r"\mathrm{kg}", choices=span(0.5, 10, 0.5)),
            Q("v", "v", MS, choices=span(2, 20, 1)),
        ),
        unknown=Q("K", "K", r"\mathrm{J}"),
        relation="Eq(K, m*v**2/2)",
        compute=lambda p: 0.5 * p["m"] * p["v"] ** 2,
        mistakes=(
            ("dropping the ½, K = mv²", lambda p: p["m"] * p["v"] ** 2),
            (
                "using K = p²/2 with p = mv (the mass not divided out)",
                lambda p: 0.5 * (p["m"] * p["v"]) ** 2,
            ),
            ("giving the momentum mv", lambda p: p["m"] * p["v"]),
            ("not squaring v, K = ½mv", lambda p: 0.5 * p["m"] * p["v"]),
        ),
        stem="A body of mass {m} moves with speed {v}. What is its kinetic energy?",
        method="$K = \\tfrac{{1}}{{2}}mv^2 = \\tfrac{{1}}{{2}}({m})({v})^2 =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-resistors-parallel",
        PHY,
        "phy-resistors-in-series-and-parallel",
        ONE_STEP,
        "substituting R₁ and R₂ in 1/R_eq = 1/R₁ + 1/R₂",
        givens=(
            Q("R1", "R_1", r"\Omega", choices=span(2, 30, 1)),
            Q("R2", "R_2", r"\Omega", choices=span(2, 30, 1)),
        ),
        unknown=Q("Req", r"R_{eq}", r"\Omega"),
        relation="Eq(1/Req, 1/R1 + 1/R2)",
        compute=lambda p: p["R1"] * p["R2"] / (p["R1"] + p["R2"]),
        mistakes=(
            ("adding them as if in series", lambda p: p["R1"] + p["R2"]),
            (
                "taking the smaller resistance, as if all current took that path",
                lambda p: min(p["R1"], p["R2"]),
            ),
            ("averaging the two", lambda p: (p["R1"] + p["R2"]) / 2),
            (
                "using R/n for equal resistors with R the average, (R₁ + R₂)/4",
                lambda p: (p["R1"] + p["R2"]) / 4,
            ),
        ),
        stem="Two resistors, {R1} and {R2}, are connected in parallel. Their equivalent "
        "resistance is",
        method="In parallel $\\dfrac{{1}}{{R_{{eq}}}} = \\dfrac{{1}}{{R_1}} + \\dfrac{{1}}{{R_2}}$, so "
        "$R_{{eq}} = \\dfrac{{R_1R_2}}{{R_1+R_2}} = \\dfrac{{({R1})({R2})}}{{{R1}+{R2}}} =$ {answer}.",
        accept=lambda p: p["R1"] != p["R2"],
    ),
    NumericalTemplate(
        "phy-ohms-law-current",
        PHY,
        "phy-ohms-law",
        ONE_STEP,
        "substituting V and R in Ohm's law, I = V/R",
        givens=(
            Q("V", "V", r"\mathrm{V}", choices=(1.5, 3.0, 4.5, 6.0, 9.0, 12.0, 18.0, 24.0)),
            Q("R", "R", r"\Omega", choices=span(2, 60, 2)),
        ),
        unknown=Q("I", "I", r"\mathrm{A}"),
        relation="Eq(V, I*R)",
        compute=lambda p: p["V"] / p["R"],
        mistakes=(
            ("inverting, I = R/V", lambda p: p["R"] / p["V"]),
            ("giving the power V²/R for the current", lambda p: p["V"] ** 2 / p["R"]),
            unit_slip("giving V/R in milliamperes", lambda p: 1000 * p["V"] / p["R"]),
            ("multiplying, I = VR", lambda p: p["V"] * p["R"]),
        ),
        stem="A potential difference {V} is applied across a resistor of resistance {R}. "
        "The current through it is",
        method="By Ohm's law $I = V/R = {V}/{R}$, so $I =$ {answer}.",
        # a current between about 0.3 A and 3 A from a small supply: inverting V/R and the
        # power V²/R stay believable slips (within ten times the current)
        accept=lambda p: (
            p["V"] <= 9 and 1 / 3 <= p["V"] / p["R"] <= 3 and abs(p["V"] / p["R"] - 1) > 0.1
        ),
    ),
    NumericalTemplate(
        "phy-simple-pendulum-period",
        PHY,
        "phy-simple-pendulum",
        ONE_STEP,
        "substituting L (in metres) and g in T = 2π√(L/g)",
        givens=(Q("L", "L", r"\mathrm{cm}", si=0.01, choices=span(20, 250, 5)), G_EARTH),
        unknown=Q("T", "T", r"\mathrm{s}"),
        relation="Eq(T**2, 4*pi**2*L/g)",
        compute=lambda p: 2 * math.pi * math.sqrt(p["L"] / p["g"]),
        mistakes=(
            ("dropping the 2, π√(L/g)", lambda p: math.pi * math.sqrt(p["L"] / p["g"])),
            unit_slip(
                "leaving L in centimetres",
                lambda p: 2 * math.pi * math.sqrt(100 * p["L"] / p["g"]),
            ),
            ("forgetting the square root, 2πL/g", lambda p: 2 * math.pi * p["L"] / p["g"]),
            ("leaving out the 2π, √(L/g)", lambda p: math.sqrt(p["L"] / p["g"])),
            ("inverting the ratio, 2π√(g/L)", lambda p: 2 * math.pi * math.sqrt(p["g"] / p["L"])),
        ),
        stem="A simple pendulum has length {L}. Taking {g}, its time period for small "
        "oscillations is",
        method="$T = 2\\pi\\sqrt{{L/g}}$ with $L = {L}\\ \\mathrm{{cm}}$ converted to metres and "
        "$g = {g}$ gives $T =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-radioactive-remaining",
        PHY,
        "phy-radioactive-decay",
        TWO_STEPS,
        "counting the half-lives in t from T½, then halving N₀ once for each, N = N₀/2ⁿ",
        givens=(
            Q("N0", "N_0", choices=(800.0, 1600.0, 3200.0, 6400.0, 1000.0, 2000.0, 4000.0, 8000.0)),
            Q("Thalf", r"T_{1/2}", r"\mathrm{days}", choices=span(2, 20, 1)),
            Q("t", "t", r"\mathrm{days}", choices=span(2, 80, 1)),
        ),
        unknown=Q("N", "N"),
        relation="Eq(N, N0*2**(-t/Thalf))",
        compute=lambda p: p["N0"] * 0.5 ** (p["t"] / p["Thalf"]),
        mistakes=(
            ("dividing by the number of half-lives", lambda p: p["N0"] / (p["t"] / p["Thalf"])),
            ("one half-life too few", lambda p: p["N0"] * 0.5 ** (p["t"] / p["Thalf"] - 1)),
            (
                "using e^(−t/T½), as if T½ were the mean life",
                lambda p: p["N0"] * math.exp(-p["t"] / p["Thalf"]),
            ),
            (
                "reporting the number decayed",
                lambda p: p["N0"] * (1 - 0.5 ** (p["t"] / p["Thalf"])),
            ),
            ("one half-life too many", lambda p: p["N0"] * 0.5 ** (p["t"] / p["Thalf"] + 1)),
        ),
        stem="A radioactive sample initially contains {N0} undecayed nuclei. Its half-life is "
        "{Thalf}. How many undecayed nuclei remain after {t}?",
        method="$N = N_0 (1/2)^{{t/T_{{1/2}}}}$ with $t/T_{{1/2}} = {t}/{Thalf}$, so $N =$ {answer}.",
        accept=lambda p: p["t"] % p["Thalf"] == 0 and 1 <= p["t"] / p["Thalf"] <= 4,
    ),
    NumericalTemplate(
        "phy-coulomb-force",
        PHY,
        "phy-coulombs-law",
        ONE_STEP,
        "substituting the charges (in coulombs) and r (in metres) in F = kq₁q₂/r²",
        givens=(
            Q("q1", "q_1", r"\mu\mathrm{C}", si=1e-6, choices=span(1, 9, 1)),
            Q("q2", "q_2", r"\mu\mathrm{C}", si=1e-6, choices=span(1, 9, 1)),
            Q("r", "r", r"\mathrm{cm}", si=0.01, choices=span(10, 50, 5)),
            Q("k", "k", r"\mathrm{N\,m^2\,C^{-2}}", choices=(9e9,)),
        ),
        unknown=Q("F", "F", r"\mathrm{N}"),
        relation="Eq(F*r**2, k*q1*q2)",
        compute=lambda p: p["k"] * p["q1"] * p["q2"] / p["r"] ** 2,
        mistakes=(
            ("not squaring r", lambda p: p["k"] * p["q1"] * p["q2"] / p["r"]),
            unit_slip(
                "leaving r in centimetres",
                lambda p: p["k"] * p["q1"] * p["q2"] / (100 * p["r"]) ** 2,
            ),
            (
                "adding the forces on the two charges",
                lambda p: 2 * p["k"] * p["q1"] * p["q2"] / p["r"] ** 2,
            ),
            (
                "measuring r from the midpoint, r/2",
                lambda p: 4 * p["k"] * p["q1"] * p["q2"] / p["r"] ** 2,
            ),
        ),
        stem="Two point charges {q1} and {q2} are placed {r} apart in vacuum. Taking {k}, the "
        "magnitude of the electrostatic force between them is",
        method="$F = k\\dfrac{{q_1q_2}}{{r^2}}$ with the charges in coulombs and $r$ in metres: "
        "$F =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-lens-image-distance",
        PHY,
        "phy-lens-formula",
        ONE_STEP,
        "substituting u (negative by the sign convention) and f in 1/v − 1/u = 1/f",
        givens=(
            Q("d", "u", r"\mathrm{cm}", si=0.01, choices=span(15, 90, 5)),
            Q("f", "f", r"\mathrm{cm}", si=0.01, choices=span(10, 30, 5)),
        ),
        unknown=Q("v", "v", r"\mathrm{cm}", si=0.01),
        relation="Eq(1/v + 1/d, 1/f)",
        compute=lambda p: p["f"] * p["d"] / (p["d"] - p["f"]),
        mistakes=(
            (
                "a sign-convention error, 1/v = 1/f + 1/u",
                lambda p: p["f"] * p["d"] / (p["d"] + p["f"]),
            ),
            ("adding distances, v = u + f", lambda p: p["d"] + p["f"]),
            ("placing the image at 2f, as for an object at 2f", lambda p: 2 * p["f"]),
            ("subtracting distances, v = u − f", lambda p: p["d"] - p["f"]),
        ),
        stem="An object is placed at a distance {d} in front of a thin convex lens of focal "
        "length {f}. At what distance from the lens is the image formed?",
        method="With the object on the incoming side, $\\dfrac{{1}}{{v}} - \\dfrac{{1}}{{-u}} = "
        "\\dfrac{{1}}{{f}}$, so $v = \\dfrac{{uf}}{{u-f}} = \\dfrac{{({d})({f})}}{{{d}-{f}}}$ "
        "$=$ {answer} (a real image on the other side).",
        accept=lambda p: p["d"] > p["f"] * 1.2,
    ),
    NumericalTemplate(
        "phy-capacitors-series-parallel",
        PHY,
        "phy-capacitors-in-series-and-parallel",
        TWO_STEPS,
        "adding C₂ and C₃ in parallel, then combining the sum with C₁ by the series rule",
        givens=(
            Q("C2", "C_2", r"\mu\mathrm{F}", si=1e-6, choices=span(1, 12, 1)),
            Q("C3", "C_3", r"\mu\mathrm{F}", si=1e-6, choices=span(1, 12, 1)),
            Q("C1", "C_1", r"\mu\mathrm{F}", si=1e-6, choices=span(1, 12, 1)),
        ),
        unknown=Q("Ceq", r"C_{eq}", r"\mu\mathrm{F}", si=1e-6),
        relation="Eq(1/Ceq, 1/C1 + 1/(C2 + C3))",
        compute=lambda p: p["C1"] * (p["C2"] + p["C3"]) / (p["C1"] + p["C2"] + p["C3"]),
        mistakes=(
            (
                "treating all three as series",
                lambda p: 1 / (1 / p["C1"] + 1 / p["C2"] + 1 / p["C3"]),
            ),
            (
                "pairing C₁ with C₂ instead",
                lambda p: (p["C1"] + p["C2"]) * p["C3"] / (p["C1"] + p["C2"] + p["C3"]),
            ),
            (
                "swapping the rules (the resistor rules), C₁ + C₂C₃/(C₂ + C₃)",
                lambda p: p["C1"] + p["C2"] * p["C3"] / (p["C2"] + p["C3"]),
            ),
            ("treating all three as parallel", lambda p: p["C1"] + p["C2"] + p["C3"]),
        ),
        stem="Capacitors {C2} and {C3} are connected in parallel, and this combination is "
        "connected in series with a capacitor {C1}. The equivalent capacitance is",
        method="The parallel pair gives $C_2 + C_3 = {C2} + {C3}$; in series with $C_1 = {C1}$: "
        "$C_{{eq}} = \\dfrac{{C_1(C_2+C_3)}}{{C_1+C_2+C_3}} =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-de-broglie-electron",
        PHY,
        "phy-de-broglie-wavelength",
        TWO_STEPS,
        "the kinetic energy eV gives the momentum p = √(2m_e eV), then λ = h/p",
        givens=(
            Q("V", "V", r"\mathrm{V}", choices=span(50, 1000, 50)),
            Q("h", "h", r"\mathrm{J\,s}", choices=(6.63e-34,)),
            Q("me", "m_e", r"\mathrm{kg}", choices=(9.1e-31,)),
            Q("e", "e", r"\mathrm{C}", choices=(1.6e-19,)),
        ),
        unknown=Q("lam", r"\lambda", r"\mathrm{pm}", si=1e-12),
        relation="Eq(lam**2*2*me*e*V, h**2)",
        compute=lambda p: p["h"] / math.sqrt(2 * p["me"] * p["e"] * p["V"]),
        mistakes=(
            (
                "dropping the 2 in p = √(2m_e eV)",
                lambda p: p["h"] / math.sqrt(p["me"] * p["e"] * p["V"]),
            ),
            (
                "using ħ = h/2π instead of h",
                lambda p: p["h"] / (2 * math.pi * math.sqrt(2 * p["me"] * p["e"] * p["V"])),
            ),
            unit_slip(
                "quoting λ = 12.27/√V (in ångström) as picometres",
                lambda p: 12.27e-12 / math.sqrt(p["V"]),
            ),
            (
                "doubling the kinetic energy, p = √(4m_e eV)",
                lambda p: p["h"] / math.sqrt(4 * p["me"] * p["e"] * p["V"]),
            ),
        ),
        stem="An electron, initially at rest, is accelerated through a potential difference "
        "{V}. Taking {h}, {me} and {e}, its de Broglie wavelength is",
        method="The electron gains $eV$ of kinetic energy, so $p = \\sqrt{{2m_e eV}}$ and "
        "$\\lambda = h/p$; with $V = {V}\\ \\mathrm{{V}}$ this gives $\\lambda =$ {answer}.",
    ),
    NumericalTemplate(
        "phy-photoelectric-kmax",
        PHY,
        "phy-photoelectric-effect",
        TWO_STEPS,
        "the photon energy hc/λ from the wavelength, then Einstein's equation K_max = hc/λ − φ",
        givens=(
            Q("lam", r"\lambda", r"\mathrm{nm}", choices=span(200, 400, 10)),
            Q("phi", r"\phi", r"\mathrm{eV}", choices=(1.8, 2.0, 2.1, 2.3, 2.5, 2.8, 3.0)),
            Q("hc", "hc", r"\mathrm{eV\,nm}", choices=(1240.0,)),
        ),
        unknown=Q("K", r"K_{max}", r"\mathrm{eV}"),
        relation="Eq(K + phi, hc/lam)",
        compute=lambda p: p["hc"] / p["lam"] - p["phi"],
        mistakes=(
            ("ignoring the work function", lambda p: p["hc"] / p["lam"]),
            ("using half the photon energy", lambda p: p["hc"] / (2 * p["lam"])),
            ("adding the work function", lambda p: p["hc"] / p["lam"] + p["phi"]),
            unit_slip(
                "using hc = 12400 eV Å with λ in nanometres",
                lambda p: 10 * p["hc"] / p["lam"] - p["phi"],
            ),
        ),
        stem="Light of wavelength {lam} falls on a metal surface of work function {phi}. "
        "Taking {hc}, the maximum kinetic energy of the emitted photoelectrons is",
        method="Photon energy $hc/\\lambda = 1240/{lam}$ eV; Einstein's equation "
        "$K_{{max}} = hc/\\lambda - \\phi$ gives {answer}.",
        accept=lambda p: p["hc"] / p["lam"] - p["phi"] >= 0.7,
    ),
    NumericalTemplate(
        "phy-gravity-at-height",
        PHY,
        "phy-acceleration-due-to-gravity",
        ONE_STEP,
        "substituting R, h and g in g_h = gR²/(R + h)² (h is not small, so no shortcut)",
        givens=(
            Q("R", "R", r"\mathrm{km}", si=1000, choices=(6400.0,)),
            G_EARTH,
            Q("h", "h", r"\mathrm{km}", si=1000, choices=span(400, 4800, 200)),
        ),
        unknown=Q("gh", "g_h", MS2),
        relation="Eq(gh*(R + h)**2, g*R**2)",
        compute=lambda p: p["g"] * p["R"] ** 2 / (p["R"] + p["h"]) ** 2,
        mistakes=(
            ("not squaring the ratio", lambda p: p["g"] * p["R"] / (p["R"] + p["h"])),
            (
                "expanding (R + h)² as R² + h²",
                lambda p: p["g"] * p["R"] ** 2 / (p["R"] ** 2 + p["h"] ** 2),
            ),
            ("the small-height formula g(1 − 2h/R)", lambda p: p["g"] * (1 - 2 * p["h"] / p["R"])),
            ("the formula for a depth, g(1 − d/R)", lambda p: p["g"] * (1 - p["h"] / p["R"])),
            (
                "inverting the ratio, g(R + h)²/R²",
                lambda p: p["g"] * (p["R"] + p["h"]) ** 2 / p["R"] ** 2,
            ),
            (
                "measuring the distance from the surface, gR²/h²",
                lambda p: p["g"] * p["R"] ** 2 / p["h"] ** 2,
            ),
        ),
        stem="Taking the radius of the Earth as {R} and {g} at its surface, the acceleration "
        "due to gravity at a height {h} above the surface is",
        method="$g_h = g\\left(\\dfrac{{R}}{{R+h}}\\right)^2$ with $R = {R}$ km and $h = {h}$ km "
        "gives $g_h =$ {answer}.",
    ),
)

CHEMISTRY: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-moles-from-mass",
        CHE,
        "che-mole-concept",
        ONE_STEP,
        "substituting m and M in n = m/M",
        givens=(
            Q("m", "m", r"\mathrm{g}", choices=span(5, 200, 5)),
            Q(
                "Mm",
                "M",
                r"\mathrm{g\,mol^{-1}}",
                choices=(18.0, 44.0, 40.0, 100.0, 180.0, 58.5, 98.0, 32.0),
            ),
        ),
        unknown=Q("n", "n", r"\mathrm{mol}"),
        relation="Eq(n*Mm, m)",
        compute=lambda p: p["m"] / p["Mm"],
        mistakes=(
            ("inverting, n = M/m", lambda p: p["Mm"] / p["m"]),
            unit_slip(
                "converting the mass to kilograms but not the molar mass",
                lambda p: p["m"] / 1000 / p["Mm"],
            ),
            unit_slip(
                "taking M in kg mol⁻¹ while leaving the mass in grams",
                lambda p: p["m"] / (p["Mm"] / 1000),
            ),
            ("multiplying, n = mM", lambda p: p["m"] * p["Mm"]),
        ),
        stem="A sample of a compound has mass {m}. The molar mass of the compound is {Mm}. "
        "How many moles of the compound does the sample contain?",
        method="$n = m/M = {m}/{Mm}$, so $n =$ {answer}.",
        # between a third of a mole and three moles, so that inverting m/M is a believable slip
        accept=lambda p: 1 / 3 <= p["m"] / p["Mm"] <= 3 and abs(p["m"] / p["Mm"] - 1) > 0.1,
    ),
    NumericalTemplate(
        "che-molarity-naoh",
        CHE,
        "che-molarity-and-molality",
        ONE_STEP,
        "substituting the moles m/M and the volume in litres in c = n/V",
        givens=(
            Q("m", "m", r"\mathrm{g}", choices=span(1, 20, 1)),
            Q("Mm", "M", r"\mathrm{g\,mol^{-1}}", choices=(40.0,)),
            Q("V", "V", r"\mathrm{mL}", si=1e-6, choices=span(100, 1000, 50)),
        ),
        unknown=Q("c", "c", r"\mathrm{mol\,L^{-1}}", si=1000),
        relation="Eq(c*V, m/Mm)",
        compute=lambda p: p["m"] / p["Mm"] / p["V"],
        mistakes=(
            (
                "giving the mass per volume percentage (g per 100 mL)",
                lambda p: p["m"] / p["V"] * 0.1,
            ),
            unit_slip(
                "leaving the volume in millilitres",
                lambda p: p["m"] / p["Mm"] / p["V"] / 1000,
            ),
            unit_slip(
                "converting millilitres to litres by dividing by 100",
                lambda p: p["m"] / p["Mm"] / (p["V"] * 10),
            ),
            (
                "multiplying the moles by the volume in litres",
                lambda p: p["m"] / p["Mm"] * p["V"] * 1e6,
            ),
            ("using grams instead of moles", lambda p: p["m"] / p["V"]),
        ),
        stem="A solution is made by dissolving a mass {m} of NaOH (molar mass {Mm}) in water "
        "and making the volume up to {V}. The molarity of the solution is",
        method="Moles of NaOH $= {m}/{Mm}$; dividing by the volume in litres ({V} mL $= "
        "{V}/1000$ L) gives the molarity {answer}.",
    ),
    NumericalTemplate(
        "che-ph-strong-acid",
        CHE,
        "che-ph-of-strong-acids-and-bases",
        ONE_STEP,
        "substituting [H⁺] in pH = −log₁₀[H⁺]",
        givens=(
            Q(
                "c",
                "[\\mathrm{H^+}]",
                r"\mathrm{mol\,L^{-1}}",
                choices=tuple(a * 10.0**-b for a in (1.0, 2.0, 3.0, 5.0) for b in range(1, 6)),
            ),
        ),
        unknown=Q("pH", r"\mathrm{pH}"),
        relation="Eq(10**(-pH), c)",
        compute=lambda p: -math.log10(p["c"]),
        mistakes=(
            ("using the natural logarithm", lambda p: -math.log(p["c"])),
            (
                "a sign slip on the mantissa, pH = b + log a for a × 10⁻ᵇ",
                lambda p: (
                    -math.floor(math.log10(p["c"]))
                    + math.log10(p["c"] / 10.0 ** math.floor(math.log10(p["c"])))
                ),
            ),
            ("counting two H⁺ per HCl, as for H₂SO₄", lambda p: -math.log10(2 * p["c"])),
            ("taking the power of ten only", lambda p: -math.floor(math.log10(p["c"]))),
            ("reporting the pOH", lambda p: 14 + math.log10(p["c"])),
        ),
        stem="An aqueous solution of HCl, a strong acid, has {c} at 298 K. The pH of the "
        "solution is",
        method="A strong acid is fully dissociated, so $\\mathrm{{pH}} = -\\log_{{10}}[\\mathrm{{H^+}}]"
        " = -\\log_{{10}}({c})$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "che-ideal-gas-volume",
        CHE,
        "che-ideal-gas-equation",
        ONE_STEP,
        "substituting n, T and P in V = nRT/P",
        givens=(
            Q("n", "n", r"\mathrm{mol}", choices=span(0.5, 5, 0.5)),
            Q("T", "T", r"\mathrm{K}", choices=span(250, 500, 10)),
            Q("P", "P", r"\mathrm{atm}", choices=span(1, 5, 1)),
            Q("R", "R", r"\mathrm{L\,atm\,K^{-1}\,mol^{-1}}", choices=(0.0821,)),
        ),
        unknown=Q("V", "V", r"\mathrm{L}"),
        relation="Eq(P*V, n*R*T)",
        compute=lambda p: p["n"] * p["R"] * p["T"] / p["P"],
        mistakes=(
            ("taking 22.4 L per mole, as if at STP", lambda p: 22.4 * p["n"]),
            ("forgetting n", lambda p: p["R"] * p["T"] / p["P"]),
            unit_slip(
                "using R = 8.314 J K⁻¹ mol⁻¹ with litres and atmospheres",
                lambda p: p["n"] * 8.314 * p["T"] / p["P"],
            ),
            ("inverting P and T", lambda p: p["n"] * p["R"] * p["P"] / p["T"]),
        ),
        stem="What volume does {n} of an ideal gas occupy at temperature {T} and pressure "
        "{P}? Take {R}.",
        method="$V = nRT/P = ({n})({R})({T})/{P}$ $=$ {answer}.",
        accept=lambda p: p["n"] != 1.0,
    ),
    NumericalTemplate(
        "che-first-order-half-life",
        CHE,
        "che-first-order-reactions",
        ONE_STEP,
        "substituting k in t½ = 0.693/k",
        givens=(
            Q(
                "k",
                "k",
                r"\mathrm{s^{-1}}",
                choices=tuple(round(x * 1e-3, 6) for x in span(1, 9.5, 0.5)),
            ),
        ),
        unknown=Q("thalf", r"t_{1/2}", r"\mathrm{s}"),
        relation="Eq(thalf*k, log(2))",
        compute=lambda p: math.log(2) / p["k"],
        mistakes=(
            ("giving the average life, 1/k", lambda p: 1 / p["k"]),
            ("using 2.303/k", lambda p: 2.303 / p["k"]),
            ("using log₁₀ 2 = 0.301 in place of ln 2", lambda p: math.log10(2) / p["k"]),
            ("multiplying, t½ = 0.693k", lambda p: math.log(2) * p["k"]),
        ),
        stem="A first-order reaction has rate constant {k}. Its half-life is",
        method="For first order, $t_{{1/2}} = \\dfrac{{\\ln 2}}{{k}} = \\dfrac{{0.693}}{{{k}}}$ "
        "$=$ {answer}.",
    ),
    NumericalTemplate(
        "che-first-order-time",
        CHE,
        "che-first-order-reactions",
        ONE_STEP,
        "substituting k and [A]/[A]₀ in the integrated first-order law, t = (2.303/k) log([A]₀/[A])",
        givens=(
            Q(
                "k",
                "k",
                r"\mathrm{min^{-1}}",
                choices=(0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.0693, 0.231),
            ),
            Q("f", r"[\mathrm{A}]/[\mathrm{A}]_0", choices=(0.5, 0.25, 0.125, 0.1, 0.2, 0.01)),
        ),
        unknown=Q("t", "t", r"\mathrm{min}"),
        relation="Eq(k*t, log(1/f))",
        compute=lambda p: math.log(1 / p["f"]) / p["k"],
        mistakes=(
            ("using log₁₀ without the factor 2.303", lambda p: math.log10(1 / p["f"]) / p["k"]),
            ("a linear decay, t = (1 − f)/k", lambda p: (1 - p["f"]) / p["k"]),
            (
                "dividing by 2.303 instead of multiplying",
                lambda p: math.log10(1 / p["f"]) / (2.303 * p["k"]),
            ),
            ("giving the half-life, 0.693/k", lambda p: math.log(2) / p["k"]),
            ("using the fraction decomposed", lambda p: math.log(1 / (1 - p["f"])) / p["k"]),
        ),
        stem="For a first-order reaction with rate constant {k}, how long does it take for the "
        "reactant concentration to fall so that {f}?",
        method="$t = \\dfrac{{2.303}}{{k}}\\log_{{10}}\\dfrac{{[\\mathrm{{A}}]_0}}{{[\\mathrm{{A}}]}} = "
        "\\dfrac{{2.303}}{{{k}}}\\log_{{10}}\\dfrac{{1}}{{{f}}}$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "che-bohr-energy",
        CHE,
        "che-bohr-model",
        ONE_STEP,
        "substituting Z and n in E_n = −13.6 Z²/n² eV",
        givens=(
            Q("Z", "Z", choices=(1.0, 2.0, 3.0)),
            Q("n", "n", choices=(1.0, 2.0, 3.0, 4.0, 5.0)),
            Q("E1", "E_1", r"\mathrm{eV}", choices=(-13.6,)),
        ),
        unknown=Q("En", "E_n", r"\mathrm{eV}"),
        relation="Eq(En*n**2, E1*Z**2)",
        compute=lambda p: p["E1"] * p["Z"] ** 2 / p["n"] ** 2,
        mistakes=(
            ("using Z instead of Z²", lambda p: p["E1"] * p["Z"] / p["n"] ** 2),
            ("using n instead of n²", lambda p: p["E1"] * p["Z"] ** 2 / p["n"]),
            (
                "giving the potential energy, 2E_n",
                lambda p: 2 * p["E1"] * p["Z"] ** 2 / p["n"] ** 2,
            ),
            ("ignoring Z, as for hydrogen", lambda p: p["E1"] / p["n"] ** 2),
            ("using the speed's scaling Z/n", lambda p: p["E1"] * p["Z"] / p["n"]),
            ("using the radius's scaling n²/Z", lambda p: p["E1"] * p["n"] ** 2 / p["Z"]),
            ("inverting the ratio, n²/Z²", lambda p: p["E1"] * p["n"] ** 2 / p["Z"] ** 2),
        ),
        stem="In the Bohr model, the energy of the electron in a hydrogen-like species with atomic "
        "number {Z} in the orbit {n} is (take {E1} for hydrogen's ground state)",
        method="$E_n = E_1\\dfrac{{Z^2}}{{n^2}} = ({E1})\\dfrac{{{Z}^2}}{{{n}^2}}$ $=$ {answer}.",
        # an ion (He⁺, Li²⁺): for hydrogen itself the Z² scaling the question tests is idle
        accept=lambda p: p["Z"] >= 2,
    ),
    NumericalTemplate(
        "che-boiling-point-elevation",
        CHE,
        "che-colligative-properties",
        TWO_STEPS,
        "the molality from the masses of solute and solvent, then ΔT_b = K_b m",
        givens=(
            Q("w", "w", r"\mathrm{g}", choices=span(9, 90, 9)),
            Q("Mm", "M", r"\mathrm{g\,mol^{-1}}", choices=(180.0, 342.0, 60.0)),
            Q("W", "W", r"\mathrm{g}", si=0.001, choices=span(100, 500, 50)),
            Q("Kb", "K_b", r"\mathrm{K\,kg\,mol^{-1}}", choices=(0.52,)),
        ),
        unknown=Q("dT", r"\Delta T_b", r"\mathrm{K}"),
        relation="Eq(dT, Kb*(w/Mm)/W)",
        compute=lambda p: p["Kb"] * p["w"] / p["Mm"] / p["W"],
        mistakes=(
            (
                "using K_f of water (1.86) in place of K_b",
                lambda p: 1.86 * p["w"] / p["Mm"] / p["W"],
            ),
            (
                "using the moles of solute, not dividing by the solvent mass",
                lambda p: p["Kb"] * p["w"] / p["Mm"],
            ),
            unit_slip(
                "leaving the solvent mass in grams",
                lambda p: p["Kb"] * p["w"] / p["Mm"] / p["W"] / 1000,
            ),
            ("dividing by K_b", lambda p: p["w"] / p["Mm"] / p["W"] / p["Kb"]),
        ),
        stem="A non-volatile, non-electrolyte solute of mass {w} and molar mass {Mm} is "
        "dissolved in a mass {W} of water. Taking {Kb} for water, the elevation in boiling "
        "point is",
        method="Molality $m = \\dfrac{{{w}/{Mm}}}{{{W}/1000}}$ mol kg⁻¹ and $\\Delta T_b = K_b m$ "
        "$=$ {answer}.",
    ),
)

from pipeline.templates.chains_chemistry import CHEMISTRY_CHAINS  # noqa: E402
from pipeline.templates.chains_electricity import ELECTRICITY_CHAINS  # noqa: E402
from pipeline.templates.chains_mechanics import MECHANICS_CHAINS  # noqa: E402
from pipeline.templates.chemistry import CHEMISTRY_MORE  # noqa: E402
from pipeline.templates.physics import PHYSICS_MORE  # noqa: E402

TEMPLATES: tuple[NumericalTemplate, ...] = (
    PHYSICS
    + PHYSICS_MORE
    + MECHANICS_CHAINS
    + ELECTRICITY_CHAINS
    + CHEMISTRY
    + CHEMISTRY_MORE
    + CHEMISTRY_CHAINS
)
if len({t.template_id for t in TEMPLATES}) != len(TEMPLATES):
    raise ValueError("duplicate template ids")
TEMPLATES_BY_ID = {t.template_id: t for t in TEMPLATES}
