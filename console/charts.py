"""Figures as pictures: the geometry of small SVG bar charts, drawn server-side.

Only numbers and positions are computed here; the template (`charts.html`) draws them, so
every label goes through the template's escaping. Nothing is fetched from anywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

WIDTH, HEIGHT, PAD = 560, 180, 28
#: Colours of a stacked chart's series, in order (repeated past the end).
PALETTE = ("#3465a4", "#f57900", "#4e9a06", "#cc0000", "#75507b", "#c4a000", "#06989a", "#555753")


@dataclass(slots=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    colour: str
    title: str


@dataclass(slots=True)
class Chart:
    """One chart: its bars, x labels and legend."""

    title: str
    bars: list[Bar] = field(default_factory=list)
    labels: list[tuple[float, str]] = field(default_factory=list)
    legend: list[tuple[str, str]] = field(default_factory=list)
    top: str = "0"
    width: int = WIDTH
    height: int = HEIGHT
    pad: int = PAD


def stacked(
    title: str, columns: Sequence[str], series: Mapping[str, Sequence[float]], unit: str = ""
) -> Chart:
    """A stacked bar per column (a day), one colour per series (a controller)."""
    chart = Chart(title)
    if not columns:
        return chart
    totals = [sum(values[i] for values in series.values()) for i in range(len(columns))]
    peak = max(totals) or 1.0
    chart.top = f"{peak:g}{unit}"
    step = (WIDTH - 2 * PAD) / len(columns)
    scale = (HEIGHT - 2 * PAD) / peak
    colours = {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(series)}
    chart.legend = list(colours.items())
    for i, column in enumerate(columns):
        x = PAD + i * step + step * 0.15
        base = float(HEIGHT - PAD)
        for name, values in series.items():
            value = values[i]
            if value <= 0:
                continue
            height = value * scale
            base -= height
            title = f"{column} {name}: {value:g}{unit}"
            chart.bars.append(Bar(x, base, step * 0.7, height, colours[name], title))
        chart.labels.append((x + step * 0.35, column[5:] if len(column) == 10 else column))
    return chart


def single(title: str, columns: Sequence[str], values: Sequence[float], unit: str = "") -> Chart:
    """One bar per column."""
    return stacked(title, columns, {title: values}, unit)
