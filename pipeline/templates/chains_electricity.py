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
            unit_slip(
                "reading the field in kV m⁻¹ as V m⁻¹",
                lambda p: _strike_distance(p) / 1000,
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
        accept=lambda p: 0.02 <= _coil_heat(p) <= 50,
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
            unit_slip(
                "leaving the gap in millimetres",
                lambda p: _field_inside_plates(p) / 1000,
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
        accept=lambda p: 0.35 <= p["r"] / p["R"] < 1,
    ),
)

ELECTRICITY_CHAINS: tuple[NumericalTemplate, ...] = (
    ELECTROSTATICS + CURRENT_ELECTRICITY + MAGNETISM + INDUCTION_AC + EM_WAVES
)
