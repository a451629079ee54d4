"""A restricted evaluator for a model's answer expression: arithmetic, constants, math functions.

The expression comes from a language model, so it is data, never code. It is parsed as one
Python expression (never a statement) and walked by `simpleeval`, given only what an answer
needs: numeric literals, `+ - * / **`, unary minus and plus, parentheses, names from
`CONSTANTS` and calls of the functions in `FUNCTIONS` (positional arguments only). Any other
node (attributes, subscripts, imports, lambdas, comprehensions, comparisons, conditionals,
strings, keywords) has no handler and is refused with `UnsafeExpressionError`. Every value is a
float, exponents are bounded and every intermediate and final value must be finite, so no
expression can hang the run or exhaust memory.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from simpleeval import InvalidExpression, OperatorNotDefined, SimpleEval

MAX_EXPRESSION_CHARS = 400
MAX_NODES = 200  # also bounds the evaluator's recursion depth
MAX_EXPONENT = 512.0

# SI values (CODATA 2018); an expression that wants NEET's rounded values writes the numbers.
CONSTANTS: Mapping[str, float] = MappingProxyType(
    {
        "pi": math.pi,
        "e": math.e,
        "c": 299_792_458.0,  # speed of light, m s^-1
        "h": 6.626_070_15e-34,  # Planck constant, J s
        "hbar": 1.054_571_817e-34,
        "k_B": 1.380_649e-23,  # Boltzmann constant, J K^-1
        "N_A": 6.022_140_76e23,  # Avogadro constant, mol^-1
        "R": 8.314_462_618,  # gas constant, J mol^-1 K^-1
        "F": 96_485.332_12,  # Faraday constant, C mol^-1
        "G": 6.674_30e-11,  # gravitational constant, N m^2 kg^-2
        "q_e": 1.602_176_634e-19,  # elementary charge, C
        "m_e": 9.109_383_7015e-31,  # electron mass, kg
        "m_p": 1.672_621_923_69e-27,  # proton mass, kg
        "epsilon_0": 8.854_187_8128e-12,  # F m^-1
        "mu_0": 1.256_637_062_12e-6,  # N A^-2
    }
)

FUNCTIONS: Mapping[str, Callable[..., float]] = MappingProxyType(
    {
        "sqrt": math.sqrt,
        "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x),
        "exp": math.exp,
        "log": math.log,  # natural logarithm; log(x, base) also allowed
        "ln": math.log,
        "log10": math.log10,
        "log2": math.log2,
        "sin": math.sin,
        "cos": math.cos,
        "tan": math.tan,
        "asin": math.asin,
        "acos": math.acos,
        "atan": math.atan,
        "atan2": math.atan2,
        "sinh": math.sinh,
        "cosh": math.cosh,
        "tanh": math.tanh,
        "radians": math.radians,
        "degrees": math.degrees,
        "abs": abs,
        "min": min,
        "max": max,
    }
)


class UnsafeExpressionError(ValueError):
    """An answer expression that is not allowed, or that has no finite value."""


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise UnsafeExpressionError("the value is not finite")
    return value


def _power(base: float, exponent: float) -> float:
    # Tighter than simpleeval's own bound (|exponent| <= 4,000,000): a float power stays cheap.
    if abs(exponent) > MAX_EXPONENT:
        raise UnsafeExpressionError(f"exponent {exponent:g} is out of bounds")
    if base < 0 and not exponent.is_integer():
        raise UnsafeExpressionError("negative base with a fractional exponent")
    return _finite(base**exponent)


def _finite_result(f: Callable[..., float]) -> Callable[..., float]:
    return lambda *args: _finite(float(f(*args)))


# Only these operators have handlers: `2 ^ 3`, `7 // 2`, `1 < 2` or `not 1` are refused.
_OPERATORS: Mapping[type[ast.AST], Callable[..., float]] = MappingProxyType(
    {
        ast.Add: _finite_result(operator.add),
        ast.Sub: _finite_result(operator.sub),
        ast.Mult: _finite_result(operator.mul),
        ast.Div: _finite_result(operator.truediv),
        ast.Pow: _power,
        ast.USub: operator.neg,
        ast.UAdd: operator.pos,
    }
)
_FUNCTIONS = {name: _finite_result(f) for name, f in FUNCTIONS.items()}


class _ArithmeticEval(SimpleEval):
    """simpleeval with handlers for numbers, names, operators and calls only."""

    def __init__(self) -> None:
        super().__init__(operators=dict(_OPERATORS), functions=_FUNCTIONS, names=CONSTANTS)
        self.nodes = {
            ast.Constant: self._eval_constant,
            ast.Name: self._eval_name,
            ast.UnaryOp: self._eval_unaryop,
            ast.BinOp: self._eval_binop,
            ast.Call: self._eval_call,  # keyword and starred arguments have no handler
        }

    def _eval_constant(self, node: ast.Constant) -> float:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise UnsafeExpressionError(f"literal {value!r} is not a number")
        return _finite(float(value))

    def _eval_name(self, node: ast.Name) -> float:
        # simpleeval would answer a function's name with the function itself.
        if node.id in FUNCTIONS:
            raise UnsafeExpressionError(f"{node.id!r} is a function, not a value")
        if node.id not in CONSTANTS:
            raise UnsafeExpressionError(f"unknown name {node.id!r}")
        return CONSTANTS[node.id]

    def _eval_call(self, node: ast.Call) -> Any:
        if not node.args:
            raise UnsafeExpressionError("a call needs positional arguments (and takes only those)")
        return super()._eval_call(node)


def safe_eval(expression: str) -> float:
    """The value of a whitelisted arithmetic expression, or UnsafeExpressionError saying why."""
    if not isinstance(expression, str) or not expression.strip():
        raise UnsafeExpressionError("empty expression")
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise UnsafeExpressionError(f"expression longer than {MAX_EXPRESSION_CHARS} characters")
    try:
        # Parsed here in eval mode: simpleeval's own parse takes statements (`x = 1` answers 1).
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as exc:
        raise UnsafeExpressionError(f"not an expression: {exc.msg}") from None
    except ValueError as exc:  # e.g. a NUL byte
        raise UnsafeExpressionError(f"not an expression: {exc}") from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise UnsafeExpressionError(f"expression has more than {MAX_NODES} parts")
    try:
        # A new evaluator per call: simpleeval keeps the expression on the instance.
        value = _ArithmeticEval().eval(expression, previously_parsed=tree.body)
    except UnsafeExpressionError:
        raise
    except OperatorNotDefined as exc:  # its message would print the ast object
        raise UnsafeExpressionError(f"{type(exc.attr).__name__} is not allowed") from None
    except InvalidExpression as exc:  # no handler for the node, unknown function, ...
        raise UnsafeExpressionError(f"not allowed: {exc}") from None
    except (ArithmeticError, ValueError, TypeError) as exc:  # 1/0, sqrt(-1), log(0), ...
        raise UnsafeExpressionError(f"no value: {exc}") from None
    return _finite(value)
