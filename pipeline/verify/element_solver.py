"""The solver's own path for element questions: textbook rules from atomic numbers, no data.

It rebuilds configurations by the Aufbau order with the two exceptions NCERT teaches below krypton
(Cr and Cu), finds period and group from them, and applies the periodic trends as taught,
including the ionisation-enthalpy exceptions (group 2 above 13, group 15 above 16).
"""

from __future__ import annotations

import math
import re

from core.records import OPTION_KEYS, OptionKey, SolverAnswer, SolverView

SOLVER_NAME = "offline-solver-v1"  # one solver, whichever path answers
MOMENT_TOLERANCE = 0.01
# Across a period, first ionisation enthalpy ranks by group with the two taught exceptions.
IE_RANK_ACROSS = {1: 1.0, 13: 1.5, 2: 2.0, 14: 3.0, 16: 3.5, 15: 4.0, 17: 5.0, 18: 6.0}
ORBITALS = {"s": 1, "p": 3, "d": 5, "f": 7}
NOBLE_CORES = {"He": 2, "Ne": 10, "Ar": 18, "Kr": 36, "Xe": 54}
AUFBAU_EXCEPTIONS = {24, 29}  # one 4s electron moves to 3d: half-filled / filled 3d
LAST_KNOWN_Z = 36

_Z = re.compile(r"Z\s*=\s*(\d+)")
_SUBSHELL = re.compile(r"(\d)([spdf])([⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_CORE = re.compile(r"\[(\w+)\]")
_ION = re.compile(r"\\mathrm\{(\w+)\^\{(\d*)\+\}\}")
_SUPER = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def _abstain(note: str) -> SolverAnswer:
    return SolverAnswer(solver=SOLVER_NAME, choice=None, confidence=0.0, note=note)


def _pick(matches: list[OptionKey], note: str) -> SolverAnswer:
    if len(matches) != 1:
        return _abstain(f"{len(matches)} options fit: {note}")
    return SolverAnswer(solver=SOLVER_NAME, choice=matches[0], confidence=1.0)


def madelung(z: int) -> dict[str, int]:
    """Subshells filled strictly in order of n + l (lower n first on a tie)."""
    order = sorted(
        ((n, ell) for n in range(1, 8) for ell in range(min(n, 4))), key=lambda p: (sum(p), p[0])
    )
    left, config = z, {}
    for n, ell in order:
        if left == 0:
            break
        take = min(left, 2 * ORBITALS["spdf"[ell]])
        config[f"{n}{'spdf'[ell]}"] = take
        left -= take
    return config


def aufbau(z: int) -> dict[str, int]:
    """Ground-state configuration by the n + l rule, with the Cr and Cu exceptions."""
    config = madelung(z)
    if z in AUFBAU_EXCEPTIONS:
        config["4s"] -= 1
        config["3d"] += 1
    return config


def position(z: int) -> tuple[int, int]:
    """(period, group) read off the configuration."""
    config = aufbau(z)
    period = max(int(sub[0]) for sub in config)
    outer = {sub[1]: n for sub, n in config.items() if int(sub[0]) == period}
    if z == 2:
        return 1, 18
    if "p" in outer:
        return period, 10 + outer["s"] + outer["p"]
    return period, outer["s"] + config.get(f"{period - 1}d", 0)


def ion_configuration(z: int, charge: int) -> dict[str, int]:
    """Electrons leave the outermost shell first (4s before 3d)."""
    config = aufbau(z)
    for _ in range(charge):
        s = max((s for s, n in config.items() if n), key=lambda s: (int(s[0]), "spdf".index(s[1])))
        config[s] -= 1
    return {s: n for s, n in config.items() if n}


def unpaired(config: dict[str, int]) -> int:
    return sum(n if n <= ORBITALS[s[1]] else 2 * ORBITALS[s[1]] - n for s, n in config.items())


def parse_configuration(text: str) -> dict[str, int] | None:
    """`[Ar] 3d⁵ 4s¹` → {'1s': 2, …, '3d': 5, '4s': 1}; None when it cannot be read."""
    config: dict[str, int] = {}
    core = _CORE.search(text)
    if core:
        if core.group(1) not in NOBLE_CORES:
            return None
        config = aufbau(NOBLE_CORES[core.group(1)])
    for n, ell, count in _SUBSHELL.findall(text):
        config[f"{n}{ell}"] = config.get(f"{n}{ell}", 0) + int(count.translate(_SUPER))
    return {s: c for s, c in config.items() if c} or None


def _trend(view: SolverView) -> SolverAnswer:
    stem = view.stem_markdown.lower()
    zs = []
    for o in view.options:
        m = _Z.search(o.text)
        if not m:
            return _abstain(f"no atomic number in option {o.key}")
        zs.append(int(m.group(1)))
    places = [position(z) for z in zs]
    periods, groups = {p for p, _ in places}, {g for _, g in places}
    if "ionisation enthalpy" in stem:
        prop = "ie1"
    elif "electronegativity" in stem:
        prop = "en"
    elif "atomic radius" in stem:
        prop = "radius"
    else:
        return _abstain("unknown property")
    most = any(w in stem for w in ("highest", "largest"))
    ranks: list[float]
    if len(groups) == 1:
        # Down a group: radius grows; ionisation enthalpy and electronegativity fall.
        ranks = [float(p if prop == "radius" else -p) for p, _ in places]
    elif len(periods) == 1:
        if prop == "ie1":
            ranks = [IE_RANK_ACROSS.get(g, float(g)) for _, g in places]
        else:
            ranks = [float(-g if prop == "radius" else g) for _, g in places]
    else:
        return _abstain("options share neither a period nor a group")
    target = max(ranks) if most else min(ranks)
    return _pick([k for k, r in zip(OPTION_KEYS, ranks, strict=True) if r == target], "trend tie")


def _configuration(view: SolverView) -> SolverAnswer:
    m = _Z.search(view.stem_markdown)
    if not m or int(m.group(1)) > LAST_KNOWN_Z:
        return _abstain("no atomic number within the taught range")
    wanted = aufbau(int(m.group(1)))
    matches = [o.key for o in view.options if parse_configuration(o.text) == wanted]
    return _pick(matches, "configuration")


def _ion(view: SolverView, moment: bool) -> SolverAnswer:
    z, ion = _Z.search(view.stem_markdown), _ION.search(view.stem_markdown)
    if not z or not ion:
        return _abstain("cannot read the ion")
    n = unpaired(ion_configuration(int(z.group(1)), int(ion.group(2) or 1)))
    if moment:
        mu = math.sqrt(n * (n + 2))
        matches = []
        for o in view.options:
            shown = re.search(r"\d+(?:\.\d+)?", o.text)
            if shown and abs(float(shown.group()) - mu) <= MOMENT_TOLERANCE + 0.005:
                matches.append(o.key)
        return _pick(matches, f"moment {mu:.2f}")
    return _pick([o.key for o in view.options if o.text.strip() == str(n)], f"{n} unpaired")


def element_answer(view: SolverView) -> SolverAnswer:
    """Answer an element question from the atomic numbers it states."""
    kind = view.template_id.removeprefix("elements.")
    if kind == "trend":
        return _trend(view)
    if kind == "configuration":
        return _configuration(view)
    if kind in ("ion-unpaired", "ion-moment"):
        return _ion(view, moment=kind == "ion-moment")
    return _abstain(f"unknown element question {view.template_id}")
