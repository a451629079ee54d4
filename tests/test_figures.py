"""Question figures end to end: safe SVG only, ids that never move, and a figure in every
rendering of its question (both JSON shapes, Markdown, HTML, the exported tree)."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from unittest import mock

import brotli
import polars as pl
import pytest

from core.figures import FigureSpec, StructureSpec
from core.figures.structure import StructurePanel
from core.ids import question_identity
from core.records import OPTION_KEYS, Difficulty, Draft, FigureRef, Question, SolverAnswer, Subject
from core.shapes import daily_question, figure_key, stem_without_figures_markdown, stored_question
from core.storage import LocalObjectStore
from kb.syllabus import Syllabus
from pipeline.figures import templates as figure_templates_module
from pipeline.figures.catalogue import figure_templates
from pipeline.figures.render import svg_of
from pipeline.figures.svg import (
    UnsafeSvgError,
    checked_svg,
    figure_id_of,
    printed,
    svg_size,
    svg_texts,
    unsafe_svg,
)
from pipeline.figures.templates import FigureTemplate, figure_draft
from pipeline.verify.figure_solver import figure_answer
from pipeline.verify.gate import judged, solver_view
from site_builder.contract import DailyQuestion, StoredQuestion
from site_builder.documents import question_key
from site_builder.export import FigureDriftError, figure_image_keys, write_question_files
from site_builder.headers import cache_control, content_type
from tests.conftest import DATA_DIR, sound_draft
from tests.test_ids import content as a_content

SAFE = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
    'width="120" height="80" viewBox="0 0 120 80"><defs><path id="p" d="M0 0L10 10"/></defs>'
    '<use xlink:href="#p"/><text x="4" y="20">R<tspan>1</tspan> = 4 Ω</text>'
    '<text x="4" y="40" style="fill: #333">A</text></svg>'
)


def test_a_safe_drawing_passes_and_its_text_and_size_are_read() -> None:
    assert unsafe_svg(SAFE) is None and checked_svg(SAFE) == SAFE
    # An XML declaration and a reference to a fragment of the file itself are safe.
    declared = '<?xml version="1.0" encoding="utf-8"?>' + SAFE.replace(
        "<use ", '<use fill="url(#p)" '
    )
    assert unsafe_svg(declared) is None
    declared = '<?xml version="1.0" encoding="utf-8"?>' + SAFE.replace(
        "<defs>", '<defs><linearGradient id="g"/>'
    )
    assert unsafe_svg(declared.replace("<use ", '<use fill="url(#g)" ')) is None
    assert svg_texts(SAFE) == ["R1 = 4 Ω", "A"]
    assert printed(SAFE, "4 Ω") and printed(SAFE, "R1") and not printed(SAFE, "B")
    assert svg_size(SAFE) == (120, 80)
    assert figure_id_of(SAFE) == figure_id_of(SAFE) != figure_id_of(SAFE + " ")


@pytest.mark.parametrize(
    ("svg", "reason"),
    [
        ('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "<script>"),
        ('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', "event attribute"),
        ('<svg xmlns="http://www.w3.org/2000/svg"><rect onclick="x()"/></svg>', "event attribute"),
        (
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
            '<image xlink:href="https://example.invalid/x.png"/></svg>',
            "external reference",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)">x</a></svg>',
            "external reference",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(x.css);</style></svg>',
            "<style>",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(http://x/y)"/></svg>',
            "style",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><p>x</p></foreignObject></svg>',
            "<foreignObject>",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg"><a href="#x"><set attributeName="href" '
            'to="javascript:alert(1)"/></a></svg>',
            "<set>",
        ),
        ('<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(http://x/y#z)"/></svg>', "fill"),
        (
            '<svg xmlns="http://www.w3.org/2000/svg"><style>a{}<g/>@import url(x);</style></svg>',
            "<style>",
        ),
        ('<svg xmlns="http://www.w3.org/2000/svg" xml:base="http://x/"/>', "xml:base"),
        (
            '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:u\\72l(http://x)"/></svg>',
            "style",
        ),
        (
            '<?xml-stylesheet href="http://x/y.css"?><svg xmlns="http://www.w3.org/2000/svg"/>',
            "outside the drawing",
        ),
        (
            '<!DOCTYPE svg [<!ENTITY a "b">]><svg xmlns="http://www.w3.org/2000/svg"/>',
            "outside the drawing",
        ),
        ("<html><body/></html>", "not <svg>"),
        ("<svg", "not well-formed"),
    ],
)
def test_an_unsafe_drawing_is_refused_with_its_reason(svg: str, reason: str) -> None:
    found = unsafe_svg(svg)
    assert found is not None and reason in found
    with pytest.raises(UnsafeSvgError):
        checked_svg(svg)


def test_a_figure_with_only_an_id_and_caption_keeps_the_id_it_always_had() -> None:
    """The fields added for drawn figures count in a question's id only when set."""
    ref = FigureRef(figure_id="fig-x", caption="A ray diagram")
    assert ref.model_dump(mode="json", exclude={"alt", "spec", "width", "height"}) == {
        "figure_id": "fig-x",
        "caption": "A ray diagram",
    }
    content = a_content().model_copy(update={"figures": (ref,)})
    assert question_identity(content)["figures"] == [
        {"figure_id": "fig-x", "caption": "A ray diagram"}
    ]


@pytest.fixture(scope="module")
def templates() -> tuple[FigureTemplate, ...]:
    return figure_templates(DATA_DIR)


def test_there_are_forty_figure_templates_of_every_kind_and_subject(
    templates: tuple[FigureTemplate, ...],
) -> None:
    assert len(templates) >= 40
    assert len({t.template_id for t in templates}) == len(templates)
    kinds = Counter(t.template_id.split("-")[1] for t in templates)
    assert set(kinds) >= {"circ", "graph", "ray", "diagram"}, kinds
    cells = {(t.subject, t.difficulty) for t in templates}
    for subject in Subject:
        assert sum((subject, d) in cells for d in Difficulty) >= 2, subject


def figure_question(syllabus: Syllabus, index: int = 0) -> Question:
    """A stored question with a drawn figure: the first sound draft of the index-th template,
    accepted by the offline solver."""
    template = figure_templates(DATA_DIR)[index]
    for seed in range(50):
        draft = figure_draft(template, seed, syllabus)
        if draft is None:
            continue
        _, question = judged(draft, figure_answer(solver_view(draft)))
        if question is not None:
            return question
    raise AssertionError(f"{template.template_id} made no accepted question in 50 seeds")


def one_per_kind(templates: tuple[FigureTemplate, ...]) -> list[int]:
    """The index of the first template of each kind."""
    first: dict[str, int] = {}
    for i, t in enumerate(templates):
        first.setdefault(t.template_id.split("-")[1], i)
    return sorted(first.values())


def test_a_figure_question_shows_its_figure_in_both_shapes(
    syllabus: Syllabus, templates: tuple[FigureTemplate, ...]
) -> None:
    for i in one_per_kind(templates):
        q = figure_question(syllabus, i)
        (ref,) = q.content.figures
        url = "/" + figure_key(ref.figure_id)
        daily, stored = daily_question(q), stored_question(q)
        DailyQuestion.model_validate(daily)
        StoredQuestion.model_validate(stored)
        block = [
            {"url": url, "alt": ref.alt, "caption": ref.caption, "width": ref.width,
             "height": ref.height}
        ]  # fmt: skip
        assert daily["figures"] == stored["figures"] == block
        assert ref.width > 0 and ref.height > 0
        assert daily["stem_markdown"].endswith(f"]({url})")
        assert stem_without_figures_markdown(daily["stem_markdown"]) == q.content.stem_markdown
        img = f'<img src="{url}" alt="'
        assert img in stored["stem_html"]
        assert f'width="{ref.width}" height="{ref.height}"' in stored["stem_html"]
        assert q.content.option(q.content.correct_key).text.lower() not in ref.alt.lower()


def test_a_question_without_a_drawn_figure_keeps_its_exact_shapes(syllabus: Syllabus) -> None:
    """No `figures` key and no image: every file published before figures keeps its bytes."""
    draft = sound_draft("phy-eom-final-velocity", syllabus)
    agree = SolverAnswer(solver="s", choice=draft.content.correct_key, confidence=1.0)
    cited = FigureRef(figure_id="fig-cited", caption="A cited knowledge-store figure")
    for figures in ((), (cited,)):
        content = draft.content.model_copy(update={"figures": figures})
        _, q = judged(draft.model_copy(update={"content": content}), agree)
        assert q is not None
        daily, stored = daily_question(q), stored_question(q)
        assert "figures" not in daily and "figures" not in stored
        assert daily["stem_markdown"] == content.stem_markdown
        assert "<img" not in stored["stem_html"]


def test_images_are_exported_before_their_questions_and_must_hash_to_their_ids(
    tmp_path: Path, syllabus: Syllabus
) -> None:
    store = LocalObjectStore(tmp_path / "store")
    q = figure_question(syllabus)
    assert write_question_files(store, [q]) == (1, 0)
    keys = figure_image_keys(q)
    assert [k.rsplit(".", 1)[-1] for k in keys] == ["gz", "br", "svg"]
    svg = store.get(keys[-1]) or b""
    assert (
        gzip.decompress(store.get(keys[0]) or b"")
        == svg
        == brotli.decompress(store.get(keys[1]) or b"")
    )
    (ref,) = q.content.figures
    assert ref.spec is not None and svg.decode("utf-8") == svg_of(ref.spec)
    assert figure_id_of(svg.decode("utf-8")) == ref.figure_id
    assert content_type(keys[-1]) == content_type(keys[0]) == "image/svg+xml"
    assert cache_control(keys[-1], "Asia/Kolkata") == "public, max-age=31536000, immutable"
    assert json.loads(store.get(question_key(q.question_id)) or b"")["figures"][0]["url"] == (
        "/" + keys[-1]
    )
    # A spec that no longer draws the bytes its id names is never published.
    moved = ref.model_copy(update={"figure_id": "fig-" + "0" * 20})
    drifted = q.model_copy(
        update={
            "content": q.content.model_copy(update={"figures": (moved,)}),
            "question_id": "q-" + "1" * 20,
        }
    )
    other = LocalObjectStore(tmp_path / "other")
    with pytest.raises(FigureDriftError):
        write_question_files(other, [drifted])
    assert other.keys("api/") == []


def test_figures_drawn_at_once_in_threads_draw_the_bytes_their_ids_name(
    templates: tuple[FigureTemplate, ...],
) -> None:
    # The worker exports custom exams from its threads: a renderer with global state (matplotlib's
    # rcParams, schemdraw's backend) drawn by two threads at once gave other bytes, and the
    # export refused the question (FigureDriftError).
    # Every graph template (the kind drawn by matplotlib) and the first of every other kind.
    firsts = one_per_kind(templates)
    chosen = [t for i, t in enumerate(templates) if "-graph-" in t.template_id or i in firsts]
    firsts_drawn = {t.template_id: next(filter(None, map(t.draw, range(20))), None) for t in chosen}
    assert all(firsts_drawn.values()), [i for i, q in firsts_drawn.items() if q is None]
    specs: list[FigureSpec] = [q.spec for q in firsts_drawn.values() if q is not None]
    # Structures come from the organic generators, not from figure templates (RDKit's drawer).
    panels = (StructurePanel(smiles="CC(C)O", label="P"), StructurePanel(smiles="c1ccccc1O"))
    specs.append(StructureSpec(panels=panels))
    alone = [svg_of(s) for s in specs]
    with ThreadPoolExecutor(4) as pool:
        drawn = list(pool.map(lambda _: [svg_of(s) for s in specs], range(4)))
    assert all(d == alone for d in drawn)


def test_a_model_solver_reads_the_figure_as_data(syllabus: Syllabus) -> None:
    from core.ids import canonical_json
    from core.settings import REPO_ROOT
    from pipeline.llm.solve import solver_messages, view_id

    q = figure_question(syllabus)
    draft = figure_draft(figure_templates(DATA_DIR)[0], 0, syllabus)
    assert draft is not None
    view = solver_view(draft)
    (ref,) = view.figures
    assert ref.spec is not None
    user = solver_messages(REPO_ROOT / "data" / "prompts", view, "BCDA")[1]["content"]
    assert canonical_json(ref.spec.model_dump(mode="json")) in user and ref.caption in user
    assert view_id(view) != view_id(view.model_copy(update={"figures": ()}))
    assert q.content.figures[0].spec is not None


def test_the_figure_floor_asks_for_what_each_templates_cell_lacks(
    syllabus: Syllabus, templates: tuple[FigureTemplate, ...]
) -> None:
    from core.pool import POOL_SCHEMA
    from pipeline.fill.pool import STRUCTURES, figure_deficits

    t = templates[0]
    unit = syllabus.topic(t.topic_id).unit_id
    cell = (t.subject, t.difficulty, unit)
    same = [u for u in templates if (u.subject, u.difficulty) == cell[:2]]
    n = sum(syllabus.topic(u.topic_id).unit_id == unit for u in same)
    empty = pl.DataFrame(schema=POOL_SCHEMA)
    assert figure_deficits(empty, templates, syllabus, 3)[cell] == 3 * n
    row = {c: None for c in POOL_SCHEMA} | {
        "subject": t.subject.value, "difficulty": t.difficulty.value, "unit_id": unit,
        "figure": True, "structure": False, "withdrawn": False, "times_used": 0,
    }  # fmt: skip
    used, withdrawn = {**row, "times_used": 1}, {**row, "withdrawn": True}
    pool = pl.DataFrame([row, row, used, withdrawn], schema=POOL_SCHEMA)
    # Two never-used figure questions count; a used or withdrawn one does not.
    assert figure_deficits(pool, templates, syllabus, 3).get(cell, 0) == 3 * n - 2
    assert figure_deficits(pool, templates, syllabus, 0) == {}
    # Structures are counted apart: they are no figure question, only a structure one.
    drawn = pl.DataFrame([{**row, "structure": True}] * 2, schema=POOL_SCHEMA)
    assert figure_deficits(drawn, templates, syllabus, 3)[cell] == 3 * n
    assert figure_deficits(drawn, templates, syllabus, 3, STRUCTURES)[cell] == 3 * n - 2


def key_moved(draft: Draft) -> Draft:
    """The draft with its key's text swapped with the next option's (the key letter kept): a
    solver that reads the figure must follow the text away from the key."""
    c = draft.content
    i = OPTION_KEYS.index(c.correct_key)
    j = (i + 1) % 4
    texts = [o.text for o in c.options]
    texts[i], texts[j] = texts[j], texts[i]
    options = tuple(o.model_copy(update={"text": t}) for o, t in zip(c.options, texts, strict=True))
    return draft.model_copy(update={"content": c.model_copy(update={"options": options})})


# A stand-in drawing: drawing the SVG is most of a draft's cost, and the solver never sees it.
STUB_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'


def unrendered_draft(template: FigureTemplate, seed: int, syllabus: Syllabus) -> Draft | None:
    """`figure_draft` for a seed with the stand-in drawing (so a stand-in figure id)."""
    with mock.patch.object(figure_templates_module, "svg_of", lambda spec: STUB_SVG):
        return figure_draft(template, seed, syllabus)
