"""Structural formulae: one or more molecules, each drawn from its SMILES and labelled.

A structure figure shows what a chemistry question asks about: the compound to name, the
compounds to order, the starting material of a conversion. The SMILES is exactly what a student
reads off the drawing (atoms, bonds, wedges), so the solver reads the SMILES as a student reads
the picture. Labels ("I", "II", … or "A", "B", …) are printed under their structures.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.record import Record

MAX_PANELS = 6


class StructurePanel(Record):
    """One drawn molecule and the label printed under it ("" for a figure of one molecule)."""

    smiles: str = Field(min_length=1)
    label: str = ""


class StructureSpec(Record):
    kind: Literal["structure"] = "structure"
    panels: tuple[StructurePanel, ...] = Field(min_length=1, max_length=MAX_PANELS)

    @classmethod
    def of(cls, smiles: str) -> StructureSpec:
        """A figure of one unlabelled structure."""
        return cls(panels=(StructurePanel(smiles=smiles),))

    def smiles_labelled(self, label: str) -> str | None:
        """The SMILES of the structure printed with this label, or None."""
        return next((p.smiles for p in self.panels if p.label == label), None)
