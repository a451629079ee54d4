"""Ordering questions ("Arrange the following in …") from authored sequences.

Each sequence (`data/kb/sequences/<subject>-*.json`) is 4 or 5 items in the order NCERT states
them, with the chunk whose text states that order. A draft letters the items in a shuffled order
and offers four orderings of the letters ("B, A, D, C"): the key and three distractors made from
it by swapping neighbouring items, the slip of a student who knows most of the order but
confuses two adjacent items.

The rubric (pipeline/difficulty.py) counts the adjacent relations a student must know, one per
neighbouring pair (claims = items − 1), and asks how close the distractors are:

- square variant: two separate neighbouring pairs of the key are each swapped, alone and
  together, so the four options are the four ways to order those two pairs: two distractors one
  swap from the key and one two swaps away. Every distractor is a near miss (only neighbours
  swapped): Hard. Every option is one swap from two others and two swaps from the third, and at
  every position two options agree with the key and two do not, so nothing but the two pairs'
  true order singles the key out. (Three distractors each one swap from the key would make the
  key the one option a swap from all the others: a convergence cue a test-wise student uses
  without the content. No variant does that.)
- mixed variant: one distractor swaps a neighbouring pair (a near miss), the other two are far
  (three or more items out of place): a judgement between close options, Medium. The key and the
  near distractor are each one swap from the other and far from the rest: no cue either.

Every sequence gives drafts of both variants under different letterings, deterministic by seed;
all drafts of one sequence share a near-duplicate group (the `key` parameter holds a `|`).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Literal

from pydantic import ConfigDict, Field, field_validator

from core.ids import digest
from core.records import (
    Difficulty,
    Draft,
    Provenance,
    QuestionFormat,
    Record,
    Subject,
    choice_draft,
)
from kb.knowledge import Chunk, KnowledgeBase, load_knowledge_base
from kb.syllabus import Syllabus
from pipeline.difficulty import Demand, difficulty_reason, rated

# The solver's reading of chunk text, used here only to quote the stating sentences.
from pipeline.verify.sequence_solver import ChunkText, tokens

GENERATOR = "offline.sequences"
TEMPLATE_PREFIX = "sequences."
SEQUENCES_DIR = Path("kb") / "sequences"
LETTERS = "ABCDE"
MIN_ITEMS, MAX_ITEMS = 4, 5
# Drafts per sequence and variant, each under its own lettering of the items: seeds
# 0 .. 2 × LETTERINGS_PER_VARIANT − 1, even seeds the mixed variant, odd seeds the square one.
LETTERINGS_PER_VARIANT = 3
CLOSING = "Choose the correct answer from the options given below:"
BOOKS = {
    Subject.BOTANY: "Biology",
    Subject.ZOOLOGY: "Biology",
    Subject.CHEMISTRY: "Chemistry",
    Subject.PHYSICS: "Physics",
}
ROMAN = {11: "XI", 12: "XII"}

Variant = Literal["mixed", "square"]
VARIANTS: tuple[Variant, ...] = ("mixed", "square")
Ordering = tuple[str, ...]


class NcertRef(Record):
    """Where NCERT states the order: class, chapter number and title (rationalised books)."""

    model_config = ConfigDict(populate_by_name=True)

    class_: int = Field(alias="class", ge=11, le=12)
    chapter: int = Field(ge=1)
    title: str = Field(min_length=1)

    def cite(self, subject: Subject) -> str:
        return (
            f"NCERT {BOOKS[subject]} Class {ROMAN[self.class_]}, "
            f"Chapter {self.chapter} ({self.title})"
        )


class Sequence_(Record):
    """Items in the order NCERT states them, and what that order is an order of (named with
    an underscore: `Sequence` is the abstract collection type)."""

    sequence_id: str = Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
    subject: Subject
    topic_id: str
    ncert: NcertRef
    chunk_id: str  # the chunk whose text states the items in this order
    asks: str = Field(min_length=1)  # "increasing order of …", "the path of …"
    items: tuple[str, ...]
    # The chunk's sentences that first mention each item, quoted in explanations; filled in by
    # `load_sequences` from the chunk, never authored.
    evidence: tuple[str, ...] = ()

    @field_validator("items")
    @classmethod
    def _items_well_formed(cls, items: tuple[str, ...]) -> tuple[str, ...]:
        if not MIN_ITEMS <= len(items) <= MAX_ITEMS:
            raise ValueError(f"{MIN_ITEMS} or {MAX_ITEMS} items, got {len(items)}")
        if len({i.strip().lower() for i in items}) != len(items) or not all(
            i.strip() for i in items
        ):
            raise ValueError("items must be distinct and not blank")
        return items

    @property
    def template_id(self) -> str:
        return f"{TEMPLATE_PREFIX}{self.sequence_id}"


def stating_sentences(chunk: Chunk, items: Sequence[str]) -> tuple[str, ...]:
    """The chunk's sentences that hold each item's first mention, in the chunk's order."""
    text = ChunkText.of(chunk)
    firsts = {text.first_mention(tokens(item)) for item in items}
    return tuple(text.sentences[i] for i in sorted({f[0] for f in firsts if f is not None}))


def load_sequences(data_dir: Path, kb: KnowledgeBase | None = None) -> tuple[Sequence_, ...]:
    """Every authored sequence under `data_dir/kb/sequences`, in file order, each with the
    sentences of its chunk that state it (from `kb`, loaded from `data_dir` when not given);
    ids are unique and every chunk exists."""
    chunks = (kb or load_knowledge_base(data_dir)).chunks
    found: list[Sequence_] = []
    for path in sorted((data_dir / SEQUENCES_DIR).glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        try:
            authored = [Sequence_.model_validate(s) for s in raw["sequences"]]
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from exc
        for s in authored:
            if s.chunk_id not in chunks:
                raise ValueError(f"{path}: {s.sequence_id} cites unknown chunk {s.chunk_id}")
            evidence = stating_sentences(chunks[s.chunk_id], s.items)
            found.append(s.model_copy(update={"evidence": evidence}))
    ids = [s.sequence_id for s in found]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"duplicate sequence ids: {duplicates}")
    return tuple(found)


def demand(n_items: int, variant: Variant) -> Demand:
    """One adjacent relation to know per neighbouring pair; every distractor a near miss in the
    square variant, one of them in the mixed one."""
    return Demand(claims=n_items - 1, near_miss=True, all_near=variant == "square")


def _swapped(order: Ordering, at: int) -> Ordering:
    out = list(order)
    out[at], out[at + 1] = out[at + 1], out[at]
    return tuple(out)


def distractors(key: Ordering, variant: Variant, rng: random.Random) -> list[Ordering]:
    """Three orderings: two separate neighbouring pairs of the key swapped alone and together
    (square), or one pair swapped and two orderings with three or more items out of place
    (mixed)."""
    places = range(len(key) - 1)
    if variant == "mixed":
        near = _swapped(key, rng.choice(places))
        far = [
            p
            for p in itertools.permutations(key)
            if sum(a != b for a, b in zip(p, key, strict=True)) >= 3
            and sum(a != b for a, b in zip(p, near, strict=True)) >= 3
        ]
        return [near, *rng.sample(sorted(far), 2)]
    a, b = rng.choice([(a, b) for a in places for b in places if b >= a + 2])
    return [_swapped(key, a), _swapped(key, b), _swapped(_swapped(key, a), b)]


def _letterings(sequence: Sequence_) -> list[tuple[int, ...]]:
    """Every way to letter the items except the true order, in a fixed shuffled order: entry i
    is the item each letter stands for."""
    n = len(sequence.items)
    perms = [p for p in itertools.permutations(range(n)) if p != tuple(range(n))]
    random.Random(digest([sequence.sequence_id, "letterings"])).shuffle(perms)
    return perms


def _slips(key: Ordering, other: Ordering, names: dict[str, str]) -> str:
    """What an ordering gets wrong: each item it puts before items that come earlier."""
    rank = {letter: i for i, letter in enumerate(key)}

    def named(letter: str) -> str:
        return f"{letter} ({names[letter]})"

    parts = []
    for i, a in enumerate(other):
        early = [named(b) for b in other[i + 1 :] if rank[b] < rank[a]]
        if early:
            listed = early[0] if len(early) == 1 else ", ".join(early[:-1]) + " and " + early[-1]
            parts.append(f"{named(a)} before {listed}")
    return "puts " + "; ".join(parts)


def variant_of(seed: int) -> Variant:
    return VARIANTS[seed % len(VARIANTS)]


def sequence_draft(sequence: Sequence_, seed: int, syllabus: Syllabus) -> Draft:
    """One ordering question: the items under the seed's lettering (never the true order), the
    key and three distractors of the seed's variant, options in an order fixed by the seed."""
    variant = variant_of(seed)
    rng = random.Random(digest([sequence.sequence_id, seed]))
    letterings = _letterings(sequence)
    lettering = letterings[seed % len(letterings)]
    n = len(sequence.items)
    letters = LETTERS[:n]
    names = {letters[pos]: sequence.items[item] for pos, item in enumerate(lettering)}
    letter_of = {item: letters[pos] for pos, item in enumerate(lettering)}
    key: Ordering = tuple(letter_of[i] for i in range(n))
    wrong = distractors(key, variant, rng)
    assert len({key, *wrong}) == 4, (sequence.sequence_id, key, wrong)

    def text(order: Ordering) -> str:
        return ", ".join(order)

    options = [text(o) for o in (key, *wrong)]
    rng.shuffle(options)
    listed = "\n\n".join(f"{letter}. {names[letter]}" for letter in letters)
    stem = f"Arrange the following in {sequence.asks}:\n\n{listed}\n\n{CLOSING}"
    need = demand(n, variant)
    label, _ = rated(need)
    what = (
        f"{n - 1} neighbouring pairs to order; one distractor swaps a pair of the key, the "
        "others put three or more items out of place"
        if variant == "mixed"
        else f"{n - 1} neighbouring pairs to order; the options are the four orders of two "
        "separate pairs, one distractor two swaps from the key"
    )
    slips = "\n".join(f"- {text(o)} {_slips(key, o, names)}." for o in sorted(wrong))
    quoted = f"> {' '.join(sequence.evidence)}\n\n" if sequence.evidence else ""
    explanation = (
        f"The correct order is **{text(key)}**: "
        + " → ".join(names[letter] for letter in key)
        + f".\n\n{quoted}Each of the other options breaks this order:\n\n{slips}\n\n"
        f"Source: {sequence.ncert.cite(sequence.subject)}."
    )
    provenance = Provenance(
        generator=GENERATOR,
        template_id=sequence.template_id,
        context_ids=(sequence.chunk_id,),
        params=(("key", f"{sequence.sequence_id}|order"), ("seed", str(seed))),
    )
    return choice_draft(
        syllabus.topic(sequence.topic_id).tag,
        label,
        difficulty_reason(need, what),
        QuestionFormat.ORDERING,
        stem,
        options,
        text(key),
        explanation,
        provenance,
    )


def _seeds_at(sequence: Sequence_, difficulty: Difficulty) -> list[int]:
    """The seeds whose variant the rubric rates at the difficulty for this sequence."""
    n = len(sequence.items)
    return [
        seed
        for seed in range(len(VARIANTS) * LETTERINGS_PER_VARIANT)
        if rated(demand(n, variant_of(seed)))[0] is difficulty
    ]


def _topic_drafts(
    sequences: Sequence[Sequence_], difficulty: Difficulty, syllabus: Syllabus
) -> Iterator[Draft]:
    """The topic's drafts at a difficulty: each sequence in turn, lettering after lettering."""
    seeds = [_seeds_at(s, difficulty) for s in sequences]
    for turn in range(max(map(len, seeds), default=0)):
        for sequence, own in zip(sequences, seeds, strict=True):
            if turn < len(own):
                yield sequence_draft(sequence, own[turn], syllabus)


def sequence_drafts(
    sequences: Sequence[Sequence_], subject: Subject, difficulty: Difficulty, syllabus: Syllabus
) -> list[tuple[str, Iterator[Draft]]]:
    """One lazy stream per live topic of the subject with a sequence: (topic_id, its drafts at
    the difficulty). Topics whose sequences give no draft at the difficulty (every ordering
    question is Medium or Hard) get no stream."""
    by_topic: dict[str, list[Sequence_]] = {}
    for s in sequences:
        if s.subject is subject and not syllabus.topic(s.topic_id).deleted:
            by_topic.setdefault(s.topic_id, []).append(s)
    return [
        (topic_id, _topic_drafts(group, difficulty, syllabus))
        for topic_id, group in by_topic.items()
        if any(_seeds_at(s, difficulty) for s in group)
    ]
