"""Draft → independent solve → agreement gate. Only agreed drafts become stored questions."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from core.ids import attempt_id, question_id
from core.records import (
    OPTION_KEYS,
    Attempt,
    Difficulty,
    Draft,
    Question,
    QuestionFormat,
    SolverAnswer,
    SolverVerdict,
    SolverView,
    Subject,
    Verdict,
)
from kb.elements import ElementData
from kb.knowledge import KnowledgeBase
from kb.retrieval import content_tokens
from kb.syllabus import Syllabus
from pipeline.causes import assertion_reason_drafts
from pipeline.elements import element_drafts
from pipeline.facts import fact_drafts
from pipeline.numerical import NumericalTemplate, numerical_drafts
from pipeline.streams import round_robin

MIN_CONFIDENCE = 0.1


class Drafter(Protocol):
    """Produces candidate drafts for one cell of the pool: subject × difficulty (× unit or topic).

    `topic_id` narrows the drafts to one topic of the unit (the worker's practice sets): a
    drafter must not pay for drafts of other topics only to have them thrown away.
    """

    def drafts(
        self,
        subject: Subject,
        difficulty: Difficulty,
        progress: Mapping[str, int],
        unit_id: str | None = None,
        topic_id: str | None = None,
    ) -> Iterator[Draft]: ...


@runtime_checkable
class CallDrafter(Protocol):
    """A drafter whose every draft is one blocking call (a model's), so calls can overlap.

    `pending` yields the calls still worth making for a cell, in order, and ends early when the
    drafter must stop (a spent token budget, a provider that is down); `draft` makes one call
    and is safe to run in several threads at once. It returns the Draft, or anything else when
    the call gave none (the drafter has recorded why).
    """

    def pending(
        self,
        subject: Subject,
        difficulty: Difficulty,
        progress: Mapping[str, int],
        unit_id: str | None = None,
        topic_id: str | None = None,
    ) -> Iterator[Any]: ...

    def draft(self, request: Any) -> object: ...


class Solver(Protocol):
    """Answers a question it sees without the key: the adversary."""

    @property
    def name(self) -> str: ...

    def solve(self, view: SolverView) -> SolverAnswer: ...


# How a solver marks an answer that never came (timeout, 5xx after retries): no verdict at all.
NO_REPLY_NOTE = "transport: "


def unanswered(answer: SolverAnswer) -> str | None:
    """What kept the solver's reply from arriving (`timeout`, `http_503`, ...), or None.

    Such an answer says nothing about the draft, so no attempt is recorded for it: the draft
    stays free to be solved again in a later run.
    """
    if answer.choice is None and answer.note.startswith(NO_REPLY_NOTE):
        return answer.note.removeprefix(NO_REPLY_NOTE)
    return None


def solver_view(draft: Draft) -> SolverView:
    """What the solver may see of a draft: stem and options only."""
    c = draft.content
    return SolverView(
        subject=c.tag.subject,
        topic_id=c.tag.topic_id,
        format=c.format,
        template_id=draft.provenance.template_id,
        stem_markdown=c.stem_markdown,
        options=c.options,
    )


HYGIENE = "hygiene-check-v1"
# A key half again as long as every distractor stands out (about 2 % of fact drafts did).
LONGEST_OPTION_RATIO = 1.5


def hygiene_problem(draft: Draft) -> str | None:
    """A named flaw that would let a student answer without knowing the content, or None.

    - option_substring: one option's text sits inside another's, inviting elimination;
    - stem_tell: every word of the key is in the stem while no distractor's words are;
    - longest_option: the key is by far the longest option (test-wise students pick it).
    """
    c = draft.content
    texts = [o.text.strip().lower() for o in c.options]
    key_length = len(texts[OPTION_KEYS.index(c.correct_key)])
    longest_other = max(len(t) for i, t in enumerate(texts) if OPTION_KEYS[i] != c.correct_key)
    if key_length >= LONGEST_OPTION_RATIO * longest_other and key_length - longest_other >= 10:
        return "longest_option"
    if c.format is not QuestionFormat.NUMERICAL:
        for i, a in enumerate(texts):
            if any(i != j and len(a) >= 3 and a in b for j, b in enumerate(texts)):
                return "option_substring"
    if c.format is QuestionFormat.SINGLE_CORRECT:
        stem = content_tokens(c.stem_markdown)
        inside = [bool(tok) and tok <= stem for tok in (content_tokens(o.text) for o in c.options)]
        if inside[OPTION_KEYS.index(c.correct_key)] and sum(inside) == 1:
            return "stem_tell"
    return None


def screened_out(draft: Draft, reason: str) -> Attempt:
    """The attempt record of a draft refused before any solver saw it, with its reason."""
    answer = SolverAnswer(solver=HYGIENE, choice=None, confidence=0.0, note=reason)
    return judged(draft, answer)[0].model_copy(update={"rejection_reason": reason})


def rejection_reason(draft: Draft, answer: SolverAnswer, min_confidence: float) -> str | None:
    """Why the gate refuses the draft (a named reason), or None when generator and solver agree."""
    if answer.choice is None:
        return "solver_abstained"
    if answer.choice != draft.content.correct_key:
        return "solver_disagreed"
    if answer.confidence < min_confidence:
        return "solver_low_confidence"
    return None


def judged(
    draft: Draft, answer: SolverAnswer, min_confidence: float = MIN_CONFIDENCE
) -> tuple[Attempt, Question | None]:
    """The attempt record for a solved draft, and the question if the gate accepts it."""
    reason = rejection_reason(draft, answer, min_confidence)
    c = draft.content
    question = None
    if reason is None:
        assert answer.choice is not None
        question = Question(
            question_id=question_id(c),
            content=c,
            provenance=draft.provenance,
            verdict=SolverVerdict(
                solver=answer.solver, choice=answer.choice, confidence=answer.confidence
            ),
        )
    attempt = Attempt(
        attempt_id=attempt_id(draft, answer.solver),
        draft_id=question_id(c),
        subject=c.tag.subject,
        topic_id=c.tag.topic_id,
        difficulty=c.difficulty,
        format=c.format,
        generator=draft.provenance.generator,
        template_id=draft.provenance.template_id,
        solver=answer.solver,
        solver_choice=answer.choice,
        solver_confidence=answer.confidence,
        verdict=Verdict.ACCEPTED if question else Verdict.REJECTED,
        rejection_reason=reason if reason is None else f"{reason}: {answer.note}".rstrip(": "),
        question_id=question.question_id if question else None,
    )
    return attempt, question


# A check run on each draft before the solver; it returns a rejection reason or None.
Screen = Callable[[Draft], str | None]


def screen_refusal(draft: Draft, screens: Sequence[Screen] = ()) -> str | None:
    """Why hygiene or a screen refuses the draft before any solver sees it, or None."""
    flaw = hygiene_problem(draft)
    if flaw:
        return f"hygiene: {flaw}"
    return next((r for r in (screen(draft) for screen in screens) if r), None)


def rescreened(
    draft: Draft, verdict: tuple[Attempt, Question | None], screens: Sequence[Screen]
) -> tuple[Attempt, Question | None]:
    """A confirmed draft screened once more before it is kept: a twin may have been accepted
    (and the near-duplicate gate taught) while this one was being solved."""
    attempt, question = verdict
    if question is not None and (refusal := screen_refusal(draft, screens)) is not None:
        return screened_out(draft, refusal), None
    return attempt, question


def verified(
    draft: Draft, solver: Solver, screens: Sequence[Screen] = ()
) -> tuple[Attempt, Question | None]:
    """One draft through hygiene, screens and solver, a solve with no reply included as a
    rejection (the pool fill and the worker's top-up record none for it: `unanswered`).

    Hygiene and screens refuse before the (possibly paid) solver call.
    """
    refusal = screen_refusal(draft, screens)
    if refusal is not None:
        return screened_out(draft, refusal), None
    return judged(draft, solver.solve(solver_view(draft)))


@dataclass(frozen=True)
class OfflineDrafter:
    """The embedded drafter: parametric numericals, fact-table and element-data questions."""

    syllabus: Syllabus
    kb: KnowledgeBase
    templates: tuple[NumericalTemplate, ...]
    elements: ElementData | None = None

    def drafts(
        self,
        subject: Subject,
        difficulty: Difficulty,
        progress: Mapping[str, int],
        unit_id: str | None = None,
        topic_id: str | None = None,
    ) -> Iterator[Draft]:
        def in_unit(of: str | None) -> bool:
            if topic_id is not None and of != topic_id:
                return False
            return unit_id is None or (
                of is not None and self.syllabus.topic(of).unit_id == unit_id
            )

        numericals = [
            numerical_drafts(t, self.syllabus, start=progress.get(t.template_id, 0))
            for t in self.templates
            if t.subject == subject and t.difficulty == difficulty and in_unit(t.topic_id)
        ]
        facts = [
            fact_drafts(table, difficulty, self.kb, self.syllabus)
            for table in self.kb.fact_tables
            if table.subject == subject and in_unit(table.topic_id)
        ]
        facts += [
            assertion_reason_drafts(table, difficulty, self.kb, self.syllabus)
            for table in self.kb.cause_tables
            if table.subject == subject and in_unit(table.topic_id)
        ]
        if self.elements is not None:
            facts += [
                stream
                for of_topic, stream in element_drafts(
                    self.elements, subject, difficulty, self.syllabus
                )
                if in_unit(of_topic)
            ]
        # Numericals and facts alternate, so seventeen fact tables do not drown two templates.
        groups = [round_robin(g) for g in (numericals, facts) if g]
        return round_robin(groups)
