"""IUPAC names read by OPSIN (through py2opsin, which runs OPSIN's Java jar), remembered.

The solver reads an option's name as a chemist would: OPSIN parses it to a structure, compared
to others by RDKit's canonical SMILES. Each run of OPSIN starts a Java VM (about half a second),
so names are read in batches and every answer is kept for the life of the process.
"""

from __future__ import annotations

import shutil
import threading
import warnings
from collections.abc import Iterable

from rdkit import Chem

_READ: dict[str, str | None] = {}
_LOCK = threading.Lock()


class OpsinUnavailableError(RuntimeError):
    """No Java runtime: OPSIN cannot run (Debian: apt-get install default-jre-headless)."""


def java_available() -> bool:
    return shutil.which("java") is not None


def canonical(smiles: str) -> str | None:
    """RDKit's canonical SMILES (stereo kept), or None when RDKit cannot read it."""
    mol = Chem.MolFromSmiles(smiles) if smiles else None
    return Chem.MolToSmiles(mol) if mol is not None else None


def smiles_of_names(names: Iterable[str]) -> dict[str, str | None]:
    """Each name's structure as a canonical SMILES, None where OPSIN cannot parse the name."""
    wanted = list(dict.fromkeys(names))
    with _LOCK:
        unread = [n for n in wanted if n not in _READ]
        if unread:
            if not java_available():
                raise OpsinUnavailableError(
                    "OPSIN needs a Java runtime (Debian: apt-get install default-jre-headless)"
                )
            from py2opsin import py2opsin

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # an unparsable name is an answer, not a fault
                read = py2opsin(unread) if len(unread) > 1 else [py2opsin(unread[0])]
            for name, smiles in zip(unread, read, strict=True):
                _READ[name] = canonical(smiles) if isinstance(smiles, str) else None
        return {n: _READ[n] for n in wanted}
