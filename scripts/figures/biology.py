"""Biology figures (Botany `bot-` and Zoology `zoo-`): the cell cycle, the Z scheme, population
growth, the pyramid of energy, the nephron, the plasmid pBR322 and the oxygen dissociation curve.
Curves are computed from the relations they illustrate; everything is deterministic."""

from __future__ import annotations

import math
from collections.abc import Callable

from scripts.figures.svg import Point, Svg

BLUE = "#1f4e9c"
RED = "#c0392b"
GREEN = "#1e8449"
ORANGE = "#d35400"
PURPLE = "#7d3c98"
GREY = "#777"
LIGHT = "#f4f6f7"


# ----------------------------------------------------------------------------- helpers
def _polar(c: Point, r: float, deg: float) -> Point:
    """Point at radius r and angle deg, measured clockwise from twelve o'clock."""
    a = math.radians(deg)
    return (c[0] + r * math.sin(a), c[1] - r * math.cos(a))


def _f(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _ring_segment(
    s: Svg, c: Point, r_in: float, r_out: float, a0: float, a1: float, fill: str
) -> None:
    """A filled annular sector from angle a0 to a1 (clockwise, degrees)."""
    large = 1 if (a1 - a0) > 180 else 0
    p0, p1 = _polar(c, r_out, a0), _polar(c, r_out, a1)
    q1, q0 = _polar(c, r_in, a1), _polar(c, r_in, a0)
    d = (
        f"M {_f(p0[0])} {_f(p0[1])} A {_f(r_out)} {_f(r_out)} 0 {large} 1 {_f(p1[0])} {_f(p1[1])} "
        f"L {_f(q1[0])} {_f(q1[1])} A {_f(r_in)} {_f(r_in)} 0 {large} 0 {_f(q0[0])} {_f(q0[1])} Z"
    )
    s.path(d, fill=fill, stroke="#222", width=2)


def _arc_points(c: Point, r: float, a0: float, a1: float, n: int = 40) -> list[Point]:
    return [_polar(c, r, a0 + (a1 - a0) * i / n) for i in range(n + 1)]


def _head(s: Svg, tip: Point, direction: Point, size: float, color: str) -> None:
    """A filled triangular arrowhead with its tip at `tip`, pointing along `direction`."""
    dx, dy = direction
    n = math.hypot(dx, dy)
    ux, uy = dx / n, dy / n
    bx, by = tip[0] - size * ux, tip[1] - size * uy
    px, py = -uy * size * 0.55, ux * size * 0.55
    s.polyline(
        [tip, (bx + px, by + py), (bx - px, by - py)],
        stroke=color,
        width=1,
        fill=color,
        closed=True,
    )


def _coil(start: Point, end: Point, turns: int, amp: float) -> list[Point]:
    """A sinuous path from start to end, used for the convoluted tubules."""
    pts = []
    n = turns * 16
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length
    for i in range(n + 1):
        t = i / n
        w = amp * math.sin(2 * math.pi * turns * t)
        pts.append((start[0] + dx * t + nx * w, start[1] + dy * t + ny * w))
    return pts


# ----------------------------------------------------------------------------- unit 3
def cell_cycle_wheel() -> Svg:
    s = Svg(640, 460, "The cell cycle: interphase (G1, S, G2) and M phase")
    c, r_in, r_out = (260.0, 235.0), 85.0, 150.0
    hours = [
        ("G1", 11.0, "#aed6f1"),
        ("S", 8.0, "#a9dfbf"),
        ("G2", 4.0, "#f9e79f"),
        ("M", 1.0, "#f5b7b1"),
    ]
    total = sum(h for _, h, _ in hours)
    a = 0.0
    mids = {}
    for name, h, fill in hours:
        span = 360.0 * h / total
        _ring_segment(s, c, r_in, r_out, a, a + span, fill)
        mids[name] = (a, a + span)
        a += span
    for name, (a0, a1) in mids.items():
        if name == "M":
            continue
        s.text(_polar(c, (r_in + r_out) / 2, (a0 + a1) / 2), name, size=22, weight="bold")
    # M phase label outside the thin segment
    m0, m1 = mids["M"]
    tip = _polar(c, r_out + 4, (m0 + m1) / 2)
    lab = (c[0] + 30, c[1] - r_out - 42)
    s.line(lab, tip, stroke=GREY, width=1.5)
    s.text(
        (lab[0] + 4, lab[1] - 4),
        "M phase (mitosis + cytokinesis)",
        size=14,
        anchor="start",
        weight="bold",
    )
    # phase descriptions
    for name, note in (("G1", "growth"), ("S", "DNA replication"), ("G2", "growth")):
        px, py = _polar(c, (r_in + r_out) / 2, (mids[name][0] + mids[name][1]) / 2)
        s.text((px, py + 22), note, size=11, fill="#333")
    # interphase bracket outside G1..G2
    i0, i1 = mids["G1"][0] + 2, mids["G2"][1] - 2
    s.polyline(_arc_points(c, r_out + 18, i0, i1, 80), stroke=BLUE, width=2.5)
    lx, ly = _polar(c, r_out + 40, 150)
    s.text((lx, ly), "Interphase", size=16, weight="bold", fill=BLUE)
    s.text((lx, ly + 18), "(more than 95% of the cycle)", size=12, fill=BLUE)
    # direction of the cycle: clockwise arrow inside the ring
    arc = _arc_points(c, r_in - 16, 20, 120, 30)
    s.polyline(arc, stroke="#222", width=2)
    _head(s, arc[-1], (arc[-1][0] - arc[-2][0], arc[-1][1] - arc[-2][1]), 12, "#222")
    s.text(c, "cell cycle", size=14, fill="#333")
    s.text((c[0], c[1] + 18), "(about 24 h)", size=12, fill="#333")
    # G0 branch from G1
    g1mid = (mids["G1"][0] + mids["G1"][1]) / 2
    start = _polar(c, r_out, g1mid - 20)
    g0 = (540.0, 150.0)
    s.line(start, (g0[0] - 52, g0[1] + 8), stroke="#222", width=2, dash="6 4")
    _head(s, (g0[0] - 50, g0[1] + 8), (g0[0] - 50 - start[0], g0[1] + 8 - start[1]), 12, "#222")
    s.ellipse(g0, 48, 30, fill="#eaecee")
    s.text((g0[0], g0[1] + 6), "G0", size=20, weight="bold")
    s.text((g0[0], g0[1] + 52), "quiescent stage", size=13)
    return s


# ----------------------------------------------------------------------------- unit 4
def z_scheme() -> Svg:
    s = Svg(780, 470, "Z scheme of the light reaction")
    # redox axis
    s.line((40, 440), (40, 40), arrow=True)
    s.text((52, 36), "more negative redox potential", size=13, anchor="start")
    s.text((52, 455), "more positive", size=13, anchor="start")
    ps2 = (190.0, 360.0)
    acc2 = (190.0, 110.0)
    ps1 = (455.0, 300.0)
    acc1 = (455.0, 60.0)
    nadp = (665.0, 190.0)
    # photosystem boxes
    for (x, y), name, pname in ((ps2, "Photosystem II", "P680"), (ps1, "Photosystem I", "P700")):
        s.rect(x - 70, y - 4, 140, 48, fill="#d5f5e3", stroke=GREEN)
        s.text((x, y + 16), name, size=14, weight="bold")
        s.text((x, y + 34), pname, size=13)
    # light excitation (uphill)
    for (x0, y0), (x1, y1), wl in ((ps2, acc2, "680 nm"), (ps1, acc1, "700 nm")):
        s.line((x0, y0 - 6), (x1, y1 + 26), stroke=RED, width=3, arrow=True)
        s.text((x0 - 12, (y0 + y1) / 2), "light", size=13, anchor="end", fill=RED)
        s.text((x0 - 12, (y0 + y1) / 2 + 16), wl, size=13, anchor="end", fill=RED)
    # acceptors
    for x, y in (acc2, acc1):
        s.rect(x - 60, y - 6, 120, 30, fill="#fdebd0", stroke=ORANGE)
        s.text((x, y + 14), "electron acceptor", size=13)
    # downhill transport chain between acceptor 2 and PS I
    chain = [(acc2[0] + 60, acc2[1] + 12), (270, 160), (330, 215), (ps1[0] - 40, ps1[1] - 6)]
    s.polyline(chain, stroke=BLUE, width=3)
    _head(s, chain[-1], (chain[-1][0] - chain[-2][0], chain[-1][1] - chain[-2][1]), 14, BLUE)
    s.text((284, 144), "electron transport chain", size=12, fill=BLUE, anchor="start")
    s.text((284, 160), "(cytochromes)", size=12, fill=BLUE, anchor="start")
    # downhill to NADP+
    down = [(acc1[0] + 60, acc1[1] + 12), (nadp[0] - 60, nadp[1] - 10)]
    s.polyline(down, stroke=BLUE, width=3)
    _head(s, down[-1], (down[-1][0] - down[0][0], down[-1][1] - down[0][1]), 14, BLUE)
    s.rect(nadp[0] - 60, nadp[1] - 10, 130, 50, fill="#ebdef0", stroke=PURPLE)
    s.text((nadp[0] + 5, nadp[1] + 8), "NADP+", size=14, weight="bold")
    s.text((nadp[0] + 5, nadp[1] + 28), "reduced to NADPH", size=12)
    # water splitting feeding PS II
    s.line((ps2[0], 448), (ps2[0], ps2[1] + 48), stroke="#222", width=2, arrow=True)
    s.text((ps2[0] + 14, 430), "2H2O \u2192 4H+ + O2 + 4e-", size=14, weight="bold", anchor="start")
    s.text(
        (ps2[0] + 14, 448),
        "water splitting (inner side of thylakoid)",
        size=12,
        anchor="start",
        fill="#333",
    )
    return s


# ----------------------------------------------------------------------------- unit 10
def population_growth_curves() -> Svg:
    s = Svg(660, 430, "Exponential and logistic population growth")
    box = (80.0, 60.0, 500.0, 300.0)
    s.axes(box, "time t", "population size N")
    r, n0, k = 0.4, 10.0, 500.0
    t_max, n_max = 20.0, 700.0
    ts_exp = []
    ns_exp = []
    for i in range(0, 401):
        t = t_max * i / 400
        n = n0 * math.exp(r * t)
        if n > n_max:
            break
        ts_exp.append(t)
        ns_exp.append(n)
    ts = [t_max * i / 400 for i in range(401)]
    ns_log = [k / (1 + (k - n0) / n0 * math.exp(-r * t)) for t in ts]
    s.plot(box, ts_exp, ns_exp, (0, t_max), (0, n_max), stroke=RED)
    s.plot(box, ts, ns_log, (0, t_max), (0, n_max), stroke=BLUE)
    x, y, w, h = box
    yk = y + h - k / n_max * h
    s.line((x, yk), (x + w, yk), stroke=GREY, width=1.5, dash="8 5")
    s.text((x - 8, yk + 5), "K", size=16, anchor="end", weight="bold")
    s.text((x + w - 4, yk - 8), "carrying capacity", size=13, anchor="end", fill=GREY)
    # labels
    xe = x + ts_exp[-1] / t_max * w
    s.text(
        (xe - 10, y + 10), "exponential (J-shaped)", size=14, anchor="end", fill=RED, weight="bold"
    )
    s.text((xe - 10, y + 28), "dN/dt = rN", size=13, anchor="end", fill=RED)
    s.text(
        (x + w - 10, yk + 100),
        "logistic (S-shaped)",
        size=14,
        anchor="end",
        fill=BLUE,
        weight="bold",
    )
    s.text((x + w - 10, yk + 118), "dN/dt = rN (K \u2212 N)/K", size=13, anchor="end", fill=BLUE)
    s.text((x + 2, y + h + 20), "0", size=12, anchor="start")
    return s


def pyramid_of_energy() -> Svg:
    s = Svg(750, 430, "Pyramid of energy")
    levels = [
        ("Producers (first trophic level)", 10000),
        ("Primary consumers", 1000),
        ("Secondary consumers", 100),
        ("Tertiary consumers", 10),
    ]
    cx, base_y, bar_h = 330.0, 370.0, 64.0
    fills = ["#a9dfbf", "#f9e79f", "#f5cba7", "#f5b7b1"]
    for i, ((name, joule), fill) in enumerate(zip(levels, fills, strict=True)):
        width = 120.0 * math.log10(joule) + 60.0
        y = base_y - (i + 1) * bar_h
        s.rect(cx - width / 2, y, width, bar_h - 4, fill=fill, stroke="#222")
        s.text((cx, y + 26), name, size=14, weight="bold")
        s.text((cx, y + 46), f"{joule:,} J", size=14)
        # energy lost as heat from this level
        x0 = cx + width / 2
        s.line((x0 + 6, y + 30), (650, y + 30), stroke=RED, width=1.5, dash="5 4", arrow=True)
        s.text((658, y + 35), "heat", size=13, anchor="start", fill=RED)
    s.text(
        (650, base_y - 4 * bar_h - 30), "about 90% of the energy", size=12, anchor="end", fill=RED
    )
    s.text((650, base_y - 4 * bar_h - 14), "is lost at each step", size=12, anchor="end", fill=RED)
    s.text(
        (cx, base_y + 26),
        "energy fixed or received at each level (illustrative)",
        size=13,
        fill="#333",
    )
    s.text((cx, base_y + 44), "bar widths not to scale", size=12, fill=GREY)
    s.line((30, base_y - 8), (30, base_y - 4 * bar_h + 8), arrow=True)
    s.text((36, base_y - 4 * bar_h - 4), "higher trophic level", size=12, anchor="start")
    return s


# ----------------------------------------------------------------------------- unit 5
def nephron_schematic() -> Svg:
    s = Svg(680, 580, "A nephron")
    tube = "#b9770e"
    # cortex and medulla
    s.rect(20, 30, 640, 230, fill="#fdf2e9", stroke="none", width=0)
    s.rect(20, 260, 640, 290, fill="#f6ddcc", stroke="none", width=0)
    s.line((20, 260), (660, 260), stroke=GREY, width=1.5, dash="8 5")
    s.text((30, 50), "cortex", size=15, anchor="start", weight="bold", fill="#6e2c00")
    s.text((30, 282), "medulla", size=15, anchor="start", weight="bold", fill="#6e2c00")
    # glomerulus and Bowman's capsule
    g = (200.0, 130.0)
    s.circle(g, 24, fill="#f1948a", stroke=RED, width=2)
    s.polyline(
        _coil((g[0] - 18, g[1] - 6), (g[0] + 18, g[1] + 6), 3, 7), stroke="#922b21", width=1.5
    )
    cup = _arc_points(g, 38, 305, 595, 60)
    s.polyline(cup, stroke=tube, width=5)
    # arterioles
    s.line((40, 118), (g[0] - 22, 122), stroke=RED, width=5)
    s.line((g[0] - 22, 140), (40, 146), stroke=RED, width=3.5)
    s.text((40, 108), "afferent arteriole", size=12, anchor="start", fill=RED)
    s.text((40, 166), "efferent arteriole", size=12, anchor="start", fill=RED)
    # PCT from the capsule outlet
    outlet = _polar(g, 38, 110)
    pct = _coil(outlet, (330.0, 170.0), 4, 12)
    s.polyline(pct, stroke=tube, width=5)
    # loop of Henle
    dl_top, dl_bot = (330.0, 170.0), (330.0, 480.0)
    al_bot, al_top = (380.0, 480.0), (380.0, 200.0)
    s.line(dl_top, dl_bot, stroke=tube, width=5)
    loop = [
        (330 + 25 - 25 * math.cos(math.pi * i / 20), 480 + 25 * math.sin(math.pi * i / 20))
        for i in range(21)
    ]
    s.polyline(loop, stroke=tube, width=5)
    s.line(al_bot, al_top, stroke=tube, width=5)
    # DCT to collecting duct
    dct = _coil(al_top, (520.0, 150.0), 3, 11)
    s.polyline(dct, stroke=tube, width=5)
    s.line((520, 60), (520, 540), stroke="#7e5109", width=9)
    s.line((520, 150), (520, 150), stroke=tube, width=5)
    # vasa recta alongside the loop
    vr = (
        [(312.0, 250.0), (312.0, 505.0)]
        + [
            (355 - 43 * math.cos(math.pi * i / 20), 505 + 30 * math.sin(math.pi * i / 20))
            for i in range(21)
        ]
        + [(398.0, 250.0)]
    )
    s.polyline(vr, stroke=RED, width=1.5, dash="5 4")

    # labels with leader lines
    def label(at: Point, text_at: Point, text: str, anchor: str = "start") -> None:
        s.line(text_at, at, stroke=GREY, width=1)
        s.text(
            (text_at[0] + (4 if anchor == "start" else -4), text_at[1] + 4),
            text,
            size=13,
            anchor=anchor,
        )

    label((g[0] - 4, g[1] + 8), (120, 215), "glomerulus", anchor="end")
    label(_polar(g, 38, 200), (230, 232), "Bowman's capsule")
    label(pct[len(pct) // 2], (250, 60), "proximal convoluted tubule")
    label((330, 380), (200, 380), "descending limb", anchor="end")
    label((380, 380), (430, 330), "ascending limb")
    label((355, 505), (430, 520), "Henle's loop")
    label(dct[len(dct) // 2], (420, 95), "distal convoluted tubule", anchor="end")
    label((520, 420), (560, 400), "collecting duct")
    label((312, 300), (200, 300), "vasa recta", anchor="end")
    s.line((520, 540), (520, 565), stroke="#7e5109", width=2, arrow=True)
    s.text((530, 566), "to renal pelvis", size=12, anchor="start")
    return s


def oxygen_dissociation_curve() -> Svg:
    s = Svg(660, 450, "Oxygen dissociation curve of haemoglobin")
    box = (80.0, 50.0, 500.0, 320.0)
    s.axes(box, "", "% saturation of haemoglobin with O2")
    x, y, w, h = box
    pmax = 110.0

    def sat(p: float, p50: float, n: float = 2.7) -> float:
        return 100.0 * p**n / (p**n + p50**n)

    ps = [pmax * i / 300 for i in range(301)]
    s.plot(box, ps, [sat(p, 26.8) for p in ps], (0, pmax), (0, 100), stroke=RED)
    s.plot(box, ps, [sat(p, 36.0) for p in ps], (0, pmax), (0, 100), stroke=BLUE, dash="8 5")
    # ticks
    for v in (0, 20, 40, 60, 80, 100):
        xx = x + v / pmax * w
        s.line((xx, y + h), (xx, y + h + 6), width=1.5)
        s.text((xx, y + h + 22), str(v), size=12)
    for v in (0, 25, 50, 75, 100):
        yy = y + h - v / 100 * h
        s.line((x - 6, yy), (x, yy), width=1.5)
        s.text((x - 10, yy + 4), str(v), size=12, anchor="end")
    s.text((x + w / 2, y + h + 46), "partial pressure of oxygen, pO2 (mm Hg)", size=14)
    # tissue and alveolar points
    for p, name in ((40.0, "tissues"), (104.0, "alveoli")):
        sv = sat(p, 26.8)
        px, py = x + p / pmax * w, y + h - sv / 100 * h
        s.line((px, y + h), (px, py), stroke=GREY, width=1, dash="3 3")
        s.line((x, py), (px, py), stroke=GREY, width=1, dash="3 3")
        s.circle((px, py), 5, fill=RED, stroke=RED)
        if p < 60:
            s.text((px + 8, py + 22), f"{name}: {sv:.0f}%", size=12, anchor="start")
        else:
            s.text((px - 8, py - 10), f"{name}: {sv:.0f}%", size=12, anchor="end")
    s.text(
        (x + 0.31 * w, y + 0.2 * h), "normal curve", size=13, fill=RED, anchor="end", weight="bold"
    )
    s.text(
        (x + 0.52 * w, y + 0.52 * h),
        "shift to the right:",
        size=13,
        fill=BLUE,
        anchor="start",
        weight="bold",
    )
    s.text(
        (x + 0.52 * w, y + 0.52 * h + 17), "high pCO2, high H+,", size=12, fill=BLUE, anchor="start"
    )
    s.text(
        (x + 0.52 * w, y + 0.52 * h + 33), "higher temperature", size=12, fill=BLUE, anchor="start"
    )
    return s


# ----------------------------------------------------------------------------- unit 9
def pbr322_vector_map() -> Svg:
    s = Svg(620, 580, "The cloning vector pBR322")
    c, r = (310.0, 300.0), 170.0
    total = 4361.0

    def ang(bp: float) -> float:
        return 360.0 * bp / total

    s.circle(c, r, stroke="#222", width=3)
    # genes as thick arcs; arrowheads give the direction of transcription of tetR and ampR
    genes = [
        ("tetR", 86, 1276, BLUE, 1),
        ("rop", 1915, 2106, GREEN, 0),
        ("ampR", 3293, 4153, RED, -1),
    ]
    for name, b0, b1, col, sense in genes:
        a0, a1 = ang(b0), ang(b1)
        pts = _arc_points(c, r, a0, a1, 40)
        if sense < 0:
            pts = pts[::-1]
        if sense == 0:
            s.polyline(pts, stroke=col, width=16)
        else:
            s.polyline(pts[:-2], stroke=col, width=16)
            _head(s, pts[-1], (pts[-1][0] - pts[-3][0], pts[-1][1] - pts[-3][1]), 22, col)
        mid = (a0 + a1) / 2
        s.text(_polar(c, r - 42, mid), name, size=18, weight="bold", fill=col)
    # origin of replication
    a_ori = ang(2535)
    s.polyline(_arc_points(c, r, a_ori - 4, a_ori + 4, 8), stroke=ORANGE, width=22)
    s.text(_polar(c, r - 42, a_ori), "ori", size=18, weight="bold", fill=ORANGE)
    # restriction sites: tick across the circle and a label outside
    sites = [
        ("EcoRI", 4359, -12),
        ("ClaI", 23, 5),
        ("HindIII", 29, 14),
        ("BamHI", 375, 6),
        ("SalI", 651, 4),
        ("PvuII", 2066, 0),
        ("PstI", 3607, -4),
        ("PvuI", 3733, 4),
    ]
    for name, bp, shift in sites:
        a = ang(bp)
        s.line(_polar(c, r - 12, a), _polar(c, r + 12, a), stroke="#222", width=2)
        la = a + shift
        p_lab = _polar(c, r + 40, la)
        s.line(_polar(c, r + 13, a), _polar(c, r + 28, la), stroke=GREY, width=1)
        sa = math.sin(math.radians(la))
        anchor = "start" if sa > 0.25 else ("end" if sa < -0.25 else "middle")
        s.text((p_lab[0], p_lab[1] + 5), name, size=15, anchor=anchor)
    s.text(c, "pBR322", size=24, weight="bold")
    s.text((c[0], c[1] + 24), "about 4.4 kb", size=14)
    s.text((c[0], c[1] + 70), "BamHI and SalI lie in tetR;", size=12, fill="#333")
    s.text((c[0], c[1] + 86), "PstI and PvuI lie in ampR", size=12, fill="#333")
    return s


FIGURES: dict[str, Callable[[], Svg]] = {
    "bot-cell-cycle-wheel": cell_cycle_wheel,
    "bot-z-scheme": z_scheme,
    "bot-population-growth-curves": population_growth_curves,
    "bot-pyramid-of-energy": pyramid_of_energy,
    "zoo-nephron-schematic": nephron_schematic,
    "zoo-oxygen-dissociation-curve": oxygen_dissociation_curve,
    "zoo-pbr322-vector-map": pbr322_vector_map,
}
