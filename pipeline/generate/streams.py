"""Interleaving draft streams."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

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
