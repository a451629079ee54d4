"""More Physics numerical templates, one group per syllabus unit."""

from __future__ import annotations

from pipeline.numerical import NumericalTemplate

PHYSICS_MORE: tuple[NumericalTemplate, ...] = ()
