"""Fact-driven questions from the bundled fact tables, in three NEET formats.

Distractors come from the same relation's other members, and never one the table says is also
true for the asked entity or value.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator, Sequence
from functools import lru_cache

from core.ids import digest
from core.records import (
    Difficulty,
    Draft,
    Provenance,
    choice_draft,
)
from kb.knowledge import Fact, FactTable, KnowledgeBase
from kb.retrieval import sentences
from kb.syllabus import Syllabus
from pipeline.difficulty import Demand, difficulty_reason, rated
from pipeline.generate.fact_formats import (
    FORMATS_BY_DIFFICULTY,
    HOW_MANY,
    HOW_MANY_CLOSE,
    MATCH_LIST,
    MATCH_LIST_CLOSE,
    MULTI_STATEMENT,
    MULTI_STATEMENT_CLOSE,
    MULTI_STATEMENT_STEM,
    ODD_PAIR,
    ODD_PAIR_CLOSE,
    PAIR_SPLITS,
    REVERSE,
    TWO_STATEMENTS,
    TWO_STATEMENTS_CLOSE,
    FactFormat,
    claims_demand,
    coding_demand,
    match_code,
    near_miss,
    near_to_entity,
    pair_swaps,
    same_size_codes,
    split_by_nearness,
    statement_code,
    wrong_value,
)
from pipeline.generate.streams import live_topics_of, round_robin

GENERATOR = "offline.facts"


TWO_STATEMENT_OPTIONS = (
    "Both Statement I and Statement II are correct",
    "Both Statement I and Statement II are incorrect",
    "Statement I is correct but Statement II is incorrect",
    "Statement I is incorrect but Statement II is correct",
)
COUNT_OPTIONS = ("One", "Two", "Three", "Four")
ROMAN = ("I", "II", "III", "IV")


def _shuffled(options: tuple[str, ...], rng: random.Random) -> list[str]:
    """Fixed option sets in a seeded order: the solver confirms true statements more readily than
    false ones, so a fixed order would pile the accepted keys onto one letter."""
    shuffled = list(options)
    rng.shuffle(shuffled)
    return shuffled


def _as_question(stem: str) -> str:
    stem = stem.strip()
    return stem if stem.endswith(("?", ":", ".")) else stem + ":"


@lru_cache(maxsize=8192)
def _sentences_of(text: str) -> tuple[str, ...]:
    """A chunk's sentences, split once: every draft of a fact quotes the one stating it."""
    return tuple(sentences(text))


def supporting_sentence(kb: KnowledgeBase, fact: Fact) -> str | None:
    """The chunk sentence that states the fact (entity and value together), if any."""
    chunk = kb.chunks[fact.chunk_id]
    for s in _sentences_of(chunk.text):
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
    demand: Demand,
    stem: str,
    options: list[str],
    correct: str,
    explanation: str,
    context: tuple[str, ...],
    key: str,
    topic_id: str,
) -> Draft | None:
    if len(set(options)) != 4:
        return None
    provenance = Provenance(
        generator=GENERATOR,
        template_id=table.relation_id,
        context_ids=tuple(sorted(set(context))),
        params=(("format", fmt.kind), ("key", key)),
    )
    tag = syllabus.topic(topic_id).tag
    return choice_draft(
        tag,
        rated(demand)[0],
        difficulty_reason(demand, fmt.what),
        fmt.question_format,
        stem,
        options,
        correct,
        explanation,
        provenance,
    )


def single_correct_draft(
    table: FactTable, fact: Fact, fmt: FactFormat, kb: KnowledgeBase, syllabus: Syllabus
) -> Draft | None:
    """FORWARD: the entity is given and its value asked, among values far from it (Easy);
    FORWARD_CLOSE: among values near it (a judgement between close options); REVERSE: the
    value is given and the entity asked."""
    forward = fmt is not REVERSE
    if not forward and table.reverse_stem is None:
        return None
    rng = random.Random(digest([fmt.kind, table.relation_id, fact.entity, fact.value]))
    if forward:
        answer = fact.value
        pool = {f.value for f in table.facts if not table.is_fact(fact.entity, f.value)}
        stem = table.forward_stem.format(entity=fact.entity)
        near, far = split_by_nearness(table, pool, answer)
        if fmt.near:
            if not near:
                return None
            # The nearest values first; the rest of the options from anywhere in the table.
            picked = rng.sample(near, min(3, len(near)))
            rest = sorted(pool - set(picked))
            if len(rest) < 3 - len(picked):
                return None
            distractors = picked + rng.sample(rest, 3 - len(picked))
        else:
            if len(far) < 3:
                return None
            distractors = rng.sample(far, 3)
        demand = Demand(near_miss=any(near_miss(table, answer, d) for d in distractors))
    else:
        answer = fact.entity
        pool = {f.entity for f in table.facts if not table.is_fact(f.entity, fact.value)}
        stem = str(table.reverse_stem).format(value=fact.value)
        if len(pool) < 3:
            return None
        distractors = rng.sample(sorted(pool), 3)
        demand = Demand(reversed=True)
    options = [answer, *distractors]
    rng.shuffle(options)
    explanation = f"**{fact.entity}** — {fact.value}.\n\n{_evidence(kb, fact)}"
    return _draft(
        table,
        syllabus,
        fmt,
        demand,
        _as_question(stem),
        options,
        answer,
        explanation,
        (fact.chunk_id,),
        f"{fact.entity}|{fact.value}",
        str(table.topic_of(fact)),
    )


def _topic_facts(table: FactTable, topic_id: str | None) -> tuple[tuple[Fact, ...], str]:
    """The facts a question of the topic asks about (all the table's without one), and the
    topic. Distractors and truth checks always use the whole table."""
    topic = topic_id or table.topic_id
    if topic is None:
        raise ValueError(f"{table.relation_id}: no topic")
    return (table.facts_of(topic) if topic_id else table.facts), topic


def _by_entity(facts: Sequence[Fact]) -> dict[str, list[Fact]]:
    by_entity: dict[str, list[Fact]] = {}
    for f in facts:
        by_entity.setdefault(f.entity, []).append(f)
    return by_entity


def odd_pair_draft(
    table: FactTable,
    seed: int,
    kb: KnowledgeBase,
    syllabus: Syllabus,
    topic_id: str | None = None,
    near: bool = False,
) -> Draft | None:
    """Three true pairings and one false: which is incorrectly matched? `near`: the false
    pairing's value is a near miss of the entity's true value; otherwise far from it."""
    fmt = ODD_PAIR_CLOSE if near else ODD_PAIR
    asked, topic = _topic_facts(table, topic_id)
    rng = random.Random(digest(["pair", table.relation_id, seed] + (["near"] if near else [])))
    by_entity = _by_entity(asked)
    entities = sorted(by_entity)
    if len(entities) < 4:
        return None
    picked = rng.sample(entities, 4)
    true_facts = [rng.choice(by_entity[e]) for e in picked[:3]]
    odd_entity = picked[3]
    used_values = {f.value for f in true_facts}
    odd_values = {f.value for f in table.facts if f.entity == odd_entity}
    wrong_values = sorted({f.value for f in table.facts} - used_values - odd_values)
    close = [v for v in wrong_values if near_to_entity(table, odd_entity, v)]
    wrong_values = close if near else [v for v in wrong_values if v not in close]
    if not wrong_values:
        return None
    wrong = rng.choice(wrong_values)
    sep = table.pair_separator
    options = [f"{f.entity}{sep}{f.value}" for f in true_facts] + [f"{odd_entity}{sep}{wrong}"]
    rng.shuffle(options)
    correct = f"{odd_entity}{sep}{wrong}"
    right = _right_values(table, odd_entity)
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
        table,
        syllabus,
        fmt,
        claims_demand(table, 4, [(odd_entity, wrong)]),
        stem,
        options,
        correct,
        explanation,
        context,
        f"seed={seed}",
        topic,
    )


def statement(table: FactTable, entity: str, value: str) -> str | None:
    """A fact (true or not) as a declarative sentence, when the forward stem reads as one."""
    stem = table.forward_stem.strip()
    if stem.endswith(("?", ":")):
        return None
    text = f"{stem.format(entity=entity)} {value}."
    return text[0].upper() + text[1:]


def _distinct_entity_facts(
    facts: Sequence[Fact], n: int, rng: random.Random, distinct_values: bool = False
) -> list[Fact] | None:
    """`n` facts of different entities; with `distinct_values`, of different values too (claims
    sharing a value would tell a student something about both without the content)."""
    by_entity = _by_entity(facts)
    if len(by_entity) < n:
        return None
    if not distinct_values:
        return [rng.choice(by_entity[e]) for e in rng.sample(sorted(by_entity), n)]
    chosen: list[Fact] = []
    for e in rng.sample(sorted(by_entity), len(by_entity)):
        fresh = [f for f in by_entity[e] if f.value not in {c.value for c in chosen}]
        if fresh:
            chosen.append(rng.choice(fresh))
        if len(chosen) == n:
            return chosen
    return None


def _right_values(table: FactTable, entity: str) -> str:
    return ", ".join(f.value for f in table.facts if f.entity == entity)


def two_statements_draft(
    table: FactTable,
    seed: int,
    kb: KnowledgeBase,
    syllabus: Syllabus,
    topic_id: str | None = None,
    near: bool = False,
) -> Draft | None:
    """Statement I / Statement II, each true or false; the four combinations take turns.
    `near`: a false statement swaps in a near miss of the true value."""
    asked, topic = _topic_facts(table, topic_id)
    rng = random.Random(digest(["two", table.relation_id, seed]))
    facts = _distinct_entity_facts(asked, 2, rng)
    if facts is None or statement(table, "x", "y") is None:
        return None
    truths = [(True, True), (False, False), (True, False), (False, True)][seed % 4]
    shown: list[str | None] = []
    notes: list[str] = []
    false_claims: list[tuple[str, str]] = []
    for label, fact, true in zip(("I", "II"), facts, truths, strict=True):
        value = fact.value if true else wrong_value(table, fact.entity, rng, set(), near or None)
        if value is None:
            return None
        if not true:
            false_claims.append((fact.entity, value))
        shown.append(statement(table, fact.entity, value))
        verdict = (
            "correct"
            if true
            else (f"incorrect: {fact.entity} goes with {_right_values(table, fact.entity)}")
        )
        notes.append(f"Statement {label} is {verdict}.\n\n{_evidence(kb, fact)}")
    stem = (
        "Given below are two statements:\n\n"
        f"**Statement I:** {shown[0]}\n\n**Statement II:** {shown[1]}\n\n"
        "In the light of the above statements, choose the correct answer from the options given "
        "below:"
    )
    correct = TWO_STATEMENT_OPTIONS[seed % 4]
    return _draft(
        table,
        syllabus,
        TWO_STATEMENTS_CLOSE if near else TWO_STATEMENTS,
        claims_demand(table, 2, false_claims),
        stem,
        _shuffled(TWO_STATEMENT_OPTIONS, rng),
        correct,
        "\n\n".join(notes),
        tuple(f.chunk_id for f in facts),
        f"seed={seed}",
        topic,
    )


def match_list_draft(
    table: FactTable,
    seed: int,
    kb: KnowledgeBase,
    syllabus: Syllabus,
    topic_id: str | None = None,
    near: bool = False,
) -> Draft | None:
    """Match List-I (entities) with List-II (values); options are codings like A-II, B-IV…
    `near`: the wrong codings swap two separate pairs of rows, alone and together
    (`square_codings`), so both pairs must be known and no option stands out; otherwise the
    wrong codings are random."""
    fmt = MATCH_LIST_CLOSE if near else MATCH_LIST
    asked, topic = _topic_facts(table, topic_id)
    rng = random.Random(digest(["match", table.relation_id, seed] + (["near"] if near else [])))
    facts = _distinct_entity_facts(asked, 4, rng)
    if facts is None or len({f.value for f in facts}) < 4:
        return None
    if any(table.is_fact(a.entity, b.value) for a in facts for b in facts if a is not b):
        return None  # a second valid matching would make two options right
    values = [f.value for f in facts]
    rng.shuffle(values)
    truth = [ROMAN[values.index(f.value)] for f in facts]

    codings = {match_code(truth)}
    if near:
        codings |= {match_code(w) for w in pair_swaps(truth, rng.choice(list(PAIR_SPLITS)))}
    while len(codings) < 4:
        wrong = truth[:]
        rng.shuffle(wrong)
        codings.add(match_code(wrong))
    wrong_codes = codings - {match_code(truth)}
    options = sorted(codings)
    rng.shuffle(options)
    rows = "\n".join(
        f"| {k}. | {f.entity} | {r}. | {v} |"
        for k, f, r, v in zip("ABCD", facts, ROMAN, values, strict=True)
    )
    stem = (
        "Match List-I with List-II:\n\n"
        f"| | List-I ({table.entity_label}) | | List-II ({table.value_label}) |\n"
        f"|---|---|---|---|\n{rows}\n\n"
        "Choose the correct answer from the options given below:"
    )
    explanation = "\n\n".join(
        f"**{k}. {f.entity}** — {r}. {f.value}\n\n{_evidence(kb, f)}"
        for k, f, r in zip("ABCD", facts, truth, strict=True)
    )
    return _draft(
        table,
        syllabus,
        fmt,
        coding_demand(match_code(truth), wrong_codes),
        stem,
        options,
        match_code(truth),
        explanation,
        tuple(f.chunk_id for f in facts),
        f"seed={seed}",
        topic,
    )


def how_many_draft(
    table: FactTable,
    seed: int,
    kb: KnowledgeBase,
    syllabus: Syllabus,
    topic_id: str | None = None,
    near: bool = False,
) -> Draft | None:
    """How many of four pairings are correct? The count takes turns by seed: one to four, or
    one to three when `near` (every false pairing a near miss of the true value, so there must
    be one); otherwise false values drawn at random, the label following what was drawn."""
    fmt = HOW_MANY_CLOSE if near else HOW_MANY
    asked, topic = _topic_facts(table, topic_id)
    rng = random.Random(digest(["count", table.relation_id, seed] + (["near"] if near else [])))
    facts = _distinct_entity_facts(asked, 4, rng, distinct_values=True)
    if facts is None:
        return None
    n_true = 1 + seed % (3 if near else 4)
    pairs, notes = [], []
    shown: set[str] = set()  # no value twice: a shared value tells about both pairs
    for i, fact in enumerate(facts):
        value = (
            fact.value
            if i < n_true
            else wrong_value(table, fact.entity, rng, shown, near=near or None)
        )
        if value is None:
            return None
        shown.add(value)
        pairs.append((fact, value, i < n_true))
    rng.shuffle(pairs)
    sep = table.pair_separator
    lines = "\n".join(
        f"- ({c}) {f.entity}{sep}{v}" for c, (f, v, _) in zip("abcd", pairs, strict=True)
    )
    for c, (f, v, true) in zip("abcd", pairs, strict=True):
        verdict = "correct" if true else f"incorrect: it goes with {_right_values(table, f.entity)}"
        notes.append(f"({c}) {f.entity}{sep}{v} is {verdict}.")
    stem = (
        f"How many of the following pairs ({table.entity_label}{sep}{table.value_label}) are "
        f"correctly matched?\n\n{lines}"
    )
    explanation = "\n\n".join(notes) + "\n\n" + "\n\n".join(_evidence(kb, f) for f, _, _ in pairs)
    return _draft(
        table,
        syllabus,
        fmt,
        claims_demand(table, 4, [(f.entity, v) for f, v, true in pairs if not true]),
        stem,
        _shuffled(COUNT_OPTIONS, rng),
        COUNT_OPTIONS[n_true - 1],
        explanation,
        tuple(f.chunk_id for f, _, _ in pairs),
        f"seed={seed}",
        topic,
    )


def multi_statement_draft(
    table: FactTable,
    seed: int,
    kb: KnowledgeBase,
    syllabus: Syllabus,
    topic_id: str | None = None,
    near: bool = False,
) -> Draft | None:
    """Four lettered statements, two or three of them true; the options code sets of them
    ("A, B and D only"). `near`: every false statement swaps in a near miss of the true value,
    and every wrong code differs from the right one by one statement; otherwise the false values
    are drawn at random (the label follows what was drawn) and the wrong codes any other sets."""
    fmt = MULTI_STATEMENT_CLOSE if near else MULTI_STATEMENT
    asked, topic = _topic_facts(table, topic_id)
    rng = random.Random(digest(["multi", table.relation_id, seed] + (["near"] if near else [])))
    facts = _distinct_entity_facts(asked, 4, rng, distinct_values=True)
    if facts is None or statement(table, "x", "y") is None:
        return None
    # Near: three true statements and the options the four three-letter codes, so no option
    # stands out by its length or by sharing letters with all the others.
    n_true = 3 if near else 2 + seed % 2
    claims, notes = [], []
    shown: set[str] = set()  # no value twice: a shared value tells about both claims
    for i, fact in enumerate(facts):
        true = i < n_true
        value = (
            fact.value if true else wrong_value(table, fact.entity, rng, shown, near=near or None)
        )
        if value is None:
            return None
        shown.add(value)
        claims.append((fact, value, true))
    rng.shuffle(claims)
    letters = "ABCD"
    key = [c for c, (_, _, true) in zip(letters, claims, strict=True) if true]
    all_sets = [[c for i, c in enumerate(letters) if mask >> i & 1] for mask in range(1, 16)]
    others = [x for x in all_sets if x != key and len(x) >= 2]
    if near:
        others = [x for x in others if len(x) == len(key)]
    if len(others) < 3:
        return None
    wrong = rng.sample(others, 3)
    one_off = same_size_codes(statement_code(key), [statement_code(x) for x in wrong])
    lines = "\n\n".join(
        f"{c}. {statement(table, f.entity, v)}"
        for c, (f, v, _) in zip(letters, claims, strict=True)
    )
    for c, (f, _, true) in zip(letters, claims, strict=True):
        verdict = (
            "correct"
            if true
            else f"incorrect: {f.entity} goes with {_right_values(table, f.entity)}"
        )
        notes.append(f"{c} is {verdict}.\n\n{_evidence(kb, f)}")
    stem = (
        f"{MULTI_STATEMENT_STEM}\n\n{lines}\n\n"
        "Choose the correct answer from the options given below:"
    )
    options = [statement_code(x) for x in [key, *wrong]]
    rng.shuffle(options)
    return _draft(
        table,
        syllabus,
        fmt,
        claims_demand(table, 4, [(f.entity, v) for f, v, true in claims if not true], one_off),
        stem,
        options,
        statement_code(key),
        "\n\n".join(notes),
        tuple(f.chunk_id for f, _, _ in claims),
        f"seed={seed}",
        topic,
    )


def _format_drafts(
    table: FactTable, fmt: FactFormat, kb: KnowledgeBase, syllabus: Syllabus, topic_id: str
) -> Iterator[Draft]:
    # A table of one topic drafts as it always has (the same seeds, so the same questions).
    only = None if table.topic_ids == [topic_id] else topic_id
    asked = table.facts if only is None else table.facts_of(topic_id)
    seeded = {
        ODD_PAIR.question_format: odd_pair_draft,
        TWO_STATEMENTS.question_format: two_statements_draft,
        MATCH_LIST.question_format: match_list_draft,
        HOW_MANY.question_format: how_many_draft,
        MULTI_STATEMENT.question_format: multi_statement_draft,
    }
    if fmt.question_format in seeded:
        # Near variants refuse more draws (every false value close, none shown twice): more seeds.
        for seed in range((3 if fmt.near else 2) * len(asked)):
            d = seeded[fmt.question_format](table, seed, kb, syllabus, only, fmt.near)
            if d is not None:
                yield d
        return
    order = sorted(asked, key=lambda f: digest([table.relation_id, f.entity, f.value]))
    for fact in order:
        d = single_correct_draft(table, fact, fmt, kb, syllabus)
        if d is not None:
            yield d


def fact_drafts(
    table: FactTable,
    difficulty: Difficulty,
    kb: KnowledgeBase,
    syllabus: Syllabus,
    topic_ids: Collection[str] | None = None,
) -> Iterator[Draft]:
    """Every draft this table offers at a difficulty, in a fixed order: its topics take turns
    (only `topic_ids` when given), and within a topic its formats. A question asks about facts
    of one topic only, so it is filed under that topic."""
    topics = live_topics_of(table.topic_ids, topic_ids, syllabus)
    streams = round_robin(
        round_robin(
            _format_drafts(table, f, kb, syllabus, topic) for f in FORMATS_BY_DIFFICULTY[difficulty]
        )
        for topic in topics
    )
    # A format offers drafts at a difficulty; what each draft measured decides its label.
    yield from (d for d in streams if d.content.difficulty is difficulty)
