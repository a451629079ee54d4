"""Ordering questions: authored sequences, their drafts, and the solver that reads orders from
the chunks (never from the sequence data)."""

from __future__ import annotations

import inspect
from collections import Counter
from pathlib import Path

import pytest

from core.pool import near_duplicate_group
from core.records import OPTION_KEYS, Difficulty, Draft, QuestionFormat, Subject
from kb.knowledge import KnowledgeBase
from kb.syllabus import Syllabus
from pipeline import difficulty
from pipeline.generate import sequences as generator
from pipeline.generate.sequences import (
    GENERATOR,
    TEMPLATE_PREFIX,
    Sequence_,
    load_sequences,
    sequence_draft,
    sequence_drafts,
)
from pipeline.verify import sequence_solver
from pipeline.verify.element_solver import SOLVER_NAME
from pipeline.verify.gate import hygiene_problem, judged, solver_view
from pipeline.verify.sequence_solver import (
    ChunkText,
    SequenceSolver,
    asked,
    parse_option,
    parse_stem,
    read_order,
    tokens,
)
from tests.conftest import DATA_DIR

MIN_SEQUENCES = 60


@pytest.fixture(scope="module")
def sequences() -> tuple[Sequence_, ...]:
    return load_sequences(DATA_DIR)


@pytest.fixture(scope="module")
def solver(kb: KnowledgeBase) -> SequenceSolver:
    return SequenceSolver(kb)


@pytest.fixture(scope="module")
def drafts(sequences: tuple[Sequence_, ...], syllabus: Syllabus) -> list[Draft]:
    return [
        d
        for subject in Subject
        for level in Difficulty
        for _, stream in sequence_drafts(sequences, subject, level, syllabus)
        for d in stream
    ]


def _by_id(sequences: tuple[Sequence_, ...]) -> dict[str, Sequence_]:
    return {s.sequence_id: s for s in sequences}


def _adjacent_swaps(key: tuple[str, ...], other: tuple[str, ...]) -> int | None:
    """1 when `other` is `key` with one neighbouring pair swapped, else None."""
    diff = [i for i, (a, b) in enumerate(zip(key, other, strict=True)) if a != b]
    if len(diff) == 2 and diff[1] == diff[0] + 1 and key[diff[0]] == other[diff[1]]:
        return 1
    return None


def _near(key: tuple[str, ...], other: tuple[str, ...]) -> bool:
    """`other` is `key` with one or two separate neighbouring pairs swapped (a near miss)."""
    k, o = list(key), list(other)
    i = 0
    while i < len(k) - 1:
        if k[i] != o[i]:
            if (k[i], k[i + 1]) != (o[i + 1], o[i]):
                return False
            i += 2
        else:
            i += 1
    return k[-1] == o[-1] or (len(k) > 1 and k[-2:] == o[-2:][::-1])


def test_sequences_span_the_four_subjects_under_live_topics_of_each(
    sequences: tuple[Sequence_, ...], kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    assert len(sequences) >= MIN_SEQUENCES
    per_subject = Counter(s.subject for s in sequences)
    assert set(per_subject) == set(Subject)
    assert min(per_subject.values()) >= 10, per_subject
    for s in sequences:
        topic = syllabus.topic(s.topic_id)
        assert not topic.deleted, s.sequence_id
        assert topic.subject is s.subject, s.sequence_id
        assert s.chunk_id in kb.chunks, s.sequence_id
        assert kb.chunks[s.chunk_id].subject is s.subject, s.sequence_id
        assert 4 <= len(s.items) <= 5
        assert s.evidence, f"{s.sequence_id}: no sentence of {s.chunk_id} mentions its items"


def test_every_sequence_chunk_states_the_items_in_order(
    sequences: tuple[Sequence_, ...], kb: KnowledgeBase
) -> None:
    """Read alone, each sequence's chunk gives the authored order: the order it first mentions
    the items in (the way it says its list runs, when the question asks for a direction), or
    the order of the values it states for them."""
    wrong = []
    for s in sequences:
        text = ChunkText.of(kb.chunks[s.chunk_id])
        reading = read_order(text, [tokens(i) for i in s.items], asked(s.asks))
        identity = tuple(range(len(s.items)))
        if reading is None or reading.order != identity:
            wrong.append((s.sequence_id, reading))
    assert wrong == []


def test_the_solver_picks_the_key_of_every_draft_from_the_stating_chunk(
    drafts: list[Draft], solver: SequenceSolver, sequences: tuple[Sequence_, ...]
) -> None:
    chunk_of = {s.template_id: s.chunk_id for s in sequences}
    outcomes: Counter[str] = Counter()
    for d in drafts:
        assert hygiene_problem(d) is None, d.provenance.template_id
        answer = solver.answer(solver_view(d))
        attempt, question = judged(d, answer)
        outcomes["accepted" if question else str(attempt.rejection_reason)] += 1
        assert answer.solver == SOLVER_NAME
        assert answer.note.startswith(chunk_of[d.provenance.template_id] + ":"), answer.note
    assert outcomes == Counter({"accepted": len(drafts)})


def test_a_moved_key_is_refused(drafts: list[Draft], solver: SequenceSolver) -> None:
    seen = set()
    for d in drafts:
        if d.provenance.template_id in seen:
            continue
        seen.add(d.provenance.template_id)
        c = d.content
        for wrong in (k for k in OPTION_KEYS if k != c.correct_key):
            moved = d.model_copy(update={"content": c.model_copy(update={"correct_key": wrong})})
            attempt, question = judged(moved, solver.answer(solver_view(moved)))
            assert question is None
            assert str(attempt.rejection_reason).startswith("solver_disagreed")


def test_the_solver_abstains_when_the_chunks_cannot_settle_the_order(
    sequences: tuple[Sequence_, ...], syllabus: Syllabus, solver: SequenceSolver
) -> None:
    prophase = _by_id(sequences)["prophase-i-substages"]
    draft = sequence_draft(prophase, 0, syllabus)
    view = solver_view(draft)

    def answer_to(stem: str = view.stem_markdown, options: tuple[str, ...] | None = None) -> str:
        texts = options or tuple(o.text for o in view.options)
        changed = view.model_copy(
            update={
                "stem_markdown": stem,
                "options": tuple(
                    o.model_copy(update={"text": t})
                    for o, t in zip(view.options, texts, strict=True)
                ),
            }
        )
        result = solver.answer(changed)
        assert result.choice is None, result
        return result.note

    item = prophase.items[2]
    assert answer_to(view.stem_markdown.replace(item, "Metamorphosis")) == (
        "no chunk mentions every item"
    )
    # No option reads the order the chunk gives.
    key = next(o.text for o in view.options if o.key == draft.content.correct_key)
    reversed_key = ", ".join(reversed(parse_option(key)))
    others = tuple(o.text for o in view.options if o.key != draft.content.correct_key)
    assert answer_to(options=(reversed_key, *others)).startswith("0 options read")
    # One item inside another ("Zygotene" in "Zygotene stage") is ambiguous.
    stem = parse_stem(view.stem_markdown)
    assert stem is not None
    doubled = view.stem_markdown.replace(
        f"{stem.letters[1]}. {stem.items[1]}", f"{stem.letters[1]}. {stem.items[0]} stage"
    )
    assert "is part of item" in answer_to(doubled)
    # A direction asked for but stated nowhere: "increasing order of …" of a sequence of stages.
    undirected = view.stem_markdown.replace(prophase.asks, "increasing order of duration")
    assert "no stated direction or values" in answer_to(undirected)


def test_labels_follow_the_rubric_and_both_medium_and_hard_appear(
    drafts: list[Draft], sequences: tuple[Sequence_, ...], syllabus: Syllabus
) -> None:
    items = {s.template_id: s.items for s in sequences}
    labels: Counter[Difficulty] = Counter()
    for d in drafts:
        c = d.content
        key = parse_option(c.option(c.correct_key).text)
        others = [parse_option(o.text) for o in c.options if o.key != c.correct_key]
        near = [_near(key, o) for o in others]
        need = difficulty.Demand(
            claims=len(items[d.provenance.template_id]) - 1, near_miss=any(near), all_near=all(near)
        )
        label, reason = difficulty.rated(need)
        assert c.difficulty is label, d.provenance.template_id
        assert c.difficulty_reason.startswith(reason)
        labels[label] += 1
    assert set(labels) == {Difficulty.MEDIUM, Difficulty.HARD}
    for subject in Subject:
        assert sequence_drafts(sequences, subject, Difficulty.EASY, syllabus) == []


def test_no_options_single_out_the_key_without_the_content(drafts: list[Draft]) -> None:
    """A Hard draft's options are the four orders of two separate pairs: each option is one
    swap from two others, and at each position as many options agree with the key as not. A
    Medium draft's key is one swap from one option, which is one swap from it alone."""
    for d in (d for d in drafts if d.content.difficulty is Difficulty.MEDIUM):
        orders = [parse_option(o.text) for o in d.content.options]
        for order in orders:
            near = [o for o in orders if o != order and _adjacent_swaps(order, o) == 1]
            assert len(near) <= 1, d.provenance.template_id
    for d in (d for d in drafts if d.content.difficulty is Difficulty.HARD):
        c = d.content
        orders = [parse_option(o.text) for o in c.options]
        for order in orders:
            near = [o for o in orders if o != order and _adjacent_swaps(order, o) == 1]
            assert len(near) == 2, d.provenance.template_id
        key = parse_option(c.option(c.correct_key).text)
        for i, letter in enumerate(key):
            agree = sum(o[i] == letter for o in orders)
            assert agree in (2, 4), d.provenance.template_id


def test_drafts_are_ordering_questions_in_the_nta_form(
    drafts: list[Draft], sequences: tuple[Sequence_, ...], syllabus: Syllabus
) -> None:
    by_template = _by_id(sequences)
    groups: dict[str, set[str]] = {}
    per_topic: Counter[tuple[str, Difficulty]] = Counter()
    for d in drafts:
        c, p = d.content, d.provenance
        s = by_template[p.template_id.removeprefix(TEMPLATE_PREFIX)]
        assert c.format is QuestionFormat.ORDERING
        assert c.tag.topic_id == s.topic_id and c.tag.subject is s.subject
        assert p.generator == GENERATOR and p.context_ids == (s.chunk_id,)
        assert dict(p.params)["key"] == f"{s.sequence_id}|order"
        stem = parse_stem(c.stem_markdown)
        assert stem is not None and stem.asks == s.asks
        assert sorted(stem.items) == sorted(s.items)
        assert c.stem_markdown.endswith("Choose the correct answer from the options given below:")
        key = c.option(c.correct_key).text
        assert key != ", ".join(stem.letters), "the key is never the lettering itself"
        assert [stem.items[stem.letters.index(x)] for x in parse_option(key)] == list(s.items)
        assert s.ncert.title in c.explanation_markdown
        groups.setdefault(s.sequence_id, set()).add(near_duplicate_group(p, "unused"))
        per_topic[s.topic_id, c.difficulty] += 1
    assert all(len(g) == 1 for g in groups.values())
    assert len({next(iter(g)) for g in groups.values()}) == len(groups)
    assert min(per_topic.values()) >= generator.LETTERINGS_PER_VARIANT
    # Deterministic: the same seeds give the same drafts.
    again = [
        d
        for subject in Subject
        for level in Difficulty
        for _, stream in sequence_drafts(sequences, subject, level, syllabus)
        for d in stream
    ]
    assert again == drafts


def test_the_solver_reads_stated_values(kb: KnowledgeBase) -> None:
    """Numbers in the forms the chunks write them: decimals, thousands, signs, powers of ten."""
    chunk = next(iter(kb.chunks.values())).model_copy(
        update={
            "chunk_id": "values",
            "text": "The resistivity of glass is 10¹⁰ to 10¹⁴ ohm metre, of copper "
            "1.7 × 10⁻⁸ and of germanium 0.46. The resistivity of seawater is 0.2, "
            "of mercury −1,000 in an odd unit.",
        }
    )
    text = ChunkText.of(chunk)
    items = [tokens(t) for t in ("Mercury", "Copper", "Seawater", "Germanium", "Glass")]
    reading = read_order(text, items, asked("increasing order of resistivity"))
    assert reading is not None and reading.order == (0, 1, 2, 3, 4), reading


def test_the_solver_never_reads_the_sequence_data() -> None:
    source = inspect.getsource(sequence_solver)
    for name in ("pipeline.generate", "load_sequences", "SEQUENCES_DIR", "kb/sequences"):
        assert name not in source


def test_the_knowledge_base_loads_with_the_new_chunks(
    kb: KnowledgeBase, syllabus: Syllabus
) -> None:
    files = sorted(p.stem for p in (DATA_DIR / "kb" / "chunks").glob("n20s-*.md"))
    assert files
    for chunk_id in files:
        chunk = kb.chunks[chunk_id]
        assert chunk.topic_id is not None
        topic = syllabus.topic(chunk.topic_id)
        assert not topic.deleted and topic.subject is chunk.subject, chunk_id
        assert chunk.source == "qforge sample notes (original text)"
        assert chunk.licence == "CC-BY-4.0"


def test_loading_names_a_bad_file(tmp_path: Path) -> None:
    folder = tmp_path / "kb" / "sequences"
    folder.mkdir(parents=True)
    (folder / "botany-bad.json").write_text(
        '{"sequences": [{"sequence_id": "x", "subject": "Botany", "topic_id": "t", '
        '"ncert": {"class": 11, "chapter": 1, "title": "T"}, "chunk_id": "c", '
        '"asks": "the order", "items": ["a", "b", "c"]}]}',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"botany-bad\.json"):
        load_sequences(tmp_path)
