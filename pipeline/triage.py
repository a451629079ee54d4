"""Triage of questions students reported or the statistics flag: fresh solves with the options in
another order, the item statistics, and a decision — withdrawn, queued for review, or confirmed.

A stored question passed the gate once; what slipped through shows up as a solver that now
disagrees, or as several learners reporting the same fault with statistics that bear them out.
Classical item analysis (e.g. Haladyna, *Developing and Validating Multiple-Choice Test Items*,
ch. 9): a key the strong learners avoid, or a distractor they favour, means a wrong key or a
second correct option.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from core.feedback import ReportReason
from core.ids import digest
from core.records import OPTION_KEYS, Draft, Option, OptionKey, Question
from pipeline.verify.gate import (
    MIN_CONFIDENCE,
    SOLVER_DISAGREED,
    Solver,
    rejection_reason,
    solver_view,
    unanswered,
)

# Reports from this many distinct learners agreeing, with statistics that support them, withdraw
# a question (issue 23).
AGREEING_LEARNERS = 3
# A distractor counts against the key only when choosing it goes with higher ability (its
# point-biserial above ATTRACTS_PBIS); it "attracts strong learners" when the top third then
# picks it at least ATTRACTS_SHARE as often as the key, and "beats the key" when more often.
ATTRACTS_SHARE = 0.5
ATTRACTS_PBIS = 0.05
# The faults statistics can bear out; the others (typo, syllabus, figure) need a person.
KEY_FAULTS = frozenset({ReportReason.WRONG_KEY, ReportReason.TWO_CORRECT, ReportReason.NO_CORRECT})


class Decision(StrEnum):
    WITHDRAWN = "withdrawn"
    REVIEW = "review"  # listed in the nightly report for a person
    CONFIRMED = "confirmed"  # fresh solves agree and nothing else speaks against it


@dataclass(frozen=True)
class Flag:
    """A statistical sign against a question; `option` is the distractor it names, if any."""

    name: str  # negative_discrimination, distractor_beats_key, distractor_attracts_strong
    option: str | None = None

    def __str__(self) -> str:
        return self.name + (f" ({self.option})" if self.option else "")


def statistical_flags(stats: Mapping[str, Any] | None, min_responses: int) -> tuple[Flag, ...]:
    """The signs in one question's item statistics (core/schema.py `item_stats` columns); none
    below `min_responses` answers, where they are noise."""
    if stats is None or (stats.get("responses") or 0) < min_responses:
        return ()
    key = stats["correct_key"].lower()
    flags: list[Flag] = []
    if stats.get("point_biserial") is not None and stats["point_biserial"] < 0:
        flags.append(Flag("negative_discrimination"))
    strong_key = stats.get(f"strong_{key}") or 0.0
    for option in OPTION_KEYS:
        o = option.lower()
        if o == key:
            continue
        strong = stats.get(f"strong_{o}")
        pbis = stats.get(f"option_pbis_{o}")
        # Only a distractor chosen more by abler learners counts: on a very hard item the
        # strong may guess a distractor more often than they know the key, but at random.
        if strong is None or pbis is None or pbis <= ATTRACTS_PBIS:
            continue
        if strong > strong_key:
            flags.append(Flag("distractor_beats_key", option))
        elif strong >= ATTRACTS_SHARE * strong_key:
            flags.append(Flag("distractor_attracts_strong", option))
    return tuple(flags)


@dataclass(frozen=True)
class Agreement:
    """What most distinct learners report about a question."""

    reason: ReportReason
    option: str | None  # the option most of them name, if they name one
    learners: int


def agreement(reports: Sequence[Mapping[str, Any]]) -> Agreement | None:
    """The reason the most distinct learners give (rows: learner_id, reason, option)."""
    by_reason: dict[ReportReason, set[str]] = {}
    named: dict[ReportReason, set[tuple[str, str]]] = {}
    for r in reports:
        reason = ReportReason(r["reason"])
        by_reason.setdefault(reason, set()).add(r["learner_id"])
        if r.get("option"):  # a learner names an option once, however many reports they send
            named.setdefault(reason, set()).add((r["learner_id"], r["option"]))
    if not by_reason:
        return None
    reason = max(by_reason, key=lambda x: (len(by_reason[x]), x in KEY_FAULTS, x.value))
    options = Counter(option for _, option in sorted(named.get(reason, ())))
    top = options.most_common(1)[0][0] if options else None
    return Agreement(reason, top, len(by_reason[reason]))


def supports(agreed: Agreement, flags: Sequence[Flag]) -> bool:
    """Whether the statistics bear out what the learners report (only key faults can be)."""
    names = {f.name for f in flags}

    def about(option: str | None, *kinds: str) -> bool:
        return any(f.name in kinds and (option is None or f.option == option) for f in flags)

    if agreed.reason is ReportReason.WRONG_KEY:
        return "negative_discrimination" in names or about(agreed.option, "distractor_beats_key")
    if agreed.reason is ReportReason.TWO_CORRECT:
        return about(agreed.option, "distractor_attracts_strong", "distractor_beats_key")
    if agreed.reason is ReportReason.NO_CORRECT:
        return "negative_discrimination" in names or about(None, "distractor_beats_key")
    return False


@dataclass(frozen=True)
class Solve:
    """A fresh solve of a stored question, its choice in the stored option order; `refusal` is
    the gate's reason to refuse the question now (None: it would accept it again)."""

    solver: str
    choice: str | None
    confidence: float
    note: str
    refusal: str | None


def rotated(question: Question, shift: int) -> tuple[Draft, dict[OptionKey, OptionKey]]:
    """The question with its option texts moved `shift` places (A's text under B for 1), and
    the stored key of each shown key."""
    options = question.content.options
    shown: list[Option] = []
    back: dict[OptionKey, OptionKey] = {}
    for i, key in enumerate(OPTION_KEYS):
        source = options[(i - shift) % len(options)]
        shown.append(Option(key=key, text=source.text))
        back[key] = source.key
    key = next(k for k, stored in back.items() if stored == question.content.correct_key)
    content = question.content.model_copy(update={"options": tuple(shown), "correct_key": key})
    return Draft(content=content, provenance=question.provenance), back


class NoReply(RuntimeError):
    """A solver's answer never came (timeout, 5xx): the question waits for the next night."""


def fresh_solves(question: Question, solvers: Sequence[Solver]) -> tuple[Solve, ...]:
    """Each solver's answer with the options in another order than stored (and than each
    other's), mapped back to the stored keys, judged by the gate's own rule."""
    solves = []
    for n, solver in enumerate(solvers, 1):
        draft, back = rotated(question, n)
        answer = solver.solve(solver_view(draft))  # the key stays unseen: only the view
        if (why := unanswered(answer)) is not None:
            raise NoReply(f"{answer.solver}: {why}")
        refusal = rejection_reason(draft, answer, MIN_CONFIDENCE)
        choice = back[answer.choice] if answer.choice is not None else None
        solves.append(Solve(answer.solver, choice, answer.confidence, answer.note, refusal))
    return tuple(solves)


@dataclass(frozen=True)
class Triage:
    question_id: str
    decision: Decision
    why: str
    flags: tuple[Flag, ...]
    solves: tuple[Solve, ...]
    agreed: Agreement | None
    reports: int


def triaged(
    question: Question,
    reports: Sequence[Mapping[str, Any]],
    flags: Sequence[Flag],
    solves: Sequence[Solve],
) -> Triage:
    """The decision on one question from its reports, flags and fresh solves.

    Withdrawn when a fresh solve picks another option than the key, or the solver that vouched
    for the question now refuses it (an abstention such as "2 options within tolerance"), or
    when at least
    AGREEING_LEARNERS distinct learners report the same key fault and the statistics support
    them; confirmed when every solve agrees and nothing else is against it; else review.
    """
    key = question.content.correct_key
    agreed = agreement(reports)

    def result(decision: Decision, why: str) -> Triage:
        return Triage(
            question.question_id, decision, why, tuple(flags), tuple(solves), agreed, len(reports)
        )

    for s in solves:  # re-verification disagrees
        # Another solver's abstention is no evidence: the offline solver cannot answer a
        # model-drafted question it never saw the like of, and that is not a fault of it.
        if s.refusal == SOLVER_DISAGREED or (s.refusal and s.solver == question.verdict.solver):
            chose = f"chose {s.choice}, key {key}" if s.choice else s.note or "no choice"
            return result(Decision.WITHDRAWN, f"fresh solve by {s.solver}: {s.refusal} ({chose})")
    if agreed is not None and agreed.learners >= AGREEING_LEARNERS and supports(agreed, flags):
        said = agreed.reason.value.replace("_", " ") + (
            f" ({agreed.option})" if agreed.option else ""
        )
        signs = ", ".join(str(f) for f in flags)
        return result(Decision.WITHDRAWN, f"{agreed.learners} learners report {said}; {signs}")
    against = [str(f) for f in flags]
    if agreed is not None:
        against.append(f"{agreed.learners} learner(s) report {agreed.reason.value}")
    person = any(ReportReason(r["reason"]) not in KEY_FAULTS for r in reports)
    many = agreed is not None and agreed.learners >= AGREEING_LEARNERS
    unconfirmed = not any(s.refusal is None for s in solves)
    if unconfirmed:
        against.append("no fresh solve could confirm it")
    if flags or person or many or unconfirmed:
        return result(Decision.REVIEW, "; ".join(against))
    return result(Decision.CONFIRMED, "fresh solves agree; " + "; ".join(against or ["no flag"]))


def triage_id(question_id: str, report_ids: Sequence[str], flags: Sequence[Flag]) -> str:
    """The evidence a decision was made on: the same evidence is never triaged (or paid) twice."""
    return "t-" + digest([question_id, sorted(report_ids), sorted(str(f) for f in flags)])
