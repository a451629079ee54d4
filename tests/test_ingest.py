"""Ingestion of every format into a real LanceDB on tmp_path, with the bundled static embedder."""

from __future__ import annotations

import dataclasses
import io
import random
import shutil
from pathlib import Path

import pytest

from core.settings import REPO_ROOT, Settings
from core.storage import LocalObjectStore
from kb.ingest.run import Ingestor
from kb.references import ReferenceFileError, parse_references, reference_rows
from kb.store import KnowledgeStore
from kb.syllabus import Syllabus
from kb.tagging import TopicIndex
from tests.conftest import DATA_DIR
from tests.pdf_fixture import pdf_bytes

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "kb"


@pytest.fixture(scope="session")
def embedder():
    from kb.embeddings import load_static_embedder

    return load_static_embedder(Settings().embedding_model_dir)


@pytest.fixture(scope="session")
def topics(syllabus: Syllabus, embedder) -> TopicIndex:
    from pipeline.compose import topic_examples

    return TopicIndex.build(syllabus, embedder, topic_examples(Settings()))


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    shutil.copytree(FIXTURES, folder)
    (folder / "circuits.pdf").write_bytes(
        pdf_bytes(
            [
                "Ohm's law: the current through a resistor equals V/R.",
                "Figure 1: A red square standing for a resistor",
            ],
            title="Circuits",
        )
    )
    return folder


@pytest.fixture
def ingestor(tmp_path: Path, embedder, syllabus: Syllabus, topics: TopicIndex) -> Ingestor:
    return Ingestor(
        kstore=KnowledgeStore(str(tmp_path / "lancedb"), embedder),
        objects=LocalObjectStore(tmp_path / "store"),
        embedder=embedder,
        syllabus=syllabus,
        topics=topics,
    )


def rows(ingestor: Ingestor, kind: str) -> list[dict]:
    return ingestor.kstore.table(kind).to_arrow().to_pylist()


def test_markdown_sections_front_matter_tags_and_figures(ingestor: Ingestor, docs: Path) -> None:
    report = ingestor.ingest([docs / "lens.md"])
    [result] = report.files
    assert result.status == "ingested" and result.chunks == 2
    chunks = rows(ingestor, "chunks")
    assert [c["section"] for c in chunks] == [
        "Thin lenses / The lens formula",
        "Thin lenses / Power of a lens",
    ]
    assert all(
        c["topic_id"] == "phy-lens-formula" and c["tag_method"] == "front_matter" for c in chunks
    )
    assert all(c["tag_confidence"] == 1.0 and c["licence"] == "CC-BY-4.0" for c in chunks)
    assert "$\\frac{1}{v} - \\frac{1}{u} = \\frac{1}{f}$" in chunks[0]["text"]
    figures = {f["caption"]: f for f in rows(ingestor, "figures")}
    ray = figures["Ray diagram for a convex lens"]
    assert ray["captioned"] and ray["caption_source"] == "source"
    assert ingestor.objects.get(ray["image_keys"][0]) == (docs / "ray.svg").read_bytes()
    assert ray["image_keys"][0].startswith("kb/figures/") and ray["image_keys"][0].endswith(".svg")
    assert result.uncaptioned == 1
    assert any("no caption" in w for w in result.warnings)
    assert "uncaptioned" in "\n".join(report.lines())


def test_html_drops_scripts_and_groups_a_figure(ingestor: Ingestor, docs: Path) -> None:
    [result] = ingestor.ingest([docs / "cell.html"]).files
    assert result.status == "ingested"
    chunks = rows(ingestor, "chunks")
    text = " ".join(c["text"] for c in chunks)
    assert "never ingested" not in text and "p{}" not in text
    assert "$E = h\\nu$" in text
    assert {c["title"] for c in chunks} == {"The cell"}
    [figure] = rows(ingestor, "figures")
    assert len(figure["image_keys"]) == 2
    assert figure["caption"] == "Plant and animal cells compared"
    assert figure["alt"] == "A plant cell; An animal cell"
    assert any("missing.png" in w for w in result.warnings)
    assert all(c["tag_method"] in {"similarity", "none"} for c in chunks)


def test_cnxml_sections_mathml_and_a_multi_image_figure(ingestor: Ingestor, docs: Path) -> None:
    [result] = ingestor.ingest([docs / "kinematics.cnxml"]).files
    assert result.status == "ingested"
    chunks = rows(ingestor, "chunks")
    assert [c["section"] for c in chunks] == ["Uniform acceleration", "Free fall"]
    assert "$v = u + a t$" in chunks[0]["text"]
    assert "\\frac{1}{2}" in chunks[0]["text"]
    assert chunks[0]["licence"] == "http://creativecommons.org/licenses/by/4.0/"
    [figure] = rows(ingestor, "figures")
    assert len(figure["image_keys"]) == 2
    assert figure["caption"].startswith("Velocity–time and displacement–time graphs")
    assert "Displacement against time" in figure["alt"]
    assert chunks[0]["subject"] == "Physics"


def test_pdf_text_pages_and_embedded_images(ingestor: Ingestor, docs: Path) -> None:
    [result] = ingestor.ingest([docs / "circuits.pdf"]).files
    assert result.status == "ingested" and result.figures == 1
    [chunk] = rows(ingestor, "chunks")
    assert chunk["page"] == 1 and chunk["section"] == "page 1"
    assert "law: the current through a resistor" in chunk["text"] and chunk["title"] == "Circuits"
    [figure] = rows(ingestor, "figures")
    assert figure["caption"] == "A red square standing for a resistor"
    from PIL import Image

    image = Image.open(io.BytesIO(ingestor.objects.get(figure["image_keys"][0]) or b""))
    assert image.size == (8, 8)


def test_bad_files_fail_one_line_each_and_the_batch_goes_on(
    ingestor: Ingestor, docs: Path, tmp_path: Path
) -> None:
    from pypdf import PdfReader, PdfWriter

    (docs / "corrupt.pdf").write_bytes(b"%PDF-1.4\nthis is not really a pdf\n")
    writer = PdfWriter()
    writer.add_page(PdfReader(docs / "circuits.pdf").pages[0])
    writer.encrypt(user_password="secret", algorithm="RC4-128")
    with open(docs / "locked.pdf", "wb") as fh:
        writer.write(fh)
    (docs / "latin1.md").write_bytes("# Caf\xe9\n\nna\xefve text".encode("latin-1"))
    (docs / "notes.docx").write_bytes(b"PK\x03\x04")
    (docs / "broken-image.md").write_text('# Broken\n\nText.\n\n![x](bad.png "A broken image")\n')
    (docs / "bad.png").write_bytes(b"\x89PNG\r\n\x1a\nnot an image at all")
    (docs / "bad-topic.md").write_text("---\ntopic_id: no-such-topic\n---\n# x\n\ntext\n")
    report = ingestor.ingest(
        [
            docs / "corrupt.pdf",
            docs / "locked.pdf",
            docs / "latin1.md",
            docs / "notes.docx",
            docs / "gone.md",
            docs / "broken-image.md",
            docs / "bad-topic.md",
            docs / "lens.md",
        ]
    )
    by_name = {Path(f.source).name: f for f in report.files}
    assert "not a readable PDF" in (by_name["corrupt.pdf"].error or "")
    assert "encrypted PDF" in (by_name["locked.pdf"].error or "")
    assert "not UTF-8" in (by_name["latin1.md"].error or "")
    assert "unknown format '.docx'" in (by_name["notes.docx"].error or "")
    assert "vanished" in (by_name["gone.md"].error or "")
    assert "no-such-topic" in (by_name["bad-topic.md"].error or "")
    assert by_name["broken-image.md"].status == "ingested"
    assert any("does not decode" in w for w in by_name["broken-image.md"].warnings)
    assert by_name["lens.md"].status == "ingested"
    failed = [ln for ln in report.lines() if ln.startswith("FAILED")]
    assert len(failed) == 6 and all("\n" not in ln for ln in failed)
    sources = {d["source"] for d in ingestor.kstore.documents()}
    assert sources == {by_name["broken-image.md"].source, by_name["lens.md"].source}
    assert {c["source"] for c in rows(ingestor, "chunks")} == sources


def test_reingesting_unchanged_files_does_nothing(ingestor: Ingestor, docs: Path) -> None:
    first = ingestor.ingest([docs])
    assert first.count("failed") == 0 and first.count("ingested") == 4
    before = {k: ingestor.kstore.count(k) for k in ("chunks", "figures", "documents")}
    again = ingestor.ingest([docs])
    assert again.count("unchanged") == 4 and again.count("ingested") == 0
    assert {k: ingestor.kstore.count(k) for k in before} == before


def test_a_changed_file_replaces_its_rows(ingestor: Ingestor, docs: Path) -> None:
    ingestor.ingest([docs / "lens.md"])
    path = docs / "lens.md"
    path.write_text(path.read_text() + "\n## Magnification\n\nMagnification is v/u for a lens.\n")
    [result] = ingestor.ingest([path]).files
    assert result.status == "ingested" and result.chunks == 3
    assert ingestor.kstore.count("chunks") == 3
    assert ingestor.kstore.count("documents") == 1


def test_a_crash_mid_document_leaves_nothing_behind(ingestor: Ingestor, docs: Path) -> None:
    class Crash(Exception):
        pass

    original = ingestor.kstore.write_documents

    def crashing_write(manifests, chunks, figures):
        original([], chunks, figures)  # rows land, the manifest never does
        raise Crash

    ingestor.kstore.write_documents = crashing_write  # type: ignore[method-assign]
    with pytest.raises(Crash):
        ingestor.ingest([docs / "lens.md"])
    assert ingestor.kstore.count("chunks") == 2 and ingestor.kstore.count("documents") == 0
    ingestor.kstore.write_documents = original  # type: ignore[method-assign]
    report = ingestor.ingest([docs / "lens.md"])
    assert report.repaired_rows == 4  # 2 chunks + 2 figures of the crashed attempt
    assert ingestor.kstore.count("chunks") == 2 and ingestor.kstore.count("documents") == 1


def test_search_modes_filters_and_figures(ingestor: Ingestor, docs: Path) -> None:
    ingestor.ingest([docs])
    ks = ingestor.kstore
    for mode in ("fts", "vector", "hybrid"):
        hits = ks.search("chunks", "focal length of a thin lens", k=3, mode=mode)
        assert hits and hits[0].source.endswith("lens.md"), mode
    physics_only = ks.search(
        "chunks",
        "chloroplast chlorophyll photosynthesis",
        k=10,
        filters={"subject": "Physics"},
    )
    assert all(h.subject == "Physics" for h in physics_only)
    figures = ks.search("figures", "ray diagram convex lens", k=5)
    assert figures and figures[0].text.startswith("Ray diagram")
    assert all(h.text for h in figures)  # the uncaptioned figure is never a hit


def test_deleted_and_out_of_syllabus_content_is_marked_and_left_out(
    ingestor: Ingestor, docs: Path
) -> None:
    (docs / "old.md").write_text(
        "---\nsubject: Botany\ntopic_id: bot-ascent-of-sap-and-transpiration\n---\n"
        "# Old\n\nXylem sap.\n"
    )
    (docs / "stocks.md").write_text(
        "# Markets\n\nThe equity index fell on Tuesday as bond yields rose and investors "
        "sold shares.\n"
    )
    report = ingestor.ingest([docs / "old.md", docs / "stocks.md"])
    statuses = {Path(c["source"]).name: c["syllabus_status"] for c in rows(ingestor, "chunks")}
    if report.files[0].status == "failed":  # the deleted topic id must exist in the syllabus
        pytest.fail(report.files[0].error or "the deleted topic's file failed")
    assert statuses["old.md"] == "deleted_topic"
    assert statuses["stocks.md"] == "out_of_syllabus"
    hits = ingestor.kstore.search("chunks", "xylem sap equity index", k=10)
    assert hits == []


def test_reference_questions_import_and_errors(tmp_path: Path, embedder) -> None:
    jsonl = tmp_path / "refs.jsonl"
    jsonl.write_text(
        '{"question": "Which gas do plants absorb?", "options": ["O2", "CO2", "N2", "H2"], '
        '"answer": "CO2", "subject": "Botany"}\n\n'
        '{"question": "Unit of force?", "options": ["N", "J", "W", "Pa"], "answer": "N"}\n'
    )
    csv_file = tmp_path / "refs.csv"
    csv_file.write_text('question,options,answer\n"Unit of power?","W|J|N|Pa",W\n')
    refs = parse_references(jsonl) + parse_references(csv_file)
    assert [r.answer for r in refs] == ["CO2", "N", "W"]
    ks = KnowledgeStore(str(tmp_path / "lancedb"), embedder)
    assert ks.add_references(reference_rows(refs, embedder)) == 3
    assert ks.add_references(reference_rows(refs, embedder)) == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "x", "options": ["a", "b"], "answer": "a"}\n{oops\n')
    with pytest.raises(ReferenceFileError, match=r"bad\.jsonl:2: not JSON"):
        parse_references(bad)
    bad.write_text('{"question": "x", "options": ["a"], "answer": "a"}\n')
    with pytest.raises(ReferenceFileError, match="at least two"):
        parse_references(bad)
    (tmp_path / "refs.txt").write_text("question")
    with pytest.raises(ReferenceFileError, match="unknown format"):
        parse_references(tmp_path / "refs.txt")


def test_stored_questions_are_indexed_for_near_duplicate_checks(
    tmp_path: Path,
    embedder,
    syllabus: Syllabus,
) -> None:
    from core.ids import question_id
    from core.records import Question, SolverVerdict
    from kb.store import question_rows, question_text
    from tests.conftest import sound_drafts

    questions = []
    for draft in sound_drafts("phy-kinetic-energy", syllabus, 3):
        questions.append(
            Question(
                question_id=question_id(draft.content),
                content=draft.content,
                provenance=draft.provenance,
                verdict=SolverVerdict(solver="s", choice=draft.content.correct_key, confidence=1.0),
            )
        )
    ks = KnowledgeStore(str(tmp_path / "lancedb"), embedder)
    assert ks.add_questions(question_rows(questions, embedder)) == 3
    assert ks.add_questions(question_rows(questions, embedder)) == 0
    ks.build_indexes()
    dupes = ks.near_duplicates("questions", question_text(questions[0]), threshold=0.9)
    assert dupes[0].id == questions[0].question_id and dupes[0].score > 0.999
    assert ks.near_duplicates("questions", "Which hormone lowers blood sugar?", 0.9) == []
    hits = ks.search("questions", "kinetic energy", filters={"topic_id": "phy-kinetic-energy"})
    assert hits and all(h.topic_id == "phy-kinetic-energy" for h in hits)


def test_a_file_of_one_repeated_line_cannot_flood_the_store(ingestor: Ingestor, docs: Path) -> None:
    # About 5 MB of one line: before, 2,426 near-identical chunks took every vector hit.
    line = "The quick study of photosynthesis repeats itself on every page of this file. "
    (docs / "flood.md").write_text(
        "---\nsubject: Botany\ntitle: Flood\n---\n# Flood\n\n" + (line * 60 + "\n\n") * 1100,
        encoding="utf-8",
    )
    # A long document of distinct paragraphs: words of the bundled notes, shuffled.
    words = " ".join(p.read_text() for p in sorted(DATA_DIR.glob("kb/chunks/phy-*.md"))).split()
    rng = random.Random(7)
    paragraphs = [" ".join(rng.sample(words, 250)) for _ in range(40)]
    (docs / "mixed.md").write_text(
        "---\nsubject: Physics\ntitle: Mixed\n---\n# Mixed\n\n" + "\n\n".join(paragraphs),
        encoding="utf-8",
    )
    capped = dataclasses.replace(ingestor, max_chunks_per_document=5)
    report = capped.ingest([docs / "flood.md", docs / "mixed.md", docs / "lens.md"])
    flood, mixed, _ = report.files
    assert flood.status == "ingested" and flood.chunks <= 2 and flood.dropped_duplicates > 100
    assert mixed.chunks == 5 and mixed.dropped_over_cap > 0
    assert any("QFORGE_KB_MAX_CHUNKS_PER_DOCUMENT" in w for w in mixed.warnings)
    assert "duplicate and" in report.lines()[-1] and "over-cap chunks" in report.lines()[-1]
    hits = capped.kstore.search("chunks", "image distance of a thin lens", k=8, mode="vector")
    assert sum("flood.md" in h.source for h in hits) <= 2
    assert any("lens.md" in h.source for h in hits)


def test_a_large_table_is_searched_through_lancedbs_vector_index(
    tmp_path: Path, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kb.store

    monkeypatch.setattr(kb.store, "VECTOR_INDEX_MIN_ROWS", 256)
    words = sorted(set(" ".join(p.read_text() for p in DATA_DIR.glob("kb/chunks/*.md")).split()))
    rng = random.Random(3)
    texts = [" ".join(rng.sample(words, 12)) for _ in range(300)]
    vectors = embedder.embed(texts)
    subjects = ["Physics", "Botany"]
    ks = KnowledgeStore(str(tmp_path / "lancedb"), embedder)
    rows = [
        {
            "question_id": f"q{i}",
            "subject": subjects[i % 2],
            "text": text,
            "embedding_model": embedder.model_id,
            "vector": v.tolist(),
        }
        for i, (text, v) in enumerate(zip(texts, vectors, strict=True))
    ]
    assert ks.add_questions(rows) == 300
    # Before any full-text index exists, a hybrid search has its vector side only.
    assert ks.search("questions", texts[4], k=1)[0].id == "q4"
    ks.build_indexes()
    kinds = {i.index_type for i in ks.table("questions").list_indices() if "vector" in i.columns}
    assert kinds == {"IvfFlat"}
    hits = ks.search("questions", texts[7], k=3, mode="vector", filters={"subject": "Botany"})
    assert hits[0].id == "q7" and hits[0].score > 0.999
    assert all(h.subject == "Botany" for h in hits) and len(hits) == 3
    assert ks.search("questions", texts[9], k=1, mode="hybrid")[0].id == "q9"
