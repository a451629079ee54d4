"""A DC circuit: its components, their values and how they connect."""

from __future__ import annotations

from typing import Literal

from core.record import Record


class CircuitSpec(Record):
    kind: Literal["circuit"] = "circuit"
