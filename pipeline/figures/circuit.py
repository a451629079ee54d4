"""Placeholder: the circuit figures' renderer and templates (being written)."""

from __future__ import annotations

from core.figures import CircuitSpec


def circuit_svg(spec: CircuitSpec) -> str:
    raise NotImplementedError
