"""Placeholder: the graph figure templates (being written)."""

from __future__ import annotations

from pipeline.figures.templates import FigureTemplate

GRAPH_TEMPLATES: tuple[FigureTemplate, ...] = ()
