"""What a parsed document looks like before it is chunked, tagged and embedded."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


class IngestError(Exception):
    """A document that cannot be ingested; the message is the one-line reason for the report."""


@dataclass(frozen=True)
class ImageBlob:
    data: bytes
    name: str


@dataclass(frozen=True)
class FigureSource:
    """One figure: one or more images under a single caption."""

    images: tuple[ImageBlob, ...]
    caption: str = ""
    alt: str = ""
    section: str = ""


@dataclass(frozen=True)
class Section:
    """A titled run of text that chunks never cross; `where` is its page or section path."""

    title: str
    text: str
    where: str
    page: int | None = None


@dataclass
class ParsedDocument:
    format: str
    title: str
    meta: dict[str, str] = field(default_factory=dict)
    sections: list[Section] = field(default_factory=list)
    figures: list[FigureSource] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


# Reads a file referenced by a document (an image next to it), or raises IngestError.
AssetReader = Callable[[str], bytes]
