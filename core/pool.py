"""The pool's one schema, and the two rules that group its questions.

Paper assembly, the warehouse's pool view, the worker's snapshot and the worker's own new
questions all use these columns. A stored question's near-duplicate group and family are
computed by these two rules when it is stored and kept in the warehouse; the fill engine applies
the same rule to drafts (a draft's group is known before the solver is paid), and the worker to
the questions it makes between nightlies.
"""

from __future__ import annotations

import re
from collections.abc import Collection

import polars as pl

from core.figures import StructureSpec
from core.records import Difficulty, Provenance, Question, QuestionContent, Subject

# A cell of the pool: one syllabus unit's questions of a subject at a difficulty (what a
# shortfall names, and what a fill generates for).
UnitCell = tuple[Subject, Difficulty, str]
# One topic's questions at a difficulty (subject, difficulty, unit, topic): what practice sets
# draw on, and what the topic floor fills.
TopicCell = tuple[Subject, Difficulty, str, str]

# What paper assembly reads of each question, including its past use.
POOL_SCHEMA = pl.Schema(
    {
        "question_id": pl.String,
        "subject": pl.String,
        "unit_id": pl.String,
        "topic_id": pl.String,
        "difficulty": pl.String,
        "format": pl.String,
        "template_id": pl.String,
        "family": pl.String,
        "stem": pl.String,
        "correct_key": pl.String,
        "figure": pl.Boolean,
        # The question shows structural formulae (a `structure` figure): a chemical structure is
        # notation, not a diagram, so it is counted apart from the paper's figures.
        "structure": pl.Boolean,
        # Steps the rubric counted (1 unless its reason names two or more: steps_in_reason).
        "steps": pl.Int8,
        "near_duplicate_group": pl.String,
        "withdrawn": pl.Boolean,
        "times_used": pl.Int32,
        "last_used": pl.String,
        "last_daily": pl.String,
    }
)
POOL_COLUMNS: tuple[str, ...] = tuple(POOL_SCHEMA.names())
# The worker's snapshot: the pool's columns and each question's record (what a job shows).
SNAPSHOT_SCHEMA = pl.Schema([*POOL_SCHEMA.items(), ("record_json", pl.String())])

NUMERICAL_GENERATOR = "offline.numerical"


# The rubric's reason (pipeline.difficulty.rated) names a question's steps when there are two
# or more, before the generator's own words in parentheses: "Hard: 3 steps, 2 concepts chained".
STEPS_IN_REASON_SQL = r"^[A-Z][a-z]+: [^(]*?\b(\d+) steps\b"
_STEPS_IN_REASON = re.compile(STEPS_IN_REASON_SQL)


def steps_in_reason(difficulty_reason: str) -> int:
    """How many steps a question's stored difficulty reason names (1 when it names none)."""
    m = _STEPS_IN_REASON.search(difficulty_reason)
    return int(m.group(1)) if m else 1


def near_duplicate_group(p: Provenance, question_id: str) -> str:
    """The group a question shares with its near-duplicates: questions of one group are
    "enemies" and never share a paper or a practice set.

    A fact question's group is its relation plus the fact (`entity|value`), so the forward,
    reverse and statement questions about one fact are enemies; all variants of one numerical
    template are one group (they differ only in the numbers: 0.98 median cosine, see
    pipeline/verify/dedupe.py); other parametric questions group by template and parameters; a
    question with no parameters stands alone. A template or fact table has one topic, so a group
    never spans syllabus units. It depends on provenance only, so a draft's group is known
    before the solver is paid.
    """
    key = next((v for k, v in p.params if k == "key"), "")
    if "|" in key:
        return f"{p.template_id}#{key}"
    if p.generator == NUMERICAL_GENERATOR:
        return p.template_id
    if p.params:
        return f"{p.template_id}#" + "&".join(f"{k}={v}" for k, v in p.params)
    return question_id


# What a fact format's near variant adds to its base kind (pipeline.generate.fact_formats).
NEAR_VARIANT_SUFFIX = "_close"


def question_family(p: Provenance, question_format: str) -> str:
    """The family a paper takes one question of: the template or fact relation with the form
    it asks in. A fact relation's forms are the generator's own (`forward`, `reverse`,
    `two_statements`, …: forward and reverse are both single-correct but ask opposite ways);
    any other question's form is its format. A form's near variant (`match_list_close`, asked
    among closer options) is the same form, so the same family."""
    form = next((v for k, v in p.params if k == "format"), question_format)
    return f"{p.template_id}|{form.removesuffix(NEAR_VARIANT_SUFFIX)}"


def shows_structures(content: QuestionContent) -> bool:
    """Whether a question shows structural formulae (pool column `structure`)."""
    return any(isinstance(f.spec, StructureSpec) for f in content.figures)


def pool_rows(questions: Collection[Question]) -> pl.DataFrame:
    """Snapshot rows for questions not yet used anywhere (the worker's own new questions)."""
    rows = []
    for q in questions:
        c = q.content
        rows.append(
            {
                "question_id": q.question_id,
                "subject": c.tag.subject.value,
                "unit_id": c.tag.unit_id,
                "topic_id": c.tag.topic_id,
                "difficulty": c.difficulty.value,
                "format": c.format.value,
                "template_id": q.provenance.template_id,
                "family": question_family(q.provenance, c.format.value),
                "stem": c.stem_markdown,
                "correct_key": c.correct_key,
                "figure": bool(c.figures),
                "structure": shows_structures(c),
                "steps": steps_in_reason(c.difficulty_reason),
                "near_duplicate_group": near_duplicate_group(q.provenance, q.question_id),
                "withdrawn": False,
                "times_used": 0,
                "last_used": None,
                "last_daily": None,
                "record_json": q.model_dump_json(),
            }
        )
    return pl.DataFrame(rows, schema=SNAPSHOT_SCHEMA)
