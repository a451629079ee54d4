"""The two public renderings of one canonical question (Daily and Stored), field names exact."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from core.records import IDENTITY_ORDER, OPTION_KEYS, FigureRef, Question
from core.render import inline_markdown_html, markdown_html

# Question figures are immutable images addressed by their content hash (pipeline.figures.svg).
FIGURES_PREFIX = "api/v1/images/"
FIGURE_SUFFIX = ".svg"


def figure_key(figure_id: str) -> str:
    """The object key of a drawn figure's SVG."""
    return f"{FIGURES_PREFIX}{figure_id}{FIGURE_SUFFIX}"


def drawn_figures(question: Question) -> tuple[FigureRef, ...]:
    """The figures a question shows that are drawn from a spec (and so are published images).

    A knowledge-store figure a model's draft cites has no spec: it is context, not published.
    """
    return tuple(f for f in question.content.figures if f.spec is not None)


def figures_block(figures: tuple[FigureRef, ...]) -> list[dict[str, Any]]:
    """The additive `figures` array of both question shapes."""
    return [
        {
            "url": "/" + figure_key(f.figure_id),
            "alt": f.alt,
            "caption": f.caption,
            "width": f.width,
            "height": f.height,
        }
        for f in figures
    ]


def _markdown_alt(text: str) -> str:
    """Alt text safe inside Markdown's `![…]`: brackets and backslashes escaped, one line."""
    flat = " ".join(text.split())
    return flat.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def stem_with_figures_markdown(stem: str, figures: tuple[FigureRef, ...]) -> str:
    """The stem followed by its figures as Markdown images (the stem refers to "the figure")."""
    images = [f"![{_markdown_alt(f.alt)}](/{figure_key(f.figure_id)})" for f in figures]
    return "\n\n".join([stem, *images])


_FIGURE_IMAGE_MARKDOWN = re.compile(
    r"\n\n!\[(?:[^\]\\]|\\.)*\]\(/" + re.escape(FIGURES_PREFIX) + r"fig-[0-9a-f]+\.svg\)$"
)


def stem_without_figures_markdown(stem_markdown: str) -> str:
    """A published stem without the figure images `stem_with_figures_markdown` appended."""
    while (m := _FIGURE_IMAGE_MARKDOWN.search(stem_markdown)) is not None:
        stem_markdown = stem_markdown[: m.start()]
    return stem_markdown


def stem_with_figures_html(stem: str, figures: tuple[FigureRef, ...]) -> str:
    """The stem's HTML followed by each figure as an `<img>` with alt, width and height."""
    images = [
        f'<p><img src="/{html.escape(figure_key(f.figure_id))}" '
        f'alt="{html.escape(" ".join(f.alt.split()))}"'
        f' width="{f.width}" height="{f.height}"></p>'
        for f in figures
    ]
    return "\n".join([markdown_html(stem), *images])


def daily_question(question: Question, option_order: str = IDENTITY_ORDER) -> dict[str, Any]:
    """The Daily question shape (2.2), options in the paper's order (keys stay A to D)."""
    c = question.content
    figures = drawn_figures(question)
    document: dict[str, Any] = {
        "id": question.question_id,
        "subject": c.tag.subject.value,
        "topic": c.tag.topic_name,
        "stem_markdown": stem_with_figures_markdown(c.stem_markdown, figures),
        "options": [
            {"key": key, "text": c.option(stored).text}
            for key, stored in zip(OPTION_KEYS, option_order, strict=True)
        ],
        "correct_key": OPTION_KEYS[option_order.index(c.correct_key)],
        "explanation_markdown": c.explanation_markdown,
    }
    # Only a question with a figure has the key, so every other file keeps its exact bytes.
    if figures:
        document["figures"] = figures_block(figures)
    return document


def stored_question(question: Question) -> dict[str, Any]:
    """The Stored question shape (2.3): sanitised HTML with MathML and one `is_correct` option."""
    c = question.content
    figures = drawn_figures(question)
    document: dict[str, Any] = {
        "id": question.question_id,
        "subject": c.tag.subject.value,
        "topic": c.tag.topic_name,
        "difficulty": c.difficulty.value,
        "stem_html": stem_with_figures_html(c.stem_markdown, figures),
        "options": [
            {
                "id": o.key,
                "text_html": inline_markdown_html(o.text),
                "is_correct": o.key == c.correct_key,
            }
            for o in c.options
        ],
        "explanation_html": markdown_html(c.explanation_markdown),
    }
    if figures:
        document["figures"] = figures_block(figures)
    return document


def question_file_bytes(question: Question) -> bytes:
    """The published bytes of a question's file (2.3): stable, compact, UTF-8 JSON."""
    document = stored_question(question)
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
