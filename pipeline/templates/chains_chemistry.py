"""Multi-step, multi-concept numericals (chemistry): each template chains relations from different
concepts (`Step`s, then the final relation); the solver re-derives every step from the stem's
numbers with sympy. Every distractor is a named mistake at some step.

Constants are NCERT's and are stated in each stem: R = 8.314 J K⁻¹ mol⁻¹ or 0.0821 L atm K⁻¹ mol⁻¹,
F = 96500 C mol⁻¹, h = 6.626 × 10⁻³⁴ J s, c = 3.0 × 10⁸ m s⁻¹, m_e = 9.1 × 10⁻³¹ kg,
R_H = 2.18 × 10⁻¹⁸ J (Bohr energies), 2.303RT/F = 0.059 V at 298 K.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from core.records import Subject
from pipeline.difficulty import Demand
from pipeline.generate.numerical import (
    Mistake,
    NumericalTemplate,
    Quantity,
    Step,
    span,
    unit_slip,
)

CHE = Subject.CHEMISTRY
Q = Quantity

GMOL = r"\mathrm{g\,mol^{-1}}"
MOLL = r"\mathrm{mol\,L^{-1}}"
KJMOL = r"\mathrm{kJ\,mol^{-1}}"
JKMOL = r"\mathrm{J\,K^{-1}\,mol^{-1}}"
MS = r"\mathrm{m\,s^{-1}}"
ATM = r"\mathrm{atm}"
KELVIN = r"\mathrm{K}"
SCM2 = r"\mathrm{S\,cm^2\,mol^{-1}}"
R_LATM = Q("R", "R", r"\mathrm{L\,atm\,K^{-1}\,mol^{-1}}", choices=(0.0821,))
R_SI = Q("R", "R", JKMOL, choices=(8.314,))
FARADAY = Q("F", "F", r"\mathrm{C\,mol^{-1}}", choices=(96500.0,))
H_PLANCK = Q("h", "h", r"\mathrm{J\,s}", choices=(6.626e-34,))
C_LIGHT = Q("c", "c", MS, choices=(3.0e8,))
M_ELECTRON = Q("me", "m_e", r"\mathrm{kg}", choices=(9.1e-31,))
RYDBERG_J = Q("RH", r"R_{\mathrm{H}}", r"\mathrm{J}", choices=(2.18e-18,))
EV = 1.602176634e-19  # J per eV (exact, SI 2019)
R_J = 8.314  # J K⁻¹ mol⁻¹, for the "R in the wrong units" slips
R_L = 0.0821  # L atm K⁻¹ mol⁻¹
LN2 = math.log(2)
Params = Mapping[str, float]


def _sci(mantissas: tuple[float, ...], exponents: tuple[int, ...]) -> tuple[float, ...]:
    """Values a × 10^e, rounded to dodge float noise."""
    return tuple(round(a * 10.0**e, 12 - e) for e in exponents for a in mantissas)


def _fraction(x: float) -> float:
    """x when it can be a fraction (0 < x < 1); NaN (the option is dropped) otherwise."""
    return x if 0 < x < 1 else math.nan


# ---------------------------------------------------------------- che-u01 Some Basic Concepts


def _co2_moles(p: Params, *, ratio: float = 2.0, excess: bool = False) -> float:
    """Moles of CO₂ from CaCO₃ + 2HCl: the smaller of the two reagents' yields (the larger when
    the student bases it on the reagent in excess); `ratio` mol HCl per mol CO₂."""
    n_carbonate = p["mC"] / p["MC"]
    n_acid = p["c"] * p["V"] / 1000 / ratio
    return max(n_carbonate, n_acid) if excess else min(n_carbonate, n_acid)


def _clear_limiting(p: Params) -> bool:
    """The limiting reagent is clear-cut, and the reagent in excess is not absurdly in excess."""
    r = (p["c"] * p["V"] / 2000) / (p["mC"] / p["MC"])
    return 1.3 <= r <= 5 or 0.2 <= r <= 1 / 1.3


U01: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-chain-marble-acid-co2-volume",
        CHE,
        "che-stoichiometry",
        Demand(steps=3, concepts=3),
        "the moles of HCl from the molarity and volume of the acid, then the moles of CO₂ from "
        "the limiting reagent, then the volume of that CO₂ from the ideal gas equation",
        givens=(
            Q("mC", r"m_{\mathrm{CaCO_3}}", r"\mathrm{g}", choices=span(1.0, 10.0, 0.5)),
            Q("MC", r"M_{\mathrm{CaCO_3}}", GMOL, choices=(100.0,)),
            Q("V", r"V_{\mathrm{HCl}}", r"\mathrm{mL}", choices=span(25, 250, 25)),
            Q("c", r"c_{\mathrm{HCl}}", MOLL, choices=(0.5, 1.0, 1.5, 2.0)),
            Q("T", "T", KELVIN, choices=(290.0, 300.0, 310.0, 320.0, 330.0)),
            Q("P", "P", ATM, choices=(0.8, 0.9, 1.2, 1.5, 2.0)),
            R_LATM,
        ),
        unknown=Q("Vg", r"V_{\mathrm{CO_2}}", r"\mathrm{L}"),
        chain=(
            Step(
                Q("nA", r"n_{\mathrm{HCl}}", r"\mathrm{mol}"),
                "Eq(nA, c*V/1000)",
                "molarity: moles of solute from the concentration and the volume",
                compute=lambda p: p["c"] * p["V"] / 1000,
            ),
            Step(
                Q("nG", r"n_{\mathrm{CO_2}}", r"\mathrm{mol}"),
                "Eq(nG, Min(mC/MC, nA/2))",
                "limiting reagent",
                compute=lambda p: _co2_moles(p),
            ),
        ),
        relation="Eq(P*Vg, nG*R*T)",
        concept="ideal gas equation",
        compute=lambda p: _co2_moles(p) * p["R"] * p["T"] / p["P"],
        mistakes=(
            Mistake(
                "basing the CO₂ on the reagent in excess",
                lambda p: _co2_moles(p, excess=True) * p["R"] * p["T"] / p["P"],
            ),
            Mistake(
                "using the molar volume 22.4 L mol⁻¹ whatever the temperature and pressure",
                lambda p: _co2_moles(p) * 22.4,
            ),
            Mistake(
                "taking one mole of HCl per mole of CO₂ (missing the 2 in 2HCl)",
                lambda p: _co2_moles(p, ratio=1.0) * p["R"] * p["T"] / p["P"],
            ),
            Mistake(
                "taking the moles of CO₂ equal to the moles of HCl",
                lambda p: p["c"] * p["V"] / 1000 * p["R"] * p["T"] / p["P"],
            ),
            unit_slip(
                "using R = 8.314 with the pressure in atm and the volume in L",
                lambda p: _co2_moles(p) * R_J * p["T"] / p["P"],
            ),
        ),
        stem="A piece of marble (pure CaCO₃) of mass {mC}, with {MC}, is dropped into {V} of "
        "hydrochloric acid of concentration {c}, and the reaction CaCO₃(s) + 2HCl(aq) → "
        "CaCl₂(aq) + H₂O(l) + CO₂(g) goes as far as it can. The CO₂ is collected at a "
        "temperature {T} and a pressure {P}. Taking {R} and treating CO₂ as an ideal gas, the "
        "volume of CO₂ collected is",
        method="Moles of HCl: $n_{{\\mathrm{{HCl}}}} = cV = {c} \\times \\dfrac{{{V}}}{{1000}} = "
        "{nA}$ mol; moles of CaCO₃ $= {mC}/{MC}$. Each mole of CaCO₃ needs two moles of HCl and "
        "gives one mole of CO₂, so the CO₂ is the smaller of $n_{{\\mathrm{{CaCO_3}}}}$ and "
        "$\\tfrac{{1}}{{2}}n_{{\\mathrm{{HCl}}}}$ (set by the limiting reagent): "
        "$n_{{\\mathrm{{CO_2}}}} = {nG}$ mol. Then $V = \\dfrac{{nRT}}{{P}} = "
        "\\dfrac{{{nG} \\times {R} \\times {T}}}{{{P}}}$ $=$ {answer}.",
        accept=_clear_limiting,
    ),
    NumericalTemplate(
        "che-chain-vapour-density-molecular-formula-co2",
        CHE,
        "che-percentage-composition",
        Demand(steps=3, concepts=3),
        "the molar mass from the vapour density, then the molecular formula from the empirical "
        "formula, then the mass of CO₂ from the combustion stoichiometry",
        givens=(
            Q("EF", r"M_{\mathrm{CH_2}}", GMOL, choices=(14.0,)),
            Q("VD", r"\mathrm{VD}", choices=(14.0, 21.0, 28.0, 35.0, 42.0, 49.0, 56.0)),
            Q("n", "n", r"\mathrm{mol}", choices=span(0.05, 0.5, 0.05)),
            Q("MD", r"M_{\mathrm{CO_2}}", GMOL, choices=(44.0,)),
        ),
        unknown=Q("m", r"m_{\mathrm{CO_2}}", r"\mathrm{g}"),
        chain=(
            Step(
                Q("Mm", "M", GMOL),
                "Eq(Mm, 2*VD)",
                "molar mass from vapour density",
                compute=lambda p: 2 * p["VD"],
            ),
            Step(
                Q("k", "k"),
                "Eq(k*EF, Mm)",
                "molecular formula from the empirical formula",
                compute=lambda p: 2 * p["VD"] / p["EF"],
            ),
        ),
        relation="Eq(m, n*k*MD)",
        concept="combustion stoichiometry: one CO₂ for each carbon atom",
        compute=lambda p: p["n"] * 2 * p["VD"] / p["EF"] * p["MD"],
        mistakes=(
            Mistake(
                "taking the molar mass equal to the vapour density (dropping the 2)",
                lambda p: p["n"] * p["VD"] / p["EF"] * p["MD"],
            ),
            Mistake(
                "taking the empirical formula CH₂ as the molecular formula",
                lambda p: p["n"] * p["MD"],
            ),
            Mistake(
                "counting the mass of carbon (12 g mol⁻¹) instead of CO₂",
                lambda p: p["n"] * 2 * p["VD"] / p["EF"] * 12,
            ),
            Mistake(
                "giving the mass of the hydrocarbon burnt, n × M",
                lambda p: p["n"] * 2 * p["VD"],
            ),
        ),
        stem="A hydrocarbon has the empirical formula CH₂, with {EF}, and its vapour "
        "density (relative to hydrogen) is {VD}. A sample of {n} of the hydrocarbon is burnt "
        "completely in excess oxygen. Taking {MD}, the mass of carbon dioxide formed is",
        method="Molar mass $M = 2 \\times \\mathrm{{VD}} = 2 \\times {VD} = {Mm}$ g mol⁻¹. The "
        "molecular formula is $(\\mathrm{{CH_2}})_k$ with $k = \\dfrac{{{Mm}}}{{{EF}}} = {k}$, so "
        "each molecule has $k$ carbon atoms and gives $k$ molecules of CO₂. Then "
        "$m_{{\\mathrm{{CO_2}}}} = n \\times k \\times M_{{\\mathrm{{CO_2}}}} = {n} \\times {k} "
        "\\times {MD}$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "che-chain-oxygen-cylinder-kclo3-mass",
        CHE,
        "che-stoichiometry",
        Demand(steps=2, concepts=2),
        "the moles of O₂ from the ideal gas equation, then the mass of KClO₃ from the 2 : 3 "
        "stoichiometry of its decomposition",
        givens=(
            Q("V", "V", r"\mathrm{L}", choices=span(1.0, 10.0, 0.5)),
            Q("P", "P", ATM, choices=(0.5, 0.8, 1.5, 2.0, 2.5, 3.0)),
            Q("T", "T", KELVIN, choices=span(280, 330, 5)),
            R_LATM,
            Q("M", r"M_{\mathrm{KClO_3}}", GMOL, choices=(122.5,)),
        ),
        unknown=Q("m", r"m_{\mathrm{KClO_3}}", r"\mathrm{g}"),
        chain=(
            Step(
                Q("nO", r"n_{\mathrm{O_2}}", r"\mathrm{mol}"),
                "Eq(P*V, nO*R*T)",
                "ideal gas equation",
                compute=lambda p: p["P"] * p["V"] / (p["R"] * p["T"]),
            ),
        ),
        relation="Eq(m, 2*nO/3*M)",
        concept="reaction stoichiometry: mass of reactant from moles of product",
        compute=lambda p: 2 / 3 * p["P"] * p["V"] / (p["R"] * p["T"]) * p["M"],
        mistakes=(
            Mistake(
                "taking one mole of KClO₃ per mole of O₂ (ignoring the 2 : 3 ratio)",
                lambda p: p["P"] * p["V"] / (p["R"] * p["T"]) * p["M"],
            ),
            Mistake(
                "inverting the ratio, 3/2 mol of KClO₃ per mole of O₂",
                lambda p: 1.5 * p["P"] * p["V"] / (p["R"] * p["T"]) * p["M"],
            ),
            Mistake(
                "using the molar volume 22.4 L mol⁻¹ whatever the temperature and pressure",
                lambda p: 2 / 3 * p["V"] / 22.4 * p["M"],
            ),
            Mistake(
                "counting oxygen atoms instead of O₂ molecules",
                lambda p: 4 / 3 * p["P"] * p["V"] / (p["R"] * p["T"]) * p["M"],
            ),
            unit_slip(
                "using R = 8.314 with the pressure in atm and the volume in L",
                lambda p: 2 / 3 * p["P"] * p["V"] / (R_J * p["T"]) * p["M"],
            ),
        ),
        stem="A steel vessel of volume {V} is to be filled with oxygen at a pressure {P} and a "
        "temperature {T}, the oxygen being made by heating potassium chlorate: "
        "2KClO₃(s) → 2KCl(s) + 3O₂(g). Taking {R}, treating O₂ as an ideal gas and taking "
        "{M}, the minimum mass of KClO₃ that must be decomposed is",
        method="Moles of O₂ needed: $n = \\dfrac{{PV}}{{RT}} = \\dfrac{{{P} \\times {V}}}"
        "{{{R} \\times {T}}} = {nO}$ mol. Two moles of KClO₃ give three moles of O₂, so "
        "$n_{{\\mathrm{{KClO_3}}}} = \\tfrac{{2}}{{3}}n$ and "
        "$m = \\tfrac{{2}}{{3}} \\times {nO} \\times {M}$ $=$ {answer}.",
    ),
)

# ---------------------------------------------------------------- che-u02 Atomic Structure


def _bohr_gap(p: Params, power: float = 2.0) -> float:
    """Energy of the photon from the Bohr levels n_i → n_f of hydrogen, in J (`power` 1: the
    student who uses 1/n instead of 1/n²)."""
    return p["RH"] * (1 / p["nf"] ** power - 1 / p["ni"] ** power)


def _speed(kinetic: float, mass: float) -> float:
    return math.sqrt(2 * kinetic / mass) if kinetic > 0 else math.nan


U02: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-chain-bohr-photoelectron-speed",
        CHE,
        "che-quantum-theory-of-radiation",
        Demand(steps=3, concepts=3),
        "the photon energy from the difference of two Bohr energy levels, then the kinetic "
        "energy of the photoelectron from Einstein's photoelectric equation, then its speed from "
        "K = ½mv²",
        givens=(
            Q("ni", "n_i", choices=(2.0, 3.0, 4.0, 5.0, 6.0)),
            Q("nf", "n_f", choices=(1.0, 2.0)),
            RYDBERG_J,
            Q("W0", "W_0", r"\mathrm{eV}", si=EV, choices=(2.25, 2.3, 2.42, 3.7, 4.3, 4.8)),
            M_ELECTRON,
        ),
        unknown=Q("v", r"v_{\mathrm{max}}", r"\mathrm{km\,s^{-1}}", si=1000),
        chain=(
            Step(
                Q("dE", "E", r"\mathrm{J}"),
                "Eq(dE, RH*(1/nf**2 - 1/ni**2))",
                "Bohr energy levels of the hydrogen atom",
                compute=_bohr_gap,
            ),
            Step(
                Q("K", "K", r"\mathrm{J}"),
                "Eq(K, dE - W0)",
                "Einstein's photoelectric equation",
                compute=lambda p: _bohr_gap(p) - p["W0"],
            ),
        ),
        relation="Eq(K, me*v**2/2)",
        concept="kinetic energy and speed of the photoelectron",
        compute=lambda p: _speed(_bohr_gap(p) - p["W0"], p["me"]),
        mistakes=(
            Mistake(
                "ignoring the work function (all of the photon energy as kinetic energy)",
                lambda p: _speed(_bohr_gap(p), p["me"]),
            ),
            Mistake(
                "dropping the ½ in K = ½mv²",
                lambda p: _speed((_bohr_gap(p) - p["W0"]) / 2, p["me"]),
            ),
            Mistake(
                "adding the work function to the photon energy",
                lambda p: _speed(_bohr_gap(p) + p["W0"], p["me"]),
            ),
            Mistake(
                "using 1/n instead of 1/n² for the Bohr energy levels",
                lambda p: _speed(_bohr_gap(p, power=1.0) - p["W0"], p["me"]),
            ),
        ),
        stem="In a hydrogen atom the electron falls from the orbit with {ni} to the orbit with "
        "{nf}. The energy of the orbit n of the hydrogen atom is −R_H/n², with {RH}. The "
        "photon emitted falls on a clean metal surface whose work function is {W0}. Taking "
        "{me}, the maximum speed of the photoelectrons ejected is",
        method="Photon energy from the Bohr levels: $E = R_{{\\mathrm{{H}}}}\\left(\\dfrac{{1}}"
        "{{n_f^2}} - \\dfrac{{1}}{{n_i^2}}\\right) = {RH}\\left(\\dfrac{{1}}{{{nf}^2}} - "
        "\\dfrac{{1}}{{{ni}^2}}\\right) = {dE}$ J. Einstein's equation: $K_{{\\max}} = E - W_0 "
        "= {dE} - {W0} \\times 1.602 \\times 10^{{-19}} = {K}$ J. Then "
        "$\\tfrac{{1}}{{2}}m_e v^2 = K_{{\\max}}$, so $v = \\sqrt{{\\dfrac{{2K_{{\\max}}}}"
        "{{m_e}}}}$ $=$ {answer}.",
        accept=lambda p: p["ni"] > p["nf"] and _bohr_gap(p) - p["W0"] >= 0.3 * EV,
    ),
    NumericalTemplate(
        "che-chain-bohr-speed-de-broglie",
        CHE,
        "che-de-broglie-and-uncertainty",
        Demand(steps=2, concepts=2),
        "the speed of the electron in the orbit from the Bohr model (v ∝ Z/n), then its de "
        "Broglie wavelength λ = h/mv",
        givens=(
            Q("v1", "v_1", MS, choices=(2.18e6,)),
            M_ELECTRON,
            H_PLANCK,
            Q("n", "n", choices=(1.0, 2.0, 3.0, 4.0, 5.0)),
            Q("Z", "Z", choices=(1.0, 2.0, 3.0, 4.0)),
        ),
        unknown=Q("lam", r"\lambda", r"\mathrm{pm}", si=1e-12),
        chain=(
            Step(
                Q("v", "v", MS),
                "Eq(v*n, v1*Z)",
                "Bohr model: speed of the electron in the orbit n of a hydrogen-like species",
                compute=lambda p: p["v1"] * p["Z"] / p["n"],
            ),
        ),
        relation="Eq(lam*me*v, h)",
        concept="de Broglie relation",
        compute=lambda p: p["h"] * p["n"] / (p["me"] * p["v1"] * p["Z"]),
        mistakes=(
            Mistake(
                "inverting the Bohr relation, v ∝ n/Z",
                lambda p: p["h"] * p["Z"] / (p["me"] * p["v1"] * p["n"]),
            ),
            Mistake(
                "ignoring Z (taking the speed in hydrogen's orbit)",
                lambda p: p["h"] * p["n"] / (p["me"] * p["v1"]),
            ),
            Mistake(
                "taking v ∝ Z/n², as for the energy",
                lambda p: p["h"] * p["n"] ** 2 / (p["me"] * p["v1"] * p["Z"]),
            ),
            Mistake(
                "using ħ = h/2π instead of h",
                lambda p: p["h"] * p["n"] / (2 * math.pi * p["me"] * p["v1"] * p["Z"]),
            ),
        ),
        stem="In the Bohr model, the electron in the first orbit of the hydrogen atom moves with "
        "speed {v1}. Taking {me} and {h}, the de Broglie wavelength of the electron in the "
        "orbit {n} of a hydrogen-like species with atomic number {Z} is",
        method="In the Bohr model the speed in the orbit $n$ of a species of atomic number $Z$ is "
        "$v = v_1\\dfrac{{Z}}{{n}} = {v1} \\times \\dfrac{{{Z}}}{{{n}}} = {v}$ m s⁻¹. Then "
        "$\\lambda = \\dfrac{{h}}{{m_e v}} = \\dfrac{{{h}}}{{{me} \\times {v}}}$ m $=$ "
        "{answer}.",
        # Z = n makes the Bohr slips vanish; v ∝ n/Z must stay within a factor 10 of v ∝ Z/n
        accept=lambda p: p["Z"] != p["n"] and 1 / 3 <= p["Z"] / p["n"] <= 3,
    ),
    NumericalTemplate(
        "che-chain-hydrogen-like-ion-line-wavelength",
        CHE,
        "che-hydrogen-atomic-spectrum",
        Demand(steps=2, concepts=2),
        "the energy of the transition from the Bohr levels of a hydrogen-like ion (E ∝ Z²/n²), "
        "then the wavelength of the photon from E = hc/λ",
        givens=(
            Q("Z", "Z", choices=(2.0, 3.0)),
            Q("ni", "n_i", choices=(2.0, 3.0, 4.0, 5.0, 6.0)),
            Q("nf", "n_f", choices=(1.0, 2.0, 3.0, 4.0)),
            RYDBERG_J,
            H_PLANCK,
            C_LIGHT,
        ),
        unknown=Q("lam", r"\lambda", r"\mathrm{nm}", si=1e-9),
        chain=(
            Step(
                Q("dE", r"\Delta E", r"\mathrm{J}"),
                "Eq(dE, RH*Z**2*(1/nf**2 - 1/ni**2))",
                "Bohr energy levels of a hydrogen-like species",
                compute=lambda p: p["Z"] ** 2 * _bohr_gap(p),
            ),
        ),
        relation="Eq(dE*lam, h*c)",
        concept="photon energy and wavelength (Planck)",
        compute=lambda p: p["h"] * p["c"] / (p["Z"] ** 2 * _bohr_gap(p)),
        mistakes=(
            Mistake(
                "leaving out Z² (using the hydrogen levels)",
                lambda p: p["h"] * p["c"] / _bohr_gap(p),
            ),
            Mistake(
                "using Z instead of Z²",
                lambda p: p["h"] * p["c"] / (p["Z"] * _bohr_gap(p)),
            ),
            Mistake(
                "adding the inverse squares",
                lambda p: (
                    p["h"]
                    * p["c"]
                    / (p["Z"] ** 2 * p["RH"] * (1 / p["nf"] ** 2 + 1 / p["ni"] ** 2))
                ),
            ),
            Mistake(
                "using 1/n instead of 1/n² for the Bohr energy levels",
                lambda p: p["h"] * p["c"] / (p["Z"] ** 2 * _bohr_gap(p, power=1.0)),
            ),
        ),
        stem="In a hydrogen-like ion with atomic number {Z}, the electron falls from the orbit "
        "with {ni} to the orbit with {nf}. The ground-state energy of the hydrogen atom is "
        "−R_H with {RH}. Taking {h} and {c}, the wavelength of the photon emitted is",
        method="For a hydrogen-like species $E_n = -\\dfrac{{R_{{\\mathrm{{H}}}}Z^2}}{{n^2}}$, so "
        "$\\Delta E = R_{{\\mathrm{{H}}}}Z^2\\left(\\dfrac{{1}}{{n_f^2}} - \\dfrac{{1}}{{n_i^2}}"
        "\\right) = {RH} \\times {Z}^2\\left(\\dfrac{{1}}{{{nf}^2}} - \\dfrac{{1}}{{{ni}^2}}"
        "\\right) = {dE}$ J. Then $\\lambda = \\dfrac{{hc}}{{\\Delta E}} = "
        "\\dfrac{{{h} \\times {c}}}{{{dE}}}$ m $=$ {answer}.",
        accept=lambda p: 1 <= p["ni"] - p["nf"] <= 3,
    ),
)

# ---------------------------------------------------------------- che-u04 Chemical Thermodynamics
# 2SO₂(g) + O₂(g) → 2SO₃(g): NCERT-table values of ΔfH° (kJ mol⁻¹) and S° (J K⁻¹ mol⁻¹).
CELSIUS = r"^\circ\mathrm{C}"


def _so3_gibbs(p: Params, *, celsius: bool = False, o2: bool = True, coeff: float = 2.0) -> float:
    """ΔG° (kJ mol⁻¹) of 2SO₂ + O₂ → 2SO₃ at t °C; the switches are the students' slips."""
    d_h = coeff * (p["H3"] - p["H2"])
    d_s = coeff * (p["S3"] - p["S2"]) - (p["SO"] if o2 else 0.0)
    kelvin = p["t"] if celsius else p["t"] + 273.15
    return d_h - kelvin * d_s / 1000


def _bond_heat(p: Params) -> float:
    """Heat released (kJ) when the given mass of H₂ burns in chlorine, from bond enthalpies."""
    d_h = p["HH"] + p["ClCl"] - 2 * p["HCl"]
    return -d_h * p["mH"] / p["MH"]


def _entropy_from_k(p: Params, *, log: float = 1.0, sign: float = 1.0, kj: float = 1.0) -> float:
    """ΔS° (J K⁻¹ mol⁻¹) from K and ΔH° (J mol⁻¹ in SI); `log` 2.303 drops the factor 2.303,
    `sign` −1 flips ΔG° = −RT ln K, `kj` 1000 leaves ΔH° in kJ."""
    d_g = -sign * p["R"] * p["T"] * math.log(p["K"]) / log
    return (p["dH"] / kj - d_g) / p["T"]


U04: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-chain-so3-hess-entropy-gibbs",
        CHE,
        "che-gibbs-energy-and-equilibrium",
        Demand(steps=3, concepts=3),
        "ΔrH° from the enthalpies of formation (Hess's law), then ΔrS° from the standard molar "
        "entropies, then ΔG° = ΔH° − TΔS° at the temperature in kelvin",
        givens=(
            Q("H2", r"\Delta_f H^\circ(\mathrm{SO_2})", KJMOL, choices=(-296.8,)),
            Q("H3", r"\Delta_f H^\circ(\mathrm{SO_3})", KJMOL, choices=(-395.7,)),
            Q("S2", r"S^\circ(\mathrm{SO_2})", JKMOL, choices=(248.2,)),
            Q("SO", r"S^\circ(\mathrm{O_2})", JKMOL, choices=(205.1,)),
            Q("S3", r"S^\circ(\mathrm{SO_3})", JKMOL, choices=(256.8,)),
            Q("t", "t", CELSIUS, choices=span(25, 450, 5)),
        ),
        unknown=Q("dG", r"\Delta_r G^\circ", KJMOL),
        chain=(
            Step(
                Q("dH", r"\Delta_r H^\circ", KJMOL),
                "Eq(dH, 2*H3 - 2*H2)",
                "Hess's law: reaction enthalpy from enthalpies of formation",
                compute=lambda p: 2 * (p["H3"] - p["H2"]),
            ),
            Step(
                Q("dS", r"\Delta_r S^\circ", JKMOL),
                "Eq(dS, 2*S3 - 2*S2 - SO)",
                "entropy change of a reaction from standard molar entropies",
                compute=lambda p: 2 * (p["S3"] - p["S2"]) - p["SO"],
            ),
        ),
        relation="Eq(dG, dH - (t + 273.15)*dS/1000)",
        concept="Gibbs energy change, ΔG = ΔH − TΔS",
        compute=_so3_gibbs,
        mistakes=(
            Mistake(
                "using the Celsius temperature in ΔG° = ΔH° − TΔS°",
                lambda p: _so3_gibbs(p, celsius=True),
            ),
            Mistake(
                "a sign slip, ΔG° = ΔH° + TΔS°",
                lambda p: (
                    2 * (p["H3"] - p["H2"])
                    + (p["t"] + 273.15) * (2 * (p["S3"] - p["S2"]) - p["SO"]) / 1000
                ),
            ),
            Mistake(
                "taking S°(O₂) as zero, as if it were an enthalpy of formation of an element",
                lambda p: _so3_gibbs(p, o2=False),
            ),
            Mistake(
                "ignoring the coefficients 2 of SO₂ and SO₃",
                lambda p: _so3_gibbs(p, coeff=1.0),
            ),
        ),
        stem="For the reaction 2SO₂(g) + O₂(g) → 2SO₃(g), the standard enthalpies of formation "
        "are {H2} and {H3}, and the standard molar entropies are {S2}, {SO} and {S3}. Assuming "
        "that ΔH° and ΔS° of the reaction do not change with temperature, the standard Gibbs "
        "energy change of the reaction at {t} is",
        method="Hess's law: $\\Delta_r H^\\circ = 2\\Delta_f H^\\circ(\\mathrm{{SO_3}}) - "
        "2\\Delta_f H^\\circ(\\mathrm{{SO_2}}) = 2({H3}) - 2({H2}) = {dH}$ kJ mol⁻¹ (O₂ is an "
        "element in its standard state). Entropy: $\\Delta_r S^\\circ = 2({S3}) - 2({S2}) - {SO} "
        "= {dS}$ J K⁻¹ mol⁻¹. With $T = {t} + 273.15$ K and $\\Delta S^\\circ$ in kJ, "
        "$\\Delta_r G^\\circ = \\Delta_r H^\\circ - T\\Delta_r S^\\circ$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "che-chain-bond-enthalpy-hcl-calorimeter",
        CHE,
        "che-enthalpies-of-reaction",
        Demand(steps=3, concepts=3),
        "ΔrH from the bond enthalpies (bonds broken minus bonds formed), then the heat released "
        "by the moles of H₂ burnt, then the temperature rise of the water from q = mcΔT",
        givens=(
            Q("HH", r"\Delta H_{\mathrm{H-H}}", KJMOL, choices=(435.0, 436.0)),
            Q("ClCl", r"\Delta H_{\mathrm{Cl-Cl}}", KJMOL, choices=(242.0, 243.0)),
            Q("HCl", r"\Delta H_{\mathrm{H-Cl}}", KJMOL, choices=(431.0, 432.0)),
            Q("mH", r"m_{\mathrm{H_2}}", r"\mathrm{g}", choices=span(0.05, 0.5, 0.05)),
            Q("MH", r"M_{\mathrm{H_2}}", GMOL, choices=(2.0,)),
            Q("mw", r"m_{\mathrm{water}}", r"\mathrm{g}", choices=span(500, 2000, 100)),
            Q("c", "c", r"\mathrm{J\,g^{-1}\,K^{-1}}", choices=(4.18,)),
        ),
        unknown=Q("dT", r"\Delta T", KELVIN),
        chain=(
            Step(
                Q("dH", r"\Delta_r H", KJMOL),
                "Eq(dH, HH + ClCl - 2*HCl)",
                "reaction enthalpy from bond enthalpies",
                compute=lambda p: p["HH"] + p["ClCl"] - 2 * p["HCl"],
            ),
            Step(
                Q("q", "q", r"\mathrm{kJ}"),
                "Eq(q, -dH*mH/MH)",
                "heat of reaction for the moles that react (thermochemical stoichiometry)",
                compute=_bond_heat,
            ),
        ),
        relation="Eq(1000*q, mw*c*dT)",
        concept="calorimetry, q = mcΔT",
        compute=lambda p: 1000 * _bond_heat(p) / (p["mw"] * p["c"]),
        mistakes=(
            Mistake(
                "leaving out the Cl–Cl bond broken",
                lambda p: 1000 * (2 * p["HCl"] - p["HH"]) * p["mH"] / p["MH"] / (p["mw"] * p["c"]),
            ),
            Mistake(
                "taking ΔH per mole of HCl (halving it)",
                lambda p: 500 * _bond_heat(p) / (p["mw"] * p["c"]),
            ),
            Mistake(
                "taking the molar mass of H₂ as 1 g mol⁻¹",
                lambda p: 2000 * _bond_heat(p) / (p["mw"] * p["c"]),
            ),
            Mistake(
                "counting only the bonds formed (2 × H–Cl)",
                lambda p: 1000 * 2 * p["HCl"] * p["mH"] / p["MH"] / (p["mw"] * p["c"]),
            ),
            unit_slip(
                "putting the mass of water in kg with c in J g⁻¹ K⁻¹",
                lambda p: 1e6 * _bond_heat(p) / (p["mw"] * p["c"]),
            ),
        ),
        stem="Hydrogen burns in excess chlorine: H₂(g) + Cl₂(g) → 2HCl(g). The bond enthalpies "
        "are {HH}, {ClCl} and {HCl}. A mass {mH} of hydrogen, with {MH}, is burnt in this way "
        "inside a calorimeter, and all the heat released is taken up by {mw} of water, with "
        "{c}. The rise in the temperature of the water is",
        method="Bonds broken minus bonds formed: $\\Delta_r H = {HH} + {ClCl} - 2 \\times {HCl} "
        "= {dH}$ kJ per mole of H₂. Moles of H₂ burnt $= {mH}/{MH}$, so the heat released is "
        "$q = {q}$ kJ. Then $\\Delta T = \\dfrac{{q}}{{mc}} = \\dfrac{{{q} \\times 1000}}"
        "{{{mw} \\times {c}}}$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "che-chain-equilibrium-constant-gibbs-entropy",
        CHE,
        "che-gibbs-energy-and-equilibrium",
        Demand(steps=2, concepts=2),
        "ΔG° from the equilibrium constant (ΔG° = −2.303RT log K), then ΔS° from ΔG° = ΔH° − TΔS°",
        givens=(
            Q("T", "T", KELVIN, choices=span(300, 800, 25)),
            Q("K", "K", choices=_sci((1.0, 2.0, 5.0), (-4, -3, -2, -1, 0, 1, 2, 3, 4))),
            Q("dH", r"\Delta H^\circ", KJMOL, si=1000, choices=span(-90, 120, 10)),
            R_SI,
        ),
        unknown=Q("dS", r"\Delta S^\circ", JKMOL),
        chain=(
            Step(
                Q("dG", r"\Delta G^\circ", KJMOL, si=1000),
                "Eq(dG, -R*T*log(K))",
                "standard Gibbs energy and the equilibrium constant",
                compute=lambda p: -p["R"] * p["T"] * math.log(p["K"]),
            ),
        ),
        relation="Eq(dG, dH - T*dS)",
        concept="Gibbs energy change, ΔG = ΔH − TΔS",
        compute=_entropy_from_k,
        mistakes=(
            Mistake(
                "using log₁₀ K without the factor 2.303",
                lambda p: _entropy_from_k(p, log=math.log(10)),
            ),
            Mistake(
                "a sign slip, ΔG° = +2.303RT log K",
                lambda p: _entropy_from_k(p, sign=-1.0),
            ),
            Mistake(
                "taking ΔG° = 0 because the system is at equilibrium (ΔS° = ΔH°/T)",
                lambda p: p["dH"] / p["T"],
            ),
            unit_slip(
                "leaving ΔH° in kJ while ΔG° is in J",
                lambda p: _entropy_from_k(p, kj=1000.0),
            ),
        ),
        stem="At {T}, the equilibrium constant of a reaction is {K}, and its standard enthalpy "
        "change is {dH}. Taking {R}, the standard entropy change of the reaction at this "
        "temperature is",
        method="$\\Delta G^\\circ = -2.303RT\\log_{{10}}K = -2.303 \\times {R} \\times {T} "
        "\\times \\log_{{10}}({K})$ J mol⁻¹ $= {dG}$ kJ mol⁻¹. Then from "
        "$\\Delta G^\\circ = \\Delta H^\\circ - T\\Delta S^\\circ$, "
        "$\\Delta S^\\circ = \\dfrac{{\\Delta H^\\circ - \\Delta G^\\circ}}{{T}} = "
        "\\dfrac{{({dH} - ({dG})) \\times 1000}}{{{T}}}$ $=$ {answer}.",
        # a realistic ΔS°, and one the sign slip does not turn into a near-zero giveaway
        accept=lambda p: (
            p["dH"] != 0
            and abs(math.log(p["K"])) >= 2
            and 40 <= abs(_entropy_from_k(p)) <= 250
            and abs(_entropy_from_k(p, sign=-1.0)) >= 0.15 * abs(_entropy_from_k(p))
        ),
    ),
)

# ---------------------------------------------------------------- che-u05 Solutions


def _x_dcm(p: Params) -> float:
    """Mole fraction of CH₂Cl₂ in the liquid."""
    n1, n2 = p["w1"] / p["M1"], p["w2"] / p["M2"]
    return n1 / (n1 + n2)


def _y_dcm(x: float, p: Params) -> float:
    """Mole fraction of CH₂Cl₂ in the vapour over a liquid in which its mole fraction is x."""
    return x * p["p1"] / (x * p["p1"] + (1 - x) * p["p2"])


def _osmotic(p: Params, i: float, r: float | None = None, litres: float = 1000.0) -> float:
    """π (atm) of the Na₂SO₄ solution for a van 't Hoff factor i (and the student's R and mL)."""
    return i * p["w"] / p["M"] / (p["V"] / litres) * (r or p["R"]) * p["T"]


def _glycol_molality(p: Params) -> float:
    return 1000 * p["w"] / (p["M"] * (100 - p["w"]))


U05: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-chain-raoult-vapour-composition",
        CHE,
        "che-raoults-law",
        Demand(steps=3, concepts=3),
        "the mole fraction in the liquid from the masses, then the total vapour pressure from "
        "Raoult's law, then the mole fraction in the vapour from Dalton's law of partial "
        "pressures",
        givens=(
            Q("w1", r"m_{\mathrm{CH_2Cl_2}}", r"\mathrm{g}", choices=span(10, 80, 5)),
            Q("M1", r"M_{\mathrm{CH_2Cl_2}}", GMOL, choices=(85.0,)),
            Q("w2", r"m_{\mathrm{CHCl_3}}", r"\mathrm{g}", choices=span(10, 120, 5)),
            Q("M2", r"M_{\mathrm{CHCl_3}}", GMOL, choices=(119.5,)),
            Q("p1", r"p^\circ_{\mathrm{CH_2Cl_2}}", r"\mathrm{mm\,Hg}", choices=(415.0,)),
            Q("p2", r"p^\circ_{\mathrm{CHCl_3}}", r"\mathrm{mm\,Hg}", choices=(200.0,)),
        ),
        unknown=Q("y", r"y_{\mathrm{CH_2Cl_2}}", bounds=(0.0, 1.0)),
        chain=(
            Step(
                Q("x", r"x_{\mathrm{CH_2Cl_2}}"),
                "Eq(x*(w1/M1 + w2/M2), w1/M1)",
                "mole fraction from masses",
                compute=_x_dcm,
            ),
            Step(
                Q("p", r"p_{\mathrm{total}}", r"\mathrm{mm\,Hg}"),
                "Eq(p, x*p1 + (1 - x)*p2)",
                "Raoult's law for an ideal solution of two volatile liquids",
                compute=lambda p: _x_dcm(p) * p["p1"] + (1 - _x_dcm(p)) * p["p2"],
            ),
        ),
        relation="Eq(y*p, x*p1)",
        concept="Dalton's law of partial pressures in the vapour",
        compute=lambda p: _y_dcm(_x_dcm(p), p),
        mistakes=(
            Mistake("reporting the mole fraction in the liquid", _x_dcm),
            Mistake(
                "using mass fractions in place of mole fractions",
                lambda p: _y_dcm(p["w1"] / (p["w1"] + p["w2"]), p),
            ),
            Mistake(
                "ignoring the composition: y = p°₁/(p°₁ + p°₂)",
                lambda p: p["p1"] / (p["p1"] + p["p2"]),
            ),
            Mistake(
                "giving the vapour mole fraction of chloroform instead",
                lambda p: 1 - _y_dcm(_x_dcm(p), p),
            ),
        ),
        stem="At 298 K, {w1} of dichloromethane, with {M1}, is mixed with {w2} of chloroform, "
        "with {M2}, to give an ideal solution. At this temperature the vapour pressures of the "
        "pure liquids are {p1} and {p2}. The mole fraction of dichloromethane in the vapour in "
        "equilibrium with the solution is",
        method="Mole fraction in the liquid: $x = \\dfrac{{{w1}/{M1}}}{{{w1}/{M1} + {w2}/{M2}}} = "
        "{x}$. Raoult's law: $p = x p^\\circ_{{\\mathrm{{CH_2Cl_2}}}} + (1 - x) "
        "p^\\circ_{{\\mathrm{{CHCl_3}}}} = {x} \\times {p1} + (1 - {x}) \\times {p2} = {p}$ "
        "mm Hg. Dalton's law: the partial pressure of CH₂Cl₂ is $x p^\\circ$, so "
        "$y = \\dfrac{{x p^\\circ_{{\\mathrm{{CH_2Cl_2}}}}}}{{p}} = \\dfrac{{{x} \\times {p1}}}"
        "{{{p}}}$ $=$ {answer}.",
        accept=lambda p: 0.15 <= _x_dcm(p) <= 0.75,
    ),
    NumericalTemplate(
        "che-chain-osmotic-pressure-sodium-sulphate",
        CHE,
        "che-vant-hoff-factor",
        Demand(steps=3, concepts=3),
        "the molarity from the mass and the volume, then the van 't Hoff factor from the degree "
        "of dissociation into three ions, then the osmotic pressure π = iCRT",
        givens=(
            Q("w", "w", r"\mathrm{g}", choices=span(0.5, 5.0, 0.1)),
            Q("M", r"M_{\mathrm{Na_2SO_4}}", GMOL, choices=(142.0,)),
            Q("V", "V", r"\mathrm{mL}", choices=span(100, 1000, 50)),
            Q("alpha", r"\alpha", choices=span(0.6, 0.9, 0.05)),
            R_LATM,
            Q("T", "T", KELVIN, choices=span(285, 310, 5)),
        ),
        unknown=Q("pi", r"\pi", ATM),
        chain=(
            Step(
                Q("C", "C", MOLL),
                "Eq(C*V/1000, w/M)",
                "molarity from the mass of solute and the volume of solution",
                compute=lambda p: p["w"] / p["M"] / (p["V"] / 1000),
            ),
            Step(
                Q("i", "i"),
                "Eq(i, 1 + 2*alpha)",
                "van 't Hoff factor from the degree of dissociation",
                compute=lambda p: 1 + 2 * p["alpha"],
            ),
        ),
        relation="Eq(pi, i*C*R*T)",
        concept="osmotic pressure",
        compute=lambda p: _osmotic(p, 1 + 2 * p["alpha"]),
        mistakes=(
            Mistake("ignoring the dissociation (i = 1)", lambda p: _osmotic(p, 1.0)),
            Mistake(
                "taking i = 1 + α, as for a salt giving two ions",
                lambda p: _osmotic(p, 1 + p["alpha"]),
            ),
            Mistake("assuming complete dissociation (i = 3)", lambda p: _osmotic(p, 3.0)),
            unit_slip(
                "using R = 8.314 with the pressure in atm",
                lambda p: _osmotic(p, 1 + 2 * p["alpha"], r=R_J),
            ),
        ),
        stem="A mass {w} of sodium sulphate, with {M}, is dissolved in water and the solution is "
        "made up to {V}. In this solution the salt is dissociated to the extent {alpha}. Taking "
        "{R}, the osmotic pressure of the solution at {T} is",
        method="Molarity: $C = \\dfrac{{{w}/{M}}}{{{V}/1000}} = {C}$ mol L⁻¹. "
        "Na₂SO₄ → 2Na⁺ + SO₄²⁻ gives three ions, so $i = 1 + (3 - 1)\\alpha = 1 + 2 \\times "
        "{alpha} = {i}$. Then $\\pi = iCRT = {i} \\times {C} \\times {R} \\times {T}$ $=$ "
        "{answer}.",
    ),
    NumericalTemplate(
        "che-chain-antifreeze-mass-percent-freezing",
        CHE,
        "che-colligative-properties",
        Demand(steps=2, concepts=2),
        "the molality from the mass percentage (per kilogram of water, not of solution), then "
        "the depression of the freezing point ΔTf = Kf m",
        givens=(
            Q("M", r"M_{\mathrm{C_2H_6O_2}}", GMOL, choices=(62.0,)),
            Q("w", "w", r"\%", choices=span(8, 40, 1)),
            Q("d", "d", r"\mathrm{g\,mL^{-1}}", choices=span(1.01, 1.055, 0.005)),
            Q("Kf", "K_f", r"\mathrm{K\,kg\,mol^{-1}}", choices=(1.86,)),
        ),
        unknown=Q("dT", r"\Delta T_f", KELVIN),
        chain=(
            Step(
                Q("m", "m", r"\mathrm{mol\,kg^{-1}}"),
                "Eq(m*M*(100 - w), 1000*w)",
                "molality from the mass percentage",
                compute=_glycol_molality,
            ),
        ),
        relation="Eq(dT, Kf*m)",
        concept="depression of the freezing point",
        compute=lambda p: p["Kf"] * _glycol_molality(p),
        mistakes=(
            Mistake(
                "dividing by the mass of the solution (100 g) instead of the water",
                lambda p: p["Kf"] * 10 * p["w"] / p["M"],
            ),
            Mistake(
                "using the molarity (from the density) in place of the molality",
                lambda p: p["Kf"] * 10 * p["w"] * p["d"] / p["M"],
            ),
            Mistake(
                "dividing the molality by K_f instead of multiplying",
                lambda p: _glycol_molality(p) / p["Kf"],
            ),
            unit_slip(
                "dividing by the mass of water in grams instead of kilograms",
                lambda p: p["Kf"] * p["w"] / (p["M"] * (100 - p["w"])),
            ),
        ),
        stem="An antifreeze is a solution of ethylene glycol (C₂H₆O₂), with {M}, in water. The "
        "mass percentage of glycol in it is {w}, and the density of the solution is {d}. "
        "Taking {Kf} for water and treating glycol as a non-volatile non-electrolyte, the "
        "depression in the freezing point of the solution is",
        method="In 100 g of solution there are {w} g of glycol and $100 - {w}$ g of water, so the "
        "molality is $m = \\dfrac{{{w}/{M}}}{{(100 - {w})/1000}} = {m}$ mol kg⁻¹ (the density "
        "is not needed: molality is per kilogram of solvent). Then "
        "$\\Delta T_f = K_f m = {Kf} \\times {m}$ $=$ {answer}.",
        # the density of glycol–water solutions at 20 °C rises about 0.00125 g mL⁻¹ per per cent
        accept=lambda p: abs(p["d"] - (1 + 0.00125 * p["w"])) <= 0.003,
    ),
)

# ---------------------------------------------------------------- che-u06 Equilibrium


def _n2o4_kc(p: Params, *, used: float | None = None, initial: bool = False) -> float:
    """K_c (mol L⁻¹) of N₂O₄ ⇌ 2NO₂ from the ICE table: `used` mol of N₂O₄ dissociated (the
    student may take the NO₂ formed for it); `initial` puts the initial N₂O₄ in the denominator."""
    x = p["y"] / 2 if used is None else used
    left = p["a"] if initial else p["a"] - x
    if left <= 0:
        return math.nan
    return (p["y"] / p["V"]) ** 2 / (left / p["V"])


def _n2o4_kp(p: Params, kc: float, r: float | None = None) -> float:
    return kc * (r or p["R"]) * p["T"]


def _pcl5_kp(p: Params, *, products: float = 1.0, denominator_initial: bool = False) -> float:
    """K_p (atm) of PCl₅ ⇌ PCl₃ + Cl₂ from the initial and total pressures (`products` 2: the
    student who counts the rise in pressure twice)."""
    x = (p["Pt"] - p["P0"]) / products
    return x**2 / (p["P0"] if denominator_initial else p["P0"] - x)


def _acid_ka(p: Params, *, square: bool = True) -> float:
    h = 10 ** (-p["pH1"])
    return (h * h if square else h) / p["c1"]


def _salt_ph(p: Params, ka: float) -> float:
    """pH of NaA of concentration c2: [H⁺]² = K_w K_a / c."""
    return -0.5 * math.log10(p["Kw"] * ka / p["c2"])


def _buffer_ph(p: Params, acid_left: float, salt: float, log: float = 10.0) -> float:
    return p["pKa"] + math.log(salt / acid_left, log)


U06: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-chain-ice-dinitrogen-tetroxide-kc-kp",
        CHE,
        "che-law-of-mass-action",
        Demand(steps=3, concepts=3),
        "the ICE table (N₂O₄ dissociated is half the NO₂ formed), then K_c from the law of mass "
        "action, then K_p = K_c(RT)^Δn with Δn = +1",
        givens=(
            Q("a", r"n^0_{\mathrm{N_2O_4}}", r"\mathrm{mol}", choices=span(0.1, 1.0, 0.05)),
            Q("V", "V", r"\mathrm{L}", choices=(2.0, 2.5, 4.0, 5.0)),
            Q("T", "T", KELVIN, choices=span(300, 400, 10)),
            Q("y", r"n_{\mathrm{NO_2}}", r"\mathrm{mol}", choices=span(0.02, 1.2, 0.02)),
            R_LATM,
        ),
        unknown=Q("Kp", "K_p", ATM),
        chain=(
            Step(
                Q("x", "x", r"\mathrm{mol}"),
                "Eq(y, 2*x)",
                "ICE table: the change in each amount from the reaction stoichiometry",
                compute=lambda p: p["y"] / 2,
            ),
            Step(
                Q("Kc", "K_c", MOLL),
                "Eq(Kc*(a - x)/V, (y/V)**2)",
                "law of mass action (K_c from equilibrium concentrations)",
                compute=_n2o4_kc,
            ),
        ),
        relation="Eq(Kp, Kc*R*T)",
        concept="relation between K_p and K_c",
        compute=lambda p: _n2o4_kp(p, _n2o4_kc(p)),
        mistakes=(
            Mistake(
                "taking the N₂O₄ dissociated equal to the NO₂ formed (missing the 2)",
                lambda p: _n2o4_kp(p, _n2o4_kc(p, used=p["y"])),
            ),
            Mistake(
                "using the initial amount of N₂O₄ in the denominator of K_c",
                lambda p: _n2o4_kp(p, _n2o4_kc(p, initial=True)),
            ),
            Mistake(
                "using the amounts in moles instead of the concentrations",
                lambda p: _n2o4_kp(p, _n2o4_kc(p) * p["V"]),
            ),
            unit_slip(
                "using R = 8.314 in K_p = K_c(RT)^Δn",
                lambda p: _n2o4_kp(p, _n2o4_kc(p), r=R_J),
            ),
        ),
        stem="An amount {a} of N₂O₄ is placed in an evacuated vessel of volume {V} and kept at "
        "{T} until the equilibrium N₂O₄(g) ⇌ 2NO₂(g) is reached; the vessel then contains {y} of "
        "NO₂. Taking {R}, the value of $K_p$ for the reaction at this temperature is",
        method="ICE table: forming {y} mol of NO₂ uses up $x = {y}/2 = {x}$ mol of N₂O₄, leaving "
        "${a} - {x}$ mol; dividing by $V = {V}$ L gives the concentrations. Law of mass action: "
        "$K_c = \\dfrac{{[\\mathrm{{NO_2}}]^2}}{{[\\mathrm{{N_2O_4}}]}} = "
        "\\dfrac{{({y}/{V})^2}}{{({a} - {x})/{V}}} = {Kc}$ mol L⁻¹. With "
        "$\\Delta n_g = 2 - 1 = 1$, $K_p = K_c RT = {Kc} \\times {R} \\times {T}$ $=$ "
        "{answer}.",
        # between 10 % and 40 % of the N₂O₄ dissociated
        accept=lambda p: 0.1 <= p["y"] / (2 * p["a"]) <= 0.4,
    ),
    NumericalTemplate(
        "che-chain-ice-pcl5-pressure-kp-kc",
        CHE,
        "che-law-of-mass-action",
        Demand(steps=3, concepts=3),
        "the ICE table in partial pressures (the rise in total pressure is the pressure of each "
        "product), then K_p from the law of mass action, then K_c = K_p/(RT) with Δn = 1",
        givens=(
            Q("T", "T", KELVIN, choices=span(450, 550, 10)),
            Q("P0", "P_0", ATM, choices=span(0.5, 3.0, 0.1)),
            Q("Pt", r"P_{\mathrm{total}}", ATM, choices=span(0.6, 5.5, 0.05)),
            R_LATM,
        ),
        unknown=Q("Kc", "K_c", MOLL),
        chain=(
            Step(
                Q("x", r"p_{\mathrm{Cl_2}}", ATM),
                "Eq(Pt, P0 + x)",
                "ICE table in partial pressures",
                compute=lambda p: p["Pt"] - p["P0"],
            ),
            Step(
                Q("Kp", "K_p", ATM),
                "Eq(Kp*(P0 - x), x**2)",
                "law of mass action (K_p from equilibrium partial pressures)",
                compute=_pcl5_kp,
            ),
        ),
        relation="Eq(Kc*R*T, Kp)",
        concept="relation between K_p and K_c",
        compute=lambda p: _pcl5_kp(p) / (p["R"] * p["T"]),
        mistakes=(
            Mistake(
                "using the initial pressure of PCl₅ in the denominator of K_p",
                lambda p: _pcl5_kp(p, denominator_initial=True) / (p["R"] * p["T"]),
            ),
            Mistake(
                "writing the total pressure as P₀ + 2x (counting the rise once per product)",
                lambda p: _pcl5_kp(p, products=2.0) / (p["R"] * p["T"]),
            ),
            Mistake(
                "using α²/(1 − α) with α = x/P₀, leaving out the pressure",
                lambda p: _pcl5_kp(p) / p["P0"] / (p["R"] * p["T"]),
            ),
            unit_slip(
                "using R = 8.314 in K_c = K_p/(RT)",
                lambda p: _pcl5_kp(p) / (R_J * p["T"]),
            ),
        ),
        stem="At {T}, PCl₅ vapour is let into an evacuated vessel of fixed volume; before any "
        "of it dissociates, its pressure is {P0}. When the equilibrium PCl₅(g) ⇌ PCl₃(g) + "
        "Cl₂(g) has been reached at the same temperature, the total pressure is {Pt}. Taking "
        "{R}, the value of $K_c$ for the dissociation at this temperature is",
        method="ICE table in pressures: if $x$ atm of PCl₅ dissociates, the total pressure is "
        "$P_0 + x$, so $x = {Pt} - {P0} = {x}$ atm $= p_{{\\mathrm{{PCl_3}}}} = "
        "p_{{\\mathrm{{Cl_2}}}}$, and $p_{{\\mathrm{{PCl_5}}}} = {P0} - x$. Law of mass action: "
        "$K_p = \\dfrac{{x^2}}{{{P0} - x}} = {Kp}$ atm. With $\\Delta n_g = 1$, "
        "$K_c = \\dfrac{{K_p}}{{RT}} = \\dfrac{{{Kp}}}{{{R} \\times {T}}}$ $=$ {answer}.",
        # between 15 % and 70 % of the PCl₅ dissociated
        accept=lambda p: 1.15 * p["P0"] <= p["Pt"] <= 1.7 * p["P0"],
    ),
    NumericalTemplate(
        "che-chain-weak-acid-ph-to-salt-hydrolysis",
        CHE,
        "che-hydrolysis-of-salts",
        Demand(steps=2, concepts=2),
        "K_a of the weak acid from the pH of its solution, then the pH of its sodium salt from "
        "hydrolysis (K_h = K_w/K_a)",
        givens=(
            Q("c1", r"c_{\mathrm{HA}}", MOLL, choices=(0.01, 0.02, 0.05, 0.1, 0.2, 0.5)),
            Q("pH1", r"\mathrm{pH}", choices=span(2.4, 4.2, 0.02)),
            Q("Kw", "K_w", choices=(1e-14,)),
            Q("c2", r"c_{\mathrm{NaA}}", MOLL, choices=(0.01, 0.02, 0.05, 0.1, 0.2, 0.5)),
        ),
        unknown=Q("pH", r"\mathrm{pH}"),
        chain=(
            Step(
                Q("Ka", "K_a"),
                "Eq(Ka*c1, 10**(-2*pH1))",
                "ionisation constant of a weak acid from the pH of its solution",
                compute=_acid_ka,
            ),
        ),
        relation="Eq(10**(-2*pH), Kw*Ka/c2)",
        concept="hydrolysis of the salt of a weak acid and a strong base",
        compute=lambda p: _salt_ph(p, _acid_ka(p)),
        mistakes=(
            Mistake(
                "forgetting to square [H⁺] in K_a = [H⁺]²/c",
                lambda p: _salt_ph(p, _acid_ka(p, square=False)),
            ),
            Mistake(
                "taking K_h = K_a instead of K_w/K_a",
                lambda p: 14 + 0.5 * math.log10(_acid_ka(p) * p["c2"]),
            ),
            Mistake("reporting the pOH", lambda p: 14 - _salt_ph(p, _acid_ka(p))),
            Mistake(
                "leaving out the salt concentration: pH = 7 + ½pK_a",
                lambda p: 7 - 0.5 * math.log10(_acid_ka(p)),
            ),
        ),
        stem="An aqueous solution of a weak monobasic acid HA of concentration {c1} has {pH1} "
        "at 298 K. Taking {Kw} at this temperature, the pH of an aqueous solution of its sodium "
        "salt NaA of concentration {c2} is",
        method="For the weak acid, $[\\mathrm{{H^+}}] = 10^{{-{pH1}}}$ and, as it ionises only "
        "slightly, $K_a = \\dfrac{{[\\mathrm{{H^+}}]^2}}{{c}} = \\dfrac{{(10^{{-{pH1}}})^2}}"
        "{{{c1}}} = {Ka}$. The salt hydrolyses, A⁻ + H₂O ⇌ HA + OH⁻, with $K_h = K_w/K_a$ and "
        "$[\\mathrm{{OH^-}}] = \\sqrt{{K_h c}}$, so $[\\mathrm{{H^+}}] = \\sqrt{{K_w K_a/c}}$ and "
        "$\\mathrm{{pH}} = 7 + \\tfrac{{1}}{{2}}(\\mathrm{{p}}K_a + \\log_{{10}} {c2})$ $=$ "
        "{answer}.",
        # a weak acid ionised at most 5 %, with K_a in the usual range
        accept=lambda p: 10 ** (-p["pH1"]) <= 0.05 * p["c1"] and 1e-6 <= _acid_ka(p) <= 1e-3,
    ),
    NumericalTemplate(
        "che-chain-acetic-acid-naoh-buffer",
        CHE,
        "che-ph-and-buffers",
        Demand(steps=2, concepts=2),
        "the neutralisation stoichiometry (NaOH, the limiting reagent, turns acid into acetate), "
        "then the pH of the buffer from the Henderson–Hasselbalch equation",
        givens=(
            Q("V1", r"V_{\mathrm{acid}}", r"\mathrm{mL}", choices=span(20, 100, 10)),
            Q("c1", r"c_{\mathrm{acid}}", MOLL, choices=(0.1, 0.2, 0.5)),
            Q("V2", r"V_{\mathrm{NaOH}}", r"\mathrm{mL}", choices=span(5, 90, 5)),
            Q("c2", r"c_{\mathrm{NaOH}}", MOLL, choices=(0.1, 0.2, 0.5)),
            Q("pKa", r"\mathrm{p}K_a", choices=(4.76,)),
        ),
        unknown=Q("pH", r"\mathrm{pH}"),
        chain=(
            Step(
                Q("nS", r"n_{\mathrm{CH_3COO^-}}", r"\mathrm{mmol}"),
                "Eq(nS, c2*V2)",
                "neutralisation stoichiometry: the limiting NaOH turns acid into its salt",
                compute=lambda p: p["c2"] * p["V2"],
            ),
        ),
        relation="Eq(10**(-pH), 10**(-pKa)*(c1*V1 - nS)/nS)",
        concept="Henderson–Hasselbalch equation for a buffer",
        compute=lambda p: _buffer_ph(p, p["c1"] * p["V1"] - p["c2"] * p["V2"], p["c2"] * p["V2"]),
        mistakes=(
            Mistake(
                "using the initial amount of acid instead of the acid left",
                lambda p: _buffer_ph(p, p["c1"] * p["V1"], p["c2"] * p["V2"]),
            ),
            Mistake(
                "inverting the ratio, log([acid]/[salt])",
                lambda p: _buffer_ph(p, p["c2"] * p["V2"], p["c1"] * p["V1"] - p["c2"] * p["V2"]),
            ),
            Mistake(
                "using the natural logarithm",
                lambda p: _buffer_ph(
                    p, p["c1"] * p["V1"] - p["c2"] * p["V2"], p["c2"] * p["V2"], log=math.e
                ),
            ),
            Mistake(
                "taking pH = pK_a, as if the acid were exactly half neutralised",
                lambda p: p["pKa"],
            ),
            Mistake(
                "using the concentrations before mixing, log(c_NaOH/c_acid)",
                lambda p: _buffer_ph(p, p["c1"], p["c2"]),
            ),
        ),
        stem="A volume {V1} of acetic acid of concentration {c1} is mixed with {V2} of sodium "
        "hydroxide solution of concentration {c2}. Given {pKa} for acetic acid, the pH of the "
        "resulting solution is",
        method="NaOH is the limiting reagent: it turns ${c2} \\times {V2} = {nS}$ mmol of "
        "CH₃COOH into CH₃COO⁻, leaving ${c1} \\times {V1} - {nS}$ mmol of acid. Both are in the "
        "same volume, so by Henderson–Hasselbalch $\\mathrm{{pH}} = \\mathrm{{p}}K_a + "
        "\\log_{{10}}\\dfrac{{n_{{\\mathrm{{salt}}}}}}{{n_{{\\mathrm{{acid}}}}}} = {pKa} + "
        "\\log_{{10}}\\dfrac{{{nS}}}{{{c1} \\times {V1} - {nS}}}$ $=$ {answer}.",
        # a genuine buffer, 10 % to 90 % neutralised, with the salt : acid ratio at least 2 : 1
        # either way (closer to 1 : 1 every slip lands within rounding of pK_a)
        accept=lambda p: (
            0.1 <= p["c2"] * p["V2"] / (p["c1"] * p["V1"]) <= 0.9
            and abs(math.log10(p["c2"] * p["V2"] / (p["c1"] * p["V1"] - p["c2"] * p["V2"]))) >= 0.3
        ),
    ),
)

# ---------------------------------------------------------------- che-u07 Redox and Electrochemistry
OHM = r"\Omega"
SCM = r"\mathrm{S\,cm^{-1}}"


def _cu_ag_emf(p: Params, *, e0: float | None = None, ag_power: float = 2.0) -> float:
    """EMF (V) of Cu | Cu²⁺ ‖ Ag⁺ | Ag from the Nernst equation (n = 2)."""
    standard = p["EAg"] - p["ECu"] if e0 is None else e0
    return standard - p["k"] / 2 * math.log10(p["cu"] / p["ag"] ** ag_power)


def _oxygen_moles(p: Params, electrons: float = 4.0) -> float:
    return p["I"] * p["t"] / (electrons * p["F"])


def _kohlrausch_alpha(p: Params, limiting: float | None = None) -> float:
    molar = 1000 * p["kappa"] / p["c"]
    return molar / (p["LHCl"] + p["LNaAc"] - p["LNaCl"] if limiting is None else limiting)


def _formic_alpha(p: Params) -> float:
    kappa = p["kK"] * p["RK"] / p["R"]
    return 1000 * kappa / p["c"] / p["L0"]


def _ostwald(c: float, alpha: float, *, power: float = 2.0, left: float = -1.0) -> float:
    """K_a = cα^power/(1 + left·α): `left` −1 is right, 0 neglects α, +1 is the sign slip."""
    return c * alpha**power / (1 + left * alpha)


U07: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-chain-copper-silver-cell-nernst-gibbs",
        CHE,
        "che-emf-and-gibbs-energy",
        Demand(steps=3, concepts=3),
        "E°cell from the two standard reduction potentials (cathode minus anode), then E_cell "
        "from the Nernst equation, then ΔG = −nFE_cell",
        givens=(
            Q("EAg", r"E^\circ_{\mathrm{Ag^+/Ag}}", r"\mathrm{V}", choices=(0.80,)),
            Q("ECu", r"E^\circ_{\mathrm{Cu^{2+}/Cu}}", r"\mathrm{V}", choices=(0.34,)),
            Q("k", r"\dfrac{2.303RT}{F}", r"\mathrm{V}", choices=(0.059,)),
            FARADAY,
            Q("cu", r"[\mathrm{Cu^{2+}}]", MOLL, choices=(0.001, 0.01, 0.05, 0.1, 0.5, 1.0)),
            Q(
                "ag",
                r"[\mathrm{Ag^+}]",
                MOLL,
                choices=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1.0),
            ),
        ),
        unknown=Q("dG", r"\Delta_r G", KJMOL, si=1000),
        chain=(
            Step(
                Q("E0", r"E^\circ_{\mathrm{cell}}", r"\mathrm{V}"),
                "Eq(E0, EAg - ECu)",
                "standard cell EMF from standard electrode potentials",
                compute=lambda p: p["EAg"] - p["ECu"],
            ),
            Step(
                Q("E", r"E_{\mathrm{cell}}", r"\mathrm{V}"),
                "Eq(E, E0 - k/2*log(cu/ag**2, 10))",
                "Nernst equation",
                compute=_cu_ag_emf,
            ),
        ),
        relation="Eq(dG, -2*F*E)",
        concept="Gibbs energy and cell EMF, ΔG = −nFE",
        compute=lambda p: -2 * p["F"] * _cu_ag_emf(p),
        mistakes=(
            Mistake(
                "adding the two standard reduction potentials for E°cell",
                lambda p: -2 * p["F"] * _cu_ag_emf(p, e0=p["EAg"] + p["ECu"]),
            ),
            Mistake(
                "not squaring [Ag⁺] in the reaction quotient",
                lambda p: -2 * p["F"] * _cu_ag_emf(p, ag_power=1.0),
            ),
            Mistake("taking n = 1 in ΔG = −nFE", lambda p: -p["F"] * _cu_ag_emf(p)),
            Mistake(
                "using E°cell, ignoring the concentrations",
                lambda p: -2 * p["F"] * (p["EAg"] - p["ECu"]),
            ),
            unit_slip(
                "leaving ΔG in J mol⁻¹ but labelling it kJ mol⁻¹",
                lambda p: -2000 * p["F"] * _cu_ag_emf(p),
            ),
        ),
        stem="For the cell Cu(s) | Cu²⁺(aq) ‖ Ag⁺(aq) | Ag(s) at 298 K, the standard reduction "
        "potentials are {EAg} and {ECu}. Taking {k} and {F}, the Gibbs energy change of the "
        "cell reaction when {cu} and {ag} is",
        method="The silver electrode (higher reduction potential) is the cathode: "
        "$E^\\circ_{{\\mathrm{{cell}}}} = {EAg} - {ECu} = {E0}$ V. The cell reaction "
        "Cu + 2Ag⁺ → Cu²⁺ + 2Ag has $n = 2$, so by the Nernst equation "
        "$E_{{\\mathrm{{cell}}}} = {E0} - \\dfrac{{{k}}}{{2}}\\log_{{10}}"
        "\\dfrac{{{cu}}}{{({ag})^2}} = {E}$ V. Then $\\Delta_r G = -nFE_{{\\mathrm{{cell}}}} = "
        "-2 \\times {F} \\times {E}$ J mol⁻¹ $=$ {answer}.",
        # the concentration term matters (|log Q| ≥ 1.5), and the cell still works forwards
        accept=lambda p: abs(math.log10(p["cu"] / p["ag"] ** 2)) >= 1.5 and _cu_ag_emf(p) >= 0.2,
    ),
    NumericalTemplate(
        "che-chain-electrolysis-oxygen-volume",
        CHE,
        "che-electrolysis",
        Demand(steps=2, concepts=2),
        "the moles of O₂ from Faraday's laws (four moles of electrons per mole of O₂), then its "
        "volume from the ideal gas equation",
        givens=(
            Q("I", "I", r"\mathrm{A}", choices=span(0.5, 5.0, 0.5)),
            Q("t", "t", r"\mathrm{min}", si=60, choices=span(10, 120, 10)),
            FARADAY,
            Q("T", "T", KELVIN, choices=span(290, 310, 5)),
            Q("P", "P", ATM, choices=span(0.8, 1.2, 0.05)),
            R_LATM,
        ),
        unknown=Q("V", r"V_{\mathrm{O_2}}", r"\mathrm{L}"),
        chain=(
            Step(
                Q("nO", r"n_{\mathrm{O_2}}", r"\mathrm{mol}"),
                "Eq(4*F*nO, I*t)",
                "Faraday's laws of electrolysis",
                compute=_oxygen_moles,
            ),
        ),
        relation="Eq(P*V, nO*R*T)",
        concept="ideal gas equation",
        compute=lambda p: _oxygen_moles(p) * p["R"] * p["T"] / p["P"],
        mistakes=(
            Mistake(
                "taking two moles of electrons per mole of O₂, as for H₂",
                lambda p: _oxygen_moles(p, 2.0) * p["R"] * p["T"] / p["P"],
            ),
            Mistake(
                "using the molar volume 22.4 L mol⁻¹ whatever the temperature and pressure",
                lambda p: _oxygen_moles(p) * 22.4,
            ),
            Mistake(
                "taking the moles of O₂ equal to the moles of electrons",
                lambda p: _oxygen_moles(p, 1.0) * p["R"] * p["T"] / p["P"],
            ),
            unit_slip(
                "leaving the time in minutes in Q = It",
                lambda p: _oxygen_moles(p) / 60 * p["R"] * p["T"] / p["P"],
            ),
        ),
        stem="Dilute sulphuric acid is electrolysed between platinum electrodes with a steady "
        "current {I} for {t}. Taking {F}, the volume of oxygen given off at the anode, measured "
        "at {T} and {P}, is (take {R} and treat O₂ as an ideal gas)",
        method="Charge $Q = It = {I} \\times {t} \\times 60$ C. At the anode "
        "2H₂O → O₂ + 4H⁺ + 4e⁻, so four moles of electrons give one mole of O₂: "
        "$n_{{\\mathrm{{O_2}}}} = \\dfrac{{Q}}{{4F}} = {nO}$ mol. Then "
        "$V = \\dfrac{{nRT}}{{P}} = \\dfrac{{{nO} \\times {R} \\times {T}}}{{{P}}}$ $=$ "
        "{answer}.",
    ),
    NumericalTemplate(
        "che-chain-acetic-acid-kohlrausch-dissociation",
        CHE,
        "che-kohlrausch-law",
        Demand(steps=3, concepts=3),
        "the molar conductivity from the conductivity, then Λ°m of acetic acid from Kohlrausch's "
        "law (HCl + CH₃COONa − NaCl), then the degree of dissociation α = Λm/Λ°m",
        givens=(
            Q("c", "c", MOLL, choices=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05)),
            Q("kappa", r"\kappa", SCM, choices=_sci(span(1.0, 9.9, 0.1), (-5, -4))),
            Q("LHCl", r"\Lambda^\circ_m(\mathrm{HCl})", SCM2, choices=(425.9,)),
            Q("LNaAc", r"\Lambda^\circ_m(\mathrm{CH_3COONa})", SCM2, choices=(91.0,)),
            Q("LNaCl", r"\Lambda^\circ_m(\mathrm{NaCl})", SCM2, choices=(126.4,)),
        ),
        unknown=Q("alpha", r"\alpha", bounds=(0.0, 1.0)),
        chain=(
            Step(
                Q("Lm", r"\Lambda_m", SCM2),
                "Eq(Lm*c, 1000*kappa)",
                "molar conductivity from conductivity",
                compute=lambda p: 1000 * p["kappa"] / p["c"],
            ),
            Step(
                Q("L0", r"\Lambda^\circ_m", SCM2),
                "Eq(L0, LHCl + LNaAc - LNaCl)",
                "Kohlrausch's law of independent migration of ions",
                compute=lambda p: p["LHCl"] + p["LNaAc"] - p["LNaCl"],
            ),
        ),
        relation="Eq(alpha*L0, Lm)",
        concept="degree of dissociation of a weak electrolyte from molar conductivities",
        compute=_kohlrausch_alpha,
        mistakes=(
            Mistake(
                "adding all three limiting molar conductivities",
                lambda p: _kohlrausch_alpha(p, p["LHCl"] + p["LNaAc"] + p["LNaCl"]),
            ),
            Mistake(
                "subtracting Λ°m(CH₃COONa) instead of Λ°m(NaCl)",
                lambda p: _kohlrausch_alpha(p, p["LHCl"] + p["LNaCl"] - p["LNaAc"]),
            ),
            Mistake(
                "taking Λ°m(HCl) as Λ°m of acetic acid",
                lambda p: _kohlrausch_alpha(p, p["LHCl"]),
            ),
            unit_slip(
                "leaving out the factor 1000 in Λm = 1000κ/c",
                lambda p: _kohlrausch_alpha(p) / 1000,
            ),
        ),
        stem="An aqueous solution of acetic acid of concentration {c} has conductivity {kappa} "
        "at 298 K. At this temperature the limiting molar conductivities are {LHCl}, {LNaAc} "
        "and {LNaCl}. The degree of dissociation of acetic acid in this solution is",
        method="Molar conductivity: $\\Lambda_m = \\dfrac{{1000\\kappa}}{{c}} = "
        "\\dfrac{{1000 \\times {kappa}}}{{{c}}} = {Lm}$ S cm² mol⁻¹. Kohlrausch's law: "
        "$\\Lambda^\\circ_m(\\mathrm{{CH_3COOH}}) = \\Lambda^\\circ_m(\\mathrm{{HCl}}) + "
        "\\Lambda^\\circ_m(\\mathrm{{CH_3COONa}}) - \\Lambda^\\circ_m(\\mathrm{{NaCl}}) = "
        "{LHCl} + {LNaAc} - {LNaCl} = {L0}$ S cm² mol⁻¹. Then "
        "$\\alpha = \\dfrac{{\\Lambda_m}}{{\\Lambda^\\circ_m}} = \\dfrac{{{Lm}}}{{{L0}}}$ "
        "$=$ {answer}.",
        # a conductivity that fits acetic acid (K_a ≈ 1.8 × 10⁻⁵) within about 25 %
        accept=lambda p: (
            0.75 <= _kohlrausch_alpha(p) / math.sqrt(1.8e-5 / p["c"]) <= 1.25
            and _kohlrausch_alpha(p) < 0.5
        ),
    ),
    NumericalTemplate(
        "che-chain-cell-constant-formic-acid-ka",
        CHE,
        "che-electrolytic-conductance",
        Demand(steps=4, concepts=4),
        "the conductivity of the acid from the cell constant found with standard KCl, then its "
        "molar conductivity, then the degree of dissociation α = Λm/Λ°m, then K_a from Ostwald's "
        "dilution law",
        givens=(
            Q("kK", r"\kappa_{\mathrm{KCl}}", SCM, choices=(0.0129,)),
            Q("RK", r"R_{\mathrm{KCl}}", OHM, choices=span(40, 150, 5)),
            Q("c", "c", MOLL, choices=(0.001, 0.002, 0.0025, 0.004, 0.005, 0.008, 0.01)),
            Q("R", "R", OHM, choices=span(500, 20000, 100)),
            Q("L0", r"\Lambda^\circ_m", SCM2, choices=(404.2,)),
        ),
        unknown=Q("Ka", "K_a", MOLL),
        chain=(
            Step(
                Q("kappa", r"\kappa", SCM),
                "Eq(kappa*R, kK*RK)",
                "cell constant: conductivity from resistance in a calibrated cell",
                compute=lambda p: p["kK"] * p["RK"] / p["R"],
            ),
            Step(
                Q("Lm", r"\Lambda_m", SCM2),
                "Eq(Lm*c, 1000*kappa)",
                "molar conductivity from conductivity",
                compute=lambda p: 1000 * p["kK"] * p["RK"] / (p["R"] * p["c"]),
            ),
            Step(
                Q("alpha", r"\alpha"),
                "Eq(alpha*L0, Lm)",
                "degree of dissociation of a weak electrolyte from molar conductivities",
                compute=_formic_alpha,
            ),
        ),
        relation="Eq(Ka*(1 - alpha), c*alpha**2)",
        concept="Ostwald's dilution law (ionisation constant of a weak acid)",
        compute=lambda p: _ostwald(p["c"], _formic_alpha(p)),
        mistakes=(
            Mistake(
                "neglecting α in (1 − α)",
                lambda p: _ostwald(p["c"], _formic_alpha(p), left=0.0),
            ),
            Mistake(
                "writing [HA] = c(1 + α) in the ICE table",
                lambda p: _ostwald(p["c"], _formic_alpha(p), left=1.0),
            ),
            Mistake(
                "not squaring α, K_a = cα/(1 − α)",
                lambda p: _ostwald(p["c"], _formic_alpha(p), power=1.0),
            ),
            unit_slip(
                "leaving out the factor 1000 in Λm = 1000κ/c",
                lambda p: _ostwald(p["c"], _formic_alpha(p) / 1000),
            ),
        ),
        stem="A conductivity cell filled with 0.1 mol L⁻¹ KCl solution, whose conductivity is "
        "{kK}, has a resistance {RK} at 298 K. Filled instead with a formic acid solution of "
        "concentration {c}, the same cell has a resistance {R}. Given {L0} for formic acid at "
        "298 K, the ionisation constant of formic acid is",
        method="Cell constant $G^* = \\kappa_{{\\mathrm{{KCl}}}}R_{{\\mathrm{{KCl}}}} = "
        "{kK} \\times {RK}$ cm⁻¹, so the acid's conductivity is "
        "$\\kappa = G^*/R = {kappa}$ S cm⁻¹. Molar conductivity: "
        "$\\Lambda_m = \\dfrac{{1000\\kappa}}{{c}} = {Lm}$ S cm² mol⁻¹, so "
        "$\\alpha = \\dfrac{{\\Lambda_m}}{{\\Lambda^\\circ_m}} = \\dfrac{{{Lm}}}{{{L0}}} = "
        "{alpha}$. Ostwald's dilution law: $K_a = \\dfrac{{c\\alpha^2}}{{1 - \\alpha}} = "
        "\\dfrac{{{c} \\times {alpha}^2}}{{1 - {alpha}}}$ $=$ {answer}.",
        # a resistance that fits formic acid (K_a ≈ 1.8 × 10⁻⁴) within about 30 %, with α large
        # enough for (1 − α) to matter
        accept=lambda p: (
            1.3e-4 <= _ostwald(p["c"], _formic_alpha(p)) <= 2.4e-4 and _formic_alpha(p) >= 0.1
        ),
    ),
)

# ---------------------------------------------------------------- che-u08 Chemical Kinetics
MINUTES = r"\mathrm{min}"


def _rate_ratio(p: Params, *, log: float = math.e, sign: float = 1.0) -> float:
    """k₂/k₁ from the Arrhenius equation (`log` 10: the student who drops the 2.303; `sign` −1
    inverts the temperature terms)."""
    return log ** (sign * p["Ea"] / p["R"] * (1 / p["T1"] - 1 / p["T2"]))


def _time_at_t2(p: Params, ratio: float, left: float | None = None) -> float:
    """Time (min) to reach the given per cent decomposition at T₂ (`left` per cent left)."""
    k2 = LN2 / p["thalf"] * ratio
    return math.log(100 / (100 - p["x"] if left is None else left)) / k2


def _conc_after(p: Params, *, base: float = math.e, inverted: bool = False) -> float:
    """[A] after time t for a first-order reaction of half-life t½."""
    if inverted:
        return p["A0"] * 0.5 ** (p["thalf"] / p["t"])
    return p["A0"] * base ** (-LN2 / p["thalf"] * p["t"])


def _sulphuryl_half_life(p: Params, left: float, log: float = math.e) -> float:
    """t½ (s) from k = ln(p₀/p_A)/t with the student's p_A (and logarithm)."""
    if not 0 < left < p["p0"]:
        return math.nan
    k = math.log(p["p0"] / left, log) / p["t"]
    return LN2 / k


U08: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-chain-half-life-arrhenius-time",
        CHE,
        "che-arrhenius-equation",
        Demand(steps=3, concepts=3),
        "the rate constant at T₁ from the half-life, then the rate constant at T₂ from the "
        "Arrhenius equation, then the time for the given decomposition from the integrated "
        "first-order rate law",
        givens=(
            Q("thalf", r"t_{1/2}", MINUTES, choices=span(10, 120, 5)),
            Q("T1", "T_1", KELVIN, choices=span(290, 320, 5)),
            Q("Ea", "E_a", KJMOL, si=1000, choices=span(40, 100, 5)),
            R_SI,
            Q("T2", "T_2", KELVIN, choices=span(300, 350, 5)),
            Q("x", "x", r"\%", choices=(20.0, 25.0, 30.0, 40.0, 60.0, 75.0, 80.0)),
        ),
        unknown=Q("t", "t", MINUTES),
        chain=(
            Step(
                Q("k1", "k_1", r"\mathrm{min^{-1}}"),
                "Eq(k1*thalf, log(2))",
                "half-life of a first-order reaction",
                compute=lambda p: LN2 / p["thalf"],
            ),
            Step(
                Q("k2", "k_2", r"\mathrm{min^{-1}}"),
                "Eq(log(k2/k1), Ea/R*(1/T1 - 1/T2))",
                "Arrhenius equation",
                compute=lambda p: LN2 / p["thalf"] * _rate_ratio(p),
            ),
        ),
        relation="Eq(k2*t, log(100/(100 - x)))",
        concept="integrated first-order rate law",
        compute=lambda p: _time_at_t2(p, _rate_ratio(p)),
        mistakes=(
            Mistake(
                "ignoring the change of temperature (using k at T₁)",
                lambda p: _time_at_t2(p, 1.0),
            ),
            Mistake(
                "using log₁₀ in the Arrhenius equation without the factor 2.303",
                lambda p: _time_at_t2(p, _rate_ratio(p, log=10.0)),
            ),
            Mistake(
                "taking the percentage decomposed as the percentage left",
                lambda p: _time_at_t2(p, _rate_ratio(p), left=p["x"]),
            ),
            Mistake(
                "inverting the temperature terms (k falling as T rises)",
                lambda p: _time_at_t2(p, _rate_ratio(p, sign=-1.0)),
            ),
        ),
        stem="A first-order reaction has a half-life {thalf} at {T1}, and its activation energy "
        "is {Ea}. Taking {R}, the time needed at {T2} for {x} of the reactant to decompose is",
        method="At $T_1$: $k_1 = \\dfrac{{0.693}}{{t_{{1/2}}}} = \\dfrac{{0.693}}{{{thalf}}} = {k1}$ "
        "min⁻¹. Arrhenius: $\\log_{{10}}\\dfrac{{k_2}}{{k_1}} = \\dfrac{{E_a}}{{2.303R}}\\left("
        "\\dfrac{{1}}{{T_1}} - \\dfrac{{1}}{{T_2}}\\right) = \\dfrac{{{Ea} \\times 1000}}"
        "{{2.303 \\times {R}}}\\left(\\dfrac{{1}}{{{T1}}} - \\dfrac{{1}}{{{T2}}}\\right)$, so "
        "$k_2 = {k2}$ min⁻¹. With $100 - {x}$ per cent left, "
        "$t = \\dfrac{{2.303}}{{k_2}}\\log_{{10}}\\dfrac{{100}}{{100 - {x}}}$ $=$ {answer}.",
        accept=lambda p: p["T2"] - p["T1"] >= 10 and 1.5 <= _rate_ratio(p) <= 3.0,
    ),
    NumericalTemplate(
        "che-chain-half-life-concentration-rate",
        CHE,
        "che-first-order-reactions",
        Demand(steps=3, concepts=3),
        "the rate constant from the half-life, then the concentration left after the time from "
        "the integrated first-order law, then the rate from the rate law, rate = k[A]",
        givens=(
            Q("A0", r"[\mathrm{A}]_0", MOLL, choices=span(0.1, 1.0, 0.05)),
            Q("thalf", r"t_{1/2}", MINUTES, si=60, choices=span(5, 60, 5)),
            Q("t", "t", MINUTES, si=60, choices=span(5, 120, 5)),
        ),
        unknown=Q("r", "r", r"\mathrm{mol\,L^{-1}\,s^{-1}}"),
        chain=(
            Step(
                Q("k", "k", r"\mathrm{s^{-1}}"),
                "Eq(k*thalf, log(2))",
                "half-life of a first-order reaction",
                compute=lambda p: LN2 / p["thalf"],
            ),
            Step(
                Q("A", r"[\mathrm{A}]", MOLL),
                "Eq(A, A0*exp(-k*t))",
                "integrated first-order rate law",
                compute=_conc_after,
            ),
        ),
        relation="Eq(r, k*A)",
        concept="rate law, rate = k[A]",
        compute=lambda p: LN2 / p["thalf"] * _conc_after(p),
        mistakes=(
            Mistake(
                "using the initial concentration in the rate law",
                lambda p: LN2 / p["thalf"] * p["A0"],
            ),
            Mistake(
                "using log₁₀ in place of ln in the integrated rate law",
                lambda p: LN2 / p["thalf"] * _conc_after(p, base=10.0),
            ),
            Mistake(
                "inverting the ratio of times, [A] = [A]₀(½)^(t½/t)",
                lambda p: LN2 / p["thalf"] * _conc_after(p, inverted=True),
            ),
            unit_slip(
                "leaving k in min⁻¹ (the rate per minute)",
                lambda p: 60 * LN2 / p["thalf"] * _conc_after(p),
            ),
        ),
        stem="A first-order reaction A → products starts with {A0} and has a half-life {thalf}. "
        "The rate of the reaction at a time {t} after it starts is",
        method="$k = \\dfrac{{0.693}}{{t_{{1/2}}}} = \\dfrac{{0.693}}{{{thalf} \\times 60}} = {k}$ "
        "s⁻¹. Integrated law: $[\\mathrm{{A}}] = [\\mathrm{{A}}]_0 e^{{-kt}} = {A0} \\times "
        "e^{{-k \\times {t} \\times 60}} = {A}$ mol L⁻¹. Rate law: "
        "$r = k[\\mathrm{{A}}] = {k} \\times {A}$ $=$ {answer}.",
        accept=lambda p: 0.5 <= p["t"] / p["thalf"] <= 2 and p["t"] != p["thalf"],
    ),
    NumericalTemplate(
        "che-chain-sulphuryl-chloride-pressure-half-life",
        CHE,
        "che-first-order-reactions",
        Demand(steps=3, concepts=3),
        "the pressure of SO₂Cl₂ left from the total pressure (ICE table in pressures), then k "
        "from the integrated first-order law, then the half-life t½ = 0.693/k",
        givens=(
            Q("p0", "p_0", ATM, choices=span(0.2, 1.0, 0.05)),
            Q("t", "t", r"\mathrm{s}", choices=span(50, 500, 10)),
            Q("pt", r"p_{\mathrm{total}}", ATM, choices=span(0.25, 1.8, 0.01)),
        ),
        unknown=Q("th", r"t_{1/2}", r"\mathrm{s}"),
        chain=(
            Step(
                Q("pA", r"p_{\mathrm{SO_2Cl_2}}", ATM),
                "Eq(pt, 2*p0 - pA)",
                "ICE table in partial pressures",
                compute=lambda p: 2 * p["p0"] - p["pt"],
            ),
            Step(
                Q("k", "k", r"\mathrm{s^{-1}}"),
                "Eq(k*t, log(p0/pA))",
                "integrated first-order rate law",
                compute=lambda p: math.log(p["p0"] / (2 * p["p0"] - p["pt"])) / p["t"],
            ),
        ),
        relation="Eq(k*th, log(2))",
        concept="half-life of a first-order reaction",
        compute=lambda p: _sulphuryl_half_life(p, 2 * p["p0"] - p["pt"]),
        mistakes=(
            Mistake(
                "taking the pressure of SO₂Cl₂ left as p_total − p₀",
                lambda p: _sulphuryl_half_life(p, p["pt"] - p["p0"]),
            ),
            Mistake(
                "using log₁₀ without the factor 2.303",
                lambda p: _sulphuryl_half_life(p, 2 * p["p0"] - p["pt"], log=10.0),
            ),
            Mistake(
                "writing the total pressure as p₀ + 2x",
                lambda p: _sulphuryl_half_life(p, p["p0"] - (p["pt"] - p["p0"]) / 2),
            ),
            Mistake(
                "putting the ratio of total pressures, p_total/p₀, in the logarithm",
                lambda p: LN2 * p["t"] / math.log(p["pt"] / p["p0"]),
            ),
            Mistake(
                "treating the fall in pressure as linear (zero order), t½ = p₀t/2x",
                lambda p: p["p0"] * p["t"] / (2 * (p["pt"] - p["p0"])),
            ),
        ),
        stem="Sulphuryl chloride decomposes in the gas phase at constant volume and temperature "
        "by a first-order reaction, SO₂Cl₂(g) → SO₂(g) + Cl₂(g). Starting with pure SO₂Cl₂ at "
        "a pressure {p0}, after a time {t} the total pressure is {pt}. The half-life of the "
        "reaction is",
        method="ICE table in pressures: if the pressure of SO₂Cl₂ falls by $x$, the total is "
        "$p_0 + x$, so $x = {pt} - {p0}$ and $p_{{\\mathrm{{SO_2Cl_2}}}} = p_0 - x = 2({p0}) - "
        "{pt} = {pA}$ atm. First-order law: $k = \\dfrac{{2.303}}{{t}}\\log_{{10}}"
        "\\dfrac{{p_0}}{{p_{{\\mathrm{{SO_2Cl_2}}}}}} = \\dfrac{{2.303}}{{{t}}}\\log_{{10}}"
        "\\dfrac{{{p0}}}{{{pA}}} = {k}$ s⁻¹. Then $t_{{1/2}} = \\dfrac{{0.693}}{{k}}$ $=$ "
        "{answer}.",
        # 25 % to 80 % decomposed
        accept=lambda p: 1.25 * p["p0"] <= p["pt"] <= 1.8 * p["p0"],
    ),
)

CHEMISTRY_CHAINS: tuple[NumericalTemplate, ...] = U01 + U02 + U04 + U05 + U06 + U07 + U08
