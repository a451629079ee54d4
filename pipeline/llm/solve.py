"""The adversarial solver as a language model: build → call → parse, with optional voting.

The solver sees only the stem and the four options, relabelled in a fresh order for every
sample: never the key, the explanation, the context or anything the drafter said. Each order is
a derangement of ABCD (no option keeps its stored letter), chosen deterministically from the
question and the sample index, so a key letter that leaked into the wording cannot help and a
rerun asks exactly the same thing. `parse_solve` maps the letter chosen back to the stored one.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.ids import canonical_json, digest
from core.records import OPTION_KEYS, OptionKey, SolverAnswer, SolverView
from pipeline.llm.draft import prompt_module
from pipeline.llm.usage import CallRecord, ModelReply, UsageLedger, structured_call
from pipeline.verify.gate import NO_REPLY_NOTE

PROMPT = "solve_question.j2"
IDENTITY = "".join(OPTION_KEYS)
# The 9 orders of ABCD that move every option: order[i] is the stored key shown at position i.
DERANGEMENTS: tuple[str, ...] = tuple(
    "".join(p)
    for p in permutations(IDENTITY)
    if all(shown != stored for shown, stored in zip(p, IDENTITY, strict=True))
)


def view_id(view: SolverView) -> str:
    """A stable id of what the solver sees (the draft's stem and options in stored order, and
    its figures' ids when it shows any: one stem may ask about many pictures)."""
    seen: list[object] = [view.stem_markdown, [o.text for o in view.options]]
    if view.figures:
        seen.append([f.figure_id for f in view.figures])
    return "v-" + digest(seen)


def shuffled_order(seed: str, sample: int) -> str:
    """The option order shown in sample `sample` of the question `seed` (a derangement)."""
    h = hashlib.sha256(f"{seed}#{sample}".encode()).digest()
    return DERANGEMENTS[int.from_bytes(h[:8], "big") % len(DERANGEMENTS)]


def solver_messages(prompts_dir: Path, view: SolverView, order: str) -> list[dict[str, Any]]:
    """Chat messages showing the stem and the options in `order` (position i shows order[i])."""
    prompt = prompt_module(prompts_dir, PROMPT)
    shown = [
        (label, view.options[IDENTITY.index(stored)].text)
        for label, stored in zip(IDENTITY, order, strict=True)
    ]
    # A figure reaches the model as its spec: everything the picture shows, as data.
    figures = [
        (f.caption, canonical_json(f.spec.model_dump(mode="json")))
        for f in view.figures
        if f.spec is not None
    ]
    user = prompt.user(view.stem_markdown, shown, figures)
    return [
        {"role": "system", "content": str(prompt.system()).strip()},
        {"role": "user", "content": str(user).strip()},
    ]


class SolveReply(BaseModel):
    """The reply schema of the solve step (sent as a strict JSON schema)."""

    model_config = ConfigDict(extra="forbid")

    working: str = Field(description="Brief reasoning, at most 80 words")
    choice: str = Field(description="A, B, C or D")
    confidence: float = Field(description="Probability the choice is correct, 0 to 1")


def _abstain(solver: str, note: str) -> SolverAnswer:
    return SolverAnswer(solver=solver, choice=None, confidence=0.0, note=note)


def parse_solve(reply: ModelReply | str | None, order: str, solver: str = "openai") -> SolverAnswer:
    """The stored option the solver chose (its shown letter mapped back through `order`).

    A reply that is not a clear choice (refusal, empty, cut off, not JSON, not the schema, a
    letter that is not an option, a confidence outside 0..1) is an abstention with a note.
    """
    if not isinstance(reply, ModelReply):
        reply = ModelReply(content=reply)
    if reply.refusal:
        return _abstain(solver, f"refusal: {reply.refusal[:120]}")
    if reply.finish_reason in ("length", "content_filter"):
        return _abstain(solver, f"finish_reason {reply.finish_reason}")
    data = reply.parsed if isinstance(reply.parsed, SolveReply) else None
    if data is None:
        if reply.content is None or not reply.content.strip():
            return _abstain(solver, "empty_reply")
        try:
            data = SolveReply.model_validate_json(reply.content)
        except ValidationError as exc:
            kind = "invalid_json" if exc.errors()[0]["type"] == "json_invalid" else "schema"
            return _abstain(solver, f"{kind}: {exc.errors()[0]['msg']}")
    shown = data.choice.strip().upper().strip("().")
    if shown not in OPTION_KEYS:
        return _abstain(solver, f"invalid choice {data.choice!r}")
    if not 0.0 <= data.confidence <= 1.0:
        return _abstain(solver, f"invalid confidence {data.confidence!r}")
    stored: OptionKey = order[IDENTITY.index(shown)]  # type: ignore[assignment]
    return SolverAnswer(solver=solver, choice=stored, confidence=data.confidence)


def vote(answers: Sequence[SolverAnswer], solver: str) -> SolverAnswer:
    """k samples → one answer: the choice most samples made (a tie abstains); its confidence is
    the mean over all samples of the confidence given to it (a sample choosing otherwise gives
    it 0)."""
    if len(answers) == 1:
        return answers[0].model_copy(update={"solver": solver})
    votes = Counter(a.choice for a in answers if a.choice is not None)
    notes = "; ".join(a.note for a in answers if a.note)
    if not votes:
        return _abstain(solver, f"every sample abstained ({notes})" if notes else "abstained")
    ranked = votes.most_common()
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return _abstain(solver, f"tied vote {dict(votes)}")
    choice = ranked[0][0]
    confidence = sum(a.confidence for a in answers if a.choice == choice) / len(answers)
    return SolverAnswer(
        solver=solver,
        choice=choice,
        confidence=confidence,
        note=f"{ranked[0][1]}/{len(answers)} samples",
    )


@dataclass
class OpenAISolver:
    """The `Solver` backed by a language model through the OpenAI SDK (any compatible server).

    `samples` calls per question, each with its own option order, combined by `vote`. An answer
    below `min_confidence` becomes an abstention (the gate then refuses the draft as
    `solver_abstained: low confidence …`). A call that fails after the SDK's retries ends the
    solve, never with an exception: the answer is an abstention noted `transport: <outcome>`,
    which the pool fill reads as no verdict at all (`pipeline.verify.gate.unanswered`), so the
    draft is not condemned by a provider's bad minute and the samples left are not paid for.
    """

    client: Any
    model: str
    prompts_dir: Path
    ledger: UsageLedger = field(default_factory=UsageLedger)
    samples: int = 1
    min_confidence: float = 0.6
    max_tokens: int = 400
    temperature: float | None = None

    @property
    def name(self) -> str:
        suffix = f"x{self.samples}" if self.samples > 1 else ""
        return f"openai:{self.model}{suffix}"

    @property
    def calls(self) -> list[CallRecord]:
        return [c for c in self.ledger.calls if c.purpose == "solve"]

    def solve(self, view: SolverView) -> SolverAnswer:
        seed = view_id(view)
        temperature = self.temperature
        if temperature is None:
            temperature = 0.0 if self.samples == 1 else 0.7
        answers = []
        for sample in range(self.samples):
            order = shuffled_order(seed, sample)
            reply, record = structured_call(
                self.client,
                model=self.model,
                messages=solver_messages(self.prompts_dir, view, order),
                schema=SolveReply,
                purpose="solve",
                ledger=self.ledger,
                label=f"{seed}#{sample}",
                max_tokens=self.max_tokens,
                temperature=temperature,
            )
            if reply is None:  # a vote short of a sample would not be the vote asked for
                return _abstain(self.name, f"{NO_REPLY_NOTE}{record.outcome}")
            answers.append(parse_solve(reply, order, self.name))
        answer = vote(answers, self.name)
        if answer.choice is not None and answer.confidence < self.min_confidence:
            return _abstain(
                self.name,
                f"low confidence {answer.confidence:.2f} < {self.min_confidence}"
                f" (chose {answer.choice})",
            )
        return answer
