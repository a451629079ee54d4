"""SVG as a question figure: its content-hash id, its sanitising, and the text a student reads.

A figure's image is immutable and addressed by the hash of its bytes, so the same spec must
always draw the same bytes (every renderer is deterministic; tests hold them to it). Before an
image is published it passes `unsafe_svg`: no script, no event handler, no reference outside
the file, so a picture can never run code or call home in a student's browser.
"""

from __future__ import annotations

import hashlib
import re
from xml.etree import ElementTree

FIGURE_PREFIX = "fig-"
FIGURE_HEX_CHARS = 20
SVG_MEDIA_TYPE = "image/svg+xml"
FIGURE_ID_PATTERN = rf"^{FIGURE_PREFIX}[0-9a-f]{{{FIGURE_HEX_CHARS}}}$"

# Elements that run code, pull in other documents or rewrite attributes when shown (an
# animation can set an `href` to a script URL); no figure of ours needs any of them.
FORBIDDEN_ELEMENTS = frozenset(
    {
        "script", "foreignObject", "iframe", "embed", "object", "audio", "video", "handler",
        "set", "animate", "animateMotion", "animateTransform", "animateColor", "discard",
    }
)  # fmt: skip
# In any attribute or style text: a reference that is not to a fragment of the file itself, a
# script URL, an old browser's CSS expression, a CSS escape (which could spell any of those).
_UNSAFE_VALUE = re.compile(
    r"url\(\s*['\"]?\s*(?!#)|@import|javascript\s*:|expression\s*\(|\\", re.I
)
# Before the root: only the XML declaration (no DOCTYPE, whose entities could expand, and no
# processing instruction, such as a style sheet to fetch).
_PROLOGUE_MARKUP = re.compile(r"<!DOCTYPE|<!ENTITY|<\?(?!xml\s)", re.I)


class UnsafeSvgError(ValueError):
    """An SVG that could run code or fetch something when shown: never published."""


def figure_id_of(svg: str) -> str:
    """The id (and image key) of a figure: `fig-` and a hash of its SVG bytes."""
    return FIGURE_PREFIX + hashlib.sha256(svg.encode("utf-8")).hexdigest()[:FIGURE_HEX_CHARS]


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def unsafe_svg(svg: str) -> str | None:
    """Why an SVG is unsafe to publish (a script, an event attribute, an animation, a reference
    outside the file, a DOCTYPE or processing instruction, not SVG at all), or None when safe."""
    if (found := _PROLOGUE_MARKUP.search(svg)) is not None:
        return f"markup outside the drawing: {found.group(0)!r}"
    try:
        root = ElementTree.fromstring(svg)
    except ElementTree.ParseError as err:
        return f"not well-formed XML: {err}"
    if _local(root.tag) != "svg":
        return f"the root element is <{_local(root.tag)}>, not <svg>"
    for node in root.iter():
        name = _local(node.tag) if isinstance(node.tag, str) else ""
        if name in FORBIDDEN_ELEMENTS:
            return f"<{name}> element"
        for attr, value in node.attrib.items():
            local = _local(attr)
            if local.lower().startswith("on"):
                return f"event attribute {local!r} on <{name}>"
            if local == "href" and not value.strip().startswith("#"):
                return f"external reference {value[:60]!r} on <{name}>"
            if local == "base":
                return f"xml:base on <{name}>"
            if _UNSAFE_VALUE.search(value):
                return f"external reference or script in {local!r} of <{name}>"
        if name == "style" and _UNSAFE_VALUE.search("".join(node.itertext())):
            return "external reference or script in a <style> element"
    return None


def checked_svg(svg: str) -> str:
    """The SVG itself when it is safe to publish; UnsafeSvgError (with the reason) otherwise."""
    reason = unsafe_svg(svg)
    if reason is not None:
        raise UnsafeSvgError(reason)
    return svg


def svg_texts(svg: str) -> list[str]:
    """What each <text> element of the picture prints (its tspans joined), in document order."""
    root = ElementTree.fromstring(svg)
    texts = (
        " ".join("".join(node.itertext()).split())
        for node in root.iter()
        if isinstance(node.tag, str) and _local(node.tag) == "text"
    )
    return [t for t in texts if t]


def printed(svg: str, value: str) -> bool:
    """Whether a value or label is printed in the picture: in one text element's content, or
    across the pieces of one text element (a value and its unit in two tspans)."""
    want = " ".join(value.split())
    return any(
        want in text or want.replace(" ", "") in text.replace(" ", "") for text in svg_texts(svg)
    )


def svg_size(svg: str) -> tuple[int, int]:
    """The picture's width and height in CSS pixels (from width/height, else the viewBox)."""
    root = ElementTree.fromstring(svg)

    def px(value: str | None) -> float | None:
        if not value:
            return None
        m = re.fullmatch(r"\s*([0-9.]+)\s*(px|pt)?\s*", value)
        if not m:
            return None
        return float(m.group(1)) * (4 / 3 if m.group(2) == "pt" else 1)

    w, h = px(root.get("width")), px(root.get("height"))
    if w is None or h is None:
        box = [float(v) for v in (root.get("viewBox") or "0 0 0 0").replace(",", " ").split()]
        w, h = box[2], box[3]
    return round(w), round(h)
