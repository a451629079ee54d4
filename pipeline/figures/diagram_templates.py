"""The labelled-diagram templates: NCERT figures drawn from data, letters A–E on their parts.

Each diagram (`data/kb/diagrams/<diagram_id>.json`, one per NCERT figure, cited) gives its
drawing, its parts (the name as NCERT writes it, where the leader line touches the part, where
the letter sits) and one or two true statements per part, each true of that part and of no
other part of the diagram. Every diagram makes three templates:

- `fig-diagram-<id>-name`: which part is labelled X? Four part names of the diagram, all
  labelled in the figure (a student's mistake is the neighbouring labelled part). Easy: one
  recall.
- `fig-diagram-<id>-statement`: which statement about the part labelled X is correct? Statements
  about four labelled parts. Medium: two steps (identify the part, then recall what it does).
- `fig-diagram-<id>-parts`: identify the parts labelled with four letters. The parts pair off
  and the wrong options swap the names of one pair, of the other, or of both (the square of two
  separate swaps, as for Hard match-lists): every position shows its true name in two options
  of four, so no option is the options' consensus, and a student must know a part of each
  pair. Hard: four claims, every false one a near miss.

A seed picks which five parts carry letters (lettered top to bottom, then left to right, as a
textbook letters a figure), which letter is asked and which labelled parts are the distractors.
A question's group is the part asked about, so questions about one part are near-duplicates.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from core.figures.diagram import DiagramLabel, DiagramNote, DiagramShape, DiagramSpec
from core.records import QuestionFormat, Subject
from pipeline.difficulty import Demand
from pipeline.figures.templates import FigureQuestion, FigureTemplate
from pipeline.generate.fact_formats import PAIR_SPLITS, pair_swaps
from pipeline.verify.gate import option_hygiene, options_clash

DIAGRAM_DIR = Path("kb") / "diagrams"
LETTERS = "ABCDE"
NAME_DEMAND = Demand()
STATEMENT_DEMAND = Demand(steps=2)
PARTS_DEMAND = Demand(claims=4, near_miss=True, all_near=True)
TRIES = 40
DASH = " — "


@dataclass(frozen=True)
class Part:
    part_id: str
    name: str
    anchor: tuple[float, float]
    at: tuple[float, float]
    statements: tuple[str, ...]


@dataclass(frozen=True)
class Diagram:
    diagram_id: str
    title: str
    phrase: str  # how a stem names it: "the T.S. of a dicot stem"
    subject: Subject
    topic_id: str
    citation: str
    shapes: tuple[DiagramShape, ...]
    notes: tuple[DiagramNote, ...]
    parts: tuple[Part, ...]
    letters: str = LETTERS  # P to T where A to E would read as a part (the A band)


def citation_of(ncert: dict[str, object]) -> str:
    """'NCERT Biology Class XI, Chapter 8 (Cell: The Unit of Life), Fig. 8.8'."""
    text = f"NCERT Biology Class {ncert['class']}, Chapter {ncert['chapter']} ({ncert['name']})"
    return text + (f", {ncert['figure']}" if ncert.get("figure") else "")


def diagram_of(raw: dict[str, object]) -> Diagram:
    """One diagram record from its JSON."""
    shapes = tuple(DiagramShape.model_validate(s) for s in raw["shapes"])  # type: ignore[attr-defined]
    notes = tuple(DiagramNote.model_validate(n) for n in raw.get("notes", ()))  # type: ignore[attr-defined]
    parts = tuple(
        Part(
            part_id=p["part_id"],
            name=p["name"],
            anchor=(float(p["anchor"][0]), float(p["anchor"][1])),
            at=(float(p["at"][0]), float(p["at"][1])),
            statements=tuple(p["statements"]),
        )
        for p in raw["parts"]  # type: ignore[attr-defined]
    )
    return Diagram(
        diagram_id=str(raw["diagram_id"]),
        title=str(raw["title"]),
        phrase=str(raw["phrase"]),
        subject=Subject(str(raw["subject"])),
        topic_id=str(raw["topic_id"]),
        citation=citation_of(raw["ncert"]),  # type: ignore[arg-type]
        shapes=shapes,
        notes=notes,
        parts=parts,
        letters=str(raw.get("letters", LETTERS)),
    )


@cache
def load_diagrams(directory: Path) -> tuple[Diagram, ...]:
    """Every diagram in a directory of diagram JSON files, in file-name order."""
    return tuple(
        diagram_of(json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(directory.glob("*.json"))
    )


def _labelled(diagram: Diagram, rng: random.Random) -> list[tuple[str, Part]]:
    """Five parts chosen for letters, lettered top to bottom, then left to right."""
    chosen = rng.sample(list(diagram.parts), min(len(diagram.letters), len(diagram.parts)))
    chosen.sort(key=lambda p: (round(p.at[1] / 12), p.at[0]))
    return list(zip(diagram.letters, chosen, strict=False))


def _spec(diagram: Diagram, lettered: Sequence[tuple[str, Part]]) -> DiagramSpec:
    return DiagramSpec(
        diagram_id=diagram.diagram_id,
        title=diagram.title,
        shapes=diagram.shapes,
        notes=diagram.notes,
        labels=tuple(
            DiagramLabel(letter=letter, part=p.name, anchor=p.anchor, at=p.at)
            for letter, p in lettered
        ),
    )


def fair_options(options: Sequence[str], key: str, stem: str) -> bool:
    """Options a student cannot answer by their look: the gate's option hygiene, and none the
    same as or inside another (`options_clash`, stricter about short texts)."""
    at = options.index(key)
    return not options_clash(options) and (
        option_hygiene(QuestionFormat.SINGLE_CORRECT, stem, options, at) is None
    )


def _caption(diagram: Diagram) -> str:
    first, last = diagram.letters[0], diagram.letters[-1]
    return f"Figure: {diagram.title}, with five parts labelled {first} to {last}"


def _alt(diagram: Diagram) -> str:
    letters = ", ".join(diagram.letters[:-1]) + f" and {diagram.letters[-1]}"
    return (
        f"A schematic line drawing of {diagram.phrase}. Leader lines run from the letters "
        f"{letters} to five of its parts; the parts are not named."
    )


def _name_question(diagram: Diagram, rng: random.Random) -> FigureQuestion | None:
    lettered = _labelled(diagram, rng)
    letter, asked = rng.choice(lettered)
    others = [p for _, p in lettered if p is not asked]
    stem = f"In the given diagram of {diagram.phrase}, which part is labelled **{letter}**?"
    for _ in range(TRIES):
        options = [asked.name, *(p.name for p in rng.sample(others, 3))]
        rng.shuffle(options)
        if fair_options(options, asked.name, stem):
            break
    else:
        return None
    return FigureQuestion(
        spec=_spec(diagram, lettered),
        caption=_caption(diagram),
        alt=_alt(diagram),
        format=QuestionFormat.SINGLE_CORRECT,
        stem=stem,
        options=(options[0], options[1], options[2], options[3]),
        correct=asked.name,
        explanation=(
            f"The leader line of **{letter}** ends on the {asked.name}. "
            f"The other options are parts labelled elsewhere in the figure. ({diagram.citation})"
        ),
        group=asked.part_id,
        params=(("diagram", diagram.diagram_id), ("letter", letter)),
    )


def _statement_question(diagram: Diagram, rng: random.Random) -> FigureQuestion | None:
    lettered = _labelled(diagram, rng)
    letter, asked = rng.choice(lettered)
    others = [p for _, p in lettered if p is not asked]
    stem = (
        f"In the given diagram of {diagram.phrase}, which one of the following statements "
        f"about the part labelled **{letter}** is correct?"
    )
    for _ in range(TRIES):
        picked = [asked, *rng.sample(others, 3)]
        said = [rng.choice(p.statements) for p in picked]
        key = said[0]
        options = list(said)
        rng.shuffle(options)
        if fair_options(options, key, stem):
            break
    else:
        return None
    named = "; ".join(
        f"{s[0].lower()}{s[1:]} ({p.name})" for p, s in zip(picked, said, strict=True)
    )
    return FigureQuestion(
        spec=_spec(diagram, lettered),
        caption=_caption(diagram),
        alt=_alt(diagram),
        format=QuestionFormat.SINGLE_CORRECT,
        stem=stem,
        options=(options[0], options[1], options[2], options[3]),
        correct=key,
        explanation=(
            f"**{letter}** is the {asked.name}. The statements describe, in turn: {named}. "
            f"({diagram.citation})"
        ),
        group=asked.part_id,
        params=(("diagram", diagram.diagram_id), ("letter", letter)),
    )


def parts_text(letters: Sequence[str], names: Sequence[str]) -> str:
    return ", ".join(f"{letter}{DASH}{name}" for letter, name in zip(letters, names, strict=True))


def _parts_question(diagram: Diagram, rng: random.Random) -> FigureQuestion | None:
    lettered = _labelled(diagram, rng)
    if len(lettered) < 4:
        return None
    asked = sorted(rng.sample(lettered, 4), key=lambda lp: lp[0])
    letters = [letter for letter, _ in asked]
    names = [p.name for _, p in asked]
    key = parts_text(letters, names)
    wrong = [parts_text(letters, w) for w in pair_swaps(names, rng.choice(PAIR_SPLITS))]
    options = [key, *wrong]
    rng.shuffle(options)
    asked_letters = f"{', '.join(letters[:-1])} and {letters[-1]}"
    stem = (
        f"In the given diagram of {diagram.phrase}, identify the parts labelled "
        + ", ".join(f"**{letter}**" for letter in letters[:-1])
        + f" and **{letters[-1]}**."
    )
    if not fair_options(options, key, stem):
        return None
    ends = ", the ".join(names[:-1]) + f" and the {names[-1]}"
    return FigureQuestion(
        spec=_spec(diagram, lettered),
        caption=_caption(diagram),
        alt=_alt(diagram),
        format=QuestionFormat.SINGLE_CORRECT,
        stem=stem,
        options=(options[0], options[1], options[2], options[3]),
        correct=key,
        explanation=(
            f"The leader lines of {asked_letters} end on the {ends}; the other options swap "
            f"the names of one pair of them, of the other, or of both. ({diagram.citation})"
        ),
        group="+".join(p.part_id for _, p in asked),
        params=(("diagram", diagram.diagram_id), ("letters", "".join(letters))),
    )


Maker = Callable[[Diagram, random.Random], FigureQuestion | None]
KINDS: tuple[tuple[str, Maker, Demand], ...] = (
    ("name", _name_question, NAME_DEMAND),
    ("statement", _statement_question, STATEMENT_DEMAND),
    ("parts", _parts_question, PARTS_DEMAND),
)


def _drawer(
    template_id: str, diagram: Diagram, make: Maker
) -> Callable[[int], FigureQuestion | None]:
    def draw(seed: int) -> FigureQuestion | None:
        return make(diagram, random.Random(f"{template_id}:{seed}"))

    return draw


def diagram_templates(data_dir: Path) -> tuple[FigureTemplate, ...]:
    """Three templates per diagram in `data_dir`/kb/diagrams."""
    templates = []
    for diagram in load_diagrams(data_dir / DIAGRAM_DIR):
        for kind, make, demand in KINDS:
            template_id = f"fig-diagram-{diagram.diagram_id}-{kind}"
            templates.append(
                FigureTemplate(
                    template_id=template_id,
                    subject=diagram.subject,
                    topic_id=diagram.topic_id,
                    demand=demand,
                    draw=_drawer(template_id, diagram, make),
                )
            )
    return tuple(templates)
