"""The solver's own path for ordering questions ("Arrange the following in …"): it reads the
order from the theory chunks, never from the sequence data the generator drafts from.

It parses the lettered items and the asked order out of the stem, finds the chunks of the
question's subject that mention every item (an item is mentioned where its content tokens stand
together in one sentence, normalised as `kb.retrieval` normalises them, with ionic charges kept:
`Na⁺` is not `Na`), prefers the chunks of the question's topic, and reads each chunk's order:

- text order: the items in the order the chunk first mentions them. When the question asks for
  a direction ("increasing order of wavelength", "from the outermost to the innermost"), the
  sentences that list the items must say which way the list runs ("in increasing order of
  wavelength, …"); the opposite direction reverses the list, and no direction leaves it unread;
- stated values: for "increasing/decreasing order of <property>", a number the chunk gives right
  after each item in a sentence naming the property ("The work function of caesium is 2.14 eV")
  orders the items by value; for a "chronological order", the years given after the items do.

Of the chunks that give an order, one that states it outright speaks before one whose numbers
imply it, and a list in one sentence before a list spread over a paragraph. It abstains (choice
None, with a note) when no chunk mentions every item, when one item is part of another ("atrium"
in "right atrium"), when the chunks that speak disagree, or when not exactly one option is the
order read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from core.records import OptionKey, SolverAnswer, SolverView, Subject
from kb.knowledge import Chunk, KnowledgeBase
from kb.retrieval import STOPWORDS, normalise_token, sentences
from pipeline.verify.element_solver import SOLVER_NAME

# Words, with the charge signs of ions kept on them (`Na⁺`, `O₂²⁻`).
_WORD = re.compile(r"[\w⁺⁻]+")
_ASKS = re.compile(r"^Arrange the following in (?P<asks>.+?):\s*$", re.MULTILINE)
_ITEM = re.compile(r"^(?P<letter>[A-E])\.\s+(?P<text>.+?)\s*$", re.MULTILINE)
_ORDER_OF = re.compile(
    r"\b(?P<dir>increasing|decreasing|ascending|descending) order of (?P<prop>[^(),;:.]+)",
    re.IGNORECASE,
)
# "from the outermost to the innermost", "from the lowest to the highest": two extremes.
_FROM_TO = re.compile(
    r"\bfrom the (?P<a>\w+(?:est|most)) to the (?P<b>\w+(?:est|most))\b", re.IGNORECASE
)
_CHRONOLOGICAL = re.compile(r"\bchronological order\b", re.IGNORECASE)
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
# A stated value: 1,400 · 2.5 · −0.76 · 1.7 × 10⁻⁸ · 10¹⁰ (a power of ten alone).
_NUMBER = re.compile(
    r"(?P<power>(?<![\w.])10(?P<alone>⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))"
    r"|(?P<sign>[−-])?(?P<mant>[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?)"
    r"(?:\s*[×x]\s*10(?P<exp>⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))?"
)
FIRST_YEAR, LAST_YEAR = 1500, 2100

Direction = Literal[1, -1]
Tokens = tuple[str, ...]


def _abstain(note: str) -> SolverAnswer:
    return SolverAnswer(solver=SOLVER_NAME, choice=None, confidence=0.0, note=note)


@dataclass(frozen=True)
class Word:
    token: str
    start: int  # character offsets in its sentence
    end: int


def words(text: str) -> tuple[Word, ...]:
    """The content words of a text in order, normalised as retrieval normalises them."""
    out = []
    for m in _WORD.finditer(text.replace("_", " ")):
        token = normalise_token(m.group())
        if token not in STOPWORDS:
            out.append(Word(token, m.start(), m.end()))
    return tuple(out)


def tokens(text: str) -> Tokens:
    return tuple(w.token for w in words(text))


def mentions(ws: tuple[Word, ...] | Tokens, item: Tokens) -> list[int]:
    """Where in a run of words the item's words stand together, in order."""
    seq = [w.token if isinstance(w, Word) else w for w in ws]
    n = len(item)
    return [j for j in range(len(seq) - n + 1) if tuple(seq[j : j + n]) == item]


@dataclass(frozen=True)
class ChunkText:
    """A chunk's sentences, each with its content words in order."""

    chunk_id: str
    topic_id: str | None
    sentences: tuple[str, ...]
    words: tuple[tuple[Word, ...], ...]

    @classmethod
    def of(cls, chunk: Chunk) -> ChunkText:
        said = tuple(sentences(chunk.text))
        return cls(chunk.chunk_id, chunk.topic_id, said, tuple(words(s) for s in said))

    def first_mention(self, item: Tokens) -> tuple[int, int] | None:
        """(sentence, word) where the chunk first states the item."""
        for i, ws in enumerate(self.words):
            found = mentions(ws, item)
            if found:
                return i, found[0]
        return None


@dataclass(frozen=True)
class Asked:
    """The order a stem asks for: a direction, and what it is the direction of."""

    direction: Direction | None = None
    prop: Tokens = ()  # "increasing order of <prop>"
    ends: tuple[str, str] | None = None  # "from the <a> to the <b>"
    chronological: bool = False


def asked(asks: str) -> Asked:
    m = _ORDER_OF.search(asks)
    if m:
        up = m.group("dir").lower() in ("increasing", "ascending")
        return Asked(1 if up else -1, prop=tokens(m.group("prop")))
    f = _FROM_TO.search(asks)
    if f:
        return Asked(1, ends=(f.group("a").lower(), f.group("b").lower()))
    return Asked(chronological=bool(_CHRONOLOGICAL.search(asks)))


def _stated_directions(sentence: str, want: Asked) -> set[Direction]:
    """Which way a sentence says its list runs, against the asked order (1 same, -1 opposite)."""
    found: set[Direction] = set()
    if want.prop and want.direction is not None:
        for m in _ORDER_OF.finditer(sentence):
            if tokens(m.group("prop")) == want.prop:
                up = m.group("dir").lower() in ("increasing", "ascending")
                found.add(1 if (1 if up else -1) == want.direction else -1)
    if want.ends:
        for f in _FROM_TO.finditer(sentence):
            pair = (f.group("a").lower(), f.group("b").lower())
            if pair == want.ends:
                found.add(1)
            elif pair == want.ends[::-1]:
                found.add(-1)
    return found


def _value(m: re.Match[str]) -> float:
    if m.group("power"):
        return float(10 ** int(m.group("alone").translate(_SUPERSCRIPT)))
    value = float(m.group("mant").replace(",", ""))
    if m.group("exp"):
        value *= 10 ** int(m.group("exp").translate(_SUPERSCRIPT))
    return -value if m.group("sign") else value


@dataclass(frozen=True)
class Reading:
    """A chunk's order of the items (indices into the items as lettered), or why it has none."""

    chunk_id: str
    topic_id: str | None
    order: tuple[int, ...] | None
    span: int  # sentences from the first item's first mention to the last's
    by_values: bool  # read from numbers the chunk gives, not from an order it states
    how: str

    @property
    def rank(self) -> tuple[bool, int]:
        return self.by_values, self.span


def stated_value(text: ChunkText, items: list[Tokens], i: int, prop: Tokens) -> float | None:
    """The number the chunk first gives for item i: right after a mention of it and before any
    other item is mentioned, in a sentence holding the property's words."""
    for sentence, ws in zip(text.sentences, text.words, strict=True):
        if not set(prop) <= {w.token for w in ws}:
            continue
        others = sorted(j for k, item in enumerate(items) if k != i for j in mentions(ws, item))
        for j in mentions(ws, items[i]):
            end = ws[j + len(items[i]) - 1].end
            later = [k for k in others if k > j]
            stop = ws[later[0]].start if later else len(sentence)
            number = _NUMBER.search(sentence, end, stop)
            if number is not None:
                return _value(number)
    return None


def _by_values(text: ChunkText, items: list[Tokens], want: Asked) -> Reading | None:
    """The items ordered by the numbers the chunk gives for them; None when it lacks one."""
    values = [stated_value(text, items, i, want.prop) for i in range(len(items))]
    known = [v for v in values if v is not None]
    if len(known) != len(items):
        return None
    if want.chronological and not all(FIRST_YEAR <= v <= LAST_YEAR for v in known):
        return None
    shown = "stated values " + ", ".join(f"{v:g}" for v in known)
    if len(set(known)) != len(known):
        return Reading(text.chunk_id, text.topic_id, None, 0, True, shown + ": a tie")
    direction = want.direction or 1
    order = tuple(sorted(range(len(items)), key=lambda i: known[i] * direction))
    return Reading(text.chunk_id, text.topic_id, order, 0, True, shown)


def read_order(text: ChunkText, items: list[Tokens], want: Asked) -> Reading | None:
    """The chunk's order of the items; None when it does not mention every item."""
    firsts = [text.first_mention(item) for item in items]
    found = [f for f in firsts if f is not None]
    if len(found) != len(items):
        return None
    first, last = min(s for s, _ in found), max(s for s, _ in found)
    span = last - first
    order = tuple(sorted(range(len(items)), key=lambda i: found[i]))

    def reading(order: tuple[int, ...] | None, how: str) -> Reading:
        return Reading(text.chunk_id, text.topic_id, order, span, False, how)

    if want.chronological:
        years = _by_values(text, items, want)
        return years or reading(order, "text order")
    if want.direction is None:
        return reading(order, "text order")
    stated: set[Direction] = set()
    for sentence in text.sentences[first : last + 1]:
        stated |= _stated_directions(sentence, want)
    if stated == {1}:
        return reading(order, "text order, direction stated")
    if stated == {-1}:
        return reading(order[::-1], "text order, opposite direction stated")
    if stated:
        return reading(None, "both directions stated")
    if want.prop:
        values = _by_values(text, items, want)
        if values is not None:
            return values
    return reading(None, "no stated direction or values")


@dataclass(frozen=True)
class OrderingStem:
    asks: str
    letters: tuple[str, ...]
    items: tuple[str, ...]


def parse_stem(stem: str) -> OrderingStem | None:
    """The asked order and the lettered items (A., B., … on lines of their own)."""
    m = _ASKS.search(stem)
    lettered = _ITEM.findall(stem)
    if not m or not lettered:
        return None
    letters = tuple(letter for letter, _ in lettered)
    if letters != tuple("ABCDE"[: len(letters)]):
        return None
    return OrderingStem(m.group("asks").strip(), letters, tuple(t for _, t in lettered))


def parse_option(text: str) -> tuple[str, ...]:
    """An option's ordering: "B, A, D, C" → ("B", "A", "D", "C")."""
    return tuple(part.strip() for part in text.split(","))


class SequenceSolver:
    """Answers ordering questions from the chunks of the knowledge base."""

    name = SOLVER_NAME

    def __init__(self, kb: KnowledgeBase) -> None:
        self._texts: dict[Subject, list[ChunkText]] = {}
        for chunk in kb.chunks.values():
            self._texts.setdefault(chunk.subject, []).append(ChunkText.of(chunk))

    def readings(self, view: SolverView, stem: OrderingStem) -> list[Reading]:
        """Every chunk of the view's subject that mentions all the items, with its order."""
        items = [tokens(t) for t in stem.items]
        want = asked(stem.asks)
        found = (read_order(text, items, want) for text in self._texts.get(view.subject, []))
        return [r for r in found if r is not None]

    def answer(self, view: SolverView) -> SolverAnswer:
        stem = parse_stem(view.stem_markdown)
        if stem is None:
            return _abstain("cannot read the lettered items")
        items = [tokens(t) for t in stem.items]
        if not all(items):
            return _abstain("an item has no content words")
        for i, a in enumerate(items):
            for j, b in enumerate(items):
                if i != j and mentions(b, a):
                    return _abstain(f"item {stem.letters[i]} is part of item {stem.letters[j]}")
        readings = self.readings(view, stem)
        if not readings:
            return _abstain("no chunk mentions every item")
        usable = [r for r in readings if r.order is not None]
        if not usable:
            return _abstain("; ".join(f"{r.chunk_id}: {r.how}" for r in readings[:3]))
        pool = [r for r in usable if r.topic_id == view.topic_id] or usable
        best = [r for r in pool if r.rank == min(r.rank for r in pool)]
        orders = {r.order for r in best}
        if len(orders) != 1:
            return _abstain("chunks disagree: " + "; ".join(f"{r.chunk_id}: {r.how}" for r in best))
        (order,) = orders
        assert order is not None
        wanted = tuple(stem.letters[i] for i in order)
        matches: list[OptionKey] = [o.key for o in view.options if parse_option(o.text) == wanted]
        if len(matches) != 1:
            return _abstain(f"{len(matches)} options read {', '.join(wanted)}")
        note = "; ".join(sorted({f"{r.chunk_id}: {r.how}" for r in best}))
        return SolverAnswer(solver=SOLVER_NAME, choice=matches[0], confidence=1.0, note=note)
