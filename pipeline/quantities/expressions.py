"""A restricted evaluator for a model's answer expression: arithmetic, constants, math functions.

The expression comes from a language model, so it is data, never code: it is parsed with `ast`
and walked node by node against a whitelist. Numeric literals, `+ - * / **`, unary minus and
plus, parentheses, names from `CONSTANTS` and calls of the functions in `FUNCTIONS` (positional
arguments only) are allowed; anything else (attributes, subscripts, imports, lambdas,
comprehensions, strings, keywords) is refused with `UnsafeExpressionError` before any of it
runs. Every value is a float, exponents are bounded and every result must be finite, so no
expression can hang the run or exhaust memory.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping
from types import MappingProxyType

MAX_EXPRESSION_CHARS = 400
MAX_NODES = 200
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

_BINARY: Mapping[type[ast.operator], Callable[[float, float], float]] = MappingProxyType(
    {
        ast.Add: lambda a, b: a + b,
        ast.Sub: lambda a, b: a - b,
        ast.Mult: lambda a, b: a * b,
        ast.Div: lambda a, b: a / b,
    }
)


class UnsafeExpressionError(ValueError):
    """An answer expression that is not allowed, or that has no finite value."""


def safe_eval(expression: str) -> float:
    """The value of a whitelisted arithmetic expression, or UnsafeExpressionError saying why."""
    if not isinstance(expression, str) or not expression.strip():
        raise UnsafeExpressionError("empty expression")
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise UnsafeExpressionError(f"expression longer than {MAX_EXPRESSION_CHARS} characters")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as exc:
        raise UnsafeExpressionError(f"not an expression: {exc.msg}") from None
    except ValueError as exc:  # e.g. a NUL byte
        raise UnsafeExpressionError(f"not an expression: {exc}") from None
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_NODES:
        raise UnsafeExpressionError(f"expression has more than {MAX_NODES} parts")
    for node in nodes:  # refuse before evaluating anything
        _check(node)
    try:
        value = _eval(tree.body)
    except UnsafeExpressionError:
        raise
    except (ArithmeticError, ValueError, TypeError) as exc:  # 1/0, sqrt(-1), log(0), ...
        raise UnsafeExpressionError(f"no value: {exc}") from None
    return _finite(value)


def _check(node: ast.AST) -> None:
    allowed = (
        ast.Expression,
        ast.BinOp,
        ast.UnaryOp,
        ast.Constant,
        ast.Name,
        ast.Call,
        ast.Load,
        ast.Add,
        ast.Sub,
        ast.Mult,
        ast.Div,
        ast.Pow,
        ast.USub,
        ast.UAdd,
    )
    if not isinstance(node, allowed):
        raise UnsafeExpressionError(f"{type(node).__name__} is not allowed")
    if isinstance(node, ast.Constant) and (
        isinstance(node.value, bool) or not isinstance(node.value, int | float)
    ):
        raise UnsafeExpressionError(f"literal {node.value!r} is not a number")
    if isinstance(node, ast.Name) and node.id not in CONSTANTS and node.id not in FUNCTIONS:
        raise UnsafeExpressionError(f"unknown name {node.id!r}")
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            raise UnsafeExpressionError("only calls of the listed math functions are allowed")
        if node.keywords or not node.args:
            raise UnsafeExpressionError(f"{node.func.id}() takes positional arguments only")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise UnsafeExpressionError("starred arguments are not allowed")


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise UnsafeExpressionError("the value is not finite")
    return value


def _eval(node: ast.expr) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return _finite(float(node.value))
    if isinstance(node, ast.Name):
        if node.id not in CONSTANTS:
            raise UnsafeExpressionError(f"{node.id!r} is a function, not a value")
        return CONSTANTS[node.id]
    if isinstance(node, ast.UnaryOp):
        operand = _eval(node.operand)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Pow):
            if abs(right) > MAX_EXPONENT:
                raise UnsafeExpressionError(f"exponent {right:g} is out of bounds")
            if left < 0 and not right.is_integer():
                raise UnsafeExpressionError("negative base with a fractional exponent")
            return _finite(left**right)
        return _finite(_BINARY[type(node.op)](left, right))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        args = [_eval(a) for a in node.args]
        return _finite(float(FUNCTIONS[node.func.id](*args)))
    raise UnsafeExpressionError(f"{type(node).__name__} is not allowed")
