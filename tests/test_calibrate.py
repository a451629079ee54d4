"""Item calibration (pipeline.calibrate): the 2PL fit recovers simulated parameters in dense and
sparse designs, the classical statistics are right on a case worked by hand, and planted faults
(a wrong key, two correct options) show in the statistics the triage reads."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pytest
from scipy.stats import spearmanr

from pipeline.calibrate import (
    BAND_EDGES,
    ITEM_STATS_SCHEMA,
    LEARNER_SCHEMA,
    Calibration,
    band_of,
    calibrate,
)
from pipeline.calibrate.classical import classical_statistics
from pipeline.calibrate.simulate import SimulatedBank, simulated_answers, simulated_bank

ANSWER_SCHEMA = {
    "learner_id": pl.String,
    "question_id": pl.String,
    "chosen_key": pl.String,
    "correct_key": pl.String,
}
SEED = 23
TRUE_ANSWER, SECOND_ANSWER = "B", "C"


def planted_items() -> tuple[int, int]:
    """Where to plant the wrong key and the second correct option: two items of middling
    difficulty and sharp discrimination (planting changes keys, not the drawn a and b), where
    a fault shows most; an easy or very hard item would hide it among few or noisy answers."""
    plain = simulated_bank(300, 2000, seed=SEED)
    middling = np.flatnonzero((np.abs(plain.b) < 0.5) & (plain.a > 1.5))
    return int(middling[0]), int(middling[1])


WRONG_KEY, TWO_CORRECT = planted_items()


@pytest.fixture(scope="module")
def bank() -> SimulatedBank:
    """The issue's case: 2,000 learners, 300 items with known parameters, two of them faulty."""
    return simulated_bank(
        300,
        2000,
        seed=SEED,
        wrong_keys={WRONG_KEY: TRUE_ANSWER},
        second_correct={TWO_CORRECT: SECOND_ANSWER},
    )


@pytest.fixture(scope="module", params=[1.0, 0.5], ids=["dense", "sparse"])
def fitted(request: pytest.FixtureRequest, bank: SimulatedBank) -> tuple[pl.DataFrame, Calibration]:
    """Every learner answers every item (dense) or a random half (sparse); 5 % skipped."""
    answers = simulated_answers(bank, seed=7, answered_share=request.param, skip_rate=0.05)
    return answers, calibrate(answers)


def sound_items(c: Calibration) -> pl.DataFrame:
    planted = [f"sim-q{i:05d}" for i in (WRONG_KEY, TWO_CORRECT)]
    return c.items.filter(~pl.col("question_id").is_in(planted))


def by_question(c: Calibration, i: int) -> dict[str, Any]:
    return c.items.row(i, named=True)  # question ids sort as the bank's order


def test_the_fit_recovers_difficulty_and_discrimination(
    bank: SimulatedBank, fitted: tuple[pl.DataFrame, Calibration]
) -> None:
    answers, c = fitted
    assert c.items["question_id"].to_list() == list(bank.question_ids)
    sound = np.setdiff1d(np.arange(300), [WRONG_KEY, TWO_CORRECT])  # no 2PL truth for those
    b = c.items["irt_b"].to_numpy()[sound]
    a = c.items["irt_a"].to_numpy()[sound]
    rmse_b = float(np.sqrt(np.mean((b - bank.b[sound]) ** 2)))
    rank_a = float(spearmanr(a, bank.a[sound]).statistic)
    assert rmse_b <= 0.25, rmse_b
    assert rank_a >= 0.7, rank_a
    theta = c.learners.join(
        pl.DataFrame({"learner_id": bank.learner_ids, "true": bank.theta}), on="learner_id"
    )
    assert np.corrcoef(theta["theta"], theta["true"])[0, 1] > 0.9
    s = c.summary
    assert s.converged and s.learners == 2000 and s.items == 300
    assert s.responses == answers["chosen_key"].is_not_null().sum()
    assert c.items.schema == pl.Schema(ITEM_STATS_SCHEMA)
    assert c.learners.schema == pl.Schema(LEARNER_SCHEMA)


def test_a_wrong_key_has_negative_discrimination_and_strong_learners_pick_the_true_answer(
    bank: SimulatedBank, fitted: tuple[pl.DataFrame, Calibration]
) -> None:
    _, c = fitted
    row = by_question(c, WRONG_KEY)
    key = bank.keys[WRONG_KEY].lower()
    assert row["correct_key"] == bank.keys[WRONG_KEY] != TRUE_ANSWER
    assert row["point_biserial"] < 0
    assert row["strong_" + TRUE_ANSWER.lower()] > row["strong_" + key]
    assert row["option_pbis_" + TRUE_ANSWER.lower()] > 0
    assert (sound_items(c)["point_biserial"] > 0).all()  # no sound item looks like a wrong key


def test_a_second_correct_option_is_chosen_by_able_learners(
    bank: SimulatedBank, fitted: tuple[pl.DataFrame, Calibration]
) -> None:
    _, c = fitted
    row = by_question(c, TWO_CORRECT)
    key = row["correct_key"].lower()
    assert key != SECOND_ANSWER.lower()
    assert row["option_pbis_" + SECOND_ANSWER.lower()] > 0
    assert row["point_biserial"] > 0
    # Strong learners pick it about as often as the key (half the knowers each).
    assert row["strong_" + SECOND_ANSWER.lower()] > row["strong_" + key] / 2
    # On sound items distractors draw the weaker learners.
    distractors = pl.concat(
        [
            sound_items(c).filter(pl.col("correct_key") != k)[f"option_pbis_{k.lower()}"]
            for k in "ABCD"
        ]
    )
    assert distractors.drop_nulls().median() < -0.1  # type: ignore[operator]


def test_classical_statistics_on_a_case_worked_by_hand() -> None:
    """Five learners of known θ meet q1 (key A): one picks B, three A, one skips."""
    rows = pl.DataFrame(
        {
            "question_id": ["q1"] * 5,
            "correct_key": ["A"] * 5,
            "chosen_key": ["B", "A", "A", "A", None],
            "theta": [-1.5, -0.5, 0.5, 1.5, 0.0],
        }
    )
    # The top third of five learners: the two best (θ 1.5 and 0.5).
    q1 = classical_statistics(rows, strong_from=0.5).row(0, named=True)
    assert (q1["answers"], q1["responses"]) == (5, 4)
    assert q1["share_correct"] == 0.75 and q1["skip_rate"] == pytest.approx(0.2)
    assert (q1["pick_a"], q1["pick_b"], q1["pick_c"], q1["pick_d"]) == (0.75, 0.25, 0.0, 0.0)
    assert (q1["strong_a"], q1["strong_b"]) == (1.0, 0.0)
    # Respondents' θ: mean 0, variance 1.25; choosing A: p = 3/4, cov = (-0.5 + 0.5 + 1.5) / 4.
    assert q1["option_pbis_a"] == pytest.approx(0.375 / np.sqrt(0.75 * 0.25 * 1.25))
    assert q1["option_pbis_a"] == pytest.approx(np.sqrt(0.6))
    assert q1["option_pbis_b"] == pytest.approx(-np.sqrt(0.6))
    assert q1["option_pbis_c"] is None and q1["option_pbis_d"] is None  # nobody chose them
    assert q1["point_biserial"] == q1["option_pbis_a"]


def answers_frame(rows: list[tuple[str, str, str | None, str]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=ANSWER_SCHEMA, orient="row")


def test_only_a_learners_first_answer_to_a_question_counts() -> None:
    first = answers_frame([("l1", "q1", "B", "A"), ("l2", "q1", "A", "A"), ("l3", "q1", None, "A")])
    again = pl.concat([first, answers_frame([("l1", "q1", "A", "A"), ("l3", "q1", "A", "A")])])
    c, c_again = calibrate(first), calibrate(again)
    assert c_again.items.equals(c.items)
    assert c_again.learners.equals(c.learners)
    row = c.items.row(0, named=True)
    assert (row["answers"], row["responses"], row["share_correct"]) == (3, 2, 0.5)


def test_skipped_answers_are_missing_not_wrong() -> None:
    small = simulated_bank(30, 300, seed=5)
    answers = simulated_answers(small, seed=6, skip_rate=0.2)
    with_skips = calibrate(answers)
    without = calibrate(answers.filter(pl.col("chosen_key").is_not_null()))
    columns = ["question_id", "irt_a", "irt_b", "share_correct", "point_biserial"]
    assert with_skips.items.select(columns).equals(without.items.select(columns))
    assert (with_skips.items["skip_rate"] > 0).all()
    assert (without.items["skip_rate"] == 0).all()


def test_the_same_answers_give_the_same_calibration() -> None:
    small = simulated_bank(40, 400, seed=8, wrong_keys={3: "A"})
    answers = simulated_answers(small, seed=9, answered_share=0.6, skip_rate=0.05)
    one, two = calibrate(answers), calibrate(answers.clone())
    assert one.items.equals(two.items)
    assert one.learners.equals(two.learners)
    assert one.summary == two.summary


def test_no_answers_give_empty_frames() -> None:
    c = calibrate(pl.DataFrame(schema=ANSWER_SCHEMA))
    assert c.items.is_empty() and c.items.schema == pl.Schema(ITEM_STATS_SCHEMA)
    assert c.learners.is_empty() and c.learners.schema == pl.Schema(LEARNER_SCHEMA)
    s = c.summary
    assert (s.learners, s.items, s.responses, s.iterations) == (0, 0, 0, 0)
    assert s.converged and s.log_likelihood == 0.0


def test_one_learner_one_item_and_all_skipped_do_not_break_the_fit() -> None:
    one = calibrate(answers_frame([("l1", "q1", "A", "A")]))
    row = one.items.row(0, named=True)
    assert row["share_correct"] == 1.0 and row["strong_a"] == 1.0
    assert row["point_biserial"] is None  # one respondent: no correlation
    assert np.isfinite(row["irt_a"]) and np.isfinite(row["irt_b"]) and row["band"] is not None
    assert one.summary.converged and one.learners["responses"].to_list() == [1]

    one_item = calibrate(
        answers_frame([(f"l{i}", "q1", k, "A") for i, k in enumerate(["A", "A", "B", "C", None])])
    )
    assert one_item.summary.converged and one_item.items.height == 1
    assert one_item.items.item(0, "point_biserial") > 0

    skipped = calibrate(answers_frame([("l1", "q1", None, "A"), ("l2", "q2", None, "B")]))
    assert skipped.summary.responses == 0 and skipped.summary.converged
    assert skipped.items["irt_b"].null_count() == 2 and skipped.items["band"].null_count() == 2
    assert skipped.items["skip_rate"].to_list() == [1.0, 1.0]
    assert skipped.learners.select(pl.col("theta").abs().max()).item() < 1e-9  # the prior mean


def test_answers_with_keys_outside_a_to_d_are_refused() -> None:
    with pytest.raises(ValueError, match="outside A–D"):
        calibrate(answers_frame([("l1", "q1", "E", "A")]))
    with pytest.raises(ValueError, match="lack columns"):
        calibrate(pl.DataFrame({"learner_id": ["l1"]}))


def test_bands_split_difficulty_at_the_edges() -> None:
    low, high = BAND_EDGES
    b = pl.DataFrame({"b": [-2.0, low - 0.01, low, 0.0, high, high + 0.01, None]})
    bands = b.select(band_of(pl.col("b")))["band"].to_list()
    assert bands == ["Easy", "Easy", "Medium", "Medium", "Medium", "Hard", None]


def test_simulated_answers_can_target_real_questions_and_their_keys() -> None:
    ids, keys = ["phy-1", "che-2", "bot-3"], ["A", "D", "C"]
    bank = simulated_bank(3, 50, seed=1, wrong_keys={0: "B"}, question_ids=ids, keys=keys)
    assert bank.keys == ("A", "D", "C") and bank.true_answers == ("B", "D", "C")
    assert np.array_equal(bank.b, simulated_bank(3, 50, seed=1).b)  # planting draws nothing
    answers = simulated_answers(bank, seed=2)
    assert set(answers["question_id"]) == set(ids) and answers.height == 150
    assert dict(answers.select("question_id", "correct_key").unique().iter_rows()) == dict(
        zip(ids, keys, strict=True)
    )
    with pytest.raises(ValueError, match="is its recorded key"):
        simulated_bank(3, 5, seed=1, second_correct={1: "D"}, question_ids=ids, keys=keys)
