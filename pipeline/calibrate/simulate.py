"""Simulated answers from known 2PL parameters: what the calibration is tested and benchmarked
on, and what an end-to-end test can send through the API. Seeded, so a run is repeatable.

A learner of ability θ knows an item with probability 1 / (1 + exp(-a (θ - b))) and then picks
the item's true answer; otherwise they pick one of the other three options at random. Each
learner answers a random share of the items, and skips an answered one at random with
probability `skip_rate` (independent of ability: skips are missing at random here).

Two faults can be planted, as the bank meets them:
- a wrong key: learners who know pick the true answer, but the recorded key is another option;
- two correct options: learners who know pick the key or a second option, half each.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from core.records import OPTION_KEYS


@dataclass(frozen=True)
class SimulatedBank:
    """True parameters of the simulated items and learners."""

    question_ids: tuple[str, ...]
    a: np.ndarray
    b: np.ndarray
    keys: tuple[str, ...]  # the recorded key of each item
    true_answers: tuple[str, ...]  # what learners who know pick (differs from a wrong key)
    learner_ids: tuple[str, ...]
    theta: np.ndarray
    # Item index -> the option that is planted as a fault (see module docstring).
    wrong_keys: Mapping[int, str] = field(default_factory=dict)
    second_correct: Mapping[int, str] = field(default_factory=dict)


def simulated_bank(
    items: int,
    learners: int,
    seed: int,
    wrong_keys: Mapping[int, str] | None = None,
    second_correct: Mapping[int, str] | None = None,
    question_ids: Sequence[str] | None = None,
    keys: Sequence[str] | None = None,
) -> SimulatedBank:
    """Items with a ~ U(0.5, 2.5), b ~ U(-2, 2) and random keys (or the given question ids and
    recorded keys, to simulate answers to real questions); learners with θ ~ N(0, 1) and UUID
    ids. `wrong_keys[i] = X`: item i's true answer is X and its recorded key another option
    (with given keys, X must differ from item i's); `second_correct[i] = X`: option X, not the
    key, is right too. The draws of a, b and θ do not depend on what is planted."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.5, 2.5, items)
    b = rng.uniform(-2.0, 2.0, items)
    drawn = [OPTION_KEYS[k] for k in rng.integers(0, 4, items)]
    recorded = list(keys) if keys is not None else drawn
    ids = (
        list(question_ids) if question_ids is not None else [f"sim-q{i:05d}" for i in range(items)]
    )
    if len(recorded) != items or len(ids) != items:
        raise ValueError(f"{items} items but {len(ids)} question ids and {len(recorded)} keys")
    true_answers = list(recorded)
    wrong = dict(wrong_keys or {})
    second = dict(second_correct or {})
    for i, x in wrong.items():
        if keys is None:
            recorded[i] = next(k for k in OPTION_KEYS if k != x)
        elif recorded[i] == x:
            raise ValueError(f"item {i}: the wrong key's true answer {x} is its recorded key")
        true_answers[i] = x
    for i, x in second.items():
        if keys is None and recorded[i] == x:
            recorded[i] = true_answers[i] = next(k for k in OPTION_KEYS if k != x)
        elif recorded[i] == x:
            raise ValueError(f"item {i}: the second correct option {x} is its recorded key")
    return SimulatedBank(
        question_ids=tuple(ids),
        a=a,
        b=b,
        keys=tuple(recorded),
        true_answers=tuple(true_answers),
        learner_ids=tuple(str(uuid.UUID(bytes=rng.bytes(16), version=4)) for _ in range(learners)),
        theta=rng.standard_normal(learners),
        wrong_keys=wrong,
        second_correct=second,
    )


def simulated_answers(
    bank: SimulatedBank, seed: int, answered_share: float = 1.0, skip_rate: float = 0.0
) -> pl.DataFrame:
    """Each learner's answers (learner_id, question_id, chosen_key: null when skipped,
    correct_key), learner by learner, items in a random order per learner. The draws are
    learners × items arrays: keep that product to some millions (a subset of a large pool)."""
    rng = np.random.default_rng(seed)
    n_learners, n_items = bank.theta.size, bank.a.size
    # Which items each learner meets (a random share) and in what order.
    order = np.argsort(rng.random((n_learners, n_items)), axis=1)
    met = rng.random((n_learners, n_items)) < answered_share
    learner, slot = np.nonzero(met)
    item = order[learner, slot]
    z = bank.a[item] * (bank.theta[learner] - bank.b[item])
    knows = rng.random(item.size) < 1.0 / (1.0 + np.exp(-z))
    options = np.array(OPTION_KEYS)
    true = np.array(bank.true_answers)[item]
    # Learners who know pick the true answer, or with two right options either one.
    second = np.array([bank.second_correct.get(i, "") for i in range(n_items)])[item]
    take_second = (second != "") & (rng.random(item.size) < 0.5)
    known_pick = np.where(take_second, second, true)
    # Learners who don't know pick one of the three options other than the true answer.
    offset = rng.integers(1, 4, item.size)
    true_index = np.searchsorted(options, true)
    guess = options[(true_index + offset) % 4]
    chosen = np.where(knows, known_pick, guess).astype(object)
    chosen[rng.random(item.size) < skip_rate] = None
    return pl.DataFrame(
        {
            "learner_id": np.array(bank.learner_ids)[learner],
            "question_id": np.array(bank.question_ids)[item],
            "chosen_key": chosen,
            "correct_key": np.array(bank.keys)[item],
        },
        schema={
            "learner_id": pl.String,
            "question_id": pl.String,
            "chosen_key": pl.String,
            "correct_key": pl.String,
        },
    )
