"""Interleaving draft streams."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from typing import TypeVar

from kb.syllabus import Syllabus

T = TypeVar("T")


def round_robin(sources: Iterable[Iterator[T]]) -> Iterator[T]:
    """One item from each source in turn, dropping a source when it runs dry."""
    live = list(sources)
    while live:
        for source in list(live):
            item = next(source, None)
            if item is None:
                live.remove(source)
            else:
                yield item


def live_topics_of(
    table_topics: list[str], wanted: Collection[str] | None, syllabus: Syllabus
) -> list[str]:
    """The topics a fact or cause table drafts for: those of its topics that are `wanted`
    (all without it) and not deleted from the syllabus, in the table's order."""
    return [
        t for t in table_topics if (wanted is None or t in wanted) and not syllabus.topic(t).deleted
    ]
