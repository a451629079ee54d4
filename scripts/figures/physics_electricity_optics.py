"""Physics figures for units 11-20: electrostatics, circuits, AC, EM waves, optics, modern physics
and semiconductor devices. Every curve is computed from the relation it illustrates."""

from __future__ import annotations

import math
from collections.abc import Callable

from scripts.figures.svg import Point, Svg

BLUE = "#1f4e9c"
RED = "#c0392b"
GREEN = "#1e8449"
GREY = "#777"


# ----------------------------------------------------------------------------- small helpers
def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _resistor(s: Svg, a: Point, b: Point, label: str, label_offset: Point = (0, -14)) -> None:
    """A zigzag resistor between a and b with straight leads; label placed near the middle."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    p0, p1 = _lerp(a, b, 0.3), _lerp(a, b, 0.7)
    s.line(a, p0)
    s.line(p1, b)
    pts = [p0]
    zig = 6
    for i in range(1, 2 * zig):
        t = i / (2 * zig)
        base = _lerp(p0, p1, t)
        sign = 1 if i % 2 else -1
        pts.append((base[0] + 8 * sign * nx, base[1] + 8 * sign * ny))
    pts.append(p1)
    s.polyline(pts, width=2)
    mid = _lerp(a, b, 0.5)
    s.text((mid[0] + label_offset[0], mid[1] + label_offset[1]), label, size=16, weight="bold")


def _cell(s: Svg, x: float, y: float) -> None:
    """A cell drawn vertically-plated on a horizontal wire at (x, y): long plate positive."""
    s.line((x - 6, y - 16), (x - 6, y + 16), width=2.5)
    s.line((x + 6, y - 8), (x + 6, y + 8), width=5)
    s.text((x - 14, y - 20), "+", size=14)


def _arrow_mid(s: Svg, pts: list[Point], frac: float, color: str) -> None:
    """A short arrowed segment along a polyline, at a fraction of its points."""
    i = max(1, min(len(pts) - 2, int(frac * (len(pts) - 1))))
    s.line(pts[i - 1], pts[i + 1], stroke=color, width=2, arrow=True)


# ----------------------------------------------------------------------------- unit 11
def dipole_field_lines() -> Svg:
    s = Svg(640, 420, "Electric field lines of an electric dipole")
    plus, minus = (250.0, 210.0), (390.0, 210.0)

    def field(p: Point) -> Point:
        ex = ey = 0.0
        for (cx, cy), q in ((plus, 1.0), (minus, -1.0)):
            rx, ry = p[0] - cx, p[1] - cy
            r3 = (rx * rx + ry * ry) ** 1.5
            ex += q * rx / r3
            ey += q * ry / r3
        return ex, ey

    n_lines = 14
    for k in range(n_lines):
        ang = 2 * math.pi * k / n_lines
        p = (plus[0] + 12 * math.cos(ang), plus[1] + 12 * math.sin(ang))
        pts = [p]
        for _ in range(3000):
            ex, ey = field(p)
            mag = math.hypot(ex, ey)
            p = (p[0] + 2.0 * ex / mag, p[1] + 2.0 * ey / mag)
            pts.append(p)
            if math.hypot(p[0] - minus[0], p[1] - minus[1]) < 12:
                break
            if not (8 < p[0] < 632 and 8 < p[1] < 412):
                break
        s.polyline(pts, stroke=BLUE, width=1.6)
        ended = math.hypot(p[0] - minus[0], p[1] - minus[1]) < 12
        _arrow_mid(s, pts, 0.35 if ended else 0.3, BLUE)
        if not ended:
            # by symmetry, a line from far away ends on -q as the mirror image of this one
            mirrored = [(640 - x, y) for x, y in reversed(pts)]
            s.polyline(mirrored, stroke=BLUE, width=1.6)
            _arrow_mid(s, mirrored, 0.7, BLUE)
    s.circle(plus, 13, fill=RED, stroke="#222")
    s.text((plus[0], plus[1] + 6), "+q", size=13, weight="bold", fill="white")
    s.circle(minus, 13, fill="#2e4053", stroke="#222")
    s.text((minus[0], minus[1] + 6), "−q", size=13, weight="bold", fill="white")
    s.text((320, 24), "Field lines start on +q and end on −q; they never cross", size=14)
    return s


# ----------------------------------------------------------------------------- unit 12
def wheatstone_bridge() -> Svg:
    s = Svg(560, 440, "Wheatstone bridge")
    a, b, c, d = (110.0, 200.0), (280.0, 70.0), (450.0, 200.0), (280.0, 330.0)
    _resistor(s, a, b, "P", (-18, -12))
    _resistor(s, b, c, "Q", (18, -12))
    _resistor(s, a, d, "R", (-18, 22))
    _resistor(s, d, c, "S", (18, 22))
    # galvanometer between B and D
    s.line(b, (280, 178))
    s.line((280, 222), d)
    s.circle((280, 200), 22, fill="white")
    s.text((280, 206), "G", size=18, weight="bold")
    # battery and key from A round the bottom to C
    s.line(a, (110, 400))
    s.line((110, 400), (244, 400))
    _cell(s, 250, 400)
    s.line((256, 400), (330, 400))
    s.circle((336, 400), 4, fill="#222")
    s.line((340, 398), (368, 386))
    s.circle((372, 400), 4, fill="#222")
    s.text((354, 380), "K", size=14, weight="bold")
    s.line((376, 400), (450, 400))
    s.line((450, 400), c)
    for p, name, off in (
        (a, "A", (-16, 5)),
        (b, "B", (0, -12)),
        (c, "C", (18, 5)),
        (d, "D", (0, 24)),
    ):
        s.circle(p, 4, fill="#222")
        s.text((p[0] + off[0], p[1] + off[1]), name, size=16, weight="bold")
    s.text((280, 430), "Balanced (no current in G) when P/Q = R/S", size=15)
    return s


# ----------------------------------------------------------------------------- unit 14
def _inductor(s: Svg, x0: float, x1: float, y: float) -> None:
    turns = 4
    w = (x1 - x0) / turns
    d = f"M{x0},{y}"
    for i in range(turns):
        xa = x0 + i * w
        d += f" C{xa + 0.1 * w},{y - 26} {xa + 0.9 * w},{y - 26} {xa + w},{y}"
    s.path(d, width=2)


def series_lcr_circuit() -> Svg:
    s = Svg(600, 340, "Series LCR circuit")
    top, bottom, left, right = 80.0, 260.0, 70.0, 530.0
    # top wire with R, L and C in series
    _resistor(s, (left, top), (230, top), "R", (0, -20))
    s.line((230, top), (270, top))
    _inductor(s, 270, 370, top)
    s.text((320, top - 32), "L", size=16, weight="bold")
    s.line((370, top), (440, top))
    s.line((440, top - 22), (440, top + 22), width=3)
    s.line((454, top - 22), (454, top + 22), width=3)
    s.text((447, top - 30), "C", size=16, weight="bold")
    s.line((454, top), (right, top))
    s.line((left, top), (left, bottom))
    s.line((right, top), (right, bottom))
    # AC source on the bottom wire
    s.line((left, bottom), (270, bottom))
    s.line((330, bottom), (right, bottom))
    s.circle((300, bottom), 30, fill="white")
    xs = [285 + i for i in range(31)]
    s.polyline([(x, bottom - 10 * math.sin((x - 285) / 30 * 2 * math.pi)) for x in xs], width=2)
    s.text((300, bottom + 52), "AC source  v = v_m sin ωt", size=15)
    s.text((300, 170), "The same current i flows through R, L and C", size=14, fill=GREY)
    return s


def lcr_resonance_curve() -> Svg:
    s = Svg(620, 400, "Resonance curves of a series LCR circuit")
    box = (80.0, 50.0, 480.0, 280.0)
    s.axes(box, "angular frequency ω (rad/s)", "rms current I (A)")
    inductance, capacitance, volts = 0.1, 10e-6, 1.0
    omega0 = 1 / math.sqrt(inductance * capacitance)
    ws = [200 + 5 * i for i in range(361)]
    for res, color, dash in ((10.0, RED, None), (30.0, BLUE, "8 5")):
        ys = [volts / math.hypot(res, w * inductance - 1 / (w * capacitance)) for w in ws]
        s.plot(box, ws, ys, (200, 2000), (0, 0.11), stroke=color, dash=dash)
    x0 = box[0] + (omega0 - 200) / 1800 * box[2]
    s.line((x0, box[1] + box[3]), (x0, box[1] + 10), stroke=GREY, width=1.2, dash="4 4")
    s.text((x0, box[1] + box[3] + 22), "ω₀ = 1/√(LC)", size=14)
    s.text((x0 + 40, box[1] + 30), "R = 10 Ω: sharper peak", size=14, anchor="start", fill=RED)
    s.text((x0 + 70, box[1] + 215), "R = 30 Ω: flatter peak", size=14, anchor="start", fill=BLUE)
    return s


# ----------------------------------------------------------------------------- unit 15
def em_wave_fields() -> Svg:
    s = Svg(660, 380, "Electric and magnetic fields in a plane electromagnetic wave")
    ox, oy = 70.0, 200.0
    length, amp_e, amp_b = 520.0, 110.0, 80.0
    # axes: x to the right, y up, z drawn obliquely (down-left)
    s.line((ox, oy), (ox + length + 30, oy), arrow=True)
    s.line((ox, oy), (ox, oy - 140), arrow=True)
    s.line((ox, oy), (ox - 55, oy + 75), arrow=True)
    s.text((ox + length + 40, oy + 5), "x", size=16, italic=True, anchor="start")
    s.text((ox - 10, oy - 146), "y", size=16, italic=True)
    s.text((ox - 64, oy + 90), "z", size=16, italic=True)
    zx, zy = -0.55, 0.75
    n = 240
    e_pts, b_pts = [], []
    for i in range(n + 1):
        x = ox + length * i / n
        ph = 2 * math.pi * 2 * i / n
        e_pts.append((x, oy - amp_e * math.sin(ph)))
        b_pts.append((x + zx * amp_b * math.sin(ph), oy + zy * amp_b * math.sin(ph)))
    for i in range(0, n + 1, 8):
        s.line((e_pts[i][0], oy), e_pts[i], stroke=RED, width=1)
        s.line((ox + length * i / n, oy), b_pts[i], stroke=BLUE, width=1)
    s.polyline(e_pts, stroke=RED, width=2.5)
    s.polyline(b_pts, stroke=BLUE, width=2.5)
    s.text((ox + 75, oy - amp_e - 10), "E (along y)", size=15, fill=RED, weight="bold")
    s.text((ox + 40, oy + 100), "B (along z)", size=15, fill=BLUE, weight="bold")
    s.line((ox + 380, 60), (ox + 500, 60), arrow=True)
    s.text((ox + 440, 48), "direction of travel, speed c", size=14)
    s.text((330, 360), "E and B are in phase, perpendicular to each other and to x", size=14)
    return s


# ----------------------------------------------------------------------------- unit 16
def convex_lens_ray_diagram() -> Svg:
    s = Svg(700, 360, "Image formation by a convex lens, object beyond 2F")
    axis_y, lens_x, f = 180.0, 360.0, 80.0
    u, h = -200.0, 70.0
    v = 1 / (1 / f + 1 / u)
    m = v / u
    obj_x, img_x = lens_x + u, lens_x + v
    obj_top = (obj_x, axis_y - h)
    img_top = (img_x, axis_y - m * h)
    s.line((20, axis_y), (680, axis_y), stroke=GREY, width=1.2)
    s.ellipse((lens_x, axis_y), 12, 120, fill="#d6eaf8", stroke=BLUE)
    s.line((lens_x, axis_y + 118), (lens_x, axis_y - 124), stroke=BLUE, width=1.5, arrow=True)
    s.line((lens_x, axis_y - 118), (lens_x, axis_y + 124), stroke=BLUE, width=1.5, arrow=True)
    for k, name in ((-2, "2F"), (-1, "F"), (1, "F"), (2, "2F")):
        x = lens_x + k * f
        s.circle((x, axis_y), 3, fill="#222")
        s.text((x, axis_y + 20), name, size=14)
    s.text((lens_x + 14, axis_y + 20), "O", size=14, anchor="start")
    s.line((obj_x, axis_y), obj_top, stroke=GREEN, width=3, arrow=True)
    s.text((obj_x, axis_y + 40), "object", size=14, fill=GREEN)
    s.line((img_x, axis_y), img_top, stroke=RED, width=3, arrow=True)
    s.text((img_x, axis_y - 14), "image", size=14, fill=RED)
    # ray 1: parallel to the axis, then through the second focus
    s.line(obj_top, (lens_x, obj_top[1]), stroke="#b9770e", width=1.6)
    slope = (img_top[1] - obj_top[1]) / (img_top[0] - lens_x)
    end_x = 660.0
    s.line(
        (lens_x, obj_top[1]),
        (end_x, obj_top[1] + slope * (end_x - lens_x)),
        stroke="#b9770e",
        width=1.6,
    )
    # ray 2: through the optical centre, undeviated
    slope2 = (img_top[1] - obj_top[1]) / (img_top[0] - obj_top[0])
    s.line(
        obj_top, (end_x, obj_top[1] + slope2 * (end_x - obj_top[0])), stroke="#7d3c98", width=1.6
    )
    # ray 3: through the first focus, then parallel to the axis
    f1 = (lens_x - f, axis_y)
    slope3 = (f1[1] - obj_top[1]) / (f1[0] - obj_top[0])
    hit_y = obj_top[1] + slope3 * (lens_x - obj_top[0])
    s.line(obj_top, (lens_x, hit_y), stroke="#117a65", width=1.6)
    s.line((lens_x, hit_y), (end_x, hit_y), stroke="#117a65", width=1.6)
    s.text(
        (350, 340),
        f"u = −{-u:.0f}, f = +{f:.0f}: v = +{v:.0f}, m = {m:.2f}  (real, inverted, smaller)",
        size=14,
    )
    return s


# ----------------------------------------------------------------------------- unit 17
def photocurrent_vs_potential() -> Svg:
    s = Svg(640, 400, "Photocurrent against collector potential for three intensities")
    left, right, top, axis_y = 60.0, 600.0, 50.0, 330.0
    v_min, v_max, v0 = -3.0, 6.0, 2.0

    def px(v: float) -> float:
        return left + (v - v_min) / (v_max - v_min) * (right - left)

    def py(i: float) -> float:
        return axis_y - i / 3.4 * (axis_y - top)

    x0 = px(0)
    s.line((left, axis_y), (right + 10, axis_y), arrow=True)
    s.line((x0, axis_y + 10), (x0, top - 10), arrow=True)
    s.text((right + 10, axis_y + 22), "collector potential", size=14, anchor="end")
    s.text((x0 + 8, top - 14), "photocurrent", size=14, anchor="start")
    vs = [v0 * -1 + 0.05 * k for k in range(int((v_max + v0) / 0.05) + 1)]
    for isat, color, name in ((1.0, BLUE, "I₁"), (2.0, GREEN, "I₂"), (3.0, RED, "I₃")):
        pts = [(px(v), py(isat * math.tanh((v + v0) / 1.2))) for v in vs]
        s.polyline(pts, stroke=color, width=2.5)
        s.text((right - 20, py(isat) - 8), name, size=14, fill=color, weight="bold")
    s.circle((px(-v0), axis_y), 4, fill="#222")
    s.text((px(-v0), axis_y + 22), "−V₀", size=15)
    s.text((px(-v0) - 10, axis_y + 42), "stopping potential", size=13, anchor="start")
    s.text((px(3.2), py(3.0) - 26), "saturation currents", size=14)
    s.text((420, 392), "Same frequency; intensity I₃ > I₂ > I₁", size=14)
    return s


def photoelectric_kmax_vs_frequency() -> Svg:
    s = Svg(640, 420, "Maximum kinetic energy of photoelectrons against frequency")
    left, right, top, bottom = 80.0, 590.0, 40.0, 380.0
    nu_max, k_min, k_max = 16.0, -5.0, 4.5
    h_ev = 4.136e-15 * 1e14  # eV per 10^14 Hz

    def px(nu: float) -> float:
        return left + nu / nu_max * (right - left)

    def py(k: float) -> float:
        return bottom - (k - k_min) / (k_max - k_min) * (bottom - top)

    s.line((left, py(0)), (right + 10, py(0)), arrow=True)
    s.line((left, bottom), (left, top - 10), arrow=True)
    s.text((right + 10, py(0) - 12), "frequency ν (10¹⁴ Hz)", size=14, anchor="end")
    s.text((left + 8, top - 14), "K_max (eV)", size=14, anchor="start")
    for t in range(0, 17, 4):
        s.line((px(t), py(0) - 4), (px(t), py(0) + 4))
        s.text((px(t), py(0) + 18), str(t), size=12)
    for k in (-4, -2, 2, 4):
        s.line((left - 4, py(k)), (left + 4, py(k)))
        s.text((left - 8, py(k) + 4), str(k), size=12, anchor="end")
    for nu0, color, name in ((5.5, BLUE, "metal A"), (10.0, RED, "metal B")):
        nus = [nu0 + 0.1 * i for i in range(int((nu_max - nu0) / 0.1) + 1)]
        s.plot(
            (left, top, right - left, bottom - top),
            nus,
            [h_ev * (n - nu0) for n in nus],
            (0, nu_max),
            (k_min, k_max),
            stroke=color,
        )
        s.line((px(0), py(-h_ev * nu0)), (px(nu0), py(0)), stroke=color, width=1.2, dash="5 4")
        s.circle((px(nu0), py(0)), 4, fill=color)
        s.text((px(nu0), py(0) + 34), f"ν₀ ({name})", size=13, fill=color)
        s.text(
            (left + 10, py(-h_ev * nu0) + 4), f"−φ₀ ({name})", size=12, fill=color, anchor="start"
        )
    s.text((px(12.5), py(-1.5)), "parallel lines: slope = h", size=14)
    s.text((px(12.5), py(-2.2)), "for every metal", size=14)
    return s


# ----------------------------------------------------------------------------- unit 18
def hydrogen_energy_levels() -> Svg:
    s = Svg(640, 460, "Energy levels of the hydrogen atom")
    x0, x1, top, scale = 60.0, 470.0, 50.0, 380.0 / 13.6

    def y(e: float) -> float:
        return top - e * scale

    levels = {n: -13.6 / n**2 for n in range(1, 7)}
    s.line((x0, y(0)), (x1, y(0)), stroke=GREY, width=1.2, dash="5 4")
    s.text((x1 + 10, y(0) + 4), "n = ∞   0 eV", size=13, anchor="start")
    for n, e in levels.items():
        s.line((x0, y(e)), (x1, y(e)), width=2 if n <= 3 else 1.2)
        if n <= 4:
            s.text(
                (x1 + 10, y(e) + 4 + (3 if n == 4 else 0)),
                f"n = {n}   {e:.2f} eV",
                size=13,
                anchor="start",
            )
    series = (
        ("Lyman (UV)", 1, (2, 3, 4, 5), 90.0, BLUE),
        ("Balmer (visible)", 2, (3, 4, 5, 6), 230.0, GREEN),
        ("Paschen (IR)", 3, (4, 5, 6), 360.0, RED),
    )
    for name, lower, uppers, xs, color in series:
        for j, up in enumerate(uppers):
            x = xs + 18 * j
            s.line((x, y(levels[up])), (x, y(levels[lower])), stroke=color, width=1.3, arrow=True)
        if lower == 1:
            s.text(
                (xs + 18 * len(uppers) + 6, y(-8.0)),
                name,
                size=13,
                fill=color,
                weight="bold",
                anchor="start",
            )
        else:
            s.text(
                (xs + 9 * (len(uppers) - 1), y(levels[lower]) + 18),
                name,
                size=13,
                fill=color,
                weight="bold",
            )
    s.text((320, 24), "E_n = −13.6/n² eV; downward jumps emit photons of energy E_i − E_f", size=13)
    return s


# A, binding energy per nucleon (MeV) for representative stable nuclides
BINDING = (
    (2, 1.112),
    (3, 2.827),
    (4, 7.074),
    (6, 5.332),
    (7, 5.606),
    (9, 6.463),
    (11, 6.928),
    (12, 7.680),
    (14, 7.476),
    (16, 7.976),
    (19, 7.779),
    (20, 8.032),
    (24, 8.261),
    (28, 8.448),
    (32, 8.493),
    (40, 8.551),
    (48, 8.666),
    (56, 8.790),
    (62, 8.795),
    (64, 8.736),
    (80, 8.710),
    (90, 8.710),
    (100, 8.640),
    (120, 8.505),
    (140, 8.376),
    (160, 8.220),
    (180, 8.030),
    (197, 7.916),
    (208, 7.868),
    (220, 7.710),
    (235, 7.591),
    (238, 7.570),
)


def binding_energy_per_nucleon() -> Svg:
    s = Svg(660, 420, "Binding energy per nucleon against mass number")
    box = (80.0, 50.0, 520.0, 300.0)
    s.line((box[0], box[1] + box[3]), (box[0] + box[2] + 20, box[1] + box[3]), arrow=True)
    s.line((box[0], box[1] + box[3]), (box[0], box[1] - 10), arrow=True)
    s.text((box[0] + box[2] / 2, box[1] + box[3] + 44), "mass number A", size=14)
    s.text((box[0] - 8, box[1] - 16), "binding energy per nucleon (MeV)", size=14, anchor="start")

    def pt(a: float, e: float) -> Point:
        return (box[0] + a / 250 * box[2], box[1] + box[3] - e / 9.5 * box[3])

    for tick in (2, 4, 6, 8):
        s.line((box[0] - 4, pt(0, tick)[1]), (box[0] + 4, pt(0, tick)[1]))
        s.text((box[0] - 8, pt(0, tick)[1] + 4), str(tick), size=12, anchor="end")
    for tick in (50, 100, 150, 200, 250):
        x = pt(tick, 0)[0]
        s.line((x, box[1] + box[3] - 4), (x, box[1] + box[3] + 4))
        s.text((x, box[1] + box[3] + 18), str(tick), size=12)
    s.polyline([pt(a, e) for a, e in BINDING], stroke=RED, width=2.5)
    for a, e in BINDING:
        s.circle(pt(a, e), 2.5, fill=RED, stroke=RED, width=1)
    for a, e, name, off in (
        (4, 7.074, "⁴He", (14, -6)),
        (56, 8.790, "⁵⁶Fe (maximum)", (0, -14)),
        (238, 7.570, "²³⁸U", (0, -14)),
        (2, 1.112, "²H", (16, 4)),
    ):
        x, yv = pt(a, e)
        s.text((x + off[0], yv + off[1]), name, size=13, weight="bold")
    s.text(
        (pt(25, 3.5)[0], pt(25, 3.5)[1]),
        "fusion of light nuclei",
        size=13,
        fill=BLUE,
        anchor="start",
    )
    s.text(
        (pt(235, 6.3)[0], pt(235, 6.3)[1]),
        "fission of heavy nuclei",
        size=13,
        fill=BLUE,
        anchor="end",
    )
    s.text(
        (pt(120, 8.1)[0], pt(120, 8.1)[1] + 22), "nearly constant, about 8 MeV", size=13, fill=GREY
    )
    return s


# ----------------------------------------------------------------------------- unit 19
def pn_diode_iv_characteristic() -> Svg:
    s = Svg(660, 440, "I–V characteristic of a p–n junction diode")
    ox, oy = 400.0, 230.0
    s.line((40, oy), (630, oy), arrow=True)
    s.line((ox, 420), (ox, 30), arrow=True)
    s.text((630, oy + 42), "forward V (volt)", size=13, anchor="end")
    s.text((40, oy - 12), "reverse V (volt)", size=13, anchor="start")
    s.text((ox + 8, 34), "forward I (mA)", size=13, anchor="start")
    s.text((ox + 8, 416), "reverse I (μA)", size=13, anchor="start")
    # forward branch: 0 to 0.9 V over 220 px, 0 to 50 mA over 180 px
    fwd = []
    for i in range(0, 181):
        v = 0.9 * i / 180
        cur = 1e-5 * (math.exp(v / 0.045) - 1)
        if cur > 50:
            break
        fwd.append((ox + v / 0.9 * 220, oy - cur / 50 * 180))
    s.polyline(fwd, stroke=RED, width=2.5)
    knee_x = ox + 0.65 / 0.9 * 220
    s.line((knee_x, oy + 4), (knee_x, oy - 4))
    s.text((knee_x, oy + 22), "≈0.7 V knee", size=12)
    for v in (0.2, 0.4):
        x = ox + v / 0.9 * 220
        s.line((x, oy - 4), (x, oy + 4))
        s.text((x, oy + 18), f"{v:.1f}", size=11)
    # reverse branch: 0 to -25 V over 340 px; tiny saturation current, breakdown at -20 V
    rev = []
    for i in range(0, 301):
        v = -25 * i / 300
        if v > -20:
            cur_ua = 1.0 * (1 - math.exp(v / 0.5))
            yv = oy + cur_ua * 12
        else:
            yv = oy + 12 + (-20 - v) * 80
        if yv > 410:
            break
        rev.append((ox + v / 25 * 340, yv))
    s.polyline(rev, stroke=BLUE, width=2.5)
    bx = ox - 20 / 25 * 340
    s.line((bx, oy - 4), (bx, oy + 4))
    s.text((bx + 10, oy + 70), "breakdown voltage", size=12, anchor="start")
    s.text((ox - 120, oy + 34), "small reverse saturation current", size=12)
    s.text((330, 22), "Forward and reverse axes use different scales", size=13, fill=GREY)
    return s


FIGURES: dict[str, Callable[[], Svg]] = {
    "phy-electric-dipole-field-lines": dipole_field_lines,
    "phy-wheatstone-bridge": wheatstone_bridge,
    "phy-series-lcr-circuit": series_lcr_circuit,
    "phy-lcr-resonance-curve": lcr_resonance_curve,
    "phy-em-wave-fields": em_wave_fields,
    "phy-convex-lens-ray-diagram": convex_lens_ray_diagram,
    "phy-photocurrent-vs-potential": photocurrent_vs_potential,
    "phy-photoelectric-kmax-vs-frequency": photoelectric_kmax_vs_frequency,
    "phy-hydrogen-energy-levels": hydrogen_energy_levels,
    "phy-binding-energy-per-nucleon": binding_energy_per_nucleon,
    "phy-pn-diode-iv-characteristic": pn_diode_iv_characteristic,
}
