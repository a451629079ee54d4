"""Where drafts come from: the drafter protocols and the embedded offline drafter.

A drafter yields candidate drafts for one cell of the pool; `pipeline.verify.gate` decides
which of them become questions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

from core.records import Difficulty, Draft, Subject
from kb.elements import ElementData
from kb.knowledge import KnowledgeBase
from kb.syllabus import Syllabus
from pipeline.figures.templates import FigureTemplate, figure_drafts
from pipeline.generate.causes import assertion_reason_drafts
from pipeline.generate.elements import element_drafts
from pipeline.generate.facts import fact_drafts
from pipeline.generate.genetics import genetics_drafts
from pipeline.generate.numerical import NumericalTemplate, numerical_drafts
from pipeline.generate.organic.template import OrganicTemplate, organic_drafts
from pipeline.generate.sequences import Sequence_, sequence_drafts
from pipeline.generate.streams import round_robin


class Drafter(Protocol):
    """Produces candidate drafts for one cell of the pool: subject × difficulty (× unit or topic).

    `topic_id` narrows the drafts to one topic of the unit (the worker's practice sets): a
    drafter must not pay for drafts of other topics only to have them thrown away.
    """

    def drafts(
        self,
        subject: Subject,
        difficulty: Difficulty,
        starts: Mapping[str, int],
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
        starts: Mapping[str, int],
        unit_id: str | None = None,
        topic_id: str | None = None,
    ) -> Iterator[Any]: ...

    def draft(self, request: Any) -> object: ...


@dataclass(frozen=True)
class OfflineDrafter:
    """The embedded drafter: parametric numericals, fact-table, element-data, genetics,
    ordering, figure and organic-chemistry questions."""

    syllabus: Syllabus
    kb: KnowledgeBase
    templates: tuple[NumericalTemplate, ...]
    elements: ElementData | None = None
    # Where the genetics forms and traits are (data/kb/genetics); None: no genetics questions.
    data_dir: Path | None = None
    # The authored sequences the ordering questions come from (data/kb/sequences).
    sequences: tuple[Sequence_, ...] = ()
    # The figure templates (pipeline.figures.catalogue): questions that show a drawn figure.
    figures: tuple[FigureTemplate, ...] = ()
    # The organic-chemistry templates (pipeline.generate.organic.catalogue): names, isomers,
    # bonds, orderings and reactions over the compound table, many showing structures.
    organic: tuple[OrganicTemplate, ...] = ()

    def drafts(
        self,
        subject: Subject,
        difficulty: Difficulty,
        starts: Mapping[str, int],
        unit_id: str | None = None,
        topic_id: str | None = None,
    ) -> Iterator[Draft]:
        in_unit = in_cell(self.syllabus, unit_id, topic_id)

        numericals = [
            numerical_drafts(t, self.syllabus, start=starts.get(t.template_id, 0))
            for t in self.templates
            if t.subject == subject and t.difficulty == difficulty and in_unit(t.topic_id)
        ]
        # A fact or cause carries its own topic, so a table may serve several topics.
        facts = [
            fact_drafts(table, difficulty, self.kb, self.syllabus, topics)
            for table in self.kb.fact_tables
            if table.subject == subject and (topics := [t for t in table.topic_ids if in_unit(t)])
        ]
        facts += [
            assertion_reason_drafts(table, difficulty, self.kb, self.syllabus, topics)
            for table in self.kb.cause_tables
            if table.subject == subject and (topics := [t for t in table.topic_ids if in_unit(t)])
        ]
        if self.elements is not None:
            facts += [
                stream
                for of_topic, stream in element_drafts(
                    self.elements, subject, difficulty, self.syllabus
                )
                if in_unit(of_topic)
            ]
        if self.data_dir is not None:
            facts += [
                stream
                for of_topic, stream in genetics_drafts(
                    subject, difficulty, self.syllabus, self.data_dir
                )
                if in_unit(of_topic)
            ]
        if self.sequences:
            facts += [
                stream
                for of_topic, stream in sequence_drafts(
                    self.sequences, subject, difficulty, self.syllabus
                )
                if in_unit(of_topic)
            ]
        figures = seeded_streams(
            self.figures, figure_drafts, self.syllabus, subject, difficulty, starts, in_unit
        )
        organic = seeded_streams(
            self.organic, organic_drafts, self.syllabus, subject, difficulty, starts, in_unit
        )
        # Numericals, facts, figures and organic templates take turns, so seventeen fact tables
        # do not drown two templates.
        groups = [round_robin(g) for g in (numericals, facts, figures, organic) if g]
        return round_robin(groups)


def in_cell(
    syllabus: Syllabus, unit_id: str | None, topic_id: str | None
) -> Callable[[str | None], bool]:
    """Whether a generator's topic belongs to the cell asked for: that topic, or any topic of
    that unit, or (neither given) any topic."""

    def wanted(of: str | None) -> bool:
        if topic_id is not None and of != topic_id:
            return False
        return unit_id is None or (of is not None and syllabus.topic(of).unit_id == unit_id)

    return wanted


class Seeded(Protocol):
    """A seeded template of one cell: a figure or an organic template (what the figure floor
    counts per cell, too)."""

    @property
    def template_id(self) -> str: ...
    @property
    def subject(self) -> Subject: ...
    @property
    def topic_id(self) -> str: ...
    @property
    def difficulty(self) -> Difficulty: ...


S = TypeVar("S", bound=Seeded)


def seeded_streams(
    templates: Sequence[S],
    drafts_of: Callable[[S, Syllabus, int], Iterator[Draft]],
    syllabus: Syllabus,
    subject: Subject,
    difficulty: Difficulty,
    starts: Mapping[str, int],
    wanted: Callable[[str | None], bool],
) -> list[Iterator[Draft]]:
    """One stream per template of the cell whose topic is `wanted`, each starting after the
    variants its template has had solved (`starts`)."""
    return [
        drafts_of(t, syllabus, starts.get(t.template_id, 0))
        for t in templates
        if t.subject == subject and t.difficulty == difficulty and wanted(t.topic_id)
    ]


@dataclass(frozen=True)
class FigureDrafter:
    """The offline drafter's drawn questions alone (figure templates, and organic templates
    that show structures): what the nightly's figure floor tops up."""

    syllabus: Syllabus
    figures: tuple[FigureTemplate, ...]
    organic: tuple[OrganicTemplate, ...] = ()

    def drafts(
        self,
        subject: Subject,
        difficulty: Difficulty,
        starts: Mapping[str, int],
        unit_id: str | None = None,
        topic_id: str | None = None,
    ) -> Iterator[Draft]:
        wanted = in_cell(self.syllabus, unit_id, topic_id)
        streams = seeded_streams(
            self.figures, figure_drafts, self.syllabus, subject, difficulty, starts, wanted
        )
        streams += seeded_streams(
            self.organic, organic_drafts, self.syllabus, subject, difficulty, starts, wanted
        )
        return round_robin(streams)
