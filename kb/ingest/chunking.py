"""Chunks follow the document's sections: a few hundred words, never across a section, math kept."""

from __future__ import annotations

import re

MAX_WORDS = 300
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")


def word_count(text: str) -> int:
    return len(text.split())


def _outside_math_splits(paragraph: str) -> list[str]:
    """Sentences of a paragraph, never splitting inside $…$ or $$…$$ math."""
    pieces, start, in_math = [], 0, False
    i = 0
    while i < len(paragraph):
        if paragraph[i] == "$":
            in_math = not in_math
            if paragraph.startswith("$$", i):
                i += 1
        elif not in_math:
            m = _SENTENCE_END.match(paragraph, i)
            if m and m.end() > i:
                pieces.append(paragraph[start:i].strip())
                start = m.end()
                i = m.end()
                continue
        i += 1
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
