"""A labelled biology diagram: which part each letter points at."""

from __future__ import annotations

from typing import Literal

from core.record import Record


class DiagramSpec(Record):
    kind: Literal["diagram"] = "diagram"
