"""The organic compound table (data/kb/organic/molecules/*.json) against RDKit and OPSIN.

Every SMILES was written by hand from the structure; OPSIN reads every IUPAC name on its own.
The two writings must give one canonical SMILES: where they differ, one of them is wrong. A common
name OPSIN reads must name the same compound too (a common name names a compound, not one of its
tautomers, so there a tautomer of the same compound is accepted); one OPSIN cannot read is fine.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rdkit import Chem
from rdkit.Chem.MolStandardize import rdMolStandardize

import kb.organic
from core.settings import REPO_ROOT
from kb.organic import Molecule, MoleculeTableError
from pipeline.verify.organic.opsin import canonical, smiles_of_names
from tests.debian import ensure_java

DATA_DIR = REPO_ROOT / "data"

# The compound classes, as NCERT groups them (a compound's class is its principal group).
FAMILIES = frozenset(
    {
        # Ammonia: the reference base every amine basicity order is measured against.
        "inorganic",
        "alkane",
        "cycloalkane",
        "alkene",
        "alkyne",
        "arene",
        "haloalkane",
        "haloarene",
        "alcohol",
        "phenol",
        "ether",
        "aldehyde",
        "ketone",
        "carbonyl-derivative",
        "carboxylic-acid",
        "ester",
        "amide",
        "acid-chloride",
        "anhydride",
        "nitrile",
        "isocyanide",
        "amine",
        "nitro",
        "diazonium",
        "azo",
        "amino-acid",
        "carbohydrate",
        "nucleobase",
        "heterocycle",
        "sulfonic-acid",
        "sulfonamide",
        "sulfonyl-chloride",
        # Reagents and salts NCERT's reactions use (Williamson, Grignard, Kolbe, decarboxylation).
        "alkoxide",
        "phenoxide",
        "carboxylate",
        "organometallic",
    }
)

# The NCERT Classes 11–12 chapters the table's files may cite.
SOURCES = frozenset(
    {
        "NCERT Chemistry Class 11, Unit 8: Organic Chemistry – Some Basic Principles and"
        " Techniques",
        "NCERT Chemistry Class 11, Unit 9: Hydrocarbons",
        "NCERT Chemistry Class 12, Unit 6: Haloalkanes and Haloarenes",
        "NCERT Chemistry Class 12, Unit 7: Alcohols, Phenols and Ethers",
        "NCERT Chemistry Class 12, Unit 8: Aldehydes, Ketones and Carboxylic Acids",
        "NCERT Chemistry Class 12, Unit 9: Amines",
        "NCERT Chemistry Class 12, Unit 10: Biomolecules",
    }
)

# Common names OPSIN reads as another compound (its reading is wrong, the table's is NCERT's).
OPSIN_MISREADS = frozenset(
    {
        # Benzene and six chloride ions, not C6H6Cl6 (1,2,3,4,5,6-hexachlorocyclohexane).
        "benzene hexachloride",
        # Acetone with two OH on one carbon, not HOCH2COCH2OH (1,3-dihydroxypropan-2-one).
        "dihydroxyacetone",
    }
)

# (E/Z) and (R/S) descriptors in a name: the SMILES must then carry stereo.
STEREO_DESCRIPTOR = re.compile(r"^\((?:\d+[EZRS],?)+\)-")


def molecule_id(iupac: str) -> str:
    """The id rule: the IUPAC name lower-cased, each run of characters outside a-z0-9 one "-"."""
    return re.sub(r"[^a-z0-9]+", "-", iupac.lower()).strip("-")


@pytest.fixture(scope="module")
def table() -> tuple[Molecule, ...]:
    return kb.organic.molecules(DATA_DIR)


@pytest.fixture(scope="module")
def opsin(table: tuple[Molecule, ...]) -> dict[str, str | None]:
    ensure_java()
    names = [m.iupac for m in table] + [m.common for m in table if m.common]
    return smiles_of_names(names)  # one batch, one Java start


def test_table_is_large_enough(table: tuple[Molecule, ...]) -> None:
    assert len(table) >= 300, f"only {len(table)} compounds"


def test_every_file_cites_an_ncert_chapter() -> None:
    for path in sorted((DATA_DIR / kb.organic.MOLECULES_DIR).glob("*.json")):
        source = json.loads(path.read_text(encoding="utf-8"))["source"]
        assert source in SOURCES, f"{path.name}: source {source!r} is not an NCERT chapter"


def test_ids_follow_the_rule(table: tuple[Molecule, ...]) -> None:
    wrong = [(m.molecule_id, m.iupac) for m in table if m.molecule_id != molecule_id(m.iupac)]
    assert not wrong, f"ids not made from the IUPAC name by the rule: {wrong}"


def test_families_are_from_the_set(table: tuple[Molecule, ...]) -> None:
    wrong = [(m.molecule_id, m.family) for m in table if m.family not in FAMILIES]
    assert not wrong, f"families outside {sorted(FAMILIES)}: {wrong}"


def test_rdkit_reads_every_smiles(table: tuple[Molecule, ...]) -> None:
    unread = [(m.molecule_id, m.smiles) for m in table if canonical(m.smiles) is None]
    assert not unread, f"RDKit cannot read: {unread}"


def test_no_compound_is_listed_twice(table: tuple[Molecule, ...]) -> None:
    seen: dict[str, str] = {}
    twice = []
    for m in table:
        key = canonical(m.smiles) or m.smiles
        if key in seen:
            twice.append((seen[key], m.molecule_id, key))
        seen.setdefault(key, m.molecule_id)
    assert not twice, f"one structure under two entries: {twice}"


def test_a_name_names_one_compound(table: tuple[Molecule, ...]) -> None:
    owner: dict[str, str] = {m.iupac: m.molecule_id for m in table}
    clash = []
    for m in table:
        if m.common and owner.setdefault(m.common, m.molecule_id) != m.molecule_id:
            clash.append((m.common, owner[m.common], m.molecule_id))
    assert not clash, f"one name for two entries: {clash}"


def test_stereo_names_have_stereo_smiles(table: tuple[Molecule, ...]) -> None:
    flat = [
        (m.iupac, m.smiles)
        for m in table
        if STEREO_DESCRIPTOR.search(m.iupac) and not any(c in m.smiles for c in "@/\\")
    ]
    assert not flat, f"a stereo name with a SMILES without stereo: {flat}"


def test_opsin_reads_every_iupac_name_as_the_smiles(
    table: tuple[Molecule, ...], opsin: dict[str, str | None]
) -> None:
    disagree = [
        f"{m.iupac!r}: table {canonical(m.smiles)} | OPSIN {opsin[m.iupac]}"
        for m in table
        if opsin[m.iupac] != canonical(m.smiles)
    ]
    assert not disagree, "IUPAC name and SMILES disagree:\n" + "\n".join(disagree)


def _same_compound(a: str, b: str) -> bool:
    """One compound: the same canonical SMILES, or tautomers of one another with the same stereo
    (RDKit's tautomer canonicaliser drops stereo unless told to keep it)."""
    if a == b:
        return True
    enumerator = rdMolStandardize.TautomerEnumerator()
    enumerator.SetRemoveSp3Stereo(False)
    enumerator.SetRemoveBondStereo(False)
    ma, mb = Chem.MolFromSmiles(a), Chem.MolFromSmiles(b)
    if ma is None or mb is None:
        return False
    return bool(
        Chem.MolToSmiles(enumerator.Canonicalize(ma))
        == Chem.MolToSmiles(enumerator.Canonicalize(mb))
    )


def test_opsin_reads_common_names_as_the_same_compound(
    table: tuple[Molecule, ...], opsin: dict[str, str | None]
) -> None:
    commons = {m.common for m in table}
    assert commons >= OPSIN_MISREADS, f"stale exceptions: {OPSIN_MISREADS - commons}"
    disagree = []
    for m in table:
        read = opsin.get(m.common) if m.common and m.common not in OPSIN_MISREADS else None
        mine = canonical(m.smiles)
        if read is not None and mine is not None and not _same_compound(read, mine):
            disagree.append(f"{m.common!r} ({m.iupac}): table {mine} | OPSIN {read}")
    assert not disagree, "common name and SMILES disagree:\n" + "\n".join(disagree)


def test_a_repeated_id_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / kb.organic.MOLECULES_DIR
    folder.mkdir(parents=True)
    entry = {
        "molecule_id": "ethanol",
        "smiles": "CCO",
        "iupac": "ethanol",
        "common": "ethyl alcohol",
        "family": "alcohol",
    }
    for name in ("a.json", "b.json"):
        (folder / name).write_text(
            json.dumps({"source": "NCERT", "molecules": [entry]}), encoding="utf-8"
        )
    with pytest.raises(MoleculeTableError, match="ethanol"):
        kb.organic.molecules(tmp_path)
