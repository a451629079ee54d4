"""Physics figures for units 1–10: mechanics, properties of matter, heat, oscillations, waves."""

from __future__ import annotations

import math
from collections.abc import Callable

from scripts.figures.svg import Point, Svg

SHADE = "#f6d7a7"
CURVE = "#c0392b"
BLUE = "#1f5fa8"
GREEN = "#1e8449"
GREY = "#777"


def _mapper(
    box: tuple[float, float, float, float], xr: tuple[float, float], yr: tuple[float, float]
) -> Callable[[float, float], Point]:
    """Data coordinates (x up-right) to SVG coordinates inside box (x, y, w, h)."""
    x, y, w, h = box

    def to(a: float, b: float) -> Point:
        return (x + (a - xr[0]) / (xr[1] - xr[0]) * w, y + h - (b - yr[0]) / (yr[1] - yr[0]) * h)

    return to


def velocity_time_graph() -> Svg:
    svg = Svg(560, 380, "Velocity–time graph for uniformly accelerated motion")
    box = (80, 50, 420, 260)
    to = _mapper(box, (0, 10), (0, 10))
    u, v, t = 3.0, 8.5, 8.0
    svg.polyline(
        [to(0, 0), to(0, u), to(t, v), to(t, 0)], stroke="none", width=0, fill=SHADE, closed=True
    )
    svg.axes(box, "time", "velocity")
    svg.line(to(0, u), to(t, v), stroke=CURVE, width=3)
    svg.line(to(t, 0), to(t, v), stroke=GREY, width=1.5, dash="5 4")
    svg.line(to(0, v), to(t, v), stroke=GREY, width=1.5, dash="5 4")
    # slope triangle
    a0, a1 = 2.0, 5.0
    ua, ub = u + (v - u) * a0 / t, u + (v - u) * a1 / t
    svg.line(to(a0, ua), to(a1, ua), stroke=BLUE, width=1.5)
    svg.line(to(a1, ua), to(a1, ub), stroke=BLUE, width=1.5)
    svg.text(
        (to(a1, ua)[0] + 8, (to(a1, ua)[1] + to(a1, ub)[1]) / 2 + 4),
        "Δv",
        size=13,
        anchor="start",
        fill=BLUE,
    )
    svg.text(((to(a0, ua)[0] + to(a1, ua)[0]) / 2, to(a0, ua)[1] + 16), "Δt", size=13, fill=BLUE)
    svg.text(
        (to(1.2, 7.6)[0], to(1.2, 7.6)[1]), "slope = Δv/Δt = a", size=14, anchor="start", fill=BLUE
    )
    svg.text((to(4.0, 1.6)[0], to(4.0, 1.6)[1]), "area = displacement s", size=15, weight="bold")
    svg.text((to(4.0, 0.6)[0], to(4.0, 0.6)[1]), "s = ½(u + v)t", size=14)
    svg.text((to(0, u)[0] - 10, to(0, u)[1] + 5), "u", size=15, anchor="end", italic=True)
    svg.text((to(0, v)[0] - 10, to(0, v)[1] + 5), "v", size=15, anchor="end", italic=True)
    svg.text((to(t, 0)[0], to(t, 0)[1] + 20), "t", size=15, italic=True)
    svg.text((to(0, 0)[0] - 10, to(0, 0)[1] + 18), "O", size=14, anchor="end")
    svg.text(
        (280, 360),
        "Velocity–time graph: slope gives acceleration, area gives displacement",
        size=13,
    )
    return svg


def projectile_trajectory() -> Svg:
    svg = Svg(600, 380, "Path of a projectile")
    g, speed, theta = 9.8, 20.0, math.radians(50)
    ux, uy = speed * math.cos(theta), speed * math.sin(theta)
    flight = 2 * uy / g
    rng, height = ux * flight, uy * uy / (2 * g)
    box = (70, 60, 460, 250)
    to = _mapper(box, (0, rng * 1.08), (0, height * 1.35))
    ts = [flight * i / 80 for i in range(81)]
    svg.axes(box, "x", "y")
    svg.polyline([to(ux * s, uy * s - 0.5 * g * s * s) for s in ts], stroke=CURVE, width=3)
    top = to(rng / 2, height)
    # maximum height
    svg.line(top, to(rng / 2, 0), stroke=GREY, width=1.5, dash="5 4")
    svg.text((top[0] + 8, (top[1] + to(0, 0)[1]) / 2), "H = u² sin²θ / 2g", size=14, anchor="start")
    svg.text((top[0], top[1] - 12), "velocity here = u cos θ (horizontal)", size=13)
    # range
    y_r = to(0, 0)[1] + 30
    svg.line((to(0, 0)[0], y_r), (to(rng, 0)[0], y_r), stroke=BLUE, width=1.5, arrow=True)
    svg.line((to(rng, 0)[0], y_r), (to(0, 0)[0], y_r), stroke=BLUE, width=1.5, arrow=True)
    svg.text(((to(0, 0)[0] + to(rng, 0)[0]) / 2, y_r + 18), "R = u² sin 2θ / g", size=14, fill=BLUE)
    # launch velocity and components
    o = to(0, 0)
    scale = 5.0
    tip = (o[0] + ux * scale, o[1] - uy * scale)
    svg.line(o, tip, stroke=GREEN, width=2.5, arrow=True)
    svg.line(o, (tip[0], o[1]), stroke=GREEN, width=1.5, dash="4 3", arrow=True)
    svg.line(o, (o[0], tip[1]), stroke=GREEN, width=1.5, dash="4 3", arrow=True)
    svg.text((tip[0] + 6, tip[1] - 4), "u", size=15, anchor="start", fill=GREEN, italic=True)
    svg.text((tip[0] + 4, o[1] - 6), "u cos θ", size=12, anchor="start", fill=GREEN)
    svg.text((o[0] + 6, tip[1] - 6), "u sin θ", size=12, anchor="start", fill=GREEN)
    svg.path(
        f"M {o[0] + 28:.1f} {o[1]:.1f} A 28 28 0 0 0 "
        f"{o[0] + 28 * math.cos(theta):.1f} {o[1] - 28 * math.sin(theta):.1f}",
        stroke=GREEN,
        width=1.5,
    )
    svg.text((o[0] + 34, o[1] - 12), "θ", size=14, anchor="start", fill=GREEN)
    return svg


def incline_free_body_diagram() -> Svg:
    svg = Svg(560, 400, "Free-body diagram of a block on a rough inclined plane")
    theta = math.radians(30)
    base_l, base_r = (60.0, 340.0), (500.0, 340.0)
    top = (500.0, 340.0 - 440 * math.tan(theta))
    svg.polyline([base_l, base_r, top], stroke="#222", width=2, fill="#eeeeee", closed=True)
    svg.path(
        f"M {base_l[0] + 60:.1f} {base_l[1]:.1f} A 60 60 0 0 0 "
        f"{base_l[0] + 60 * math.cos(theta):.1f} {base_l[1] - 60 * math.sin(theta):.1f}",
        stroke="#222",
        width=1.5,
    )
    svg.text((base_l[0] + 70, base_l[1] - 10), "θ", size=16, anchor="start")
    # unit vectors along and normal to the slope (SVG y downwards)
    along = (math.cos(theta), -math.sin(theta))
    normal = (-math.sin(theta), -math.cos(theta))
    s0, w, h = 250.0, 90.0, 56.0
    p0 = (base_l[0] + s0 * along[0], base_l[1] + s0 * along[1])
    corners = [
        p0,
        (p0[0] + w * along[0], p0[1] + w * along[1]),
        (p0[0] + w * along[0] + h * normal[0], p0[1] + w * along[1] + h * normal[1]),
        (p0[0] + h * normal[0], p0[1] + h * normal[1]),
    ]
    svg.polyline(corners, stroke="#222", width=2, fill="#bcd4ec", closed=True)
    c = (p0[0] + w / 2 * along[0] + h / 2 * normal[0], p0[1] + w / 2 * along[1] + h / 2 * normal[1])
    svg.circle(c, 3, fill="#222")
    mg = 120.0
    # weight
    svg.line(c, (c[0], c[1] + mg), stroke=CURVE, width=2.5, arrow=True)
    svg.text((c[0] + 6, c[1] + mg + 16), "mg", size=15, anchor="start", fill=CURVE, italic=True)
    # components of the weight
    comp_a = mg * math.sin(theta)
    comp_n = mg * math.cos(theta)
    down_slope = (c[0] - comp_a * along[0], c[1] - comp_a * along[1])
    into = (c[0] - comp_n * normal[0], c[1] - comp_n * normal[1])
    svg.line(c, down_slope, stroke=CURVE, width=1.5, dash="5 3", arrow=True)
    svg.line(c, into, stroke=CURVE, width=1.5, dash="5 3", arrow=True)
    svg.text((down_slope[0] - 8, down_slope[1] - 6), "mg sin θ", size=13, anchor="end", fill=CURVE)
    svg.text((into[0] + 10, into[1] + 4), "mg cos θ", size=13, anchor="start", fill=CURVE)
    # normal reaction
    n_tip = (c[0] + comp_n * normal[0], c[1] + comp_n * normal[1])
    svg.line(c, n_tip, stroke=BLUE, width=2.5, arrow=True)
    svg.text((n_tip[0] - 6, n_tip[1] - 6), "N = mg cos θ", size=14, anchor="end", fill=BLUE)
    # friction up the slope, drawn along the contact face
    f0 = (p0[0] + w / 2 * along[0], p0[1] + w / 2 * along[1])
    f1 = (f0[0] + 85 * along[0], f0[1] + 85 * along[1])
    svg.line(f0, f1, stroke=GREEN, width=2.5, arrow=True)
    svg.text((f1[0] + 6, f1[1] + 16), "f (friction)", size=14, anchor="start", fill=GREEN)
    svg.text((280, 380), "At the angle of repose, mg sin θ = μs mg cos θ, so tan θ = μs", size=14)
    return svg


def stress_strain_curve() -> Svg:
    svg = Svg(600, 400, "Stress–strain curve of a metal wire")
    box = (80, 50, 460, 270)
    to = _mapper(box, (0, 10), (0, 10))
    pts: list[tuple[float, float]] = [(0, 0), (1.5, 5.0)]  # O to A, linear
    pts += [(1.5 + 0.1 * i, 5.0 + 0.55 * (1 - (1 - i / 5) ** 2)) for i in range(1, 6)]  # A to B
    pts += [
        (2.0 + 0.15 * i, 5.55 + 2.68 * (1 - math.cos(math.pi * i / 30)) / 2) for i in range(1, 31)
    ]  # B to D
    pts += [(6.5 + 0.25 * i, 8.23 - 1.6 * (i / 10) ** 1.6) for i in range(1, 11)]  # D to E
    svg.axes(box, "strain", "stress")
    svg.polyline([to(a, b) for a, b in pts], stroke=CURVE, width=3)
    for a, b in ((1.5, 5.0), (2.0, 5.55), (6.5, 8.23), pts[-1]):
        svg.circle(to(a, b), 4, fill="#222")
    svg.text(
        (to(1.5, 5.0)[0] + 10, to(1.5, 5.0)[1] + 16),
        "A  proportional limit",
        size=13,
        anchor="start",
    )
    yp = to(2.0, 5.55)
    svg.line(yp, (yp[0] - 20, yp[1] - 50), stroke=GREY, width=1)
    svg.text((yp[0] - 20, yp[1] - 56), "B  yield point (elastic limit)", size=13)
    svg.text((to(6.5, 8.23)[0], to(6.5, 8.23)[1] - 12), "D  ultimate tensile strength", size=13)
    e = to(*pts[-1])
    svg.text((e[0], e[1] + 22), "E  fracture point", size=13)
    # regions
    y_reg = to(0, 0)[1] + 34
    svg.line((to(0, 0)[0], y_reg), (to(2.0, 0)[0], y_reg), stroke=BLUE, width=1.5)
    svg.text(((to(0, 0)[0] + to(2.0, 0)[0]) / 2, y_reg + 16), "elastic region", size=12, fill=BLUE)
    svg.line((to(2.0, 0)[0], y_reg), (to(9.0, 0)[0], y_reg), stroke=GREEN, width=1.5)
    svg.text(
        ((to(2.0, 0)[0] + to(9.0, 0)[0]) / 2, y_reg + 16), "plastic region", size=12, fill=GREEN
    )
    svg.text(
        (to(0.9, 2.2)[0] + 10, to(0.9, 2.2)[1] + 14),
        "Hooke's law region",
        size=12,
        anchor="start",
        fill=GREY,
    )
    return svg


def isothermal_adiabatic_pv() -> Svg:
    svg = Svg(560, 400, "Isothermal and adiabatic expansion from the same state")
    box = (80, 50, 420, 270)
    to = _mapper(box, (0, 5), (0, 5))
    v0, p0, gamma = 1.0, 4.5, 1.4
    vs = [v0 + (4.6 - v0) * i / 80 for i in range(81)]
    svg.axes(box, "volume V", "pressure P")
    svg.plot(box, vs, [p0 * v0 / v for v in vs], (0, 5), (0, 5), stroke=BLUE)
    svg.plot(box, vs, [p0 * (v0 / v) ** gamma for v in vs], (0, 5), (0, 5), stroke=CURVE)
    svg.circle(to(v0, p0), 5, fill="#222")
    svg.text(
        (to(v0, p0)[0] + 10, to(v0, p0)[1] - 6), "initial state (P₁, V₁)", size=13, anchor="start"
    )
    iso, adi = to(3.1, 1.95), to(1.6, 0.2)
    svg.text(iso, "isothermal: PV = constant", size=13, anchor="start", fill=BLUE)
    svg.text(adi, "adiabatic: PV^γ = constant (steeper)", size=13, anchor="start", fill=CURVE)
    svg.text(
        (280, 380), "From the same point, the adiabatic curve falls more steeply (γ = 1.4)", size=13
    )
    return svg


def shm_displacement_time() -> Svg:
    svg = Svg(600, 360, "Displacement–time graph for simple harmonic motion")
    box = (80, 40, 470, 260)
    period, amp = 4.0, 1.0
    to = _mapper(box, (0, 2.1 * period), (-1.3, 1.3))
    ts = [2.05 * period * i / 200 for i in range(201)]
    x0, y0, w, h = box
    mid = to(0, 0)[1]
    svg.line((x0, y0 + h + 10), (x0, y0 - 10), arrow=True)
    svg.line((x0, mid), (x0 + w + 10, mid), arrow=True)
    svg.text((x0 + w + 12, mid + 20), "time t", anchor="end")
    svg.text((x0 - 8, y0 - 16), "displacement x", anchor="start")
    svg.plot(
        box,
        ts,
        [amp * math.cos(2 * math.pi * s / period) for s in ts],
        (0, 2.1 * period),
        (-1.3, 1.3),
    )
    for level, label in ((amp, "+A"), (-amp, "−A")):
        svg.line((x0, to(0, level)[1]), (x0 + w, to(0, level)[1]), stroke=GREY, width=1, dash="4 4")
        svg.text((x0 - 8, to(0, level)[1] + 5), label, size=14, anchor="end")
    # amplitude arrow at the second crest
    c2 = to(period, 0)[0]
    svg.line((c2 + 14, mid), (c2 + 14, to(0, amp)[1]), stroke=BLUE, width=1.5, arrow=True)
    svg.text(
        (c2 + 20, (mid + to(0, amp)[1]) / 2), "amplitude A", size=13, anchor="start", fill=BLUE
    )
    # one period between successive crests
    yp = to(0, 1.18)[1]
    svg.line((to(0, 0)[0], yp), (c2, yp), stroke=GREEN, width=1.5, arrow=True)
    svg.line((c2, yp), (to(0, 0)[0], yp), stroke=GREEN, width=1.5, arrow=True)
    svg.text(((to(0, 0)[0] + c2) / 2, yp - 6), "period T", size=13, fill=GREEN)
    svg.text((300, 345), "x = A cos ωt, with ω = 2π/T", size=14)
    return svg


def standing_wave_string() -> Svg:
    svg = Svg(600, 330, "Standing wave on a string fixed at both ends: third harmonic")
    x0, x1, mid, amp, n = 60.0, 540.0, 150.0, 70.0, 3
    length = x1 - x0
    xs = [x0 + length * i / 240 for i in range(241)]
    for k, phase in enumerate((1.0, 0.5, -0.5, -1.0)):
        env = [(x, mid - phase * amp * math.sin(n * math.pi * (x - x0) / length)) for x in xs]
        svg.polyline(
            env,
            stroke=CURVE if abs(phase) == 1.0 else "#e6a39b",
            width=2.5 if abs(phase) == 1.0 else 1.5,
            dash=None if k in (0, 3) else "5 4",
        )
    svg.line((x0, mid), (x1, mid), stroke=GREY, width=1, dash="3 4")
    svg.rect(x0 - 16, mid - 60, 16, 120, fill="#999", stroke="#444", width=1)
    svg.rect(x1, mid - 60, 16, 120, fill="#999", stroke="#444", width=1)
    for i in range(n + 1):
        x = x0 + length * i / n
        svg.circle((x, mid), 5, fill=BLUE, stroke=BLUE)
        svg.text((x, mid + 92), "N", size=15, weight="bold", fill=BLUE)
    for i in range(n):
        x = x0 + length * (i + 0.5) / n
        svg.text((x, mid - amp - 12), "A", size=15, weight="bold", fill=CURVE)
    half = length / n
    y = mid + 112
    svg.line((x0, y), (x0 + half, y), stroke="#222", width=1.5, arrow=True)
    svg.line((x0 + half, y), (x0, y), stroke="#222", width=1.5, arrow=True)
    svg.text((x0 + half / 2, y + 18), "λ/2", size=14)
    svg.text((300, y + 44), "N = node (4), A = antinode (3); L = 3λ/2, ν₃ = 3v/2L", size=13)
    return svg


FIGURES: dict[str, Callable[[], Svg]] = {
    "phy-velocity-time-graph": velocity_time_graph,
    "phy-projectile-trajectory": projectile_trajectory,
    "phy-incline-free-body-diagram": incline_free_body_diagram,
    "phy-stress-strain-curve": stress_strain_curve,
    "phy-isothermal-adiabatic-pv": isothermal_adiabatic_pv,
    "phy-shm-displacement-time": shm_displacement_time,
    "phy-standing-wave-string": standing_wave_string,
}
