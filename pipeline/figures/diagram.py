"""Placeholder: the diagram figures' renderer and templates (being written)."""

from __future__ import annotations

from core.figures import DiagramSpec


def diagram_svg(spec: DiagramSpec) -> str:
    raise NotImplementedError
