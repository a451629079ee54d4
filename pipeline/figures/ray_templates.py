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
from functools import partial

from core.figures.ray import ElementKind, RayElement, RayObject, RayPrism, RaySpec, num
from core.records import QuestionFormat, Subject
from pipeline.difficulty import Demand
from pipeline.figures.ray import ray_alt
from pipeline.figures.templates import FigureQuestion, FigureTemplate
from pipeline.quantities.numbers import tex_given, tex_number

MIN_GAP = 0.05  # options at least 5 % apart (the solver matches within 1.5 %)
MAX_FACTOR = 9.5  # a distractor within this factor of the key (the screen allows 10)
SIG = 3
CARTESIAN = (
    "Using the Cartesian sign convention (distances measured from the {origin}, positive in "
    "the direction of the incident light)"
)
LENS_FORMULA = "$\\dfrac{1}{v} - \\dfrac{1}{u} = \\dfrac{1}{f}$"
MIRROR_FORMULA = "$\\dfrac{1}{v} + \\dfrac{1}{u} = \\dfrac{1}{f}$"
Mistake = tuple[str, float]
Params = tuple[tuple[str, str], ...]


def _rng(template_id: str, seed: int) -> random.Random:
    return random.Random(f"{template_id}:{seed}")


def _text(unit: str, x: float) -> str:
    return f"${tex_number(x, SIG)}{unit}$"


_cm_text = partial(_text, "\\ \\mathrm{cm}")
_deg_text = partial(_text, "^\\circ")
_power_text = partial(_text, "\\ \\mathrm{D}")
_plain_text = partial(_text, "")


def _t(x: float) -> str:
    return tex_number(x, SIG)


def _apart(a: float, b: float) -> bool:
    return abs(a - b) >= MIN_GAP * max(abs(a), abs(b))


def _ask(
    rng: random.Random,
    spec: RaySpec,
    key: float,
    mistakes: Sequence[Mistake],
    text: Callable[[float], str],
) -> Callable[[str, str, Params], FigureQuestion | None]:
    """A numerical question about `spec` keyed `key`, whose distractors are the first three
    usable mistakes, to be worded (stem, explanation, params); None when too few are usable."""

    def worded(stem: str, explanation: str, params: Params) -> FigureQuestion | None:
        if not math.isfinite(key) or key == 0:
            return None
        chosen: list[Mistake] = []
        for name, value in mistakes:
            usable = math.isfinite(value) and value != 0
            if (
                usable
                and 1 / MAX_FACTOR <= abs(value / key) <= MAX_FACTOR
                and all(_apart(value, v) for v in [key] + [v for _, v in chosen])
            ):
                chosen.append((name, value))
        texts = [text(key)] + [text(v) for _, v in chosen[:3]]
        if len(set(texts)) != 4:
            return None
        options = texts[:]
        rng.shuffle(options)
        slips = "; ".join(n for n, _ in chosen[:3])
        return FigureQuestion(
            spec=spec,
            caption=_caption(spec),
            alt=ray_alt(spec),
            format=QuestionFormat.NUMERICAL,
            stem=stem,
            options=(options[0], options[1], options[2], options[3]),
            correct=texts[0],
            explanation=f"{explanation} Common slips behind the other options: {slips}.",
            params=params,
        )

    return worded


def _caption(spec: RaySpec) -> str:
    if spec.prism is not None:
        return "Figure: a ray through a prism"
    if len(spec.elements) == 2:
        return "Figure: two thin lenses on a common axis"
    name = spec.elements[0].kind.replace("_", " ")
    return f"Figure: an object in front of a {name}" if spec.objects else f"Figure: a {name}"


# ── the formulas the key is computed by (the solver uses ray matrices instead) ───────────────
def _inv(x: float) -> float:
    return 1 / x if abs(x) > 1e-12 else math.inf


def _mirror_v(f: float, u: float) -> float:
    """1/v + 1/u = 1/f, Cartesian f and u (infinite when the object is at the focus)."""
    return _inv(1 / f - 1 / u)


def _lens_v(f: float, u: float) -> float:
    """1/v − 1/u = 1/f, Cartesian f and u (infinite when the object is at the focus)."""
    return _inv(1 / f + 1 / u)


def _single(kind: ElementKind, d: float | None, f: float | None = None, **extra: float) -> RaySpec:
    """One mirror or lens (f, or R as `radius`), with an object `d` to its left (height `h`)."""
    element = RayElement(kind=kind, focal=f, radius=extra.get("radius"))
    objects = () if d is None else (RayObject(distance=d, height=extra.get("h")),)
    return RaySpec(elements=(element,), objects=objects)


def _object_case(rng: random.Random, f: float, cases: Sequence[str]) -> tuple[str, float]:
    """A named object position relative to F and C (2F), and a whole-cm distance in it."""
    case = rng.choice(list(cases))
    ranges = {"beyond": (2.25, 4.0), "at": (2.0, 2.0), "between": (1.2, 1.8), "inside": (0.3, 0.8)}
    low, high = ranges[case]
    return case, float(round(f * rng.uniform(low, high)))


# ── image distances ──────────────────────────────────────────────────────────────────────────
def _image_distance(kind: ElementKind) -> Callable[[int], FigureQuestion | None]:
    """The image distance v for one element: a concave mirror with f printed (object beyond C,
    between F and C, or inside F), a convex mirror with R printed, a convex or a concave lens."""
    template_id = f"fig-ray-{kind.replace('_', '-')}-image-distance"
    mirror = kind in ("concave_mirror", "convex_mirror")

    def draw(seed: int) -> FigureQuestion | None:
        rng = _rng(template_id, seed)
        f = float(rng.choice((10, 12, 15, 18, 20, 24, 25, 30)))
        if kind in ("concave_mirror", "convex_lens"):
            case, d = _object_case(rng, f, ("beyond", "between", "inside"))
        else:
            case, d = "any", float(round(f * rng.uniform(0.4, 3.5)))
            if kind == "concave_lens" and abs(d - f) < 0.2 * f:
                return None  # the f-taken-positive slip would put the image near infinity
        fc = f if kind in ("convex_mirror", "convex_lens") else -f
        u = -d
        v = _mirror_v(fc, u) if mirror else _lens_v(fc, u)
        own, other = (_mirror_v, _lens_v) if mirror else (_lens_v, _mirror_v)
        mistakes: list[Mistake] = [
            ("the sign of v dropped", -v),
            (f"the {'lens' if mirror else 'mirror'} formula used", other(fc, u)),
            ("the focal length taken with the wrong sign", own(-fc, u)),
            ("the object distance taken positive", own(fc, d)),
        ]
        if kind == "convex_mirror":  # R is printed: R taken for f is the first slip
            mistakes = [("R taken as the focal length", own(2 * fc, u)), *mistakes[:2]]
            mistakes.append(("R taken as f and the sign of v dropped", -own(2 * fc, u)))
        elif kind == "concave_mirror":
            mistakes.insert(2, ("R = 2f taken as the focal length", own(2 * fc, u)))
        name, thin = kind.replace("_", " "), "" if mirror else "thin "
        origin = "pole P" if mirror else "optical centre O"
        spec = _single(kind, d, radius=2 * f) if kind == "convex_mirror" else _single(kind, d, f)
        nature = "a real image" if (v < 0) == mirror else "a virtual image"
        focal = f"$f = {tex_given(fc)}$ cm"
        if kind == "convex_mirror":
            focal = f"$f = R/2 = {tex_given(fc)}$ cm (a convex mirror's focus is behind it)"
        return _ask(rng, spec, v, mistakes, _cm_text)(
            f"In the figure, an object AB stands on the principal axis of a {thin}{name}. "
            f"{CARTESIAN.format(origin=origin)}, the image distance $v$ is",
            f"With $u = -{num(d)}$ cm and {focal}, {MIRROR_FORMULA if mirror else LENS_FORMULA} "
            f"gives $v = {_t(v)}$ cm, {nature}.",
            (("case", case), ("f", num(f)), ("d", num(d))),
        )

    return draw


# ── magnification and image size ────────────────────────────────────────────────────────────
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
    mistakes = [
        ("the lens's m = v/u used for the mirror (sign lost)", v / u),
        ("the ratio inverted, m = −u/v", -u / v),
        ("the ratio inverted and the sign lost, m = u/v", u / v),
    ]
    name = "concave" if concave else "convex"
    spec = _single("concave_mirror" if concave else "convex_mirror", d, f)
    return _ask(rng, spec, m, mistakes, _plain_text)(
        f"In the figure, an object AB stands in front of a {name} mirror. "
        f"{CARTESIAN.format(origin='pole P')}, the magnification $m$ produced by the mirror is",
        f"With $u = -{num(d)}$ cm and $f = {tex_given(fc)}$ cm the mirror formula gives "
        f"$v = {_t(v)}$ cm, so $m = -\\dfrac{{v}}{{u}} = {_t(m)}$.",
        (("kind", name), ("f", num(f)), ("d", num(d))),
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
    mistakes = [
        ("the mirror's m = −v/u used for the lens (sign lost)", -h * m),
        ("the magnification inverted, m = u/v", h / m),
        ("the magnification inverted and its sign lost", -h / m),
    ]
    name = "convex" if convex else "concave"
    spec = _single("convex_lens" if convex else "concave_lens", d, f, h=h)
    return _ask(rng, spec, h * m, mistakes, _cm_text)(
        f"In the figure, an object AB of the height shown stands on the principal axis of a "
        f"thin {name} lens. Taking heights above the principal axis as positive, the height of "
        "the image is",
        f"With $u = -{num(d)}$ cm and $f = {tex_given(fc)}$ cm the lens formula gives "
        f"$v = {_t(v)}$ cm; then $m = v/u = {_t(m)}$ and $h' = m h = {_t(h * m)}$ cm.",
        (("kind", name), ("f", num(f)), ("d", num(d)), ("h", num(h))),
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
    mistakes = [
        ("the ratio inverted (size at O₁ over size at O₂)", 1 / ratio),
        ("R taken as the focal length", size(r, d2, _mirror_v) / size(r, d1, _mirror_v)),
        ("the ratio of the object distances, u₁/u₂, taken for the ratio of sizes", d1 / d2),
        ("the lens formula used for the mirror", size(f, d2, _lens_v) / size(f, d1, _lens_v)),
    ]
    spec = RaySpec(
        elements=(RayElement(kind="concave_mirror", radius=r),),
        objects=(RayObject(distance=d1, label="O₁"), RayObject(distance=d2, label="O₂")),
    )
    m1, m2 = f / (f - d1), f / (f - d2)
    return _ask(rng, spec, ratio, mistakes, _plain_text)(
        "In the figure, an object placed at O₁ in front of a concave mirror is moved to O₂. "
        "The size of the image with the object at O₂ is how many times its size with the "
        "object at O₁?",
        f"$f = R/2 = {num(f)}$ cm. For each position the mirror formula gives $v$, and "
        f"$m = -v/u = \\dfrac{{f}}{{f - u}}$ (Cartesian $f = -{num(f)}$ cm): $m_1 = {_t(m1)}$, "
        f"$m_2 = {_t(m2)}$, so the size changes by $|m_2/m_1| = {_t(ratio)}$.",
        (("R", num(r)), ("d1", num(d1)), ("d2", num(d2))),
    )


def _lens_object_for_magnification(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-lens-object-for-magnification", seed)
    f = float(rng.choice(range(8, 41, 2)))
    n = rng.choice((2.0, 3.0, 4.0, 5.0, 1.5, 2.5))
    real = rng.random() < 0.6
    near, far = f * (n - 1) / n, f * (n + 1) / n
    key = far if real else near
    mistakes = [
        ("the other kind of image's magnification (the sign of m slipped)", near if real else far),
        ("the magnification inverted, m = u/v", f * (n + 1) if real else f * (n - 1)),
        ("the inverted ratio with the sign slip too", f * (n - 1) if real else f * (n + 1)),
        ("the image distance |v| = n|u| given for the object's", n * key),
    ]
    kind = "real" if real else "virtual, erect"
    m = -n if real else n
    return _ask(rng, _single("convex_lens", None, f), key, mistakes, _cm_text)(
        "The figure shows a thin convex lens with the points F and 2F marked on either side. At "
        "what distance from the lens must the object be placed so that the lens forms a "
        f"{kind} image ${num(n)}$ times the size of the object?",
        f"A {kind.split(',')[0]} image needs $m = v/u = {tex_given(m)}$, so "
        f"$v = {tex_given(m)}u$; in {LENS_FORMULA} with $f = {num(f)}$ cm this gives "
        f"$|u| = {_t(key)}$ cm.",
        (("f", num(f)), ("n", num(n)), ("real", str(real))),
    )


# ── what and where the image is (words) ──────────────────────────────────────────────────────
POSITIONS = ("Between F and C", "Beyond C", "At C", "Behind the mirror")
NATURES = (
    "Real, inverted and magnified",
    "Real, inverted and diminished",
    "Real, inverted and of the same size",
    "Virtual, erect and magnified",
    "Virtual, erect and diminished",
)
# For each object position: the key, and the options offered (for natures, the key and the
# three that differ from it in one judgement: size, or real against virtual).
_POSITION_OF = {"beyond": 0, "at": 2, "between": 1, "inside": 3}
_NATURE_OF = {"beyond": 1, "at": 2, "between": 0, "inside": 3}
_NATURE_OPTIONS = {
    "beyond": (1, 0, 2, 4),
    "at": (2, 0, 1, 3),
    "between": (0, 1, 2, 3),
    "inside": (3, 0, 1, 4),
}
_MIRROR_WHY = {
    "beyond": "beyond C, so its image lies between F and C",
    "at": "at C, so its image is formed at C itself",
    "between": "between F and C, so its image lies beyond C",
    "inside": "between P and F, so its image is virtual, behind the mirror",
}
_LENS_WHY = {
    "beyond": "beyond 2F, so the image forms between F and 2F on the other side",
    "at": "at 2F, so the image forms at 2F on the other side",
    "between": "between F and 2F, so the image forms beyond 2F on the other side",
    "inside": "between O and F, so the rays leave diverging and the image is on its side",
}


def _in_words(mirror: bool) -> Callable[[int], FigureQuestion | None]:
    """Where a concave mirror's image forms, or what a convex lens's image is like."""
    template_id = (
        "fig-ray-concave-mirror-image-position" if mirror else "fig-ray-convex-lens-image-nature"
    )

    def draw(seed: int) -> FigureQuestion | None:
        rng = _rng(template_id, seed)
        f = float(rng.choice((8, 10, 12, 15, 16, 20, 24, 25, 30)))
        case, d = _object_case(rng, f, ("beyond", "beyond", "at", "between", "between", "inside"))
        if mirror:
            correct, options = POSITIONS[_POSITION_OF[case]], list(POSITIONS)
            stem = (
                "In the figure, an object AB stands in front of a concave mirror with its focus "
                "F and centre of curvature C marked. Where is the image formed?"
            )
            why = f"$R = 2f = {num(2 * f)}$ cm; the object, {num(d)} cm from P, is "
            why += _MIRROR_WHY[case] + "."
        else:
            correct = NATURES[_NATURE_OF[case]]
            options = [NATURES[i] for i in _NATURE_OPTIONS[case]]
            stem = (
                "In the figure, an object AB stands on the principal axis of a thin convex lens. "
                "The nature of the image formed by the lens is"
            )
            why = f"$2f = {num(2 * f)}$ cm; the object, {num(d)} cm from the lens, is "
            why += f"{_LENS_WHY[case]}: {correct.lower()}."
        rng.shuffle(options)
        spec = _single("concave_mirror" if mirror else "convex_lens", d, f)
        return FigureQuestion(
            spec=spec,
            caption=_caption(spec),
            alt=ray_alt(spec),
            format=QuestionFormat.SINGLE_CORRECT,
            stem=stem,
            options=(options[0], options[1], options[2], options[3]),
            correct=correct,
            explanation=f"Here $f = {num(f)}$ cm and {why}",
            params=(("case", case), ("f", num(f)), ("d", num(d))),
        )

    return draw


# ── two lenses ───────────────────────────────────────────────────────────────────────────────
def _lenses_in_contact_power(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-lenses-in-contact-power", seed)
    lengths = (10, 12.5, 15, 20, 25, 30, 40, 50, 60, 80, 100)
    f1, f2 = float(rng.choice(lengths[:8])), float(rng.choice(lengths))
    both_convex = rng.random() < 0.3
    if f2 == f1:
        return None
    p1, p2 = 100 / f1, (100 if both_convex else -100) / f2
    power = p1 + p2
    mistakes = [
        ("the concave lens's power taken positive", p1 + abs(p2)),
        ("the focal lengths added, F = f₁ + f₂", 100 / (f1 + (f2 if both_convex else -f2))),
        ("the sign of the combination's power reversed", -power),
        ("the powers subtracted", p1 - p2),
    ]
    second = "convex" if both_convex else "concave"
    second_kind: ElementKind = "convex_lens" if both_convex else "concave_lens"
    spec = RaySpec(
        elements=(
            RayElement(kind="convex_lens", focal=f1, label="L₁"),
            RayElement(kind=second_kind, focal=f2, label="L₂"),
        ),
    )
    return _ask(rng, spec, power, mistakes, _power_text)(
        f"In the figure, a thin convex lens $L_1$ and a thin {second} lens $L_2$ are placed "
        "in contact, their focal lengths marked. The power of the combination is",
        f"$P_1 = \\dfrac{{100}}{{{num(f1)}}} = {_t(p1)}$ D and $P_2 = {_t(p2)}$ D (a {second} "
        f"lens); in contact the powers add: $P = P_1 + P_2 = {_t(power)}$ D.",
        (("f1", num(f1)), ("f2", num(f2)), ("second", second)),
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
    v_contact = _lens_v(_inv(1 / f1 + 1 / f2c), -d)
    mistakes = [
        ("the separation ignored, as if the lenses were in contact", h * v_contact / -d),
        ("the first lens's image taken as the final one", h * m1),
        ("the sign of the final height lost", -hf),
        ("the second object distance taken with the wrong sign", h * m1 * _lens_v(f2c, -u2) / -u2),
    ]
    second: ElementKind = "convex_lens" if convex2 else "concave_lens"
    spec = RaySpec(
        elements=(
            RayElement(kind="convex_lens", focal=f1, label="L₁"),
            RayElement(kind=second, focal=f2, at=sep, label="L₂"),
        ),
        objects=(RayObject(distance=d, height=h),),
    )
    return _ask(rng, spec, hf, mistakes, _cm_text)(
        f"In the figure, an object AB of the height shown stands in front of a thin convex "
        f"lens $L_1$, and a thin {second.split('_')[0]} lens $L_2$ is placed the distance $d$ "
        "behind it. Taking heights above the principal axis as positive, the height of the "
        "final image formed by the two lenses is",
        f"$L_1$: $u_1 = -{num(d)}$ cm, $f_1 = {num(f1)}$ cm give $v_1 = {_t(v1)}$ cm and "
        f"$m_1 = {_t(m1)}$. That image is the object for $L_2$: $u_2 = v_1 - d = {_t(u2)}$ cm; "
        f"with $f_2 = {tex_given(f2c)}$ cm, $v_2 = {_t(v2)}$ cm and $m_2 = {_t(m2)}$. The final "
        f"height is $m_1 m_2 h = {_t(hf)}$ cm.",
        (("f1", num(f1)), ("f2", num(f2c)), ("d", num(d)), ("sep", num(sep))),
    )


# ── prisms ───────────────────────────────────────────────────────────────────────────────────
def _thin_prism_deviation(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-thin-prism-deviation", seed)
    a = float(rng.choice((2, 2.5, 3, 3.5, 4, 5, 6, 7, 8, 10)))
    mu = float(rng.choice((1.4, 1.44, 1.46, 1.48, 1.5, 1.52, 1.54, 1.55, 1.58, 1.6, 1.62, 1.65)))
    key = (mu - 1) * a
    mistakes = [
        ("the 1 dropped, δ = μA", mu * a),
        ("A/2 used in place of A, as in the minimum-deviation relation", (mu - 1) * a / 2),
        ("the relation inverted, δ = A/(μ − 1)", a / (mu - 1)),
        ("the index taken the wrong way up, δ = (1 − 1/μ)A", (1 - 1 / mu) * a),
        ("δ = A/μ", a / mu),
    ]
    return _ask(rng, RaySpec(prism=RayPrism(angle=a, index=mu)), key, mistakes, _deg_text)(
        "The figure shows a thin prism with its refracting angle $A$ and refractive index "
        "$\\mu$ marked. The angle of deviation of a ray passing through it at a small angle of "
        "incidence is",
        f"For a thin prism $\\delta = (\\mu - 1)A = ({num(mu)} - 1)\\times {num(a)}^\\circ = "
        f"{_t(key)}^\\circ$.",
        (("A", num(a)), ("mu", num(mu))),
    )


def _snell_emergence(a: float, i: float, mu: float) -> float | None:
    r1 = math.degrees(math.asin(math.sin(math.radians(i)) / mu))
    s = mu * math.sin(math.radians(a - r1))
    return math.degrees(math.asin(s)) if abs(s) < 1 else None


def _prism_deviation(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-prism-deviation", seed)
    a = float(rng.choice((45, 50, 55, 60, 60, 65)))
    mu = rng.uniform(1.45, 1.65)  # not printed: it only makes the drawn e a real one
    i = float(rng.randint(35, 65))
    exact = _snell_emergence(a, i, mu)
    if exact is None or exact < 15 or abs(round(exact) - i) < 4:
        return None
    e = float(round(exact))
    key = i + e - a
    mistakes = [
        ("the prism angle left out, δ = i + e", i + e),
        ("the minimum-deviation relation δ = 2i − A used though e ≠ i", 2 * i - a),
        ("δ = 2e − A, as if the ray were at minimum deviation", 2 * e - a),
    ]
    spec = RaySpec(prism=RayPrism(angle=a, incidence=i, emergence=e))
    return _ask(rng, spec, key, mistakes, _deg_text)(
        "In the figure, a ray passes through a prism; the refracting angle $A$ and the "
        "angles of incidence $i$ and emergence $e$ are marked. The angle of deviation of the "
        "ray is",
        f"Inside the prism $r_1 + r_2 = A$, and the ray turns by $(i - r_1) + (e - r_2)$, so "
        f"$\\delta = i + e - A = {num(i)}^\\circ + {num(e)}^\\circ - {num(a)}^\\circ = "
        f"{_t(key)}^\\circ$.",
        (("A", num(a)), ("i", num(i)), ("e", num(e))),
    )


def _prism_refractive_index(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-ray-prism-refractive-index", seed)
    a = float(rng.choice((40, 45, 50, 55, 60, 60, 65, 70)))
    s = rng.uniform(1.35, 1.7) * math.sin(math.radians(a / 2))
    if s >= 0.97:
        return None
    dm = float(round(2 * math.degrees(math.asin(s)) - a))

    def sin(x: float) -> float:
        return math.sin(math.radians(x))

    key = sin((a + dm) / 2) / sin(a / 2)
    mistakes = [
        ("the thin-prism relation δ = (μ − 1)A used, μ = 1 + δm/A", 1 + dm / a),
        ("A halved but not δm, μ = sin(A/2 + δm)/sin(A/2)", sin(a / 2 + dm) / sin(a / 2)),
        ("neither angle halved, μ = sin(A + δm)/sin A", sin(a + dm) / sin(a)),
        ("r taken as A instead of A/2, μ = sin((A + δm)/2)/sin A", sin((a + dm) / 2) / sin(a)),
    ]
    # A refractive index below 1 gives itself away: such a distractor is not offered.
    mistakes = [m for m in mistakes if m[1] > 1.0]
    spec = RaySpec(prism=RayPrism(angle=a, min_deviation=dm, minimum=True))
    return _ask(rng, spec, key, mistakes, _plain_text)(
        "The figure shows a ray passing through a prism at minimum deviation; the refracting "
        "angle $A$ and the angle of minimum deviation $\\delta_m$ are marked. The refractive "
        "index of the material of the prism is",
        "At minimum deviation $r = A/2$ and $i = (A + \\delta_m)/2$, so "
        "$\\mu = \\dfrac{\\sin\\frac{A + \\delta_m}{2}}{\\sin\\frac{A}{2}} = "
        f"\\dfrac{{\\sin {num((a + dm) / 2)}^\\circ}}{{\\sin {num(a / 2)}^\\circ}} = {_t(key)}$.",
        (("A", num(a)), ("dm", num(dm))),
    )


PHY = Subject.PHYSICS
EASY, NEAR, REVERSED = Demand(), Demand(near_miss=True), Demand(reversed=True)
TWO, THREE = Demand(steps=2), Demand(steps=3)
MIRROR, LENS, PRISM = "phy-mirror-formula", "phy-lens-formula", "phy-prism"
_TABLE: tuple[tuple[str, str, Demand, Callable[[int], FigureQuestion | None]], ...] = (
    ("concave-mirror-image-distance", MIRROR, EASY, _image_distance("concave_mirror")),
    ("convex-mirror-image-distance", MIRROR, TWO, _image_distance("convex_mirror")),
    ("mirror-magnification", MIRROR, TWO, _mirror_magnification),
    ("concave-mirror-image-position", MIRROR, NEAR, _in_words(mirror=True)),
    ("mirror-object-moved", MIRROR, THREE, _mirror_object_moved),
    ("convex-lens-image-distance", LENS, EASY, _image_distance("convex_lens")),
    ("concave-lens-image-distance", LENS, EASY, _image_distance("concave_lens")),
    ("lens-image-height", LENS, TWO, _lens_image_height),
    ("convex-lens-image-nature", LENS, NEAR, _in_words(mirror=False)),
    ("lens-object-for-magnification", LENS, REVERSED, _lens_object_for_magnification),
    ("lenses-in-contact-power", "phy-power-of-lens", TWO, _lenses_in_contact_power),
    ("two-lenses-final-image-height", LENS, THREE, _two_lenses_final_image_height),
    ("thin-prism-deviation", PRISM, EASY, _thin_prism_deviation),
    ("prism-deviation", PRISM, EASY, _prism_deviation),
    ("prism-refractive-index", PRISM, TWO, _prism_refractive_index),
)
# Difficulty (pipeline.difficulty): image distances, a thin prism's δ = (μ − 1)A and δ = i + e − A
# are one substitution (Easy); R → f then the mirror formula, v then m, P₁ + P₂, and the two
# halves of the minimum-deviation relation are two steps, the object for a given magnification
# is the lens formula reversed, and a nature or position beside options one judgement away is a
# near miss (Medium); a moved object's size ratio (R → f, v, m) and the image of an image through
# two separated lenses (v₁, the new object distance, m₁m₂) chain three steps (Hard).
RAY_TEMPLATES: tuple[FigureTemplate, ...] = tuple(
    FigureTemplate(f"fig-ray-{name}", PHY, topic, demand, draw)
    for name, topic, demand, draw in _TABLE
)
