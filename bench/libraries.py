"""Hand-written code against the libraries offered to replace it, timed in one process.

Run with `python -m bench.libraries [--scale 1.0]`. Three pairs, each with its baseline in the
same run:

1. Per-key rate limiter. The token bucket in `api_stub/limits.py` (kept) against the `limits`
   package's moving-window and fixed-window strategies with in-memory storage, at the worker's
   default limit (120 a minute, burst 30, mapped for `limits` to 30 per 15 s: the same burst and
   long-run rate). Per call: an allowed request (100 keys, 131 requests/s in all, the
   `bench/worker.py` load), a refused one (one address guessing keys), and the wrong-key peek.
   Then behaviour on a hand-moved clock: what each admits and the Retry-After it answers, and
   how many keys each still holds once they have gone idle.
2. The worker's kept poll answers. The old dict with a running byte count (copied here) against
   `api_stub.cache.AnswerCache` (cachetools.LRUCache sized by bytes, behind a lock): a poll that
   finds its answer, and keeping a new answer when the bound is full.
3. Answer expressions. The old hand-written evaluator (copied here) against
   `pipeline.quantities.expressions.safe_eval` (simpleeval): per expression on typical model
   formulas and on refusals, and whether the two agree on random expressions.
"""

from __future__ import annotations

import argparse
import ast
import math
import random
import threading
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Protocol

import limits.storage.memory
from limits import RateLimitItem, RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter

from api_stub.cache import AnswerCache
from api_stub.limits import LimitExceeded, RateLimiter
from pipeline.quantities import expressions
from pipeline.quantities.expressions import CONSTANTS, FUNCTIONS, UnsafeExpressionError, safe_eval


def micros_per_call(run: Callable[[int], None], calls: int, repeats: int = 5) -> float:
    """The best of `repeats` runs of `calls` calls, in µs per call (as timeit reports)."""
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        run(calls)
        best = min(best, time.perf_counter() - start)
    return best / calls * 1e6


# -- 1. rate limiter ------------------------------------------------------------------------------


class HandClock:
    """Seconds that move only when told to."""

    def __init__(self) -> None:
        self.seconds = 1_000_000.0

    def __call__(self) -> float:
        return self.seconds


@contextmanager
def limits_on(clock: HandClock) -> Iterator[None]:
    """`limits`' in-memory storage reads `time.time()`; it has no clock to pass in."""
    real = limits.storage.memory.time
    limits.storage.memory.time = types.SimpleNamespace(time=clock)  # type: ignore[assignment]
    try:
        yield
    finally:
        limits.storage.memory.time = real


class WindowLimiter:
    """A `limits` strategy behind our limiter's two calls: same burst, same long-run rate."""

    def __init__(self, strategy: type, per_minute: int, burst: int, clock: HandClock) -> None:
        self.limiter = strategy(MemoryStorage())
        # burst per the seconds a bucket takes to refill; `limits` counts whole seconds
        seconds = max(1, round(burst * 60 / per_minute))
        self.item: RateLimitItem = RateLimitItemPerSecond(burst, seconds)
        self.clock = clock

    def take(self, key: str) -> None:
        if not self.limiter.hit(self.item, key):
            raise LimitExceeded("rate limit", self.wait(key))

    def wait(self, key: str) -> int:
        stats = self.limiter.get_window_stats(self.item, key)
        return 0 if stats.remaining > 0 else max(1, math.ceil(stats.reset_time - self.clock()))

    def keys_held(self) -> int:
        storage = self.limiter.storage
        return len(storage.events) + len(storage.storage)


class Limiter(Protocol):
    def take(self, key: str) -> None: ...

    def wait(self, key: str) -> int: ...


def limiters(per_minute: int, burst: int, clock: HandClock) -> dict[str, Limiter]:
    return {
        "ours (token bucket)": RateLimiter(per_minute, burst, clock),
        "limits moving window": WindowLimiter(MovingWindowRateLimiter, per_minute, burst, clock),
        "limits fixed window": WindowLimiter(FixedWindowRateLimiter, per_minute, burst, clock),
    }


def keys_held(limiter: Limiter) -> int:
    if isinstance(limiter, WindowLimiter):
        return limiter.keys_held()
    assert isinstance(limiter, RateLimiter)
    return len(limiter._buckets)


def bench_rate_limiter(scale: float) -> None:
    print("1. Per-key rate limiter (120 a minute, burst 30; `limits`: 30 per 15 s)")
    calls = int(200_000 * scale)
    keys = [f"key-{i:03d}" for i in range(100)]
    clock = HandClock()
    with limits_on(clock):
        rows = [
            (name, *time_limiter(limiter, clock, keys, calls))
            for name, limiter in limiters(120, 30, clock).items()
        ]
        print(f"   {'':24} {'allowed':>9} {'refused':>9} {'peek':>9}   (µs per call)")
        for name, *cols in rows:
            print(f"   {name:24} " + " ".join(f"{c:9.2f}" for c in cols))
        behaviour(clock)


def time_limiter(
    limiter: Limiter, clock: HandClock, keys: list[str], calls: int
) -> tuple[float, float, float]:
    """µs per allowed request, per refused one, and per wrong-key peek."""

    def allowed(n: int) -> None:
        for i in range(n):  # 131 requests/s over 100 keys: 1.3 a second per key
            clock.seconds += 1 / 131
            limiter.take(keys[i % 100])

    def refused(n: int) -> None:
        for _ in range(n):
            with suppress(LimitExceeded):
                limiter.take("guesser")

    def peek(n: int) -> None:
        for _ in range(n):
            limiter.wait("guesser")

    return (
        micros_per_call(allowed, calls),
        micros_per_call(refused, calls),
        micros_per_call(peek, calls),
    )


def behaviour(clock: HandClock) -> None:
    print("   Behaviour on a hand-moved clock:")
    # The worker's test: 6 a minute, burst 2; three at once, then one 10 s later.
    for name, limiter in limiters(6, 2, clock).items():
        take = limiter.take
        statuses = []
        for step in (0, 0, 0, 10):
            clock.seconds += step
            try:
                take("k")
                statuses.append("ok")
            except LimitExceeded as exc:
                statuses.append(f"429 retry {exc.retry_after} s")
        print(f"   6/min burst 2, 3 at once then 1 at +10 s, {name}: {', '.join(statuses)}")
    # A client that sends 40 at once, then one a second for a minute (120/min, burst 30).
    for name, limiter in limiters(120, 30, clock).items():
        take = limiter.take
        admitted = []
        for second in range(61):
            n, sent = 0, 40 if second == 0 else 1
            for _ in range(sent):
                try:
                    take("steady")
                    n += 1
                except LimitExceeded:
                    pass
            admitted.append(n)
            clock.seconds += 1
        later = admitted[1:]
        first_refused = f"+{later.index(0) + 1} s" if 0 in later else "never"
        print(
            f"   40 at once, then 1 a second for 60 s, {name}: {admitted[0]} of the 40, then "
            f"{sum(later)} of 60 (first refused: {first_refused})"
        )
    # 20,000 addresses send one wrong key each, then all go quiet for 10 minutes.
    for name, limiter in limiters(10, 20, clock).items():
        take = limiter.take
        start = time.perf_counter()
        for i in range(20_000):
            take(f"10.0.{i >> 8}.{i & 255}")
        per_address = (time.perf_counter() - start) / 20_000 * 1e6
        clock.seconds += 600
        for _ in range(2):  # `limits` sweeps expired entries on a timer thread started by a hit
            take("one more")
            time.sleep(0.5)
        print(
            f"   20,000 addresses ({per_address:.1f} µs each), then 10 min idle, {name}: "
            f"{keys_held(limiter):,} keys held"
        )


# -- 2. kept poll answers ------------------------------------------------------------------------


class OldAnswers:
    """The worker's kept answers before cachetools (api_stub/runner.py at 50cc9bd)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._answers: dict[str, bytes] = {}  # oldest first
        self._answers_size = 0

    def get(self, job_id: str) -> bytes | None:
        return self._answers.get(job_id)

    def keep(self, job_id: str, body: bytes) -> None:
        with self._lock:
            if job_id in self._answers:
                return
            self._answers[job_id] = body
            self._answers_size += len(body)
            while self._answers_size > self.max_bytes and len(self._answers) > 1:
                oldest = next(iter(self._answers))
                self._answers_size -= len(self._answers.pop(oldest))


def bench_answer_cache(scale: float) -> None:
    print("2. Kept poll answers (64 MB bound, 20 KB answers)")
    calls = int(200_000 * scale)
    body = b"x" * 20_000
    ids = [f"job-{i:08d}" for i in range(calls + 4_000)]
    for name, cache in (
        ("ours (dict, FIFO)", OldAnswers(64 * 2**20)),
        ("cachetools LRUCache", AnswerCache(64 * 2**20)),
    ):
        per_poll, per_keep = time_cache(cache, body, ids, calls)
        print(f"   {name:22} poll hit {per_poll:6.2f} µs   keep (evicting) {per_keep:6.2f} µs")


def time_cache(
    cache: OldAnswers | AnswerCache, body: bytes, ids: list[str], calls: int
) -> tuple[float, float]:
    """µs per poll that finds its answer, and per answer kept into a full cache."""
    for job_id in ids[:4_000]:  # full: 3,355 answers fit
        cache.keep(job_id, body)
    hits = ids[3_000:4_000]
    fresh = iter(ids[4_000:])

    def poll(n: int) -> None:
        for i in range(n):
            cache.get(hits[i % 1000])

    def keep(n: int) -> None:
        for _ in range(n):
            cache.keep(next(fresh), body)

    return micros_per_call(poll, calls), micros_per_call(keep, calls // 5)


# -- 3. answer expressions -----------------------------------------------------------------------


def old_safe_eval(expression: str) -> float:
    """The hand-written evaluator before simpleeval (pipeline/quantities/expressions.py)."""
    if not isinstance(expression, str) or not expression.strip():
        raise UnsafeExpressionError("empty expression")
    if len(expression) > expressions.MAX_EXPRESSION_CHARS:
        raise UnsafeExpressionError("expression too long")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, ValueError) as exc:
        raise UnsafeExpressionError(f"not an expression: {exc}") from None
    nodes = list(ast.walk(tree))
    if len(nodes) > expressions.MAX_NODES:
        raise UnsafeExpressionError("too many parts")
    for node in nodes:
        _old_check(node)
    try:
        value = _old_eval(tree.body)
    except UnsafeExpressionError:
        raise
    except (ArithmeticError, ValueError, TypeError) as exc:
        raise UnsafeExpressionError(f"no value: {exc}") from None
    return _old_finite(value)


_OLD_ALLOWED = (
    *(ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Call, ast.Load),
    *(ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.USub, ast.UAdd),
)
_OLD_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}


def _old_check(node: ast.AST) -> None:
    if not isinstance(node, _OLD_ALLOWED):
        raise UnsafeExpressionError(f"{type(node).__name__} is not allowed")
    if isinstance(node, ast.Constant) and (
        isinstance(node.value, bool) or not isinstance(node.value, int | float)
    ):
        raise UnsafeExpressionError("not a number")
    if isinstance(node, ast.Name) and node.id not in CONSTANTS and node.id not in FUNCTIONS:
        raise UnsafeExpressionError("unknown name")
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            raise UnsafeExpressionError("only listed functions")
        if node.keywords or not node.args or any(isinstance(a, ast.Starred) for a in node.args):
            raise UnsafeExpressionError("positional arguments only")


def _old_finite(value: float) -> float:
    if not math.isfinite(value):
        raise UnsafeExpressionError("the value is not finite")
    return value


def _old_eval(node: ast.expr) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return _old_finite(float(node.value))
    if isinstance(node, ast.Name):
        if node.id not in CONSTANTS:
            raise UnsafeExpressionError("a function, not a value")
        return CONSTANTS[node.id]
    if isinstance(node, ast.UnaryOp):
        operand = _old_eval(node.operand)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp):
        left, right = _old_eval(node.left), _old_eval(node.right)
        if isinstance(node.op, ast.Pow):
            if abs(right) > expressions.MAX_EXPONENT:
                raise UnsafeExpressionError("exponent out of bounds")
            if left < 0 and not right.is_integer():
                raise UnsafeExpressionError("negative base with a fractional exponent")
            return _old_finite(left**right)
        return _old_finite(_OLD_BINARY[type(node.op)](left, right))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        args = [_old_eval(a) for a in node.args]
        return _old_finite(float(FUNCTIONS[node.func.id](*args)))
    raise UnsafeExpressionError(f"{type(node).__name__} is not allowed")


FORMULAS = [
    "0.5 * 2 * 3**2",
    "sqrt(2 * 9.8 * 20)",
    "h * c / 500e-9",
    "(6.63e-34 * 3e8) / (1.6e-19 * 2.5)",
    "2 * pi * sqrt(0.5 / 9.8)",
    "8.314 * 300 * log(10 / 2)",
    "(1 / (4 * pi * epsilon_0)) * (2e-6 * 3e-6) / 0.3**2",
    "0.693 / (5730 * 365 * 24 * 3600)",
]
REFUSALS = ["__import__('os')", "(1).__class__", "[1, 2][0]", "10**10**10", "1/0", "1 < 2"]


def random_expression(rng: random.Random, depth: int = 0) -> str:
    atoms = ["1", "2.5", "0", "-3", "1e-3", "1e308", "pi", "e", "h", "x", "sqrt", "True", "1j"]
    ops = ["+", "-", "*", "/", "**", "//", "%", "^", "<", "and"]
    calls = ["sqrt", "exp", "log", "sin", "max", "min", "abs", "atan2", "cbrt", "open", "pi"]
    r = rng.random()
    if depth > 4 or r < 0.3:
        return rng.choice(atoms)
    if r < 0.6:
        left, right = random_expression(rng, depth + 1), random_expression(rng, depth + 1)
        return f"({left} {rng.choice(ops)} {right})"
    if r < 0.7:
        return f"-{random_expression(rng, depth + 1)}"
    args = ", ".join(random_expression(rng, depth + 1) for _ in range(rng.choice([0, 1, 1, 2])))
    return f"{rng.choice(calls)}({args})"


def outcome(evaluate: Callable[[str], float], expression: str) -> float | None:
    try:
        return evaluate(expression)
    except UnsafeExpressionError:
        return None


def bench_expressions(scale: float) -> None:
    print("3. Answer expressions")
    calls = int(20_000 * scale)
    for name, evaluate in (("ours (ast walk)", old_safe_eval), ("simpleeval", safe_eval)):

        def formulas(n: int, evaluate: Callable[[str], float] = evaluate) -> None:
            for i in range(n):
                evaluate(FORMULAS[i % len(FORMULAS)])

        def refusals(n: int, evaluate: Callable[[str], float] = evaluate) -> None:
            for i in range(n):
                outcome(evaluate, REFUSALS[i % len(REFUSALS)])

        print(
            f"   {name:16} formula {micros_per_call(formulas, calls):6.1f} µs   "
            f"refusal {micros_per_call(refusals, calls):6.1f} µs"
        )
    rng = random.Random(18)
    n, computed, differ = int(20_000 * scale), 0, 0
    for _ in range(n):
        text = random_expression(rng)
        old, new = outcome(old_safe_eval, text), outcome(safe_eval, text)
        computed += old is not None
        same = old == new or (old is not None and new is not None and math.isclose(old, new))
        differ += not same
    print(
        f"   {n:,} random expressions: {computed:,} computed by ours, {differ} answered otherwise"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="fewer (or more) calls")
    args = parser.parse_args(argv)
    bench_rate_limiter(args.scale)
    bench_answer_cache(args.scale)
    bench_expressions(args.scale)


if __name__ == "__main__":
    main()
