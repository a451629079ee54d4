"""Placeholder: the ray figures' renderer and templates (being written)."""

from __future__ import annotations

from core.figures import RaySpec


def ray_svg(spec: RaySpec) -> str:
    raise NotImplementedError
