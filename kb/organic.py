"""The organic compounds of NCERT Classes 11–12, as data: SMILES, IUPAC name, common name.

Written by hand in `data/kb/organic/molecules/*.json` (one file per compound class), each file
citing the NCERT chapter its compounds come from. `tests/test_organic_molecules.py` holds every
entry to RDKit (the SMILES parses) and OPSIN (the IUPAC name parses to the same structure).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import Field

from core.record import Record

MOLECULES_DIR = Path("kb") / "organic" / "molecules"
_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_PLAIN = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


def subscripted(formula: str) -> str:
    """A molecular formula as questions print it: C4H10O → C₄H₁₀O."""
    return formula.translate(_SUBSCRIPT)


def plain_formula(text: str) -> str:
    """Printed subscripts back to digits (C₄H₁₀O → C4H10O), as a solver reads a stem."""
    return text.translate(_PLAIN)


class Molecule(Record):
    molecule_id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    smiles: str = Field(min_length=1)
    iupac: str = Field(min_length=1)
    # The name NCERT uses where it is not the IUPAC one ("acetone"), else "".
    common: str = ""
    # The compound class, as NCERT groups them ("alkane", "alcohol", "ketone", …).
    family: str = Field(min_length=1)


class MoleculeFile(Record):
    # The NCERT chapter (class, number, title) the file's compounds come from.
    source: str = Field(min_length=1)
    molecules: tuple[Molecule, ...]


class MoleculeTableError(ValueError):
    """Two entries with one id: the table must name each compound once."""


@cache
def molecules(data_dir: Path) -> tuple[Molecule, ...]:
    """Every compound of the table under `data_dir`, in file then entry order."""
    found: dict[str, Molecule] = {}
    for path in sorted((data_dir / MOLECULES_DIR).glob("*.json")):
        table = MoleculeFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
        for m in table.molecules:
            if m.molecule_id in found:
                raise MoleculeTableError(f"{path.name}: molecule id {m.molecule_id!r} repeats")
            found[m.molecule_id] = m
    return tuple(found.values())


def molecules_by_id(data_dir: Path) -> dict[str, Molecule]:
    return {m.molecule_id: m for m in molecules(data_dir)}
