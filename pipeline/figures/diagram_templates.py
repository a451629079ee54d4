"""Placeholder: the labelled-diagram figure templates (being written)."""

from __future__ import annotations

from pathlib import Path

from pipeline.figures.templates import FigureTemplate


def diagram_templates(data_dir: Path) -> tuple[FigureTemplate, ...]:
    return ()
