"""The graph solver: what the stem asks, read off the plotted graph as a student reads it.

It reads only points printed on the picture: a vertex where two grid lines of printed ticks
cross (read from its two tick labels), or a point labelled with its coordinates. From those it
takes slopes, areas (trapezia between printed vertices, signed, or a closed cycle's shoelace),
intercepts and decay constants (ln of a ratio of two printed readings over their time gap), in
SI units from the axes' printed units (pint), and never the template's formula. What it asks is
told by the stem's wording and the axes' quantities: "acceleration" on a v–t graph is a slope,
"displacement" an area, "work done by the gas" the path integral of p dV. The answer is the
option whose value (number and TeX unit, in SI) matches; it abstains when a needed point is
not printed or no single option matches.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable

from core.figures import GraphSpec
from core.figures.graph import Axis, Series, point_text, tick_text
from core.records import OPTION_KEYS, OptionKey, SolverAnswer, SolverView
from pipeline.quantities.numbers import number_and_unit, stated_quantities
from pipeline.quantities.units import UnknownUnitError, si_factor
from pipeline.verify.figure_solve import FIGURE_SOLVER, FigureSolve

MATCH_TOLERANCE = 0.015  # options print three significant figures
ELEMENTARY_CHARGE = 1.602176634e-19  # C; also J per eV
GAS_CONSTANT = 8.314  # J K⁻¹ mol⁻¹
PH_NEUTRAL = 7.0  # a strong acid–strong base equivalence point (25 °C)
ORDERS = ("zero", "first", "second", "third")
Point = tuple[float, float]


class Unreadable(ValueError):
    """The graph does not print what the question needs, or the stem asks something unknown."""


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def _scale(axis: Axis) -> float:
    """SI units per printed tick unit (min → 60 s; 10⁻³ K⁻¹ → 0.001 K⁻¹)."""
    try:
        unit = si_factor(axis.unit) if axis.unit else 1.0
    except UnknownUnitError as err:
        raise Unreadable(f"axis unit {axis.unit!r}") from err
    return unit * 10.0**axis.power


class Reader:
    """Reads printed points off one graph, noting every label and number it used."""

    def __init__(self, spec: GraphSpec) -> None:
        self.spec = spec
        self.used: list[str] = [spec.x.label, spec.y.label]
        self.sx, self.sy = _scale(spec.x), _scale(spec.y)

    def _note(self, *texts: str) -> None:
        self.used.extend(t for t in texts if t not in self.used)

    def printed_at(self, p: Point) -> tuple[str, ...] | None:
        """The printed texts from which a student reads the point, or None if none print it."""
        for m in self.spec.marks:
            if _close(m.x, p[0]) and _close(m.y, p[1]) and m.text == point_text(*p):
                return (m.text,)
        on_x = any(_close(t, p[0]) for t in self.spec.x.ticks)
        on_y = any(_close(t, p[1]) for t in self.spec.y.ticks)
        return (tick_text(p[0]), tick_text(p[1])) if on_x and on_y else None

    def read(self, p: Point) -> Point:
        """The point in SI units, once it is seen to be printed."""
        texts = self.printed_at(p)
        if texts is None:
            raise Unreadable(f"the point {point_text(*p)} is not printed")
        self._note(*texts)
        return p[0] * self.sx, p[1] * self.sy

    def readable(self, series: Series) -> list[Point]:
        """The series' vertices a student can read, in SI, in order."""
        return [self.read(p) for p in series.points if self.printed_at(p) is not None]

    def all_vertices(self, series: Series) -> list[Point]:
        """Every vertex of a piecewise-linear series (each must be printed)."""
        return [self.read(p) for p in series.points]

    def series(self, label: str = "") -> Series:
        found = [s for s in self.spec.series if s.label == label] if label else self.spec.series
        if len(found) != 1:
            raise Unreadable(f"{len(found)} series labelled {label!r}")
        if label:
            self._note(label)
        return found[0]


def _line(points: list[Point]) -> tuple[float, float]:
    """Slope and intercept of a straight line through printed points (all on it)."""
    if len(points) < 2:
        raise Unreadable("fewer than two printed points on the line")
    (x1, y1), (x2, y2) = points[0], points[-1]
    if _close(x1, x2):
        raise Unreadable("a vertical line")
    m = (y2 - y1) / (x2 - x1)
    c = y1 - m * x1
    for x, y in points:
        if not math.isclose(y, m * x + c, rel_tol=1e-6, abs_tol=1e-9 * (abs(y1) + abs(y2) + 1)):
            raise Unreadable("the printed points are not on one straight line")
    return m, c


def _area(points: list[Point]) -> tuple[float, float]:
    """Signed and unsigned area between a piecewise-linear graph and the x-axis."""
    signed = total = 0.0
    for (x1, y1), (x2, y2) in itertools.pairwise(points):
        dx = x2 - x1
        signed += (y1 + y2) / 2 * dx
        if y1 * y2 >= 0:
            total += abs(y1 + y2) / 2 * dx
        else:  # the segment crosses the axis: two triangles
            cross = dx * abs(y1) / (abs(y1) + abs(y2))
            total += abs(y1) * cross / 2 + abs(y2) * (dx - cross) / 2
    return signed, total


def _between(points: list[Point], a: float, b: float) -> list[Point]:
    inside = [p for p in points if a - 1e-9 <= p[0] <= b + 1e-9]
    if not inside or not _close(inside[0][0], a) or not _close(inside[-1][0], b):
        raise Unreadable("the interval's ends are not printed vertices")
    return inside


def _stated(view: SolverView, name: str) -> float:
    """The SI value of `name = …` stated in the stem's math."""
    pattern = re.compile(r"\$" + re.escape(name) + r"\s*=[^$]*\$")
    m = pattern.search(view.stem_markdown)
    if m is None:
        raise Unreadable(f"the stem states no {name}")
    got = stated_quantities(m.group(0))
    if not got:
        raise Unreadable(f"cannot read {name}")
    value, unit = got[0]
    try:
        return value * (si_factor(unit) if unit else 1.0)
    except UnknownUnitError as err:
        raise Unreadable(f"unit {unit!r}") from err


# ── What each question asks, in the solver's own steps ─────────────────────────────────────
def _kinematics(view: SolverView, r: Reader, asked: str) -> float:
    name = (r.spec.x.name, r.spec.y.name)
    s = r.series()
    if name == ("t", "x") and asked == "velocity":
        a, b = _stated_interval(view)
        pts = _between(r.all_vertices(s), a, b)
        return _line([pts[0], pts[-1]])[0]
    if name != ("t", "v"):
        raise Unreadable(f"{asked} from a {name[1]}–{name[0]} graph")
    pts = r.all_vertices(s)
    if asked == "acceleration":
        if len(pts) != 2:
            a, b = _stated_interval(view)
            pts = _between(pts, a, b)
        return _line(pts)[0]
    signed, total = _area(pts)
    duration = pts[-1][0] - pts[0][0]
    return {
        "displacement": signed,
        "distance": total,
        "average speed": total / duration,
        "average velocity": signed / duration,
    }[asked]


def _stated_interval(view: SolverView) -> tuple[float, float]:
    m = re.search(r"between (\$t\s*=[^$]*\$) and (\$t\s*=[^$]*\$)", view.stem_markdown)
    if m is None:
        raise Unreadable("no interval in the stem")
    ends = []
    for part in m.groups():
        (value, unit), *_ = stated_quantities(part) or [(math.nan, "")]
        ends.append(value * si_factor(unit))
    return ends[0], ends[1]


def _resistance(view: SolverView, r: Reader, asked: str) -> float:
    """R = V/I at a printed point of each conductor's line (whichever axis V is on)."""

    def ohms(label: str) -> float:
        pts = [p for p in r.readable(r.series(label)) if not (_close(p[0], 0) and _close(p[1], 0))]
        if not pts:
            raise Unreadable(f"no printed point on {label}")
        x, y = pts[-1]
        if r.spec.x.name == "V" and r.spec.y.name == "I":
            return x / y
        if r.spec.x.name == "I" and r.spec.y.name == "V":
            return y / x
        raise Unreadable("not a V–I graph")

    if asked == "equivalent resistance":
        ra, rb = ohms("A"), ohms("B")
        if "in series" in view.stem_markdown:
            return ra + rb
        if "in parallel" in view.stem_markdown:
            return 1 / (1 / ra + 1 / rb)
        raise Unreadable("series or parallel?")
    m = re.search(r"resistance of (?:the )?conductor (\w+)", view.stem_markdown)
    return ohms(m.group(1) if m else "")


def _pv_work(view: SolverView, r: Reader, asked: str) -> float:
    """Work done by the gas: ∫p dV along the drawn path, in order (a cycle's enclosed area,
    positive when it runs clockwise on p–V axes); work done on the gas is its negative."""
    if (r.spec.x.name, r.spec.y.name) != ("V", "p"):
        raise Unreadable("not a p–V graph")
    pts = r.all_vertices(r.series())
    by_gas = sum((p1 + p2) / 2 * (v2 - v1) for (v1, p1), (v2, p2) in itertools.pairwise(pts))
    return -by_gas if asked == "work on" else by_gas


def _decay(view: SolverView, r: Reader, asked: str) -> float:
    """λ from two printed readings, N₂ = N₁ e^{−λ(t₂ − t₁)}; then what is asked."""
    pts = r.readable(r.series())
    if len(pts) < 2 or not _close(pts[0][0], 0):
        raise Unreadable("the decay curve needs N at t = 0 and one more printed reading")
    (t0, n0), (t1, n1) = pts[0], pts[1]
    lam = math.log(n0 / n1) / (t1 - t0)
    if asked == "decay constant":
        return lam
    t = _stated(view, "t")
    left = n0 * math.exp(-lam * t)
    return left if asked == "undecayed" else lam * left


def _photoelectric(view: SolverView, r: Reader, asked: str) -> float:
    """eV₀ = hν − φ: the line's slope is h/e, its intercept on the V₀ axis −φ/e."""
    if (r.spec.x.name, r.spec.y.name) != ("ν", "V₀"):
        raise Unreadable("not a V₀–ν graph")
    slope, intercept = _line(r.readable(r.series()))
    if asked == "planck":
        return _stated(view, "e") * slope
    return -intercept * ELEMENTARY_CHARGE


def _kinetics(view: SolverView, r: Reader, asked: str) -> float:
    y = r.spec.y.name
    slope, intercept = _line(r.readable(r.series()))
    if y == "[A]":  # zero order: [A] = [A]₀ − kt
        if asked == "rate constant":
            return -slope
        return (intercept / 2 - intercept) / slope  # when the line reaches [A]₀/2
    per_e = {"ln [A]": 1.0, "log [A]": math.log(10)}.get(y)
    if per_e is None:
        raise Unreadable(f"rate constant from a {y} graph")
    k = -slope * per_e  # ln[A] = ln[A]₀ − kt
    return k if asked == "rate constant" else math.log(2) / k


def _arrhenius(view: SolverView, r: Reader, asked: str) -> float:
    """ln k = ln A − Ea/(RT): Ea = −R × slope of ln k against 1/T."""
    per_e = {"ln k": 1.0, "log k": math.log(10)}.get(r.spec.y.name)
    if per_e is None or r.spec.x.name != "1/T":
        raise Unreadable("not an Arrhenius plot")
    slope, _ = _line(r.readable(r.series()))
    return -slope * per_e * GAS_CONSTANT


def _titration(view: SolverView, r: Reader, asked: str) -> float:
    """Equivalence where the steep rise passes pH 7; moles of H⁺ = moles of OH⁻ there."""
    if (r.spec.x.name, r.spec.y.name) != ("V", "pH"):
        raise Unreadable("not a titration curve")
    marks = [m for m in r.spec.marks if _close(m.y, PH_NEUTRAL)]
    if len(marks) != 1:
        raise Unreadable("no printed point at pH 7")
    v_eq, _ = r.read((marks[0].x, marks[0].y))
    v_acid = _stated(view, "V_{\\mathrm{HCl}}")
    if asked == "acid molarity":
        return _stated(view, "c_{\\mathrm{NaOH}}") * v_eq / v_acid
    start = [m for m in r.spec.marks if _close(m.x, 0)]
    if len(start) != 1:
        raise Unreadable("no printed pH at the start")
    _, ph0 = r.read((start[0].x, start[0].y))
    acid = 10.0**-ph0 * 1000  # mol L⁻¹ of H⁺ from a strong acid, in mol m⁻³
    return acid * v_acid / v_eq


def _raoult(view: SolverView, r: Reader, asked: str) -> float:
    """Ideal solution: p°A where the pA line meets x_A = 1, p°B where the pB line meets x_A = 0;
    then Raoult's law p_i = x_i p°_i, Dalton's p = p_A + p_B and y_A = p_A/p."""
    if (r.spec.x.name, r.spec.y.name) != ("xA", "p"):
        raise Unreadable("not a vapour pressure–composition graph")
    ma, ca = _line(r.readable(r.series("pA")))
    _, cb = _line(r.readable(r.series("pB")))
    pure_a, pure_b = ma + ca, cb  # the pA line at x_A = 1, the pB line at x_A = 0
    xa = _stated(view, "x_{\\mathrm{A}}")
    if not 0 < xa < 1:
        raise Unreadable("a mole fraction outside (0, 1)")
    pa, pb = xa * pure_a, (1 - xa) * pure_b
    return {"partial": pa, "total": pa + pb, "vapour fraction": pa / (pa + pb)}[asked]


def _gibbs(view: SolverView, r: Reader, asked: str) -> float:
    """ΔG° = ΔH° − TΔS°: ΔH° is the intercept on the ΔG° axis, −ΔS° the slope; the reaction
    turns spontaneous where ΔG° falls through zero, T = ΔH°/ΔS°."""
    if (r.spec.x.name, r.spec.y.name) != ("T", "ΔG°"):
        raise Unreadable("not a ΔG°–T graph")
    slope, intercept = _line(r.readable(r.series()))
    ds, dh = -slope, intercept
    if asked == "entropy":
        return ds
    if ds <= 0 or dh <= 0:
        raise Unreadable("no temperature above which ΔG° < 0")
    return dh / ds


def _kohlrausch(view: SolverView, r: Reader, asked: str) -> float:
    """Λm = Λ°m − A√c for a strong electrolyte (√c of c in mol L⁻¹ on the x-axis): Λ°m is the
    line's intercept; κ = Λm c at a stated c."""
    if (r.spec.x.name, r.spec.y.name) != ("√(c/mol L⁻¹)", "Λm"):
        raise Unreadable("not a Λm–√c graph")
    slope, intercept = _line(r.readable(r.series()))
    if asked == "limiting":
        return intercept
    c = _stated(view, "c")  # mol m⁻³
    molar = intercept + slope * math.sqrt(c / 1000)  # S m² mol⁻¹
    return molar * c


def _order(view: SolverView, r: Reader) -> str:
    """The order n from which straight line is drawn: [A]^{1−n} (ln [A] for n = 1) linear in
    t; rate ∝ [A]ⁿ; t½ ∝ [A]₀^{1−n}."""
    slope, intercept = _line(r.readable(r.series()))
    flat = _close(slope, 0)
    through_origin = abs(intercept) < 1e-9 * (1 + abs(slope))
    x, y = r.spec.x.name, r.spec.y.name
    if x == "t" and not flat:
        power = {"[A]": 1, "ln [A]": 0, "log [A]": 0, "1/[A]": -1}.get(y)
        if power is not None and (slope < 0) == (power >= 0):
            return ORDERS[1 - power]
    if x == "[A]" and y == "rate":
        if flat:
            return ORDERS[0]
        if through_origin:
            return ORDERS[1]
    if x == "[A]₀" and y == "t½":
        if flat:
            return ORDERS[1]
        if through_origin:
            return ORDERS[0]
    raise Unreadable(f"no order gives a straight {y}–{x} line of this shape")


def _pick_dip(view: SolverView, r: Reader) -> tuple[list[OptionKey], str]:
    """The option naming two neighbouring points (labelled with element symbols) where the
    plotted first ionisation enthalpy falls as Z rises, read from which point is drawn higher."""
    if r.spec.x.name != "Z" or not r.spec.y.name.startswith("ΔiH"):
        raise Unreadable("not an ionisation enthalpy–Z graph")
    at = {m.text: (m.x, m.y) for m in r.spec.marks}
    fits: list[OptionKey] = []
    for key, option in zip(OPTION_KEYS, view.options, strict=True):
        names = re.findall(r"[A-Z][a-z]?", option.text)
        if len(names) != 2 or any(n not in at for n in names):
            raise Unreadable(f"option {option.text!r} names no two plotted elements")
        r._note(*names)
        (z1, y1), (z2, y2) = sorted(at[n] for n in names)
        if not _close(z2 - z1, 1):
            raise Unreadable(f"{option.text!r} are not neighbours")
        if y2 < y1:
            fits.append(key)
    return fits, "the neighbours where the plot falls"


Asked = tuple[str, str, Callable[[SolverView, Reader, str], float]]
# The stem's wording, in the order it is checked (the more specific first).
ASKS: tuple[Asked, ...] = (
    ("mole fraction of A in the vapour", "vapour fraction", _raoult),
    ("partial vapour pressure of A", "partial", _raoult),
    ("total vapour pressure over", "total", _raoult),
    ("entropy change of the reaction", "entropy", _gibbs),
    ("temperature above which", "threshold", _gibbs),
    ("limiting molar conductivity", "limiting", _kohlrausch),
    ("conductivity $\\kappa$", "conductivity", _kohlrausch),
    ("average speed", "average speed", _kinematics),
    ("average velocity", "average velocity", _kinematics),
    ("displacement", "displacement", _kinematics),
    ("distance", "distance", _kinematics),
    ("acceleration", "acceleration", _kinematics),
    ("velocity of the particle", "velocity", _kinematics),
    ("equivalent resistance", "equivalent resistance", _resistance),
    ("resistance of", "resistance", _resistance),
    ("work done by the gas", "work by", _pv_work),
    ("work done on the gas", "work on", _pv_work),
    ("decay constant", "decay constant", _decay),
    ("activity", "activity", _decay),
    ("undecayed nuclei left", "undecayed", _decay),
    ("Planck", "planck", _photoelectric),
    ("work function", "work function", _photoelectric),
    ("activation energy", "activation energy", _arrhenius),
    ("rate constant", "rate constant", _kinetics),
    ("half-life", "half-life", _kinetics),
    ("molarity of the HCl", "acid molarity", _titration),
    ("molarity of the NaOH", "base molarity", _titration),
)


def _abstain(note: str, used: tuple[str, ...] = ()) -> FigureSolve:
    return FigureSolve(
        SolverAnswer(solver=FIGURE_SOLVER, choice=None, confidence=0.0, note=note), used
    )


def _pick_value(view: SolverView, value: float) -> tuple[list[OptionKey], str]:
    fits: list[OptionKey] = []
    for key, option in zip(OPTION_KEYS, view.options, strict=True):
        read = number_and_unit(option.text)
        if read is None:
            continue
        try:
            si = read[0] * (si_factor(read[1]) if read[1] else 1.0)
        except UnknownUnitError:
            continue
        if math.isclose(si, value, rel_tol=MATCH_TOLERANCE):
            fits.append(key)
    return fits, f"value {value:.4g} (SI)"


def _pick_order(view: SolverView, order: str) -> tuple[list[OptionKey], str]:
    fits = [
        key
        for key, option in zip(OPTION_KEYS, view.options, strict=True)
        if option.text.strip().lower().split()[0] == order
    ]
    return fits, f"{order} order"


def graph_answer(view: SolverView, spec: GraphSpec) -> FigureSolve:
    """The option the graph gives for what the stem asks, with the printed values it read."""
    reader = Reader(spec)
    try:
        if "order of the reaction" in view.stem_markdown:
            fits, what = _pick_order(view, _order(view, reader))
        elif "lower first ionisation enthalpy" in view.stem_markdown:
            fits, what = _pick_dip(view, reader)
        else:
            for phrase, asked, solve in ASKS:
                if phrase in view.stem_markdown:
                    fits, what = _pick_value(view, solve(view, reader, asked))
                    break
            else:
                return _abstain("the stem asks nothing this solver reads off a graph")
    except (Unreadable, ZeroDivisionError, ValueError, KeyError) as err:
        return _abstain(f"unreadable: {err}", tuple(reader.used))
    if len(fits) != 1:
        return _abstain(f"{len(fits)} options fit {what}", tuple(reader.used))
    answer = SolverAnswer(solver=FIGURE_SOLVER, choice=fits[0], confidence=1.0, note=what)
    return FigureSolve(answer, tuple(reader.used))
