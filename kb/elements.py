"""Element data (periodic trends, configurations, 3d ions): a snapshot of the mendeleev package.

`scripts/build_element_data.py` writes `data/kb/elements.json`; this module only reads it, so the
pipeline never loads mendeleev (and its pandas/SQLAlchemy stack) at run time.
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path

from core.records import Record

ELEMENTS_FILE = Path("kb") / "elements.json"

Configuration = tuple[tuple[str, int], ...]  # (subshell, electrons), ordered by n then l


class Ion(Record):
    charge: int
    configuration: Configuration
    unpaired: int


class Element(Record):
    z: int
    symbol: str
    name: str
    group: int | None
    period: int
    block: str
    en_pauling: float | None
    atomic_radius_pm: float | None
    ie1_kj_mol: int | None
    configuration: Configuration
    oxidation_states: tuple[int, ...]
    ions: tuple[Ion, ...] = ()


class ElementData(Record):
    source: str
    notes: str
    elements: tuple[Element, ...]

    @cached_property
    def by_z(self) -> dict[int, Element]:
        return {e.z: e for e in self.elements}


def load_element_data(data_dir: Path) -> ElementData:
    """The bundled element snapshot."""
    path = data_dir / ELEMENTS_FILE
    return ElementData.model_validate(json.loads(path.read_text(encoding="utf-8")))
