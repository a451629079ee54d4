"""Markdown with LaTeX → HTML with MathML, sanitised: no question can run a script."""

from __future__ import annotations

import html
import re
import threading
from functools import lru_cache

import latex2mathml.converter
import markdown
import nh3

MATHML_TAGS = frozenset(
    [
        "math",
        "annotation",
        "maction",
        "menclose",
        "merror",
        "mfenced",
        "mfrac",
        "mi",
        "mmultiscripts",
        "mn",
        "mo",
        "mover",
        "mpadded",
        "mphantom",
        "mprescripts",
        "mroot",
        "mrow",
        "ms",
        "mspace",
        "msqrt",
        "mstyle",
        "msub",
        "msubsup",
        "msup",
        "mtable",
        "mtd",
        "mtext",
        "mtr",
        "munder",
        "munderover",
        "semantics",
        "none",
    ]
)
MATHML_ATTRIBUTES = frozenset(
    [
        "display",
        "xmlns",
        "mathvariant",
        "width",
        "height",
        "depth",
        "lspace",
        "rspace",
        "stretchy",
        "fence",
        "separator",
        "accent",
        "accentunder",
        "columnalign",
        "rowalign",
        "columnspacing",
        "rowspacing",
        "columnlines",
        "rowlines",
        "frame",
        "linethickness",
        "minsize",
        "maxsize",
        "movablelimits",
        "notation",
        "open",
        "close",
        "separators",
        "scriptlevel",
        "displaystyle",
        "largeop",
        "symmetric",
        "form",
    ]
)
HTML_TAGS = frozenset(nh3.ALLOWED_TAGS) | MATHML_TAGS
HTML_ATTRIBUTES: dict[str, set[str]] = {
    **{tag: set(attrs) for tag, attrs in nh3.ALLOWED_ATTRIBUTES.items()},
    **{tag: set(MATHML_ATTRIBUTES) for tag in MATHML_TAGS},
}
# Scripts and styles go with their content, not just their tags.
CLEAN_CONTENT_TAGS = frozenset({"script", "style", "iframe", "object", "embed", "template"})

_MATH_SPAN = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">\\(?P<open>[(\[])(?P<tex>.*?)\\[)\]]</(?P=tag)>',
    re.DOTALL,
)


_local = threading.local()


def _markdown() -> markdown.Markdown:
    """This thread's converter: building one costs far more than converting a stem with it."""
    md: markdown.Markdown | None = getattr(_local, "md", None)
    if md is None:
        md = _local.md = markdown.Markdown(
            extensions=["pymdownx.arithmatex", "tables", "sane_lists"],
            extension_configs={"pymdownx.arithmatex": {"generic": True}},
        )
    return md.reset()


@lru_cache(maxsize=4096)
def tex_to_mathml(tex: str, display: bool) -> str:
    """MathML for a TeX fragment, or the escaped TeX in <code> when it does not parse."""
    try:
        mathml = latex2mathml.converter.convert(tex, display="block" if display else "inline")
    except Exception:  # latex2mathml raises many kinds of errors on bad TeX
        return f"<code>{html.escape(tex)}</code>"
    return mathml


def _replace_math(match: re.Match[str]) -> str:
    tex = html.unescape(match.group("tex")).strip()
    return tex_to_mathml(tex, display=match.group("open") == "[")


_CLEANER = nh3.Cleaner(
    tags=set(HTML_TAGS),
    attributes=HTML_ATTRIBUTES,
    clean_content_tags=set(CLEAN_CONTENT_TAGS),
    url_schemes={"http", "https", "mailto"},
    link_rel="noopener noreferrer",
)


def sanitize_html(fragment: str) -> str:
    """Drop every tag, attribute and URL scheme not on the allow-lists."""
    return _CLEANER.clean(fragment)


# A one-paragraph text whose prose holds none of Markdown's syntax characters renders to
# <p>escaped prose + MathML</p>, which needs neither the Markdown parser nor a fresh sanitiser
# pass: most stems and options. `tests/test_render.py` checks it gives the same bytes.
_PLAIN_PROSE = re.compile(r"[^*_`\[\]#|<>&\\\n!~$\u00a0]*")
_INLINE_MATH = re.compile(r"\$([^$\s](?:[^$]*[^$\s])?)\$")
_BLOCK_START = re.compile(r"(?:[-+>#]|\d+[.)])")


@lru_cache(maxsize=16384)
def _inline_math_html(tex: str) -> str:
    return sanitize_html(tex_to_mathml(tex.strip(), display=False))


def _plain_paragraph_html(text: str) -> str | None:
    """The fast rendering of plain paragraphs, or None when Markdown is needed."""
    paragraphs = [p.strip() for p in text.strip().split("\n\n")]
    out = []
    for body in paragraphs:
        if not body or "\n" in body or _BLOCK_START.match(body):
            return None
        parts = _INLINE_MATH.split(body)
        if not all(_PLAIN_PROSE.fullmatch(p) for p in parts[0::2]):
            return None
        rendered = [
            _inline_math_html(p) if i % 2 else html.escape(p, quote=False)
            for i, p in enumerate(parts)
        ]
        out.append("<p>" + "".join(rendered) + "</p>")
    return "\n".join(out)


# Options and explanations repeat across questions ("Both A and R are true…", "$2.00\ m$").
@lru_cache(maxsize=65536)
def markdown_html(text: str) -> str:
    """Sanitised HTML for Markdown source with $…$ and $$…$$ math rendered as MathML."""
    fast = _plain_paragraph_html(text)
    if fast is not None:
        return fast
    return _full_markdown_html(text)


def _full_markdown_html(text: str) -> str:
    rendered = _markdown().convert(text)
    with_math = _MATH_SPAN.sub(_replace_math, rendered)
    return sanitize_html(with_math).strip()


def inline_markdown_html(text: str) -> str:
    """Like markdown_html, without the wrapping <p> for a one-paragraph text (option labels)."""
    out = markdown_html(text)
    if out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1:
        return out[3:-4]
    return out


# What a Markdown renderer without a math engine would turn into live HTML: a tag opening
# (`<` straight before a name, `/`, `!` or `?`) or a script URL, inside `$…$` as much as out of
# it. TeX needs none of these (`a < b` with a space stays text; `\lt` exists).
_LIVE_MARKUP = re.compile(
    r"<[/!?]?[A-Za-z]|(?:java|vb)script\s*:|data\s*:\s*text/html", re.IGNORECASE
)


def live_markup(markdown_text: str) -> str | None:
    """The first piece of live markup in published Markdown (math included), or None."""
    found = _LIVE_MARKUP.search(markdown_text)
    return None if found is None else markdown_text[found.start() : found.start() + 24]


def published_markup(document: object, where: str = "") -> list[str]:
    """Where a published document's Markdown fields hold live markup: every string under a key
    ending in `_markdown`, and the `text` of options (the Daily question shape)."""
    found: list[str] = []
    if isinstance(document, dict):
        for key, value in document.items():
            here = f"{where}.{key}" if where else str(key)
            if isinstance(value, str) and (key.endswith("_markdown") or key == "text"):
                if (snippet := live_markup(value)) is not None:
                    found.append(f"{here}: {snippet!r}")
            else:
                found += published_markup(value, here)
    elif isinstance(document, list):
        for i, item in enumerate(document):
            label = item.get("id") if isinstance(item, dict) and "id" in item else i
            found += published_markup(item, f"{where}[{label}]")
    return found
