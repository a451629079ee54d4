"""Units as printed in stems (TeX), understood by pint.

The solver reads the unit printed after each stated number and converts it with pint, rather than
trusting the template's own conversion factor: a stem that prints the wrong unit is caught.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

import pint

# TeX spellings pint does not read directly.
_SPECIAL = {
    "": "dimensionless",
    r"\%": "percent",
    r"^\circ": "degree",
    r"^\circ\mathrm{C}": "degC",
}
_WORDS = {"days": "day", "rev": "revolution", "Hg": "Hg"}
_POWER = re.compile(r"\^\{?(-?\d+)\}?")


class UnknownUnitError(ValueError):
    """A TeX unit that pint cannot read."""


_REGISTRY_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _registry() -> pint.UnitRegistry:
    return pint.UnitRegistry()


def registry() -> pint.UnitRegistry:
    """The one unit registry: pint refuses to mix quantities of two, and drafts run in threads."""
    with _REGISTRY_LOCK:  # lru_cache alone lets two first callers each build one
        return _registry()


def pint_expression(tex: str) -> str:
    """`\\mathrm{m\\,s^{-2}}` → `m * s**-2`; `\\mu\\mathrm{F}` → `uF`; `\\Omega` → `ohm`."""
    tex = tex.strip()
    if tex in _SPECIAL:
        return _SPECIAL[tex]
    text = tex.replace(r"\mu\mathrm{", r"\mathrm{u").replace(r"\Omega", "ohm")
    text = re.sub(r"\\mathrm\{(.*)\}", r"\1", text)
    text = text.replace(r"mm\,Hg", "mmHg")
    factors = []
    for part in text.split(r"\,"):
        m = _POWER.search(part)
        base = _POWER.sub("", part).strip()
        base = _WORDS.get(base, base)
        factors.append(f"{base}**{m.group(1)}" if m else base)
    return " * ".join(factors)


@lru_cache(maxsize=512)
def si_factor(tex: str) -> float:
    """How many SI base units one of the printed unit is (1 cm → 0.01, 1 kJ mol⁻¹ → 1000)."""
    try:
        quantity = registry().Quantity(1.0, pint_expression(tex))
        return float(quantity.to_base_units().magnitude)
    # pint's parser raises many kinds on malformed text (AssertionError for `m^{}`, a
    # TokenError for `(m`, KeyError for `m^{0}`): each means the unit cannot be read.
    except Exception as exc:
        raise UnknownUnitError(f"cannot read unit {tex!r}: {exc}") from exc


@lru_cache(maxsize=512)
def same_dimension(tex_a: str, tex_b: str) -> bool:
    """Whether two printed units measure the same kind of quantity."""
    try:
        ureg = registry()
        a, b = (
            ureg.Quantity(1.0, pint_expression(tex_a)),
            ureg.Quantity(1.0, pint_expression(tex_b)),
        )
        return bool(a.dimensionality == b.dimensionality)
    # pint's parser raises many kinds on malformed text (AssertionError for `m^{}`, a
    # TokenError for `(m`, KeyError for `m^{0}`): each means the unit cannot be read.
    except Exception as exc:
        raise UnknownUnitError(f"cannot read unit {tex_a!r} or {tex_b!r}: {exc}") from exc
