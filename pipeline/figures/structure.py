"""Structural formulae drawn by RDKit (rdMolDraw2D), one panel per molecule, labels as text.

Each molecule is drawn at one fixed panel size and font, in black (no element colours: a printed
paper is black and white), with 2D coordinates RDKit computes the same way every time, so a spec
always draws the same bytes. The panels are set side by side (two rows past three) in one SVG of
ours; their labels are our own <text>, so a screen reader and the figure checks can read them.
"""

from __future__ import annotations

import re
from typing import Any
from xml.sax.saxutils import escape

from rdkit import Chem
from rdkit.Chem import rdDepictor
from rdkit.Chem.Draw import rdMolDraw2D

from core.figures.structure import StructureSpec

PANEL_WIDTH = 240
PANEL_HEIGHT = 170
LABEL_HEIGHT = 26
PER_ROW = 3
FONT_SIZE = 15
FONT = "DejaVu Sans, Arial, sans-serif"
# RDKit's own header (an XML declaration, its namespace, a comment) is dropped: only the drawing's
# elements go into our SVG.
_BODY = re.compile(r"<!-- END OF HEADER -->\s*(.*)</svg>\s*$", re.S)


class StructureError(ValueError):
    """A SMILES RDKit cannot read: no picture can be drawn from it."""


def molecule(smiles: str) -> Chem.Mol:
    """The molecule a SMILES names, or StructureError."""
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        raise StructureError(f"RDKit cannot read the SMILES {smiles!r}")
    return mol


def _charged_carbon(atom: Chem.Atom) -> str:
    """A carbocation, carbanion or radical carbon written as NCERT prints it, hydrogens and all
    (CH₂⁺, CH⁻, CH with its dot): RDKit alone draws a bare C⁺."""
    h = atom.GetTotalNumHs()
    hydrogens = "" if h == 0 else "H" if h == 1 else f"H<sub>{h}</sub>"
    charge = {1: "+", -1: "-"}.get(atom.GetFormalCharge(), "")
    return f"C{hydrogens}" + (f"<sup>{charge}</sup>" if charge else "")


def _radical_dot(drawer: rdMolDraw2D.MolDraw2DSVG, atom: Chem.Atom) -> str:
    """A radical's unpaired electron as a dot over its carbon's label: RDKit's own dot is a
    speck, and its font has no bullet to write one into the label."""
    at = drawer.GetDrawCoords(atom.GetIdx())
    return f'<circle cx="{at.x + 7:.1f}" cy="{at.y - 11:.1f}" r="2.6" fill="#000000"/>'


def _panel_body(smiles: str) -> str:
    # Drawn from the canonical SMILES: one molecule, one drawing, however its SMILES is written.
    mol = molecule(Chem.MolToSmiles(molecule(smiles)))
    marked = [
        a
        for a in mol.GetAtoms()
        if a.GetSymbol() == "C" and (a.GetFormalCharge() or a.GetNumRadicalElectrons())
    ]
    radicals = [a.GetIdx() for a in marked if a.GetNumRadicalElectrons()]
    for atom in marked:
        atom.SetProp("atomLabel", _charged_carbon(atom))
        atom.SetNumRadicalElectrons(0)  # drawn by _radical_dot (the H count is kept)
    rdDepictor.SetPreferCoordGen(True)
    rdDepictor.Compute2DCoords(mol)
    drawer = rdMolDraw2D.MolDraw2DSVG(PANEL_WIDTH, PANEL_HEIGHT)
    options: Any = drawer.drawOptions()  # RDKit's stubs type its settable fields wrongly
    options.useBWAtomPalette()
    options.fixedFontSize = FONT_SIZE
    options.bondLineWidth = 2
    options.clearBackground = False
    options.addStereoAnnotation = False
    rdMolDraw2D.PrepareAndDrawMolecule(drawer, mol)
    dots = [_radical_dot(drawer, mol.GetAtomWithIdx(i)) for i in radicals]
    drawer.FinishDrawing()
    m = _BODY.search(drawer.GetDrawingText())
    if m is None:  # pragma: no cover - RDKit always writes its header comment
        raise StructureError("RDKit's SVG had no header to strip")
    return "\n".join([m.group(1).strip(), *dots])


def structure_svg(spec: StructureSpec) -> str:
    """The SVG of the spec's structures, labelled, in rows of at most three."""
    n = len(spec.panels)
    per_row = n if n <= PER_ROW else (n + 1) // 2
    rows = (n + per_row - 1) // per_row
    labelled = any(p.label for p in spec.panels)
    cell_h = PANEL_HEIGHT + (LABEL_HEIGHT if labelled else 0)
    width, height = per_row * PANEL_WIDTH, rows * cell_h
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for i, panel in enumerate(spec.panels):
        x, y = (i % per_row) * PANEL_WIDTH, (i // per_row) * cell_h
        parts.append(f'<g transform="translate({x},{y})">{_panel_body(panel.smiles)}</g>')
        if panel.label:
            parts.append(
                f'<text x="{x + PANEL_WIDTH // 2}" y="{y + PANEL_HEIGHT + LABEL_HEIGHT - 8}" '
                f'text-anchor="middle" font-family="{FONT}" font-size="{FONT_SIZE + 1}">'
                f"({escape(panel.label)})</text>"
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
