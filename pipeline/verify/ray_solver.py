"""The ray figures' solver: reads the drawn set-up off the spec and answers by its own method.

A mirror or lens system is worked with paraxial ray-transfer (ABCD) matrices, not the mirror
or lens formula a template uses: the object stands `d` to the left of the first element, light
travels right, a thin lens of focal length f is the matrix [[1, 0], [−1/f, 1]] (f > 0 for a
convex lens), and a mirror is unfolded into the equivalent lens (a concave mirror converges,
f = R/2 when the figure prints R). The image lies where the system's B element vanishes, and
its magnification is the A element there. Signs come from the drawing, then are reported in
the Cartesian convention a question uses (distances from the pole along the incident light
positive: a mirror's real image has v < 0, a lens's v > 0). A prism is traced with Snell's
law (exactly, so a thin prism's deviation is the exact one, within a per cent of (μ − 1)A),
and its deviation read from the angles the figure prints by the geometry of the two faces.

What is asked comes from the stem's wording; the option chosen is the one whose printed value
(read by `number_and_unit`) matches within `REL_TOL`, or whose words name the computed nature
or position. It abstains, never raises, when the stem or the figure is not one it can read.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from core.figures import RaySpec
from core.figures.ray import RayElement
from core.records import OptionKey, SolverAnswer, SolverView
from pipeline.quantities.numbers import number_and_unit
from pipeline.quantities.units import UnknownUnitError, si_factor
from pipeline.verify.figure_solve import FIGURE_SOLVER, FigureSolve

REL_TOL = 0.015  # options are printed to 3 significant figures; templates keep them 5 % apart
SAME_SIZE = 0.02  # |m| this close to 1 is "of the same size"
Matrix = tuple[float, float, float, float]  # (A, B, C, D)


class Unanswerable(ValueError):
    """The stem asks something this solver cannot read, or the figure lacks a value it needs."""


@dataclass(frozen=True)
class Image:
    """The final image: its Cartesian distance from the last element and its magnification."""

    v: float
    m: float
    real: bool


def _mul(a: Matrix, b: Matrix) -> Matrix:
    return (
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
    )


def _gap(d: float) -> Matrix:
    return (1.0, d, 0.0, 1.0)


def _power(element: RayElement, used: list[str]) -> float:
    """The element's converging power (1/cm) in the unfolded path, read off its printed f or R."""
    if element.focal is not None:
        used.append(element.focal_label())
        f = element.focal
    elif element.radius is not None:
        used.append(element.radius_label())
        f = element.radius / 2
    else:
        raise Unanswerable("an element without a printed focal length or radius")
    if f <= 0:
        raise Unanswerable("a non-positive printed focal length")
    return (1.0 if element.converging else -1.0) / f


def _system(spec: RaySpec, used: list[str]) -> Matrix:
    """The matrix from just before the first element to just after the last one."""
    m: Matrix = (1.0, 0.0, 0.0, 1.0)
    previous = spec.elements[0].at
    if len(spec.elements) == 2 and spec.separation():
        used.append(spec.separation_label())
    for element in spec.elements:
        m = _mul(_gap(element.at - previous), m)
        m = _mul((1.0, 0.0, -_power(element, used), 1.0), m)
        previous = element.at
    return m


def _image(spec: RaySpec, distance: float, used: list[str]) -> Image:
    """The image of an object `distance` left of the first element."""
    s = _mul(_system(spec, used), _gap(distance))
    if abs(s[3]) < 1e-12:
        raise Unanswerable("the image is at infinity")
    x = -s[1] / s[3]  # right of the last element, in the unfolded path
    m = s[0] + x * s[2]
    mirror = spec.elements[-1].is_mirror
    return Image(v=-x if mirror else x, m=m, real=x > 0)


def _abstain(note: str, used: tuple[str, ...] = ()) -> FigureSolve:
    return FigureSolve(
        SolverAnswer(solver=FIGURE_SOLVER, choice=None, confidence=0.0, note=note), used
    )


def _in_unit(text: str, unit: str) -> float | None:
    """An option's printed value in `unit` ("cm", "D", "deg" or "" for a pure number)."""
    read = number_and_unit(text)
    if read is None:
        return None
    value, shown = read
    shown = shown.replace("\\mathrm{", "").replace("}", "").strip()
    if unit == "cm":
        try:
            return value * si_factor(shown) / 0.01 if shown else None
        except (UnknownUnitError, ArithmeticError, ValueError):
            return None
    if unit == "deg":
        return value if shown in ("^\\circ", "°", "^{\\circ}") else None
    if unit == "D":
        return value if shown == "D" else None
    return value if not shown else None


def _numeric(view: SolverView, target: float, unit: str) -> OptionKey:
    matches = [
        o.key
        for o in view.options
        if (got := _in_unit(o.text, unit)) is not None
        and abs(got - target) <= REL_TOL * max(abs(target), 1e-9)
    ]
    if len(matches) != 1:
        raise Unanswerable(f"{len(matches)} options match {target:.4g} {unit}".strip())
    return matches[0]


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def _nature(view: SolverView, image: Image) -> OptionKey:
    size = (
        "same"
        if abs(abs(image.m) - 1) < SAME_SIZE
        else "magnified"
        if abs(image.m) > 1
        else "diminished"
    )
    want = {"real" if image.real else "virtual", "inverted" if image.m < 0 else "erect", size}
    vocabulary = {"real", "virtual", "inverted", "erect", "magnified", "diminished", "same"}
    matches = [o.key for o in view.options if _words(o.text) & vocabulary == want]
    if len(matches) != 1:
        raise Unanswerable(f"{len(matches)} options describe a {', '.join(sorted(want))} image")
    return matches[0]


def _position(view: SolverView, spec: RaySpec, image: Image) -> OptionKey:
    """The option naming where the image forms, against the F and C (or 2F) marks."""
    element = spec.elements[0]
    f = element.focal if element.focal is not None else (element.radius or 0.0) / 2
    far = "C" if element.is_mirror else "2F"
    at = abs(image.v)
    if not image.real:
        place = "virtual"
    elif abs(at - 2 * f) < 1e-6 * f:
        place = f"at {far}"
    elif at > 2 * f:
        place = f"beyond {far}"
    else:
        place = f"between F and {far}"

    def names(text: str) -> str | None:
        t = text.lower()
        if "behind the mirror" in t or "same side as the object" in t:
            return "virtual"
        m = re.fullmatch(r"\s*(at|beyond) (c|2f)\s*", t)
        if m:
            return f"{m.group(1)} {m.group(2).upper()}"
        m = re.fullmatch(r"\s*between f and (c|2f)\s*", t)
        return f"between F and {m.group(1).upper()}" if m else None

    matches = [o.key for o in view.options if names(o.text) == place]
    if len(matches) != 1:
        raise Unanswerable(f"{len(matches)} options place the image {place}")
    return matches[0]


def _snell_deviation(angle: float, index: float) -> float:
    """The exact minimum deviation of a prism (degrees), by Snell's law at r = A/2."""
    s = index * math.sin(math.radians(angle / 2))
    if s >= 1:
        raise Unanswerable("no ray gets through the prism at minimum deviation")
    return 2 * math.degrees(math.asin(s)) - angle


_PLACE = re.compile(r"(real|virtual)[^.$]*?image \$(\d+(?:\.\d+)?)\$ times")


def _solve(view: SolverView, spec: RaySpec, used: list[str]) -> OptionKey:
    stem = view.stem_markdown.lower()
    prism = spec.prism
    if prism is not None:
        used.append(prism.angle_label())
        if "angle of deviation" in stem:
            if prism.incidence is not None and prism.emergence is not None:
                used += [prism.incidence_label(), prism.emergence_label()]
                # The normals meet at an angle 180° − A, so the refraction angles add to A, and
                # the two bendings (i − r₁) + (e − r₂) add to i + e − A.
                return _numeric(view, prism.incidence + prism.emergence - prism.angle, "deg")
            if prism.index is not None:
                used.append(prism.index_label())
                return _numeric(view, _snell_deviation(prism.angle, prism.index), "deg")
            raise Unanswerable("a deviation asked of a prism with neither i and e nor μ")
        if "refractive index" in stem and prism.min_deviation is not None:
            used.append(prism.min_deviation_label())
            # At minimum deviation the ray runs symmetrically: r = A/2 inside, and i outside
            # with 2i = A + δm; Snell's law at the first face gives μ.
            i = (prism.angle + prism.min_deviation) / 2
            r = prism.angle / 2
            return _numeric(view, math.sin(math.radians(i)) / math.sin(math.radians(r)), "")
        raise Unanswerable("a prism question this solver cannot read")

    if not spec.elements:
        raise Unanswerable("no mirror, lens or prism in the figure")
    if "power of the combination" in stem:
        s = _system(spec, used)
        return _numeric(view, -s[2] * 100, "D")  # C = −P, with P in 1/cm here
    if "must the object be placed" in stem:
        m = _PLACE.search(view.stem_markdown)
        if m is None:
            raise Unanswerable("the magnification wanted is not stated")
        real, n = m.group(1) == "real", float(m.group(2))
        s = _system(spec, used)
        # Object at distance d: m = A(x) = 1/(D + d C) at the image plane; solve for d.
        want = -n if real else n
        d = (1 / want - s[3]) / s[2]
        return _numeric(view, d, "cm")

    objects = spec.objects
    if not objects:
        raise Unanswerable("the figure draws no object")
    used.append(objects[0].distance_label())
    first = _image(spec, objects[0].distance, used)
    if "how many times its size" in stem and len(objects) == 2:
        used.append(objects[1].distance_label())
        second = _image(spec, objects[1].distance, used)
        return _numeric(view, abs(second.m / first.m), "")
    if "height of the" in stem and "image" in stem:
        if objects[0].height is None:
            raise Unanswerable("an image height asked with no object height printed")
        used.append(objects[0].height_label())
        return _numeric(view, objects[0].height * first.m, "cm")
    if "image distance" in stem:
        return _numeric(view, first.v, "cm")
    if "magnification" in stem:
        return _numeric(view, first.m, "")
    if "nature of the image" in stem:
        return _nature(view, first)
    if "where is the image formed" in stem:
        return _position(view, spec, first)
    raise Unanswerable("the stem asks nothing this solver reads")


def ray_answer(view: SolverView, spec: RaySpec) -> FigureSolve:
    """The option the figure and stem lead to, with every printed value read to get there."""
    used: list[str] = []
    try:
        choice = _solve(view, spec, used)
    except (Unanswerable, ArithmeticError, ValueError) as err:
        return _abstain(str(err) or "division by zero", tuple(dict.fromkeys(used)))
    return FigureSolve(
        SolverAnswer(solver=FIGURE_SOLVER, choice=choice, confidence=1.0),
        tuple(dict.fromkeys(used)),
    )
