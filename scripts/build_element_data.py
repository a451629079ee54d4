"""Build data/kb/elements.json from the `mendeleev` element-data package.

The offline chemistry generators read this snapshot instead of importing mendeleev, which pulls in
pandas and SQLAlchemy and takes seconds to load. Run it after upgrading mendeleev:

    .venv/bin/python -m scripts.build_element_data

The output is deterministic; tests/test_elements.py checks that the committed file is exactly
what this script builds from the installed package.
"""

from __future__ import annotations

import json
import re
from importlib.metadata import version
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "data" / "kb" / "elements.json"
LAST_Z = 56  # through Ba: every s/p element NEET compares down a group, and the 3d series
EV_TO_KJ_PER_MOL = 96.485332
SUBSHELL = re.compile(r"(\d)([spdf])(\d+)")
L_ORDER = "spdf"
# The 3d ions NCERT tabulates (aqueous ions and common oxidation states), by atomic number.
IONS_3D = {21: (3,), 22: (2, 3, 4), 23: (2, 3), 24: (2, 3), 25: (2, 3), 26: (2, 3), 27: (2, 3)}
IONS_3D |= {28: (2,), 29: (1, 2), 30: (2,)}


def canonical_configuration(text: str) -> list[list[object]]:
    """Subshells as [label, electrons], ordered by n then l (the order NCERT writes them)."""
    shells = [(int(n), L_ORDER.index(ell), int(e)) for n, ell, e in SUBSHELL.findall(text)]
    return [[f"{n}{L_ORDER[ell]}", e] for n, ell, e in sorted(shells)]


def element_record(z: int) -> dict[str, object]:
    """One element's facts as plain JSON values."""
    from mendeleev import element

    e = element(z)
    ie1 = e.ionenergies.get(1)
    record: dict[str, object] = {
        "z": z,
        "symbol": e.symbol,
        "name": e.name,
        "group": e.group_id,
        "period": e.period,
        "block": e.block,
        "en_pauling": e.en_pauling,
        "atomic_radius_pm": e.atomic_radius,
        "ie1_kj_mol": round(ie1 * EV_TO_KJ_PER_MOL) if ie1 else None,
        "configuration": canonical_configuration(str(e.ec)),
        "oxidation_states": sorted(e.oxistates),
    }
    if z in IONS_3D:
        record["ions"] = [
            {
                "charge": k,
                "configuration": canonical_configuration(str(e.ec.ionize(k))),
                "unpaired": e.ec.ionize(k).unpaired_electrons(),
            }
            for k in IONS_3D[z]
        ]
    return record


def element_data() -> dict[str, object]:
    """The whole snapshot, with its source and licence."""
    return {
        "source": f"mendeleev {version('mendeleev')} (Python package, MIT licence)",
        "notes": "ie1_kj_mol: first ionisation energy converted from eV; atomic_radius_pm: "
        "empirical atomic radius (Slater); en_pauling: Pauling electronegativity.",
        "elements": [element_record(z) for z in range(1, LAST_Z + 1)],
    }


def main() -> None:
    OUT.write_text(json.dumps(element_data(), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
