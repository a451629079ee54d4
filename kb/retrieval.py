"""Lexical retrieval over theory-chunk sentences: the evidence the offline solver reads."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from core.records import Subject
from kb.knowledge import Chunk, KnowledgeBase

STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "by",
        "with",
        "from",
        "into",
        "onto",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "this",
        "that",
        "these",
        "those",
        "which",
        "what",
        "who",
        "whom",
        "whose",
        "following",
        "correct",
        "incorrect",
        "correctly",
        "incorrectly",
        "matched",
        "match",
        "pair",
        "pairs",
        "it",
        "its",
        "their",
        "there",
        "and",
        "or",
        "not",
        "no",
        "nor",
        "than",
        "then",
        "so",
        "such",
        "also",
        "only",
        "each",
        "any",
        "all",
        "both",
        "either",
        "neither",
        "one",
        "two",
        "three",
        "four",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "can",
        "could",
        "may",
        "might",
        "must",
        "shall",
        "should",
        "will",
        "would",
        "statement",
        "statements",
        "given",
        "option",
        "options",
        "true",
        "false",
        "called",
        "known",
        "termed",
        "following",
        "among",
        "under",
        "over",
        "between",
    ]
)
_TOKEN = re.compile(r"\w+", re.UNICODE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def normalise_token(token: str) -> str:
    """Lower-case, with a plain plural `s` dropped so `cells` meets `cell`."""
    t = token.lower()
    if len(t) > 3 and t.endswith("s") and not t.endswith("ss"):
        t = t[:-1]
    return t


def content_tokens(text: str) -> frozenset[str]:
    """The set of normalised content words in text (stop-words and markup dropped)."""
    words = (normalise_token(w) for w in _TOKEN.findall(text.replace("_", " ")))
    return frozenset(w for w in words if w not in STOPWORDS)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


@dataclass(frozen=True)
class Sentence:
    chunk_id: str
    text: str
    tokens: frozenset[str]


@dataclass
class SentenceIndex:
    """Every sentence of a set of chunks with its token set, and inverse document frequencies."""

    sentences: list[Sentence]
    idf: dict[str, float] = field(default_factory=dict)
    postings: dict[str, frozenset[int]] = field(default_factory=dict)

    @classmethod
    def build(cls, chunks: Iterable[Chunk]) -> SentenceIndex:
        items = [
            Sentence(c.chunk_id, s, content_tokens(s)) for c in chunks for s in sentences(c.text)
        ]
        df = Counter(t for s in items for t in s.tokens)
        n = max(1, len(items))
        idf = {t: math.log(1 + n / d) for t, d in df.items()}
        postings: dict[str, set[int]] = {}
        for i, s in enumerate(items):
            for t in s.tokens:
                postings.setdefault(t, set()).add(i)
        return cls(items, idf, {t: frozenset(ids) for t, ids in postings.items()})

    def weight(self, tokens: Iterable[str]) -> float:
        # Words never seen in the corpus carry the largest weight: they cannot be matched.
        top = math.log(1 + max(1, len(self.sentences)))
        return sum(self.idf.get(t, top) for t in tokens)

    def containing(self, required: frozenset[str]) -> list[Sentence]:
        """Sentences that hold every required token (an intersection of posting lists)."""
        if not required:
            return list(self.sentences)
        lists = sorted((self.postings.get(t, frozenset()) for t in required), key=len)
        ids = set(lists[0]).intersection(*lists[1:])
        return [self.sentences[i] for i in sorted(ids)]

    def sharing(self, tokens: frozenset[str]) -> list[Sentence]:
        """Sentences that hold at least one of the tokens."""
        ids: set[int] = set()
        for t in tokens:
            ids |= self.postings.get(t, frozenset())
        return [self.sentences[i] for i in sorted(ids)]


def subject_index(kb: KnowledgeBase, subject: Subject) -> SentenceIndex:
    """The sentence index of one subject's chunks, built once per knowledge base."""
    index = kb.derived.get(("sentences", subject))
    if not isinstance(index, SentenceIndex):
        index = SentenceIndex.build(kb.chunks_for(subject))
        kb.derived[("sentences", subject)] = index
    return index
