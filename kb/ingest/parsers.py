"""Parsers from raw bytes to ParsedDocument, one per format. Pure apart from reading assets."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

from kb.ingest.model import (
    AssetReader,
    FigureSource,
    ImageBlob,
    IngestError,
    ParsedDocument,
    Section,
)
from kb.knowledge import parse_front_matter

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_IMAGE = re.compile(r'!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)(?:\s+"(?P<title>[^"]*)")?\)')


def decode_text(data: bytes, what: str) -> str:
    """UTF-8 text (a BOM is fine), or IngestError naming the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise IngestError(f"{what} is not UTF-8 text (bad byte at offset {exc.start})") from None


def _read_figure(src: str, read_asset: AssetReader) -> ImageBlob:
    return ImageBlob(data=read_asset(src), name=src.rsplit("/", 1)[-1])


# -- Markdown ---------------------------------------------------------------------------------


def parse_markdown(data: bytes, read_asset: AssetReader) -> ParsedDocument:
    """Sections follow ATX headings; front matter (optional) carries tags and licence."""
    text = decode_text(data, "Markdown file")
    meta: dict[str, str] = {}
    if text.startswith("---\n"):
        try:
            meta, text = parse_front_matter(text)
        except ValueError as exc:
            raise IngestError(f"bad front matter: {exc}") from None
    doc = ParsedDocument(format="markdown", title=meta.get("title", ""), meta=meta)
    path: list[str] = []
    buf: list[str] = []

    def flush() -> None:
        body = "\n".join(buf).strip()
        buf.clear()
        if body:
            where = " / ".join(path) or (doc.title or "body")
            doc.sections.append(
                Section(title=path[-1] if path else doc.title, text=body, where=where)
            )

    in_code = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
        m = None if in_code else _HEADING.match(line)
        if m:
            flush()
            level = len(m.group(1))
            path[:] = [*path[: level - 1], m.group(2)]
            if not doc.title and level == 1:
                doc.title = m.group(2)
            continue
        for im in _IMAGE.finditer(line):
            try:
                blob = _read_figure(im.group("src"), read_asset)
            except IngestError as exc:
                doc.warnings.append(str(exc))
                continue
            doc.figures.append(
                FigureSource(
                    images=(blob,),
                    caption=(im.group("title") or "").strip(),
                    alt=im.group("alt").strip(),
                    section=" / ".join(path),
                )
            )
        buf.append(_IMAGE.sub("", line))
    flush()
    return doc


# -- HTML -------------------------------------------------------------------------------------

_BLOCK = {"p", "li", "td", "th", "div", "blockquote", "pre", "dd", "dt", "br", "tr", "section"}
_SKIP = {"script", "style", "noscript", "template"}


class _HtmlCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.meta: dict[str, str] = {}
        self.sections: list[tuple[str, list[str]]] = [("", [])]
        self.figures: list[tuple[list[tuple[str, str]], list[str], str]] = []
        self._skip = 0
        self._in_title = False
        self._heading: list[str] | None = None
        self._figure: tuple[list[tuple[str, str]], list[str], str] | None = None
        self._in_caption = False
        self._math_depth = 0
        self._math_tex: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag in _SKIP:
            self._skip += 1
        elif tag == "title":
            self._in_title = True
        elif tag == "meta" and a.get("name"):
            self.meta[a["name"].lower()] = a.get("content", "")
        elif re.fullmatch(r"h[1-6]", tag):
            self._heading = []
        elif tag == "figure":
            self._figure = ([], [], self.sections[-1][0])
        elif tag == "figcaption":
            self._in_caption = True
        elif tag == "img":
            if self._figure is not None:
                self._figure[0].append((a.get("src", ""), a.get("alt", "")))
            else:
                self.figures.append(
                    ([(a.get("src", ""), a.get("alt", ""))], [], self.sections[-1][0])
                )
        elif tag == "math":
            self._math_depth += 1
            self._math_tex = None
        elif tag == "annotation" and a.get("encoding") == "application/x-tex":
            self._math_tex = ""
        if tag in _BLOCK:
            self.sections[-1][1].append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag == "title":
            self._in_title = False
        elif re.fullmatch(r"h[1-6]", tag) and self._heading is not None:
            self.sections.append(("".join(self._heading).strip(), []))
            self._heading = None
        elif tag == "figure" and self._figure is not None:
            self.figures.append(self._figure)
            self._figure = None
        elif tag == "figcaption":
            self._in_caption = False
        elif tag == "math":
            self._math_depth = max(0, self._math_depth - 1)
            if self._math_tex is not None:
                self.sections[-1][1].append(f" ${self._math_tex.strip()}$ ")
            self._math_tex = None
        if tag in _BLOCK:
            self.sections[-1][1].append("\n")

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._in_title:
            self.title += data
        elif self._math_depth:
            if self._math_tex is not None:
                self._math_tex += data
        elif self._heading is not None:
            self._heading.append(data)
        elif self._in_caption and self._figure is not None:
            self._figure[1].append(data)
        else:
            self.sections[-1][1].append(data)


def _clean(text: str) -> str:
    lines = [re.sub(r"[ \t]+", " ", ln).strip() for ln in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def parse_html(data: bytes, read_asset: AssetReader) -> ParsedDocument:
    """Sections follow h1–h6; <figure> with several <img> under one <figcaption> is one figure."""
    parser = _HtmlCollector()
    parser.feed(decode_text(data, "HTML file"))
    parser.close()
    doc = ParsedDocument(format="html", title=parser.title.strip(), meta=dict(parser.meta))
    if "license" in parser.meta:
        doc.meta["licence"] = parser.meta["license"]
    for title, parts in parser.sections:
        body = _clean("".join(parts))
        if body:
            doc.sections.append(Section(title=title or doc.title, text=body, where=title or "body"))
    for images, caption, section in parser.figures:
        blobs = []
        for src, _alt in images:
            try:
                blobs.append(_read_figure(src, read_asset))
            except IngestError as exc:
                doc.warnings.append(str(exc))
        if blobs:
            alt = "; ".join(a for _, a in images if a)
            doc.figures.append(FigureSource(tuple(blobs), _clean("".join(caption)), alt, section))
    return doc


# -- PDF --------------------------------------------------------------------------------------

_FIG_CAPTION = re.compile(
    r"^\s*(?:Fig\.|Figure)\s*[\d.]*[:.]?\s*(.+)$", re.IGNORECASE | re.MULTILINE
)


def parse_pdf(data: bytes, read_asset: AssetReader) -> ParsedDocument:
    """One section per page (pages are what a PDF reliably has); embedded images become figures."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise IngestError("encrypted PDF: decrypt it before ingesting")
        pages = list(reader.pages)
    except IngestError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise IngestError(f"not a readable PDF ({type(exc).__name__}: {exc})") from None
    info: dict[str, object] = dict(reader.metadata or {})
    title = str(info.get("/Title") or "")
    doc = ParsedDocument(format="pdf", title=title)
    if info.get("/License"):
        doc.meta["licence"] = str(info["/License"])
    for number, page in enumerate(pages, start=1):
        try:
            text = _clean(page.extract_text() or "")
        except Exception as exc:  # pypdf raises many kinds on damaged content streams
            raise IngestError(f"page {number} cannot be read ({type(exc).__name__})") from None
        if text:
            doc.sections.append(
                Section(title=f"page {number}", text=text, where=f"page {number}", page=number)
            )
        captions = [m.group(1).strip() for m in _FIG_CAPTION.finditer(text)]
        try:
            images = list(page.images)
        except Exception as exc:
            doc.warnings.append(f"page {number}: images not readable ({type(exc).__name__})")
            images = []
        for i, image in enumerate(images):
            caption = captions[i] if i < len(captions) else ""
            doc.figures.append(
                FigureSource((ImageBlob(image.data, image.name),), caption, "", f"page {number}")
            )
    return doc


# -- CNXML ------------------------------------------------------------------------------------

CNXML = "{http://cnx.rice.edu/cnxml}"
MATHML = "{http://www.w3.org/1998/Math/MathML}"
MD = "{http://cnx.rice.edu/mdml}"


def mathml_tex(el: ET.Element) -> str:
    """A TeX rendering of common presentation MathML (fractions, scripts, roots, rows)."""
    tag = el.tag.replace(MATHML, "")
    kids = list(el)
    if tag in {"mi", "mn", "mo", "mtext"}:
        text = (el.text or "").strip()
        return f"\\text{{{text}}}" if tag == "mtext" else text
    if tag == "mfrac" and len(kids) == 2:
        return f"\\frac{{{mathml_tex(kids[0])}}}{{{mathml_tex(kids[1])}}}"
    if tag == "msup" and len(kids) == 2:
        return f"{{{mathml_tex(kids[0])}}}^{{{mathml_tex(kids[1])}}}"
    if tag == "msub" and len(kids) == 2:
        return f"{{{mathml_tex(kids[0])}}}_{{{mathml_tex(kids[1])}}}"
    if tag == "msubsup" and len(kids) == 3:
        return f"{{{mathml_tex(kids[0])}}}_{{{mathml_tex(kids[1])}}}^{{{mathml_tex(kids[2])}}}"
    if tag == "msqrt":
        return f"\\sqrt{{{''.join(mathml_tex(k) for k in kids)}}}"
    if tag == "semantics" and kids:
        return mathml_tex(kids[0])
    if tag == "annotation":
        return ""
    return " ".join(t for t in (mathml_tex(k) for k in kids) if t)


def _inline_text(el: ET.Element) -> str:
    """Text of a CNXML element with MathML kept as $TeX$ and figures left out."""
    out = [el.text or ""]
    for child in el:
        if child.tag == f"{MATHML}math":
            out.append(f" ${mathml_tex(child)}$ ")
        elif child.tag not in {f"{CNXML}figure", f"{CNXML}media"}:
            out.append(_inline_text(child))
        out.append(child.tail or "")
    return "".join(out)


def parse_cnxml(data: bytes, read_asset: AssetReader) -> ParsedDocument:
    """OpenStax CNXML: sections with titles, paras with MathML, figures with media/image/caption."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise IngestError(f"not well-formed CNXML ({exc})") from None
    if root.tag != f"{CNXML}document":
        raise IngestError("not a CNXML document (root element is not cnxml:document)")
    title = (root.findtext(f"{CNXML}title") or "").strip()
    doc = ParsedDocument(format="cnxml", title=title)
    licence = root.find(f".//{MD}license")
    if licence is not None:
        doc.meta["licence"] = (licence.get("url") or licence.text or "").strip()
    content = root.find(f"{CNXML}content")
    if content is None:
        raise IngestError("CNXML document has no <content>")

    def walk(el: ET.Element, path: list[str]) -> None:
        paras: list[str] = []
        for child in el:
            if child.tag == f"{CNXML}section":
                walk(child, [*path, (child.findtext(f"{CNXML}title") or "").strip() or "section"])
            elif child.tag == f"{CNXML}figure":
                add_figure(child, path)
            elif child.tag in {
                f"{CNXML}para",
                f"{CNXML}equation",
                f"{CNXML}note",
                f"{CNXML}list",
                f"{CNXML}example",
            }:
                for fig in child.iter(f"{CNXML}figure"):
                    add_figure(fig, path)
                text = _clean(_inline_text(child))
                if text:
                    paras.append(text)
        if paras:
            where = " / ".join(path) or title or "content"
            doc.sections.append(
                Section(title=path[-1] if path else title, text="\n\n".join(paras), where=where)
            )

    def add_figure(fig: ET.Element, path: list[str]) -> None:
        blobs, alts = [], []
        for media in fig.iter(f"{CNXML}media"):
            if media.get("alt"):
                alts.append(media.get("alt", "").strip())
            for image in media.iter(f"{CNXML}image"):
                src = image.get("src", "")
                try:
                    blobs.append(_read_figure(src, read_asset))
                except IngestError as exc:
                    doc.warnings.append(str(exc))
        caption_el = fig.find(f"{CNXML}caption")
        caption = _clean(_inline_text(caption_el)) if caption_el is not None else ""
        if blobs:
            doc.figures.append(
                FigureSource(tuple(blobs), caption, "; ".join(alts), " / ".join(path))
            )

    walk(content, [])
    return doc


PARSERS = {
    ".md": parse_markdown,
    ".markdown": parse_markdown,
    ".html": parse_html,
    ".htm": parse_html,
    ".pdf": parse_pdf,
    ".cnxml": parse_cnxml,
}
