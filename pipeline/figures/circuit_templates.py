"""Circuit figure templates: DC circuits drawn from a netlist, asking for one quantity.

Every template draws a netlist on a grid (the layout is part of the spec, so the picture is
fixed), works out the key by the textbook route (series/parallel rules, the balance condition,
Millman's theorem for two loops) and builds each distractor from a mistake students make:
series and parallel swapped, the internal resistance ignored, the wrong branch, the ratio
inverted, a cell's polarity flipped. The solver (pipeline.verify.circuit_solver) answers by nodal
analysis of the netlist instead, never by these formulas.

Stems use a small fixed set of phrasings the solver reads: "the equivalent resistance between
A and B", "the current through $R_2$", "the reading of the ideal ammeter", "the potential
difference across $R_2$", "the power dissipated in $R_2$", "the charge on $C_2$", "the energy
stored in $C$", "the value of $X$ for which the galvanometer shows no deflection", "the
balancing length".
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from core.figures.circuit import CircuitPart, CircuitPoint, CircuitSpec, PartKind, value_text
from core.records import QuestionFormat, Subject
from pipeline.difficulty import Demand
from pipeline.figures.templates import FigureQuestion, FigureTemplate
from pipeline.quantities.numbers import round_sig, tex_number

PHY = Subject.PHYSICS
SIG = 3
MIN_SEPARATION = 0.05  # options differ by at least this fraction (as numerical templates')
MAX_FACTOR = 9.5  # every distractor within this factor of the key (the giveaway screen's 10)
OHMS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20)
SMALL_OHMS = (0.5, 1, 1.5, 2)
EMFS = (2, 3, 4.5, 6, 9, 10, 12, 15, 18, 24)
MICROFARADS = (1, 2, 3, 4, 5, 6, 8, 10, 12)
TEX_UNIT = {
    "Ω": r"\Omega",
    "A": r"\mathrm{A}",
    "mA": r"\mathrm{mA}",
    "V": r"\mathrm{V}",
    "W": r"\mathrm{W}",
    "μF": r"\mu\mathrm{F}",
    "μC": r"\mu\mathrm{C}",
    "μJ": r"\mu\mathrm{J}",
    "mJ": r"\mathrm{mJ}",
    "cm": r"\mathrm{cm}",
}
# Display units for a quantity (SI factor), the largest that keeps the key at or above 0.1.
SCALES = {
    "A": (("A", 1.0), ("mA", 1e-3)),
    "V": (("V", 1.0),),
    "Ω": (("Ω", 1.0),),
    "W": (("W", 1.0),),
    "μF": (("μF", 1e-6),),
    "μC": (("μC", 1e-6),),
    "J": (("mJ", 1e-3), ("μJ", 1e-6)),
    "cm": (("cm", 1e-2),),
}


# ── building a netlist ───────────────────────────────────────────────────────────────────────


@dataclass
class Layout:
    """Points and parts, added in drawing order."""

    points: list[CircuitPoint] = field(default_factory=list)
    parts: list[CircuitPart] = field(default_factory=list)

    def at(self, name: str, x: float, y: float, **kw: object) -> str:
        self.points.append(CircuitPoint(name=name, x=x, y=y, **kw))  # type: ignore[arg-type]
        return name

    def add(self, kind: PartKind, a: str, b: str, **kw: object) -> None:
        self.parts.append(CircuitPart(kind=kind, a=a, b=b, **kw))  # type: ignore[arg-type]

    def wire(self, *chain: str) -> None:
        for a, b in itertools.pairwise(chain):
            self.add("wire", a, b)

    def resistor(self, a: str, b: str, name: str, ohms: float | None, **kw: object) -> None:
        self.add("resistor", a, b, name=name, value=ohms, unit="Ω" if ohms else "", **kw)

    def capacitor(self, a: str, b: str, name: str, micro: float, **kw: object) -> None:
        self.add("capacitor", a, b, name=name, value=micro, unit="μF", **kw)

    def cell(self, plus: str, minus: str, name: str, emf: float, **kw: object) -> None:
        self.add("cell", plus, minus, name=name, value=emf, unit="V", **kw)

    def spec(self) -> CircuitSpec:
        return CircuitSpec(points=tuple(self.points), parts=tuple(self.parts))


def sub(name: str) -> str:
    """R2 → R₂ (as the picture prints names)."""
    return name[0] + name[1:].translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def tex(name: str) -> str:
    """R2 → $R_2$ (as stems write names)."""
    return f"${name[0]}_{name[1:]}$" if len(name) > 1 else f"${name}$"


def ohms(x: float) -> str:
    return value_text(x, "Ω")


def series(*rs: float) -> float:
    return sum(rs)


def parallel(*rs: float) -> float:
    return 1 / sum(1 / r for r in rs)


def inv(x: float) -> float:
    """1/x, infinite at 0 (a mistake that divides by zero makes no option)."""
    return 1 / x if x else math.inf


# ── options ──────────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Options:
    options: tuple[str, str, str, str]
    correct: str
    shown: str  # the key as plain text ("2.5 A"), which the alt text must not contain
    slips: tuple[tuple[str, str], ...]  # (option, the mistake behind it)


def numeric_options(
    rng: random.Random,
    key: float,
    mistakes: Sequence[tuple[str, float]],
    quantity: str,
) -> Options | None:
    """The key (SI) and the first three mistakes that make distinct, plausible options."""
    if not (math.isfinite(key) and key > 0):
        return None
    unit, factor = next(
        ((u, f) for u, f in SCALES[quantity] if key / f >= 0.1), SCALES[quantity][-1]
    )
    value = round_sig(key / factor, SIG)
    values, slips = [value], []
    for why, wrong in mistakes:
        if not math.isfinite(wrong) or wrong <= 0:
            continue
        v = round_sig(wrong / factor, SIG)
        if not 1 / MAX_FACTOR <= v / value <= MAX_FACTOR:
            continue
        if all(abs(v - w) > MIN_SEPARATION * max(v, w) for w in values):
            values.append(v)
            slips.append((why, v))
        if len(values) == 4:
            break
    if len(values) < 4:
        return None

    def text(v: float) -> str:
        return f"${tex_number(v, SIG)}\\ {TEX_UNIT[unit]}$"

    order = values[:]
    rng.shuffle(order)
    options = (text(order[0]), text(order[1]), text(order[2]), text(order[3]))
    shown = f"{tex_number(value, SIG)} {unit}"
    return Options(options, text(value), shown, tuple((text(v), why) for why, v in slips))


def question(
    spec: CircuitSpec,
    caption: str,
    alt: str,
    stem: str,
    opts: Options | None,
    method: str,
    params: tuple[tuple[str, str], ...] = (),
) -> FigureQuestion | None:
    """The question, or None when its options fail or its alt text would print the key."""
    if opts is None or opts.shown in alt:
        return None
    explanation = (
        method
        + f" The answer is {opts.correct}.\n\nCommon slips behind the other options: "
        + "; ".join(f"{why} gives {text}" for text, why in opts.slips)
        + "."
    )
    return FigureQuestion(
        spec=spec,
        caption=caption,
        alt=alt,
        format=QuestionFormat.NUMERICAL,
        stem=stem,
        options=opts.options,
        correct=opts.correct,
        explanation=explanation,
        params=params,
    )


def describe(spec: CircuitSpec) -> str:
    """The parts as a screen reader lists them: labels and printed values, no answer."""
    words = {
        "resistor": "resistor",
        "cell": "cell",
        "capacitor": "capacitor",
        "ammeter": "ideal ammeter",
        "voltmeter": "ideal voltmeter",
        "galvanometer": "galvanometer",
        "slide_wire": "uniform wire",
    }
    items = []
    for p in spec.parts:
        if p.kind == "wire":
            continue
        bits = [words[p.kind]]
        if p.label:
            bits.append(p.label)
        if p.internal_label:
            bits.append(f"internal resistance {p.internal_label}")
        if p.kind == "slide_wire":
            bits.append(f"jockey at {p.tap_label}")
        items.append(" ".join(bits))
    terminals = [p.label for p in spec.points if p.label]
    tail = f"; terminals {' and '.join(terminals)} are marked" if terminals else ""
    return "Circuit diagram with " + ", ".join(items) + tail + "."


def _rng(template_id: str, seed: int) -> random.Random:
    return random.Random(f"{template_id}:{seed}")


# ── resistor networks ────────────────────────────────────────────────────────────────────────


def _terminals(lay: Layout, left: tuple[float, float], right: tuple[float, float]) -> None:
    lay.at("A", *left, label="A", side="left")
    lay.at("B", *right, label="B", side="right")


def draw_parallel_three(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-req-parallel-three", seed)
    r = rng.sample(OHMS[1:], 3)
    lay = Layout()
    _terminals(lay, (0, 1), (4.5, 1))
    for i, y in enumerate((2, 1, 0)):
        lay.at(f"l{i}", 1, y)
        lay.at(f"r{i}", 3.5, y)
    lay.wire("A", "l1")
    lay.wire("l0", "l1", "l2")
    lay.wire("r0", "r1", "r2")
    lay.wire("r1", "B")
    for i in range(3):
        lay.resistor(f"l{i}", f"r{i}", sub(f"R{i + 1}"), r[i])
    spec = lay.spec()
    key = parallel(*r)
    opts = numeric_options(
        rng,
        key,
        (
            ("adding the resistances as if they were in series", series(*r)),
            ("leaving out the third branch", parallel(r[0], r[1])),
            ("taking the average of the three resistances", series(*r) / 3),
            ("taking the smallest resistance alone", min(r)),
        ),
        "Ω",
    )
    return question(
        spec,
        "Figure: three resistors between terminals A and B",
        describe(spec),
        "In the circuit shown, the equivalent resistance between A and B is",
        opts,
        "The three resistors join A to B side by side, so they are in parallel: "
        "$\\dfrac{1}{R} = \\dfrac{1}{R_1} + \\dfrac{1}{R_2} + \\dfrac{1}{R_3}$.",
    )


def draw_series_parallel(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-req-series-parallel", seed)
    r1, r2, r3 = rng.sample(OHMS[1:], 3)
    shape = rng.choice(("s+p", "p(s)"))
    lay = Layout()
    if shape == "s+p":  # R1, then R2 ∥ R3
        _terminals(lay, (0, 1), (5, 1))
        lay.at("n", 2, 1)
        lay.at("t0", 2, 2)
        lay.at("b0", 2, 0)
        lay.at("t1", 4, 2)
        lay.at("b1", 4, 0)
        lay.at("m", 4, 1)
        lay.resistor("A", "n", "R₁", r1)
        lay.wire("t0", "n", "b0")
        lay.resistor("t0", "t1", "R₂", r2)
        lay.resistor("b0", "b1", "R₃", r3, side="bottom")
        lay.wire("t1", "m", "b1")
        lay.wire("m", "B")
        key = r1 + parallel(r2, r3)
        slips = (
            ("putting R₁ in parallel with the other two", parallel(r1, r2 + r3)),
            ("adding all three as if in series", r1 + r2 + r3),
            ("leaving out R₁", parallel(r2, r3)),
            ("taking all three in parallel", parallel(r1, r2, r3)),
        )
        method = "$R_2$ and $R_3$ are in parallel, and that pair is in series with $R_1$."
    else:  # (R1 + R2) ∥ R3
        _terminals(lay, (0, 1), (6, 1))
        lay.at("n", 1, 1)
        lay.at("m", 5, 1)
        lay.at("t0", 1, 2)
        lay.at("t1", 3, 2)
        lay.at("t2", 5, 2)
        lay.at("b0", 1, 0)
        lay.at("b1", 5, 0)
        lay.wire("A", "n")
        lay.wire("t0", "n", "b0")
        lay.resistor("t0", "t1", "R₁", r1)
        lay.resistor("t1", "t2", "R₂", r2)
        lay.resistor("b0", "b1", "R₃", r3, side="bottom")
        lay.wire("t2", "m", "b1")
        lay.wire("m", "B")
        key = parallel(r1 + r2, r3)
        slips = (
            ("putting R₂ in parallel with R₃ and then R₁ in series", r1 + parallel(r2, r3)),
            ("adding all three as if in series", r1 + r2 + r3),
            ("taking all three in parallel", parallel(r1, r2, r3)),
            ("leaving out R₂", parallel(r1, r3)),
        )
        method = "$R_1$ and $R_2$ are in series, and that branch is in parallel with $R_3$."
    spec = lay.spec()
    return question(
        spec,
        "Figure: a network of three resistors between terminals A and B",
        describe(spec),
        "In the circuit shown, the equivalent resistance between A and B is",
        numeric_options(rng, key, slips, "Ω"),
        method,
        params=(("shape", shape),),
    )


def draw_balanced_bridge_req(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-req-balanced-bridge", seed)
    p, r = rng.sample((1, 2, 3, 4, 5, 6), 2)
    k = rng.choice((2, 3, 1.5))
    q, s = p * k, r * k
    r5 = rng.choice([x for x in OHMS if x not in (p, q, r, s)])
    lay = Layout()
    _terminals(lay, (-1, 1), (7, 1))
    lay.at("l", 0, 1)
    lay.at("lt", 0, 2)
    lay.at("lb", 0, 0)
    lay.at("mt", 3, 2)
    lay.at("mb", 3, 0)
    lay.at("rt", 6, 2)
    lay.at("rb", 6, 0)
    lay.at("rr", 6, 1)
    lay.wire("A", "l")
    lay.wire("lt", "l", "lb")
    lay.resistor("lt", "mt", "P", p)
    lay.resistor("mt", "rt", "Q", q)
    lay.resistor("lb", "mb", "R", r, side="bottom")
    lay.resistor("mb", "rb", "S", s, side="bottom")
    lay.resistor("mt", "mb", sub("R5"), r5, side="bottom")
    lay.wire("rt", "rr", "rb")
    lay.wire("rr", "B")
    spec = lay.spec()
    key = parallel(p + q, r + s)
    return question(
        spec,
        "Figure: a bridge of five resistors between terminals A and B",
        describe(spec),
        "In the circuit shown, the equivalent resistance between A and B is",
        numeric_options(
            rng,
            key,
            (
                ("taking R₅ as a third branch in parallel", parallel(p + q, r + s, r5)),
                ("adding R₅ in series with the two arms in parallel", key + r5),
                ("adding all four arm resistances in series", p + q + r + s),
                ("taking all four arms in parallel", parallel(p, q, r, s)),
            ),
            "Ω",
        ),
        "$P/Q = R/S$, so the bridge is balanced: the ends of $R_5$ are at the same potential "
        "and no current flows through it. The rest is $(P+Q)$ in parallel with $(R+S)$.",
    )


# ── cells, currents and potential differences ────────────────────────────────────────────────


def _loop(lay: Layout, emf: float, r: float | None, *, name: str = "E") -> None:
    """A cell on the left side of a 4 × 2 loop, positive plate at the top (points c0, c1)."""
    lay.at("c0", 0, 0)
    lay.at("c1", 0, 2)
    lay.cell("c1", "c0", name, emf, internal=r, side="bottom")


def draw_cell_current(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-cell-internal-current", seed)
    emf, r = rng.choice((*EMFS, 1.5, 5, 8, 20)), rng.choice((*SMALL_OHMS, 0.25, 2.5, 3))
    big = rng.choice([x for x in range(1, 25) if 1 < x / r <= 8])
    lay = Layout()
    _loop(lay, emf, r)
    lay.at("t", 4, 2)
    lay.at("b", 4, 0)
    lay.resistor("c1", "t", "R", big)
    lay.add("ammeter", "t", "b", name="A")
    lay.wire("b", "c0")
    spec = lay.spec()
    return question(
        spec,
        "Figure: a cell with internal resistance, a resistor and an ammeter",
        describe(spec),
        "In the circuit shown, the reading of the ideal ammeter is",
        numeric_options(
            rng,
            emf / (big + r),
            (
                ("ignoring the internal resistance, E/R", emf / big),
                ("subtracting the internal resistance, E/(R − r)", emf / (big - r)),
                ("dividing by the internal resistance alone, E/r", emf / r),
            ),
            "A",
        ),
        "The same current flows through the external and the internal resistance: "
        "$I = \\dfrac{E}{R + r}$.",
    )


def draw_terminal_voltage(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-terminal-voltage", seed)
    emf, r = rng.choice((*EMFS, 1.5, 5, 8, 20)), rng.choice((*SMALL_OHMS, 0.25, 2.5, 3))
    big = rng.choice([x for x in range(1, 31) if 1 < x / r <= 12])
    lay = Layout()
    _loop(lay, emf, r)
    lay.at("vt", -2, 2)
    lay.at("vb", -2, 0)
    lay.at("t", 4, 2)
    lay.at("b", 4, 0)
    lay.wire("vt", "c1")
    lay.wire("vb", "c0")
    lay.add("voltmeter", "vt", "vb", name="V")
    lay.wire("c1", "t")
    lay.resistor("t", "b", "R", big, side="bottom")
    lay.wire("b", "c0")
    spec = lay.spec()
    current = emf / (big + r)
    return question(
        spec,
        "Figure: a cell with internal resistance across a resistor, with a voltmeter",
        describe(spec),
        "In the circuit shown, the reading of the ideal voltmeter connected across the cell is",
        numeric_options(
            rng,
            emf - current * r,
            (
                ("ignoring the internal resistance, reading the emf", emf),
                ("giving the drop across the internal resistance, Ir", current * r),
                ("adding the internal drop, as for a cell being charged", emf + current * r),
            ),
            "V",
        ),
        "The current is $I = \\dfrac{E}{R + r}$, and the voltmeter reads the terminal "
        "potential difference $V = E - Ir$.",
    )


def _tee(lay: Layout, r1: float, r2: float, r3: float, emf: float, r: float | None) -> None:
    """A cell (left), R₁ along the top, then R₂ and R₃ in parallel down to the bottom wire."""
    _loop(lay, emf, r)
    lay.at("n", 3, 2)
    lay.at("nb", 3, 0)
    lay.at("f", 5.5, 2)
    lay.at("fb", 5.5, 0)
    lay.resistor("c1", "n", "R₁", r1)
    lay.resistor("n", "nb", "R₂", r2, side="bottom")
    lay.wire("n", "f")
    lay.resistor("f", "fb", "R₃", r3, side="bottom")
    lay.wire("fb", "nb", "c0")


def draw_branch_current(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-branch-current", seed)
    r1, r2, r3 = rng.sample(OHMS[1:], 3)
    emf, r = rng.choice(EMFS), rng.choice(SMALL_OHMS)
    asked = rng.choice((2, 3))
    lay = Layout()
    _tee(lay, r1, r2, r3, emf, r)
    spec = lay.spec()
    total = emf / (r1 + parallel(r2, r3) + r)
    mine, other = (r2, r3) if asked == 2 else (r3, r2)
    key = total * other / (r2 + r3)
    no_r = emf / (r1 + parallel(r2, r3)) * other / (r2 + r3)
    return question(
        spec,
        "Figure: a cell with internal resistance driving three resistors",
        describe(spec),
        f"In the circuit shown, the current through {tex(f'R{asked}')} is",
        numeric_options(
            rng,
            key,
            (
                ("giving the whole current drawn from the cell", total),
                (
                    "splitting the current in the ratio of the resistances, not inversely",
                    total * mine / (r2 + r3),
                ),
                ("ignoring the internal resistance of the cell", no_r),
                ("leaving out the other parallel branch", emf / (r1 + mine + r)),
            ),
            "A",
        ),
        "$R_2$ and $R_3$ are in parallel; with $R_1$ and the internal resistance in series the "
        "cell drives $I = E/(R_1 + R_{23} + r)$, which divides between $R_2$ and $R_3$ in "
        "inverse ratio of their resistances.",
        params=(("asked", f"R{asked}"),),
    )


def draw_series_pd(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-series-pd", seed)
    rs = rng.sample(OHMS[1:], 3)
    emf = rng.choice(EMFS)
    asked = rng.randrange(3)
    lay = Layout()
    _loop(lay, emf, None)
    lay.at("t", 4, 2)
    lay.at("b", 4, 0)
    lay.resistor("c1", "t", "R₁", rs[0])
    lay.resistor("t", "b", "R₂", rs[1], side="bottom")
    lay.resistor("b", "c0", "R₃", rs[2], side="top")
    spec = lay.spec()
    total = sum(rs)
    others = [emf * rs[k] / total for k in range(3) if k != asked]
    return question(
        spec,
        "Figure: a cell and three resistors in series",
        describe(spec),
        f"In the circuit shown, the potential difference across {tex(f'R{asked + 1}')} is",
        numeric_options(
            rng,
            emf * rs[asked] / total,
            (
                ("taking the emf across one resistor, as if they were in parallel", emf),
                ("reading the drop across the next resistor", others[0]),
                ("reading the drop across the other resistor", others[1]),
                ("sharing the emf equally among the resistors", emf / 3),
            ),
            "V",
        ),
        "The same current $I = E/(R_1 + R_2 + R_3)$ flows through all three; the potential "
        "difference across one of them is $IR$.",
        params=(("asked", f"R{asked + 1}"),),
    )


def draw_power_internal(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-power-internal", seed)
    r1, r2 = rng.sample(OHMS[1:], 2)
    emf, r = rng.choice(EMFS), rng.choice(SMALL_OHMS)
    asked = rng.choice((1, 2))
    lay = Layout()
    _loop(lay, emf, r)
    lay.at("t", 4, 2)
    lay.at("b", 4, 0)
    lay.resistor("c1", "t", "R₁", r1)
    lay.resistor("t", "b", "R₂", r2, side="bottom")
    lay.wire("b", "c0")
    spec = lay.spec()
    mine = r1 if asked == 1 else r2
    current = emf / (r1 + r2 + r)
    return question(
        spec,
        "Figure: a cell with internal resistance and two resistors in series",
        describe(spec),
        f"In the circuit shown, the power dissipated in {tex(f'R{asked}')} is",
        numeric_options(
            rng,
            current**2 * mine,
            (
                ("ignoring the internal resistance", (emf / (r1 + r2)) ** 2 * mine),
                ("giving the power in both resistors", current**2 * (r1 + r2)),
                ("giving the power drawn from the cell", emf * current),
                ("putting the whole emf across it, E²/R", emf**2 / mine),
            ),
            "W",
        ),
        "The current is $I = E/(R_1 + R_2 + r)$ and the power in one resistor is $I^2R$.",
        params=(("asked", f"R{asked}"),),
    )


def draw_power_branch(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-power-branch", seed)
    r1, r2, r3 = rng.sample(OHMS[1:], 3)
    emf = rng.choice(EMFS)
    lay = Layout()
    _tee(lay, r1, r2, r3, emf, None)
    spec = lay.spec()
    total = emf / (r1 + parallel(r2, r3))
    i3 = total * r2 / (r2 + r3)
    return question(
        spec,
        "Figure: a cell driving three resistors",
        describe(spec),
        "In the circuit shown, the power dissipated in $R_3$ is",
        numeric_options(
            rng,
            i3**2 * r3,
            (
                ("taking the whole current through R₃", total**2 * r3),
                ("using the current through R₂ instead", (total * r3 / (r2 + r3)) ** 2 * r3),
                ("putting the whole emf across R₃", emf**2 / r3),
                ("taking R₁ in parallel with R₃ only", (emf / (r1 + r3)) ** 2 * r3),
            ),
            "W",
        ),
        "The cell sees $R_1 + R_2R_3/(R_2 + R_3)$; the current it drives splits between $R_2$ "
        "and $R_3$ inversely as their resistances, and the power in $R_3$ is $I_3^2R_3$.",
    )


def draw_cells_series(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-cells-series", seed)
    e1, e2 = rng.sample(EMFS, 2)
    r1, r2 = rng.choice(SMALL_OHMS), rng.choice(SMALL_OHMS)
    big = rng.choice(OHMS[2:])
    aiding = rng.random() < 0.5
    lay = Layout()
    lay.at("c0", 0, 0)
    lay.at("m", 0, 1.5)
    lay.at("c1", 0, 3)
    lay.at("t", 4, 3)
    lay.at("b", 4, 0)
    lay.cell("m", "c0", sub("E1"), e1, internal=r1, internal_name="r₁", side="bottom")
    if aiding:
        lay.cell("c1", "m", sub("E2"), e2, internal=r2, internal_name="r₂", side="bottom")
    else:
        lay.cell("m", "c1", sub("E2"), e2, internal=r2, internal_name="r₂", side="bottom")
    lay.wire("c1", "t")
    lay.resistor("t", "b", "R", big, side="bottom")
    lay.wire("b", "c0")
    spec = lay.spec()
    net = e1 + e2 if aiding else abs(e1 - e2)
    flipped = abs(e1 - e2) if aiding else e1 + e2
    load = big + r1 + r2
    return question(
        spec,
        "Figure: two cells in series with a resistor",
        describe(spec),
        "In the circuit shown, the current through $R$ is",
        numeric_options(
            rng,
            net / load,
            (
                ("combining the emfs with the wrong polarity", flipped / load),
                ("ignoring both internal resistances", net / big),
                ("keeping only the larger cell", max(e1, e2) / (big + (r1 if e1 > e2 else r2))),
            ),
            "A",
        ),
        (
            "The cells are joined + to −, so their emfs add"
            if aiding
            else "The cells face each other (+ to +), so their emfs oppose"
        )
        + "; the internal resistances add to $R$: $I = E_{net}/(R + r_1 + r_2)$.",
        params=(("aiding", str(aiding)),),
    )


def _millman(e1: float, e2: float, r1: float, r2: float, r3: float) -> tuple[float, ...]:
    """Currents through R₁, R₂, R₃ of two cells (+ at the top) feeding a middle resistor."""
    v = (e1 / r1 + e2 / r2) / (1 / r1 + 1 / r2 + 1 / r3)
    return (abs(e1 - v) / r1, abs(e2 - v) / r2, abs(v) / r3)


def draw_kirchhoff(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-kirchhoff-two-cells", seed)
    e1, e2 = rng.sample(EMFS, 2)
    r1, r2, r3 = rng.sample(OHMS[1:], 3)
    s2 = rng.choice((1, -1))
    asked = rng.choice((1, 2, 3))
    lay = Layout()
    lay.at("a0", 0, 0)
    lay.at("a1", 0, 2)
    lay.at("n", 3, 2)
    lay.at("nb", 3, 0)
    lay.at("b1", 6, 2)
    lay.at("b0", 6, 0)
    lay.cell("a1", "a0", sub("E1"), e1, side="bottom")
    if s2 > 0:
        lay.cell("b1", "b0", sub("E2"), e2)
    else:
        lay.cell("b0", "b1", sub("E2"), e2, side="bottom")
    lay.resistor("a1", "n", "R₁", r1)
    lay.resistor("n", "b1", "R₂", r2)
    lay.resistor("n", "nb", "R₃", r3, side="bottom")
    lay.wire("a0", "nb", "b0")
    spec = lay.spec()
    k = asked - 1
    return question(
        spec,
        "Figure: a two-loop network with two cells",
        describe(spec),
        f"In the circuit shown, the current through {tex(f'R{asked}')} is",
        numeric_options(
            rng,
            _millman(e1, s2 * e2, r1, r2, r3)[k],
            (
                (
                    "taking the second cell with the wrong polarity",
                    _millman(e1, -s2 * e2, r1, r2, r3)[k],
                ),
                ("leaving out the second cell", _millman(e1, 0, r1, r2, r3)[k]),
                ("leaving out the first cell", _millman(0, s2 * e2, r1, r2, r3)[k]),
            ),
            "A",
        ),
        "Kirchhoff's junction rule at the top node and the loop rule round each mesh (or the "
        "potential $V$ of the top node from $\\sum (E_k - V)/R_k = V/R_3$) give each current.",
        params=(("asked", f"R{asked}"), ("polarity", str(s2))),
    )


# ── bridges ──────────────────────────────────────────────────────────────────────────────────


def _bridge(
    lay: Layout,
    arms: tuple[tuple[str, float | None], ...],
    emf: float,
    galvanometer: float | None = None,
) -> None:
    """A rectangular Wheatstone bridge: arms P, Q on top, R, S below, G between the middles,
    the cell under it all (positive plate left)."""
    (pn, pv), (qn, qv), (rn, rv), (sn, sv) = arms
    lay.at("lt", 0, 2)
    lay.at("lb", 0, 0)
    lay.at("mt", 3, 2)
    lay.at("mb", 3, 0)
    lay.at("rt", 6, 2)
    lay.at("rb", 6, 0)
    lay.at("cl", 0, -1.5)
    lay.at("cp", 2, -1.5)
    lay.at("cm", 4, -1.5)
    lay.at("cr", 6, -1.5)
    lay.wire("lt", "lb")
    lay.resistor("lt", "mt", pn, pv)
    lay.resistor("mt", "rt", qn, qv)
    lay.resistor("lb", "mb", rn, rv, side="bottom")
    lay.resistor("mb", "rb", sn, sv, side="bottom")
    lay.add(
        "galvanometer", "mt", "mb", name="G", value=galvanometer, unit="Ω" if galvanometer else ""
    )
    lay.wire("rt", "rb")
    lay.wire("lb", "cl", "cp")
    lay.cell("cp", "cm", "E", emf, side="bottom")
    lay.wire("cm", "cr", "rb")


def draw_bridge_unknown(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-wheatstone-unknown", seed)
    p, q, r = rng.sample(OHMS[1:], 3)
    lay = Layout()
    _bridge(lay, (("P", p), ("Q", q), ("R", r), ("X", None)), rng.choice(EMFS))
    spec = lay.spec()
    return question(
        spec,
        "Figure: a Wheatstone bridge with an unknown resistance X",
        describe(spec),
        "In the Wheatstone bridge shown, the value of $X$ for which the galvanometer shows "
        "no deflection is",
        numeric_options(
            rng,
            q * r / p,
            (
                ("inverting the ratio of the arms, X = PR/Q", p * r / q),
                ("pairing the wrong arms, X = PQ/R", p * q / r),
                ("balancing the sums of the arms, X = Q + R − P", q + r - p),
            ),
            "Ω",
        ),
        "At balance $\\dfrac{P}{Q} = \\dfrac{R}{X}$, so $X = \\dfrac{QR}{P}$.",
    )


def draw_bridge_shunt(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-wheatstone-shunt", seed)
    p, q, r = rng.sample(OHMS[1:], 3)
    need = q * r / p
    s = rng.choice([x for x in (*OHMS, 25, 30, 40) if 1.25 * need <= x <= 6 * need] or [0])
    if not s:
        return None
    lay = Layout()
    _bridge(lay, (("P", p), ("Q", q), ("R", r), ("S", s)), rng.choice(EMFS))
    lay.at("xl", 3, -0.75)
    lay.at("xr", 6, -0.75)
    lay.wire("mb", "xl")
    lay.resistor("xl", "xr", "X", None, side="bottom")
    lay.wire("xr", "rb")
    spec = lay.spec()
    return question(
        spec,
        "Figure: a Wheatstone bridge with a resistance X across the arm S",
        describe(spec),
        "In the Wheatstone bridge shown, the value of $X$ for which the galvanometer shows "
        "no deflection is",
        numeric_options(
            rng,
            inv(1 / need - 1 / s),
            (
                ("giving the arm's balancing value without the parallel step", need),
                ("putting X in series with S", abs(s - need)),
                ("inverting the balance ratio first", inv(abs(1 / (p * r / q) - 1 / s))),
            ),
            "Ω",
        ),
        "Balance needs the lower-right arm to be $QR/P$; $X$ in parallel with $S$ must make "
        "that: $\\dfrac{1}{X} = \\dfrac{P}{QR} - \\dfrac{1}{S}$.",
    )


def draw_bridge_galvanometer(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-wheatstone-galvanometer", seed)
    p, q, r, s = rng.sample(OHMS[1:], 4)
    if abs(p * s - q * r) < 0.2 * p * s:
        return None
    g = rng.choice((5, 10, 15, 20, 25, 40, 50))
    emf = rng.choice(EMFS)
    lay = Layout()
    _bridge(lay, (("P", p), ("Q", q), ("R", r), ("S", s)), emf, galvanometer=g)
    spec = lay.spec()
    # Thevenin at the galvanometer (the cell is ideal): the open-circuit difference of the
    # middle potentials, behind P∥Q in series with R∥S.
    v_open = abs(emf * q / (p + q) - emf * s / (r + s))
    r_th = parallel(p, q) + parallel(r, s)
    return question(
        spec,
        "Figure: an unbalanced Wheatstone bridge",
        describe(spec),
        "In the Wheatstone bridge shown, the current through the galvanometer is",
        numeric_options(
            rng,
            v_open / (r_th + g),
            (
                ("dividing the open-circuit potential difference by G alone", v_open / g),
                ("ignoring the galvanometer's resistance", v_open / r_th),
                (
                    "taking the difference of the two arm currents",
                    abs(emf / (p + q) - emf / (r + s)),
                ),
                ("adding all four arms to G", v_open / (p + q + r + s + g)),
            ),
            "A",
        ),
        "With G removed the middle points differ by $V_0 = E\\left|\\dfrac{Q}{P+Q} - "
        "\\dfrac{S}{R+S}\\right|$; the bridge seen from G is $P\\parallel Q + R\\parallel S$, "
        "so $I_G = V_0/(R_{th} + G)$ (or Kirchhoff's laws on the three meshes).",
    )


def _metre_bridge(
    lay: Layout,
    left: tuple[str, float | None],
    right: tuple[str, float] | None,
    emf: float,
    tap_x: float,
    tap_value: float | None,
) -> None:
    """The metre bridge: the wire A–C below, the two gaps above (the right one left to the
    caller when `right` is None), G from the middle strip to the jockey, the cell under it."""
    lay.at("A", 0, 0, label="A", side="top")
    lay.at("C", 6, 0, label="C", side="top")
    lay.at("j", tap_x, 0)
    lay.at("gl", 0, 2)
    lay.at("g1", 2.5, 2)
    lay.at("D", 3, 2)
    lay.at("g2", 3.5, 2)
    lay.at("gr", 6, 2)
    lay.at("el", -0.75, 0)
    lay.at("eb", -0.75, -1.75)
    lay.at("ep", 2, -1.75)
    lay.at("em", 4, -1.75)
    lay.at("fb", 6.75, -1.75)
    lay.at("fr", 6.75, 0)
    lay.wire("A", "gl")
    lay.resistor("gl", "g1", left[0], left[1])
    lay.wire("g1", "D", "g2")
    if right is not None:
        lay.resistor("g2", "gr", right[0], right[1])
    lay.wire("gr", "C")
    lay.add("galvanometer", "D", "j", name="G")
    lay.add("slide_wire", "A", "C", value=100, unit="cm", tap="j", tap_value=tap_value)
    lay.wire("A", "el", "eb", "ep")
    lay.cell("ep", "em", "E", emf, side="bottom")
    lay.wire("em", "fb", "fr", "C")


def draw_metre_bridge_length(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-metre-bridge-length", seed)
    r, s1, s2 = rng.sample(OHMS[1:], 3)
    joined = rng.choice(("series", "parallel"))
    right = s1 + s2 if joined == "series" else parallel(s1, s2)
    other = parallel(s1, s2) if joined == "series" else s1 + s2
    lay = Layout()
    _metre_bridge(lay, ("R", r), None, rng.choice(EMFS[:6]), 3, None)
    # the right gap: S₁ and S₂ in series along the strip, or S₂ in parallel above S₁
    if joined == "series":
        lay.at("g3", 4.75, 2)
        lay.resistor("g2", "g3", "S₁", s1)
        lay.resistor("g3", "gr", "S₂", s2)
    else:
        lay.at("h1", 3.5, 3)
        lay.at("h2", 6, 3)
        lay.resistor("g2", "gr", "S₁", s1, side="bottom")
        lay.wire("g2", "h1")
        lay.resistor("h1", "h2", "S₂", s2)
        lay.wire("h2", "gr")
    spec = lay.spec()
    key = 100 * r / (r + right)
    return question(
        spec,
        "Figure: a metre bridge with R in the left gap and two resistors in the right gap",
        describe(spec),
        "In the metre bridge shown, the balancing length $l$ measured from the end A is",
        numeric_options(
            rng,
            key / 100,
            (
                ("measuring from the end C", (100 - key) / 100),
                (
                    f"combining S₁ and S₂ in {'parallel' if joined == 'series' else 'series'}",
                    r / (r + other),
                ),
                ("leaving out S₂", r / (r + s1)),
            ),
            "cm",
        ),
        f"$S_1$ and $S_2$ are in {joined}, giving the right gap $S$; at balance "
        "$\\dfrac{R}{S} = \\dfrac{l}{100 - l}$, so $l = \\dfrac{100R}{R + S}$ cm.",
        params=(("joined", joined),),
    )


def draw_metre_bridge_unknown(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-metre-bridge-unknown", seed)
    r = rng.choice(OHMS[1:])
    length = rng.choice((*range(25, 76, 5), 32.5, 37.5, 42.5, 57.5, 62.5, 67.5))
    if length == 50:
        return None
    lay = Layout()
    _metre_bridge(lay, ("X", None), ("R", r), rng.choice(EMFS[:6]), 6 * length / 100, length)
    spec = lay.spec()
    return question(
        spec,
        "Figure: a metre bridge with an unknown resistance X, balanced",
        describe(spec),
        "In the metre bridge shown, the jockey is at the balance point. The value of $X$ for "
        "which the galvanometer shows no deflection at that point is",
        numeric_options(
            rng,
            r * length / (100 - length),
            (
                ("inverting the ratio of the lengths", r * (100 - length) / length),
                ("taking X/R = l/100", r * length / 100),
                ("taking X/R = 100/(100 − l)", r * 100 / (100 - length)),
            ),
            "Ω",
        ),
        "At balance $\\dfrac{X}{R} = \\dfrac{l}{100 - l}$ (the wire's resistance is "
        "proportional to its length).",
        params=(("length", str(length)),),
    )


# ── capacitors ───────────────────────────────────────────────────────────────────────────────


def draw_ceq_series_three(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-ceq-series-three", seed)
    c = rng.sample((*MICROFARADS, 1.5, 2.5, 15, 20), 3)
    lay = Layout()
    _terminals(lay, (0, 0), (7.5, 0))
    lay.at("m1", 2.5, 0)
    lay.at("m2", 5, 0)
    lay.capacitor("A", "m1", "C₁", c[0])
    lay.capacitor("m1", "m2", "C₂", c[1])
    lay.capacitor("m2", "B", "C₃", c[2])
    spec = lay.spec()
    cs = [x * 1e-6 for x in c]
    return question(
        spec,
        "Figure: three capacitors between terminals A and B",
        describe(spec),
        "In the circuit shown, the equivalent capacitance between A and B is",
        numeric_options(
            rng,
            parallel(*cs),
            (
                ("adding the capacitances, as for capacitors in parallel", sum(cs)),
                ("leaving out the third capacitor", parallel(cs[0], cs[1])),
                ("taking the average capacitance", sum(cs) / 3),
                ("taking the smallest capacitance alone", min(cs)),
            ),
            "μF",
        ),
        "The capacitors are in series: $\\dfrac{1}{C} = \\dfrac{1}{C_1} + \\dfrac{1}{C_2} + "
        "\\dfrac{1}{C_3}$.",
    )


def _cap_tee(lay: Layout, c: Sequence[float], shape: str, emf: float | None) -> None:
    """C₁ then C₂ ∥ C₃ ("s+p"), or C₁ ∥ (C₂ then C₃) ("p(s)"), between A and B or across a
    battery."""
    if emf is None:
        _terminals(lay, (0, 1), (6, 1))
        left, right = "A", "B"
    else:
        lay.at("L", 0, 1)
        lay.at("R", 6, 1)
        lay.at("bl", 0, -1)
        lay.at("bp", 2, -1)
        lay.at("bm", 4, -1)
        lay.at("br", 6, -1)
        lay.wire("L", "bl", "bp")
        lay.cell("bp", "bm", "", emf, side="bottom")
        lay.wire("bm", "br", "R")
        left, right = "L", "R"
    if shape == "s+p":
        lay.at("n", 2, 1)
        lay.at("t0", 2, 2)
        lay.at("b0", 2, 0)
        lay.at("t1", 5, 2)
        lay.at("b1", 5, 0)
        lay.at("m", 5, 1)
        lay.capacitor(left, "n", "C₁", c[0])
        lay.wire("t0", "n", "b0")
        lay.capacitor("t0", "t1", "C₂", c[1])
        lay.capacitor("b0", "b1", "C₃", c[2], side="bottom")
        lay.wire("t1", "m", "b1")
        lay.wire("m", right)
    else:
        lay.at("n", 1, 1)
        lay.at("m", 5, 1)
        lay.at("t0", 1, 2)
        lay.at("t1", 5, 2)
        lay.at("b0", 1, 0)
        lay.at("b1", 3, 0)
        lay.at("b2", 5, 0)
        lay.wire(left, "n")
        lay.wire("t0", "n", "b0")
        lay.capacitor("t0", "t1", "C₁", c[0])
        lay.capacitor("b0", "b1", "C₂", c[1], side="bottom")
        lay.capacitor("b1", "b2", "C₃", c[2], side="bottom")
        lay.wire("t1", "m", "b2")
        lay.wire("m", right)


def draw_ceq_network(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-ceq-network", seed)
    c = [x * 1e-6 for x in rng.sample(MICROFARADS, 3)]
    shape = rng.choice(("s+p", "p(s)"))
    lay = Layout()
    _cap_tee(lay, [x * 1e6 for x in c], shape, None)
    spec = lay.spec()
    if shape == "s+p":
        key = parallel(c[0], c[1] + c[2])
        swapped = c[0] + parallel(c[1], c[2])
        missing = c[1] + c[2]
        method = "$C_2$ and $C_3$ are in parallel ($C_2 + C_3$), and that pair is in series with "
        method += "$C_1$."
    else:
        key = c[0] + parallel(c[1], c[2])
        swapped = parallel(c[0], c[1] + c[2])
        missing = parallel(c[1], c[2])
        method = "$C_2$ and $C_3$ are in series, and that branch is in parallel with $C_1$."
    return question(
        spec,
        "Figure: a network of three capacitors between terminals A and B",
        describe(spec),
        "In the circuit shown, the equivalent capacitance between A and B is",
        numeric_options(
            rng,
            key,
            (
                ("combining the capacitors by the rules for resistors", swapped),
                ("adding all three as if in parallel", sum(c)),
                ("taking all three in series", parallel(*c)),
                ("leaving out C₁", missing),
            ),
            "μF",
        ),
        method,
        params=(("shape", shape),),
    )


def draw_cap_charge(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-cap-charge", seed)
    micro = rng.sample(MICROFARADS, 3)
    c = [x * 1e-6 for x in micro]
    emf = rng.choice(EMFS)
    asked = rng.choice((2, 3))
    lay = Layout()
    _cap_tee(lay, micro, "s+p", emf)
    spec = lay.spec()
    total = emf * parallel(c[0], c[1] + c[2])
    mine, other = (c[1], c[2]) if asked == 2 else (c[2], c[1])
    v_pair = total / (c[1] + c[2])
    return question(
        spec,
        "Figure: three capacitors connected to a battery",
        describe(spec),
        f"In the circuit shown, once the capacitors are fully charged, the charge on "
        f"{tex(f'C{asked}')} is",
        numeric_options(
            rng,
            mine * v_pair,
            (
                ("giving the charge on C₁ (the whole charge drawn)", total),
                ("putting the battery's whole voltage across it", mine * emf),
                ("giving the charge on the other capacitor of the pair", other * v_pair),
                ("splitting the voltage as resistors would", mine * emf * c[0] / sum(c)),
            ),
            "μC",
        ),
        "$C_2 \\parallel C_3$ in series with $C_1$ gives $C_{eq}$; the battery puts "
        "$Q = C_{eq}V$ on $C_1$ and on the pair, whose voltage $Q/(C_2 + C_3)$ charges each "
        "of $C_2$ and $C_3$ in proportion to its capacitance.",
        params=(("asked", f"C{asked}"),),
    )


def draw_cap_voltage(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-cap-voltage", seed)
    c1, c2 = rng.sample(MICROFARADS, 2)
    emf = rng.choice(EMFS)
    asked = rng.choice((1, 2))
    lay = Layout()
    lay.at("L", 0, 1)
    lay.at("m", 3, 1)
    lay.at("R", 6, 1)
    lay.at("bl", 0, -0.5)
    lay.at("bp", 2, -0.5)
    lay.at("bm", 4, -0.5)
    lay.at("br", 6, -0.5)
    lay.capacitor("L", "m", "C₁", c1)
    lay.capacitor("m", "R", "C₂", c2)
    lay.wire("L", "bl", "bp")
    lay.cell("bp", "bm", "", emf, side="bottom")
    lay.wire("bm", "br", "R")
    spec = lay.spec()
    mine, other = (c1, c2) if asked == 1 else (c2, c1)
    return question(
        spec,
        "Figure: two capacitors in series with a battery",
        describe(spec),
        f"In the circuit shown, once the capacitors are fully charged, the potential difference "
        f"across {tex(f'C{asked}')} is",
        numeric_options(
            rng,
            emf * other / (c1 + c2),
            (
                ("sharing the voltage in proportion to the capacitances", emf * mine / (c1 + c2)),
                ("sharing the voltage equally", emf / 2),
                ("putting the whole battery voltage across it", emf),
            ),
            "V",
        ),
        "In series both capacitors carry the same charge $Q = C_{eq}V$, so the one with the "
        "smaller capacitance takes the larger share: $V_1 = Q/C_1 = V\\dfrac{C_2}{C_1 + C_2}$.",
        params=(("asked", f"C{asked}"),),
    )


def draw_cap_steady_energy(seed: int) -> FigureQuestion | None:
    rng = _rng("fig-circ-cap-steady-energy", seed)
    r1, r2 = rng.sample(OHMS[1:], 2)
    emf, r = rng.choice(EMFS), rng.choice(SMALL_OHMS)
    micro = rng.choice(MICROFARADS)
    cap = micro * 1e-6
    lay = Layout()
    _loop(lay, emf, r)
    lay.at("t", 3, 2)
    lay.at("b", 3, 0)
    lay.at("ct", 5.5, 2)
    lay.at("cb", 5.5, 0)
    lay.resistor("c1", "t", "R₁", r1)
    lay.resistor("t", "b", "R₂", r2, side="bottom")
    lay.wire("t", "ct")
    lay.capacitor("ct", "cb", "C", micro, side="bottom")
    lay.wire("cb", "b", "c0")
    spec = lay.spec()
    v2 = emf * r2 / (r1 + r2 + r)
    return question(
        spec,
        "Figure: a cell, two resistors and a capacitor across one of them",
        describe(spec),
        "In the circuit shown, in the steady state, the energy stored in the capacitor $C$ is",
        numeric_options(
            rng,
            cap * v2**2 / 2,
            (
                ("ignoring the internal resistance", cap * (emf * r2 / (r1 + r2)) ** 2 / 2),
                ("putting the whole emf across the capacitor", cap * emf**2 / 2),
                ("taking the drop across R₁ instead", cap * (emf * r1 / (r1 + r2 + r)) ** 2 / 2),
                ("dropping the ½ in the energy", cap * v2**2),
            ),
            "J",
        ),
        "In the steady state no current flows into the capacitor, so $I = E/(R_1 + R_2 + r)$; "
        "the capacitor has the potential difference $IR_2$ across $R_2$ and stores "
        "$\\tfrac{1}{2}C(IR_2)^2$.",
    )


# ── the templates ────────────────────────────────────────────────────────────────────────────


def _t(
    template_id: str, topic: str, demand: Demand, draw: Callable[[int], FigureQuestion | None]
) -> FigureTemplate:
    return FigureTemplate(template_id, PHY, topic, demand, draw)


SERIES_PARALLEL = "phy-resistors-in-series-and-parallel"
CELLS = "phy-emf-and-internal-resistance"
BRIDGE = "phy-wheatstone-bridge"
CAPACITORS = "phy-capacitors-in-series-and-parallel"

CIRCUIT_TEMPLATES: tuple[FigureTemplate, ...] = (
    # one relation: 1/R = Σ 1/Rᵢ
    _t("fig-circ-req-parallel-three", SERIES_PARALLEL, Demand(), draw_parallel_three),
    # parallel pair, then series (or series pair, then parallel)
    _t("fig-circ-req-series-parallel", SERIES_PARALLEL, Demand(steps=2), draw_series_parallel),
    # balance recognised (P/Q = R/S, no current in R₅), then the series-parallel reduction
    _t(
        "fig-circ-req-balanced-bridge",
        BRIDGE,
        Demand(steps=2, concepts=2),
        draw_balanced_bridge_req,
    ),
    # one substitution: I = E/(R + r)
    _t("fig-circ-cell-internal-current", CELLS, Demand(), draw_cell_current),
    # the current, then V = E − Ir
    _t("fig-circ-terminal-voltage", CELLS, Demand(steps=2), draw_terminal_voltage),
    # equivalent resistance, total current, then the current divider
    _t("fig-circ-branch-current", SERIES_PARALLEL, Demand(steps=3), draw_branch_current),
    # the series current, then V = IR
    _t("fig-circ-series-pd", "phy-ohms-law", Demand(steps=2), draw_series_pd),
    # the current, then P = I²R
    _t("fig-circ-power-internal", "phy-electrical-power", Demand(steps=2), draw_power_internal),
    # equivalent resistance, current, divider, then P = I²R
    _t(
        "fig-circ-power-branch",
        "phy-electrical-power",
        Demand(steps=3, concepts=2),
        draw_power_branch,
    ),
    # net emf and net internal resistance, then the current
    _t("fig-circ-cells-series", "phy-combination-of-cells", Demand(steps=2), draw_cells_series),
    # junction rule, two loop rules solved together
    _t(
        "fig-circ-kirchhoff-two-cells",
        "phy-kirchhoffs-laws",
        Demand(steps=3, concepts=2),
        draw_kirchhoff,
    ),
    # the balance condition solved for one arm
    _t("fig-circ-wheatstone-unknown", BRIDGE, Demand(reversed=True), draw_bridge_unknown),
    # the balance condition for the arm, then a parallel combination solved backwards
    _t(
        "fig-circ-wheatstone-shunt",
        BRIDGE,
        Demand(steps=2, concepts=2, reversed=True),
        draw_bridge_shunt,
    ),
    # open-circuit potentials of the two dividers, the bridge's resistance seen from G, then
    # the current (Thevenin), or three mesh equations
    _t(
        "fig-circ-wheatstone-galvanometer",
        BRIDGE,
        Demand(steps=3, concepts=2),
        draw_bridge_galvanometer,
    ),
    # the right gap's combination, then the balance condition solved for l
    _t(
        "fig-circ-metre-bridge-length",
        BRIDGE,
        Demand(steps=2, reversed=True),
        draw_metre_bridge_length,
    ),
    # the balance condition solved for X
    _t(
        "fig-circ-metre-bridge-unknown",
        "phy-expt-metre-bridge",
        Demand(reversed=True),
        draw_metre_bridge_unknown,
    ),
    # one relation: 1/C = Σ 1/Cᵢ
    _t("fig-circ-ceq-series-three", CAPACITORS, Demand(), draw_ceq_series_three),
    # parallel pair, then series (or series pair, then parallel)
    _t("fig-circ-ceq-network", CAPACITORS, Demand(steps=2), draw_ceq_network),
    # equivalent capacitance, charge Q = C_eq V, voltage across the pair, its charge
    _t("fig-circ-cap-charge", CAPACITORS, Demand(steps=3), draw_cap_charge),
    # series charge, then V = Q/C
    _t("fig-circ-cap-voltage", CAPACITORS, Demand(steps=2), draw_cap_voltage),
    # no current into the capacitor; the current; the drop across R₂; ½CV²
    _t(
        "fig-circ-cap-steady-energy",
        "phy-energy-stored-in-capacitor",
        Demand(steps=3, concepts=3),
        draw_cap_steady_energy,
    ),
)
