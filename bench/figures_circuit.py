"""Circuit figures: our numpy nodal analysis against lcapy on the same netlists.

Run with `python -m bench.figures_circuit`. For drafts of the resistive circuit templates (cells,
resistors, ideal meters, galvanometers), it computes the current through every resistor twice:
with `pipeline.verify.circuit_solver` (one small dense MNA solve in floats) and with lcapy (the
library the house rule prefers: exact sympy nodal analysis), checks they agree to 1e-9, and
prints the time per circuit of each. The solver keeps its own MNA because lcapy's exact
algebra costs some 300 to 600 times more per circuit (15 to 25 ms against 0.04 ms), and the tests
alone solve some eight thousand circuits (plus 60 per bridge balance found by bisection).
"""

from __future__ import annotations

import argparse
import time

import lcapy

from core.figures import CircuitSpec
from pipeline.figures.circuit_templates import CIRCUIT_TEMPLATES
from pipeline.verify.circuit_solver import netlist, nodes, si, solve

RESISTIVE = (
    "fig-circ-cell-internal-current",
    "fig-circ-terminal-voltage",
    "fig-circ-branch-current",
    "fig-circ-series-pd",
    "fig-circ-power-internal",
    "fig-circ-power-branch",
    "fig-circ-cells-series",
    "fig-circ-kirchhoff-two-cells",
    "fig-circ-wheatstone-galvanometer",
)


def ours(spec: CircuitSpec) -> list[float]:
    net = netlist(spec)
    sol = solve(net)
    return [
        float(sol.potentials[net.node_of[p.a]] - sol.potentials[net.node_of[p.b]])
        / si(p.value, p.unit)
        for p in spec.parts
        if p.kind == "resistor" and p.value is not None
    ]


def lcapy_netlist(spec: CircuitSpec) -> str:
    node_of, count = nodes(spec)
    lines, extra = [], count
    for i, p in enumerate(spec.parts):
        a, b = node_of[p.a], node_of[p.b]
        if p.kind == "resistor" or (p.kind == "galvanometer" and p.value):
            lines.append(f"R{i} {a} {b} {si(p.value or 0, p.unit)}")
        elif p.kind in ("ammeter", "galvanometer"):
            lines.append(f"V{i} {a} {b} dc 0")
        elif p.kind == "cell":
            plus = a
            if p.internal:
                plus, extra = extra, extra + 1
                lines.append(f"Rint{i} {plus} {a} {p.internal}")
            lines.append(f"V{i} {plus} {b} dc {p.value}")
    return "\n".join(lines)


def theirs(spec: CircuitSpec) -> list[float]:
    cct = lcapy.Circuit(lcapy_netlist(spec))
    return [
        float(getattr(cct, f"R{i}").I.dc.fval)
        for i, p in enumerate(spec.parts)
        if p.kind == "resistor" and p.value is not None
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-template", type=int, default=5)
    args = parser.parse_args()
    specs: list[tuple[str, CircuitSpec]] = []
    for template in CIRCUIT_TEMPLATES:
        if template.template_id not in RESISTIVE:
            continue
        seed = 0
        while len([s for s in specs if s[0] == template.template_id]) < args.per_template:
            q = template.draw(seed)
            seed += 1
            if q is not None and isinstance(q.spec, CircuitSpec):
                specs.append((template.template_id, q.spec))
    theirs(specs[0][1])  # lcapy's first circuit pays for its imports and caches
    timings = {}
    results = {}
    for name, solver in (("numpy MNA (ours)", ours), ("lcapy", theirs)):
        start = time.perf_counter()
        results[name] = [solver(spec) for _, spec in specs]
        timings[name] = (time.perf_counter() - start) / len(specs)
    worst = max(
        abs(x - y) / max(abs(y), 1e-12)
        for a, b in zip(results["numpy MNA (ours)"], results["lcapy"], strict=True)
        for x, y in zip(a, b, strict=True)
    )
    print(f"{len(specs)} circuits from {len(RESISTIVE)} templates, every resistor's current")
    for name, seconds in timings.items():
        print(f"  {name:18s} {seconds * 1e3:9.3f} ms per circuit")
    ratio = timings["lcapy"] / timings["numpy MNA (ours)"]
    print(f"  lcapy / ours: {ratio:.0f}×; largest relative disagreement {worst:.1e}")


if __name__ == "__main__":
    main()
