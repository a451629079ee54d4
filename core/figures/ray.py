"""A ray diagram: a mirror, lens or prism with the distances and angles it is drawn with.

Distances are magnitudes in centimetres, as a figure prints them; which side a point lies on
is part of the drawing (the object always stands to the left, the light travels to the right),
so a sign convention is the reader's to apply. The image is never part of the spec: it is what a
ray question asks. Each printed value has one way of being printed (`cm`, `deg`, and the
`*_label` methods), shared by the renderer that prints it and the solver that reads it.
"""

from __future__ import annotations

from typing import Literal

from core.record import Record

ElementKind = Literal["concave_mirror", "convex_mirror", "convex_lens", "concave_lens"]
MIRRORS: tuple[ElementKind, ...] = ("concave_mirror", "convex_mirror")


def num(x: float) -> str:
    """A printed value: at most two decimals, trailing zeros dropped ("20", "12.5", "1.52")."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text.replace("-", "−")


def cm(x: float) -> str:
    return f"{num(x)} cm"


def deg(x: float) -> str:
    return f"{num(x)}°"


class RayElement(Record):
    """A mirror or thin lens on the axis, `at` centimetres right of the first element.

    `focal` (|f|) or `radius` (|R|, mirrors) is printed; `label` names it when there are two
    ("L₁"), and subscripts its focal length ("f₁")."""

    kind: ElementKind
    at: float = 0.0
    focal: float | None = None
    radius: float | None = None
    label: str = ""

    @property
    def is_mirror(self) -> bool:
        return self.kind in MIRRORS

    @property
    def converging(self) -> bool:
        return self.kind in ("concave_mirror", "convex_lens")

    def focal_label(self) -> str:
        sub = {"L₁": "₁", "L₂": "₂"}.get(self.label, "")
        return f"f{sub} = {cm(self.focal or 0.0)}"

    def radius_label(self) -> str:
        return f"R = {cm(self.radius or 0.0)}"


class RayObject(Record):
    """An upright arrow on the axis, `distance` centimetres left of the first element."""

    distance: float
    height: float | None = None
    label: str = "AB"

    def distance_label(self) -> str:
        return cm(self.distance)

    def height_label(self) -> str:
        return f"h = {cm(self.height or 0.0)}"


class RayPrism(Record):
    """A triangular prism of refracting angle `angle` (degrees) with the angles and index printed.

    `minimum` marks a ray drawn through symmetrically (at minimum deviation)."""

    angle: float
    incidence: float | None = None
    emergence: float | None = None
    index: float | None = None
    min_deviation: float | None = None
    minimum: bool = False

    def angle_label(self) -> str:
        return f"A = {deg(self.angle)}"

    def incidence_label(self) -> str:
        return f"i = {deg(self.incidence or 0.0)}"

    def emergence_label(self) -> str:
        return f"e = {deg(self.emergence or 0.0)}"

    def index_label(self) -> str:
        return f"μ = {num(self.index or 0.0)}"

    def min_deviation_label(self) -> str:
        return f"δm = {deg(self.min_deviation or 0.0)}"


class RaySpec(Record):
    """Elements left to right (one, or two lenses in contact or `separation_shown` apart), the
    object arrows in front of the first, or a prism alone."""

    kind: Literal["ray"] = "ray"
    elements: tuple[RayElement, ...] = ()
    objects: tuple[RayObject, ...] = ()
    prism: RayPrism | None = None
    # Whether the incident rays from the (first) object's tip are drawn up to the element.
    incident_rays: bool = True

    def separation(self) -> float:
        return self.elements[-1].at - self.elements[0].at if len(self.elements) > 1 else 0.0

    def separation_label(self) -> str:
        return f"d = {cm(self.separation())}"
