"""The difficulty rubric: what a question demands of a student, turned into Easy, Medium or Hard.

A label follows the thinking a question asks for, never its format. Every generator declares a
`Demand` for each draft it makes (a numerical template for all its drafts; a fact format per
draft, measured on the options it chose), and `rated` turns it into the label and the reason
stored with the question (`difficulty_reason`).

The rubric (thresholds are the constants below):

- **Hard**: three or more steps (`HARD_STEPS`); or two or more concepts chained (`HARD_CONCEPTS`),
  each step a relation of a different idea (energy conservation, then circular motion); or a
  multi-claim item (`HARD_CLAIMS` or more claims) whose every false claim is a near miss.
- **Medium**: two steps; or one relation used in reverse (solved for one of its inputs, or a
  recall from property to member); or a judgement between close options (the best distractor,
  or one of the false claims, is a near miss).
- **Easy**: one recall or one substitution. Several claims none of which is a near miss are
  several separate recalls, and still Easy: a teacher reads "which pair is incorrectly matched"
  with an absurd false pair as Easy.

What counts as a step: applying one relation or making one recall whose result the next step
uses. A unit conversion, a ratio, or a second use of the same idea is not a step. A paper's
multi-step questions (the blueprint's minimum) are those of two or more steps
(`pipeline.assemble.selection.MULTI_STEP`): chains, two-step numericals, genetics crosses, and
assertion-reason items, whose second step judges whether the reason explains the assertion.
What counts as a near miss is up to the generator to measure and say: for fact tables, a false
value that shares a word with the true one ("anterior pituitary" for "posterior pituitary"); for
coded matchings, wrong codings that are the ways to order two separate pairs of rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.records import Difficulty

HARD_STEPS = 3
HARD_CONCEPTS = 2
HARD_CLAIMS = 3
MEDIUM_STEPS = 2
# No question chains more steps than a digit counts or asks more claims than a statement set
# letters (A to E and one more): a demand beyond is a bad declaration, refused.
MAX_STEPS = 9
MAX_CLAIMS = 6


@dataclass(frozen=True)
class Demand:
    """What answering a question takes.

    steps: relations applied or recalls made in sequence, each using the one before;
    concepts: distinct concepts those steps draw on (1 when they are one idea);
    reversed: a relation solved for one of its inputs, or a recall from property to member;
    claims: independent claims judged true or false (1 for a single question);
    near_miss: the best distractor is close to the key (for several claims: at least one false
        claim is close to the truth it replaces);
    all_near: several claims, and every false one is close to the truth it replaces.
    """

    steps: int = 1
    concepts: int = 1
    reversed: bool = False
    claims: int = 1
    near_miss: bool = False
    all_near: bool = False

    def __post_init__(self) -> None:
        if self.steps < 1 or self.concepts < 1 or self.claims < 1:
            raise ValueError(f"a demand counts at least one of each: {self}")
        if self.steps > MAX_STEPS or self.claims > MAX_CLAIMS:
            raise ValueError(f"at most {MAX_STEPS} steps and {MAX_CLAIMS} claims: {self}")
        if self.concepts > self.steps:
            raise ValueError(f"{self.concepts} concepts need as many steps, not {self.steps}")
        if self.all_near and not self.near_miss:
            raise ValueError("every false claim near means at least one is")


def rated(demand: Demand) -> tuple[Difficulty, str]:
    """The label the rubric gives a demand, and the rubric's reason for it, in words.

    The reason names the number of steps whenever there are two or more ("Hard: 2 steps, 2
    concepts chained"), so the pool can tell multi-step questions by it
    (`core.pool.steps_in_reason`)."""
    steps = [f"{demand.steps} steps"] if demand.steps >= MEDIUM_STEPS else []
    hard = []
    if demand.concepts >= HARD_CONCEPTS:
        hard.append(f"{demand.concepts} concepts chained")
    if demand.claims >= HARD_CLAIMS and demand.all_near:
        hard.append(f"{demand.claims} claims, every false one a near miss")
    if demand.steps >= HARD_STEPS or hard:
        return Difficulty.HARD, "Hard: " + ", ".join(steps + hard)
    medium = []
    if demand.reversed:
        medium.append("a relation used in reverse")
    if demand.near_miss:
        medium.append("a judgement between close options")
    claims = [f"{demand.claims} claims"] if demand.claims >= 2 else []
    if steps or medium:
        return Difficulty.MEDIUM, "Medium: " + ", ".join(steps + claims + medium)
    if claims:
        return Difficulty.EASY, f"Easy: {demand.claims} claims, each one recall, none a near miss"
    return Difficulty.EASY, "Easy: one recall or one substitution"


def difficulty_reason(demand: Demand, what: str) -> str:
    """The stored reason: the rubric's verdict, then what the generator says the steps are."""
    return f"{rated(demand)[1]} ({what})" if what else rated(demand)[1]
