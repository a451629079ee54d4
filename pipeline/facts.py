"""Fact-driven questions from the bundled fact tables, in three NEET formats.

Distractors come from the same relation's other members, and never one the table says is also
true for the asked entity or value.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

from core.ids import digest
from core.records import (
    OPTION_KEYS,
    Difficulty,
    Draft,
    Option,
    Provenance,
    QuestionContent,
    QuestionFormat,
)
from kb.knowledge import Fact, FactTable, KnowledgeBase
from kb.retrieval import sentences
from kb.syllabus import Syllabus

GENERATOR = "offline.facts"


@dataclass(frozen=True)
class FactFormat:
    kind: str
    difficulty: Difficulty
    reason: str


FORWARD = FactFormat("forward", Difficulty.EASY, "single recall: one fact, asked directly")
REVERSE = FactFormat("reverse", Difficulty.MEDIUM, "recall in reverse: from property to member")
ODD_PAIR = FactFormat(
    "incorrect_pair", Difficulty.HARD, "four pairings to check, one of them false"
)
FORMATS_BY_DIFFICULTY = {f.difficulty: f for f in (FORWARD, REVERSE, ODD_PAIR)}


def _as_question(stem: str) -> str:
    stem = stem.strip()
    return stem if stem.endswith(("?", ":", ".")) else stem + ":"


def supporting_sentence(kb: KnowledgeBase, fact: Fact) -> str | None:
    """The chunk sentence that states the fact (entity and value together), if any."""
    chunk = kb.chunks[fact.chunk_id]
    for s in sentences(chunk.text):
        low = s.lower()
        if fact.entity.lower() in low and fact.value.lower() in low:
            return s
    return None


def _evidence(kb: KnowledgeBase, fact: Fact) -> str:
    s = supporting_sentence(kb, fact)
    return f"> {s}" if s else f"See *{kb.chunks[fact.chunk_id].title}*."


def _draft(
    table: FactTable,
    syllabus: Syllabus,
    fmt: FactFormat,
    stem: str,
    options: list[str],
    correct: str,
    explanation: str,
    context: tuple[str, ...],
    key: str,
) -> Draft | None:
    assert table.topic_id is not None
    if len(set(options)) != 4:
        return None
    content = QuestionContent(
        tag=syllabus.topic(table.topic_id).tag,
        difficulty=fmt.difficulty,
        difficulty_reason=fmt.reason,
        format=QuestionFormat.INCORRECT_PAIR if fmt is ODD_PAIR else QuestionFormat.SINGLE_CORRECT,
        stem_markdown=stem,
        options=tuple(Option(key=k, text=t) for k, t in zip(OPTION_KEYS, options, strict=True)),  # type: ignore[arg-type]
        correct_key=OPTION_KEYS[options.index(correct)],
        explanation_markdown=explanation,
    )
    return Draft(
        content=content,
        provenance=Provenance(
            generator=GENERATOR,
            template_id=table.relation_id,
            context_ids=tuple(sorted(set(context))),
            params=(("format", fmt.kind), ("key", key)),
        ),
    )


def single_correct_draft(
    table: FactTable, fact: Fact, fmt: FactFormat, kb: KnowledgeBase, syllabus: Syllabus
) -> Draft | None:
    """FORWARD: the entity is given and its value asked; REVERSE: the other way round."""
    forward = fmt is FORWARD
    if not forward and table.reverse_stem is None:
        return None
    rng = random.Random(digest([fmt.kind, table.relation_id, fact.entity, fact.value]))
    if forward:
        answer = fact.value
        pool = {f.value for f in table.facts if not table.is_fact(fact.entity, f.value)}
        stem = table.forward_stem.format(entity=fact.entity)
    else:
        answer = fact.entity
        pool = {f.entity for f in table.facts if not table.is_fact(f.entity, fact.value)}
        stem = str(table.reverse_stem).format(value=fact.value)
    if len(pool) < 3:
        return None
    options = [answer, *rng.sample(sorted(pool), 3)]
    rng.shuffle(options)
    explanation = f"**{fact.entity}** — {fact.value}.\n\n{_evidence(kb, fact)}"
    return _draft(
        table,
        syllabus,
        fmt,
        _as_question(stem),
        options,
        answer,
        explanation,
        (fact.chunk_id,),
        f"{fact.entity}|{fact.value}",
    )


def odd_pair_draft(
    table: FactTable, seed: int, kb: KnowledgeBase, syllabus: Syllabus
) -> Draft | None:
    """Three true pairings and one false: which is incorrectly matched?"""
    rng = random.Random(digest(["pair", table.relation_id, seed]))
    by_entity: dict[str, list[Fact]] = {}
    for f in table.facts:
        by_entity.setdefault(f.entity, []).append(f)
    entities = sorted(by_entity)
    if len(entities) < 4:
        return None
    picked = rng.sample(entities, 4)
    true_facts = [rng.choice(by_entity[e]) for e in picked[:3]]
    odd_entity = picked[3]
    used_values = {f.value for f in true_facts}
    wrong_values = sorted(
        {f.value for f in table.facts} - used_values - {f.value for f in by_entity[odd_entity]}
    )
    if not wrong_values:
        return None
    wrong = rng.choice(wrong_values)
    sep = table.pair_separator
    options = [f"{f.entity}{sep}{f.value}" for f in true_facts] + [f"{odd_entity}{sep}{wrong}"]
    rng.shuffle(options)
    correct = f"{odd_entity}{sep}{wrong}"
    right = ", ".join(f.value for f in by_entity[odd_entity])
    explanation = (
        f"**{odd_entity}** is not matched with {wrong}: it goes with {right}. "
        "The other three pairs are correct.\n\n"
        + "\n\n".join(_evidence(kb, f) for f in [*true_facts, by_entity[odd_entity][0]])
    )
    stem = (
        f"Which of the following pairs ({table.entity_label}{sep}{table.value_label}) is "
        "**incorrectly** matched?"
    )
    context = tuple(f.chunk_id for f in [*true_facts, *by_entity[odd_entity]])
    return _draft(
        table, syllabus, ODD_PAIR, stem, options, correct, explanation, context, f"seed={seed}"
    )


def fact_drafts(
    table: FactTable, difficulty: Difficulty, kb: KnowledgeBase, syllabus: Syllabus
) -> Iterator[Draft]:
    """Every draft this table offers at a difficulty, in a fixed order."""
    fmt = FORMATS_BY_DIFFICULTY[difficulty]
    if table.topic_id is None or syllabus.topic(table.topic_id).deleted:
        return
    if fmt is ODD_PAIR:
        for seed in range(2 * len(table.facts)):
            d = odd_pair_draft(table, seed, kb, syllabus)
            if d is not None:
                yield d
        return
    order = sorted(table.facts, key=lambda f: digest([table.relation_id, f.entity, f.value]))
    for fact in order:
        d = single_correct_draft(table, fact, fmt, kb, syllabus)
        if d is not None:
            yield d


PAIR_SPLIT = re.compile(r"\s+[—–]\s+")
