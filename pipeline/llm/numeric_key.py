"""Numericals from a model: the key must be what the answer expression computes, and each
option must read as a number in the answer's unit."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pint

from pipeline.llm.rejections import Reason, Rejection
from pipeline.quantities.expressions import UnsafeExpressionError, safe_eval
from pipeline.quantities.numbers import number_and_unit
from pipeline.quantities.units import pint_expression, registry

# A numerical option matches the answer within this relative tolerance, or within the rounding
# of its printed digits (24.5 stands for 24.45 ≤ x < 24.55), whichever is wider.
NUMERIC_REL_TOL = 1e-3

_MATH_SEGMENT = re.compile(r"\$([^$]+)\$")
_MANTISSA = re.compile(r"\d+(?:\.(?P<frac>\d+))?(?:\s*\\times\s*10\^\{?(?P<exp>[-−]?\d+)\}?)?")


def _quantity_unit(unit: str) -> Any:
    """A pint unit from a plain (`m/s`) or TeX (`\\mathrm{m\\,s^{-1}}`) spelling."""
    ureg = registry()
    text = unit.strip().strip("$").strip()
    if not text:
        return ureg.dimensionless
    for candidate in (text, pint_expression(text)):
        try:
            return ureg.Quantity(1.0, candidate).units
        except (pint.errors.PintError, AttributeError, TypeError, ValueError, SyntaxError):
            continue
    raise ValueError(f"cannot read unit {unit!r}")


def _printed_half_step(option: str) -> float:
    """Half the step of the option's last printed digit (0.05 for 24.5, 5e-6 for 2.5×10^{-4})."""
    segment = next(iter(_MATH_SEGMENT.findall(option)), option)
    m = _MANTISSA.search(segment)
    if m is None:
        return 0.0
    decimals = len(m.group("frac") or "")
    exponent = int((m.group("exp") or "0").replace("−", "-"))
    return 0.5 * 10.0 ** (exponent - decimals)


class OptionWithoutNumberError(ValueError):
    """A numerical option in which no number can be read."""


def option_reading(option: str, answer_unit: Any) -> tuple[float, float] | None:
    """The option's number in the answer's unit, and half its printed step in that unit.

    None when the option's unit measures something else; OptionWithoutNumberError when it shows
    no number, ValueError when its unit cannot be read. An option printed without a unit is
    taken to be in the answer's unit.
    """
    read = number_and_unit(option)
    if read is None:
        raise OptionWithoutNumberError(f"no number in option {option!r}")
    number, unit_tex = read
    half_step = _printed_half_step(option)
    if not unit_tex:
        return number, half_step
    unit = _quantity_unit(unit_tex)

    def converted(x: float) -> float:  # offset units (°C → K) convert values, not factors
        return float(registry().Quantity(x, unit).to(answer_unit).magnitude)

    try:
        value = converted(number)
    except pint.errors.DimensionalityError:
        return None
    return value, abs(converted(number + half_step) - value)


def numerical_problem(
    expression: str, unit: str, options: Sequence[str], key_index: int
) -> Rejection | None:
    """Whether the keyed option, and only it, is the value the expression computes."""
    # The model's text goes through pint and the number reader, which raise more than
    # ValueError on odd input (10^400 overflows, a unit of `1/0` divides by zero); any such
    # failure means the numbers cannot be checked, and the draft is refused, never the batch.
    try:
        return _numerical_problem(expression, unit, options, key_index)
    except Exception as exc:
        return Rejection(Reason.UNCHECKABLE_NUMBERS, f"{type(exc).__name__}: {exc}"[:200])


def _numerical_problem(
    expression: str, unit: str, options: Sequence[str], key_index: int
) -> Rejection | None:
    try:
        value = safe_eval(expression)
    except UnsafeExpressionError as exc:
        return Rejection(Reason.UNSAFE_EXPRESSION, f"{expression[:80]!r}: {exc}")
    try:
        answer_unit = _quantity_unit(unit)
        readings = [option_reading(option, answer_unit) for option in options]
    except OptionWithoutNumberError as exc:
        return Rejection(Reason.OPTION_WITHOUT_NUMBER, str(exc))
    except ValueError as exc:
        return Rejection(Reason.UNREADABLE_UNIT, str(exc))
    matches = [
        i
        for i, reading in enumerate(readings)
        if reading is not None
        and abs(value - reading[0])
        <= max(NUMERIC_REL_TOL * abs(reading[0]), reading[1] * (1 + 1e-9))
    ]
    if key_index not in matches:
        return Rejection(
            Reason.EXPRESSION_DISAGREES_WITH_KEY,
            f"{expression[:80]} = {value:.4g} {unit}, key {options[key_index]!r}",
        )
    if len(matches) > 1:
        others = [options[i] for i in matches if i != key_index]
        return Rejection(Reason.DISTRACTOR_MATCHES_EXPRESSION, f"{value:.4g} {unit}: {others}")
    return None
