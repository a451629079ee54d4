"""More physical-Chemistry numerical templates, one group per syllabus unit."""

from __future__ import annotations

import math

from core.records import Subject
from pipeline.generate.numerical import (
    ONE_STEP,
    REVERSED,
    TWO_STEPS,
    NumericalTemplate,
    Params,
    Quantity,
    span,
    unit_slip,
)

CHE = Subject.CHEMISTRY
Q = Quantity

GMOL = r"\mathrm{g\,mol^{-1}}"
MOLL = r"\mathrm{mol\,L^{-1}}"
KJMOL = r"\mathrm{kJ\,mol^{-1}}"
R_LATM = Q("R", "R", r"\mathrm{L\,atm\,K^{-1}\,mol^{-1}}", choices=(0.0821,))
R_SI = Q("R", "R", r"\mathrm{J\,K^{-1}\,mol^{-1}}", choices=(8.314,))
BUFFER_CONCS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0)
FARADAY = Q("F", "F", r"\mathrm{C\,mol^{-1}}", choices=(96500.0,))
PCT = r"\%"
ML = r"\mathrm{mL}"
H_PLANCK = Q("h", "h", r"\mathrm{J\,s}", choices=(6.626e-34,))
C_LIGHT = Q("c", "c", r"\mathrm{m\,s^{-1}}", choices=(3.0e8,))
M_ELECTRON = Q("me", "m_e", r"\mathrm{kg}", choices=(9.1e-31,))
M_PROTON = 1.67e-27  # kg, for the "wrong particle" slip
# mL → m³ and mol L⁻¹ → mol m⁻³: volumes and molarities that the relation handles in SI
ML_SI, MOLL_SI = 1e-6, 1000.0
LATM_J = 101.325  # J per L atm


def _percent(x: float) -> float:
    """x when it can pass for a percentage by mass; NaN (the option is dropped) above 100."""
    return x if x <= 100 else math.nan


def _sci(mantissas: tuple[float, ...], exponents: tuple[int, ...]) -> tuple[float, ...]:
    """Values a × 10^e, rounded to dodge float noise."""
    return tuple(round(a * 10.0**e, 12 - e) for e in exponents for a in mantissas)


# Molar mass and nitrogen atoms per formula unit of real nitrogen compounds (urea, NH3, NH4NO3,
# glycine, (NH4)2SO4, HNO3, pyridine, aniline, KNO3, NH4Cl, N2H4, melamine, NaNO3, Ca(NO3)2,
# NO2, N2O, N2O5, HCN, nitrobenzene, NaN3, hexamine), so every draw describes a real substance.
NITROGEN_COMPOUNDS = {
    (60.0, 2.0),
    (17.0, 1.0),
    (80.0, 2.0),
    (75.0, 1.0),
    (132.0, 2.0),
    (63.0, 1.0),
    (79.0, 1.0),
    (93.0, 1.0),
    (101.0, 1.0),
    (53.5, 1.0),
    (32.0, 2.0),
    (126.0, 6.0),
    (85.0, 1.0),
    (164.0, 2.0),
    (46.0, 1.0),
    (44.0, 2.0),
    (108.0, 2.0),
    (27.0, 1.0),
    (123.0, 1.0),
    (65.0, 3.0),
    (140.0, 4.0),
}

# ---------------------------------------------------------------- u01 Some Basic Concepts
U01: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-percent-nitrogen",
        CHE,
        "che-percentage-composition",
        ONE_STEP,
        "substituting the nitrogen atoms, M_N and M in w_N = 100 n_N M_N/M",
        givens=(
            Q("Mm", "M", GMOL, choices=tuple(sorted({m for m, _ in NITROGEN_COMPOUNDS}))),
            Q("k", r"n_{\mathrm{N}}", choices=(1.0, 2.0, 3.0, 4.0, 6.0)),
            Q("AN", r"M_{\mathrm{N}}", GMOL, choices=(14.0,)),
        ),
        unknown=Q("pct", r"w_{\mathrm{N}}", r"\%", bounds=(0, 100)),
        relation="Eq(pct*Mm, 100*k*AN)",
        compute=lambda p: 100 * p["k"] * p["AN"] / p["Mm"],
        mistakes=(
            ("ignoring the number of N atoms", lambda p: 100 * p["AN"] / p["Mm"]),
            (
                "dividing by the mass of the rest of the compound",
                lambda p: _percent(100 * p["k"] * p["AN"] / (p["Mm"] - p["k"] * p["AN"])),
            ),
            ("using the atomic number 7 for nitrogen", lambda p: 100 * p["k"] * 7 / p["Mm"]),
            (
                "counting 28 g (N₂) per nitrogen atom",
                lambda p: _percent(100 * p["k"] * 2 * p["AN"] / p["Mm"]),
            ),
            (
                "giving the percentage of the other elements, 100 − w_N",
                lambda p: 100 - 100 * p["k"] * p["AN"] / p["Mm"],
            ),
            (
                "adding the nitrogen mass to the molar mass again",
                lambda p: 100 * p["k"] * p["AN"] / (p["Mm"] + p["k"] * p["AN"]),
            ),
            unit_slip(
                "giving the mass fraction, not multiplied by 100",
                lambda p: p["k"] * p["AN"] / p["Mm"],
            ),
        ),
        stem="A nitrogen compound has molar mass {Mm}, and the number of nitrogen atoms in each "
        "of its formula units is {k}. Taking {AN}, the percentage by mass of nitrogen in the "
        "compound is",
        method="Mass of nitrogen in one mole $= {k} \\times {AN}$ g, so "
        "$w_{{\\mathrm{{N}}}} = \\dfrac{{{k} \\times {AN}}}{{{Mm}}} \\times 100$ $=$ {answer}.",
        accept=lambda p: (p["Mm"], p["k"]) in NITROGEN_COMPOUNDS,
    ),
    NumericalTemplate(
        "che-limiting-reagent-ammonia",
        CHE,
        "che-stoichiometry",
        TWO_STEPS,
        "the moles of N₂ and H₂ from their masses, then the limiting reagent by the 1 : 3 ratio "
        "sets the ammonia formed (1 : 2)",
        givens=(
            Q("mN", r"m_{\mathrm{N_2}}", r"\mathrm{g}", choices=span(14, 140, 7)),
            Q("MN", r"M_{\mathrm{N_2}}", GMOL, choices=(28.0,)),
            Q("mH", r"m_{\mathrm{H_2}}", r"\mathrm{g}", choices=span(1, 30, 1)),
            Q("MH", r"M_{\mathrm{H_2}}", GMOL, choices=(2.0,)),
            Q("MA", r"M_{\mathrm{NH_3}}", GMOL, choices=(17.0,)),
        ),
        unknown=Q("m", r"m_{\mathrm{NH_3}}", r"\mathrm{g}"),
        relation="Eq(m, 2*MA*Min(mN/MN, mH/(3*MH)))",
        compute=lambda p: 2 * p["MA"] * min(p["mN"] / p["MN"], p["mH"] / (3 * p["MH"])),
        mistakes=(
            (
                "basing the yield on the reagent in excess",
                lambda p: 2 * p["MA"] * max(p["mN"] / p["MN"], p["mH"] / (3 * p["MH"])),
            ),
            (
                "missing the 2 in 2NH₃",
                lambda p: p["MA"] * min(p["mN"] / p["MN"], p["mH"] / (3 * p["MH"])),
            ),
            (
                "comparing moles of N₂ and H₂ directly, ignoring the 1 : 3 ratio",
                lambda p: 2 * p["MA"] * min(p["mN"] / p["MN"], p["mH"] / p["MH"]),
            ),
            ("adding the reactant masses", lambda p: p["mN"] + p["mH"]),
        ),
        stem="A mass {mN} of N₂ ({MN}) is mixed with a mass {mH} of H₂ ({MH}), and the mixture "
        "reacts as far as possible according to N₂(g) + 3H₂(g) → 2NH₃(g). Taking {MA}, the mass "
        "of ammonia formed is",
        method="Moles: $n_{{\\mathrm{{N_2}}}} = {mN}/{MN}$ and $n_{{\\mathrm{{H_2}}}} = {mH}/{MH}$. "
        "One mole of N₂ needs three moles of H₂, so N₂ can give at most "
        "$2n_{{\\mathrm{{N_2}}}}$ mol of NH₃ and H₂ at most $\\tfrac{{2}}{{3}}n_{{\\mathrm{{H_2}}}}$ "
        "mol; the smaller amount is set by the limiting reagent. Then "
        "$m = 2 \\times {MA} \\times \\min\\left(n_{{\\mathrm{{N_2}}}}, "
        "\\tfrac{{1}}{{3}}n_{{\\mathrm{{H_2}}}}\\right)$ $=$ {answer}.",
        # the limiting reagent must be clear-cut (not a near-stoichiometric mixture)
        accept=lambda p: not 0.8 <= (p["mH"] / (3 * p["MH"])) / (p["mN"] / p["MN"]) <= 1.25,
    ),
)

# ---------------------------------------------------------------- u02 Atomic Structure
U02: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-photon-energy-frequency",
        CHE,
        "che-quantum-theory-of-radiation",
        ONE_STEP,
        "substituting ν in Planck's relation E = hν",
        givens=(
            Q(
                "nu",
                r"\nu",
                r"\mathrm{Hz}",
                choices=_sci(span(4.0, 9.5, 0.5), (14,)) + _sci(span(1.0, 3.0, 0.5), (15,)),
            ),
            Q("h", "h", r"\mathrm{J\,s}", choices=(6.626e-34,)),
        ),
        unknown=Q("En", "E", r"\mathrm{J}"),
        relation="Eq(En, h*nu)",
        compute=lambda p: p["h"] * p["nu"],
        mistakes=(
            ("using ħ = h/2π instead of h", lambda p: p["h"] * p["nu"] / (2 * math.pi)),
            ("using the angular frequency, E = h(2πν)", lambda p: 2 * math.pi * p["h"] * p["nu"]),
            unit_slip("giving the energy in electronvolts", lambda p: p["h"] * p["nu"] / 1.602e-19),
            ("dividing, E = h/ν", lambda p: p["h"] / p["nu"]),
        ),
        stem="Electromagnetic radiation of frequency {nu} falls on a metal surface. Taking {h}, "
        "the energy of one photon of this radiation is",
        method="By Planck's quantum theory, $E = h\\nu = ({h})({nu})$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "che-rydberg-wavelength",
        CHE,
        "che-hydrogen-atomic-spectrum",
        ONE_STEP,
        "substituting n_i and n_f in the Rydberg formula, 1/λ = R_H(1/n_f² − 1/n_i²)",
        givens=(
            Q("ni", "n_i", choices=(2.0, 3.0, 4.0, 5.0, 6.0)),
            Q("nf", "n_f", choices=(1.0, 2.0, 3.0)),
            Q("RH", r"R_{\mathrm{H}}", r"\mathrm{m^{-1}}", choices=(1.097e7,)),
        ),
        unknown=Q("lam", r"\lambda", r"\mathrm{nm}", si=1e-9),
        relation="Eq(1/lam, RH*(1/nf**2 - 1/ni**2))",
        compute=lambda p: 1 / (p["RH"] * (1 / p["nf"] ** 2 - 1 / p["ni"] ** 2)),
        mistakes=(
            (
                "adding the inverse squares",
                lambda p: 1 / (p["RH"] * (1 / p["nf"] ** 2 + 1 / p["ni"] ** 2)),
            ),
            (
                "using n instead of n²",
                lambda p: 1 / (p["RH"] * (1 / p["nf"] - 1 / p["ni"])),
            ),
            ("taking the series limit, 1/λ = R_H/n_f²", lambda p: p["nf"] ** 2 / p["RH"]),
            unit_slip(
                "converting metres to ångström instead of nanometres",
                lambda p: 10 / (p["RH"] * (1 / p["nf"] ** 2 - 1 / p["ni"] ** 2)),
            ),
        ),
        stem="The electron in a hydrogen atom drops from the orbit {ni} to the orbit {nf}. "
        "Taking {RH}, the wavelength of the photon emitted is",
        method="Rydberg formula: $\\dfrac{{1}}{{\\lambda}} = R_{{\\mathrm{{H}}}}\\left("
        "\\dfrac{{1}}{{n_f^2}} - \\dfrac{{1}}{{n_i^2}}\\right) = ({RH})\\left(\\dfrac{{1}}{{{nf}^2}}"
        " - \\dfrac{{1}}{{{ni}^2}}\\right)\\ \\mathrm{{m^{{-1}}}}$; taking the reciprocal and "
        "converting metres to nanometres gives $\\lambda =$ {answer}.",
        accept=lambda p: p["ni"] > p["nf"],
    ),
    NumericalTemplate(
        "che-photon-energy-wavelength",
        CHE,
        "che-quantum-theory-of-radiation",
        ONE_STEP,
        "substituting λ (in metres) in E = hc/λ",
        givens=(
            Q("lam", r"\lambda", r"\mathrm{nm}", si=1e-9, choices=span(200, 800, 10)),
            H_PLANCK,
            C_LIGHT,
        ),
        unknown=Q("En", "E", r"\mathrm{J}"),
        relation="Eq(En*lam, h*c)",
        compute=lambda p: p["h"] * p["c"] / p["lam"],
        mistakes=(
            ("using ħ = h/2π instead of h", lambda p: p["h"] * p["c"] / (2 * math.pi * p["lam"])),
            unit_slip(
                "converting nanometres with 10⁻¹⁰ m (the ångström)",
                lambda p: 10 * p["h"] * p["c"] / p["lam"],
            ),
            unit_slip(
                "leaving λ in nanometres",
                lambda p: p["h"] * p["c"] / (p["lam"] * 1e9),
            ),
            ("leaving out c, E = h/λ", lambda p: p["h"] / p["lam"]),
        ),
        stem="A lamp emits monochromatic light of wavelength {lam}. Taking {h} and {c}, the "
        "energy of one photon of this light is",
        method="$E = h\\nu = \\dfrac{{hc}}{{\\lambda}} = \\dfrac{{({h})({c})}}"
        "{{{lam} \\times 10^{{-9}}}}$ J $=$ {answer}.",
    ),
    NumericalTemplate(
        "che-de-broglie-electron-speed",
        CHE,
        "che-de-broglie-and-uncertainty",
        ONE_STEP,
        "substituting m_e and v in λ = h/(m_e v)",
        givens=(
            Q("v", "v", r"\mathrm{m\,s^{-1}}", choices=_sci(span(1.0, 9.8, 0.2), (5, 6))),
            M_ELECTRON,
            H_PLANCK,
        ),
        unknown=Q("lam", r"\lambda", r"\mathrm{nm}", si=1e-9),
        relation="Eq(lam*me*v, h)",
        compute=lambda p: p["h"] / (p["me"] * p["v"]),
        mistakes=(
            ("using ħ = h/2π instead of h", lambda p: p["h"] / (2 * math.pi * p["me"] * p["v"])),
            unit_slip(
                "giving the value in ångström as if it were in nanometres",
                lambda p: p["h"] / (p["me"] * p["v"]) * 10,
            ),
            unit_slip(
                "taking the electron mass in grams, 9.1 × 10⁻²⁸",
                lambda p: p["h"] / (p["me"] * 1000 * p["v"]),
            ),
            (
                "using the proton mass, 1.67 × 10⁻²⁷ kg",
                lambda p: p["h"] / (M_PROTON * p["v"]),
            ),
        ),
        stem="An electron moves with speed {v}. Taking {me} and {h}, the de Broglie "
        "wavelength associated with the electron is",
        method="$\\lambda = \\dfrac{{h}}{{m_e v}} = \\dfrac{{{h}}}{{({me})({v})}}$ m; in "
        "nanometres, $\\lambda =$ {answer}.",
    ),
    NumericalTemplate(
        "che-photons-per-second",
        CHE,
        "che-quantum-theory-of-radiation",
        TWO_STEPS,
        "the energy of one photon, hc/λ, then the power divided by it",
        givens=(
            Q("P", "P", r"\mathrm{W}", choices=span(10, 100, 5)),
            Q("lam", r"\lambda", r"\mathrm{nm}", si=1e-9, choices=span(400, 700, 10)),
            H_PLANCK,
            C_LIGHT,
        ),
        unknown=Q("N", "N", r"\mathrm{s^{-1}}"),
        relation="Eq(N*h*c, P*lam)",
        compute=lambda p: p["P"] * p["lam"] / (p["h"] * p["c"]),
        mistakes=(
            (
                "using ħ = h/2π for the photon energy",
                lambda p: 2 * math.pi * p["P"] * p["lam"] / (p["h"] * p["c"]),
            ),
            unit_slip(
                "converting nanometres with 10⁻¹⁰ m (the ångström)",
                lambda p: p["P"] * p["lam"] / (10 * p["h"] * p["c"]),
            ),
            unit_slip(
                "leaving λ in nanometres",
                lambda p: p["P"] * p["lam"] * 1e9 / (p["h"] * p["c"]),
            ),
            (
                "multiplying the power by the photon energy instead of dividing",
                lambda p: p["P"] * p["h"] * p["c"] / p["lam"],
            ),
        ),
        stem="A bulb emits monochromatic light with a radiant power {P} at wavelength {lam}. "
        "Taking {h} and {c}, the number of photons the bulb emits per second is",
        method="Energy of one photon: $E = \\dfrac{{hc}}{{\\lambda}} = \\dfrac{{({h})({c})}}"
        "{{{lam} \\times 10^{{-9}}}}$ J. The bulb emits {P} J each second, so "
        "$N = \\dfrac{{P}}{{E}} = \\dfrac{{P\\lambda}}{{hc}}$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "che-de-broglie-accelerated-electron",
        CHE,
        "che-de-broglie-and-uncertainty",
        TWO_STEPS,
        "the kinetic energy eV gives the momentum p = √(2m_e eV), then λ = h/p",
        givens=(
            Q("V", "V", r"\mathrm{V}", choices=span(50, 1000, 10)),
            M_ELECTRON,
            Q("e", "e", r"\mathrm{C}", choices=(1.6e-19,)),
            H_PLANCK,
        ),
        unknown=Q("lam", r"\lambda", r"\mathrm{pm}", si=1e-12),
        relation="Eq(lam, h/sqrt(2*me*e*V))",
        compute=lambda p: p["h"] / math.sqrt(2 * p["me"] * p["e"] * p["V"]),
        mistakes=(
            (
                "dropping the 2 in p = √(2mK)",
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
                "using the proton mass, 1.67 × 10⁻²⁷ kg",
                lambda p: p["h"] / math.sqrt(2 * M_PROTON * p["e"] * p["V"]),
            ),
            (
                "taking p = 2m_e eV, without the square root",
                lambda p: p["h"] / (2 * p["me"] * p["e"] * p["V"]),
            ),
        ),
        stem="An electron, initially at rest, is accelerated through a potential difference "
        "{V}. Taking {me}, {e} and {h}, the de Broglie wavelength of the electron is",
        method="Kinetic energy $K = eV = ({e})({V})$ J; momentum $p = \\sqrt{{2m_e K}}$, so "
        "$\\lambda = \\dfrac{{h}}{{\\sqrt{{2m_e eV}}}} = \\dfrac{{{h}}}"
        "{{\\sqrt{{2 \\times {me} \\times {e} \\times {V}}}}}$ m $=$ {answer}.",
    ),
)


# ---------------------------------------------------------------- u04 Thermodynamics
def _both_terms_count(p: Params) -> bool:
    """ΔG = ΔH − TΔS of at least 15 kJ in which neither term, nor their sum, is under a tenth
    of ΔG: dropping a term or its sign then stays a believable slip."""
    dh, tds = p["dH"], p["T"] * p["dS"]
    dg = abs(dh - tds)
    return dg >= 15e3 and min(abs(dh), abs(tds), abs(dh + tds)) >= dg / 10


U04: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-gibbs-from-enthalpy-entropy",
        CHE,
        "che-gibbs-energy-and-equilibrium",
        ONE_STEP,
        "substituting ΔH, T and ΔS (in kJ) in ΔG = ΔH − TΔS",
        givens=(
            Q("T", "T", r"\mathrm{K}", choices=span(300, 1200, 50)),
            Q("dH", r"\Delta H", KJMOL, si=1000, choices=span(-120, 120, 5)),
            Q("dS", r"\Delta S", r"\mathrm{J\,K^{-1}\,mol^{-1}}", choices=span(-250, 250, 10)),
        ),
        unknown=Q("dG", r"\Delta G", KJMOL, si=1000),
        relation="Eq(dG, dH - T*dS)",
        compute=lambda p: p["dH"] - p["T"] * p["dS"],
        mistakes=(
            ("using the Celsius temperature", lambda p: p["dH"] - (p["T"] - 273) * p["dS"]),
            ("a sign slip, ΔG = ΔH + TΔS", lambda p: p["dH"] + p["T"] * p["dS"]),
            ("ignoring the TΔS term, ΔG = ΔH", lambda p: p["dH"]),
            ("leaving out ΔH, ΔG = −TΔS", lambda p: -p["T"] * p["dS"]),
            unit_slip(
                "not converting ΔS from J to kJ",
                lambda p: p["dH"] - 1000 * p["T"] * p["dS"],
            ),
            unit_slip(
                "converting ΔH to joules but reporting in kJ",
                lambda p: 1000 * p["dH"] - p["T"] * p["dS"],
            ),
            ("using 298 K in place of the stated temperature", lambda p: p["dH"] - 298 * p["dS"]),
        ),
        stem="For a reaction at {T}, the enthalpy change is {dH} and the entropy change is "
        "{dS}. The Gibbs energy change of the reaction at this temperature is",
        method="$\\Delta G = \\Delta H - T\\Delta S$ with $\\Delta S$ in kJ: "
        "$\\Delta G = ({dH}) - ({T})\\left(\\dfrac{{{dS}}}{{1000}}\\right)$ $=$ {answer}.",
        accept=_both_terms_count,
    ),
    NumericalTemplate(
        "che-hess-co-formation",
        CHE,
        "che-enthalpy-and-hess-law",
        REVERSED,
        "Hess's law ΔH₁ = Δ_fH + ΔH₂ for the two routes from C to CO₂, solved for the unknown "
        "step Δ_fH (the second equation reversed and added to the first)",
        givens=(
            Q("dH1", r"\Delta H_1", KJMOL, choices=span(-396, -391, 0.5)),
            Q("dH2", r"\Delta H_2", KJMOL, choices=span(-285, -281, 0.5)),
        ),
        unknown=Q("dHf", r"\Delta_f H", KJMOL),
        relation="Eq(dH1, dHf + dH2)",
        compute=lambda p: p["dH1"] - p["dH2"],
        mistakes=(
            ("adding the equations without reversing the second", lambda p: p["dH1"] + p["dH2"]),
            ("halving ΔH₂ because of the ½O₂", lambda p: p["dH1"] - p["dH2"] / 2),
            ("giving ΔH for 2C + O₂ → 2CO", lambda p: 2 * (p["dH1"] - p["dH2"])),
            ("taking CO₂'s enthalpy of formation, ΔH₁, for CO", lambda p: p["dH1"]),
        ),
        stem="Given: C(graphite) + O₂(g) → CO₂(g), {dH1}; and CO(g) + ½O₂(g) → CO₂(g), {dH2}. "
        "The standard enthalpy of formation of CO(g) is",
        method="The route C → CO → CO₂ and the direct route C → CO₂ have the same enthalpy "
        "change (Hess's law): $\\Delta H_1 = \\Delta_f H + \\Delta H_2$, so "
        "$\\Delta_f H = ({dH1}) - ({dH2})$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "che-work-against-constant-pressure",
        CHE,
        "che-first-law-and-enthalpy",
        ONE_STEP,
        "substituting P_ext and ΔV in w = −P_ext ΔV, with 1 L atm = 101.3 J",
        givens=(
            Q("P", r"P_{\mathrm{ext}}", r"\mathrm{atm}", si=101325, choices=span(0.5, 5, 0.5)),
            Q("dV", r"\Delta V", r"\mathrm{L}", si=1e-3, choices=span(0.5, 10, 0.5)),
        ),
        unknown=Q("w", "w", r"\mathrm{J}"),
        relation="Eq(w, -P*dV)",
        compute=lambda p: -p["P"] * p["dV"],
        mistakes=(
            unit_slip("leaving the answer in L atm", lambda p: -p["P"] * p["dV"] / LATM_J),
            unit_slip(
                "converting with 8.314 J per L atm instead of 101.3",
                lambda p: -p["P"] * p["dV"] / LATM_J * 8.314,
            ),
            unit_slip(
                "dividing by 101.3 instead of multiplying",
                lambda p: -p["P"] * p["dV"] / LATM_J**2,
            ),
            unit_slip(
                "converting with 1 atm = 1.013 × 10⁵ Pa but leaving ΔV in litres",
                lambda p: -p["P"] * p["dV"] * 1000,
            ),
        ),
        stem="A gas expands against a constant external pressure {P}, and its volume increases "
        "by {dV}. Taking work done on the system as positive, the work done on the gas is",
        method="For expansion against a constant external pressure, "
        "$w = -P_{{\\mathrm{{ext}}}}\\Delta V = -({P})({dV})$ L atm; with "
        "1 L atm $= 101.3$ J this is {answer}.",
    ),
    NumericalTemplate(
        "che-heat-from-specific-heat",
        CHE,
        "che-heat-capacity",
        ONE_STEP,
        "substituting m, c and ΔT in q = mcΔT",
        givens=(
            Q("m", "m", r"\mathrm{g}", choices=span(20, 500, 10)),
            Q(
                "c",
                "c",
                r"\mathrm{J\,g^{-1}\,K^{-1}}",
                choices=(0.129, 0.235, 0.385, 0.449, 0.897, 2.44, 4.18),
            ),
            Q("dT", r"\Delta T", r"\mathrm{K}", choices=span(5, 60, 5)),
        ),
        unknown=Q("q", "q", r"\mathrm{kJ}", si=1000),
        relation="Eq(q, m*c*dT)",
        compute=lambda p: p["m"] * p["c"] * p["dT"],
        mistakes=(
            unit_slip(
                "converting the mass to kilograms",
                lambda p: p["m"] * p["c"] * p["dT"] / 1000,
            ),
            ("leaving out c, q = mΔT", lambda p: p["m"] * p["dT"]),
            unit_slip(
                "giving the heat in joules, not kilojoules",
                lambda p: p["m"] * p["c"] * p["dT"] * 1000,
            ),
            ("using the specific heat of water, 4.18", lambda p: p["m"] * 4.18 * p["dT"]),
            ("dividing by c instead of multiplying", lambda p: p["m"] * p["dT"] / p["c"]),
        ),
        stem="A sample of mass {m} of a substance whose specific heat capacity is {c} is warmed "
        "so that its temperature rises by {dT}. The heat absorbed by the sample is",
        method="$q = mc\\Delta T = ({m})({c})({dT})$ J, which in kilojoules is {answer}.",
    ),
)

# ---------------------------------------------------------------- u05 Solutions
U05: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-raoult-total-pressure",
        CHE,
        "che-raoults-law",
        ONE_STEP,
        "substituting the mole fractions (from the moles) and the pure vapour pressures in "
        "Raoult's law, p = x_b p°_b + x_t p°_t",
        givens=(
            Q("nA", r"n_{\mathrm{benzene}}", r"\mathrm{mol}", choices=span(0.5, 4, 0.5)),
            Q("nB", r"n_{\mathrm{toluene}}", r"\mathrm{mol}", choices=span(0.5, 4, 0.5)),
            Q("pA", r"p^\circ_{\mathrm{benzene}}", r"\mathrm{mm\,Hg}", choices=span(70, 160, 5)),
            Q("pB", r"p^\circ_{\mathrm{toluene}}", r"\mathrm{mm\,Hg}", choices=span(20, 60, 5)),
        ),
        unknown=Q("p", r"p", r"\mathrm{mm\,Hg}"),
        relation="Eq(p*(nA + nB), nA*pA + nB*pB)",
        compute=lambda p: (p["nA"] * p["pA"] + p["nB"] * p["pB"]) / (p["nA"] + p["nB"]),
        mistakes=(
            ("averaging the pure vapour pressures", lambda p: (p["pA"] + p["pB"]) / 2),
            (
                "swapping the mole fractions",
                lambda p: (p["nB"] * p["pA"] + p["nA"] * p["pB"]) / (p["nA"] + p["nB"]),
            ),
            ("adding the pure vapour pressures", lambda p: p["pA"] + p["pB"]),
            (
                "giving only benzene's partial pressure",
                lambda p: p["nA"] * p["pA"] / (p["nA"] + p["nB"]),
            ),
        ),
        stem="An ideal solution is made by mixing {nA} of benzene with {nB} of toluene. At the "
        "temperature of the experiment the vapour pressures of the pure liquids are {pA} and "
        "{pB}. The total vapour pressure over the solution is",
        method="Raoult's law: $p = x_{{\\mathrm{{b}}}}p^\\circ_{{\\mathrm{{benzene}}}} + "
        "x_{{\\mathrm{{t}}}}p^\\circ_{{\\mathrm{{toluene}}}}$ with "
        "$x_{{\\mathrm{{b}}}} = \\dfrac{{{nA}}}{{{nA} + {nB}}}$ and "
        "$x_{{\\mathrm{{t}}}} = \\dfrac{{{nB}}}{{{nA} + {nB}}}$, so "
        "$p = \\dfrac{{({nA})({pA}) + ({nB})({pB})}}{{{nA} + {nB}}}$ $=$ {answer}.",
        accept=lambda p: p["nA"] != p["nB"],
    ),
    NumericalTemplate(
        "che-osmotic-pressure",
        CHE,
        "che-colligative-properties",
        ONE_STEP,
        "substituting C, R and T in π = CRT",
        givens=(
            Q("C", "C", MOLL, choices=span(0.01, 0.2, 0.01)),
            Q("T", "T", r"\mathrm{K}", choices=span(280, 320, 5)),
            R_LATM,
        ),
        unknown=Q("pi", r"\pi", r"\mathrm{atm}"),
        relation="Eq(pi, C*R*T)",
        compute=lambda p: p["C"] * p["R"] * p["T"],
        mistakes=(
            unit_slip(
                "using R = 8.314 J K⁻¹ mol⁻¹ with litre-atmosphere units",
                lambda p: p["C"] * 8.314 * p["T"],
            ),
            unit_slip(
                "using the Celsius temperature",
                lambda p: p["C"] * p["R"] * (p["T"] - 273),
            ),
            (
                "treating the solute as a salt giving two ions (i = 2)",
                lambda p: 2 * p["C"] * p["R"] * p["T"],
            ),
            ("dividing by T, π = CR/T", lambda p: p["C"] * p["R"] / p["T"]),
        ),
        stem="An aqueous solution of a non-electrolyte has molar concentration {C} at "
        "temperature {T}. Taking {R}, the osmotic pressure of the solution is",
        method="Van 't Hoff equation for osmotic pressure: $\\pi = CRT = ({C})({R})({T})$ "
        "$=$ {answer}.",
    ),
    NumericalTemplate(
        "che-freezing-point-vant-hoff",
        CHE,
        "che-vant-hoff-factor",
        TWO_STEPS,
        "the van 't Hoff factor i = 1 + 2α from the dissociation into three ions, then "
        "ΔT_f = iK_f m",
        givens=(
            Q("m", "m", r"\mathrm{mol\,kg^{-1}}", choices=span(0.05, 0.5, 0.05)),
            Q("alpha", r"\alpha", choices=span(0.6, 0.9, 0.05)),
            Q("Kf", "K_f", r"\mathrm{K\,kg\,mol^{-1}}", choices=(1.86,)),
        ),
        unknown=Q("dT", r"\Delta T_f", r"\mathrm{K}"),
        relation="Eq(dT, (1 + 2*alpha)*Kf*m)",
        compute=lambda p: (1 + 2 * p["alpha"]) * p["Kf"] * p["m"],
        mistakes=(
            ("ignoring dissociation (i = 1)", lambda p: p["Kf"] * p["m"]),
            (
                "i = 1 + α, as for a salt giving two ions",
                lambda p: (1 + p["alpha"]) * p["Kf"] * p["m"],
            ),
            ("assuming complete dissociation (i = 3)", lambda p: 3 * p["Kf"] * p["m"]),
            (
                "i = 1 + nα with n = 3 ions, not n − 1",
                lambda p: (1 + 3 * p["alpha"]) * p["Kf"] * p["m"],
            ),
        ),
        stem="An aqueous solution of CaCl₂ has molality {m}, and the degree of dissociation of "
        "the salt in it is {alpha}. Taking {Kf} for water, the depression in freezing point of "
        "the solution is",
        method="CaCl₂ → Ca²⁺ + 2Cl⁻ gives three ions, so $i = 1 + (3 - 1)\\alpha = 1 + 2({alpha})$. "
        "Then $\\Delta T_f = iK_f m = (1 + 2 \\times {alpha})({Kf})({m})$ $=$ {answer}.",
    ),
)

# ---------------------------------------------------------------- u06 Equilibrium
U06: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-kp-from-kc-ammonia",
        CHE,
        "che-law-of-mass-action",
        ONE_STEP,
        "substituting K_c, T and Δn_g = −2 (read from the equation) in K_p = K_c(RT)^Δn_g",
        givens=(
            Q("T", "T", r"\mathrm{K}", choices=span(400, 800, 50)),
            Q(
                "Kc",
                "K_c",
                r"\mathrm{L^2\,mol^{-2}}",
                choices=_sci((1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0), (-2, -1, 0, 1)),
            ),
            R_LATM,
        ),
        unknown=Q("Kp", "K_p", r"\mathrm{atm^{-2}}"),
        relation="Eq(Kp, Kc*(R*T)**(-2))",
        compute=lambda p: p["Kc"] / (p["R"] * p["T"]) ** 2,
        mistakes=(
            unit_slip(
                "using the Celsius temperature", lambda p: p["Kc"] / (p["R"] * (p["T"] - 273)) ** 2
            ),
            unit_slip(
                "using R = 8.314 J K⁻¹ mol⁻¹ with pressures in atm",
                lambda p: p["Kc"] / (8.314 * p["T"]) ** 2,
            ),
            unit_slip(
                "using R = 1.987 cal K⁻¹ mol⁻¹ with pressures in atm",
                lambda p: p["Kc"] / (1.987 * p["T"]) ** 2,
            ),
            # The slips in Δn_g are the ones this question tests, but each is a factor of RT
            # (30 to 70) or more from the key, which the giveaway screen refuses.
            ("taking Δn_g = −1 (N₂ left out of the count)", lambda p: p["Kc"] / (p["R"] * p["T"])),
            ("taking Δn_g = +2 (a sign slip)", lambda p: p["Kc"] * (p["R"] * p["T"]) ** 2),
        ),
        stem="For the equilibrium N₂(g) + 3H₂(g) ⇌ 2NH₃(g) at {T}, the equilibrium constant is "
        "{Kc}. Taking {R}, the value of $K_p$ at this temperature is",
        method="$K_p = K_c(RT)^{{\\Delta n_g}}$ with $\\Delta n_g = 2 - (1 + 3) = -2$, so "
        "$K_p = \\dfrac{{{Kc}}}{{({R} \\times {T})^2}}$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "che-buffer-henderson",
        CHE,
        "che-ph-and-buffers",
        ONE_STEP,
        "substituting pK_a and [A⁻]/[HA] in pH = pK_a + log([A⁻]/[HA])",
        givens=(
            Q("ca", r"[\mathrm{HA}]", MOLL, choices=BUFFER_CONCS),
            Q("cs", r"[\mathrm{A^-}]", MOLL, choices=BUFFER_CONCS),
            Q("pKa", r"\mathrm{p}K_a", choices=(3.75, 4.2, 4.76, 4.87)),
        ),
        unknown=Q("pH", r"\mathrm{pH}"),
        relation="Eq(10**(-pH), 10**(-pKa)*ca/cs)",
        compute=lambda p: p["pKa"] + math.log10(p["cs"] / p["ca"]),
        mistakes=(
            (
                "inverting the ratio, log([HA]/[A⁻])",
                lambda p: p["pKa"] + math.log10(p["ca"] / p["cs"]),
            ),
            ("using the natural logarithm", lambda p: p["pKa"] + math.log(p["cs"] / p["ca"])),
            ("ignoring the ratio, pH = pKa", lambda p: p["pKa"]),
            ("leaving out [HA], pH = pKa + log[A⁻]", lambda p: p["pKa"] + math.log10(p["cs"])),
        ),
        stem="A buffer solution contains a weak acid HA at {ca} and its sodium salt NaA at {cs}. "
        "Given {pKa} for HA, the pH of the buffer is",
        method="Henderson–Hasselbalch equation: $\\mathrm{{pH}} = \\mathrm{{p}}K_a + \\log_{{10}}"
        "\\dfrac{{[\\mathrm{{A^-}}]}}{{[\\mathrm{{HA}}]}} = {pKa} + \\log_{{10}}\\dfrac{{{cs}}}{{{ca}}}$"
        " $=$ {answer}.",
        accept=lambda p: abs(math.log10(p["cs"] / p["ca"])) >= 0.3,
    ),
    NumericalTemplate(
        "che-weak-acid-ph",
        CHE,
        "che-ionisation-of-weak-acids-and-bases",
        TWO_STEPS,
        "[H⁺] = √(K_a c) from the equilibrium under the small-ionisation approximation, then "
        "pH = −log₁₀[H⁺]",
        givens=(
            Q(
                "Ka",
                "K_a",
                choices=_sci((1.0, 1.5, 1.8, 2.0, 3.0, 4.0, 5.0, 6.4, 8.0), (-6, -5, -4)),
            ),
            Q("c", "c", MOLL, choices=(0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5)),
        ),
        unknown=Q("pH", r"\mathrm{pH}"),
        relation="Eq(Ka, 10**(-2*pH)/c)",
        compute=lambda p: -math.log10(math.sqrt(p["Ka"] * p["c"])),
        mistakes=(
            ("forgetting the square root", lambda p: -math.log10(p["Ka"] * p["c"])),
            ("ignoring the concentration, pH = ½pKa", lambda p: -0.5 * math.log10(p["Ka"])),
            (
                "using the natural logarithm",
                lambda p: -math.log(math.sqrt(p["Ka"] * p["c"])),
            ),
            ("taking [H⁺] = c, as for a strong acid", lambda p: -math.log10(p["c"])),
        ),
        stem="A weak monobasic acid HA has {Ka}. Assuming that it ionises only slightly, the pH "
        "of its aqueous solution of concentration {c} is",
        method="With $[\\mathrm{{H^+}}] = x \\ll c$, $K_a = x^2/c$, so "
        "$[\\mathrm{{H^+}}] = \\sqrt{{K_a c}} = \\sqrt{{({Ka})({c})}}$ and "
        "$\\mathrm{{pH}} = -\\log_{{10}}[\\mathrm{{H^+}}]$ $=$ {answer}.",
        # the approximation holds only for a small degree of ionisation
        accept=lambda p: math.sqrt(p["Ka"] / p["c"]) <= 0.05,
    ),
    NumericalTemplate(
        "che-kc-hydrogen-iodide",
        CHE,
        "che-law-of-mass-action",
        ONE_STEP,
        "substituting the concentrations in K_c = [HI]²/([H₂][I₂])",
        givens=(
            Q("cH", r"[\mathrm{H_2}]", MOLL, choices=span(0.05, 0.5, 0.05)),
            Q("cI", r"[\mathrm{I_2}]", MOLL, choices=span(0.05, 0.5, 0.05)),
            Q("cHI", r"[\mathrm{HI}]", MOLL, choices=span(0.2, 3.0, 0.1)),
        ),
        unknown=Q("Kc", "K_c"),
        relation="Eq(Kc*cH*cI, cHI**2)",
        compute=lambda p: p["cHI"] ** 2 / (p["cH"] * p["cI"]),
        mistakes=(
            ("not squaring [HI]", lambda p: p["cHI"] / (p["cH"] * p["cI"])),
            ("writing 2[HI] instead of [HI]²", lambda p: 2 * p["cHI"] / (p["cH"] * p["cI"])),
            (
                "doubling [HI] before squaring, (2[HI])²",
                lambda p: (2 * p["cHI"]) ** 2 / (p["cH"] * p["cI"]),
            ),
            (
                "dividing [HI] by its coefficient, ([HI]/2)²",
                lambda p: (p["cHI"] / 2) ** 2 / (p["cH"] * p["cI"]),
            ),
            ("adding the reactant concentrations", lambda p: p["cHI"] ** 2 / (p["cH"] + p["cI"])),
            ("inverting the expression", lambda p: p["cH"] * p["cI"] / p["cHI"] ** 2),
        ),
        stem="For the equilibrium H₂(g) + I₂(g) ⇌ 2HI(g) at 700 K, the equilibrium "
        "concentrations are {cH}, {cI} and {cHI}. The equilibrium constant $K_c$ of the "
        "reaction at this temperature is",
        method="$K_c = \\dfrac{{[\\mathrm{{HI}}]^2}}{{[\\mathrm{{H_2}}][\\mathrm{{I_2}}]}} = "
        "\\dfrac{{({cHI})^2}}{{({cH})({cI})}}$ $=$ {answer}.",
        accept=lambda p: 10 <= p["cHI"] ** 2 / (p["cH"] * p["cI"]) <= 100,
    ),
    NumericalTemplate(
        "che-ph-strong-base",
        CHE,
        "che-ph-of-strong-acids-and-bases",
        TWO_STEPS,
        "pOH = −log₁₀[OH⁻] for the fully dissociated base, then pH = 14 − pOH (from K_w)",
        givens=(
            Q(
                "c",
                r"[\mathrm{NaOH}]",
                MOLL,
                choices=_sci(
                    (1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0, 8.0), (-6, -5, -4, -3, -2)
                ),
            ),
            Q("Kw", "K_w", choices=(1e-14,)),
        ),
        unknown=Q("pH", r"\mathrm{pH}"),
        relation="Eq(10**(-pH)*c, Kw)",
        compute=lambda p: -math.log10(p["Kw"] / p["c"]),
        mistakes=(
            ("reporting the pOH", lambda p: -math.log10(p["c"])),
            ("taking pH + pOH = 7", lambda p: 7 + math.log10(p["c"])),
            (
                "taking [OH⁻] = √c, as for a weak base",
                lambda p: 14 + 0.5 * math.log10(p["c"]),
            ),
            ("using the natural logarithm", lambda p: -math.log10(p["Kw"]) + math.log(p["c"])),
        ),
        stem="An aqueous solution of sodium hydroxide, a strong base, has {c} at 298 K. Taking "
        "{Kw}, the pH of the solution is",
        method="NaOH is fully dissociated, so $[\\mathrm{{OH^-}}] = {c}$ mol L⁻¹ and "
        "$[\\mathrm{{H^+}}] = K_w/[\\mathrm{{OH^-}}]$: "
        "$\\mathrm{{pH}} = -\\log_{{10}}\\dfrac{{{Kw}}}{{{c}}}$ $=$ {answer}.",
    ),
)

# ---------------------------------------------------------------- u07 Electrochemistry
U07: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-gibbs-from-emf",
        CHE,
        "che-emf-and-gibbs-energy",
        ONE_STEP,
        "substituting n, F and E° in ΔG° = −nFE°",
        givens=(
            Q("n", "n", choices=(2.0, 3.0, 4.0, 6.0)),
            Q("E0", r"E^\circ_{\mathrm{cell}}", r"\mathrm{V}", choices=span(0.1, 2.0, 0.05)),
            FARADAY,
        ),
        unknown=Q("dG", r"\Delta G^\circ", KJMOL, si=1000),
        relation="Eq(dG, -n*F*E0)",
        compute=lambda p: -p["n"] * p["F"] * p["E0"],
        mistakes=(
            ("ignoring n", lambda p: -p["F"] * p["E0"]),
            (
                "carrying over the 2.303 of ΔG° = −2.303RT log K",
                lambda p: -2.303 * p["n"] * p["F"] * p["E0"],
            ),
            unit_slip(
                "leaving the result in joules",
                lambda p: -p["n"] * p["F"] * p["E0"] * 1000,
            ),
            ("dividing by n", lambda p: -p["F"] * p["E0"] / p["n"]),
        ),
        stem="For a cell reaction in which the number of electrons transferred is {n}, the "
        "standard EMF of the cell is {E0}. Taking {F}, the standard Gibbs energy change of the "
        "reaction is",
        method="$\\Delta G^\\circ = -nFE^\\circ_{{\\mathrm{{cell}}}} = -({n})({F})({E0})$ J mol⁻¹, "
        "which in kJ mol⁻¹ is {answer}.",
    ),
    NumericalTemplate(
        "che-faraday-copper",
        CHE,
        "che-electrolysis",
        TWO_STEPS,
        "the charge Q = It (time in seconds), then Faraday's law m = QM/(2F) for Cu²⁺ + 2e⁻ → Cu",
        givens=(
            Q("I", "I", r"\mathrm{A}", choices=span(0.5, 5, 0.5)),
            Q("t", "t", r"\mathrm{min}", si=60, choices=span(10, 120, 10)),
            Q("Mm", r"M_{\mathrm{Cu}}", GMOL, choices=(63.5,)),
            FARADAY,
        ),
        unknown=Q("m", "m", r"\mathrm{g}"),
        relation="Eq(2*F*m, I*t*Mm)",
        compute=lambda p: p["I"] * p["t"] * p["Mm"] / (2 * p["F"]),
        mistakes=(
            unit_slip(
                "leaving the time in minutes",
                lambda p: p["I"] * p["t"] / 60 * p["Mm"] / (2 * p["F"]),
            ),
            ("taking n = 1 for Cu²⁺", lambda p: p["I"] * p["t"] * p["Mm"] / p["F"]),
            (
                "using the molar mass of CuSO₄ (159.5) instead of Cu",
                lambda p: p["I"] * p["t"] * 159.5 / (2 * p["F"]),
            ),
            (
                "using copper's atomic number 29 in place of its molar mass",
                lambda p: p["I"] * p["t"] * 29 / (2 * p["F"]),
            ),
        ),
        stem="A current of {I} is passed for {t} through an aqueous solution of CuSO₄. Taking "
        "{Mm} and {F}, the mass of copper deposited at the cathode is",
        method="Charge $Q = It = {I} \\times ({t} \\times 60)$ C. Cu²⁺ + 2e⁻ → Cu, so "
        "$m = \\dfrac{{Q M_{{\\mathrm{{Cu}}}}}}{{2F}} = \\dfrac{{{I} \\times {t} \\times 60 \\times "
        "{Mm}}}{{2 \\times {F}}}$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "che-nernst-cu-ag",
        CHE,
        "che-nernst-equation",
        TWO_STEPS,
        "the cell reaction Cu + 2Ag⁺ → Cu²⁺ + 2Ag from the cell (n = 2, Q = [Cu²⁺]/[Ag⁺]²), then "
        "the Nernst equation",
        givens=(
            Q("E0", r"E^\circ_{\mathrm{cell}}", r"\mathrm{V}", choices=(0.46,)),
            Q(
                "cu",
                r"[\mathrm{Cu^{2+}}]",
                MOLL,
                choices=(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0),
            ),
            Q(
                "ag",
                r"[\mathrm{Ag^+}]",
                MOLL,
                choices=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2),
            ),
            Q("k", r"\dfrac{2.303RT}{F}", r"\mathrm{V}", choices=(0.0591,)),
        ),
        unknown=Q("Ecell", r"E_{\mathrm{cell}}", r"\mathrm{V}"),
        relation="Eq(Ecell, E0 - k/2*log(cu/ag**2, 10))",
        compute=lambda p: p["E0"] - p["k"] / 2 * math.log10(p["cu"] / p["ag"] ** 2),
        mistakes=(
            (
                "not squaring [Ag⁺] in Q",
                lambda p: p["E0"] - p["k"] / 2 * math.log10(p["cu"] / p["ag"]),
            ),
            ("taking n = 1", lambda p: p["E0"] - p["k"] * math.log10(p["cu"] / p["ag"] ** 2)),
            (
                "inverting Q",
                lambda p: p["E0"] + p["k"] / 2 * math.log10(p["cu"] / p["ag"] ** 2),
            ),
            ("giving the standard EMF, ignoring the concentrations", lambda p: p["E0"]),
        ),
        stem="For the cell Cu(s) | Cu²⁺(aq) ‖ Ag⁺(aq) | Ag(s) at 298 K, {E0}. What is the EMF "
        "of the cell when {cu} and {ag}? Take {k}.",
        method="Cell reaction: Cu + 2Ag⁺ → Cu²⁺ + 2Ag, with $n = 2$ and "
        "$Q = [\\mathrm{{Cu^{{2+}}}}]/[\\mathrm{{Ag^+}}]^2$. Nernst: "
        "$E_{{\\mathrm{{cell}}}} = {E0} - \\dfrac{{{k}}}{{2}}\\log_{{10}}\\dfrac{{{cu}}}{{({ag})^2}}$ "
        "$=$ {answer}.",
        accept=lambda p: abs(math.log10(p["cu"] / p["ag"] ** 2)) >= 1,
    ),
)

# ---------------------------------------------------------------- u08 Chemical Kinetics
U08: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-zero-order-time",
        CHE,
        "che-zero-order-reactions",
        ONE_STEP,
        "substituting [A]₀, [A] and k in the zero-order law [A] = [A]₀ − kt",
        givens=(
            Q("A0", r"[\mathrm{A}]_0", MOLL, choices=span(0.2, 2.0, 0.1)),
            Q("A", r"[\mathrm{A}]", MOLL, choices=span(0.05, 1.5, 0.05)),
            Q(
                "k",
                "k",
                r"\mathrm{mol\,L^{-1}\,min^{-1}}",
                choices=(0.001, 0.002, 0.0025, 0.004, 0.005, 0.008, 0.01, 0.02, 0.025, 0.05),
            ),
        ),
        unknown=Q("t", "t", r"\mathrm{min}"),
        relation="Eq(A, A0 - k*t)",
        compute=lambda p: (p["A0"] - p["A"]) / p["k"],
        mistakes=(
            ("dividing the final concentration by k", lambda p: p["A"] / p["k"]),
            ("dividing the initial concentration by k", lambda p: p["A0"] / p["k"]),
            ("using the first-order law", lambda p: math.log(p["A0"] / p["A"]) / p["k"]),
            ("a sign slip, t = ([A]₀ + [A])/k", lambda p: (p["A0"] + p["A"]) / p["k"]),
            ("giving the half-life [A]₀/2k", lambda p: p["A0"] / (2 * p["k"])),
        ),
        stem="A zero-order reaction A → products starts with {A0}. How long does it take for "
        "the concentration to fall to {A}, if the rate constant is {k}?",
        method="For zero order, $[\\mathrm{{A}}] = [\\mathrm{{A}}]_0 - kt$, so "
        "$t = \\dfrac{{{A0} - {A}}}{{{k}}}$ $=$ {answer}.",
        accept=lambda p: 0.1 * p["A0"] <= p["A"] <= 0.8 * p["A0"],
    ),
    NumericalTemplate(
        "che-arrhenius-ratio",
        CHE,
        "che-arrhenius-equation",
        ONE_STEP,
        "substituting E_a (in J), T₁ and T₂ in log(k₂/k₁) = E_a/(2.303R)(1/T₁ − 1/T₂) and "
        "taking the antilog",
        givens=(
            Q("Ea", "E_a", KJMOL, si=1000, choices=span(30, 120, 5)),
            Q("T1", "T_1", r"\mathrm{K}", choices=span(280, 350, 10)),
            Q("T2", "T_2", r"\mathrm{K}", choices=span(290, 390, 10)),
            R_SI,
        ),
        unknown=Q("r", "k_2/k_1"),
        relation="Eq(log(r), Ea/R*(1/T1 - 1/T2))",
        compute=lambda p: math.exp(p["Ea"] / p["R"] * (1 / p["T1"] - 1 / p["T2"])),
        mistakes=(
            (
                "using log₁₀ without the factor 2.303",
                lambda p: 10 ** (p["Ea"] / p["R"] * (1 / p["T1"] - 1 / p["T2"])),
            ),
            (
                "taking e to the power of the log₁₀ value",
                lambda p: math.exp(p["Ea"] / (2.303 * p["R"]) * (1 / p["T1"] - 1 / p["T2"])),
            ),
            (
                "using the rule of thumb that the rate doubles every 10 K",
                lambda p: 2 ** ((p["T2"] - p["T1"]) / 10),
            ),
            unit_slip(
                "leaving E_a in kJ",
                lambda p: math.exp(p["Ea"] / 1000 / p["R"] * (1 / p["T1"] - 1 / p["T2"])),
            ),
            (
                "inverting the temperature terms",
                lambda p: math.exp(-p["Ea"] / p["R"] * (1 / p["T1"] - 1 / p["T2"])),
            ),
        ),
        stem="The activation energy of a reaction is {Ea}. By what factor does its rate constant "
        "increase when the temperature is raised from {T1} to {T2}? Take {R}.",
        method="$\\log_{{10}}\\dfrac{{k_2}}{{k_1}} = \\dfrac{{E_a}}{{2.303R}}\\left(\\dfrac{{1}}{{T_1}}"
        " - \\dfrac{{1}}{{T_2}}\\right) = \\dfrac{{{Ea} \\times 1000}}{{2.303 \\times {R}}}"
        "\\left(\\dfrac{{1}}{{{T1}}} - \\dfrac{{1}}{{{T2}}}\\right)$; the antilog gives "
        "$k_2/k_1 =$ {answer}.",
        accept=lambda p: (
            10 <= p["T2"] - p["T1"] <= 40
            # a factor up to about 5: a slip in the exponent (log₁₀ for ln) then stays
            # within ten times the key
            and 1.5 <= math.exp(p["Ea"] / p["R"] * (1 / p["T1"] - 1 / p["T2"])) <= 5.5
        ),
    ),
    NumericalTemplate(
        "che-first-order-time-from-half-life",
        CHE,
        "che-first-order-reactions",
        TWO_STEPS,
        "k = 0.693/t½ from the half-life, then the integrated first-order law for the fraction left",
        givens=(
            Q("thalf", r"t_{1/2}", r"\mathrm{min}", choices=span(5, 120, 5)),
            Q("x", "x", PCT, choices=(10.0, 20.0, 25.0, 30.0, 40.0, 60.0, 70.0, 80.0, 90.0, 99.0)),
        ),
        unknown=Q("t", "t", r"\mathrm{min}"),
        relation="Eq(t*log(2), thalf*log(100/(100 - x)))",
        compute=lambda p: p["thalf"] * math.log(100 / (100 - p["x"])) / math.log(2),
        mistakes=(
            (
                "using log₁₀ without the factor 2.303",
                lambda p: p["thalf"] * math.log10(100 / (100 - p["x"])) / math.log(2),
            ),
            ("assuming a linear decay, t = (x/50) t½", lambda p: p["thalf"] * p["x"] / 50),
            (
                "taking k = 1/t½, without the 0.693",
                lambda p: p["thalf"] * math.log(100 / (100 - p["x"])),
            ),
            (
                "using the fraction decomposed as the fraction left",
                lambda p: p["thalf"] * math.log(100 / p["x"]) / math.log(2),
            ),
        ),
        stem="A first-order reaction has a half-life {thalf}. How long does it take for the "
        "reaction to be {x} complete?",
        method="$k = \\dfrac{{0.693}}{{t_{{1/2}}}} = \\dfrac{{0.693}}{{{thalf}}}$ min⁻¹. With "
        "$100 - {x}$ per cent of the reactant left, "
        "$t = \\dfrac{{2.303}}{{k}}\\log_{{10}}\\dfrac{{100}}{{100 - {x}}}$ $=$ {answer}.",
    ),
    NumericalTemplate(
        "che-zero-order-time-from-half-life",
        CHE,
        "che-zero-order-reactions",
        TWO_STEPS,
        "k = [A]₀/2t½ from the zero-order half-life, then t = ([A]₀ − [A])/k",
        givens=(
            Q("thalf", r"t_{1/2}", r"\mathrm{min}", choices=span(10, 120, 5)),
            Q("A0", r"[\mathrm{A}]_0", MOLL, choices=span(0.2, 2.0, 0.1)),
            Q("A", r"[\mathrm{A}]", MOLL, choices=span(0.05, 1.5, 0.05)),
        ),
        unknown=Q("t", "t", r"\mathrm{min}"),
        relation="Eq(t*A0, 2*thalf*(A0 - A))",
        compute=lambda p: 2 * p["thalf"] * (p["A0"] - p["A"]) / p["A0"],
        mistakes=(
            (
                "treating the reaction as first order",
                lambda p: p["thalf"] * math.log(p["A0"] / p["A"]) / math.log(2),
            ),
            (
                "taking k = [A]₀/t½ (missing the 2)",
                lambda p: p["thalf"] * (p["A0"] - p["A"]) / p["A0"],
            ),
            (
                "dividing the remaining concentration by k",
                lambda p: 2 * p["thalf"] * p["A"] / p["A0"],
            ),
            (
                "taking k = 0.693/t½, the first-order relation",
                lambda p: p["thalf"] * (p["A0"] - p["A"]) / math.log(2),
            ),
        ),
        stem="A zero-order reaction A → products has a half-life {thalf} when its initial "
        "concentration is {A0}. Starting from this concentration, how long does it take for "
        "the concentration of A to fall to {A}?",
        method="For zero order, $t_{{1/2}} = \\dfrac{{[\\mathrm{{A}}]_0}}{{2k}}$, so "
        "$k = \\dfrac{{{A0}}}{{2 \\times {thalf}}}$ mol L⁻¹ min⁻¹. Then "
        "$t = \\dfrac{{[\\mathrm{{A}}]_0 - [\\mathrm{{A}}]}}{{k}} = "
        "\\dfrac{{{A0} - {A}}}{{k}}$ $=$ {answer}.",
        accept=lambda p: (
            0.1 * p["A0"] <= p["A"] <= 0.9 * p["A0"] and abs(p["A"] / p["A0"] - 0.5) > 0.02
        ),
    ),
)

# ---------------------------------------------------------------- u13 Purification and
# Characterisation of Organic Compounds (quantitative analysis)
U13: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-dumas-nitrogen",
        CHE,
        "che-quantitative-analysis",
        ONE_STEP,
        "substituting V, m and the molar volume in %N = 100 × 28V/(22400 m)",
        givens=(
            Q("m", "m", r"\mathrm{g}", choices=span(0.1, 0.5, 0.01)),
            Q("V", r"V_{\mathrm{N_2}}", ML, choices=span(10, 80, 2)),
            Q("MN", r"M_{\mathrm{N_2}}", GMOL, choices=(28.0,)),
            Q("Vm", r"V_m", r"\mathrm{mL\,mol^{-1}}", choices=(22400.0,)),
        ),
        unknown=Q("pct", r"w_{\mathrm{N}}", PCT, bounds=(0, 100)),
        relation="Eq(pct*Vm*m, 100*MN*V)",
        compute=lambda p: 100 * p["MN"] * p["V"] / (p["Vm"] * p["m"]),
        mistakes=(
            ("counting 14 g per mole of N₂", lambda p: 50 * p["MN"] * p["V"] / (p["Vm"] * p["m"])),
            (
                "using 17 g mol⁻¹ (NH₃) in place of 28",
                lambda p: 100 * 17 * p["V"] / (p["Vm"] * p["m"]),
            ),
            (
                "counting 28 g for each of the two nitrogen atoms",
                lambda p: _percent(200 * p["MN"] * p["V"] / (p["Vm"] * p["m"])),
            ),
            unit_slip(
                "forgetting the factor 100",
                lambda p: p["MN"] * p["V"] / (p["Vm"] * p["m"]),
            ),
        ),
        stem="In Dumas' method, {m} of an organic compound gave nitrogen whose volume, "
        "corrected to STP, is {V}. Taking {MN} and the molar volume at STP {Vm}, the "
        "percentage of nitrogen in the compound is",
        method="Mass of nitrogen $= \\dfrac{{{MN} \\times {V}}}{{{Vm}}}$ g, so "
        "$w_{{\\mathrm{{N}}}} = \\dfrac{{{MN} \\times {V}}}{{{Vm} \\times {m}}} \\times 100$ "
        "$=$ {answer}.",
        accept=lambda p: 5 <= 100 * p["MN"] * p["V"] / (p["Vm"] * p["m"]) <= 50,
    ),
    NumericalTemplate(
        "che-carius-chlorine",
        CHE,
        "che-quantitative-analysis",
        ONE_STEP,
        "substituting the masses in %Cl = 100 × (35.5/143.5) × m(AgCl)/m",
        givens=(
            Q("m", "m", r"\mathrm{g}", choices=span(0.1, 0.5, 0.01)),
            Q("mAg", r"m_{\mathrm{AgCl}}", r"\mathrm{g}", choices=span(0.1, 1.0, 0.02)),
            Q("ACl", r"M_{\mathrm{Cl}}", GMOL, choices=(35.5,)),
            Q("MAgCl", r"M_{\mathrm{AgCl}}", GMOL, choices=(143.5,)),
        ),
        unknown=Q("pct", r"w_{\mathrm{Cl}}", PCT, bounds=(0, 100)),
        relation="Eq(pct*MAgCl*m, 100*ACl*mAg)",
        compute=lambda p: 100 * p["ACl"] * p["mAg"] / (p["MAgCl"] * p["m"]),
        mistakes=(
            (
                "using the silver fraction (108/143.5) of the precipitate",
                lambda p: _percent(
                    100 * (p["MAgCl"] - p["ACl"]) * p["mAg"] / (p["MAgCl"] * p["m"])
                ),
            ),
            (
                "swapping the masses of compound and precipitate",
                lambda p: _percent(100 * p["ACl"] * p["m"] / (p["MAgCl"] * p["mAg"])),
            ),
            (
                "using the ratio for bromine, 80/188 (AgBr)",
                lambda p: _percent(100 * 80 * p["mAg"] / (188 * p["m"])),
            ),
            ("taking all of the AgCl as chlorine", lambda p: _percent(100 * p["mAg"] / p["m"])),
            (
                "dividing by silver's atomic mass, 108, instead of AgCl's 143.5",
                lambda p: _percent(100 * p["ACl"] * p["mAg"] / ((p["MAgCl"] - p["ACl"]) * p["m"])),
            ),
            (
                "counting 71 g (Cl₂) per mole of AgCl",
                lambda p: _percent(200 * p["ACl"] * p["mAg"] / (p["MAgCl"] * p["m"])),
            ),
            unit_slip(
                "forgetting the factor 100",
                lambda p: p["ACl"] * p["mAg"] / (p["MAgCl"] * p["m"]),
            ),
        ),
        stem="In the Carius method, {m} of an organic compound gave {mAg} of silver chloride. "
        "Taking {ACl} and {MAgCl}, the percentage of chlorine in the compound is",
        method="143.5 g of AgCl contains 35.5 g of Cl, so "
        "$w_{{\\mathrm{{Cl}}}} = \\dfrac{{{ACl}}}{{{MAgCl}}} \\times \\dfrac{{{mAg}}}{{{m}}} "
        "\\times 100$ $=$ {answer}.",
        accept=lambda p: 10 <= 100 * p["ACl"] * p["mAg"] / (p["MAgCl"] * p["m"]) <= 45,
    ),
    NumericalTemplate(
        "che-combustion-carbon",
        CHE,
        "che-quantitative-analysis",
        ONE_STEP,
        "substituting the masses in %C = 100 × (12/44) × m(CO₂)/m",
        givens=(
            Q("m", "m", r"\mathrm{g}", choices=span(0.1, 0.5, 0.01)),
            Q("mC", r"m_{\mathrm{CO_2}}", r"\mathrm{g}", choices=span(0.1, 1.5, 0.02)),
            Q("AC", r"M_{\mathrm{C}}", GMOL, choices=(12.0,)),
            Q("MCO2", r"M_{\mathrm{CO_2}}", GMOL, choices=(44.0,)),
        ),
        unknown=Q("pct", r"w_{\mathrm{C}}", PCT, bounds=(0, 100)),
        relation="Eq(pct*MCO2*m, 100*AC*mC)",
        compute=lambda p: 100 * p["AC"] * p["mC"] / (p["MCO2"] * p["m"]),
        mistakes=(
            (
                "using the carbon fraction of CO (12/28) instead of CO₂",
                lambda p: _percent(100 * p["AC"] * p["mC"] / (28 * p["m"])),
            ),
            (
                "swapping the masses of compound and CO₂",
                lambda p: _percent(100 * p["AC"] * p["m"] / (p["MCO2"] * p["mC"])),
            ),
            (
                "using the hydrogen formula's ratio 2/18 (from H₂O) for carbon",
                lambda p: 100 * 2 * p["mC"] / (18 * p["m"]),
            ),
            (
                "dividing by O₂'s 32 instead of CO₂'s 44",
                lambda p: _percent(100 * p["AC"] * p["mC"] / (32 * p["m"])),
            ),
            unit_slip(
                "forgetting the factor 100",
                lambda p: p["AC"] * p["mC"] / (p["MCO2"] * p["m"]),
            ),
            (
                "stopping at moles of CO₂ (not multiplying by 12)",
                lambda p: 100 * p["mC"] / (p["MCO2"] * p["m"]),
            ),
        ),
        stem="On complete combustion, {m} of an organic compound gave {mC} of carbon dioxide. "
        "Taking {AC} and {MCO2}, the percentage of carbon in the compound is",
        method="44 g of CO₂ contains 12 g of carbon, so "
        "$w_{{\\mathrm{{C}}}} = \\dfrac{{{AC}}}{{{MCO2}}} \\times \\dfrac{{{mC}}}{{{m}}} "
        "\\times 100$ $=$ {answer}.",
        accept=lambda p: 30 <= 100 * p["AC"] * p["mC"] / (p["MCO2"] * p["m"]) <= 85,
    ),
    NumericalTemplate(
        "che-kjeldahl-nitrogen",
        CHE,
        "che-quantitative-analysis",
        ONE_STEP,
        "substituting the acid's molarity and volume (2 mol NH₃ per mol H₂SO₄) and m in "
        "%N = 1.4 × 2MV/m",
        givens=(
            Q("m", "m", r"\mathrm{g}", choices=span(0.2, 1.0, 0.05)),
            Q("Va", "V", ML, si=ML_SI, choices=span(5, 50, 1)),
            Q("Ma", r"c_{\mathrm{H_2SO_4}}", MOLL, si=MOLL_SI, choices=(0.05, 0.1, 0.2, 0.25)),
            Q("AN", r"M_{\mathrm{N}}", GMOL, choices=(14.0,)),
        ),
        unknown=Q("pct", r"w_{\mathrm{N}}", PCT, bounds=(0, 100)),
        relation="Eq(pct*m, 200*Ma*Va*AN)",
        compute=lambda p: 200 * p["Ma"] * p["Va"] * p["AN"] / p["m"],
        mistakes=(
            (
                "missing that H₂SO₄ is dibasic (1 mol neutralises 2 mol NH₃)",
                lambda p: 100 * p["Ma"] * p["Va"] * p["AN"] / p["m"],
            ),
            (
                "using 17 g mol⁻¹ (NH₃) in place of 14",
                lambda p: _percent(200 * p["Ma"] * p["Va"] * 17 / p["m"]),
            ),
            (
                "halving the moles of acid instead of doubling",
                lambda p: 50 * p["Ma"] * p["Va"] * p["AN"] / p["m"],
            ),
            (
                "counting 28 g (N₂) per mole of NH₃",
                lambda p: _percent(400 * p["Ma"] * p["Va"] * p["AN"] / p["m"]),
            ),
            unit_slip(
                "forgetting the factor 100",
                lambda p: 2 * p["Ma"] * p["Va"] * p["AN"] / p["m"],
            ),
        ),
        stem="In Kjeldahl's method, the ammonia evolved from {m} of an organic compound "
        "exactly neutralised a volume {Va} of sulphuric acid of concentration {Ma}. Taking "
        "{AN}, the percentage of nitrogen in the compound is",
        method="Moles of H₂SO₄ $= {Ma} \\times {Va}/1000$. Since "
        "2NH₃ + H₂SO₄ → (NH₄)₂SO₄, moles of NH₃ (and of N) $= 2 \\times {Ma} \\times {Va}/1000$, "
        "so $w_{{\\mathrm{{N}}}} = \\dfrac{{2 \\times {Ma} \\times {Va} \\times {AN}}}"
        "{{1000 \\times {m}}} \\times 100$ $=$ {answer}.",
        accept=lambda p: 5 <= 200 * p["Ma"] * p["Va"] * p["AN"] / p["m"] <= 50,
    ),
    NumericalTemplate(
        "che-carius-sulphur",
        CHE,
        "che-quantitative-analysis",
        ONE_STEP,
        "substituting the masses in %S = 100 × (32/233) × m(BaSO₄)/m, with M(BaSO₄) summed "
        "from the atomic masses",
        givens=(
            Q("m", "m", r"\mathrm{g}", choices=span(0.1, 0.5, 0.01)),
            Q("mB", r"m_{\mathrm{BaSO_4}}", r"\mathrm{g}", choices=span(0.1, 1.2, 0.02)),
            Q("ABa", r"M_{\mathrm{Ba}}", GMOL, choices=(137.0,)),
            Q("AS", r"M_{\mathrm{S}}", GMOL, choices=(32.0,)),
            Q("AO", r"M_{\mathrm{O}}", GMOL, choices=(16.0,)),
        ),
        unknown=Q("pct", r"w_{\mathrm{S}}", PCT, bounds=(0, 100)),
        relation="Eq(pct*(ABa + AS + 4*AO)*m, 100*AS*mB)",
        compute=lambda p: 100 * p["AS"] * p["mB"] / ((p["ABa"] + p["AS"] + 4 * p["AO"]) * p["m"]),
        mistakes=(
            (
                "counting one oxygen atom in BaSO₄",
                lambda p: _percent(
                    100 * p["AS"] * p["mB"] / ((p["ABa"] + p["AS"] + p["AO"]) * p["m"])
                ),
            ),
            (
                "taking the whole SO₄ group (96 g) as sulphur",
                lambda p: _percent(
                    100
                    * (p["AS"] + 4 * p["AO"])
                    * p["mB"]
                    / ((p["ABa"] + p["AS"] + 4 * p["AO"]) * p["m"])
                ),
            ),
            (
                "swapping the masses of compound and precipitate",
                lambda p: _percent(
                    100 * p["AS"] * p["m"] / ((p["ABa"] + p["AS"] + 4 * p["AO"]) * p["mB"])
                ),
            ),
            ("taking all of the BaSO₄ as sulphur", lambda p: _percent(100 * p["mB"] / p["m"])),
            (
                "dividing by barium's atomic mass, 137, instead of BaSO₄'s",
                lambda p: _percent(100 * p["AS"] * p["mB"] / (p["ABa"] * p["m"])),
            ),
            unit_slip(
                "forgetting the factor 100",
                lambda p: p["AS"] * p["mB"] / ((p["ABa"] + p["AS"] + 4 * p["AO"]) * p["m"]),
            ),
        ),
        stem="In the Carius method, {m} of an organic compound gave {mB} of barium sulphate. "
        "Taking {ABa}, {AS} and {AO}, the percentage of sulphur in the compound is",
        method="$M(\\mathrm{{BaSO_4}}) = {ABa} + {AS} + 4 \\times {AO} = 233$ g mol⁻¹, of which "
        "{AS} g is sulphur, so $w_{{\\mathrm{{S}}}} = \\dfrac{{{AS}}}{{233}} \\times "
        "\\dfrac{{{mB}}}{{{m}}} \\times 100$ $=$ {answer}.",
        accept=lambda p: (
            5 <= 100 * p["AS"] * p["mB"] / ((p["ABa"] + p["AS"] + 4 * p["AO"]) * p["m"]) <= 45
        ),
    ),
)

# ---------------------------------------------------------------- u20 Practical Chemistry
U20: tuple[NumericalTemplate, ...] = (
    NumericalTemplate(
        "che-titration-naoh-against-hcl",
        CHE,
        "che-acid-base-titrations",
        ONE_STEP,
        "substituting the volumes and M_HCl in M₁V₁ = M₂V₂ (1 : 1 neutralisation)",
        givens=(
            Q("Va", r"V_{\mathrm{HCl}}", ML, choices=(10.0, 20.0, 25.0)),
            Q("Ma", r"M_{\mathrm{HCl}}", MOLL, choices=(0.05, 0.1, 0.2)),
            Q("Vb", r"V_{\mathrm{NaOH}}", ML, choices=span(10, 40, 0.1)),
        ),
        unknown=Q("Mb", r"M_{\mathrm{NaOH}}", MOLL),
        relation="Eq(Mb*Vb, Ma*Va)",
        compute=lambda p: p["Ma"] * p["Va"] / p["Vb"],
        mistakes=(
            ("inverting the volume ratio", lambda p: p["Ma"] * p["Vb"] / p["Va"]),
            ("treating HCl as dibasic", lambda p: 2 * p["Ma"] * p["Va"] / p["Vb"]),
            (
                "dividing by the total volume in the flask",
                lambda p: p["Ma"] * p["Va"] / (p["Va"] + p["Vb"]),
            ),
            ("taking the two molarities as equal", lambda p: p["Ma"]),
        ),
        stem="In an acid–base titration, {Va} of hydrochloric acid of molarity {Ma} is pipetted "
        "into a conical flask, and {Vb} of sodium hydroxide solution from the burette is "
        "needed to reach the phenolphthalein end point. The molarity of the NaOH solution is",
        method="HCl + NaOH → NaCl + H₂O is 1 : 1, so $M_{{\\mathrm{{NaOH}}}}V_{{\\mathrm{{NaOH}}}}"
        " = M_{{\\mathrm{{HCl}}}}V_{{\\mathrm{{HCl}}}}$ and "
        "$M_{{\\mathrm{{NaOH}}}} = \\dfrac{{({Ma})({Va})}}{{{Vb}}}$ $=$ {answer}.",
        accept=lambda p: abs(p["Vb"] - p["Va"]) >= 1,
    ),
    NumericalTemplate(
        "che-mohrs-salt-standard-solution",
        CHE,
        "che-kmno4-titrations",
        ONE_STEP,
        "substituting m, M_m and V (in litres) in M = m/(M_m V)",
        givens=(
            Q("m", "m", r"\mathrm{g}", choices=span(1, 10, 0.1)),
            Q("Mm", "M_m", GMOL, choices=(392.0,)),
            Q("V", "V", ML, si=ML_SI, choices=(100.0, 250.0, 500.0)),
        ),
        unknown=Q("c", "M", MOLL, si=MOLL_SI),
        relation="Eq(c*V*Mm, m)",
        compute=lambda p: p["m"] / (p["Mm"] * p["V"]),
        mistakes=(
            unit_slip(
                "leaving the volume in millilitres",
                lambda p: p["m"] / (p["Mm"] * p["V"]) / 1000,
            ),
            (
                "using the anhydrous double salt, 284 g mol⁻¹",
                lambda p: p["m"] / (284 * p["V"]),
            ),
            ("using the molar mass of FeSO₄, 152 g mol⁻¹", lambda p: p["m"] / (152 * p["V"])),
            (
                "using green vitriol's molar mass, FeSO₄·7H₂O, 278 g mol⁻¹",
                lambda p: p["m"] / (278 * p["V"]),
            ),
        ),
        stem="A standard solution of Mohr's salt, FeSO₄·(NH₄)₂SO₄·6H₂O, for a titration "
        "against KMnO₄ is made by dissolving {m} of the salt ({Mm}) in water and making the "
        "volume up to {V} in a measuring flask. The molarity of the solution is",
        method="Moles of salt $= {m}/{Mm}$; dividing by the volume in litres "
        "(${V}/1000$ L) gives $M = \\dfrac{{{m} \\times 1000}}{{{Mm} \\times {V}}}$ $=$ {answer}.",
        accept=lambda p: 0.01 <= p["m"] / (p["Mm"] * p["V"]) / MOLL_SI <= 0.2,
    ),
)

CHEMISTRY_MORE: tuple[NumericalTemplate, ...] = U01 + U02 + U04 + U05 + U06 + U07 + U08 + U13 + U20
