"""A plotted graph: axes with names and units, and the data series drawn on them."""

from __future__ import annotations

from typing import Literal

from core.record import Record


class GraphSpec(Record):
    kind: Literal["graph"] = "graph"
