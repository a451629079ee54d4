"""Placeholder: the graph figures' renderer and templates (being written)."""

from __future__ import annotations

from core.figures import GraphSpec


def graph_svg(spec: GraphSpec) -> str:
    raise NotImplementedError
