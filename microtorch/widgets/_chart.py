"""Line charts as SVG text, side by side: what ``TrainingLoopExplorer`` plots, in milliseconds.

matplotlib took over a second to import and a few hundred ms per redraw, so chapter 06's
explorer needed about 5 s before it showed anything. A chart of a few series of numbers is a
few lines and labels: this draws them as plain SVG (deterministic text, no fonts to load).
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Panel", "Series", "chart_svg", "nice_ticks"]

PANEL_W, PANEL_H = 360, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 26, 36  # margins around a panel's plot area, px


@dataclass(frozen=True)
class Series:
    """One line: its label (for the legend), colour and y values at x = 1, 2, ..."""

    label: str
    colour: str
    values: Sequence[float]


@dataclass(frozen=True)
class Panel:
    """One plot: a title, an x label, the x range it shows, and its lines."""

    title: str
    xlabel: str
    xmax: int
    series: Sequence[Series]
    legend: bool = False


def nice_ticks(top: float, count: int = 4) -> list[float]:
    """Round tick values from 0 to at least ``top``: 1, 2 or 5 times a power of ten apart."""
    if not top > 0 or not math.isfinite(top):
        return [0.0, 1.0]
    raw = top / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return [i * step for i in range(math.ceil(top / step - 1e-9) + 1)]


def _number(value: float) -> str:
    return f"{value:.4g}"


def _panel(panel: Panel, x0: float) -> list[str]:
    width, height = PANEL_W - LEFT - RIGHT, PANEL_H - TOP - BOTTOM
    left, top = x0 + LEFT, TOP
    values = [v for s in panel.series for v in s.values if math.isfinite(v)]
    ticks = nice_ticks(max(values, default=1.0))
    ymax = ticks[-1]
    xticks = nice_ticks(panel.xmax, 5)
    xmax = max(panel.xmax, 1)

    def x(step: float) -> str:
        return f"{left + width * step / xmax:.1f}"

    def y(value: float) -> str:
        return f"{top + height * (1 - value / ymax):.1f}"

    parts = [
        f'<text x="{left + width / 2:.1f}" y="16" class="mt-chart-title">'
        f"{html.escape(panel.title)}</text>",
        f'<rect x="{left}" y="{top}" width="{width}" height="{height}" class="mt-chart-frame"/>',
    ]
    for tick in ticks:
        parts.append(
            f'<line x1="{left}" x2="{left + width}" y1="{y(tick)}" y2="{y(tick)}" '
            f'class="mt-chart-grid"/><text x="{left - 4}" y="{float(y(tick)) + 4:.1f}" '
            f'class="mt-chart-y">{_number(tick)}</text>'
        )
    for tick in xticks:
        if tick <= xmax:
            parts.append(
                f'<text x="{x(tick)}" y="{top + height + 14}" class="mt-chart-x">'
                f"{_number(tick)}</text>"
            )
    parts.append(
        f'<text x="{left + width / 2:.1f}" y="{top + height + 30}" class="mt-chart-x">'
        f"{html.escape(panel.xlabel)}</text>"
    )
    for series in panel.series:
        points = " ".join(
            f"{x(i)},{y(v)}" for i, v in enumerate(series.values, start=1) if math.isfinite(v)
        )
        parts.append(
            f'<polyline points="{points}" stroke="{series.colour}" class="mt-chart-line">'
            f"<title>{html.escape(series.label)}</title></polyline>"
        )
    if panel.legend:
        for i, series in enumerate(panel.series):
            ly = top + 14 + 16 * i
            parts.append(
                f'<line x1="{left + width - 190}" x2="{left + width - 170}" y1="{ly - 4}" '
                f'y2="{ly - 4}" stroke="{series.colour}" class="mt-chart-line"/>'
                f'<text x="{left + width - 165}" y="{ly}" class="mt-chart-legend">'
                f"{html.escape(series.label)}</text>"
            )
    return parts


_STYLE = (
    "<style>.mt-chart text { font: 11px Helvetica, Arial, sans-serif; fill: #222; }"
    ".mt-chart .mt-chart-title { font-size: 13px; text-anchor: middle; }"
    ".mt-chart .mt-chart-y { text-anchor: end; } .mt-chart .mt-chart-x { text-anchor: middle; }"
    ".mt-chart-frame { fill: #fff; stroke: #888; } .mt-chart-grid { stroke: #e4e4e4; }"
    ".mt-chart-line { fill: none; stroke-width: 1.6; }</style>"
)


def chart_svg(panels: Sequence[Panel], description: str) -> str:
    """The panels side by side in one SVG; ``description`` is its accessible name."""
    width = PANEL_W * len(panels)
    body = [part for i, panel in enumerate(panels) for part in _panel(panel, i * PANEL_W)]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="mt-chart" role="img" '
        f'width="{width}" height="{PANEL_H}" viewBox="0 0 {width} {PANEL_H}" '
        f'aria-label="{html.escape(description)}">{_STYLE}{"".join(body)}</svg>'
    )
