"""Numbers as they appear in stems and options (TeX), and reading them back."""

from __future__ import annotations

import math
import re

_NUMBER = r"(?P<mant>[-−]?\d+(?:\.\d+)?)(?:\s*\\times\s*10\^\{(?P<exp>[-−]?\d+)\})?"
_NUMBER_RE = re.compile(_NUMBER)
_GIVEN_RE = re.compile(r"=\s*" + _NUMBER)
_MATH_RE = re.compile(r"\$([^$]+)\$")


def round_sig(x: float, sig: int) -> float:
    if x == 0 or not math.isfinite(x):
        return x
    return round(x, sig - 1 - math.floor(math.log10(abs(x))))


def tex_number(x: float, sig: int = 3) -> str:
    """x to `sig` significant figures, in ×10^n notation outside 0.01 ≤ |x| < 10^5."""
    if x == 0:
        return "0"
    x = round_sig(x, sig)
    exp = math.floor(math.log10(abs(x)))
    if -2 <= exp < 5:
        decimals = max(0, sig - 1 - exp)
        return f"{x:.{decimals}f}"
    mant = round(x / 10**exp, sig - 1)
    if abs(mant) >= 10:
        mant, exp = mant / 10, exp + 1
    return f"{mant:.{sig - 1}f} \\times 10^{{{exp}}}"


def tex_given(x: float) -> str:
    """A given quantity exactly as sampled (trailing zeros dropped)."""
    if x != 0 and (abs(x) < 0.01 or abs(x) >= 1e5):
        exp = math.floor(math.log10(abs(x)))
        mant = f"{x / 10**exp:.6f}".rstrip("0").rstrip(".")
        return f"{mant} \\times 10^{{{exp}}}"
    text = f"{x:.6f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


def _value(match: re.Match[str]) -> float:
    mant = float(match.group("mant").replace("−", "-"))
    exp = match.group("exp")
    return mant * 10 ** int(exp.replace("−", "-")) if exp else mant


def stated_values(markdown: str) -> list[float]:
    """Every `name = number` stated inside $…$ math, in reading order."""
    return [_value(m) for seg in _MATH_RE.findall(markdown) for m in _GIVEN_RE.finditer(seg)]


def stated_quantities(markdown: str) -> list[tuple[float, str]]:
    """Every `name = number unit` stated inside $…$ math, in reading order, with its TeX unit."""
    found = []
    for seg in _MATH_RE.findall(markdown):
        for m in _GIVEN_RE.finditer(seg):
            found.append((_value(m), _unit_after(seg[m.end() :])))
    return found


def number_and_unit(markdown: str) -> tuple[float, str] | None:
    """An option's value and the TeX unit printed after it, or None."""
    seg = next(iter(_MATH_RE.findall(markdown)), markdown)
    m = _NUMBER_RE.search(seg)
    return (_value(m), _unit_after(seg[m.end() :])) if m else None


def _unit_after(rest: str) -> str:
    # A unit runs to the next given (`, x = …`) or the end of the math segment.
    rest = re.split(r",\s|,\s*[A-Za-z\\]+\s*=", rest)[0]
    return rest.removeprefix("\\ ").strip()


def first_number(markdown: str) -> float | None:
    """The first number in a text (an option's value), or None."""
    m = _NUMBER_RE.search(markdown)
    return _value(m) if m else None
