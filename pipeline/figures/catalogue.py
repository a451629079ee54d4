"""Every figure template: circuits, graphs and ray diagrams in code, labelled diagrams from data."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pipeline.figures.circuit_templates import CIRCUIT_TEMPLATES
from pipeline.figures.diagram_templates import diagram_templates
from pipeline.figures.graph_templates import GRAPH_TEMPLATES
from pipeline.figures.ray_templates import RAY_TEMPLATES
from pipeline.figures.templates import FigureTemplate


@cache
def figure_templates(data_dir: Path) -> tuple[FigureTemplate, ...]:
    """All figure templates, the labelled diagrams read from `data_dir`/kb/diagrams."""
    return (*CIRCUIT_TEMPLATES, *GRAPH_TEMPLATES, *RAY_TEMPLATES, *diagram_templates(data_dir))
