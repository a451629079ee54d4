"""The ways a fact question asks (formats and their near variants), and what makes a value a
near miss: what the fact drafter and the relabeller share."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from core.pool import NEAR_VARIANT_SUFFIX
from core.records import Difficulty, QuestionFormat
from kb.knowledge import FactTable
from kb.retrieval import content_tokens
from pipeline.difficulty import Demand


@dataclass(frozen=True)
class FactFormat:
    """A way of asking about facts. `near` variants pick near-miss distractors or false claims
    (`near_miss`), so the same format is asked at more than one difficulty; the rubric labels
    each draft by what it measured on the options it chose."""

    kind: str
    what: str
    question_format: QuestionFormat
    near: bool = False

    def __post_init__(self) -> None:
        # A near variant's kind is its base kind plus the suffix the family rule strips.
        if self.near != self.kind.endswith(NEAR_VARIANT_SUFFIX):
            raise ValueError(f"{self.kind}: a near variant's kind ends {NEAR_VARIANT_SUFFIX!r}")


FORWARD = FactFormat("forward", "one fact, asked directly", QuestionFormat.SINGLE_CORRECT)
FORWARD_CLOSE = FactFormat(
    "forward_close",
    "one fact, asked directly, among values that share words with it",
    QuestionFormat.SINGLE_CORRECT,
    near=True,
)
REVERSE = FactFormat("reverse", "recall from property to member", QuestionFormat.SINGLE_CORRECT)
TWO_STATEMENTS = FactFormat(
    "two_statements", "two claims, each judged true or false", QuestionFormat.TWO_STATEMENTS
)
TWO_STATEMENTS_CLOSE = FactFormat(
    "two_statements_close",
    "two claims, each judged true or false; a false one swaps in a value close to the true one",
    QuestionFormat.TWO_STATEMENTS,
    near=True,
)
ODD_PAIR = FactFormat(
    "incorrect_pair", "four pairings to check, one of them false", QuestionFormat.INCORRECT_PAIR
)
ODD_PAIR_CLOSE = FactFormat(
    "incorrect_pair_close",
    "four pairings to check; the false one swaps in a value close to the true one",
    QuestionFormat.INCORRECT_PAIR,
    near=True,
)
MATCH_LIST = FactFormat(
    "match_list", "four pairings to recall and code as a matching", QuestionFormat.MATCH_LIST
)
MATCH_LIST_CLOSE = FactFormat(
    "match_list_close",
    "four pairings to recall; the wrong codings swap two separate pairs of rows, alone and"
    " together",
    QuestionFormat.MATCH_LIST,
    near=True,
)
HOW_MANY = FactFormat(
    "how_many_correct",
    "four pairings to judge, and every one counts",
    QuestionFormat.HOW_MANY_CORRECT,
)
HOW_MANY_CLOSE = FactFormat(
    "how_many_correct_close",
    "four pairings to judge; every false one swaps in a value close to the true one",
    QuestionFormat.HOW_MANY_CORRECT,
    near=True,
)
MULTI_STATEMENT = FactFormat(
    "multi_statement",
    "several statements to judge, answered as a code of the true ones",
    QuestionFormat.MULTI_STATEMENT,
)
MULTI_STATEMENT_CLOSE = FactFormat(
    "multi_statement_close",
    "several statements to judge; every false one swaps in a value close to the true one",
    QuestionFormat.MULTI_STATEMENT,
    near=True,
)
# Which formats can make drafts at each difficulty; each draft's own label decides (a format
# whose false values are drawn at random makes all three, by what it drew).
FORMATS_BY_DIFFICULTY: dict[Difficulty, tuple[FactFormat, ...]] = {
    Difficulty.EASY: (FORWARD, ODD_PAIR, TWO_STATEMENTS, MULTI_STATEMENT, MATCH_LIST, HOW_MANY),
    Difficulty.MEDIUM: (
        FORWARD_CLOSE,
        REVERSE,
        TWO_STATEMENTS_CLOSE,
        MULTI_STATEMENT,
        MATCH_LIST,
        HOW_MANY,
    ),
    Difficulty.HARD: (MULTI_STATEMENT_CLOSE, MATCH_LIST_CLOSE, ODD_PAIR_CLOSE, HOW_MANY_CLOSE),
}
# Every format by the kind its drafts record (provenance `format`): the relabeller's lookup.
FORMATS_BY_KIND = {f.kind: f for fs in FORMATS_BY_DIFFICULTY.values() for f in fs}


# How a pair is written ("entity — value"), a pairing line of a how-many question ("- (a)
# entity — value"), and how a coded statement set begins.
PAIR_SPLIT = re.compile(r"\s+[—–]\s+")
COUNTED = re.compile(r"^- \(([a-d])\)\s*(.+)$", re.M)
MULTI_STATEMENT_STEM = "Consider the following statements:"
# A two-statement stem's lines ("**Statement I:** …") and a statement set's ("A. …"): each
# numeral or letter and its statement.
STATEMENT_LINE = re.compile(r"\*\*Statement (I|II):\*\*\s*(.+)")
LETTERED_LINE = re.compile(r"^([A-E])\.\s+(.+)$", re.M)


@lru_cache(maxsize=4096)
def common_words(table: FactTable) -> frozenset[str]:
    """Content words in more than half of a table's values ("quantity" in "scalar quantity",
    "vector quantity"): sharing one says nothing about how close two values are."""
    values = {f.value for f in table.facts}
    counts = Counter(t for v in values for t in content_tokens(v))
    return frozenset(t for t, n in counts.items() if n > len(values) / 2)


def near_miss(table: FactTable, true_value: str, false_value: str) -> bool:
    """A false value close to the true one: they share a content word that few of the table's
    values have ("anterior pituitary" for "posterior pituitary"), so only knowing the fact
    tells them apart."""
    shared = _tokens(true_value) & _tokens(false_value)
    return bool(shared - common_words(table))


@lru_cache(maxsize=65536)
def _tokens(value: str) -> frozenset[str]:
    return content_tokens(value)


def near_to_entity(table: FactTable, entity: str, value: str) -> bool:
    """`value`, false for `entity`, is a near miss of one of the entity's true values."""
    return any(near_miss(table, f.value, value) for f in table.facts if f.entity == entity)


def claims_demand(
    table: FactTable, claims: int, false_claims: Sequence[tuple[str, str]], all_close: bool = True
) -> Demand:
    """The demand of an item of several claims: near misses measured on its false claims
    (entity, shown value); `all_close` is False when the options leave an easier way in (a
    wrong code far from the right one)."""
    near = [near_to_entity(table, e, v) for e, v in false_claims]
    return Demand(
        claims=claims, near_miss=any(near), all_near=bool(near) and all(near) and all_close
    )


# The three ways to split four rows into two separate pairs.
PAIR_SPLITS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((0, 1), (2, 3)),
    ((0, 2), (1, 3)),
    ((0, 3), (1, 2)),
)
T = TypeVar("T")


def pair_swaps(items: Sequence[T], pairs: tuple[tuple[int, int], tuple[int, int]]) -> list[list[T]]:
    """The items with the first pair of positions swapped, then the second, then both: the
    three near-miss wrong answers of a square (`square_codings`)."""
    out = []
    for swaps in (pairs[:1], pairs[1:], pairs):
        wrong = list(items)
        for i, j in swaps:
            wrong[i], wrong[j] = wrong[j], wrong[i]
        out.append(wrong)
    return out


def match_code(assignment: Sequence[str]) -> str:
    """A match-list option: each List-I row with its List-II numeral ("A-II, B-IV, C-I, D-III")."""
    return ", ".join(f"{k}-{r}" for k, r in zip("ABCD", assignment, strict=True))


def _rows_differing(key: str, other: str) -> frozenset[int]:
    return frozenset(
        i for i, (a, b) in enumerate(zip(other.split(", "), key.split(", "), strict=True)) if a != b
    )


def one_swap_coding(key: str, other: str) -> bool:
    """`other` ("A-II, B-IV, …") differs from the key's coding in exactly two rows: one swap."""
    return len(_rows_differing(key, other)) == 2


def square_codings(key: str, others: Collection[str]) -> bool:
    """The other codings are the key with two separate pairs of rows swapped, each alone and
    both together. Every row then reads the same in exactly two options and every option is one
    swap from two others: nothing but knowing both pairs singles the key out. (Three codings
    each one swap from the key would make the key the one option a swap from all the others, a
    convergence cue a test-wise student answers by without the content.)"""
    differing = sorted((_rows_differing(key, o) for o in others), key=len)
    if [len(d) for d in differing] != [2, 2, 4]:
        return False
    first, second, both = differing
    return not first & second and first | second == both


def coding_demand(key: str, others: Collection[str]) -> Demand:
    """The demand of a match-list item by its codings: four pairings to recall; a near miss
    when some wrong coding is one swap from the key; every claim close only when the codings
    form a square (`square_codings`)."""
    return Demand(
        claims=4,
        near_miss=any(one_swap_coding(key, o) for o in others),
        all_near=square_codings(key, others),
    )


def statement_code(letters: Sequence[str]) -> str:
    """The NTA's code for a set of statements: "A and C only", "A, B and D only"; all four
    are "A, B, C and D"."""
    letters = sorted(letters)
    if len(letters) == 1:
        return f"{letters[0]} only"
    only = "" if len(letters) == 4 else " only"
    return f"{', '.join(letters[:-1])} and {letters[-1]}{only}"


def same_size_codes(key: str, others: Collection[str]) -> bool:
    """Every other statement code names as many statements as the key's: the options are then
    close (each swaps a true statement for a false one) and none stands out by its length."""
    size = len(re.findall(r"\b[A-E]\b", key))
    return all(len(re.findall(r"\b[A-E]\b", o)) == size for o in others)


def split_by_nearness(
    table: FactTable, pool: Collection[str], to: str
) -> tuple[list[str], list[str]]:
    """Candidates near `to` and the rest, each sorted (a stable order for seeded sampling)."""
    near = sorted(v for v in pool if near_miss(table, to, v))
    return near, sorted(set(pool) - set(near))


def wrong_value(
    table: FactTable, entity: str, rng: random.Random, avoid: set[str], near: bool | None = None
) -> str | None:
    """A value false for the entity: a near miss of its true value (`near`), a far one (not
    `near`), or any (None)."""
    pool = sorted({f.value for f in table.facts} - avoid)
    pool = [v for v in pool if not table.is_fact(entity, v)]
    if near is not None:
        pool = [v for v in pool if near_to_entity(table, entity, v) == near]
    return rng.choice(pool) if pool else None
