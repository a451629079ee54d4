"""Printable HTML previews of a daily paper and of each question: Jinja2, MathML, print CSS."""

from __future__ import annotations

import datetime as dt
import posixpath
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from core.records import Question
from core.render import inline_markdown_html, markdown_html
from core.shapes import figure_key, stem_without_figures_markdown, stored_question
from core.storage import ObjectStore, validate_key
from site_builder.documents import daily_paper_key, question_key
from site_builder.integrity import complete_document, put_published

TEMPLATES_DIR = Path(__file__).parent / "templates"
PREVIEW_SUFFIX = ".html"
# Options whose Markdown sources are all at most this long are laid out in two columns.
SHORT_OPTION_CHARS = 48

# A figure's id → the object-store key of its image (None when it has none to show).
ImageKey = Callable[[str], str | None]


@dataclass(frozen=True)
class Figure:
    """A figure as a preview shows it: its caption (Markdown) and its image URL, if any."""

    caption: str
    src: str | None = None
    alt: str = ""
    width: int = 0
    height: int = 0


def paper_preview_key(date: str) -> str:
    """Key of a dated paper's preview, beside its JSON: api/v1/exams/daily/<date>.html."""
    return daily_paper_key(date) + PREVIEW_SUFFIX


def question_preview_key(question_id: str) -> str:
    """Key of a question's preview, beside its JSON: api/v1/questions/<id>.html."""
    return question_key(question_id) + PREVIEW_SUFFIX


def relative_url(page_key: str, target_key: str) -> str:
    """The URL of one object-store key relative to a page at another (both validated)."""
    page, target = validate_key(page_key), validate_key(target_key)
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def figures_for(
    question: Question, page_key: str, image_key: ImageKey | None = None
) -> tuple[Figure, ...]:
    """A question's figures for a page at page_key: captions, and image URLs where known.

    A drawn figure's image is always known (its published key); a cited knowledge-store
    figure's comes from `image_key`.
    """
    out = []
    for ref in question.content.figures:
        key = image_key(ref.figure_id) if image_key is not None else None
        if key is None and ref.spec is not None:
            key = figure_key(ref.figure_id)
        src = relative_url(page_key, key) if key else None
        out.append(Figure(ref.caption, src, ref.alt, ref.width, ref.height))
    return tuple(out)


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _figure_views(figures: Sequence[Figure]) -> list[dict[str, Any]]:
    return [
        {
            "caption": f.caption,
            "caption_html": Markup(inline_markdown_html(f.caption)),
            "src": f.src,
            "alt": f.alt,
            "width": f.width,
            "height": f.height,
        }
        for f in figures
    ]


def _layout(option_sources: Sequence[str]) -> str:
    return "short" if max(len(s) for s in option_sources) <= SHORT_OPTION_CHARS else "long"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def _marking_text(marking: Mapping[str, int] | None) -> str | None:
    if not marking:
        return None
    return (
        f"{_signed(marking['correct'])} for a correct answer, "
        f"{_signed(marking['wrong'])} for a wrong one, "
        f"{_signed(marking['unanswered'])} if unanswered"
    )


def _date_text(date: str | None) -> str | None:
    if not date:
        return None
    day = dt.date.fromisoformat(date)
    return f"{day.day} {day:%B %Y}"


def _paper_item(number: int, q: Mapping[str, Any], figures: Sequence[Figure]) -> dict[str, Any]:
    # The document's stem ends with its figures as Markdown images whose URLs are relative to
    # the site's root; the page shows them as figures instead, linked relative to the page.
    options = [
        {"key": o["key"], "html": Markup(inline_markdown_html(o["text"]))} for o in q["options"]
    ]
    correct = next(o for o in options if o["key"] == q["correct_key"])
    return {
        "number": number,
        "id": q["id"],
        "subject": q["subject"],
        "topic": q["topic"],
        "stem": Markup(markdown_html(stem_without_figures_markdown(q["stem_markdown"]))),
        "options": options,
        "layout": _layout([o["text"] for o in q["options"]]),
        "figures": _figure_views(figures),
        "correct_key": q["correct_key"],
        "correct_html": correct["html"],
        "explanation": Markup(markdown_html(q["explanation_markdown"])),
    }


def _sections(items: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive questions of one subject, as the paper's subject sections."""
    sections: list[dict[str, Any]] = []
    for item in items:
        if not sections or sections[-1]["subject"] != item["subject"]:
            sections.append({"subject": item["subject"], "items": []})
        sections[-1]["items"].append(item)
    for s in sections:
        s["first"], s["last"] = s["items"][0]["number"], s["items"][-1]["number"]
    return sections


def paper_html(
    document: Mapping[str, Any], figures: Mapping[str, Sequence[Figure]] | None = None
) -> str:
    """A printable page of a paper document (the Daily exam JSON): questions, key, explanations.

    The document's options are already in the paper's order. It names no figures, so a
    question's figures come in `figures`, by question id.
    """
    figures = figures or {}
    items = [
        _paper_item(i, q, figures.get(q["id"], ())) for i, q in enumerate(document["questions"], 1)
    ]
    duration = document.get("duration_minutes")
    paper = {
        "exam_id": document["exam_id"],
        "title": document["title"],
        "date": document.get("date"),
        "date_text": _date_text(document.get("date")),
        "total_questions": document["total_questions"],
        "total_marks": document.get("total_marks"),
        "marking": _marking_text(document.get("marking")),
        "duration": f"{duration} minutes" if duration else None,
        "sections": _sections(items),
    }
    return _environment().get_template("paper.html.j2").render(paper=paper)


def question_html(question: Question, figures: Sequence[Figure] | None = None) -> str:
    """A printable page of one stored question: stem, options, answer and explanation.

    Without `figures`, the question's own figures are shown by caption only.
    """
    doc = stored_question(question)
    shown = (
        figures if figures is not None else [Figure(f.caption) for f in question.content.figures]
    )
    options = [{"key": o["id"], "html": Markup(o["text_html"])} for o in doc["options"]]
    correct = next(o for o in doc["options"] if o["is_correct"])
    view = {
        "id": doc["id"],
        "subject": doc["subject"],
        "topic": doc["topic"],
        "difficulty": doc["difficulty"],
        "stem": Markup(markdown_html(question.content.stem_markdown)),
        "options": options,
        "layout": _layout([o.text for o in question.content.options]),
        "figures": _figure_views(shown),
        "correct_key": correct["id"],
        "correct_html": Markup(correct["text_html"]),
        "explanation": Markup(doc["explanation_html"]),
    }
    return _environment().get_template("question.html.j2").render(q=view)


def write_previews(
    store: ObjectStore,
    paper_document: Mapping[str, Any],
    questions: Sequence[Question],
    image_key: ImageKey | None = None,
) -> int:
    """Write a question page per question, then the paper's page; returns how many were new.

    Each key is written once and then left alone, even when the templates have changed since:
    preview files are served as immutable, like the JSON beside them. A page that is not whole
    (cut off by a full disk) is written again.
    The paper's figures come from `questions` (the JSON document names none).
    """
    date = paper_document.get("date")
    if not date:
        raise ValueError(f"paper {paper_document.get('exam_id')} has no date: no preview key")
    written = 0
    for q in questions:
        key = question_preview_key(q.question_id)
        if not _whole(store, key):
            page = question_html(q, figures_for(q, key, image_key))
            written += put_published(store, key, page.encode("utf-8"), q.question_id)
    key = paper_preview_key(date)
    if not _whole(store, key):
        figures = {q.question_id: figures_for(q, key, image_key) for q in questions}
        page = paper_html(paper_document, figures)
        written += put_published(store, key, page.encode("utf-8"), str(date))
    return written


def _whole(store: ObjectStore, key: str) -> bool:
    """The key holds a complete page (a cut-off one is written again, see integrity)."""
    data = store.get(key)
    return data is not None and complete_document(key, data)
