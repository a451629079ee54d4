"""The ray figure templates: mirrors, lenses and prisms drawn with their printed distances.

Each template samples a set-up, draws it (`RaySpec`: the object, f or R, a prism's angles; never
the image) and asks what a student works out from the picture with the mirror or lens formula in
the Cartesian sign convention (pole or optical centre the origin, the incident light travelling
in the positive direction), or the prism relations. The key is computed here by those formulas;
each distractor is one named mistake students make (the minus sign dropped, the lens formula
used for a mirror, R taken for f, the magnification's ratio inverted or its sign lost), kept only
when it is at least `MIN_GAP` from the key and every other option and within `MAX_FACTOR` of
the key, as the giveaway screen wants.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from core.figures.ray import RayElement, RayObject, RayPrism, RaySpec, cm, deg, num
from core.records import QuestionFormat, Subject
from pipeline.difficulty import Demand
from pipeline.figures.templates import FigureQuestion, FigureTemplate
from pipeline.quantities.numbers import tex_given, tex_number

PHY = Subject.PHYSICS
NUM = QuestionFormat.NUMERICAL
MIN_GAP = 0.05  # options at least 5 % apart (the solver matches within 1.5 %)
MAX_FACTOR = 9.5  # a distractor within this factor of the key (the screen allows 10)
SIG = 3
CARTESIAN = (
    "Using the Cartesian sign convention (distances measured from the {origin}, positive in "
    "the direction of the incident light)"
)
Mistake = tuple[str, float]

ONE = Demand()
NEAR = Demand(near_miss=True)
TWO = Demand(steps=2)
REVERSED = Demand(reversed=True)
THREE = Demand(steps=3)


def _rng(template_id: str, seed: int) -> random.Random:
    return random.Random(f"{template_id}:{seed}")


def _cm_text(x: float) -> str:
    return f"${tex_number(x, SIG)}\\ \\mathrm{{cm}}$"


def _deg_text(x: float) -> str:
    return f"${tex_number(x, SIG)}^\\circ$"


def _power_text(x: float) -> str:
    return f"${tex_number(x, SIG)}\\ \\mathrm{{D}}$"


def _plain_text(x: float) -> str:
    return f"${tex_number(x, SIG)}$"


def _apart(a: float, b: float) -> bool:
    return abs(a - b) >= MIN_GAP * max(abs(a), abs(b))


def _numeric(
    rng: random.Random, key: float, mistakes: Sequence[Mistake], text: Callable[[float], str]
) -> tuple[tuple[str, str, str, str], str, list[str]] | None:
    """The four option texts (shuffled), the key's text and the named mistakes used, or None
    when fewer than three mistakes give a usable distractor."""
    if not math.isfinite(key) or key == 0:
        return None
    chosen: list[Mistake] = []
    for name, value in mistakes:
        if not math.isfinite(value) or value == 0:
            continue
        if not 1 / MAX_FACTOR <= abs(value / key) <= MAX_FACTOR:
            continue
        if all(_apart(value, v) for v in [key] + [v for _, v in chosen]):
            chosen.append((name, value))
        if len(chosen) == 3:
            break
    if len(chosen) < 3:
        return None
    texts = [text(key)] + [text(v) for _, v in chosen]
    if len(set(texts)) != 4:
        return None
    order = texts[:]
    rng.shuffle(order)
    return (order[0], order[1], order[2], order[3]), texts[0], [n for n, _ in chosen]


def _slips(names: list[str]) -> str:
    return " Common slips behind the other options: " + "; ".join(names) + "."


# ── the formulas the key is computed by (the solver uses ray matrices instead) ───────────────
def _mirror_v(f: float, u: float) -> float:
    """1/v + 1/u = 1/f, Cartesian f and u (infinite when the object is at the focus)."""
    return _inv(1 / f - 1 / u)


def _lens_v(f: float, u: float) -> float:
    """1/v − 1/u = 1/f, Cartesian f and u (infinite when the object is at the focus)."""
    return _inv(1 / f + 1 / u)


def _inv(x: float) -> float:
    return 1 / x if abs(x) > 1e-12 else math.inf


def _mirror_spec(
    kind: str, d: float, *, f: float | None = None, r: float | None = None, h: float | None = None
) -> RaySpec:
    element = RayElement(
        kind="concave_mirror" if kind == "concave" else "convex_mirror", focal=f, radius=r
    )
    return RaySpec(elements=(element,), objects=(RayObject(distance=d, height=h),))


def _lens_spec(convex: bool, d: float | None, f: float, h: float | None = None) -> RaySpec:
    element = RayElement(kind="convex_lens" if convex else "concave_lens", focal=f)
    objects = (RayObject(distance=d, height=h),) if d is not None else ()
    return RaySpec(elements=(element,), objects=objects)


def _alt_single(spec: RaySpec) -> str:
    e = spec.elements[0]
    name = e.kind.replace("_", " ")
    marks = (
        "its pole P, focus F and centre of curvature C"
        if e.is_mirror
        else ("its optical centre O and the points F and 2F on either side")
    )
    value = (
        f"radius of curvature {cm(e.radius)}" if e.radius else f"focal length {cm(e.focal or 0)}"
    )
    parts = [f"A {name} on a horizontal principal axis, with {marks} marked; {value}."]
    for o in spec.objects:
        height = f", {cm(o.height)} tall," if o.height else ""
        parts.append(f"An upright object {o.label}{height} stands {cm(o.distance)} to its left.")
    return " ".join(parts)


def _object_case(rng: random.Random, f: float, cases: Sequence[str]) -> tuple[str, float]:
    """A named object position relative to F and C (2F), and a whole-cm distance in it."""
    case = rng.choice(list(cases))
    low, high = {
        "beyond": (2.25, 4.0),
        "at": (2.0, 2.0),
        "between": (1.2, 1.8),
        "inside": (0.3, 0.8),
    }[case]
    d = float(round(f * rng.uniform(low, high)))
    return case, d


# ── mirrors ──────────────────────────────────────────────────────────────────────────────────
def _concave_mirror_image_distance(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-concave-mirror-image-distance", seed)
    f = float(rng.choice((10, 12, 15, 18, 20, 24, 25, 30)))
    case, d = _object_case(rng, f, ("beyond", "between", "inside"))
    fc, u = -f, -d
    v = _mirror_v(fc, u)
    picked = _numeric(
        rng,
        v,
        [
            ("the minus sign of a real image dropped (or the plus of a virtual one)", -v),
            ("the lens formula 1/v − 1/u = 1/f used for the mirror", _lens_v(fc, u)),
            ("the radius of curvature R = 2f used as the focal length", _mirror_v(2 * fc, u)),
            ("the concave mirror's focal length taken positive", _mirror_v(f, u)),
        ],
        _cm_text,
    )
    if picked is None:
        return None
    options, correct, slips = picked
    spec = _mirror_spec("concave", d, f=f)
    nature = "real, in front of the mirror" if v < 0 else "virtual, behind the mirror"
    return FigureQuestion(
        spec=spec,
        caption="Figure: an object in front of a concave mirror",
        alt=_alt_single(spec),
        format=NUM,
        stem="In the figure, an object AB stands on the principal axis of a concave mirror. "
        + CARTESIAN.format(origin="pole P")
        + ", the image distance $v$ is",
        options=options,
        correct=correct,
        explanation=f"With $u = -{num(d)}$ cm and $f = -{num(f)}$ cm, the mirror formula "
        f"$\\dfrac{{1}}{{v}} + \\dfrac{{1}}{{u}} = \\dfrac{{1}}{{f}}$ gives "
        f"$v = {tex_number(v, SIG)}$ cm: the image is {nature}." + _slips(slips),
        params=(("case", case), ("f", num(f)), ("d", num(d))),
    )


def _convex_mirror_image_distance(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-convex-mirror-image-distance", seed)
    r = float(rng.choice((20, 24, 30, 36, 40, 50, 60)))
    f = r / 2
    d = float(round(f * rng.uniform(0.5, 4.0)))
    fc, u = f, -d
    v = _mirror_v(fc, u)
    picked = _numeric(
        rng,
        v,
        [
            ("the radius of curvature R taken as the focal length", _mirror_v(r, u)),
            ("the plus sign of the virtual image dropped", -v),
            ("the lens formula 1/v − 1/u = 1/f used for the mirror", _lens_v(fc, u)),
            ("R taken as f and the image's sign dropped", -_mirror_v(r, u)),
        ],
        _cm_text,
    )
    if picked is None:
        return None
    options, correct, slips = picked
    spec = _mirror_spec("convex", d, r=r)
    return FigureQuestion(
        spec=spec,
        caption="Figure: an object in front of a convex mirror",
        alt=_alt_single(spec),
        format=NUM,
        stem="In the figure, an object AB stands in front of a convex mirror whose radius of "
        "curvature is marked. " + CARTESIAN.format(origin="pole P") + ", the image distance $v$ "
        "is",
        options=options,
        correct=correct,
        explanation=f"The focal length is $f = R/2 = +{num(f)}$ cm (a convex mirror's focus is "
        f"behind it). With $u = -{num(d)}$ cm, $\\dfrac{{1}}{{v}} = \\dfrac{{1}}{{f}} - "
        f"\\dfrac{{1}}{{u}}$ gives $v = {tex_number(v, SIG)}$ cm, a virtual image behind the "
        "mirror." + _slips(slips),
        params=(("R", num(r)), ("d", num(d))),
    )


def _mirror_magnification(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-mirror-magnification", seed)
    concave = rng.random() < 0.7
    f = float(rng.choice((10, 12, 15, 20, 25, 30)))
    if concave:
        _, d = _object_case(rng, f, ("beyond", "between", "inside"))
    else:
        d = float(round(f * rng.uniform(0.5, 3.0)))
    fc, u = (-f if concave else f), -d
    v = _mirror_v(fc, u)
    m = -v / u
    if abs(abs(m) - 1) < 0.15:
        return None
    picked = _numeric(
        rng,
        m,
        [
            ("the lens's m = v/u used for the mirror (sign lost)", v / u),
            ("the ratio inverted, m = −u/v", -u / v),
            ("the ratio inverted and the sign lost, m = u/v", u / v),
        ],
        _plain_text,
    )
    if picked is None:
        return None
    options, correct, slips = picked
    spec = _mirror_spec("concave" if concave else "convex", d, f=f)
    name = "concave" if concave else "convex"
    return FigureQuestion(
        spec=spec,
        caption=f"Figure: an object in front of a {name} mirror",
        alt=_alt_single(spec),
        format=NUM,
        stem=f"In the figure, an object AB stands in front of a {name} mirror. "
        + CARTESIAN.format(origin="pole P")
        + ", the magnification $m$ produced by the mirror is",
        options=options,
        correct=correct,
        explanation=f"With $u = -{num(d)}$ cm and $f = {tex_given(fc)}$ cm the mirror formula "
        f"gives $v = {tex_number(v, SIG)}$ cm, so $m = -\\dfrac{{v}}{{u}} = {tex_number(m, SIG)}$."
        + _slips(slips),
        params=(("kind", name), ("f", num(f)), ("d", num(d))),
    )


POSITIONS = ("Between F and C", "Beyond C", "At C", "Behind the mirror")
_IMAGE_PLACE = {"beyond": 0, "at": 2, "between": 1, "inside": 3}


def _concave_mirror_image_position(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-concave-mirror-image-position", seed)
    f = float(rng.choice((8, 10, 12, 15, 16, 20, 24, 25, 30)))
    case, d = _object_case(rng, f, ("beyond", "beyond", "at", "between", "between", "inside"))
    correct = POSITIONS[_IMAGE_PLACE[case]]
    options = list(POSITIONS)
    rng.shuffle(options)
    spec = _mirror_spec("concave", d, f=f)
    where = {
        "beyond": "beyond C, so its image lies between F and C",
        "at": "at C, so its image is formed at C itself",
        "between": "between F and C, so its image lies beyond C",
        "inside": "between P and F, so its image is virtual, behind the mirror",
    }[case]
    return FigureQuestion(
        spec=spec,
        caption="Figure: an object in front of a concave mirror",
        alt=_alt_single(spec),
        format=QuestionFormat.SINGLE_CORRECT,
        stem="In the figure, an object AB stands in front of a concave mirror with its focus F "
        "and centre of curvature C marked. Where is the image formed?",
        options=(options[0], options[1], options[2], options[3]),
        correct=correct,
        explanation=f"Here $f = {num(f)}$ cm and $R = 2f = {num(2 * f)}$ cm; the object, "
        f"{num(d)} cm from P, is {where}.",
        params=(("case", case), ("f", num(f)), ("d", num(d))),
    )


def _mirror_object_moved(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-mirror-object-moved", seed)
    r = float(rng.choice((20, 24, 30, 36, 40, 50, 60)))
    f = r / 2
    d1 = float(round(f * rng.uniform(1.3, 3.5)))
    d2 = float(round(f * rng.uniform(0.3, 3.5)))
    if min(abs(d1 - f), abs(d2 - f)) < 0.2 * f or abs(d1 - d2) < 0.25 * f:
        return None

    def size(focal: float, d: float, formula: Callable[[float, float], float]) -> float:
        return abs(formula(-focal, -d) / d)

    ratio = size(f, d2, _mirror_v) / size(f, d1, _mirror_v)
    picked = _numeric(
        rng,
        ratio,
        [
            ("the ratio inverted (size at O₁ over size at O₂)", 1 / ratio),
            (
                "R taken as the focal length",
                size(r, d2, _mirror_v) / size(r, d1, _mirror_v),
            ),
            ("the ratio of the object distances, u₁/u₂, taken for the ratio of sizes", d1 / d2),
            ("the lens formula used for the mirror", size(f, d2, _lens_v) / size(f, d1, _lens_v)),
        ],
        _plain_text,
    )
    if picked is None:
        return None
    options, correct, slips = picked
    spec = RaySpec(
        elements=(RayElement(kind="concave_mirror", radius=r),),
        objects=(RayObject(distance=d1, label="O₁"), RayObject(distance=d2, label="O₂")),
    )
    m1 = f / (f - d1)
    m2 = f / (f - d2)
    return FigureQuestion(
        spec=spec,
        caption="Figure: an object moved in front of a concave mirror",
        alt=_alt_single(spec).replace("An upright object O₂", "It is then moved to O₂, which"),
        format=NUM,
        stem="In the figure, an object placed at O₁ in front of a concave mirror is moved to O₂. "
        "The size of the image with the object at O₂ is how many times its size with the "
        "object at O₁?",
        options=options,
        correct=correct,
        explanation=f"$f = R/2 = {num(f)}$ cm. For each position the mirror formula gives $v$, "
        f"and $m = -v/u = \\dfrac{{f}}{{f - u}}$ (Cartesian $f = -{num(f)}$ cm): "
        f"$m_1 = {tex_number(m1, SIG)}$, $m_2 = {tex_number(m2, SIG)}$, so the size grows by "
        f"$|m_2/m_1| = {tex_number(ratio, SIG)}$." + _slips(slips),
        params=(("R", num(r)), ("d1", num(d1)), ("d2", num(d2))),
    )


# ── lenses ───────────────────────────────────────────────────────────────────────────────────
def _convex_lens_image_distance(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-convex-lens-image-distance", seed)
    f = float(rng.choice((10, 12, 15, 18, 20, 24, 25, 30)))
    case, d = _object_case(rng, f, ("beyond", "between", "inside"))
    u = -d
    v = _lens_v(f, u)
    picked = _numeric(
        rng,
        v,
        [
            ("the sign of v dropped", -v),
            ("the mirror formula 1/v + 1/u = 1/f used for the lens", _mirror_v(f, u)),
            ("the convex lens's focal length taken negative", _lens_v(-f, u)),
            ("the object distance taken positive", _lens_v(f, d)),
        ],
        _cm_text,
    )
    if picked is None:
        return None
    options, correct, slips = picked
    spec = _lens_spec(True, d, f)
    side = "real, on the far side of the lens" if v > 0 else "virtual, on the object's side"
    return FigureQuestion(
        spec=spec,
        caption="Figure: an object in front of a convex lens",
        alt=_alt_single(spec),
        format=NUM,
        stem="In the figure, an object AB stands on the principal axis of a thin convex lens. "
        + CARTESIAN.format(origin="optical centre O")
        + ", the image distance $v$ is",
        options=options,
        correct=correct,
        explanation=f"With $u = -{num(d)}$ cm and $f = +{num(f)}$ cm, the lens formula "
        f"$\\dfrac{{1}}{{v}} - \\dfrac{{1}}{{u}} = \\dfrac{{1}}{{f}}$ gives "
        f"$v = {tex_number(v, SIG)}$ cm: the image is {side}." + _slips(slips),
        params=(("case", case), ("f", num(f)), ("d", num(d))),
    )


def _concave_lens_image_distance(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-concave-lens-image-distance", seed)
    f = float(rng.choice((10, 12, 15, 18, 20, 24, 25, 30, 40)))
    d = float(round(f * rng.uniform(0.4, 3.5)))
    if abs(d - f) < 0.2 * f:
        return None  # the f-taken-positive slip would put the image near infinity
    u, fc = -d, -f
    v = _lens_v(fc, u)
    picked = _numeric(
        rng,
        v,
        [
            ("the minus sign of the virtual image dropped", -v),
            ("the concave lens's focal length taken positive", _lens_v(f, u)),
            ("the mirror formula 1/v + 1/u = 1/f used for the lens", _mirror_v(fc, u)),
            ("the object distance taken positive", _lens_v(fc, d)),
        ],
        _cm_text,
    )
    if picked is None:
        return None
    options, correct, slips = picked
    spec = _lens_spec(False, d, f)
    return FigureQuestion(
        spec=spec,
        caption="Figure: an object in front of a concave lens",
        alt=_alt_single(spec),
        format=NUM,
        stem="In the figure, an object AB stands on the principal axis of a thin concave lens. "
        + CARTESIAN.format(origin="optical centre O")
        + ", the image distance $v$ is",
        options=options,
        correct=correct,
        explanation=f"With $u = -{num(d)}$ cm and $f = -{num(f)}$ cm, "
        f"$\\dfrac{{1}}{{v}} = \\dfrac{{1}}{{f}} + \\dfrac{{1}}{{u}}$ gives "
        f"$v = {tex_number(v, SIG)}$ cm: a virtual image on the object's side, between O and F."
        + _slips(slips),
        params=(("f", num(f)), ("d", num(d))),
    )


def _lens_image_height(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-lens-image-height", seed)
    convex = rng.random() < 0.7
    f = float(rng.choice((10, 12, 15, 20, 25, 30)))
    h = float(rng.choice((1, 1.5, 2, 2.5, 3, 4, 5, 6)))
    if convex:
        _, d = _object_case(rng, f, ("beyond", "between", "inside"))
    else:
        d = float(round(f * rng.uniform(0.5, 3.0)))
    fc, u = (f if convex else -f), -d
    v = _lens_v(fc, u)
    m = v / u
    if abs(abs(m) - 1) < 0.15:
        return None
    hi = h * m
    picked = _numeric(
        rng,
        hi,
        [
            ("the mirror's m = −v/u used for the lens (sign lost)", -hi),
            ("the magnification inverted, m = u/v", h * u / v),
            ("the magnification inverted and its sign lost", -h * u / v),
        ],
        _cm_text,
    )
    if picked is None:
        return None
    options, correct, slips = picked
    spec = _lens_spec(convex, d, f, h)
    name = "convex" if convex else "concave"
    return FigureQuestion(
        spec=spec,
        caption=f"Figure: an object in front of a {name} lens",
        alt=_alt_single(spec),
        format=NUM,
        stem=f"In the figure, an object AB of the height shown stands on the principal axis of a "
        f"thin {name} lens. Taking heights above the principal axis as positive, the height of "
        "the image is",
        options=options,
        correct=correct,
        explanation=f"With $u = -{num(d)}$ cm and $f = {tex_given(fc)}$ cm the lens formula gives "
        f"$v = {tex_number(v, SIG)}$ cm; then $m = v/u = {tex_number(m, SIG)}$ and "
        f"$h' = m h = {tex_number(hi, SIG)}$ cm." + _slips(slips),
        params=(("kind", name), ("f", num(f)), ("d", num(d)), ("h", num(h))),
    )


NATURES = (
    "Real, inverted and magnified",
    "Real, inverted and diminished",
    "Real, inverted and of the same size",
    "Virtual, erect and magnified",
    "Virtual, erect and diminished",
)
_NATURE_OF = {"beyond": 1, "at": 2, "between": 0, "inside": 3}


def _convex_lens_image_nature(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-convex-lens-image-nature", seed)
    f = float(rng.choice((8, 10, 12, 15, 16, 20, 24, 25, 30)))
    case, d = _object_case(rng, f, ("beyond", "beyond", "at", "between", "between", "inside"))
    correct = NATURES[_NATURE_OF[case]]
    # The key and the three natures that differ from it in one judgement (size, or real/virtual).
    others = {
        "beyond": (0, 2, 4),
        "at": (0, 1, 3),
        "between": (1, 2, 3),
        "inside": (0, 1, 4),
    }[case]
    options = [correct] + [NATURES[i] for i in others]
    rng.shuffle(options)
    spec = _lens_spec(True, d, f)
    where = {
        "beyond": "beyond 2F, so the image forms between F and 2F on the other side",
        "at": "at 2F, so the image forms at 2F on the other side",
        "between": "between F and 2F, so the image forms beyond 2F on the other side",
        "inside": "between O and F, so the rays leave diverging and the image is on its side",
    }[case]
    return FigureQuestion(
        spec=spec,
        caption="Figure: an object in front of a convex lens",
        alt=_alt_single(spec),
        format=QuestionFormat.SINGLE_CORRECT,
        stem="In the figure, an object AB stands on the principal axis of a thin convex lens. "
        "The nature of the image formed by the lens is",
        options=(options[0], options[1], options[2], options[3]),
        correct=correct,
        explanation=f"Here $f = {num(f)}$ cm and $2f = {num(2 * f)}$ cm; the object, "
        f"{num(d)} cm from the lens, is {where}: {correct.lower()}.",
        params=(("case", case), ("f", num(f)), ("d", num(d))),
    )


_TIMES = {2: "2", 3: "3", 4: "4", 5: "5", 1.5: "1.5", 2.5: "2.5"}


def _lens_object_for_magnification(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-lens-object-for-magnification", seed)
    f = float(rng.choice(range(8, 41, 2)))
    n = rng.choice(tuple(_TIMES))
    real = rng.random() < 0.6
    key = f * (n + 1) / n if real else f * (n - 1) / n
    picked = _numeric(
        rng,
        key,
        [
            (
                "the other kind of image's magnification (the sign of m slipped)",
                f * (n - 1) / n if real else f * (n + 1) / n,
            ),
            ("the magnification inverted, m = u/v", f * (n + 1) if real else f * (n - 1)),
            ("the inverted ratio with the sign slip too", f * (n - 1) if real else f * (n + 1)),
            ("the image distance |v| = n|u| given for the object's", n * key),
        ],
        _cm_text,
    )
    if picked is None:
        return None
    options, correct, slips = picked
    spec = _lens_spec(True, None, f)
    kind = "real" if real else "virtual, erect"
    m = -n if real else n
    return FigureQuestion(
        spec=spec,
        caption="Figure: a convex lens with its foci marked",
        alt=_alt_single(spec),
        format=NUM,
        stem="The figure shows a thin convex lens with the points F and 2F marked on either side. "
        f"At what distance from the lens must the object be placed so that the lens forms a "
        f"{kind} image ${_TIMES[n]}$ times the size of the object?",
        options=options,
        correct=correct,
        explanation=f"A {kind.split(',')[0]} image needs $m = v/u = {tex_given(m)}$, so "
        f"$v = {tex_given(m)}u$; in $\\dfrac{{1}}{{v}} - \\dfrac{{1}}{{u}} = \\dfrac{{1}}{{f}}$ "
        f"with $f = {num(f)}$ cm this gives $|u| = {tex_number(key, SIG)}$ cm." + _slips(slips),
        params=(("f", num(f)), ("n", _TIMES[n]), ("real", str(real))),
    )


def _lenses_in_contact_power(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-lenses-in-contact-power", seed)
    lengths = (10, 12.5, 15, 20, 25, 30, 40, 50, 60, 80, 100)
    f1 = float(rng.choice(lengths[:8]))
    both_convex = rng.random() < 0.3
    f2 = float(rng.choice(lengths))
    if f2 == f1:
        return None
    p1, p2 = 100 / f1, (100 if both_convex else -100) / f2
    power = p1 + p2
    picked = _numeric(
        rng,
        power,
        [
            ("the concave lens's power taken positive", p1 + abs(p2)),
            ("the focal lengths added, F = f₁ + f₂", 100 / (f1 + (f2 if both_convex else -f2))),
            ("the sign of the combination's power reversed", -power),
            ("the powers subtracted", p1 - p2),
        ],
        _power_text,
    )
    if picked is None:
        return None
    options, correct, slips = picked
    spec = RaySpec(
        elements=(
            RayElement(kind="convex_lens", focal=f1, label="L₁"),
            RayElement(kind="convex_lens" if both_convex else "concave_lens", focal=f2, label="L₂"),
        ),
    )
    second = "convex" if both_convex else "concave"
    return FigureQuestion(
        spec=spec,
        caption="Figure: two thin lenses in contact",
        alt="Two thin lenses in contact on a common axis: a convex lens L₁ of focal length "
        f"{cm(f1)} and a {second} lens L₂ of focal length {cm(f2)}.",
        format=NUM,
        stem=f"In the figure, a thin convex lens $L_1$ and a thin {second} lens $L_2$ are placed "
        "in contact, their focal lengths marked. The power of the combination is",
        options=options,
        correct=correct,
        explanation=f"$P_1 = \\dfrac{{100}}{{{num(f1)}}} = {tex_number(p1, SIG)}$ D and "
        f"$P_2 = {tex_number(p2, SIG)}$ D (a {second} lens); in contact the powers add: "
        f"$P = P_1 + P_2 = {tex_number(power, SIG)}$ D." + _slips(slips),
        params=(("f1", num(f1)), ("f2", num(f2)), ("second", second)),
    )


def _two_lenses_final_image_height(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-two-lenses-final-image-height", seed)
    f1 = float(rng.choice((10, 12, 15, 20)))
    d = float(round(f1 * rng.uniform(1.3, 3.0)))
    convex2 = rng.random() < 0.6
    f2 = float(rng.choice((10, 15, 20, 25, 30)))
    sep = float(round(rng.uniform(1.5, 5.0) * f1))
    h = float(rng.choice((1, 2, 3, 4, 5)))
    f2c = f2 if convex2 else -f2
    v1 = _lens_v(f1, -d)
    u2 = v1 - sep
    if abs(u2) < 3 or abs(u2 + f2c) < 0.2 * f2:
        return None  # the intermediate image on L₂, or at its focus
    v2 = _lens_v(f2c, u2)
    m1, m2 = v1 / -d, v2 / u2
    hf = h * m1 * m2
    if not 0.15 <= abs(hf / h) <= 8:
        return None
    contact_f = _inv(1 / f1 + 1 / f2c)
    v_contact = _lens_v(contact_f, -d)
    # u₂ taken with the wrong sign: the intermediate image's side misread.
    v2_flip = _lens_v(f2c, -u2)
    picked = _numeric(
        rng,
        hf,
        [
            ("the separation ignored, as if the lenses were in contact", h * v_contact / -d),
            ("the first lens's image taken as the final one", h * m1),
            ("the sign of the final height lost", -hf),
            ("the second object distance taken with the wrong sign", h * m1 * v2_flip / -u2),
        ],
        _cm_text,
    )
    if picked is None:
        return None
    options, correct, slips = picked
    spec = RaySpec(
        elements=(
            RayElement(kind="convex_lens", focal=f1, label="L₁"),
            RayElement(
                kind="convex_lens" if convex2 else "concave_lens", focal=f2, at=sep, label="L₂"
            ),
        ),
        objects=(RayObject(distance=d, height=h),),
    )
    second = "convex" if convex2 else "concave"
    return FigureQuestion(
        spec=spec,
        caption="Figure: an object in front of two thin lenses on a common axis",
        alt=f"Two thin lenses on a common axis, {cm(sep)} apart: a convex lens L₁ of focal "
        f"length {cm(f1)} and then a {second} lens L₂ of focal length {cm(f2)}. An upright "
        f"object AB, {cm(h)} tall, stands {cm(d)} to the left of L₁.",
        format=NUM,
        stem=f"In the figure, an object AB of the height shown stands in front of a thin convex "
        f"lens $L_1$, and a thin {second} lens $L_2$ is placed the distance $d$ behind it. "
        "Taking heights above the principal axis as positive, the height of the final image "
        "formed by the two lenses is",
        options=options,
        correct=correct,
        explanation=f"$L_1$: $u_1 = -{num(d)}$ cm, $f_1 = {num(f1)}$ cm give "
        f"$v_1 = {tex_number(v1, SIG)}$ cm and $m_1 = {tex_number(m1, SIG)}$. That image is "
        f"the object for $L_2$: $u_2 = v_1 - d = {tex_number(u2, SIG)}$ cm; with "
        f"$f_2 = {tex_given(f2c)}$ cm, $v_2 = {tex_number(v2, SIG)}$ cm and "
        f"$m_2 = {tex_number(m2, SIG)}$. The final height is $m_1 m_2 h = "
        f"{tex_number(hf, SIG)}$ cm." + _slips(slips),
        params=(("f1", num(f1)), ("f2", num(f2c)), ("d", num(d)), ("sep", num(sep))),
    )


# ── prisms ───────────────────────────────────────────────────────────────────────────────────
def _thin_prism_deviation(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-thin-prism-deviation", seed)
    a = float(rng.choice((2, 2.5, 3, 3.5, 4, 5, 6, 7, 8, 10)))
    mu = float(rng.choice((1.4, 1.44, 1.46, 1.48, 1.5, 1.52, 1.54, 1.55, 1.58, 1.6, 1.62, 1.65)))
    key = (mu - 1) * a
    picked = _numeric(
        rng,
        key,
        [
            ("the 1 dropped, δ = μA", mu * a),
            ("A/2 used in place of A, as in the minimum-deviation relation", (mu - 1) * a / 2),
            ("the relation inverted, δ = A/(μ − 1)", a / (mu - 1)),
            ("the index taken the wrong way up, δ = (1 − 1/μ)A", (1 - 1 / mu) * a),
            ("δ = A/μ", a / mu),
        ],
        _deg_text,
    )
    if picked is None:
        return None
    options, correct, slips = picked
    spec = RaySpec(prism=RayPrism(angle=a, index=mu))
    return FigureQuestion(
        spec=spec,
        caption="Figure: a ray through a thin prism",
        alt=f"A thin glass prism of refracting angle {deg(a)} and refractive index {num(mu)}, "
        "with a ray entering one face close to the normal and leaving the other.",
        format=NUM,
        stem="The figure shows a thin prism with its refracting angle $A$ and refractive index "
        "$\\mu$ marked. The angle of deviation of a ray passing through it at a small angle of "
        "incidence is",
        options=options,
        correct=correct,
        explanation=f"For a thin prism $\\delta = (\\mu - 1)A = ({num(mu)} - 1)\\times "
        f"{num(a)}^\\circ = {tex_number(key, SIG)}^\\circ$." + _slips(slips),
        params=(("A", num(a)), ("mu", num(mu))),
    )


def _snell_emergence(a: float, i: float, mu: float) -> float | None:
    r1 = math.degrees(math.asin(math.sin(math.radians(i)) / mu))
    s = mu * math.sin(math.radians(a - r1))
    return math.degrees(math.asin(s)) if abs(s) < 1 else None


def _prism_deviation(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-prism-deviation", seed)
    a = float(rng.choice((45, 50, 55, 60, 60, 65)))
    mu = rng.uniform(1.45, 1.65)
    i = float(rng.randint(35, 65))
    e = _snell_emergence(a, i, mu)
    if e is None or e < 15:
        return None
    e = float(round(e))
    if abs(e - i) < 4:
        return None
    key = i + e - a
    picked = _numeric(
        rng,
        key,
        [
            ("the prism angle left out, δ = i + e", i + e),
            ("the minimum-deviation relation δ = 2i − A used though e ≠ i", 2 * i - a),
            ("δ = 2e − A, as if the ray were at minimum deviation", 2 * e - a),
        ],
        _deg_text,
    )
    if picked is None:
        return None
    options, correct, slips = picked
    spec = RaySpec(prism=RayPrism(angle=a, incidence=i, emergence=e))
    return FigureQuestion(
        spec=spec,
        caption="Figure: a ray refracted through a prism",
        alt=f"A triangular prism of refracting angle {deg(a)}; a ray strikes the left face at "
        f"an angle of incidence {deg(i)} and leaves the right face at an angle of emergence "
        f"{deg(e)}, the normals drawn dashed.",
        format=NUM,
        stem="In the figure, a ray passes through a prism; the refracting angle $A$ and the "
        "angles of incidence $i$ and emergence $e$ are marked. The angle of deviation of the "
        "ray is",
        options=options,
        correct=correct,
        explanation=f"Inside the prism $r_1 + r_2 = A$, and the ray turns by $(i - r_1) + "
        f"(e - r_2)$, so $\\delta = i + e - A = {num(i)}^\\circ + {num(e)}^\\circ - "
        f"{num(a)}^\\circ = {tex_number(key, SIG)}^\\circ$." + _slips(slips),
        params=(("A", num(a)), ("i", num(i)), ("e", num(e))),
    )


def _prism_refractive_index(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-prism-refractive-index", seed)
    a = float(rng.choice((40, 45, 50, 55, 60, 60, 65, 70)))
    mu_true = rng.uniform(1.35, 1.7)
    s = mu_true * math.sin(math.radians(a / 2))
    if s >= 0.97:
        return None
    dm = float(round(2 * math.degrees(math.asin(s)) - a))
    sin = lambda x: math.sin(math.radians(x))  # noqa: E731
    key = sin((a + dm) / 2) / sin(a / 2)
    candidates = [
        ("the thin-prism relation δ = (μ − 1)A used, μ = 1 + δm/A", 1 + dm / a),
        ("A halved but not δm, μ = sin(A/2 + δm)/sin(A/2)", sin(a / 2 + dm) / sin(a / 2)),
        ("neither angle halved, μ = sin(A + δm)/sin A", sin(a + dm) / sin(a)),
        ("r taken as A instead of A/2, μ = sin((A + δm)/2)/sin A", sin((a + dm) / 2) / sin(a)),
    ]
    # A refractive index below 1 gives itself away: such a distractor is not offered.
    picked = _numeric(rng, key, [c for c in candidates if c[1] > 1.0], _plain_text)
    if picked is None:
        return None
    options, correct, slips = picked
    spec = RaySpec(prism=RayPrism(angle=a, min_deviation=dm, minimum=True))
    return FigureQuestion(
        spec=spec,
        caption="Figure: a ray through a prism at minimum deviation",
        alt=f"A triangular prism of refracting angle {deg(a)}, with a ray passing through it "
        f"symmetrically at minimum deviation; the angle of minimum deviation {deg(dm)} is "
        "marked.",
        format=NUM,
        stem="The figure shows a ray passing through a prism at minimum deviation; the "
        "refracting angle $A$ and the angle of minimum deviation $\\delta_m$ are marked. The "
        "refractive index of the material of the prism is",
        options=options,
        correct=correct,
        explanation=f"At minimum deviation $r = A/2$ and $i = (A + \\delta_m)/2$, so "
        f"$\\mu = \\dfrac{{\\sin\\frac{{A + \\delta_m}}{{2}}}}{{\\sin\\frac{{A}}{{2}}}} = "
        f"\\dfrac{{\\sin {num((a + dm) / 2)}^\\circ}}{{\\sin {num(a / 2)}^\\circ}} = "
        f"{tex_number(key, SIG)}$." + _slips(slips),
        params=(("A", num(a)), ("dm", num(dm))),
    )


RAY_TEMPLATES: tuple[FigureTemplate, ...] = (
    FigureTemplate(
        "fig-ray-concave-mirror-image-distance",
        PHY,
        "phy-mirror-formula",
        ONE,
        _concave_mirror_image_distance,
    ),
    FigureTemplate(
        "fig-ray-convex-mirror-image-distance",
        PHY,
        "phy-mirror-formula",
        TWO,
        _convex_mirror_image_distance,
    ),
    FigureTemplate(
        "fig-ray-mirror-magnification", PHY, "phy-mirror-formula", TWO, _mirror_magnification
    ),
    FigureTemplate(
        "fig-ray-concave-mirror-image-position",
        PHY,
        "phy-mirror-formula",
        ONE,
        _concave_mirror_image_position,
    ),
    FigureTemplate(
        "fig-ray-mirror-object-moved", PHY, "phy-mirror-formula", THREE, _mirror_object_moved
    ),
    FigureTemplate(
        "fig-ray-convex-lens-image-distance",
        PHY,
        "phy-lens-formula",
        ONE,
        _convex_lens_image_distance,
    ),
    FigureTemplate(
        "fig-ray-concave-lens-image-distance",
        PHY,
        "phy-lens-formula",
        ONE,
        _concave_lens_image_distance,
    ),
    FigureTemplate("fig-ray-lens-image-height", PHY, "phy-lens-formula", TWO, _lens_image_height),
    FigureTemplate(
        "fig-ray-convex-lens-image-nature", PHY, "phy-lens-formula", NEAR, _convex_lens_image_nature
    ),
    FigureTemplate(
        "fig-ray-lens-object-for-magnification",
        PHY,
        "phy-lens-formula",
        REVERSED,
        _lens_object_for_magnification,
    ),
    FigureTemplate(
        "fig-ray-lenses-in-contact-power", PHY, "phy-power-of-lens", TWO, _lenses_in_contact_power
    ),
    FigureTemplate(
        "fig-ray-two-lenses-final-image-height",
        PHY,
        "phy-lens-formula",
        THREE,
        _two_lenses_final_image_height,
    ),
    FigureTemplate("fig-ray-thin-prism-deviation", PHY, "phy-prism", ONE, _thin_prism_deviation),
    FigureTemplate("fig-ray-prism-deviation", PHY, "phy-prism", ONE, _prism_deviation),
    FigureTemplate(
        "fig-ray-prism-refractive-index", PHY, "phy-prism", TWO, _prism_refractive_index
    ),
)
