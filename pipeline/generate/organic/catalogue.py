"""Every organic-chemistry template: naming, bonds, isomers, orderings and reactions."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pipeline.generate.organic.bonds import bonds_templates
from pipeline.generate.organic.isomers import isomers_templates
from pipeline.generate.organic.naming import naming_templates
from pipeline.generate.organic.ordering import ordering_templates
from pipeline.generate.organic.reactions import reactions_templates
from pipeline.generate.organic.template import OrganicTemplate


@cache
def organic_templates(data_dir: Path) -> tuple[OrganicTemplate, ...]:
    """All organic templates over the compound table and rule data under `data_dir`."""
    return (
        *naming_templates(data_dir),
        *bonds_templates(data_dir),
        *isomers_templates(data_dir),
        *ordering_templates(data_dir),
        *reactions_templates(data_dir),
    )


# Draws a template is probed with before it counts as one that shows structures.
PROBED_SEEDS = 6


@cache
def structure_templates(templates: tuple[OrganicTemplate, ...]) -> tuple[OrganicTemplate, ...]:
    """The templates whose every probed draw shows structures: what the figure floor keeps in
    supply for the blueprint's structures_per_subject (a draw costs no drawing, only the
    question)."""

    def always(t: OrganicTemplate) -> bool:
        drawn = [q for q in (t.draw(seed) for seed in range(PROBED_SEEDS)) if q is not None]
        return bool(drawn) and all(q.structures is not None for q in drawn)

    return tuple(t for t in templates if always(t))
