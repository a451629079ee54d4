"""Placeholder: the circuit figure templates (being written)."""

from __future__ import annotations

from pipeline.figures.templates import FigureTemplate

CIRCUIT_TEMPLATES: tuple[FigureTemplate, ...] = ()
