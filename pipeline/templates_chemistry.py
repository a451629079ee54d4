"""More physical-Chemistry numerical templates, one group per syllabus unit."""

from __future__ import annotations

from pipeline.numerical import NumericalTemplate

CHEMISTRY_MORE: tuple[NumericalTemplate, ...] = ()
