"""The graph figures' renderer: a spec drawn with matplotlib's SVG backend, deterministically.

No pyplot (no global figure state): a `Figure` on a `FigureCanvasSVG`, drawn under fixed rc
parameters (text kept as <text> elements, a fixed id salt, no date or creator in the file), so
one spec always gives the same bytes. Tick labels are set as strings (`tick_text`), each tick
has a faint grid line, and labelled points get dashed guide lines to both axes.
"""

from __future__ import annotations

import io
import math
import re
import threading
from typing import Any

from matplotlib import rc_context
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure
from matplotlib.typing import RcKeyType

from core.figures import GraphSpec
from core.figures.graph import Axis, Mark, tick_text

RC: dict[RcKeyType, Any] = {
    "svg.fonttype": "none",
    "svg.hashsalt": "qforge",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9.0,
    "axes.unicode_minus": False,
    "axes.linewidth": 0.9,
    "path.simplify": False,
}
WIDTH_IN, HEIGHT_IN = 4.2, 3.1
INK = "#1a1a1a"
GRID = "#d6d6d6"
GUIDE = "#555555"
SERIES_STYLES = ("-", "--", "-.", ":")
# rc_context sets matplotlib's global rcParams and restores them on exit: two graphs drawn at
# once (the worker's threads) would draw under each other's settings and give other bytes,
# which a figure's hash-named id cannot survive. One drawing at a time.
_LOCK = threading.Lock()


def _limits(axis: Axis) -> tuple[float, float]:
    return axis.low, axis.high


_DOCTYPE = re.compile(r"<!DOCTYPE[^>]*>\s*")


def graph_svg(spec: GraphSpec) -> str:
    """The graph's SVG: axes with titled, ticked, gridded scales; the series; labelled points."""
    with _LOCK, rc_context(RC):
        fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN))
        FigureCanvasSVG(fig)
        ax = fig.add_axes((0.16, 0.16, 0.78, 0.76))
        x0, x1 = _limits(spec.x)
        y0, y1 = _limits(spec.y)
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)
        ax.set_xticks(spec.x.ticks, labels=[tick_text(t) for t in spec.x.ticks])
        ax.set_yticks(spec.y.ticks, labels=[tick_text(t) for t in spec.y.ticks])
        ax.grid(True, color=GRID, linewidth=0.6)
        ax.set_axisbelow(True)
        ax.tick_params(colors=INK, labelsize=8.5, length=3)
        ax.spines["top"].set_visible(False)
        ax.spines["right"].set_visible(False)
        # An axis crosses the other at zero when zero is inside its range (a v–t graph's time
        # axis at v = 0), as textbook graphs draw it.
        crossing = y0 < 0 < y1 and x0 <= 0  # not when the x-axis starts away from zero (1/T)
        if crossing:
            ax.spines["bottom"].set_position(("data", 0.0))
        if x0 < 0 < x1:
            ax.spines["left"].set_position(("data", 0.0))
        ax.set_xlabel(spec.x.label, color=INK)
        if crossing:  # the time axis runs through the middle: its title at its right end
            ax.xaxis.set_label_coords(1.0, (0 - y0) / (y1 - y0) + 0.03)
            ax.xaxis.label.set_horizontalalignment("right")
            ax.xaxis.label.set_verticalalignment("bottom")
        ax.set_ylabel(spec.y.label, color=INK)
        base_x = 0.0 if x0 <= 0 <= x1 else x0
        base_y = 0.0 if crossing or y0 == 0 else y0
        for i, series in enumerate(spec.series):
            xs = [p[0] for p in series.points]
            ys = [p[1] for p in series.points]
            ax.plot(xs, ys, color=INK, linewidth=1.6, linestyle=SERIES_STYLES[i % 4])
            if series.arrows:
                for (ax_, ay), (bx, by) in zip(series.points, series.points[1:], strict=False):
                    mx, my = (ax_ + bx) / 2, (ay + by) / 2
                    dx, dy = (bx - ax_) * 0.02, (by - ay) * 0.02
                    ax.annotate(
                        "",
                        xy=(mx + dx, my + dy),
                        xytext=(mx - dx, my - dy),
                        arrowprops={"arrowstyle": "-|>", "color": INK, "lw": 1.2},
                    )
            if series.label:
                lx, ly, slope = _label_spot(series.points)
                # Above the line, on the side it slopes away from, so no stroke runs through
                # the name (beside a falling line's middle the space up and right is clear).
                side = 1 if slope < 0 else -1 if slope > 0 else 0
                ax.annotate(
                    series.label,
                    xy=(lx, ly),
                    xytext=(7 * side, 7),
                    textcoords="offset points",
                    ha={1: "left", -1: "right", 0: "center"}[side],
                    va="bottom",
                    fontsize=10,
                    fontweight="bold",
                    color=INK,
                )
        for mark in spec.marks:
            if mark.guides:
                ax.plot([mark.x, mark.x], [base_y, mark.y], color=GUIDE, lw=0.8, ls=(0, (3, 2)))
                ax.plot([base_x, mark.x], [mark.y, mark.y], color=GUIDE, lw=0.8, ls=(0, (3, 2)))
            ax.plot([mark.x], [mark.y], marker="o", markersize=3.5, color=INK)
            if not mark.guides:
                # A point named on a line of such points (a symbol on a trend): centred above
                # it, or below it in a dip, so the line never runs between a point and its name.
                dip = _in_dip(mark, spec.marks)
                ax.annotate(
                    mark.text,
                    xy=(mark.x, mark.y),
                    xytext=(0, -7 if dip else 6),
                    textcoords="offset points",
                    ha="center",
                    va="top" if dip else "bottom",
                    fontsize=8.5,
                    color=INK,
                )
                continue
            right = (mark.x - x0) < 0.7 * (x1 - x0)
            ax.annotate(
                mark.text,
                xy=(mark.x, mark.y),
                xytext=(5 if right else -5, 5),
                textcoords="offset points",
                ha="left" if right else "right",
                fontsize=8.5,
                color=INK,
            )
        if spec.title:
            ax.set_title(spec.title, fontsize=9.5, color=INK)
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    # matplotlib names the SVG 1.1 DTD by URL: a reference outside the file the sanitiser
    # refuses, and one no browser needs.
    return _DOCTYPE.sub("", out.getvalue(), count=1)


def _in_dip(mark: Mark, marks: tuple[Mark, ...]) -> bool:
    """Whether a point lies below the line joining its neighbours among the named points."""
    row = sorted((m for m in marks if not m.guides), key=lambda m: m.x)
    i = row.index(mark)
    before, after = row[max(i - 1, 0)], row[min(i + 1, len(row) - 1)]
    return mark.y < (before.y + after.y) / 2


def _label_spot(points: tuple[tuple[float, float], ...]) -> tuple[float, float, float]:
    """Where a series' name goes: beside the middle of its middle segment (clear of the
    labelled points at its vertices), and that segment's slope."""
    i = max(1, math.ceil(len(points) / 2) - 1)
    (ax_, ay), (bx, by) = points[i - 1], points[i]
    return (ax_ + bx) / 2, (ay + by) / 2, (by - ay) / (bx - ax_) if bx != ax_ else 0.0
