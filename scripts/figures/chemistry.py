"""Chemistry figures: hydrogen energy levels, first-order decay, the Daniell cell, a Hess's law
enthalpy diagram, boiling-point elevation and a simple distillation set-up. Curves and level
positions are computed from the relations they illustrate."""

from __future__ import annotations

import math
from collections.abc import Callable

from scripts.figures.svg import Point, Svg

BLUE = "#1f4e9c"
RED = "#c0392b"
GREEN = "#1e8449"
ORANGE = "#b9770e"
GREY = "#777"
COPPER = "#b35a1f"


def _offset(p: Point, n: Point, d: float) -> Point:
    return (p[0] + n[0] * d, p[1] + n[1] * d)


# ----------------------------------------------------------------------------- unit 2
def hydrogen_energy_levels() -> Svg:
    """Bohr energy levels E_n = -13.6/n^2 eV drawn to scale, with emission series."""
    s = Svg(660, 575, "Energy levels of the hydrogen atom and its spectral series")
    top, bottom = 70.0, 500.0
    scale = (bottom - top) / 13.6  # px per eV

    def y(n: float) -> float:
        energy = 0.0 if math.isinf(n) else -13.6 / (n * n)
        return top - energy * scale

    x0, x1 = 130.0, 580.0
    s.line((x0, y(math.inf)), (x1, y(math.inf)), stroke=GREY, width=1.5, dash="6 4")
    s.text((x0 - 10, y(math.inf) + 5), "n = ∞", size=13, anchor="end")
    s.text((x1 + 6, y(math.inf) + 5), "0 eV", size=13, anchor="start")
    for n in range(1, 7):
        s.line((x0, y(n)), (x1, y(n)), width=2 if n <= 4 else 1.2)
        if n <= 4:
            s.text((x0 - 10, y(n) + 5), f"n = {n}", size=13, anchor="end")
            s.text((x1 + 6, y(n) + 5), f"−{13.6 / n**2:.2f} eV", size=13, anchor="start")
    s.text((x0 - 10, y(5.5) + 2), "n = 5, 6", size=11, anchor="end")

    def series(n_low: int, uppers: range, xs: float, color: str, label: str) -> None:
        for i, n_up in enumerate(uppers):
            x = xs + 18 * i
            s.line((x, y(n_up)), (x, y(n_low) - 2), stroke=color, width=1.4, arrow=True)
        s.text(
            (xs + 9 * (len(uppers) - 1), y(n_low) + 22), label, size=13, fill=color, weight="bold"
        )

    series(1, range(2, 7), 190, BLUE, "Lyman series (ultraviolet)")
    series(2, range(3, 7), 330, GREEN, "Balmer series (visible)")
    series(3, range(4, 7), 470, RED, "Paschen series (infrared)")

    s.line((70, bottom + 10), (70, top - 25), arrow=True)
    s.text((62, top - 32), "Energy", size=13, anchor="start")
    s.text(
        (330, 558),
        "Emission: the electron falls from a higher level n₂ to a lower level n₁",
        size=13,
    )
    s.text((330, 28), "Hydrogen atom: Eₙ = −13.6/n² eV (levels to scale)", size=15, weight="bold")
    return s


# ----------------------------------------------------------------------------- unit 8
def first_order_decay() -> Svg:
    """[R] = [R]0 exp(-kt) with the time axis in half-lives."""
    s = Svg(620, 420, "Concentration against time for a first order reaction")
    box = (90.0, 60.0, 460.0, 280.0)
    bx, by, bw, bh = box
    t_max, y_max = 4.5, 1.05
    s.axes(box, "time →", "[R]")

    def px(t: float, r: float) -> Point:
        return (bx + t / t_max * bw, by + bh - r / y_max * bh)

    ts = [i * t_max / 300 for i in range(301)]
    s.plot(box, ts, [math.exp(-math.log(2) * t) for t in ts], (0, t_max), (0, y_max))
    labels = ["[R]₀/2", "[R]₀/4", "[R]₀/8"]
    ticks = ["t½", "2t½", "3t½"]
    for k in range(1, 4):
        r = 0.5**k
        p = px(k, r)
        s.line((p[0], by + bh), p, stroke=GREY, width=1.2, dash="5 4")
        s.line((bx, p[1]), p, stroke=GREY, width=1.2, dash="5 4")
        s.circle(p, 4, fill=RED, stroke=RED)
        s.text((bx - 8, p[1] + 5), labels[k - 1], size=13, anchor="end")
        s.text((p[0], by + bh + 20), ticks[k - 1], size=13)
    s.text((bx - 8, px(0, 1.0)[1] + 5), "[R]₀", size=13, anchor="end")
    s.text((bx - 8, by + bh + 5), "0", size=13, anchor="end")
    s.text(
        (px(2.6, 0.5)[0], px(2.6, 0.5)[1]), "[R] = [R]₀ e^(−kt)", size=15, fill=RED, anchor="start"
    )
    s.text(
        (px(2.6, 0.5)[0], px(2.6, 0.5)[1] + 24),
        "t½ = 0.693/k (same for every halving)",
        size=13,
        anchor="start",
    )
    s.text(
        (310, 30), "First order reaction: exponential decay of the reactant", size=15, weight="bold"
    )
    return s


# ----------------------------------------------------------------------------- unit 7
def daniell_cell() -> Svg:
    s = Svg(660, 470, "The Daniell cell")
    # beakers with solutions
    for x, fill, label in ((70.0, "#e8e8e8", "ZnSO₄(aq)"), (390.0, "#cfe3f7", "CuSO₄(aq)")):
        s.rect(x, 240, 200, 150, fill=fill, stroke="none", width=0)
        s.polyline([(x, 200), (x, 390), (x + 200, 390), (x + 200, 200)], width=2.5)
        s.text((x + 100, 378), label, size=14)
    # electrodes
    s.rect(150, 120, 22, 230, fill="#9a9a9a", stroke="#444")
    s.rect(468, 120, 22, 230, fill=COPPER, stroke="#444")
    s.text((110, 300), "Zn", size=16, weight="bold")
    s.text((530, 300), "Cu", size=16, weight="bold")
    # salt bridge: an inverted U tube dipping into both solutions
    outer = [(226.0, 335.0), (226.0, 160.0), (434.0, 160.0), (434.0, 335.0)]
    inner = [(246.0, 335.0), (246.0, 180.0), (414.0, 180.0), (414.0, 335.0)]
    s.polyline(outer + inner[::-1], fill="#f6efd2", closed=True, width=2)
    s.text((330, 150), "salt bridge (KCl or KNO₃ in agar)", size=13)
    # external circuit and voltmeter
    s.polyline([(161, 120), (161, 70), (304, 70)], width=2)
    s.polyline([(356, 70), (479, 70), (479, 120)], width=2)
    s.circle((330, 70), 26, fill="white")
    s.text((330, 77), "V", size=20, weight="bold")
    s.text((330, 116), "1.10 V", size=13)
    s.line((200, 44), (280, 44), stroke=BLUE, width=2.5, arrow=True)
    s.line((380, 44), (440, 44), stroke=BLUE, width=2.5, arrow=True)
    s.text((240, 34), "e⁻ flow", size=13, fill=BLUE)
    s.text((410, 34), "e⁻ flow", size=13, fill=BLUE)
    # labels
    s.text((143, 108), "anode (−)", size=13, anchor="end")
    s.text((490, 108), "cathode (+)", size=13, anchor="start")
    s.text((170, 418), "Zn → Zn²⁺ + 2e⁻ (oxidation)", size=14)
    s.text((490, 418), "Cu²⁺ + 2e⁻ → Cu (reduction)", size=14)
    s.text(
        (330, 455),
        "Zn(s) | Zn²⁺(aq) || Cu²⁺(aq) | Cu(s)    E°cell = 0.34 − (−0.76) = 1.10 V",
        size=14,
        weight="bold",
    )
    return s


# ----------------------------------------------------------------------------- unit 4
def hess_cycle_carbon() -> Svg:
    """Enthalpy level diagram for C -> CO2 directly and via CO, to scale."""
    s = Svg(640, 450, "Hess's law: formation of CO2 from carbon by two routes")
    y0, scale = 80.0, 300.0 / 393.5
    levels = {0.0: "C(graphite) + O₂(g)", -110.5: "CO(g) + ½O₂(g)", -393.5: "CO₂(g)"}

    def y(h: float) -> float:
        return y0 - h * scale

    s.line((90, y(-393.5) + 25), (90, y(0) - 30), arrow=True)
    s.text((82, y(0) - 38), "H / kJ mol⁻¹", size=13, anchor="start")
    s.line((130, y(0)), (560, y(0)), width=3)
    s.line((320, y(-110.5)), (560, y(-110.5)), width=3)
    s.line((130, y(-393.5)), (560, y(-393.5)), width=3)
    s.text((140, y(0) - 10), levels[0.0] + "   (0)", size=14, anchor="start")
    s.text((555, y(-110.5) - 10), levels[-110.5] + "   (−110.5)", size=14, anchor="end")
    s.text((140, y(-393.5) + 24), levels[-393.5] + "   (−393.5)", size=14, anchor="start")
    # direct route
    s.line((190, y(0) + 2), (190, y(-393.5) - 2), stroke=RED, width=3, arrow=True)
    s.text((200, (y(0) + y(-393.5)) / 2), "ΔH = −393.5 kJ mol⁻¹", size=14, fill=RED, anchor="start")
    s.text((200, (y(0) + y(-393.5)) / 2 + 20), "(direct)", size=13, fill=RED, anchor="start")
    # two-step route
    s.line((360, y(0) + 2), (360, y(-110.5) - 2), stroke=BLUE, width=3, arrow=True)
    s.text((370, (y(0) + y(-110.5)) / 2 + 5), "ΔH₁ = −110.5", size=14, fill=BLUE, anchor="start")
    s.line((480, y(-110.5) + 2), (480, y(-393.5) - 2), stroke=BLUE, width=3, arrow=True)
    s.text((490, (y(-110.5) + y(-393.5)) / 2), "ΔH₂ = −283.0", size=14, fill=BLUE, anchor="start")
    s.text(
        (320, 430), "ΔH = ΔH₁ + ΔH₂:  −393.5 = (−110.5) + (−283.0) kJ mol⁻¹", size=15, weight="bold"
    )
    return s


# ----------------------------------------------------------------------------- unit 5
def boiling_point_elevation() -> Svg:
    """Clausius-Clapeyron vapour pressure of water and of a solution with x(solvent) = 0.90."""
    s = Svg(640, 440, "Elevation of boiling point")
    box = (90.0, 60.0, 470.0, 290.0)
    bx, by, bw, bh = box
    t_lo, t_hi, p_lo, p_hi = 358.0, 386.0, 0.55, 1.25
    dh_over_r, tb0, x1 = 40700.0 / 8.314, 373.15, 0.90

    def p_solvent(t: float) -> float:
        return math.exp(-dh_over_r * (1 / t - 1 / tb0))

    tb = 1 / (1 / tb0 - math.log(1 / x1) / dh_over_r)

    def px(t: float, p: float) -> Point:
        return (bx + (t - t_lo) / (t_hi - t_lo) * bw, by + bh - (p - p_lo) / (p_hi - p_lo) * bh)

    def t_at(p: float, frac: float) -> float:
        """Temperature at which frac * p_solvent(T) equals p."""
        return 1 / (1 / tb0 - math.log(p / frac) / dh_over_r)

    s.axes(box, "Temperature / K", "Vapour pressure / atm")
    for frac, color in ((1.0, BLUE), (x1, RED)):
        ta, tz = max(t_lo, t_at(p_lo, frac)), min(t_hi, t_at(p_hi, frac))
        ts = [ta + i * (tz - ta) / 200 for i in range(201)]
        s.plot(box, ts, [frac * p_solvent(t) for t in ts], (t_lo, t_hi), (p_lo, p_hi), stroke=color)
    one = px(t_lo, 1.0)
    s.line(one, (bx + bw, one[1]), stroke=GREY, width=1.5, dash="6 4")
    s.text((bx - 8, one[1] + 5), "1 atm", size=13, anchor="end")
    for t, label in ((tb0, "T°b"), (tb, "Tb")):
        p = px(t, 1.0)
        s.line((p[0], by + bh), p, stroke=GREY, width=1.2, dash="5 4")
        s.circle(p, 4, fill="#222")
        s.text((p[0], by + bh + 20), label, size=14)
    a, b = px(tb0, 0.62), px(tb, 0.62)
    s.line(b, a, stroke=GREEN, width=2, arrow=True)
    s.line(a, b, stroke=GREEN, width=2, arrow=True)
    s.text((b[0] + 10, a[1] + 5), f"ΔTb ≈ {tb - tb0:.1f} K", size=13, fill=GREEN, anchor="start")
    lab1 = px(366.0, p_solvent(366.0))
    s.text((lab1[0] - 8, lab1[1] - 10), "pure solvent (water)", size=13, fill=BLUE, anchor="end")
    lab2 = px(380.0, x1 * p_solvent(380.0))
    s.text((lab2[0] + 8, lab2[1] + 18), "solution", size=13, fill=RED, anchor="start")
    s.text(
        (340, 24), "The solution reaches 1 atm only at a higher temperature", size=15, weight="bold"
    )
    s.text(
        (320, 425),
        "Curves: Clausius–Clapeyron for water; solution with solvent mole "
        "fraction 0.90 (exaggerated)",
        size=12,
    )
    return s


# ----------------------------------------------------------------------------- unit 13
def simple_distillation() -> Svg:
    s = Svg(680, 440, "Apparatus for simple distillation")
    # burner and heat
    s.polyline([(130, 410), (170, 410), (162, 370), (138, 370)], fill="#ddd", closed=True)
    s.path(
        "M150 366 C138 350 146 340 150 326 C154 340 162 350 150 366 Z",
        stroke=ORANGE,
        fill="#f5cba7",
    )
    s.text((185, 395), "heat", size=13, anchor="start")
    # round-bottomed flask with liquid
    s.path("M104 292 A50 50 0 0 0 196 292 Z", stroke="none", fill="#cfe3f7")
    s.circle((150, 270), 52, width=2.5)
    s.rect(140, 160, 20, 62, fill="white", stroke="#222", width=2.5)
    s.rect(141.5, 205, 17, 20, fill="white", stroke="none", width=0)
    s.text((80, 345), "distillation flask", size=13, anchor="middle")
    # thermometer with bulb level with the side arm
    s.line((150, 90), (150, 176), width=3)
    s.circle((150, 180), 5, fill=RED, stroke=RED)
    s.text((160, 95), "thermometer", size=13, anchor="start")
    # side arm and condenser along one straight line
    a, b = (160.0, 182.0), (470.0, 290.0)
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    u = ((b[0] - a[0]) / length, (b[1] - a[1]) / length)
    n = (-u[1], u[0])
    s.line(a, b, width=2)
    s.line(_offset(a, n, 6), _offset(b, n, 6), width=1.5)
    j0 = (a[0] + u[0] * 70, a[1] + u[1] * 70)
    j1 = (a[0] + u[0] * 270, a[1] + u[1] * 270)
    jacket = [_offset(j0, n, -18), _offset(j1, n, -18), _offset(j1, n, 22), _offset(j0, n, 22)]
    s.polyline(jacket, fill="#e6f2fb", closed=True, width=2)
    s.line(_offset(j0, n, 3), _offset(j1, n, 3), width=2)
    s.text((330, 205), "water condenser", size=13, anchor="start")
    # water in at the lower end (from below), out at the upper end (at the top)
    win = _offset((j1[0] - u[0] * 25, j1[1] - u[1] * 25), n, 22)
    s.line((win[0], win[1] + 45), win, stroke=BLUE, width=3, arrow=True)
    s.text((win[0] + 8, win[1] + 45), "water in", size=13, fill=BLUE, anchor="start")
    wout = _offset((j0[0] + u[0] * 25, j0[1] + u[1] * 25), n, -18)
    s.line(wout, (wout[0], wout[1] - 45), stroke=BLUE, width=3, arrow=True)
    s.text((wout[0] + 8, wout[1] - 40), "water out", size=13, fill=BLUE, anchor="start")
    # receiver (conical flask) with distillate
    s.line(b, (b[0], 318), width=2)
    s.polyline(
        [(462, 318), (478, 318), (478, 338), (515, 405), (425, 405), (462, 338)],
        closed=True,
        width=2.5,
        fill="white",
    )
    s.polyline(
        [(441, 378), (500, 378), (515, 405), (425, 405)],
        closed=True,
        fill="#cfe3f7",
        stroke="none",
        width=0,
    )
    s.text((530, 360), "receiver", size=13, anchor="start")
    s.text((530, 380), "(distillate)", size=13, anchor="start")
    s.text(
        (340, 30), "Simple distillation: vapour is condensed and collected", size=15, weight="bold"
    )
    return s


FIGURES: dict[str, Callable[[], Svg]] = {
    "che-hydrogen-energy-levels": hydrogen_energy_levels,
    "che-first-order-decay": first_order_decay,
    "che-daniell-cell": daniell_cell,
    "che-hess-cycle-carbon": hess_cycle_carbon,
    "che-boiling-point-elevation": boiling_point_elevation,
    "che-simple-distillation": simple_distillation,
}
