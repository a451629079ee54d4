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
from collections.abc import Mapping
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
) -> SimulatedBank:
    """Items with a ~ U(0.5, 2.5), b ~ U(-2, 2) and random keys; learners with θ ~ N(0, 1) and
    UUID ids. `wrong_keys[i] = X`: item i's true answer is X and its recorded key another
    option; `second_correct[i] = X`: option X (not the key) is right too."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.5, 2.5, items)
    b = rng.uniform(-2.0, 2.0, items)
    keys = [OPTION_KEYS[k] for k in rng.integers(0, 4, items)]
    true_answers = list(keys)
    wrong = dict(wrong_keys or {})
    for i, x in wrong.items():
        true_answers[i] = x
        keys[i] = next(k for k in OPTION_KEYS if k != x)
    for i, x in (second_correct or {}).items():
        if keys[i] == x:
            keys[i] = next(k for k in OPTION_KEYS if k != x)
            true_answers[i] = keys[i]
    return SimulatedBank(
        question_ids=tuple(f"sim-q{i:05d}" for i in range(items)),
        a=a,
        b=b,
        keys=tuple(keys),
        true_answers=tuple(true_answers),
        learner_ids=tuple(str(uuid.UUID(bytes=rng.bytes(16), version=4)) for _ in range(learners)),
        theta=rng.standard_normal(learners),
        wrong_keys=wrong,
        second_correct=dict(second_correct or {}),
    )


def simulated_answers(
    bank: SimulatedBank, seed: int, answered_share: float = 1.0, skip_rate: float = 0.0
) -> pl.DataFrame:
    """Each learner's answers (learner_id, question_id, chosen_key: null when skipped,
    correct_key), learner by learner, items in a random order per learner."""
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
