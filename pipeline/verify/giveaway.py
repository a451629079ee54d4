"""The giveaway screen: a numerical distractor a student can throw out without solving.

A distractor must come from a mistake a student makes at some step, so it looks like an answer.
A draft is refused (a named reason, before any solver is paid) when a distractor is

- `other_dimension`: in a unit of another dimension than the key's (g given in kg);
- `out_of_bounds`: outside the quantity's physical range (an efficiency of 111 %);
- `order_of_magnitude`: more than `MAX_FACTOR` times larger or smaller than the key, unless the
  generator names the mistake behind it as a unit slip (centimetres left as metres).

The offline numerical drafter records each distractor's mistake and the quantity's bounds in
its provenance; a draft from elsewhere (a model's) has none, so it gets no unit-slip allowance.
"""

from __future__ import annotations

import json
import math

from core.records import OPTION_KEYS, Draft, QuestionFormat
from pipeline.generate.numerical import BOUNDS_PARAM, DISTRACTORS_PARAM
from pipeline.quantities.numbers import number_and_unit
from pipeline.quantities.units import UnknownUnitError, same_dimension, si_factor

MAX_FACTOR = 10.0
REASONS = ("other_dimension", "out_of_bounds", "order_of_magnitude")


def _si(value: float, unit: str) -> float | None:
    try:
        return value * si_factor(unit) if unit else value
    except (UnknownUnitError, ArithmeticError, ValueError):
        return None


def numerical_giveaway(draft: Draft) -> str | None:
    """The first giveaway among a numerical draft's distractors (one of REASONS), or None."""
    c = draft.content
    if c.format is not QuestionFormat.NUMERICAL:
        return None
    params = dict(draft.provenance.params)
    slips = {text for text, _, slip in json.loads(params.get(DISTRACTORS_PARAM, "[]")) if slip}
    bounds = json.loads(params[BOUNDS_PARAM]) if BOUNDS_PARAM in params else None
    read = {o.key: number_and_unit(o.text) for o in c.options}
    key_read = read[c.correct_key]
    if key_read is None:
        return None  # not a number: hygiene and the solver deal with it
    key_value, key_unit = key_read
    for option, key in zip(c.options, OPTION_KEYS, strict=True):
        got = read[key]
        if got is None:
            continue
        value, unit = got
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            return "out_of_bounds"
        if key == c.correct_key:
            continue
        if unit != key_unit:
            try:
                if not same_dimension(unit, key_unit):
                    return "other_dimension"
            except UnknownUnitError:
                return "other_dimension"
        a, b = _si(value, unit), _si(key_value, key_unit)
        if a is None or b is None or a == 0 or b == 0 or not math.isfinite(a / b):
            continue
        ratio = abs(math.log10(abs(a / b)))
        if ratio > math.log10(MAX_FACTOR) + 1e-9 and option.text not in slips:
            return "order_of_magnitude"
    return None
