"""The circuit figures' solver: modified nodal analysis (MNA) of the netlist the picture shows.

It reads WHAT is asked from the stem (a small fixed set of phrasings, `ASKS`), builds the
netlist from the spec (wires merge points into nodes; a cell is an ideal source behind its
internal resistance; ideal ammeters and galvanometers are 0 V sources whose current is read;
ideal voltmeters are open), solves the node equations with numpy, and picks the one option
within 1 % of the result. It never uses series/parallel formulas: an equivalent resistance is the
voltage across the terminals when 1 A is driven through them; an equivalent capacitance the same
on the network whose "conductances" are the capacitances (charge plays current's part); a value
that balances a bridge is the root, found by bisection, of the galvanometer's current; a metre
bridge's balancing length is where the wire's potential equals that of the galvanometer's far end.

Capacitors at DC carry no current, but the nodes between them still hold a potential: each gets
a leak conductance `LEAK` × C/C_max × G_max, so a node reached only through capacitors settles
where its net charge is zero (what KCL on the leaks says) while the leak changes a resistive
node's potential by about LEAK. Own MNA, not lcapy: lcapy's exact sympy analysis agrees with this
one to 1e-11 but takes 15 to 25 ms a circuit against 0.04 ms (`python -m bench.figures_circuit`,
300 to 600×), and the tests solve thousands of circuits, a bridge balance sixty of them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from core.figures import CircuitSpec
from core.figures.circuit import CircuitPart
from core.records import OPTION_KEYS, OptionKey, SolverAnswer, SolverView
from pipeline.quantities.numbers import number_and_unit
from pipeline.quantities.units import UnknownUnitError, same_dimension, si_factor
from pipeline.verify.figure_solve import FIGURE_SOLVER, FigureSolve

TOLERANCE = 0.01
LEAK = 1e-7
GMIN = 1e-12
# The metre bridge wire's resistance: a student never knows it, and no balance depends on it.
WIRE_OHMS = 1.0
UNIT_SI = {
    "Ω": 1.0,
    "kΩ": 1e3,
    "V": 1.0,
    "A": 1.0,
    "mA": 1e-3,
    "F": 1.0,
    "μF": 1e-6,
    "nF": 1e-9,
    "pF": 1e-12,
    "cm": 1e-2,
    "m": 1.0,
}
# What each asked quantity is measured in (TeX, as options print units).
DIMENSION = {
    "req": r"\Omega",
    "ceq": r"\mathrm{F}",
    "current": r"\mathrm{A}",
    "voltage": r"\mathrm{V}",
    "power": r"\mathrm{W}",
    "charge": r"\mathrm{C}",
    "energy": r"\mathrm{J}",
    "balance_value": r"\Omega",
    "balance_length": r"\mathrm{m}",
}
_NAME = r"([^\s,.?;:]+)"
_TERMINALS = r"between (?:the )?(?:points |terminals )?(\w) and (\w)\b"
# (what is asked, its pattern); the first that matches the stem is the question.
ASKS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (what, re.compile(pattern))
    for what, pattern in (
        ("req", "equivalent resistance " + _TERMINALS),
        ("ceq", "equivalent capacitance " + _TERMINALS),
        ("balance_length", r"(balancing length)"),
        ("balance_value", rf"value of (?:the )?(?:resistance )?{_NAME} for which"),
        ("ammeter", r"reading of the (?:ideal )?(ammeter)"),
        ("voltmeter", r"reading of the (?:ideal )?(voltmeter)"),
        ("terminal", r"terminal potential difference of the (cell|battery)"),
        ("cell_current", r"current drawn from the (cell|battery)"),
        ("current", rf"current (?:through|in) (?:the )?(?:resistor )?{_NAME}"),
        ("voltage", rf"potential difference across (?:the )?(?:resistor |capacitor )?{_NAME}"),
        ("power", rf"power dissipated in (?:the )?(?:resistor )?{_NAME}"),
        ("charge", rf"charge on (?:the )?(?:capacitor )?{_NAME}"),
        ("energy", rf"energy stored in (?:the )?(?:capacitor )?{_NAME}"),
    )
)
_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_KIND_WORDS = {
    "galvanometer": "galvanometer",
    "ammeter": "ammeter",
    "voltmeter": "voltmeter",
    "cell": "cell",
    "battery": "cell",
    "capacitor": "capacitor",
}


class Unsolvable(ValueError):
    """The stem asks something the solver cannot read, or the netlist cannot be solved."""


def plain_stem(markdown: str) -> str:
    """The stem with its math written as the picture writes names: `$R_2$` → R₂."""

    def math(m: re.Match[str]) -> str:
        text = re.sub(r"\\mathrm\{([^}]*)\}", r"\1", m.group(1))
        text = re.sub(r"_\{?(\d+)\}?", lambda s: s.group(1).translate(_SUBSCRIPT), text)
        return text.replace(r"\,", " ").replace(r"\ ", " ").replace("\\", "")

    return " ".join(re.sub(r"\$([^$]+)\$", math, markdown).split())


def si(value: float, unit: str) -> float:
    if unit not in UNIT_SI:
        raise Unsolvable(f"unknown unit {unit!r} in the figure")
    return value * UNIT_SI[unit]


# ── the netlist ──────────────────────────────────────────────────────────────────────────────


@dataclass
class Netlist:
    """Nodes (points merged by wires) and the MNA elements between them."""

    node_of: dict[str, int]
    count: int
    conductances: list[tuple[int, int, float]] = field(default_factory=list)
    sources: list[tuple[int, int, float]] = field(default_factory=list)  # (plus, minus, emf)
    injections: list[tuple[int, float]] = field(default_factory=list)  # (node, amperes in)
    source_of: dict[int, int] = field(default_factory=dict)  # part index → its source row

    def new_node(self) -> int:
        self.count += 1
        return self.count - 1


@dataclass(frozen=True)
class Solution:
    potentials: np.ndarray
    source_currents: np.ndarray  # through each source from plus to minus inside the circuit


def nodes(spec: CircuitSpec) -> tuple[dict[str, int], int]:
    """Points merged into nodes by the drawn wires (union-find), numbered from 0."""
    parent = {p.name: p.name for p in spec.points}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for part in spec.parts:
        if part.kind == "wire":
            parent[root(part.a)] = root(part.b)
    numbers: dict[str, int] = {}
    node_of = {}
    for p in spec.points:
        node_of[p.name] = numbers.setdefault(root(p.name), len(numbers))
    return node_of, len(numbers)


def netlist(
    spec: CircuitSpec,
    *,
    values: dict[int, float] | None = None,
    capacitance: bool = False,
    quiet: bool = False,
    open_parts: frozenset[int] = frozenset(),
    open_taps: bool = False,
) -> Netlist:
    """The MNA elements of the spec.

    values: SI values put in for parts (an unknown resistance being tried);
    capacitance: the capacitor network alone, each capacitance a conductance (for C_eq);
    quiet: every cell's emf set to zero (its internal resistance stays), for R_eq;
    open_parts: parts left out (a galvanometer removed); open_taps: a slide wire not touched.
    """
    values = values or {}
    node_of, count = nodes(spec)
    net = Netlist(node_of, count)
    caps = [si(p.value, p.unit) for p in spec.parts if p.kind == "capacitor" and p.value]
    cmax = max(caps, default=1.0)
    gmax = max(
        (1 / si(p.value, p.unit) for p in spec.parts if p.kind == "resistor" and p.value),
        default=1.0,
    )
    for i, part in enumerate(spec.parts):
        if i in open_parts or part.kind in ("wire", "voltmeter"):
            continue
        a, b = node_of[part.a], node_of[part.b]
        value = values.get(i)
        if value is None and part.value is not None:
            value = si(part.value, part.unit)
        if capacitance:
            if part.kind == "capacitor" and value:
                net.conductances.append((a, b, value / cmax))
            continue
        if part.kind == "resistor":
            if not value:
                raise Unsolvable(f"{part.name or 'a resistor'} has no value")
            net.conductances.append((a, b, 1 / value))
        elif part.kind == "capacitor":
            net.conductances.append((a, b, LEAK * gmax * (value or 0) / cmax))
        elif part.kind in ("ammeter", "galvanometer") and value:
            net.conductances.append((a, b, 1 / value))
        elif part.kind in ("ammeter", "galvanometer"):
            net.source_of[i] = len(net.sources)
            net.sources.append((a, b, 0.0))
        elif part.kind == "cell":
            plus = a
            if part.internal:
                plus = net.new_node()
                net.conductances.append((plus, a, 1 / part.internal))
            net.source_of[i] = len(net.sources)
            net.sources.append((plus, b, 0.0 if quiet else (value or 0.0)))
        elif part.kind == "slide_wire":
            length = part.value or 1.0
            tap = node_of[part.tap]
            if open_taps or part.tap_value is None:
                net.conductances.append((a, b, 1 / WIRE_OHMS))
            else:
                share = part.tap_value / length
                net.conductances.append((a, tap, 1 / (WIRE_OHMS * share)))
                net.conductances.append((tap, b, 1 / (WIRE_OHMS * (1 - share))))
    return net


def solve(net: Netlist) -> Solution:
    """Node potentials (node 0 at zero) and source currents of the netlist."""
    n, m = net.count, len(net.sources)
    size = n - 1 + m
    a = np.zeros((size, size))
    z = np.zeros(size)
    scale = max((g for _, _, g in net.conductances), default=1.0)

    def row(node: int) -> int | None:
        return None if node == 0 else node - 1

    for node in range(1, n):
        a[node - 1, node - 1] += GMIN * scale
    for p, q, g in net.conductances:
        rp, rq = row(p), row(q)
        if rp is not None:
            a[rp, rp] += g
        if rq is not None:
            a[rq, rq] += g
        if rp is not None and rq is not None:
            a[rp, rq] -= g
            a[rq, rp] -= g
    for k, (p, q, emf) in enumerate(net.sources):
        col = n - 1 + k
        rp, rq = row(p), row(q)
        if rp is not None:
            a[rp, col] += 1
            a[col, rp] += 1
        if rq is not None:
            a[rq, col] -= 1
            a[col, rq] -= 1
        z[col] = emf
    for node, amps in net.injections:
        if (r := row(node)) is not None:
            z[r] += amps
    try:
        x = np.linalg.solve(a, z)
    except np.linalg.LinAlgError as err:
        raise Unsolvable(f"singular circuit: {err}") from err
    potentials = np.concatenate(([0.0], x[: n - 1]))
    # MNA's unknown is the current into the source's plus terminal from the circuit.
    return Solution(potentials, -x[n - 1 :])


# ── what is asked ────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Reading:
    """The asked quantity's value (SI) and its dimension key, and what was read to get it."""

    value: float
    what: str
    used: tuple[str, ...]


def _part_named(spec: CircuitSpec, token: str) -> int:
    named = [i for i, p in enumerate(spec.parts) if p.name and p.name == token]
    if len(named) == 1:
        return named[0]
    kind = _KIND_WORDS.get(token.lower())
    of_kind = [i for i, p in enumerate(spec.parts) if kind and p.kind == kind]
    if len(of_kind) == 1:
        return of_kind[0]
    raise Unsolvable(f"no single part is {token!r}")


def _terminal(spec: CircuitSpec, label: str) -> str:
    found = [p.name for p in spec.points if p.label == label]
    if len(found) != 1:
        raise Unsolvable(f"no single terminal {label!r}")
    return found[0]


def _shown(spec: CircuitSpec, *, capacitance: bool = False) -> tuple[str, ...]:
    """Every name and value the analysis reads off the picture, as printed."""
    used: list[str] = []
    for part in spec.parts:
        if capacitance and part.kind != "capacitor":
            continue
        if part.kind in ("ammeter", "voltmeter", "galvanometer"):
            used.append({"ammeter": "A", "voltmeter": "V", "galvanometer": "G"}[part.kind])
        elif part.name:
            used.append(part.name)
        if part.shown_value:
            used.append(part.shown_value)
        used += [t for t in (part.internal_label, part.tap_label) if t]
    return tuple(dict.fromkeys(used))


def _current(spec: CircuitSpec, sol: Solution, net: Netlist, i: int) -> float:
    part = spec.parts[i]
    if i in net.source_of:
        return abs(float(sol.source_currents[net.source_of[i]]))
    drop = _drop(sol, net, part)
    if part.kind == "capacitor" or part.kind == "voltmeter":
        return 0.0
    value = part.value
    if value is None:
        raise Unsolvable(f"{part.name} has no value")
    return drop / si(value, part.unit)


def _drop(sol: Solution, net: Netlist, part: CircuitPart) -> float:
    return abs(float(sol.potentials[net.node_of[part.a]] - sol.potentials[net.node_of[part.b]]))


def _between(spec: CircuitSpec, x: str, y: str, *, capacitance: bool) -> float:
    net = netlist(spec, capacitance=capacitance, quiet=True)
    a, b = net.node_of[_terminal(spec, x)], net.node_of[_terminal(spec, y)]
    net.injections += [(a, 1.0), (b, -1.0)]
    sol = solve(net)
    volts = float(sol.potentials[a] - sol.potentials[b])
    if capacitance:
        caps = [si(p.value, p.unit) for p in spec.parts if p.kind == "capacitor" and p.value]
        return max(caps) / volts
    return volts


def _galvanometer(spec: CircuitSpec) -> int:
    found = [i for i, p in enumerate(spec.parts) if p.kind == "galvanometer"]
    if len(found) != 1:
        raise Unsolvable("no single galvanometer")
    return found[0]


def _balancing_value(spec: CircuitSpec, unknown: int) -> float:
    """The unknown resistance for which no current flows through the galvanometer: bisection
    in log space on the sign of the galvanometer's current (one root for a passive bridge)."""
    g = _galvanometer(spec)
    known = [si(p.value, p.unit) for p in spec.parts if p.kind == "resistor" and p.value]
    scale = max(known, default=1.0)

    def signed(x: float) -> float:
        net = netlist(spec, values={unknown: x})
        sol = solve(net)
        part = spec.parts[g]
        if g in net.source_of:
            return float(sol.source_currents[net.source_of[g]])
        na, nb = net.node_of[part.a], net.node_of[part.b]
        return float(sol.potentials[na] - sol.potentials[nb])

    lo, hi = math.log(scale * 1e-4), math.log(scale * 1e4)
    f_lo = signed(math.exp(lo))
    if f_lo * signed(math.exp(hi)) > 0:
        raise Unsolvable("no value balances the bridge")
    for _ in range(60):
        mid = (lo + hi) / 2
        f_mid = signed(math.exp(mid))
        if (f_mid > 0) == (f_lo > 0):
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    return math.exp((lo + hi) / 2)


def _balancing_length(spec: CircuitSpec) -> tuple[float, CircuitPart]:
    """Where on the slide wire the potential equals that of the galvanometer's far end."""
    wires = [p for p in spec.parts if p.kind == "slide_wire"]
    if len(wires) != 1 or wires[0].value is None:
        raise Unsolvable("no single slide wire with a printed length")
    wire, length = wires[0], wires[0].value
    g = _galvanometer(spec)
    net = netlist(spec, open_parts=frozenset({g}), open_taps=True)
    sol = solve(net)
    gpart, tap = spec.parts[g], net.node_of[wire.tap]
    far = net.node_of[gpart.b] if net.node_of[gpart.a] == tap else net.node_of[gpart.a]
    va, vb, vg = (float(sol.potentials[k]) for k in (net.node_of[wire.a], net.node_of[wire.b], far))
    if va == vb:
        raise Unsolvable("no current along the wire")
    share = (va - vg) / (va - vb)
    if not 0 < share < 1:
        raise Unsolvable("the balance point is off the wire")
    return si(share * length, wire.unit), wire


def reading(spec: CircuitSpec, stem: str) -> Reading:
    """The quantity the stem asks for, computed from the netlist."""
    text = plain_stem(stem)
    found = next(((w, m) for w, p in ASKS if (m := p.search(text))), None)
    if found is None:
        raise Unsolvable("the stem asks nothing the solver reads")
    what, m = found
    shown = _shown(spec)
    if what in ("req", "ceq"):
        x, y = m.group(1), m.group(2)
        value = _between(spec, x, y, capacitance=what == "ceq")
        return Reading(value, what, (x, y, *_shown(spec, capacitance=what == "ceq")))
    if what == "balance_length":
        length, wire = _balancing_length(spec)
        return Reading(length, what, (*shown, wire.tap_name))
    token = m.group(1)
    i = _part_named(spec, token)
    part = spec.parts[i]
    label = part.name or token
    if what == "balance_value":
        if part.kind != "resistor" or part.value is not None:
            raise Unsolvable(f"{token} is not an unknown resistance")
        return Reading(_balancing_value(spec, i), what, (*shown, label))
    net = netlist(spec)
    sol = solve(net)
    drop = _drop(sol, net, part)
    if what in ("ammeter", "cell_current", "current"):
        return Reading(_current(spec, sol, net, i), "current", shown)
    if what in ("voltmeter", "terminal", "voltage"):
        return Reading(drop, "voltage", shown)
    if what == "power":
        return Reading(drop * _current(spec, sol, net, i), "power", shown)
    if part.kind != "capacitor" or part.value is None:
        raise Unsolvable(f"{token} is not a capacitor with a value")
    farads = si(part.value, part.unit)
    if what == "charge":
        return Reading(farads * drop, "charge", shown)
    return Reading(farads * drop**2 / 2, "energy", shown)


# ── picking the option ───────────────────────────────────────────────────────────────────────


def _abstain(note: str, used: tuple[str, ...] = ()) -> FigureSolve:
    return FigureSolve(
        SolverAnswer(solver=FIGURE_SOLVER, choice=None, confidence=0.0, note=note), used
    )


def _option_si(text: str, dimension: str) -> float | None:
    read = number_and_unit(text)
    if read is None:
        return None
    value, unit = read
    try:
        if not same_dimension(unit, dimension):
            return None
        return value * si_factor(unit)
    except UnknownUnitError:
        return None


def pick(view: SolverView, fits: Callable[[float], bool], dimension: str) -> list[OptionKey]:
    keys = []
    for key, option in zip(OPTION_KEYS, view.options, strict=True):
        got = _option_si(option.text, dimension)
        if got is not None and fits(got):
            keys.append(key)
    return keys


def circuit_answer(view: SolverView, spec: CircuitSpec) -> FigureSolve:
    """The option that matches the asked quantity of the pictured circuit within 1 %."""
    try:
        got = reading(spec, view.stem_markdown)
    except (Unsolvable, KeyError, ZeroDivisionError, ValueError) as err:
        return _abstain(f"cannot solve the circuit: {err}")
    target = got.value
    if not math.isfinite(target) or target == 0:
        return _abstain(f"the {got.what} comes out {target}", got.used)
    keys = pick(view, lambda v: abs(v - target) <= TOLERANCE * abs(target), DIMENSION[got.what])
    if len(keys) != 1:
        return _abstain(f"{len(keys)} options within 1 % of {got.what} = {target:.4g}", got.used)
    answer = SolverAnswer(solver=FIGURE_SOLVER, choice=keys[0], confidence=1.0)
    return FigureSolve(answer, got.used)
