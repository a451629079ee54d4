"""Graph figure templates (Physics and Chemistry): a plotted graph, and a question read off it.

The templates live in one module per subject area (the kit they share in `graph_kit`); this is
the kind's tuple the drafter and the tests use.
"""

from __future__ import annotations

from pipeline.figures.graph_chemistry import CHEMISTRY
from pipeline.figures.graph_chemistry_physical import CHEMISTRY_PHYSICAL
from pipeline.figures.graph_physics import PHYSICS
from pipeline.figures.graph_physics_modern import MODERN
from pipeline.figures.templates import FigureTemplate

GRAPH_TEMPLATES: tuple[FigureTemplate, ...] = (
    *PHYSICS,
    *MODERN,
    *CHEMISTRY,
    *CHEMISTRY_PHYSICAL,
)
