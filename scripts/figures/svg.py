"""A tiny deterministic SVG writer: enough for graphs, ray diagrams, circuits and schematics."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

Point = tuple[float, float]


def _num(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


@dataclass
class Svg:
    """An SVG canvas; elements are appended in drawing order. Output is byte-for-byte stable."""

    width: int
    height: int
    title: str
    parts: list[str] = field(default_factory=list)

    def line(
        self,
        a: Point,
        b: Point,
        stroke: str = "#222",
        width: float = 2,
        dash: str | None = None,
        arrow: bool = False,
    ) -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        extra += ' marker-end="url(#arrow)"' if arrow else ""
        self.parts.append(
            f'<line x1="{_num(a[0])}" y1="{_num(a[1])}" x2="{_num(b[0])}" y2="{_num(b[1])}" '
            f'stroke="{stroke}" stroke-width="{_num(width)}"{extra}/>'
        )

    def polyline(
        self,
        points: Sequence[Point],
        stroke: str = "#222",
        width: float = 2,
        fill: str = "none",
        closed: bool = False,
        dash: str | None = None,
        arrow: bool = False,
    ) -> None:
        tag = "polygon" if closed else "polyline"
        pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        extra += ' marker-end="url(#arrow)"' if arrow else ""
        self.parts.append(
            f'<{tag} points="{pts}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{_num(width)}"{extra}/>'
        )

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str = "none",
        stroke: str = "#222",
        width: float = 2,
        rx: float = 0,
    ) -> None:
        self.parts.append(
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
            f'rx="{_num(rx)}" fill="{fill}" stroke="{stroke}" stroke-width="{_num(width)}"/>'
        )

    def circle(
        self, c: Point, r: float, fill: str = "none", stroke: str = "#222", width: float = 2
    ) -> None:
        self.parts.append(
            f'<circle cx="{_num(c[0])}" cy="{_num(c[1])}" r="{_num(r)}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{_num(width)}"/>'
        )

    def ellipse(
        self,
        c: Point,
        rx: float,
        ry: float,
        fill: str = "none",
        stroke: str = "#222",
        width: float = 2,
    ) -> None:
        self.parts.append(
            f'<ellipse cx="{_num(c[0])}" cy="{_num(c[1])}" rx="{_num(rx)}" ry="{_num(ry)}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{_num(width)}"/>'
        )

    def path(self, d: str, stroke: str = "#222", width: float = 2, fill: str = "none") -> None:
        self.parts.append(
            f'<path d="{escape(d)}" fill="{fill}" stroke="{stroke}" stroke-width="{_num(width)}"/>'
        )

    def text(
        self,
        at: Point,
        s: str,
        size: float = 14,
        anchor: str = "middle",
        weight: str = "normal",
        fill: str = "#111",
        italic: bool = False,
    ) -> None:
        style = ' font-style="italic"' if italic else ""
        self.parts.append(
            f'<text x="{_num(at[0])}" y="{_num(at[1])}" font-size="{_num(size)}" '
            f'text-anchor="{anchor}" font-weight="{weight}" fill="{fill}"{style}>{escape(s)}</text>'
        )

    def axes(self, box: tuple[float, float, float, float], xlabel: str, ylabel: str) -> None:
        """x and y axes with arrows along the bottom-left of box (x, y, w, h), labelled."""
        x, y, w, h = box
        self.line((x, y + h), (x + w + 10, y + h), arrow=True)
        self.line((x, y + h), (x, y - 10), arrow=True)
        self.text((x + w + 12, y + h + 20), xlabel, anchor="end")
        self.text((x - 8, y - 16), ylabel, anchor="start")

    def plot(
        self,
        box: tuple[float, float, float, float],
        xs: Sequence[float],
        ys: Sequence[float],
        xrange: tuple[float, float],
        yrange: tuple[float, float],
        stroke: str = "#c0392b",
        width: float = 2.5,
        dash: str | None = None,
    ) -> None:
        """A data curve mapped from (xrange, yrange) into box (x, y, w, h), y upwards."""
        x, y, w, h = box
        (x0, x1), (y0, y1) = xrange, yrange
        pts = [
            (x + (a - x0) / (x1 - x0) * w, y + h - (b - y0) / (y1 - y0) * h)
            for a, b in zip(xs, ys, strict=True)
        ]
        self.polyline(pts, stroke=stroke, width=width, dash=dash)

    def to_string(self) -> str:
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
            f'height="{self.height}" viewBox="0 0 {self.width} {self.height}" '
            f'font-family="DejaVu Sans, Arial, sans-serif">'
            f"<title>{escape(self.title)}</title>"
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            'fill="#222"/></marker></defs>'
            f'<rect width="{self.width}" height="{self.height}" fill="white"/>'
        )
        return head + "".join(self.parts) + "</svg>\n"

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_string(), encoding="utf-8")
