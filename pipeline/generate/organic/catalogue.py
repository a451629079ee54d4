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
