"""The base of every record: frozen, with no unknown fields."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """Base for every record: frozen, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")
