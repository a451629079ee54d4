"""Multi-step, multi-concept numericals (electricity): each template chains relations from different
concepts (`Step`s, then the final relation); the solver re-derives every step from the stem's
numbers with sympy. Every distractor is a named mistake at some step.

Units 11–19 of the Physics syllabus: electrostatics, current electricity, magnetism, induction and
AC, EM waves, optics, dual nature, atoms and nuclei, electronic devices.
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
MS = r"\mathrm{m\,s^{-1}}"
DEG = r"^\circ"
CELSIUS = r"^\circ\mathrm{C}"
MICRO_F = r"\mu\mathrm{F}"
EPS0 = Q("eps0", r"\varepsilon_0", r"\mathrm{C^2\,N^{-1}\,m^{-2}}", choices=(8.85e-12,))
MU0_4PI = Q("k", r"\mu_0/4\pi", r"\mathrm{T\,m\,A^{-1}}", choices=(1e-7,))
CHARGE = Q("e", "e", r"\mathrm{C}", choices=(1.6e-19,))
PLANCK = Q("h", "h", r"\mathrm{J\,s}", choices=(6.63e-34,))
LIGHT = Q("c", "c", MS, choices=(3e8,))
E_MASS = Q("me", "m_e", r"\mathrm{kg}", choices=(9.1e-31,))
P_MASS = Q("mp", "m_p", r"\mathrm{kg}", choices=(1.67e-27,))
EV = 1.6e-19  # J per eV, as the stems state e
DAY = 86400.0


def _sin(deg: float) -> float:
    return math.sin(math.radians(deg))


def _cos(deg: float) -> float:
    """cos of an angle in degrees, exactly 0 at 90° (a slip that gives 0 is no option)."""
    c = math.cos(math.radians(deg))
    return 0.0 if abs(c) < 1e-12 else c


# ── Unit 11: Electrostatics ──────────────────────────────────────────────────────────────────


def _series_charge(p: Params) -> float:
    return p["C1"] * p["C2"] * p["V"] / (p["C1"] + p["C2"])


def _shared_potential(p: Params) -> float:
    return p["C1"] * p["V1"] / (p["C1"] + p["C2"])


def _sheet_speed(p: Params, field_factor: float = 0.5, ke_factor: float = 0.5) -> float:
    field = field_factor * p["sigma"] / p["eps0"]
    return math.sqrt(p["e"] * field * p["d"] / (ke_factor * p["mp"]))


ELECTROSTATICS: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-chain-series-capacitors-energy-in-one",
        PHY,
        "phy-capacitors-in-series-and-parallel",
        Demand(steps=3, concepts=3),
        "the equivalent capacitance of the series pair, then the common charge Q = C_eq V that "
        "capacitors in series carry, then the energy Q²/2C₁ stored in one of them",
        givens=(
            Q("C1", "C_1", MICRO_F, si=1e-6, choices=span(1, 12, 1)),
            Q("C2", "C_2", MICRO_F, si=1e-6, choices=span(1, 12, 1)),
            Q("V", "V", r"\mathrm{V}", choices=span(50, 300, 10)),
        ),
        unknown=Q("U1", "U_1", r"\mathrm{mJ}", si=1e-3),
        chain=(
            Step(
                Q("Ceq", r"C_{eq}", MICRO_F, si=1e-6),
                "Eq(1/Ceq, 1/C1 + 1/C2)",
                "series combination of capacitors",
                compute=lambda p: p["C1"] * p["C2"] / (p["C1"] + p["C2"]),
            ),
            Step(
                Q("q", "Q", r"\mu\mathrm{C}", si=1e-6),
                "Eq(q, Ceq*V)",
                "equal charges on capacitors in series, Q = C_eq V",
                compute=_series_charge,
            ),
        ),
        relation="Eq(U1, q**2/(2*C1))",
        concept="energy stored in a capacitor",
        compute=lambda p: _series_charge(p) ** 2 / (2 * p["C1"]),
        mistakes=(
            Mistake(
                "taking the whole battery voltage across C₁, as if the capacitors were in "
                "parallel: ½C₁V²",
                lambda p: p["C1"] * p["V"] ** 2 / 2,
            ),
            Mistake(
                "giving the energy of the whole combination, ½C_eqV²",
                lambda p: p["C1"] * p["C2"] * p["V"] ** 2 / (2 * (p["C1"] + p["C2"])),
            ),
            Mistake(
                "dividing by the other capacitance in the last step, Q²/2C₂",
                lambda p: _series_charge(p) ** 2 / (2 * p["C2"]),
            ),
            Mistake(
                "dropping the ½ in the energy, Q²/C₁",
                lambda p: _series_charge(p) ** 2 / p["C1"],
            ),
        ),
        stem="Two capacitors of capacitances {C1} and {C2} are connected in series across a "
        "battery of emf {V}. Once they are fully charged, the energy stored in the capacitor "
        "$C_1$ is",
        method="In series $\\dfrac{{1}}{{C_{{eq}}}} = \\dfrac{{1}}{{C_1}} + \\dfrac{{1}}{{C_2}}$, "
        "so $C_{{eq}} = \\dfrac{{C_1C_2}}{{C_1 + C_2}} = {Ceq}\\ \\mu\\mathrm{{F}}$. Capacitors in "
        "series carry the same charge, $Q = C_{{eq}}V = {q}\\ \\mu\\mathrm{{C}}$. The energy "
        "stored in $C_1$ is $U_1 = \\dfrac{{Q^2}}{{2C_1}}$ with $C_1 = {C1}\\ \\mu\\mathrm{{F}}$: "
        "$U_1 =$ {answer}.",
        accept=lambda p: 0.25 <= p["C1"] / p["C2"] <= 2,
    ),
    NumericalTemplate(
        "phy-chain-sheet-field-proton-speed",
        PHY,
        "phy-gauss-law-applications",
        Demand(steps=2, concepts=2),
        "the field σ/2ε₀ of a large plane sheet from Gauss's law, then the speed from the work "
        "done on the proton by that uniform field",
        givens=(
            Q("sigma", r"\sigma", r"\mu\mathrm{C\,m^{-2}}", si=1e-6, choices=span(0.5, 5, 0.25)),
            Q("d", "d", r"\mathrm{cm}", si=0.01, choices=span(0.5, 5, 0.5)),
            EPS0,
            P_MASS,
            CHARGE,
        ),
        unknown=Q("v", "v", r"\mathrm{km\,s^{-1}}", si=1e3),
        chain=(
            Step(
                Q("Ef", "E", r"\mathrm{V\,m^{-1}}"),
                "Eq(Ef, sigma/(2*eps0))",
                "Gauss's law for an infinite plane sheet of charge",
                compute=lambda p: p["sigma"] / (2 * p["eps0"]),
            ),
        ),
        relation="Eq(mp*v**2/2, e*Ef*d)",
        concept="work–energy theorem for a charge in a uniform field",
        compute=_sheet_speed,
        mistakes=(
            Mistake(
                "using the field σ/ε₀ just outside a charged conductor",
                lambda p: _sheet_speed(p, field_factor=1.0),
            ),
            Mistake(
                "dropping the ½ in the kinetic energy, mv² = eEd",
                lambda p: _sheet_speed(p, ke_factor=1.0),
            ),
            unit_slip(
                "leaving the distance in centimetres",
                lambda p: _sheet_speed(p) * 10,
            ),
        ),
        stem="A large, thin, non-conducting sheet carries a uniform surface charge density "
        "{sigma}. A proton is released from rest near the sheet and is pushed a distance {d} "
        "away from it through vacuum. Taking {eps0}, {mp} and {e}, the speed of the proton "
        "at that point is",
        method="By Gauss's law the field of a large plane sheet is uniform, $E = "
        "\\dfrac{{\\sigma}}{{2\\varepsilon_0}} = {Ef}\\ \\mathrm{{V\\,m^{{-1}}}}$. The work it "
        "does on the proton becomes kinetic energy: $\\tfrac{{1}}{{2}}m_pv^2 = eEd$ with "
        "$d = {d}\\times 10^{{-2}}$ m, so $v = \\sqrt{{2eEd/m_p}}$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "phy-chain-charge-sharing-energy-loss",
        PHY,
        "phy-energy-stored-in-capacitor",
        Demand(steps=2, concepts=2),
        "the common potential from conservation of charge, then the energy lost as the "
        "difference of the stored energies ½CV² before and after",
        givens=(
            Q("C1", "C_1", MICRO_F, si=1e-6, choices=span(1, 20, 1)),
            Q("V1", "V_1", r"\mathrm{V}", choices=span(50, 300, 10)),
            Q("C2", "C_2", MICRO_F, si=1e-6, choices=span(1, 20, 1)),
        ),
        unknown=Q("H", "H", r"\mathrm{mJ}", si=1e-3),
        chain=(
            Step(
                Q("Vc", "V", r"\mathrm{V}"),
                "Eq((C1 + C2)*Vc, C1*V1)",
                "conservation of charge when capacitors share charge",
                compute=_shared_potential,
            ),
        ),
        relation="Eq(H, C1*V1**2/2 - (C1 + C2)*Vc**2/2)",
        concept="energy stored in a capacitor",
        compute=lambda p: p["C1"] * p["C2"] * p["V1"] ** 2 / (2 * (p["C1"] + p["C2"])),
        mistakes=(
            Mistake(
                "giving the energy finally stored, ½(C₁ + C₂)V², instead of the energy lost",
                lambda p: (p["C1"] + p["C2"]) * _shared_potential(p) ** 2 / 2,
            ),
            Mistake(
                "giving the initial energy ½C₁V₁² as the loss",
                lambda p: p["C1"] * p["V1"] ** 2 / 2,
            ),
            Mistake(
                "taking the common potential as V₁/2 whatever the capacitances",
                lambda p: p["C1"] * p["V1"] ** 2 / 2 - (p["C1"] + p["C2"]) * p["V1"] ** 2 / 8,
            ),
            Mistake(
                "dropping the ½ in U = ½CV²",
                lambda p: p["C1"] * p["C2"] * p["V1"] ** 2 / (p["C1"] + p["C2"]),
            ),
        ),
        stem="A capacitor of capacitance {C1} is charged to a potential difference {V1} and then "
        "disconnected from the battery. It is now connected across an uncharged capacitor of "
        "capacitance {C2}. The energy dissipated as heat (and radiation) when charge is shared "
        "between them is",
        method="No charge is lost when they are joined: $C_1V_1 = (C_1 + C_2)V$, so the common "
        "potential is $V = {Vc}$ V. The energy lost is the stored energy before minus after: "
        "$\\tfrac{{1}}{{2}}C_1V_1^2 - \\tfrac{{1}}{{2}}(C_1 + C_2)V^2 = "
        "\\dfrac{{C_1C_2V_1^2}}{{2(C_1 + C_2)}}$ $=$ {answer}.",
        accept=lambda p: 0.25 <= p["C1"] / p["C2"] <= 4,
    ),
)

# ── Unit 12: Current Electricity ─────────────────────────────────────────────────────────────


def _network_current(p: Params, internal: bool = True, parallel: bool = True) -> float:
    pair = p["R1"] * p["R2"] / (p["R1"] + p["R2"]) if parallel else p["R1"] + p["R2"]
    return p["emf"] / (pair + p["R3"] + (p["r"] if internal else 0.0))


def _terminal_voltage(p: Params) -> float:
    return (p["emf1"] / p["r1"] + p["emf2"] / p["r2"]) / (1 / p["r1"] + 1 / p["r2"] + 1 / p["R"])


def _parallel_emf(p: Params) -> float:
    return (p["emf1"] * p["r2"] + p["emf2"] * p["r1"]) / (p["r1"] + p["r2"])


def _hot_resistance(p: Params, sign: float = 1.0) -> float:
    return p["R0"] * (1 + sign * p["alpha"] * (p["T"] - p["T0"]))


def _heating_time(p: Params, resistance: float | None = None, rise: float | None = None) -> float:
    r = _hot_resistance(p) if resistance is None else resistance
    dt = p["th2"] - p["th1"] if rise is None else rise
    return p["m"] * p["c"] * dt * r / p["V"] ** 2


CURRENT_ELECTRICITY: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-chain-network-joule-heat",
        PHY,
        "phy-electrical-power",
        Demand(steps=3, concepts=3),
        "the equivalent resistance of the series–parallel network, then the current from the "
        "emf and the internal resistance, then the Joule heat I²Rt in one resistor",
        givens=(
            Q("R1", "R_1", r"\Omega", choices=span(2, 20, 1)),
            Q("R2", "R_2", r"\Omega", choices=span(2, 20, 1)),
            Q("R3", "R_3", r"\Omega", choices=span(1, 20, 1)),
            Q("emf", r"\varepsilon", r"\mathrm{V}", choices=(6.0, 9.0, 12.0, 18.0, 24.0)),
            Q("r", "r", r"\Omega", choices=(0.5, 1.0, 1.5, 2.0)),
            Q("t", "t", r"\mathrm{min}", si=60, choices=span(1, 10, 1)),
        ),
        unknown=Q("H", "H", r"\mathrm{J}"),
        chain=(
            Step(
                Q("Req", r"R_{eq}", r"\Omega"),
                "Eq(Req, R1*R2/(R1 + R2) + R3)",
                "series and parallel combination of resistors",
                compute=lambda p: p["R1"] * p["R2"] / (p["R1"] + p["R2"]) + p["R3"],
            ),
            Step(
                Q("cur", "I", r"\mathrm{A}"),
                "Eq(cur*(Req + r), emf)",
                "current from the emf and internal resistance of a cell",
                compute=_network_current,
            ),
        ),
        relation="Eq(H, cur**2*R3*t)",
        concept="Joule heating",
        compute=lambda p: _network_current(p) ** 2 * p["R3"] * p["t"],
        mistakes=(
            Mistake(
                "ignoring the internal resistance of the cell",
                lambda p: _network_current(p, internal=False) ** 2 * p["R3"] * p["t"],
            ),
            Mistake(
                "adding R₁ and R₂ as if they were in series",
                lambda p: _network_current(p, parallel=False) ** 2 * p["R3"] * p["t"],
            ),
            Mistake(
                "giving the heat in the whole external circuit, I²R_eq t",
                lambda p: (
                    _network_current(p) ** 2
                    * (p["R1"] * p["R2"] / (p["R1"] + p["R2"]) + p["R3"])
                    * p["t"]
                ),
            ),
            unit_slip(
                "leaving the time in minutes",
                lambda p: _network_current(p) ** 2 * p["R3"] * p["t"] / 60,
            ),
        ),
        stem="Two resistors {R1} and {R2} are connected in parallel, and the pair is connected "
        "in series with a third resistor {R3}. The network is connected across a cell of emf "
        "{emf} and internal resistance {r}. The heat produced in the resistor $R_3$ in a time "
        "{t} is",
        method="The parallel pair is $\\dfrac{{R_1R_2}}{{R_1 + R_2}}$, in series with $R_3$: "
        "$R_{{eq}} = {Req}\\ \\Omega$. The cell drives $I = \\dfrac{{\\varepsilon}}{{R_{{eq}} + "
        "r}} = {cur}$ A, all of which flows through $R_3$. In $t = {t}\\times 60$ s the heat "
        "produced in $R_3$ is $H = I^2R_3t$ $=$ {answer}.",
        accept=lambda p: 0.3 <= _network_current(p) <= 5,
    ),
    NumericalTemplate(
        "phy-chain-parallel-cells-kirchhoff-power",
        PHY,
        "phy-kirchhoffs-laws",
        Demand(steps=2, concepts=2),
        "the potential difference across the load from Kirchhoff's junction and loop rules, "
        "then the power V²/R dissipated in it",
        givens=(
            Q("emf1", r"\varepsilon_1", r"\mathrm{V}", choices=(3.0, 4.5, 6.0, 9.0, 12.0)),
            Q("emf2", r"\varepsilon_2", r"\mathrm{V}", choices=(2.0, 3.0, 4.5, 6.0, 9.0)),
            Q("r1", "r_1", r"\Omega", choices=(0.5, 1.0, 1.5, 2.0, 3.0)),
            Q("r2", "r_2", r"\Omega", choices=(0.5, 1.0, 1.5, 2.0, 3.0)),
            Q("R", "R", r"\Omega", choices=span(2, 20, 1)),
        ),
        unknown=Q("P", "P", r"\mathrm{W}"),
        chain=(
            Step(
                Q("Vt", "V", r"\mathrm{V}"),
                "Eq((emf1 - Vt)/r1 + (emf2 - Vt)/r2, Vt/R)",
                "Kirchhoff's junction and loop rules",
                compute=_terminal_voltage,
            ),
        ),
        relation="Eq(P*R, Vt**2)",
        concept="power dissipated in a resistor",
        compute=lambda p: _terminal_voltage(p) ** 2 / p["R"],
        mistakes=(
            Mistake(
                "treating the cells as if in series: I = (ε₁ + ε₂)/(R + r₁ + r₂)",
                lambda p: (p["emf1"] + p["emf2"]) ** 2 * p["R"] / (p["R"] + p["r1"] + p["r2"]) ** 2,
            ),
            Mistake(
                "putting the equivalent emf (ε₁r₂ + ε₂r₁)/(r₁ + r₂) across R, forgetting the "
                "internal resistance",
                lambda p: _parallel_emf(p) ** 2 / p["R"],
            ),
            Mistake(
                "adding the internal resistances in series with R after finding the equivalent emf",
                lambda p: _parallel_emf(p) ** 2 * p["R"] / (p["R"] + p["r1"] + p["r2"]) ** 2,
            ),
            Mistake(
                "averaging the two emfs and ignoring the internal resistances",
                lambda p: ((p["emf1"] + p["emf2"]) / 2) ** 2 / p["R"],
            ),
        ),
        stem="Two cells of emfs {emf1} and {emf2}, with internal resistances {r1} and {r2} "
        "respectively, are connected in parallel (positive terminal to positive terminal) "
        "across an external resistor {R}. The power dissipated in the external resistor is",
        method="Let $V$ be the potential difference across $R$. The loop rule gives each cell's "
        "current as $(\\varepsilon - V)/r$, and the junction rule adds them to the current in "
        "$R$: $\\dfrac{{\\varepsilon_1 - V}}{{r_1}} + \\dfrac{{\\varepsilon_2 - V}}{{r_2}} = "
        "\\dfrac{{V}}{{R}}$, so $V = {Vt}$ V. The power in $R$ is $P = \\dfrac{{V^2}}{{R}}$ $=$ "
        "{answer}.",
        accept=lambda p: p["emf2"] < p["emf1"] <= 2 * p["emf2"],
    ),
    NumericalTemplate(
        "phy-chain-heater-hot-resistance-heating-time",
        PHY,
        "phy-resistivity",
        Demand(steps=3, concepts=3),
        "the resistance of the element at its working temperature, then its power V²/R, then "
        "the time to supply the heat mcΔθ the water takes",
        givens=(
            Q("R0", "R_0", r"\Omega", choices=span(30, 60, 2)),
            Q("T0", "T_0", CELSIUS, choices=(20.0,)),
            Q("alpha", r"\alpha", r"\mathrm{K^{-1}}", choices=(1.7e-4,)),
            Q("T", "T", CELSIUS, choices=span(400, 900, 50)),
            Q("V", "V", r"\mathrm{V}", choices=(220.0, 230.0)),
            Q("m", "m", r"\mathrm{kg}", choices=span(0.5, 2, 0.25)),
            Q("c", "c", r"\mathrm{J\,kg^{-1}\,K^{-1}}", choices=(4200.0,)),
            Q("th1", r"\theta_1", CELSIUS, choices=span(15, 35, 5)),
            Q("th2", r"\theta_2", CELSIUS, choices=(100.0,)),
        ),
        unknown=Q("t", "t", r"\mathrm{min}", si=60),
        chain=(
            Step(
                Q("Rh", "R", r"\Omega"),
                "Eq(Rh, R0*(1 + alpha*(T - T0)))",
                "temperature dependence of resistance",
                compute=_hot_resistance,
            ),
            Step(
                Q("P", "P", r"\mathrm{W}"),
                "Eq(P*Rh, V**2)",
                "electrical power, P = V²/R",
                compute=lambda p: p["V"] ** 2 / _hot_resistance(p),
            ),
        ),
        relation="Eq(P*t, m*c*(th2 - th1))",
        concept="heat absorbed by water, Q = mcΔθ",
        compute=_heating_time,
        mistakes=(
            Mistake(
                "using the room-temperature resistance R₀ in P = V²/R",
                lambda p: _heating_time(p, resistance=p["R0"]),
            ),
            Mistake(
                "taking the hot resistance as R₀(1 − αΔT)",
                lambda p: _heating_time(p, resistance=_hot_resistance(p, sign=-1.0)),
            ),
            Mistake(
                "taking the temperature rise of the water as θ₂, as if it started at 0 °C",
                lambda p: _heating_time(p, rise=p["th2"]),
            ),
            unit_slip(
                "giving the time in seconds as if it were in minutes",
                lambda p: _heating_time(p) * 60,
            ),
        ),
        stem="The heating element of an electric kettle has a resistance {R0} at the room "
        "temperature {T0}, and the temperature coefficient of resistance of its material is "
        "{alpha}. In use, the element stays at a steady temperature {T} on a supply of {V}. "
        "If all the heat it produces goes into the water, the time it takes to heat {m} of "
        "water (specific heat capacity {c}) from {th1} to {th2} is",
        method="At its working temperature the element's resistance is $R = R_0[1 + "
        "\\alpha(T - T_0)] = {Rh}\\ \\Omega$, so it draws $P = \\dfrac{{V^2}}{{R}} = {P}$ W. "
        "The water needs $mc(\\theta_2 - \\theta_1)$ of heat, so $t = "
        "\\dfrac{{mc(\\theta_2 - \\theta_1)}}{{P}}$ $=$ {answer}.",
    ),
)

# ── Unit 13: Magnetic Effects of Current and Magnetism ───────────────────────────────────────


def _strike_distance(p: Params, field: str = "B2") -> float:
    v = p["Ef"] / p["B1"]
    return 2 * p["mp"] * v / (p["e"] * p[field])


def _galvanometer_current(p: Params) -> float:
    return p["k"] * math.radians(p["phi"]) / (p["turns"] * p["A"] * p["B"])


def _shunt_from(p: Params, ig: float) -> float:
    return ig * p["G"] / (p["cur"] - ig)


def _shunt(p: Params) -> float:
    return _shunt_from(p, _galvanometer_current(p))


def _dipole_energy_scale(p: Params, field_factor: float = 1.0) -> float:
    """mB: the coil's magnetic moment times the solenoid's field."""
    field = field_factor * 4 * math.pi * p["k"] * p["n"] * p["I1"]
    return p["N2"] * p["I2"] * p["A2"] * field


MAGNETISM: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-chain-mass-spectrometer-strike-distance",
        PHY,
        "phy-lorentz-force",
        Demand(steps=2, concepts=2),
        "the speed E/B₁ that passes the velocity selector undeflected, then the radius mv/qB₂ "
        "of the semicircle in the second field (the proton lands a diameter away)",
        givens=(
            Q("Ef", "E", r"\mathrm{kV\,m^{-1}}", si=1e3, choices=span(10, 100, 5)),
            Q("B1", "B_1", r"\mathrm{T}", choices=(0.1, 0.2, 0.25, 0.4, 0.5)),
            Q("B2", "B_2", r"\mathrm{T}", choices=(0.1, 0.2, 0.25, 0.4, 0.5)),
            P_MASS,
            CHARGE,
        ),
        unknown=Q("D", "D", r"\mathrm{cm}", si=0.01),
        chain=(
            Step(
                Q("v", "v", MS),
                "Eq(e*Ef, e*v*B1)",
                "velocity selector: the electric and magnetic forces balance",
                compute=lambda p: p["Ef"] / p["B1"],
            ),
        ),
        relation="Eq(D*e*B2, 2*mp*v)",
        concept="circular motion of a charge in a magnetic field",
        compute=_strike_distance,
        mistakes=(
            Mistake(
                "giving the radius of the path instead of its diameter",
                lambda p: _strike_distance(p) / 2,
            ),
            Mistake(
                "using the selector's field B₁ in the radius",
                lambda p: _strike_distance(p, field="B1"),
            ),
            Mistake(
                "taking the distance as the length πr of the semicircular path",
                lambda p: math.pi * _strike_distance(p) / 2,
            ),
            Mistake(
                "using the second field B₂ in the velocity selector as well",
                lambda p: _strike_distance(p) * p["B1"] / p["B2"],
            ),
        ),
        stem="In a mass spectrometer, protons pass undeflected through a velocity selector in "
        "which a uniform electric field {Ef} is perpendicular to a uniform magnetic field {B1}. "
        "They then enter a region of uniform magnetic field {B2}, perpendicular to their "
        "velocity, and describe a semicircle before striking a photographic plate. Taking "
        "{mp} and {e}, the distance from the entry slit at which the protons strike the plate "
        "is",
        method="Undeflected protons have $eE = evB_1$, so $v = E/B_1 = {v}\\ "
        "\\mathrm{{m\\,s^{{-1}}}}$. In the field $B_2$ the magnetic force is centripetal: "
        "$evB_2 = \\dfrac{{m_pv^2}}{{r}}$, $r = \\dfrac{{m_pv}}{{eB_2}}$, and after a semicircle "
        "the proton lands a diameter from the slit: $D = 2r$ $=$ {answer}.",
        accept=lambda p: p["B1"] != p["B2"] and 0.5 <= 100 * _strike_distance(p) <= 40,
    ),
    NumericalTemplate(
        "phy-chain-galvanometer-shunt-from-coil",
        PHY,
        "phy-moving-coil-galvanometer",
        Demand(steps=2, concepts=2),
        "the full-scale current from the torque balance NI_gAB = kφ, then the shunt that "
        "carries the rest of the ammeter's range current",
        givens=(
            Q("turns", "N", choices=span(20, 100, 10)),
            Q("A", "A", r"\mathrm{cm^2}", si=1e-4, choices=span(1, 4, 0.5)),
            Q("B", "B", r"\mathrm{T}", choices=(0.1, 0.2, 0.25, 0.4, 0.5)),
            Q("k", "k", r"\mathrm{N\,m\,rad^{-1}}", choices=tuple(x * 1e-6 for x in span(1, 9, 1))),
            Q("phi", r"\phi_{max}", DEG, choices=(60.0, 90.0, 120.0)),
            Q("G", "G", r"\Omega", choices=span(20, 100, 5)),
            Q("cur", "I", r"\mathrm{mA}", si=1e-3, choices=span(2, 40, 1)),
        ),
        unknown=Q("S", "S", r"\Omega"),
        chain=(
            Step(
                Q("Ig", "I_g", r"\mathrm{mA}", si=1e-3),
                "Eq(k*phi*pi/180, turns*Ig*A*B)",
                "torque balance in a moving-coil galvanometer, NIAB = kφ",
                compute=_galvanometer_current,
            ),
        ),
        relation="Eq(Ig*G, (cur - Ig)*S)",
        concept="shunt that converts a galvanometer into an ammeter",
        compute=_shunt,
        mistakes=(
            Mistake(
                "dividing by the full current I instead of I − I_g: S = I_gG/I",
                lambda p: _galvanometer_current(p) * p["G"] / p["cur"],
            ),
            Mistake(
                "inverting the current ratio: S = G(I − I_g)/I_g",
                lambda p: p["G"] * (p["cur"] - _galvanometer_current(p)) / _galvanometer_current(p),
            ),
            Mistake(
                "misremembering the shunt formula as S = G/(n + 1), with n = I/I_g",
                lambda p: p["G"] * _galvanometer_current(p) / (p["cur"] + _galvanometer_current(p)),
            ),
            Mistake(
                "forgetting that the field is radial and writing the torque as NIAB sin φ",
                lambda p: _shunt_from(p, _galvanometer_current(p) / _sin(p["phi"])),
            ),
        ),
        stem="A moving-coil galvanometer has a rectangular coil of {turns} turns, each of area "
        "{A}, in a radial magnetic field {B}. The torsional constant of its suspension is {k}, "
        "and the coil turns through {phi} at full-scale deflection. The resistance of the coil "
        "is {G}. The shunt needed to convert it into an ammeter reading up to {cur} is",
        method="At full scale the magnetic torque balances the restoring torque: $NI_gAB = "
        "k\\phi_{{max}}$, with $\\phi_{{max}}$ in radians, so $I_g = {Ig}$ mA. The shunt "
        "carries the rest of the current at the same potential difference: $I_gG = (I - "
        "I_g)S$, so $S = \\dfrac{{I_gG}}{{I - I_g}}$ $=$ {answer}.",
        accept=lambda p: (
            0.5e-3 <= _galvanometer_current(p) <= 10e-3
            and 1.5 <= p["cur"] / _galvanometer_current(p) <= 4
        ),
    ),
    NumericalTemplate(
        "phy-chain-solenoid-coil-rotation-work",
        PHY,
        "phy-torque-on-magnetic-dipole",
        Demand(steps=3, concepts=3),
        "the field μ₀nI inside the solenoid from Ampère's law, then the magnetic moment NIA of "
        "the small coil, then the work mB(1 − cos θ) to turn it from the stable position",
        givens=(
            Q("n", "n", r"\mathrm{m^{-1}}", choices=span(500, 5000, 250)),
            Q("I1", "I_1", r"\mathrm{A}", choices=span(1, 5, 0.5)),
            Q("N2", "N", choices=span(10, 100, 10)),
            Q("A2", "A", r"\mathrm{cm^2}", si=1e-4, choices=span(1, 10, 1)),
            Q("I2", "I_2", r"\mathrm{A}", choices=span(0.1, 1, 0.1)),
            MU0_4PI,
            Q("theta", r"\theta", DEG, choices=(45.0, 60.0, 120.0, 135.0)),
        ),
        unknown=Q("W", "W", r"\mu\mathrm{J}", si=1e-6),
        chain=(
            Step(
                Q("B", "B", r"\mathrm{mT}", si=1e-3),
                "Eq(B, 4*pi*k*n*I1)",
                "Ampère's circuital law: the field inside a long solenoid",
                compute=lambda p: 4 * math.pi * p["k"] * p["n"] * p["I1"],
            ),
            Step(
                Q("mdip", "m", r"\mathrm{A\,m^2}"),
                "Eq(mdip, N2*I2*A2)",
                "magnetic moment of a current loop",
                compute=lambda p: p["N2"] * p["I2"] * p["A2"],
            ),
        ),
        relation="Eq(W, mdip*B*(1 - cos(theta*pi/180)))",
        concept="potential energy of a magnetic dipole in a uniform field",
        compute=lambda p: _dipole_energy_scale(p) * (1 - _cos(p["theta"])),
        mistakes=(
            Mistake(
                "using the field μ₀nI/2 at the end of the solenoid",
                lambda p: _dipole_energy_scale(p, field_factor=0.5) * (1 - _cos(p["theta"])),
            ),
            Mistake(
                "equating the work to the torque mB sin θ at the final position",
                lambda p: _dipole_energy_scale(p) * _sin(p["theta"]),
            ),
            Mistake(
                "a sign slip in the potential energy: W = mB(1 + cos θ)",
                lambda p: _dipole_energy_scale(p) * (1 + _cos(p["theta"])),
            ),
            Mistake(
                "taking the final potential energy −mB cos θ alone as the work",
                lambda p: -_dipole_energy_scale(p) * _cos(p["theta"]),
            ),
        ),
        stem="A long solenoid, whose number of turns per unit length is {n}, carries a current "
        "{I1}. A small coil "
        "of {N2} turns, each of area {A2}, carrying a current {I2}, is placed inside it near "
        "the middle, with its magnetic moment along the solenoid's field. Taking {k}, the work "
        "needed to turn the coil until its magnetic moment makes an angle {theta} with the "
        "field is",
        method="Inside a long solenoid Ampère's law gives $B = \\mu_0nI_1 = {B}$ mT. The coil's "
        "magnetic moment is $m = NI_2A = {mdip}\\ \\mathrm{{A\\,m^2}}$. Its potential energy in "
        "the field is $U = -mB\\cos\\theta$, so turning it from $0^\\circ$ to $\\theta$ takes "
        "$W = mB(1 - \\cos\\theta)$ $=$ {answer}.",
        accept=lambda p: 0.5e-6 <= _dipole_energy_scale(p) <= 5e-3,
    ),
)

# ── Unit 14: Electromagnetic Induction and Alternating Currents ──────────────────────────────


def _reactance(p: Params, added: bool = False) -> float:
    xl = 2 * math.pi * p["f"] * p["L"]
    xc = 1 / (2 * math.pi * p["f"] * p["C"])
    return xl + xc if added else abs(xl - xc)


def _impedance(p: Params, added: bool = False) -> float:
    return math.hypot(p["R"], _reactance(p, added))


def _lcr_power(p: Params) -> float:
    return p["Vrms"] ** 2 * p["R"] / _impedance(p) ** 2


def _secondary_voltage(p: Params) -> float:
    return p["Vp"] * p["Ns"] / p["Np"]


def _load_power(p: Params) -> float:
    return _secondary_voltage(p) ** 2 / p["R"]


def _primary_current(p: Params) -> float:
    return _load_power(p) / (p["eta"] * p["Vp"])


def _induced_emf(p: Params, trig: float | None = None) -> float:
    factor = _sin(p["theta"]) if trig is None else trig
    return p["turns"] * p["A"] * p["B"] * factor / p["t"]


def _coil_heat(p: Params, trig: float | None = None) -> float:
    return _induced_emf(p, trig) ** 2 * p["t"] / p["R"]


INDUCTION_AC: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-chain-lcr-impedance-power-factor-power",
        PHY,
        "phy-power-in-ac-circuits",
        Demand(steps=3, concepts=3),
        "the impedance from the two reactances, then the power factor R/Z, then the average "
        "power V_rms I_rms cos φ",
        givens=(
            Q("R", "R", r"\Omega", choices=span(20, 200, 10)),
            Q("L", "L", r"\mathrm{mH}", si=1e-3, choices=span(100, 500, 20)),
            Q("C", "C", MICRO_F, si=1e-6, choices=span(10, 100, 5)),
            Q("f", "f", r"\mathrm{Hz}", choices=(50.0,)),
            Q("Vrms", r"V_{rms}", r"\mathrm{V}", choices=(100.0, 200.0, 220.0, 230.0)),
        ),
        unknown=Q("P", "P", r"\mathrm{W}"),
        chain=(
            Step(
                Q("Z", "Z", r"\Omega"),
                "Eq(Z**2, R**2 + (2*pi*f*L - 1/(2*pi*f*C))**2)",
                "impedance of a series LCR circuit",
                compute=_impedance,
            ),
            Step(
                Q("pf", r"\cos\phi"),
                "Eq(pf*Z, R)",
                "power factor from the phase between current and voltage",
                compute=lambda p: p["R"] / _impedance(p),
            ),
        ),
        relation="Eq(P*Z, Vrms**2*pf)",
        concept="average power in an AC circuit",
        compute=_lcr_power,
        mistakes=(
            Mistake(
                "leaving out the power factor: P = V_rms²/Z",
                lambda p: p["Vrms"] ** 2 / _impedance(p),
            ),
            Mistake(
                "taking P = V_rms²/R, as if the circuit were at resonance",
                lambda p: p["Vrms"] ** 2 / p["R"],
            ),
            Mistake(
                "using sin φ = X/Z as the power factor",
                lambda p: p["Vrms"] ** 2 * _reactance(p) / _impedance(p) ** 2,
            ),
            Mistake(
                "using the peak voltage √2 V_rms in place of V_rms",
                lambda p: 2 * _lcr_power(p),
            ),
            Mistake(
                "adding the reactances, X = X_L + X_C",
                lambda p: p["Vrms"] ** 2 * p["R"] / _impedance(p, added=True) ** 2,
            ),
        ),
        stem="A series LCR circuit has a resistor {R}, an inductor {L} and a capacitor {C}, "
        "connected across an AC source of frequency {f} and rms voltage {Vrms}. The average "
        "power dissipated in the circuit is",
        method="$X_L = 2\\pi fL$ and $X_C = \\dfrac{{1}}{{2\\pi fC}}$, so the impedance is "
        "$Z = \\sqrt{{R^2 + (X_L - X_C)^2}} = {Z}\\ \\Omega$. The power factor is $\\cos\\phi = "
        "R/Z = {pf}$, and the average power is $P = V_{{rms}}I_{{rms}}\\cos\\phi = "
        "\\dfrac{{V_{{rms}}^2}}{{Z}}\\cos\\phi$ $=$ {answer}.",
        accept=lambda p: 0.35 <= p["R"] / _impedance(p) <= 0.9,
    ),
    NumericalTemplate(
        "phy-chain-transformer-load-primary-current",
        PHY,
        "phy-transformer",
        Demand(steps=3, concepts=3),
        "the secondary voltage from the turns ratio, then the power V_s²/R the load takes, then "
        "the primary current from the input power P_out/η",
        givens=(
            Q("Np", "N_p", choices=span(1000, 3000, 100)),
            Q("Ns", "N_s", choices=span(100, 1500, 50)),
            Q("Vp", "V_p", r"\mathrm{V}", choices=(220.0, 230.0)),
            Q("R", "R", r"\Omega", choices=span(5, 50, 1)),
            Q("eta", r"\eta", r"\%", si=0.01, choices=span(60, 90, 5)),
        ),
        unknown=Q("Ip", "I_p", r"\mathrm{A}"),
        chain=(
            Step(
                Q("Vs", "V_s", r"\mathrm{V}"),
                "Eq(Vs*Np, Vp*Ns)",
                "transformer turns ratio",
                compute=_secondary_voltage,
            ),
            Step(
                Q("Ps", "P_{out}", r"\mathrm{W}"),
                "Eq(Ps*R, Vs**2)",
                "power delivered to a resistive load",
                compute=_load_power,
            ),
        ),
        relation="Eq(eta*Vp*Ip, Ps)",
        concept="efficiency of a transformer",
        compute=_primary_current,
        mistakes=(
            Mistake(
                "ignoring the efficiency, as for an ideal transformer",
                lambda p: _load_power(p) / p["Vp"],
            ),
            Mistake(
                "multiplying by the efficiency instead of dividing by it",
                lambda p: p["eta"] * _load_power(p) / p["Vp"],
            ),
            Mistake(
                "giving the secondary current V_s/R",
                lambda p: _secondary_voltage(p) / p["R"],
            ),
            Mistake(
                "dividing the input power by V_s instead of V_p",
                lambda p: _load_power(p) / (p["eta"] * _secondary_voltage(p)),
            ),
        ),
        stem="A transformer has {Np} turns in its primary coil and {Ns} turns in its secondary "
        "coil. The primary is connected to an AC supply of rms voltage {Vp}, and a resistor {R} "
        "is connected across the secondary. If the efficiency of the transformer is {eta}, the "
        "rms current drawn from the supply is",
        method="The turns ratio gives $V_s = V_p\\dfrac{{N_s}}{{N_p}} = {Vs}$ V, so the load "
        "takes $P_{{out}} = \\dfrac{{V_s^2}}{{R}} = {Ps}$ W. With efficiency $\\eta$ the input "
        "power is $P_{{out}}/\\eta = V_pI_p$, so $I_p = \\dfrac{{P_{{out}}}}{{\\eta V_p}}$ $=$ "
        "{answer}.",
        accept=lambda p: 2 <= p["Np"] / p["Ns"] <= 10,
    ),
    NumericalTemplate(
        "phy-chain-faraday-coil-heat",
        PHY,
        "phy-faradays-law",
        Demand(steps=2, concepts=2),
        "the induced emf from the rate of change of flux linkage (Faraday's law), then the "
        "Joule heat ε²t/R while the field falls",
        givens=(
            Q("turns", "N", choices=span(50, 500, 50)),
            Q("A", "A", r"\mathrm{cm^2}", si=1e-4, choices=span(20, 200, 10)),
            Q("R", "R", r"\Omega", choices=(0.5, 1.5, 2.0, 2.5, 3.0)),
            Q("B", "B", r"\mathrm{T}", choices=(0.1, 0.2, 0.25, 0.4, 0.5, 0.8, 1.0)),
            Q("theta", r"\theta", DEG, choices=(30.0, 60.0)),
            Q("t", "t", r"\mathrm{s}", choices=span(0.1, 0.5, 0.05)),
        ),
        unknown=Q("H", "H", r"\mathrm{J}"),
        chain=(
            Step(
                Q("emf", r"\varepsilon", r"\mathrm{V}"),
                "Eq(emf*t, turns*A*B*sin(theta*pi/180))",
                "Faraday's law of induction",
                compute=_induced_emf,
            ),
        ),
        relation="Eq(H*R, emf**2*t)",
        concept="Joule heating by the induced current",
        compute=_coil_heat,
        mistakes=(
            Mistake(
                "taking the flux as NBA cos θ with θ measured from the plane of the coil",
                lambda p: _coil_heat(p, trig=_cos(p["theta"])),
            ),
            Mistake(
                "ignoring the angle, as if the field were along the normal",
                lambda p: _coil_heat(p, trig=1.0),
            ),
            Mistake(
                "giving the power ε²/R instead of the heat (leaving out the time)",
                lambda p: _induced_emf(p) ** 2 / p["R"],
            ),
            Mistake(
                "writing the heat as ε²Rt, mixing up I²Rt",
                lambda p: _induced_emf(p) ** 2 * p["R"] * p["t"],
            ),
        ),
        stem="A coil of {turns} turns, each of area {A}, has a total resistance {R}. It lies in "
        "a uniform magnetic field {B} that makes an angle {theta} with the plane of the coil. "
        "The field is reduced steadily to zero in a time {t}. The heat produced in the coil "
        "during this time is",
        method="The field makes $\\theta$ with the plane, so $(90^\\circ - \\theta)$ with the "
        "normal: the flux linkage is $NBA\\sin\\theta$. Falling steadily to zero, it induces "
        "$\\varepsilon = \\dfrac{{NBA\\sin\\theta}}{{t}} = {emf}$ V. The current "
        "$\\varepsilon/R$ flows for the time $t$, producing $H = \\dfrac{{\\varepsilon^2t}}{{R}}$ "
        "$=$ {answer}.",
        accept=lambda p: 0.05 <= _coil_heat(p) <= 20,
    ),
)

# ── Unit 15: Electromagnetic Waves ───────────────────────────────────────────────────────────


def _field_amplitude(p: Params, area: float | None = None, eta: float | None = None) -> float:
    spread = 4 * math.pi * p["r"] ** 2 if area is None else area
    intensity = (p["eta"] if eta is None else eta) * p["P"] / spread
    return math.sqrt(2 * intensity / (p["c"] * p["eps0"]))


def _displacement_current(p: Params) -> float:
    return p["eps0"] * math.pi * p["R"] ** 2 * p["rate"] / p["gap"]


def _field_inside_plates(p: Params) -> float:
    return 4 * math.pi * p["k"] * _displacement_current(p) * p["r"] / (2 * math.pi * p["R"] ** 2)


EM_WAVES: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-chain-lamp-intensity-field-amplitude",
        PHY,
        "phy-em-wave-characteristics",
        Demand(steps=2, concepts=2),
        "the intensity at the distance r from the inverse-square spreading of the light, then "
        "the field amplitude from I = ½cε₀E₀²",
        givens=(
            Q("P", "P", r"\mathrm{W}", choices=(40.0, 60.0, 100.0, 150.0, 200.0)),
            Q("eta", r"\eta", r"\%", si=0.01, choices=span(2, 10, 1)),
            Q("r", "r", r"\mathrm{m}", choices=span(1, 5, 0.5)),
            LIGHT,
            EPS0,
        ),
        unknown=Q("E0", "E_0", r"\mathrm{V\,m^{-1}}"),
        chain=(
            Step(
                Q("Iv", "I", r"\mathrm{W\,m^{-2}}"),
                "Eq(Iv*4*pi*r**2, eta*P)",
                "intensity of a point source falling off as 1/r²",
                compute=lambda p: p["eta"] * p["P"] / (4 * math.pi * p["r"] ** 2),
            ),
        ),
        relation="Eq(2*Iv, c*eps0*E0**2)",
        concept="intensity of an electromagnetic wave from its field amplitude",
        compute=_field_amplitude,
        mistakes=(
            Mistake(
                "using I = cε₀E² (the rms form) and reporting that field as the amplitude",
                lambda p: _field_amplitude(p) / math.sqrt(2),
            ),
            Mistake(
                "spreading the light over a hemisphere, 2πr²",
                lambda p: _field_amplitude(p, area=2 * math.pi * p["r"] ** 2),
            ),
            Mistake(
                "spreading the light over a disc of area πr²",
                lambda p: _field_amplitude(p, area=math.pi * p["r"] ** 2),
            ),
            Mistake(
                "ignoring the efficiency, as if all the power came out as light",
                lambda p: _field_amplitude(p, eta=1.0),
            ),
        ),
        stem="A lamp of power {P} converts {eta} of it into visible light, which it radiates "
        "uniformly in all directions. At a distance {r} from the lamp, treating the light as a "
        "plane electromagnetic wave and taking {c} and {eps0}, the amplitude of its electric "
        "field is",
        method="The light power $\\eta P$ spreads over a sphere of radius $r$: $I = "
        "\\dfrac{{\\eta P}}{{4\\pi r^2}} = {Iv}\\ \\mathrm{{W\\,m^{{-2}}}}$. For a plane wave "
        "$I = \\tfrac{{1}}{{2}}c\\varepsilon_0E_0^2$, so $E_0 = \\sqrt{{\\dfrac{{2I}}"
        "{{c\\varepsilon_0}}}}$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "phy-chain-displacement-current-field-between-plates",
        PHY,
        "phy-displacement-current",
        Demand(steps=2, concepts=2),
        "the displacement current ε₀ dΦ_E/dt through the plates, then the magnetic field inside "
        "from the Ampère–Maxwell law, counting only the part of it enclosed",
        givens=(
            Q("R", "R", r"\mathrm{cm}", si=0.01, choices=span(5, 20, 1)),
            Q("gap", "d", r"\mathrm{mm}", si=1e-3, choices=span(1, 5, 0.5)),
            Q("rate", r"dV/dt", r"\mathrm{V\,s^{-1}}", choices=(1e8, 2e8, 5e8, 1e9, 2e9, 5e9)),
            EPS0,
            MU0_4PI,
            Q("r", "r", r"\mathrm{cm}", si=0.01, choices=span(2, 19, 1)),
        ),
        unknown=Q("B", "B", r"\mu\mathrm{T}", si=1e-6),
        chain=(
            Step(
                Q("Id", "I_d", r"\mathrm{A}"),
                "Eq(Id*gap, eps0*pi*R**2*rate)",
                "displacement current from the changing electric flux",
                compute=_displacement_current,
            ),
        ),
        relation="Eq(B*2*pi*R**2, 4*pi*k*Id*r)",
        concept="Ampère–Maxwell law for a loop inside the capacitor",
        compute=_field_inside_plates,
        mistakes=(
            Mistake(
                "taking the whole displacement current as enclosed: B = μ₀I_d/2πr",
                lambda p: 2 * p["k"] * _displacement_current(p) / p["r"],
            ),
            Mistake(
                "giving the field at the rim, μ₀I_d/2πR",
                lambda p: 2 * p["k"] * _displacement_current(p) / p["R"],
            ),
            Mistake(
                "using the field at the centre of a circular loop, μ₀I_d/2R",
                lambda p: 2 * math.pi * p["k"] * _displacement_current(p) / p["R"],
            ),
        ),
        stem="A parallel-plate capacitor has circular plates of radius {R} separated by a gap "
        "{gap} of vacuum. The potential difference between the plates rises at a steady rate "
        "{rate}. Taking {eps0} and {k}, and neglecting edge effects, the magnitude of the "
        "magnetic field between the plates at a distance {r} from their common axis is",
        method="The flux of the uniform field $E = V/d$ through the plates is $EA$, so the "
        "displacement current is $I_d = \\varepsilon_0\\dfrac{{d\\Phi_E}}{{dt}} = "
        "\\dfrac{{\\varepsilon_0\\pi R^2}}{{d}}\\dfrac{{dV}}{{dt}} = {Id}$ A. A circle of radius "
        "$r < R$ encloses the fraction $r^2/R^2$ of it, so $B(2\\pi r) = \\mu_0I_d\\dfrac{{r^2}}"
        "{{R^2}}$, $B = \\dfrac{{\\mu_0I_dr}}{{2\\pi R^2}}$ $=$ {answer}.",
        accept=lambda p: 0.35 <= p["r"] / p["R"] < 1 and _field_inside_plates(p) >= 2e-8,
    ),
)

# ── Unit 16: Optics ──────────────────────────────────────────────────────────────────────────


def _lensmaker_focal(p: Params, index_term: float | None = None, one_face: bool = False) -> float:
    term = p["n"] - 1 if index_term is None else index_term
    curvature = 1 / p["R1"] if one_face else 1 / p["R1"] + 1 / p["R2"]
    return 1 / (term * curvature)


def _image_height(p: Params, f: float | None = None) -> float:
    focal = _lensmaker_focal(p) if f is None else f
    v = 1 / (1 / focal - 1 / p["d"])
    return p["ho"] * v / p["d"]


def _emergent_radius(p: Params, depth: str = "D") -> float:
    n = p["D"] / p["Dapp"]
    return p[depth] / math.sqrt(n**2 - 1)


NICE_INDICES = (1.25, 4 / 3, 1.4, 1.5, 1.6)


def _dark_fringe(p: Params, order: float | None = None, medium: float | None = None) -> float:
    k = p["m"] - 0.5 if order is None else order
    wavelength = p["lam"] / p["n"] if medium is None else medium
    return k * wavelength * p["D"] / p["d"]


OPTICS: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-chain-lensmaker-image-height",
        PHY,
        "phy-lens-formula",
        Demand(steps=3, concepts=3),
        "the focal length from the lens maker's formula, then the image distance from the thin "
        "lens formula, then the image height from the magnification v/u",
        givens=(
            Q("n", "n", choices=(1.5, 1.6)),
            Q("R1", "R_1", r"\mathrm{cm}", si=0.01, choices=span(10, 40, 5)),
            Q("R2", "R_2", r"\mathrm{cm}", si=0.01, choices=span(10, 40, 5)),
            Q("ho", "h_o", r"\mathrm{cm}", si=0.01, choices=span(1, 5, 0.5)),
            Q("d", "u", r"\mathrm{cm}", si=0.01, choices=span(20, 120, 5)),
        ),
        unknown=Q("hi", "h_i", r"\mathrm{cm}", si=0.01),
        chain=(
            Step(
                Q("f", "f", r"\mathrm{cm}", si=0.01),
                "Eq(1/f, (n - 1)*(1/R1 + 1/R2))",
                "lens maker's formula",
                compute=_lensmaker_focal,
            ),
            Step(
                Q("v", "v", r"\mathrm{cm}", si=0.01),
                "Eq(1/v + 1/d, 1/f)",
                "thin lens formula",
                compute=lambda p: 1 / (1 / _lensmaker_focal(p) - 1 / p["d"]),
            ),
        ),
        relation="Eq(hi*d, ho*v)",
        concept="linear magnification of a lens",
        compute=_image_height,
        mistakes=(
            Mistake(
                "using n in place of (n − 1) in the lens maker's formula",
                lambda p: _image_height(p, f=_lensmaker_focal(p, index_term=p["n"])),
            ),
            Mistake(
                "a sign slip in the lens formula: 1/v = 1/f + 1/|u|",
                lambda p: p["ho"] / (1 + p["d"] / _lensmaker_focal(p)),
            ),
            Mistake(
                "inverting the magnification, m = u/v",
                lambda p: p["ho"] ** 2 / _image_height(p),
            ),
            Mistake(
                "counting only one curved face in the lens maker's formula",
                lambda p: _image_height(p, f=_lensmaker_focal(p, one_face=True)),
            ),
        ),
        stem="A thin double-convex lens is made of glass of refractive index {n}, and the radii "
        "of curvature of its two faces are {R1} and {R2}. An object of height {ho} stands "
        "upright on the principal axis at a distance {d} from the lens. The height of the image "
        "formed by the lens is",
        method="For a double-convex lens ($R_1 > 0$, $R_2 < 0$ in the sign convention) "
        "$\\dfrac{{1}}{{f}} = (n - 1)\\left(\\dfrac{{1}}{{|R_1|}} + \\dfrac{{1}}{{|R_2|}}\\right)$, "
        "so $f = {f}$ cm. With $u = -{d}$ cm, $\\dfrac{{1}}{{v}} - \\dfrac{{1}}{{u}} = "
        "\\dfrac{{1}}{{f}}$ gives $v = {v}$ cm (a real, inverted image). The magnification is "
        "$m = v/u$, so the image is $h_i = h_o\\dfrac{{v}}{{|u|}}$ $=$ {answer} tall.",
        accept=lambda p: 4 / 3 * _lensmaker_focal(p) <= p["d"] <= 4 * _lensmaker_focal(p),
    ),
    NumericalTemplate(
        "phy-chain-apparent-depth-emergent-circle",
        PHY,
        "phy-total-internal-reflection",
        Demand(steps=2, concepts=2),
        "the refractive index from the real and apparent depths, then the radius D tan C of the "
        "circle of light that escapes, from the critical angle",
        givens=(
            Q("D", "D", r"\mathrm{cm}", si=0.01, choices=span(40, 150, 5)),
            Q("Dapp", "D'", r"\mathrm{cm}", si=0.01, choices=span(20, 120, 1)),
        ),
        unknown=Q("rc", "r", r"\mathrm{cm}", si=0.01),
        chain=(
            Step(
                Q("n", "n"),
                "Eq(n*Dapp, D)",
                "refraction at a plane surface: real and apparent depth",
                compute=lambda p: p["D"] / p["Dapp"],
            ),
        ),
        relation="Eq(rc**2*(n**2 - 1), D**2)",
        concept="total internal reflection and the critical angle",
        compute=_emergent_radius,
        mistakes=(
            Mistake(
                "using the apparent depth as the depth of the bulb",
                lambda p: _emergent_radius(p, depth="Dapp"),
            ),
            Mistake(
                "taking the radius as D sin C = D/n",
                lambda p: p["Dapp"],
            ),
            Mistake(
                "taking the radius as D cos C",
                lambda p: p["D"] * math.sqrt(1 - (p["Dapp"] / p["D"]) ** 2),
            ),
            Mistake(
                "giving the diameter of the circle",
                lambda p: 2 * _emergent_radius(p),
            ),
        ),
        stem="A coin lying at the bottom of a tank filled with a transparent liquid to a depth "
        "{D} appears, when viewed normally from above, to be at a depth {Dapp} below the "
        "surface. The coin is replaced by a small bulb. The radius of the largest circle on "
        "the liquid surface through which light from the bulb can emerge is",
        method="Viewed normally, $n = \\dfrac{{\\text{{real depth}}}}{{\\text{{apparent "
        "depth}}}} = {n}$. Rays meeting the surface beyond the critical angle $C$, $\\sin C = "
        "1/n$, are totally reflected, so light escapes within a circle of radius $r = D\\tan C "
        "= \\dfrac{{D}}{{\\sqrt{{n^2 - 1}}}}$ $=$ {answer}.",
        accept=lambda p: any(abs(p["D"] / p["Dapp"] - x) < 1e-9 for x in NICE_INDICES),
    ),
    NumericalTemplate(
        "phy-chain-ydse-in-liquid-dark-fringe",
        PHY,
        "phy-youngs-double-slit",
        Demand(steps=2, concepts=2),
        "the wavelength λ/n in the liquid, then the position (m − ½)λ'D/d of a dark fringe",
        givens=(
            Q("lam", r"\lambda", r"\mathrm{nm}", si=1e-9, choices=span(400, 700, 10)),
            Q("d", "d", r"\mathrm{mm}", si=1e-3, choices=span(0.2, 1.0, 0.1)),
            Q("D", "D", r"\mathrm{m}", choices=span(0.5, 2.0, 0.1)),
            Q("n", "n", choices=(1.25, 1.33, 1.4, 1.5, 1.6)),
            Q("m", "m", choices=(2.0, 3.0, 4.0, 5.0)),
        ),
        unknown=Q("y", "y", r"\mathrm{mm}", si=1e-3),
        chain=(
            Step(
                Q("lm", r"\lambda'", r"\mathrm{nm}", si=1e-9),
                "Eq(lm*n, lam)",
                "wavelength of light in a medium",
                compute=lambda p: p["lam"] / p["n"],
            ),
        ),
        relation="Eq(y*d, (m - 1/2)*lm*D)",
        concept="positions of dark fringes in Young's double-slit experiment",
        compute=_dark_fringe,
        mistakes=(
            Mistake(
                "ignoring the liquid and using the wavelength in air",
                lambda p: _dark_fringe(p, medium=p["lam"]),
            ),
            Mistake(
                "multiplying the wavelength by n in the liquid",
                lambda p: _dark_fringe(p, medium=p["lam"] * p["n"]),
            ),
            Mistake(
                "placing the dark fringe at mβ, a bright-fringe position",
                lambda p: _dark_fringe(p, order=p["m"]),
            ),
            Mistake(
                "placing the dark fringe at (m + ½)β",
                lambda p: _dark_fringe(p, order=p["m"] + 0.5),
            ),
        ),
        stem="In a Young's double-slit experiment, light of wavelength {lam} (in air) falls on "
        "two slits a distance {d} apart, and the screen is {D} from the slits. The whole "
        "apparatus is immersed in a transparent liquid of refractive index {n}. Counting "
        "outwards from the central bright fringe, the distance of the centre of dark fringe "
        "number {m} from the centre of the central bright fringe is",
        method="In the liquid the wavelength is $\\lambda' = \\lambda/n = {lm}$ nm, so the "
        "fringe width is $\\beta = \\lambda'D/d$. The $m$-th dark fringe lies where the path "
        "difference is $(m - \\tfrac{{1}}{{2}})\\lambda'$: $y = (m - \\tfrac{{1}}{{2}})"
        "\\dfrac{{\\lambda'D}}{{d}}$ $=$ {answer}.",
    ),
)

# ── Unit 17: Dual Nature of Matter and Radiation ─────────────────────────────────────────────


def _transition_energy(p: Params) -> float:
    return p["E0"] * (1 / p["n1"] ** 2 - 1 / p["n2"] ** 2)


def _photo_ke(p: Params) -> float:
    """Maximum kinetic energy of the photoelectrons in J (the photon energy less φ)."""
    return p["h"] * p["c"] / p["lam"] - p["phi"] * p["e"]


def _de_broglie(p: Params, energy: float | None = None, two: float = 2.0) -> float:
    k = _photo_ke(p) if energy is None else energy
    return p["h"] / math.sqrt(two * p["me"] * k)


DUAL_NATURE: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-chain-hydrogen-photon-stopping-potential",
        PHY,
        "phy-einsteins-photoelectric-equation",
        Demand(steps=2, concepts=2),
        "the photon energy from the difference of the Bohr energy levels, then the stopping "
        "potential from Einstein's photoelectric equation",
        givens=(
            Q("n2", "n_2", choices=(2.0, 3.0, 4.0, 5.0, 6.0)),
            Q("n1", "n_1", choices=(1.0, 2.0)),
            Q("phi", r"\phi", r"\mathrm{eV}", choices=span(1.8, 5.0, 0.1)),
            Q("E0", "E_0", r"\mathrm{eV}", choices=(13.6,)),
        ),
        unknown=Q("V0", "V_0", r"\mathrm{V}"),
        chain=(
            Step(
                Q("Eph", "E", r"\mathrm{eV}"),
                "Eq(Eph, E0*(1/n1**2 - 1/n2**2))",
                "Bohr energy levels of hydrogen",
                compute=_transition_energy,
            ),
        ),
        relation="Eq(V0, Eph - phi)",
        concept="Einstein's photoelectric equation and the stopping potential",
        compute=lambda p: _transition_energy(p) - p["phi"],
        mistakes=(
            Mistake(
                "ignoring the work function and taking eV₀ equal to the photon energy",
                _transition_energy,
            ),
            Mistake(
                "adding the work function instead of subtracting it",
                lambda p: _transition_energy(p) + p["phi"],
            ),
            Mistake(
                "using 1/n in place of 1/n² for the energy levels",
                lambda p: p["E0"] * (1 / p["n1"] - 1 / p["n2"]) - p["phi"],
            ),
            Mistake(
                "using the binding energy of level n₁ alone (the series limit) as the photon "
                "energy",
                lambda p: p["E0"] / p["n1"] ** 2 - p["phi"],
            ),
        ),
        stem="Hydrogen atoms make transitions from the level {n2} to the level {n1}, and the "
        "photons emitted fall on a metal surface of work function {phi}. Taking the ionisation "
        "energy of a hydrogen atom in its ground state as {E0}, the stopping potential for the "
        "photoelectrons is",
        method="The Bohr levels are $E_n = -\\dfrac{{13.6}}{{n^2}}$ eV, so the photon carries "
        "$E = 13.6\\left(\\dfrac{{1}}{{n_1^2}} - \\dfrac{{1}}{{n_2^2}}\\right) = {Eph}$ eV. By "
        "Einstein's equation the fastest photoelectrons have $K_{{max}} = E - \\phi$, and the "
        "stopping potential satisfies $eV_0 = K_{{max}}$: $V_0 =$ {answer}.",
        accept=lambda p: (
            p["n2"] > p["n1"]
            and (k := _transition_energy(p) - p["phi"]) >= 0.5
            and _transition_energy(p) + p["phi"] <= 9 * k
        ),
    ),
    NumericalTemplate(
        "phy-chain-photoelectron-de-broglie-wavelength",
        PHY,
        "phy-de-broglie-wavelength",
        Demand(steps=3, concepts=3),
        "the photon energy hc/λ, then the maximum kinetic energy of the photoelectrons from "
        "Einstein's equation, then their de Broglie wavelength h/√(2mK)",
        givens=(
            Q("lam", r"\lambda", r"\mathrm{nm}", si=1e-9, choices=span(150, 390, 10)),
            Q("phi", r"\phi", r"\mathrm{eV}", choices=span(2.0, 4.5, 0.1)),
            PLANCK,
            LIGHT,
            CHARGE,
            E_MASS,
        ),
        unknown=Q("lde", r"\lambda_e", r"\mathrm{nm}", si=1e-9),
        chain=(
            Step(
                Q("Eph", "E", r"\mathrm{eV}", si=EV),
                "Eq(Eph*lam, h*c)",
                "energy of a photon",
                compute=lambda p: p["h"] * p["c"] / p["lam"],
            ),
            Step(
                Q("K", "K_{max}", r"\mathrm{eV}", si=EV),
                "Eq(K, Eph - phi*e)",
                "Einstein's photoelectric equation",
                compute=_photo_ke,
            ),
        ),
        relation="Eq(2*me*K*lde**2, h**2)",
        concept="de Broglie wavelength of an electron",
        compute=_de_broglie,
        mistakes=(
            Mistake(
                "ignoring the work function and using the whole photon energy",
                lambda p: _de_broglie(p, energy=p["h"] * p["c"] / p["lam"]),
            ),
            Mistake(
                "adding the work function to the photon energy",
                lambda p: _de_broglie(p, energy=p["h"] * p["c"] / p["lam"] + p["phi"] * p["e"]),
            ),
            Mistake(
                "dropping the 2 in p = √(2mK)",
                lambda p: _de_broglie(p, two=1.0),
            ),
            Mistake(
                "using ħ = h/2π in λ = h/p",
                lambda p: _de_broglie(p) / (2 * math.pi),
            ),
        ),
        stem="Ultraviolet light of wavelength {lam} falls on a metal surface of work function "
        "{phi}. Taking {h}, {c}, {e} and {me}, the de Broglie wavelength of the fastest "
        "photoelectrons emitted is",
        method="Each photon carries $E = \\dfrac{{hc}}{{\\lambda}} = {Eph}$ eV. Einstein's "
        "equation leaves the fastest electrons $K_{{max}} = E - \\phi = {K}$ eV. Their momentum "
        "is $p = \\sqrt{{2m_eK_{{max}}}}$ (with $K_{{max}}$ in joules), so $\\lambda_e = "
        "\\dfrac{{h}}{{\\sqrt{{2m_eK_{{max}}}}}}$ $=$ {answer}.",
        accept=lambda p: 0.5 * EV <= _photo_ke(p) <= 6 * EV,
    ),
)

# ── Unit 18: Atoms and Nuclei ────────────────────────────────────────────────────────────────


def _ion_wavelength(
    p: Params, z_power: float = 2.0, inverse: float = 2.0, sign: float = -1.0
) -> float:
    levels = 1 / p["n1"] ** inverse + sign / p["n2"] ** inverse
    return p["hc"] / (p["E0"] * p["Zi"] ** z_power * levels)


def _atoms_initially(p: Params) -> float:
    return p["m"] * p["NA"] / p["M"]


def _activity(p: Params, decay: float | None = None, elapsed: bool = True) -> float:
    lam = math.log(2) / p["T"] if decay is None else decay
    return lam * _atoms_initially(p) * (math.exp(-lam * p["t"]) if elapsed else 1.0)


# Light nuclides (atomic number, mass number, atomic mass in u).
# Nuclides with their atomic masses (u, to six decimals; tests/test_templates.py checks them
# against the mendeleev package). Beyond A = 9 only nuclides with more neutrons than protons:
# there, dividing by Z and by A − Z are two different slips.
NUCLIDES = (
    (1.0, 3.0, 3.016049),
    (2.0, 3.0, 3.016029),
    (2.0, 4.0, 4.002603),
    (3.0, 6.0, 6.015123),
    (3.0, 7.0, 7.016003),
    (4.0, 9.0, 9.012183),
    (5.0, 11.0, 11.009305),
    (6.0, 13.0, 13.003355),
    (7.0, 15.0, 15.000109),
    (8.0, 17.0, 16.999132),
    (8.0, 18.0, 17.999160),
    (9.0, 19.0, 18.998403),
    (11.0, 23.0, 22.989769),
    (13.0, 27.0, 26.981538),
    (15.0, 31.0, 30.973762),
    (17.0, 35.0, 34.968853),
    (19.0, 39.0, 38.963706),
    (26.0, 56.0, 55.934936),
    (29.0, 63.0, 62.929597),
)


def _mass_defect(p: Params, nuclear_mass: float | None = None) -> float:
    mass = p["M"] if nuclear_mass is None else nuclear_mass
    return p["Zn"] * p["mH"] + (p["An"] - p["Zn"]) * p["mn"] - mass


def _binding_per(p: Params, count: float, nuclear_mass: float | None = None) -> float:
    return _mass_defect(p, nuclear_mass) * p["c2"] / count


ATOMS_NUCLEI: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-chain-hydrogen-like-ion-photon-wavelength",
        PHY,
        "phy-hydrogen-spectrum",
        Demand(steps=2, concepts=2),
        "the energy of the transition from the Bohr levels −13.6Z²/n² eV, then the photon's "
        "wavelength hc/ΔE",
        givens=(
            Q("Zi", "Z", choices=(2.0, 3.0)),
            Q("n2", "n_2", choices=(2.0, 3.0, 4.0, 5.0, 6.0)),
            Q("n1", "n_1", choices=(1.0, 2.0, 3.0)),
            Q("E0", "E_0", r"\mathrm{eV}", choices=(13.6,)),
            Q("hc", "hc", r"\mathrm{eV\,nm}", choices=(1240.0,)),
        ),
        unknown=Q("lam", r"\lambda", r"\mathrm{nm}"),
        chain=(
            Step(
                Q("dE", r"\Delta E", r"\mathrm{eV}"),
                "Eq(dE, E0*Zi**2*(1/n1**2 - 1/n2**2))",
                "Bohr energy levels of a hydrogen-like ion",
                compute=lambda p: p["E0"] * p["Zi"] ** 2 * (1 / p["n1"] ** 2 - 1 / p["n2"] ** 2),
            ),
        ),
        relation="Eq(lam*dE, hc)",
        concept="energy and wavelength of a photon",
        compute=_ion_wavelength,
        mistakes=(
            Mistake("using Z in place of Z²", lambda p: _ion_wavelength(p, z_power=1.0)),
            Mistake(
                "using 1/n in place of 1/n² for the levels",
                lambda p: _ion_wavelength(p, inverse=1.0),
            ),
            Mistake(
                "using only the binding energy of level n₁ (the series limit)",
                lambda p: _ion_wavelength(p, sign=0.0),
            ),
            Mistake(
                "leaving out Z², as for a hydrogen atom",
                lambda p: _ion_wavelength(p, z_power=0.0),
            ),
            Mistake(
                "adding the two terms instead of subtracting",
                lambda p: _ion_wavelength(p, sign=1.0),
            ),
        ),
        stem="In a hydrogen-like ion of atomic number {Zi}, the electron jumps from the level "
        "{n2} to the level {n1}. Taking the ionisation energy of a hydrogen atom in its ground "
        "state as {E0}, and {hc}, the wavelength of the photon emitted is",
        method="For a hydrogen-like ion the Bohr levels are $E_n = -\\dfrac{{13.6Z^2}}{{n^2}}$ "
        "eV, so the jump releases $\\Delta E = 13.6Z^2\\left(\\dfrac{{1}}{{n_1^2}} - "
        "\\dfrac{{1}}{{n_2^2}}\\right) = {dE}$ eV. The photon's wavelength is $\\lambda = "
        "\\dfrac{{hc}}{{\\Delta E}} = \\dfrac{{1240}}{{\\Delta E}}$ nm $=$ {answer}.",
        accept=lambda p: p["n2"] > p["n1"],
    ),
    NumericalTemplate(
        "phy-chain-radioisotope-activity-after-time",
        PHY,
        "phy-radioactive-decay",
        Demand(steps=3, concepts=3),
        "the number of nuclei from the mass and the molar mass, then the decay constant ln 2/T½, "
        "then the activity λN₀e^(−λt) after the time t",
        givens=(
            Q("m", "m", r"\mu\mathrm{g}", si=1e-9, choices=span(1, 10, 1)),
            Q(
                "M",
                "M",
                r"\mathrm{g\,mol^{-1}}",
                si=1e-3,
                choices=(24.0, 32.0, 60.0, 90.0, 131.0, 198.0, 222.0),
            ),
            Q("T", r"T_{1/2}", r"\mathrm{days}", si=DAY, choices=span(2, 30, 1)),
            Q("NA", "N_A", r"\mathrm{mol^{-1}}", choices=(6.02e23,)),
            Q("t", "t", r"\mathrm{days}", si=DAY, choices=span(1, 60, 1)),
        ),
        unknown=Q("Act", "R", r"\mathrm{GBq}", si=1e9),
        chain=(
            Step(
                Q("N0", "N_0", ""),
                "Eq(N0*M, m*NA)",
                "number of atoms from the mass, the molar mass and Avogadro's number",
                compute=_atoms_initially,
            ),
            Step(
                Q("lam", r"\lambda", r"\mathrm{s^{-1}}"),
                "Eq(lam*T, log(2))",
                "decay constant from the half-life",
                compute=lambda p: math.log(2) / p["T"],
            ),
        ),
        relation="Eq(Act, lam*N0*exp(-lam*t))",
        concept="law of radioactive decay and activity R = λN",
        compute=_activity,
        mistakes=(
            Mistake(
                "giving the initial activity λN₀, leaving out the decay during t",
                lambda p: _activity(p, elapsed=False),
            ),
            Mistake(
                "taking the decay constant as 1/T½, leaving out ln 2",
                lambda p: _activity(p, decay=1 / p["T"]),
            ),
            Mistake(
                "using log₁₀ 2 = 0.301 in place of ln 2 = 0.693",
                lambda p: _activity(p, decay=math.log10(2) / p["T"]),
            ),
            Mistake(
                "dividing N₀ by the number of half-lives t/T½ instead of halving it that "
                "many times",
                lambda p: _activity(p, elapsed=False) * p["T"] / p["t"],
            ),
        ),
        stem="A freshly prepared sample contains {m} of a radioisotope of molar mass {M} whose "
        "half-life is {T}. Taking {NA}, the activity of the sample a time {t} after it was "
        "prepared is",
        method="The sample holds $N_0 = \\dfrac{{m}}{{M}}N_A = {N0}$ nuclei. The decay constant "
        "is $\\lambda = \\dfrac{{\\ln 2}}{{T_{{1/2}}}} = {lam}\\ \\mathrm{{s^{{-1}}}}$ (with "
        "$T_{{1/2}}$ in seconds). After the time $t$, $N = N_0e^{{-\\lambda t}}$, and the "
        "activity is $R = \\lambda N = \\lambda N_0e^{{-\\lambda t}}$ $=$ {answer}.",
        accept=lambda p: 0.5 <= p["t"] / p["T"] <= 3,
    ),
    NumericalTemplate(
        "phy-chain-mass-defect-binding-energy-per-nucleon",
        PHY,
        "phy-binding-energy",
        Demand(steps=2, concepts=2),
        "the mass defect from the masses of the hydrogen atoms, neutrons and the atom, then the "
        "binding energy per nucleon from E = Δm c²",
        givens=(
            Q("Zn", "Z", choices=tuple(sorted({z for z, _, _ in NUCLIDES}))),
            Q("An", "A", choices=tuple(sorted({a for _, a, _ in NUCLIDES}))),
            Q("M", "M", r"\mathrm{u}", choices=tuple(m for _, _, m in NUCLIDES)),
            Q("mH", "m_H", r"\mathrm{u}", choices=(1.007825,)),
            Q("mn", "m_n", r"\mathrm{u}", choices=(1.008665,)),
            Q("c2", "c^2", r"\mathrm{MeV\,u^{-1}}", choices=(931.5,)),
        ),
        unknown=Q("Ebn", "E_b/A", r"\mathrm{MeV}"),
        chain=(
            Step(
                Q("dm", r"\Delta m", r"\mathrm{u}"),
                "Eq(dm, Zn*mH + (An - Zn)*mn - M)",
                "mass defect of a nucleus",
                compute=_mass_defect,
            ),
        ),
        relation="Eq(Ebn*An, dm*c2)",
        concept="binding energy from mass–energy equivalence",
        compute=lambda p: _binding_per(p, p["An"]),
        mistakes=(
            Mistake(
                "giving the total binding energy, not dividing by A",
                # Within ten times the key only for the lightest nuclides: no option otherwise.
                lambda p: _binding_per(p, 1.0) if p["An"] <= 9 else math.nan,
            ),
            Mistake(
                "dividing by the number of protons Z instead of A",
                lambda p: _binding_per(p, p["Zn"]),
            ),
            Mistake(
                "taking the atom's mass as A u (the mass number) in the mass defect",
                lambda p: _binding_per(p, p["An"], nuclear_mass=p["An"]),
            ),
            Mistake(
                "swapping the numbers of protons and neutrons in the mass defect",
                lambda p: (
                    ((p["An"] - p["Zn"]) * p["mH"] + p["Zn"] * p["mn"] - p["M"]) * p["c2"] / p["An"]
                ),
            ),
            Mistake(
                "dividing by the number of neutrons A − Z instead of A",
                lambda p: _binding_per(p, p["An"] - p["Zn"]),
            ),
            Mistake(
                "counting every nucleon at the neutron's mass in the mass defect",
                lambda p: (p["An"] * p["mn"] - p["M"]) * p["c2"] / p["An"],
            ),
            Mistake(
                "counting every nucleon at the hydrogen atom's mass in the mass defect",
                lambda p: (p["An"] * p["mH"] - p["M"]) * p["c2"] / p["An"],
            ),
        ),
        stem="A neutral atom of atomic number {Zn} and mass number {An} has a mass {M}. Taking "
        "the mass of a hydrogen atom as {mH}, the mass of a neutron as {mn} and {c2}, the "
        "binding energy per nucleon of its nucleus is",
        method="The $Z$ protons (counted with their electrons as hydrogen atoms) and $A - Z$ "
        "neutrons weigh more than the atom: $\\Delta m = Zm_H + (A - Z)m_n - M = {dm}$ u. This "
        "mass defect is the binding energy, $E_b = \\Delta m\\times 931.5$ MeV, shared among "
        "$A$ nucleons: $E_b/A =$ {answer}.",
        joint=(("Zn", "An", "M"), NUCLIDES),
    ),
)

# ── Unit 19: Electronic Devices ──────────────────────────────────────────────────────────────


def _zener_series_current(p: Params) -> float:
    return (p["Vin"] - p["Vz"]) / p["Rs"]


def _zener_current(p: Params) -> float:
    return _zener_series_current(p) - p["Vz"] / p["RL"]


# Intrinsic concentration and electron and hole mobilities (m² V⁻¹ s⁻¹) of Si and Ge at 300 K.
SEMICONDUCTORS = ((1.5e16, 0.135, 0.048), (2.4e19, 0.39, 0.19))
DOPED_DENSITIES = tuple(
    m * 10.0**e for e in (21, 22, 23) for m in (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0)
)


def _conductivity(p: Params, both: bool = False, mobility: str = "mue") -> float:
    holes = p["ne"] if both else p["ni"] ** 2 / p["ne"]
    return p["e"] * (p["ne"] * p[mobility] + holes * p["muh"])


def _bar_resistance(p: Params, both: bool = False, mobility: str = "mue") -> float:
    return p["Lb"] / (_conductivity(p, both, mobility) * p["area"])


def _rectified_current(p: Params, shape: float = 2 / math.pi) -> float:
    peak = math.sqrt(2) * p["Vp"] * p["Ns"] / p["Np"]
    return shape * peak / p["R"]


ELECTRONIC_DEVICES: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "phy-chain-zener-regulator-power",
        PHY,
        "phy-zener-diode",
        Demand(steps=3, concepts=3),
        "the current in the series resistor from the voltage it drops, then the Zener current "
        "from the junction rule at the load, then the power V_Z I_Z the Zener diode dissipates",
        givens=(
            Q("Vz", "V_Z", r"\mathrm{V}", choices=(5.0, 5.6, 6.0, 6.2, 8.0, 9.0)),
            Q("Vin", r"V_{in}", r"\mathrm{V}", choices=span(10, 30, 1)),
            Q("Rs", "R_s", r"\Omega", choices=span(100, 1000, 50)),
            Q("RL", "R_L", r"\mathrm{k}\Omega", si=1000, choices=span(0.5, 5, 0.25)),
        ),
        unknown=Q("Pz", "P_Z", r"\mathrm{mW}", si=1e-3),
        chain=(
            Step(
                Q("Is", "I_s", r"\mathrm{mA}", si=1e-3),
                "Eq(Is*Rs, Vin - Vz)",
                "Zener regulation: the series resistor drops the excess voltage",
                compute=_zener_series_current,
            ),
            Step(
                Q("Iz", "I_Z", r"\mathrm{mA}", si=1e-3),
                "Eq(Iz, Is - Vz/RL)",
                "Kirchhoff's junction rule at the load",
                compute=_zener_current,
            ),
        ),
        relation="Eq(Pz, Vz*Iz)",
        concept="electrical power",
        compute=lambda p: p["Vz"] * _zener_current(p),
        mistakes=(
            Mistake(
                "forgetting the load current, I_Z = I_s",
                lambda p: p["Vz"] * _zener_series_current(p),
            ),
            Mistake(
                "taking the whole input voltage across R_s",
                lambda p: p["Vz"] * (p["Vin"] / p["Rs"] - p["Vz"] / p["RL"]),
            ),
            Mistake(
                "adding the load current instead of subtracting it",
                lambda p: p["Vz"] * (_zener_series_current(p) + p["Vz"] / p["RL"]),
            ),
            Mistake(
                "multiplying by the input voltage, P = V_in I_Z",
                lambda p: p["Vin"] * _zener_current(p),
            ),
        ),
        stem="A Zener diode of breakdown voltage {Vz} regulates the voltage across a load. An "
        "unregulated input {Vin} is applied through a series resistor {Rs}, and a load "
        "resistor {RL} is connected across the Zener diode. The power dissipated in the Zener "
        "diode is",
        method="The Zener diode holds the load at $V_Z$, so the series resistor carries $I_s = "
        "\\dfrac{{V_{{in}} - V_Z}}{{R_s}} = {Is}$ mA. The load takes $V_Z/R_L$, and by the "
        "junction rule the Zener diode takes the rest: $I_Z = I_s - \\dfrac{{V_Z}}{{R_L}} = "
        "{Iz}$ mA. It dissipates $P_Z = V_ZI_Z$ $=$ {answer}.",
        accept=lambda p: (
            p["Vin"] - p["Vz"] >= 3
            and 0.2 <= (p["Vz"] / p["RL"]) / _zener_series_current(p) <= 0.75
        ),
    ),
    NumericalTemplate(
        "phy-chain-doped-semiconductor-bar-resistance",
        PHY,
        "phy-semiconductors",
        Demand(steps=3, concepts=3),
        "the hole concentration n_i²/n_e from the mass-action law, then the conductivity "
        "e(n_eμ_e + n_hμ_h), then the resistance L/σA of the bar",
        givens=(
            Q("ni", "n_i", r"\mathrm{m^{-3}}", choices=(1.5e16, 2.4e19)),
            Q("ne", "n_e", r"\mathrm{m^{-3}}", choices=DOPED_DENSITIES),
            Q("mue", r"\mu_e", r"\mathrm{m^2\,V^{-1}\,s^{-1}}", choices=(0.135, 0.39)),
            Q("muh", r"\mu_h", r"\mathrm{m^2\,V^{-1}\,s^{-1}}", choices=(0.048, 0.19)),
            CHARGE,
            Q("Lb", "L", r"\mathrm{mm}", si=1e-3, choices=span(2, 10, 1)),
            Q("area", "A", r"\mathrm{mm^2}", si=1e-6, choices=span(0.5, 4, 0.5)),
        ),
        unknown=Q("Rb", "R", r"\Omega"),
        chain=(
            Step(
                Q("nh", "n_h", r"\mathrm{m^{-3}}"),
                "Eq(nh*ne, ni**2)",
                "mass-action law, n_e n_h = n_i²",
                compute=lambda p: p["ni"] ** 2 / p["ne"],
            ),
            Step(
                Q("sig", r"\sigma", r"\mathrm{S\,m^{-1}}"),
                "Eq(sig, e*(ne*mue + nh*muh))",
                "conductivity from carrier concentrations and mobilities",
                compute=_conductivity,
            ),
        ),
        relation="Eq(Rb*sig*area, Lb)",
        concept="resistance from conductivity and dimensions",
        compute=_bar_resistance,
        mistakes=(
            Mistake(
                "counting as many holes as electrons, σ = n_e e(μ_e + μ_h)",
                lambda p: _bar_resistance(p, both=True),
            ),
            Mistake(
                "using the hole mobility for the electrons",
                lambda p: _bar_resistance(p, mobility="muh"),
            ),
            unit_slip(
                "putting the length in millimetres and the area in square millimetres into "
                "R = L/σA",
                lambda p: _bar_resistance(p) / 1000,
            ),
        ),
        stem="A semiconductor of intrinsic carrier concentration {ni} is doped with a "
        "pentavalent impurity so that its electron concentration becomes {ne}. The electron and "
        "hole mobilities in it are {mue} and {muh}. Taking {e}, the resistance of a bar of the "
        "doped material of length {Lb} and cross-sectional area {area} is",
        method="By the mass-action law $n_h = \\dfrac{{n_i^2}}{{n_e}} = {nh}\\ "
        "\\mathrm{{m^{{-3}}}}$, negligible beside $n_e$. The conductivity is $\\sigma = "
        "e(n_e\\mu_e + n_h\\mu_h) = {sig}\\ \\mathrm{{S\\,m^{{-1}}}}$, and the bar's resistance "
        "is $R = \\dfrac{{L}}{{\\sigma A}}$ with $L$ in metres and $A$ in square metres: $R =$ "
        "{answer}.",
        accept=lambda p: (
            (p["ni"], p["mue"], p["muh"]) in SEMICONDUCTORS
            and p["ne"] >= 1000 * p["ni"]
            and 10 <= _bar_resistance(p) <= 2000
        ),
    ),
    NumericalTemplate(
        "phy-chain-transformer-rectifier-load-current",
        PHY,
        "phy-diode-as-rectifier",
        Demand(steps=3, concepts=3),
        "the secondary voltage from the transformer's turns ratio, then the average output "
        "2V_m/π of the full-wave rectifier, then the load current from Ohm's law",
        givens=(
            Q("Vp", "V_p", r"\mathrm{V}", choices=(220.0, 230.0)),
            Q("Np", "N_p", choices=span(500, 2000, 100)),
            Q("Ns", "N_s", choices=span(20, 200, 10)),
            Q("R", "R", r"\Omega", choices=span(100, 1000, 50)),
        ),
        unknown=Q("Idc", r"I_{dc}", r"\mathrm{mA}", si=1e-3),
        chain=(
            Step(
                Q("Vs", "V_s", r"\mathrm{V}"),
                "Eq(Vs*Np, Vp*Ns)",
                "transformer turns ratio",
                compute=lambda p: p["Vp"] * p["Ns"] / p["Np"],
            ),
            Step(
                Q("Vdc", r"V_{dc}", r"\mathrm{V}"),
                "Eq(pi*Vdc, 2*sqrt(2)*Vs)",
                "average output of a full-wave rectifier",
                compute=lambda p: _rectified_current(p) * p["R"],
            ),
        ),
        relation="Eq(Idc*R, Vdc)",
        concept="Ohm's law for the load",
        compute=_rectified_current,
        mistakes=(
            Mistake(
                "using the half-wave average V_m/π",
                lambda p: _rectified_current(p, shape=1 / math.pi),
            ),
            Mistake(
                "taking the rms secondary voltage as the peak voltage",
                lambda p: _rectified_current(p) / math.sqrt(2),
            ),
            Mistake(
                "using the rms value V_m/√2 of the output instead of its average",
                lambda p: _rectified_current(p, shape=1 / math.sqrt(2)),
            ),
            Mistake(
                "giving the peak current V_m/R",
                lambda p: _rectified_current(p, shape=1.0),
            ),
        ),
        stem="The mains supply of rms voltage {Vp} is stepped down by a transformer with {Np} "
        "turns in its primary and {Ns} turns in its secondary. The secondary feeds a full-wave "
        "bridge rectifier of four ideal diodes, whose output is connected across a load resistor {R}. "
        "The average (dc) current through the load is",
        method="The secondary's rms voltage is $V_s = V_p\\dfrac{{N_s}}{{N_p}} = {Vs}$ V, so its "
        "peak is $V_m = \\sqrt{{2}}V_s$; the bridge passes the whole secondary voltage to the load in each half cycle. A full-wave rectifier's output averages $V_{{dc}} = "
        "\\dfrac{{2V_m}}{{\\pi}} = {Vdc}$ V, and the load current is $I_{{dc}} = "
        "\\dfrac{{V_{{dc}}}}{{R}}$ $=$ {answer}.",
        accept=lambda p: (
            5 <= p["Vp"] * p["Ns"] / p["Np"] <= 40 and 5e-3 <= _rectified_current(p) <= 0.5
        ),
    ),
)

ELECTRICITY_CHAINS: tuple[NumericalTemplate, ...] = (
    ELECTROSTATICS
    + CURRENT_ELECTRICITY
    + MAGNETISM
    + INDUCTION_AC
    + EM_WAVES
    + OPTICS
    + DUAL_NATURE
    + ATOMS_NUCLEI
    + ELECTRONIC_DEVICES
)
