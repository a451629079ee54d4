"""Assertion–reason questions from cause tables (kb.knowledge.CauseTable).

Each cause is a true assertion with the reason that explains it, plus a false twin of each. The
four NEET keys come from four pairings of one cause: its own reason (explains), another cause's
reason from the same table (true, but no explanation), its false reason, or its false assertion.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator

from core.ids import digest
from core.records import (
    Difficulty,
    Draft,
    Provenance,
    QuestionFormat,
    choice_draft,
)
from kb.knowledge import Cause, CauseTable, KnowledgeBase
from kb.retrieval import content_tokens, sentences
from kb.syllabus import Syllabus
from pipeline.difficulty import Demand, difficulty_reason, rated
from pipeline.generate.streams import live_topics_of, round_robin

GENERATOR = "offline.causes"
ASSERTION_REASON_OPTIONS = (
    "Both A and R are true and R is the correct explanation of A",
    "Both A and R are true but R is not the correct explanation of A",
    "A is true but R is false",
    "A is false but R is true",
)
# Judge the two claims, then whether one explains the other: two steps over two claims.
DEMAND = Demand(steps=2, claims=2)
WHAT = "two claims to judge true or false, then whether one explains the other"
DIFFICULTY = rated(DEMAND)[0]


def supporting_cause_sentence(kb: KnowledgeBase, cause: Cause) -> str | None:
    """The chunk sentence that states the assertion together with its reason, if any."""
    wanted = content_tokens(cause.assertion) | content_tokens(cause.reason)
    for s in sentences(kb.chunks[cause.chunk_id].text):
        if wanted <= content_tokens(s):
            return s
    return None


def _sentence(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[0].upper() + text[1:] + "."


def assertion_reason_draft(
    table: CauseTable,
    seed: int,
    kb: KnowledgeBase,
    syllabus: Syllabus,
    topic_id: str | None = None,
) -> Draft | None:
    """One assertion–reason question about a cause of the topic (the table's own by default);
    seed % 4 picks which of the four keys is right."""
    topic = topic_id or table.topic_id
    asked = table.causes_of(topic) if topic_id else table.causes
    if len(table.causes) < 2 or not asked:
        return None
    rng = random.Random(digest(["assertion-reason", table.relation_id, seed]))
    cause = asked[(seed // 4) % len(asked)]
    other = rng.choice([c for c in table.causes if c is not cause])
    case = seed % 4
    assertion = cause.false_assertion if case == 3 else cause.assertion
    reason = {0: cause.reason, 1: other.reason, 2: cause.false_reason, 3: cause.reason}[case]
    correct = ASSERTION_REASON_OPTIONS[case]
    options = list(ASSERTION_REASON_OPTIONS)
    rng.shuffle(options)  # the solver confirms true claims more readily: keep keys spread
    stem = (
        "Given below are two statements: one is labelled as Assertion A and the other is "
        "labelled as Reason R.\n\n"
        f"**Assertion A:** {_sentence(assertion)}\n\n**Reason R:** {_sentence(reason)}\n\n"
        "In the light of the above statements, choose the correct answer from the options given "
        "below:"
    )
    evidence = supporting_cause_sentence(kb, cause)
    notes = {
        0: "Both are true, and R is the reason A holds.",
        1: f"Both are true, but A holds because {cause.reason}; R explains something else "
        f"({other.assertion}).",
        2: f"A is true, but R is false: A holds because {cause.reason}.",
        3: f"A is false: in fact, {cause.assertion}. R is true.",
    }
    explanation = notes[case] + (f"\n\n> {evidence}" if evidence else "")
    provenance = Provenance(
        generator=GENERATOR,
        template_id=table.relation_id,
        context_ids=tuple(sorted({cause.chunk_id, other.chunk_id})),
        params=(("case", str(case)), ("cause", cause.assertion), ("seed", str(seed))),
    )
    tag = syllabus.topic(topic).tag
    return choice_draft(
        tag,
        DIFFICULTY,
        difficulty_reason(DEMAND, WHAT),
        QuestionFormat.ASSERTION_REASON,
        stem,
        options,
        correct,
        explanation,
        provenance,
    )


def assertion_reason_drafts(
    table: CauseTable,
    difficulty: Difficulty,
    kb: KnowledgeBase,
    syllabus: Syllabus,
    topic_ids: Collection[str] | None = None,
) -> Iterator[Draft]:
    """Every assertion–reason draft of a table (at the one difficulty the rubric gives them):
    each cause in all four cases, the table's topics taking turns (only `topic_ids` when
    given)."""
    if difficulty is not DIFFICULTY:
        return
    topics = live_topics_of(table.topic_ids, topic_ids, syllabus)

    def of_topic(topic: str) -> Iterator[Draft]:
        # A table of one topic drafts as it always has (the same seeds, so the same questions).
        only = None if table.topic_ids == [topic] else topic
        for seed in range(4 * len(table.causes_of(topic))):
            draft = assertion_reason_draft(table, seed, kb, syllabus, only)
            if draft is not None:
                yield draft

    yield from round_robin(of_topic(t) for t in topics)
