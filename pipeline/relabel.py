"""Relabelling: stored questions whose difficulty the rubric now names differently.

A question's label is part of its content, so of its id, and a stored question never changes.
When the rubric (pipeline.difficulty) gives a stored question another label than it carries,
the question is stored anew with the new label and reason (same stem, options, key, explanation
and provenance), and the old record is withdrawn with the reason `relabelled`: papers already
published keep the old record, future papers and practice sets take the new one. The warehouse
records which record stands for which (`Warehouse.relabel`), so the new one inherits the old
one's papers and its daily cooldown; a label changed back lifts the earlier withdrawal.

`rating` re-derives a stored question's demand the way its generator does, from the question
itself (the options it shows) and the bundled data (the template, the fact table); it gives None
for a question it cannot re-rate (a model's draft, a template or table no longer bundled, and
for now genetics and ordering questions, whose labels stay as stored).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache

from core.ids import question_id
from core.records import Difficulty, Question, Subject
from kb.elements import ElementData
from kb.knowledge import FactTable, KnowledgeBase
from kb.syllabus import Syllabus
from pipeline.difficulty import Demand, difficulty_reason, rated
from pipeline.generate import causes, elements, fact_formats, facts
from pipeline.generate.elements import element_drafts
from pipeline.generate.numerical import GENERATOR as NUMERICAL_GENERATOR
from pipeline.generate.numerical import NumericalTemplate

RELABELLED = "relabelled"
Rating = tuple[Difficulty, str]


@lru_cache(maxsize=1024)
def _statements(table: FactTable) -> dict[str | None, tuple[str, str]]:
    """Every statement the table's stem makes, true or not, with its (entity, value): built once
    per table, not once per stored question."""
    return {
        facts.statement(table, e, v): (e, v)
        for e in {f.entity for f in table.facts}
        for v in {f.value for f in table.facts}
    }


def _false_claims(table: FactTable, texts: list[str]) -> list[tuple[str, str]] | None:
    """The (entity, value) of each statement the table says is false; None when a statement is
    not one the table's stem makes."""
    said = _statements(table)
    claims = [said.get(t.strip()) for t in texts]
    if None in claims:
        return None
    return [(e, v) for e, v in (c for c in claims if c) if not table.is_fact(e, v)]


def _fact_demand(question: Question, table: FactTable, kind: str) -> Demand | None:
    """The demand of a stored fact question, measured the way its format measures a draft."""
    c = question.content
    key_text = c.option(c.correct_key).text
    others = [o.text for o in c.options if o.key != c.correct_key]
    if kind in ("forward", "forward_close"):
        return Demand(near_miss=any(fact_formats.near_miss(table, key_text, t) for t in others))
    if kind == "reverse":
        return Demand(reversed=True)
    if kind.startswith("incorrect_pair"):
        parts = fact_formats.PAIR_SPLIT.split(key_text)
        return (
            fact_formats.claims_demand(table, 4, [(parts[0], parts[1])])
            if len(parts) == 2
            else None
        )
    if kind.startswith("match_list"):
        return fact_formats.coding_demand(key_text, others)
    if kind.startswith("how_many_correct"):
        pairs = [
            fact_formats.PAIR_SPLIT.split(line)
            for _, line in fact_formats.COUNTED.findall(c.stem_markdown)
        ]
        false = [(p[0], p[1]) for p in pairs if len(p) == 2 and not table.is_fact(p[0], p[1])]
        return fact_formats.claims_demand(table, 4, false)
    if kind.startswith("two_statements"):
        false_two = _false_claims(
            table, [t for _, t in fact_formats.STATEMENT_LINE.findall(c.stem_markdown)]
        )
        return None if false_two is None else fact_formats.claims_demand(table, 2, false_two)
    if kind.startswith("multi_statement"):
        false_set = _false_claims(
            table, [t for _, t in fact_formats.LETTERED_LINE.findall(c.stem_markdown)]
        )
        one_off = fact_formats.same_size_codes(key_text, others)
        return (
            None if false_set is None else fact_formats.claims_demand(table, 4, false_set, one_off)
        )
    return None


@dataclass(frozen=True)
class Rater:
    """Re-derives stored questions' ratings from the bundled templates and knowledge."""

    templates: Mapping[str, NumericalTemplate]
    kb: KnowledgeBase
    syllabus: Syllabus
    elements: ElementData | None = None

    @cached_property
    def _element_ratings(self) -> dict[tuple[str, frozenset[str]], Rating]:
        """Every element question the generator makes now, by stem and options: they are few,
        and made from the data alone."""
        if self.elements is None:
            return {}
        return {
            (d.content.stem_markdown, frozenset(o.text for o in d.content.options)): (
                d.content.difficulty,
                d.content.difficulty_reason,
            )
            for level in Difficulty
            for _, stream in element_drafts(self.elements, Subject.CHEMISTRY, level, self.syllabus)
            for d in stream
        }

    @cached_property
    def _tables(self) -> dict[str, FactTable]:
        return {t.relation_id: t for t in self.kb.fact_tables}

    def rating(self, question: Question) -> Rating | None:
        p = question.provenance
        if p.generator == NUMERICAL_GENERATOR:
            template = self.templates.get(p.template_id)
            return (template.difficulty, template.difficulty_reason) if template else None
        if p.generator == elements.GENERATOR:
            c = question.content
            return self._element_ratings.get(
                (c.stem_markdown, frozenset(o.text for o in c.options))
            )
        if p.generator == causes.GENERATOR:
            return causes.DIFFICULTY, difficulty_reason(causes.DEMAND, causes.WHAT)
        if p.generator == facts.GENERATOR:
            table = self._tables.get(p.template_id)
            kind = dict(p.params).get("format", "")
            fmt = fact_formats.FORMATS_BY_KIND.get(kind)
            demand = _fact_demand(question, table, kind) if table and fmt else None
            if demand is None or fmt is None:
                return None
            return rated(demand)[0], difficulty_reason(demand, fmt.what)
        return None


def relabelled(question: Question, rating: Callable[[Question], Rating | None]) -> Question | None:
    """The question stored anew under the label and reason the rubric gives it now, or None
    when its label stands (or it cannot be re-rated). A new reason under the same label is not
    worth a new record: students and papers see the label."""
    new = rating(question)
    c = question.content
    if new is None or new[0] is c.difficulty:
        return None
    content = c.model_copy(update={"difficulty": new[0], "difficulty_reason": new[1]})
    return question.model_copy(update={"content": content, "question_id": question_id(content)})


def relabellings(
    questions: Iterable[Question], rating: Callable[[Question], Rating | None]
) -> list[tuple[Question, Question]]:
    """(old, new) for every question whose label the rubric changes."""
    pairs = []
    for q in questions:
        new = relabelled(q, rating)
        if new is not None:
            pairs.append((q, new))
    return pairs
