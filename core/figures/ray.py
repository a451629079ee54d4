"""A ray diagram: a mirror, lens or prism with the distances and angles it is drawn with."""

from __future__ import annotations

from typing import Literal

from core.record import Record


class RaySpec(Record):
    kind: Literal["ray"] = "ray"
