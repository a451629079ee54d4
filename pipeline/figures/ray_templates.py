"""Placeholder: the ray figure templates (being written)."""

from __future__ import annotations

from pipeline.figures.templates import FigureTemplate

RAY_TEMPLATES: tuple[FigureTemplate, ...] = ()
