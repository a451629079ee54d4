"""The agreement gate: hygiene, screens, the independent solve and the verdict. Only agreed
drafts become stored questions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from core.ids import attempt_id, question_id
from core.records import (
    OPTION_KEYS,
    Attempt,
    Draft,
    Question,
    QuestionFormat,
    SolverAnswer,
    SolverVerdict,
    SolverView,
    Verdict,
)
from kb.retrieval import content_tokens
from pipeline.verify.giveaway import numerical_giveaway

MIN_CONFIDENCE = 0.1


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
    """What the solver may see of a draft: stem, options and the figures it draws."""
    c = draft.content
    return SolverView(
        subject=c.tag.subject,
        topic_id=c.tag.topic_id,
        format=c.format,
        template_id=draft.provenance.template_id,
        stem_markdown=c.stem_markdown,
        options=c.options,
        # A drawn figure's spec is what a student reads off the picture; a cited knowledge-store
        # figure's caption was written for the drafter, and stays hidden like the key.
        figures=tuple(f for f in c.figures if f.spec is not None),
    )


HYGIENE = "hygiene-check-v1"
# A key half again as long as every distractor stands out (about 2 % of fact drafts did).
LONGEST_OPTION_RATIO = 1.5


def key_stands_out(key: str, distractors: Sequence[str]) -> bool:
    """Whether the key is by far the longest option (test-wise students pick it)."""
    longest = max(len(d) for d in distractors)
    return len(key) >= LONGEST_OPTION_RATIO * longest and len(key) - longest >= 10


def hygiene_problem(draft: Draft) -> str | None:
    """A named flaw that would let a student answer without knowing the content, or None
    (`option_hygiene` on the draft's stem, options and key)."""
    c = draft.content
    texts = [o.text for o in c.options]
    return option_hygiene(c.format, c.stem_markdown, texts, OPTION_KEYS.index(c.correct_key))


def options_clash(texts: Sequence[str]) -> bool:
    """True when two option texts are the same or one sits inside another, in any case: a
    student could eliminate by it. Stricter than `option_hygiene` (short texts count too),
    so a generator never offers "3" beside "13"."""
    low = [t.lower() for t in texts]
    return len(set(low)) < len(low) or any(
        i != j and a in b for i, a in enumerate(low) for j, b in enumerate(low)
    )


def option_hygiene(
    question_format: QuestionFormat, stem: str, options: Sequence[str], key: int
) -> str | None:
    """A named flaw of a question's options, or None; generators may ask before they draft.

    - option_substring: one option's text sits inside another's, inviting elimination;
    - stem_tell: every word of the key is in the stem while no distractor's words are;
    - longest_option: the key is by far the longest option (test-wise students pick it).
    """
    texts = [o.strip().lower() for o in options]
    if key_stands_out(texts[key], [t for i, t in enumerate(texts) if i != key]):
        return "longest_option"
    if question_format is not QuestionFormat.NUMERICAL:
        for i, a in enumerate(texts):
            if any(i != j and len(a) >= 3 and a in b for j, b in enumerate(texts)):
                return "option_substring"
    if question_format is QuestionFormat.SINGLE_CORRECT:
        words = content_tokens(stem)
        inside = [bool(tok) and tok <= words for tok in (content_tokens(o) for o in options)]
        if inside[key] and sum(inside) == 1:
            return "stem_tell"
    return None


def screened_out(draft: Draft, reason: str) -> Attempt:
    """The attempt record of a draft refused before any solver saw it, with its reason."""
    answer = SolverAnswer(solver=HYGIENE, choice=None, confidence=0.0, note=reason)
    return judged(draft, answer)[0].model_copy(update={"rejection_reason": reason})


# The rejection of a solve that picked another option than the key (triage withdraws on it).
SOLVER_DISAGREED = "solver_disagreed"


def rejection_reason(draft: Draft, answer: SolverAnswer, min_confidence: float) -> str | None:
    """Why the gate refuses the draft (a named reason), or None when generator and solver agree."""
    if answer.choice is None:
        return "solver_abstained"
    if answer.choice != draft.content.correct_key:
        return SOLVER_DISAGREED
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
    """Why hygiene, the giveaway screen or a screen refuses the draft before any solver sees
    it, or None."""
    flaw = hygiene_problem(draft)
    if flaw:
        return f"hygiene: {flaw}"
    giveaway = numerical_giveaway(draft)
    if giveaway:
        return f"giveaway: {giveaway}"
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
