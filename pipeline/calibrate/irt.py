"""The 2PL item response model fitted by marginal maximum likelihood over sparse responses.

P(correct | θ) = 1 / (1 + exp(-a (θ - b))), the logistic metric without the 1.7 scaling, with
abilities θ ~ N(0, 1) integrated out over fixed quadrature. The fit is the EM algorithm of
Bock & Aitkin (1981), "Marginal maximum likelihood estimation of item parameters: application of
an EM algorithm", Psychometrika 46, and Baker & Kim, *Item Response Theory: Parameter Estimation
Techniques* (2nd ed., 2004), ch. 6–7:

- E-step: each learner's posterior over the quadrature nodes given their responses, summed into
  expected counts per item and node (n: learners at the node who answered the item; r: of them,
  answered it right);
- M-step: each item's (log a, c), with a (θ - b) = a θ + c, maximises its expected
  complete-data log-likelihood plus weak priors, by Fisher scoring vectorised over all items at
  once. The intercept form keeps an item whose a goes to its floor (a wrong key) finite, where
  b = -c / a would run off along a ridge.

Responses are index arrays turned into scipy.sparse matrices: learners answer a few hundred of
tens of thousands of questions, so a learners × items matrix would be almost all empty. Every
per-iteration product is sparse × (items × nodes) or its transpose: the cost grows with the
number of responses, not with learners × items.

The priors keep an item that everyone (or no one) answered right finite, and an item few have
answered close to an average one: log a ~ N(0, 0.75²) (a between about 0.22 and 4.5 at 2 SD),
c ~ N(0, 3²). Both are weak against the hundreds of answers an item needs before the assembler
trusts it; the narrower log a ~ N(0, 0.5²) of BILOG's default shrank the simulated a's (0.5 to
2.5) by 5 % and raised b's RMSE from 0.075 to 0.094 at 1,900 answers an item. a stays
positive: an item whose right answers fall with ability (a wrong key) gets a small a, and its
negative point-biserial is what says so (pipeline.calibrate.classical).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.special import expit, log_expit, logsumexp

QUADRATURE_NODES = 41
QUADRATURE_BOUND = 5.0  # nodes from -5 to 5: ±5 SD covers all but 6e-7 of N(0, 1)
LOG_A_PRIOR = (0.0, 0.75)  # mean, SD of log a
INTERCEPT_PRIOR = (0.0, 3.0)  # mean, SD of the intercept c = -a b
A_RANGE = (0.05, 6.0)
B_RANGE = (-6.0, 6.0)  # b as reported: beyond ±6 no learner's answers tell more
MAX_ITERATIONS = 500
# Converged when no item's log a or c moves by more than this in a plain EM cycle (far below
# what a few hundred answers can tell apart).
TOLERANCE = 1e-4
# Fisher-scoring steps per M-step (a generalised EM: each cycle need only improve the items).
NEWTON_STEPS = 2
MAX_STEP = 1.0  # largest change of log a or c in one scoring step
HALVINGS = 10


@dataclass(frozen=True)
class Responses:
    """Dichotomous responses as parallel index arrays: learner row, item column, right or not.
    Skipped answers are absent (missing), never wrong."""

    learner: np.ndarray  # int64, 0 .. learners - 1
    item: np.ndarray  # int64, 0 .. items - 1
    correct: np.ndarray  # bool
    learners: int
    items: int


@dataclass(frozen=True)
class TwoPLFit:
    """Item parameters, EAP abilities and how the fit ended."""

    a: np.ndarray  # per item: discrimination
    b: np.ndarray  # per item: difficulty
    theta: np.ndarray  # per learner: posterior mean of ability (EAP)
    theta_sd: np.ndarray  # per learner: posterior SD of ability
    iterations: int
    converged: bool
    log_likelihood: float  # marginal log-likelihood of the responses at the final parameters


def quadrature() -> tuple[np.ndarray, np.ndarray]:
    """Equally spaced nodes on [-5, 5] and their N(0, 1) weights (summing to 1)."""
    nodes = np.linspace(-QUADRATURE_BOUND, QUADRATURE_BOUND, QUADRATURE_NODES)
    weights = np.exp(-0.5 * nodes**2)
    return nodes, weights / weights.sum()


def _matrices(rs: Responses) -> tuple[sparse.csr_array, sparse.csr_array]:
    """(answered, right): learners × items 0/1 matrices in CSR (one answer per learner and
    item: the caller keeps the first)."""
    shape = (rs.learners, rs.items)
    ones = np.ones(rs.learner.size)
    answered = sparse.csr_array((ones, (rs.learner, rs.item)), shape=shape)
    right = sparse.csr_array(
        (ones[rs.correct], (rs.learner[rs.correct], rs.item[rs.correct])), shape=shape
    )
    answered.sort_indices()
    right.sort_indices()
    return answered, right


def _posterior(
    answered: sparse.csr_array,
    right: sparse.csr_array,
    a: np.ndarray,
    c: np.ndarray,
    nodes: np.ndarray,
    log_weights: np.ndarray,
) -> tuple[np.ndarray, float]:
    """Each learner's posterior over the nodes (learners × nodes) and the marginal
    log-likelihood. log L = Σ_answered log(1 - P) + Σ_right logit P, as two sparse products."""
    z = a[:, None] * nodes[None, :] + c[:, None]  # items × nodes: logit P
    joint = answered @ log_expit(-z) + right @ z + log_weights[None, :]
    marginal = logsumexp(joint, axis=1, keepdims=True)
    return np.exp(joint - marginal), float(marginal.sum())


def _expected_log_posterior(
    a: np.ndarray, c: np.ndarray, n: np.ndarray, r: np.ndarray, nodes: np.ndarray
) -> np.ndarray:
    """Per item: the expected complete-data log-likelihood on the counts, plus the log priors
    (what the M-step maximises)."""
    z = a[:, None] * nodes[None, :] + c[:, None]
    (mu_a, sd_a), (mu_c, sd_c) = LOG_A_PRIOR, INTERCEPT_PRIOR
    likelihood = (r * z + n * log_expit(-z)).sum(axis=1)
    return likelihood - 0.5 * ((np.log(a) - mu_a) / sd_a) ** 2 - 0.5 * ((c - mu_c) / sd_c) ** 2


def _scoring_step(
    a: np.ndarray, c: np.ndarray, n: np.ndarray, r: np.ndarray, nodes: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One Fisher-scoring step of every item's (log a, c) on its expected counts, where
    a (θ - b) = a θ + c, halved for an item until it does not lower that item's objective;
    returns the new a, c and each item's largest parameter change."""
    p = expit(a[:, None] * nodes[None, :] + c[:, None])
    resid = r - n * p
    w = n * p * (1.0 - p)
    log_a = np.log(a)
    (mu_a, sd_a), (mu_c, sd_c) = LOG_A_PRIOR, INTERCEPT_PRIOR
    # Gradient and expected information of the log-posterior in (log a, c).
    g_la = a * (resid @ nodes) - (log_a - mu_a) / sd_a**2
    g_c = resid.sum(axis=1) - (c - mu_c) / sd_c**2
    i_ll = a**2 * (w @ nodes**2) + 1.0 / sd_a**2
    i_cc = w.sum(axis=1) + 1.0 / sd_c**2
    i_lc = a * (w @ nodes)
    det = i_ll * i_cc - i_lc**2  # > 0: the priors make the information positive definite
    step_la = (i_cc * g_la - i_lc * g_c) / det
    step_c = (i_ll * g_c - i_lc * g_la) / det
    # An item whose a sits at a bound of A_RANGE and would leave it moves its intercept alone.
    low, high = np.log(A_RANGE)
    pinned = ((log_a <= low) & (step_la < 0)) | ((log_a >= high) & (step_la > 0))
    step_la = np.clip(np.where(pinned, 0.0, step_la), -MAX_STEP, MAX_STEP)
    step_c = np.clip(np.where(pinned, g_c / i_cc, step_c), -MAX_STEP, MAX_STEP)
    # Expected information can overshoot where the model fits badly (an item whose right
    # answers fall with ability wants a < 0): halve those items' steps until they climb.
    before = _expected_log_posterior(a, c, n, r, nodes)
    scale = np.ones_like(a)
    for _ in range(HALVINGS):
        trial_a = np.clip(np.exp(log_a + scale * step_la), *A_RANGE)
        worse = _expected_log_posterior(trial_a, c + scale * step_c, n, r, nodes) < before
        if not worse.any():
            break
        scale[worse] *= 0.5
    else:
        scale[worse] = 0.0
    new_a = np.clip(np.exp(log_a + scale * step_la), *A_RANGE)
    new_c = c + scale * step_c
    moved = np.maximum(np.abs(np.log(new_a) - log_a), np.abs(new_c - c))
    return new_a, new_c, moved


def _start(rs: Responses) -> tuple[np.ndarray, np.ndarray]:
    """a = 1 and c from each item's share right (its logit, widened by the spread of abilities
    it averages over); an item nobody answered starts, and stays, at a = 1, c = 0."""
    answered = np.bincount(rs.item, minlength=rs.items).astype(float)
    right = np.bincount(rs.item[rs.correct], minlength=rs.items).astype(float)
    share = (right + 0.5) / (answered + 1.0)
    return np.ones(rs.items), np.log(share / (1.0 - share)) * 1.2


@dataclass(frozen=True)
class _Design:
    """The responses as the EM cycle uses them: sparse learners × items and items × learners."""

    answered: sparse.csr_array
    right: sparse.csr_array
    answered_t: sparse.csr_array
    right_t: sparse.csr_array
    nodes: np.ndarray
    log_weights: np.ndarray


def _log_prior(log_a: np.ndarray, c: np.ndarray) -> float:
    (mu_a, sd_a), (mu_c, sd_c) = LOG_A_PRIOR, INTERCEPT_PRIOR
    return float(-0.5 * (((log_a - mu_a) / sd_a) ** 2 + ((c - mu_c) / sd_c) ** 2).sum())


def _em_cycle(d: _Design, x: np.ndarray) -> tuple[np.ndarray, float]:
    """One EM cycle from x = (log a, c) stacked: the next x, and the log-posterior at x (the
    marginal log-likelihood plus the log priors), which no cycle lowers."""
    a, c = np.exp(x[0]), x[1]
    post, log_likelihood = _posterior(d.answered, d.right, a, c, d.nodes, d.log_weights)
    n, r = d.answered_t @ post, d.right_t @ post  # items × nodes: expected counts
    for _ in range(NEWTON_STEPS):
        a, c, _ = _scoring_step(a, c, n, r, d.nodes)
    return np.stack([np.log(a), c]), log_likelihood + _log_prior(x[0], x[1])


def fit_2pl(rs: Responses) -> TwoPLFit:
    """Fit the 2PL model to the responses (Bock–Aitkin EM); abilities are EAP under N(0, 1).

    EM converges slowly near the optimum (each cycle closes only part of the gap), so cycles
    are accelerated with SQUAREM (Varadhan & Roland 2008, "Simple and globally convergent
    methods for accelerating the convergence of any EM algorithm", Scand. J. Statist. 35):
    two cycles give a direction, the step along it is extrapolated, and kept only if the
    log-posterior did not fall (else the two plain cycles are kept). `iterations` counts EM
    cycles (E-steps)."""
    nodes, weights = quadrature()
    answered, right = _matrices(rs)
    d = _Design(answered, right, answered.T.tocsr(), right.T.tocsr(), nodes, np.log(weights))
    a, c = _start(rs)
    x = np.stack([np.log(a), c])
    log_a_range = np.log(A_RANGE)
    converged = rs.learner.size == 0
    iterations = 0
    longest = 1.0  # the longest extrapolation tried: grows while extrapolations succeed
    while not converged and iterations < MAX_ITERATIONS:
        x1, objective = _em_cycle(d, x)
        x2, _ = _em_cycle(d, x1)
        iterations += 2
        r = x1 - x
        v = x2 - x1 - r
        if np.abs(r).max() < TOLERANCE or not v.any():
            x, converged = x2, True
            break
        alpha = float(np.clip(-np.linalg.norm(r) / np.linalg.norm(v), -longest, -1.0))
        jump = x - 2 * alpha * r + alpha**2 * v
        jump[0] = np.clip(jump[0], *log_a_range)
        x_jump, jump_objective = _em_cycle(d, jump)
        iterations += 1
        if np.isfinite(jump_objective) and jump_objective >= objective:
            x = x_jump
            longest = longest * 4 if alpha == -longest else longest
        else:
            x, longest = x2, 1.0
    a, c = np.exp(x[0]), x[1]
    post, log_likelihood = _posterior(answered, right, a, c, nodes, d.log_weights)
    theta = post @ nodes
    theta_sd = np.sqrt(np.maximum(post @ nodes**2 - theta**2, 0.0))
    b = np.clip(-c / a, *B_RANGE)
    return TwoPLFit(a, b, theta, theta_sd, iterations, converged, log_likelihood)
