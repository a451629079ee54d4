"""Chunks follow the document's sections: a few hundred words, never across a section, math kept."""

from __future__ import annotations

import bisect
import re

MAX_WORDS = 300
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")
_MATH_TOGGLE = re.compile(r"\$\$|\$")


def word_count(text: str) -> int:
    return len(text.split())


def _outside_math_splits(paragraph: str) -> list[str]:
    """Sentences of a paragraph, never splitting inside $…$ or $$…$$ math."""
    # Each `$$` or lone `$` opens or closes math; a sentence end is inside math when an odd
    # number of them come before it (a sentence end holds no `$`, so it never straddles one).
    toggles = [m.start() for m in _MATH_TOGGLE.finditer(paragraph)]
    pieces, start = [], 0
    for m in _SENTENCE_END.finditer(paragraph):
        if bisect.bisect_left(toggles, m.start()) % 2 == 0:
            pieces.append(paragraph[start : m.start()].strip())
            start = m.end()
    pieces.append(paragraph[start:].strip())
    return [p for p in pieces if p]


def _units(text: str, max_words: int) -> list[str]:
    """Paragraphs, with any paragraph longer than max_words broken at sentence ends."""
    units = []
    for para in re.split(r"\n\s*\n", text):
        para = para.strip()
        if not para:
            continue
        if word_count(para) <= max_words:
            units.append(para)
        else:
            units.extend(_outside_math_splits(para))
    return units


def section_chunks(text: str, max_words: int = MAX_WORDS) -> list[str]:
    """The chunks of one section's text: whole paragraphs packed up to max_words each."""
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for unit in _units(text, max_words):
        n = word_count(unit)
        if current and size + n > max_words:
            chunks.append("\n\n".join(current))
            current, size = [], 0
        current.append(unit)
        size += n
    if current:
        chunks.append("\n\n".join(current))
    return chunks
