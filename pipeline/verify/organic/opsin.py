"""IUPAC names read by OPSIN (through py2opsin, which runs OPSIN's Java jar), remembered.

The solver reads an option's name as a chemist would: OPSIN parses it to a structure, compared
to others by RDKit's canonical SMILES. Each run of OPSIN starts a Java VM (about half a second),
so names are read in batches (the first with every name of the compound table) and every answer
is kept for the life of the process.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import warnings
from collections.abc import Iterable
from pathlib import Path

from rdkit import Chem

from core.settings import REPO_ROOT
from kb.organic import molecules

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
        if unread and not _READ:
            # The first Java run also reads every name of the compound table (about 2 s for
            # all), so later questions, whose options are mostly the table's names, need none.
            unread = list(dict.fromkeys([*unread, *table_names()]))
        if unread:
            if not java_available():
                raise OpsinUnavailableError(
                    "OPSIN needs a Java runtime (Debian: apt-get install default-jre-headless)"
                )
            for name, smiles in zip(unread, _opsin(unread), strict=True):
                _READ[name] = canonical(smiles) if smiles else None
        return {n: _READ[n] for n in wanted}


def table_names() -> list[str]:
    """The IUPAC and common names of the bundled compound table: names only, no structures."""
    table = molecules(REPO_ROOT / "data")
    return [n for m in table for n in (m.iupac, m.common) if n]


def _opsin(names: list[str]) -> list[str]:
    """OPSIN's SMILES for each name ("" where it cannot parse one), in one Java run.

    py2opsin writes its input to a file named in the working directory by default; each call
    gets its own directory, so parallel processes never share (or delete) each other's file."""
    from py2opsin import py2opsin

    lines = [" ".join(n.split()) for n in names]  # one name a line, whatever it contains
    with tempfile.TemporaryDirectory(prefix="qforge-opsin-") as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an unparsable name is an answer, not a fault
        read = py2opsin(lines, tmp_fpath=str(Path(tmp) / "names.txt"))
    if not isinstance(read, list) or len(read) != len(lines):  # False: OPSIN itself failed
        raise OpsinUnavailableError(f"OPSIN gave no answer for {len(lines)} names")
    return [str(r) for r in read]
