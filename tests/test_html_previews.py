"""Printable HTML previews: the pure renderers, then real pages opened in headless Chromium."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import io
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from core.ids import question_id
from core.records import (
    Difficulty,
    FigureRef,
    Option,
    Paper,
    Question,
    SolverVerdict,
    Subject,
)
from core.render import inline_markdown_html
from core.storage import OBJECT_SUFFIX, LocalObjectStore, validate_key
from core.warehouse import open_warehouse
from kb.knowledge import KnowledgeBase
from kb.syllabus import Syllabus
from pipeline.assemble.assembly import paper_from_rows
from pipeline.assemble.blueprint import load_blueprint
from pipeline.assemble.index import index_pool
from pipeline.assemble.request import SUBJECTS, daily_request
from pipeline.figures.catalogue import figure_templates
from pipeline.fill.pool import fill_pool
from pipeline.generate.drafter import OfflineDrafter
from pipeline.templates.catalogue import TEMPLATES, TEMPLATES_BY_ID
from pipeline.verify.solver import OfflineSolver
from site_builder.documents import paper_document
from site_builder.export import write_figure_images
from site_builder.headers import IMMUTABLE, cache_control, content_type
from site_builder.html import (
    Figure,
    figures_for,
    paper_html,
    paper_preview_key,
    question_html,
    question_preview_key,
    relative_url,
    write_previews,
)
from tests.conftest import DATA_DIR, sound_draft
from tests.debian import ensure_debian_packages
from tests.test_figures import figure_question as drawn_figure_question
from tests.test_figures import one_per_kind

DAY = dt.date(2026, 11, 25)
FIGURE_ID = "fig-convex-lens"
FIGURE_SVG = DATA_DIR / "kb/figures/phy-convex-lens-ray-diagram.svg"
FIGURE_KEY = f"kb/figures/{hashlib.sha256(FIGURE_SVG.read_bytes()).hexdigest()[:32]}.svg"
TEX_LEFT = re.compile(r"\$[^$\n]+\$|\\[A-Za-z]+")


# ── A small real paper ─────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Built:
    paper: Paper
    questions: list[Question]  # in paper order
    document: dict[str, Any]


def stored(content: Any, provenance: Any) -> Question:
    return Question(
        question_id=question_id(content),
        content=content,
        provenance=provenance,
        verdict=SolverVerdict(solver="s", choice=content.correct_key, confidence=1.0),
    )


def figure_question(syllabus: Syllabus) -> Question:
    """A lens numerical that shows the bundled ray diagram (no offline generator adds figures)."""
    draft = sound_draft("phy-lens-image-distance", syllabus, 3)
    figure = FigureRef(figure_id=FIGURE_ID, caption="Image formation by a convex lens, $u > 2f$")
    return stored(draft.content.model_copy(update={"figures": (figure,)}), draft.provenance)


def build_paper(home: Path, syllabus: Syllabus, kb: KnowledgeBase) -> Built:
    """Verified questions from a tmp warehouse, ordered and key-balanced by the assembler."""
    with open_warehouse(home / "w.duckdb") as wh:
        fill_pool(
            wh,
            OfflineDrafter(syllabus, kb, TEMPLATES),
            OfflineSolver(kb, TEMPLATES_BY_ID),
            {
                (Subject.PHYSICS, Difficulty.EASY): 3,
                (Subject.CHEMISTRY, Difficulty.MEDIUM): 3,
                (Subject.BOTANY, Difficulty.HARD): 2,
                (Subject.ZOOLOGY, Difficulty.MEDIUM): 2,
            },
        )
        # And one question with a drawn figure of each kind (circuit, graph, ray, diagram).
        kinds = one_per_kind(figure_templates(DATA_DIR))
        drawn = [drawn_figure_question(syllabus, i) for i in kinds]
        wh.insert_questions([figure_question(syllabus), *drawn])
        index = index_pool(wh.pool())
        rows = {
            s: [r for r in range(len(index)) if index.subject[r] == i]
            for i, s in enumerate(SUBJECTS)
        }
        blueprint = load_blueprint(DATA_DIR, syllabus)
        built = paper_from_rows(index, daily_request(blueprint, DAY), blueprint, rows)
        # New papers show every question as stored; a paper published before 2026-11-26 kept
        # its own option orders, and its preview must follow them: this paper is one of those.
        orders = tuple(("BCDA", "ABCD", "DCBA")[i % 3] for i in range(len(built.question_ids)))
        paper = built.model_copy(update={"option_orders": orders})
        by_id = {q.question_id: q for q in wh.questions(list(paper.question_ids))}
    questions = [by_id[i] for i in paper.question_ids]
    return Built(paper, questions, paper_document(paper, questions))


@pytest.fixture(scope="module")
def built(syllabus: Syllabus, kb: KnowledgeBase) -> Iterator[Built]:
    with tempfile.TemporaryDirectory(prefix="qforge-previews-") as home:
        yield build_paper(Path(home), syllabus, kb)


# ── Reading the rendered HTML back ─────────────────────────────────────────────────────────────


class Elements(HTMLParser):
    """Elements with the attributes asked for, with their text content, in document order."""

    VOID = frozenset({"meta", "img", "br", "hr", "link", "input", "mspace", "none"})

    def __init__(self, **wanted: str) -> None:
        super().__init__(convert_charrefs=True)
        self.wanted = wanted
        self.found: list[tuple[dict[str, str | None], list[str]]] = []
        self.open: list[tuple[int, list[str]]] = []
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        self.depth += 1
        a = dict(attrs)
        if all(
            (a.get(k) or "").split().count(v) if k == "class" else a.get(k) == v
            for k, v in self.wanted.items()
        ):
            text: list[str] = []
            self.found.append((a, text))
            self.open.append((self.depth, text))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if self.open and self.open[-1][0] == self.depth:
            self.open.pop()
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        for _, text in self.open:
            text.append(data)


def find(html: str, **wanted: str) -> list[tuple[dict[str, str | None], str]]:
    parser = Elements(**wanted)
    parser.feed(html)
    return [(a, " ".join("".join(t).split())) for a, t in parser.found]


def parsed(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """Every start tag with its attributes, as a browser's tokenizer sees them."""

    class Tags(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.seen: list[tuple[str, list[tuple[str, str | None]]]] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.seen.append((tag, attrs))

    tags = Tags()
    tags.feed(html)
    return tags.seen


def text_of(fragment: str) -> str:
    return find(f"<div>{fragment}</div>")[0][1]


# ── Pure renderers ─────────────────────────────────────────────────────────────────────────────


def test_preview_keys_sit_beside_the_json_and_are_served_as_immutable_html() -> None:
    assert paper_preview_key("2026-11-25") == "api/v1/exams/daily/2026-11-25.html"
    assert (
        question_preview_key("q-0123456789abcdef0123")
        == "api/v1/questions/q-0123456789abcdef0123.html"
    )
    for key in (paper_preview_key("2026-11-25"), question_preview_key("q-0123456789abcdef0123")):
        assert validate_key(key) == key
        assert content_type(key) == "text/html; charset=utf-8"
        assert cache_control(key, "Asia/Kolkata") == IMMUTABLE
    page = paper_preview_key("2026-11-25")
    assert relative_url(page, FIGURE_KEY) == f"../../../../{FIGURE_KEY}"


def test_options_follow_the_paper_documents_order(built: Built) -> None:
    html = paper_html(built.document)
    reordered = 0
    for i, (q, item) in enumerate(zip(built.document["questions"], built.questions, strict=True)):
        assert html.count(f'id="q{i + 1}"') == 1
        options = find(shown_html(html, i + 1), **{"class": "option"})
        assert [a["data-key"] for a, _ in options] == ["A", "B", "C", "D"]
        expected = [
            f"({o['key']}) {text_of(inline_markdown_html(o['text']))}" for o in q["options"]
        ]
        assert [t for _, t in options] == expected
        # The document's order is the paper's, not the stored one.
        order = built.paper.option_order(i)
        stored_texts = [item.content.option(k).text for k in order]
        assert [o["text"] for o in q["options"]] == stored_texts
        reordered += order != "ABCD"
    assert reordered > 0, "no option was reordered: the test would prove nothing"


def shown_html(html: str, number: int) -> str:
    start = html.index(f'<article class="question" id="q{number}"')
    return html[start : html.index("</article>", start)]


def test_the_answer_key_and_explanations_match_the_documents_keys(built: Built) -> None:
    html = paper_html(built.document)
    questions = built.document["questions"]
    key_html = html[html.index('id="answer-key"') : html.index('id="explanations"')]
    items = [(a["data-number"], a["data-key"]) for a, _ in _all_with(key_html, "data-number")]
    assert items == [(str(n), q["correct_key"]) for n, q in enumerate(questions, 1)]
    answers = [t for _, t in find(html, **{"class": "correct"})]
    for q, answer in zip(questions, answers, strict=True):
        text = next(o["text"] for o in q["options"] if o["key"] == q["correct_key"])
        assert answer == f"Answer ({q['correct_key']}) {text_of(inline_markdown_html(text))}"
    # The key and the explanations start on new pages when printed.
    assert 'class="answer-key page-break"' in html and 'class="explanations page-break"' in html


def _all_with(html: str, attribute: str) -> list[tuple[dict[str, str | None], str]]:
    return [(dict(attrs), tag) for tag, attrs in parsed(html) if attribute in dict(attrs)]


def test_the_paper_page_states_the_papers_facts(built: Built) -> None:
    html = paper_html(built.document)
    facts = {
        text_of(dt_): text_of(dd) for dt_, dd in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", html)
    }
    n = built.document["total_questions"]
    assert facts == {
        "Date": "25 November 2026",
        "Questions": str(n),
        "Maximum marks": str(4 * n),
        "Duration": f"{built.document['duration_minutes']} minutes",
        "Marking scheme": "+4 for a correct answer, \u22121 for a wrong one, 0 if unanswered",
    }
    sections = [t.split(" Questions ")[0] for _, t in find(html, **{"class": "subject"})]
    assert sections == ["Physics", "Chemistry", "Botany", "Zoology"]


def test_a_question_page_shows_stem_options_answer_and_explanation(built: Built) -> None:
    q = next(q for q in built.questions if q.content.format.value == "numerical")
    html = question_html(q)
    options = find(html, **{"class": "option"})
    assert [a["data-key"] for a, _ in options] == ["A", "B", "C", "D"]  # as stored
    assert [t for _, t in options] == [
        f"({o.key}) {text_of(inline_markdown_html(o.text))}" for o in q.content.options
    ]
    ((answer, _),) = find(html, id="answer")
    assert answer["data-key"] == q.content.correct_key
    assert find(html, id="explanation") and "<math" in html
    assert TEX_LEFT.search(" ".join(t for _, t in find(html, id="explanation"))) is None


def hostile_question(syllabus: Syllabus) -> Question:
    draft = sound_draft("phy-eom-final-velocity", syllabus, 1)
    c = draft.content
    options = list(c.options)
    options[1] = Option(key="B", text='<img src=x onerror="alert(1)"> $x$')
    content = c.model_copy(
        update={
            "stem_markdown": "<script>alert('stem')</script> [link](javascript:alert(1)) $v$",
            "options": tuple(options),
            "explanation_markdown": "<iframe src=//evil></iframe><svg onload=alert(1)>",
            "tag": c.tag.model_copy(update={"topic_name": "<script>alert('topic')</script>"}),
            "figures": (FigureRef(figure_id="f", caption="<script>alert('caption')</script>"),),
        }
    )
    return stored(content, draft.provenance)


def test_markup_in_a_question_never_becomes_a_script_or_handler(syllabus: Syllabus) -> None:
    q = hostile_question(syllabus)
    paper = Paper(
        exam_id="daily-2026-11-25",
        kind="daily",
        title="<script>alert('title')</script>",
        exam_date="2026-11-25",
        question_ids=(q.question_id,),
        blueprint="b",
        option_orders=("BADC",),
    )
    hostile = [Figure(caption='"><script>alert(1)</script>', src='x" onerror="alert(1)')]
    for html in (
        paper_html(paper_document(paper, [q]), {q.question_id: hostile}),
        question_html(q),
        question_html(q, hostile),
    ):
        elements = parsed(html)
        assert not {"script", "iframe", "svg"} & {tag for tag, _ in elements}
        attributes = [(name, value or "") for _, attrs in elements for name, value in attrs]
        assert not [name for name, _ in attributes if name.startswith("on")]
        assert not [v for _, v in attributes if v.strip().lower().startswith("javascript:")]
        assert "&lt;script&gt;" in html  # the topic and title are shown, as text


def test_figures_are_linked_relative_to_each_page(built: Built) -> None:
    q = next(q for q in built.questions if q.content.figures and not q.content.figures[0].spec)
    page = question_preview_key(q.question_id)
    figures = figures_for(q, page, {FIGURE_ID: FIGURE_KEY}.get)
    assert figures == (Figure(q.content.figures[0].caption, f"../../../{FIGURE_KEY}"),)
    html = question_html(q, figures)
    assert f'<img src="../../../{FIGURE_KEY}"' in html and "<figcaption>" in html
    # Unknown image: the caption alone.
    assert figures_for(q, page, lambda _: None)[0].src is None
    # A drawn figure's image is its published key, whatever `image_key` knows.
    drawn = next(q for q in built.questions if q.content.figures and q.content.figures[0].spec)
    (ref,) = drawn.content.figures
    page = question_preview_key(drawn.question_id)
    (shown,) = figures_for(drawn, page, lambda _: None)
    assert shown.src == f"../images/{ref.figure_id}.svg"
    assert (shown.alt, shown.width, shown.height) == (ref.alt, ref.width, ref.height)
    html = question_html(drawn, [shown])
    assert html.count("<img ") == 1 and f'width="{ref.width}"' in html
    assert "<img" not in question_html(q)


def test_write_previews_writes_each_page_once(tmp_path: Path, built: Built) -> None:
    store = LocalObjectStore(tmp_path / "store")
    n = len(built.questions)
    assert write_previews(store, built.document, built.questions) == n + 1
    assert store.exists(paper_preview_key("2026-11-25"))
    assert all(store.exists(question_preview_key(q.question_id)) for q in built.questions)
    assert write_previews(store, built.document, built.questions) == 0  # immutable, kept
    with pytest.raises(ValueError, match="no date"):
        write_previews(store, {**built.document, "date": None}, [])


# ── Headless Chromium ──────────────────────────────────────────────────────────────────────────

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
APT_PACKAGES = ("chromium", "chromium-driver")


@pytest.fixture(scope="session")
def chromium_paths() -> tuple[Path, Path]:
    """Chromium and its driver, installed on first use."""
    pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")
    ensure_debian_packages(
        APT_PACKAGES,
        lambda: CHROMIUM.exists() and CHROMEDRIVER.exists(),
        f"headless Chromium: {CHROMIUM} and {CHROMEDRIVER}",
    )
    return CHROMIUM, CHROMEDRIVER


@pytest.fixture(scope="module")
def browser(chromium_paths: tuple[Path, Path]) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver_path = chromium_paths
    options = webdriver.ChromeOptions()
    options.binary_location = str(binary)
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    options.add_argument("--window-size=1000,1400")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(driver_path)))
    try:
        yield driver
    finally:
        driver.quit()


def materialise(store: LocalObjectStore, site: Path) -> None:
    """The store's objects as plain files named by their keys, as a CDN would serve them."""
    for path in store.root.rglob("*" + OBJECT_SUFFIX):
        key = path.relative_to(store.root).as_posix().removesuffix(OBJECT_SUFFIX)
        (site / key).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, site / key)


def open_page(driver: Any, path: Path) -> dict[str, Any]:
    """Load a page, wait for it and its images, and report what the browser made of it."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get_log("browser")  # drop what earlier pages logged
    driver.get(path.as_uri())
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script(
            "return document.readyState === 'complete' && "
            "Array.from(document.images).every(i => i.complete)"
        )
    )
    facts: dict[str, Any] = driver.execute_script(
        """
        const maths = Array.from(document.querySelectorAll('math'));
        return {
          maths: maths.length,
          mathml: maths.every(m => m instanceof MathMLElement),
          mathWidth: Math.min(...maths.map(m => m.getBoundingClientRect().width)),
          text: document.body.innerText,
          scripts: document.scripts.length,
          keys: Array.from(document.querySelectorAll('#answer-key li'))
                     .map(li => [Number(li.dataset.number), li.dataset.key]),
          answer: document.querySelector('#answer')?.dataset.key ?? null,
          images: Array.from(document.images).map(i => [i.getAttribute('src'), i.naturalWidth]),
        };
        """
    )
    facts["console"] = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    return facts


def full_page_png(driver: Any) -> bytes:
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    size = metrics["cssContentSize"]
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
        },
    )
    return base64.b64decode(shot["data"])


def printed_pdf(driver: Any) -> bytes:
    pdf = driver.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True})
    return base64.b64decode(pdf["data"])


@pytest.mark.system
def test_previews_render_in_headless_chromium(tmp_path: Path, built: Built, browser: Any) -> None:
    from pypdf import PdfReader

    store = LocalObjectStore(tmp_path / "store")
    store.put_immutable(FIGURE_KEY, FIGURE_SVG.read_bytes())
    drawn = [q for q in built.questions if any(f.spec for f in q.content.figures)]
    assert len(drawn) >= 4 and len(write_figure_images(store, drawn)) == 3 * len(drawn)
    written = write_previews(store, built.document, built.questions, {FIGURE_ID: FIGURE_KEY}.get)
    assert written == len(built.questions) + 1
    site = tmp_path / "site"
    materialise(store, site)

    paper = open_page(browser, site / paper_preview_key("2026-11-25"))
    (tmp_path / "paper.png").write_bytes(full_page_png(browser))
    pdf = printed_pdf(browser)
    (tmp_path / "paper.pdf").write_bytes(pdf)
    assert paper["console"] == []
    assert paper["scripts"] == 0
    assert paper["maths"] > 0 and paper["mathml"] and paper["mathWidth"] > 0
    assert TEX_LEFT.search(paper["text"]) is None, TEX_LEFT.search(paper["text"])
    questions = built.document["questions"]
    assert paper["keys"] == [[n, q["correct_key"]] for n, q in enumerate(questions, 1)]
    assert len(paper["images"]) == 1 + len(drawn)
    assert all(width > 0 for _, width in paper["images"]), paper["images"]

    # Printed: A4 pages, and the answer key and the explanations each start a page.
    pages = PdfReader(io.BytesIO(pdf)).pages
    assert len(pages) >= 3
    width, height = float(pages[0].mediabox.width), float(pages[0].mediabox.height)
    assert (round(width), round(height)) == (595, 842)  # A4 in points
    footer = re.compile(r"\d+ / \d+")  # the page numbers the print CSS puts in the margin
    starts = [
        next((line for line in page.extract_text().splitlines() if not footer.fullmatch(line)), "")
        for page in pages
    ]
    assert "Answer key" in starts and "Explanations" in starts

    figure_q = next(q for q in built.questions if q.content.figures)
    for q in (figure_q, *(q for q in built.questions if q.content.format.value == "numerical")):
        page = open_page(browser, site / question_preview_key(q.question_id))
        assert page["console"] == [], (q.question_id, page["console"])
        assert page["maths"] > 0 and page["mathml"] and page["mathWidth"] > 0
        assert TEX_LEFT.search(page["text"]) is None
        assert page["answer"] == q.content.correct_key and page["scripts"] == 0
    page = open_page(browser, site / question_preview_key(figure_q.question_id))
    assert [width > 0 for _, width in page["images"]] == [True]
    (tmp_path / "question.png").write_bytes(full_page_png(browser))
    print(f"screenshots and PDF: {tmp_path}")
