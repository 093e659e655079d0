"""A bar chart widget over textual-plotext that redraws from its data on every render.

Plotext keeps state between builds; re-issuing the figure at render time makes the picture a
function of (data, size) only, so snapshots are stable. Labels are sanitised (data, not markup).

The day charts count whole things (reviews, cards), so the value axis has whole-number ticks
in 1-2-5 steps, as many as the rows can show (plotext's own read 0.00, 1.50, 2.50, 3.00); every
`every`-th day is labelled, counted from the day the chart is anchored to (today), so today's bar
has its date. A few named quantities (cards by state) are a `BarList`: one labelled row each,
with its value, which a column chart could not label in 80 columns.
"""

from __future__ import annotations

import math

import plotext._utility as plotext_utility
from textual.app import RenderResult
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget
from textual_plotext import PlotextPlot

from core.text import sanitize

# plotext dedupes with list(set(...)), so label layout depends on PYTHONHASHSEED; keep order.
plotext_utility.no_duplicates = lambda data: list(dict.fromkeys(data))


def whole_ticks(top: float, most: int = 5) -> list[int]:
    """0 up to at least `top` in a 1-2-5 step, at most `most` steps: 3 -> [0, 1, 2, 3],
    24 -> [0, 10, 20, 30], 90 -> [0, 20, 40, 60, 80, 100]."""
    high = max(1, math.ceil(top))
    magnitude = 1
    while True:
        for step in (magnitude, 2 * magnitude, 5 * magnitude):
            if math.ceil(high / step) <= most:
                return list(range(0, math.ceil(high / step) * step + 1, step))
        magnitude *= 10


class BarChart(PlotextPlot):
    """Bars over labelled slots; every `every`-th label is printed under the axis."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._title = ""
        self._labels: list[str] = []
        self._values: list[float] = []
        self._every = 1
        self._from_end = False

    def show(
        self, title: str, labels: list[str], values: list[float], *, every: int = 1, from_end: bool = False
    ) -> None:
        """`every`: label every n-th slot, counted from the last one when `from_end`."""
        self._title = sanitize(title, single_line=True)
        self._labels = [sanitize(x, single_line=True) for x in labels]
        self._values = list(values)
        self._every = max(1, every)
        self._from_end = from_end
        self.refresh()

    def render(self) -> RenderResult:
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        room = self.size.width - 4  # plotext drops a title that does not fit: shorten it instead
        plt.title(self._title if len(self._title) <= room else self._title[: max(0, room - 1)] + "…")
        if self._labels:
            xs: list[float] = [float(i) for i in range(len(self._labels))]
            plt.bar(xs, self._values, width=0.6)
            # a label every `every` slots, or sparser when they would touch (plotext drops those)
            width = max(1, self.size.width - 6) / (len(xs) + 2)
            every = max(self._every, math.ceil((max(map(len, self._labels)) + 2) / width))
            first = (len(xs) - 1) % every if self._from_end else 0
            slots = range(first, len(xs), every)
            plt.xticks([xs[i] for i in slots], [self._labels[i] for i in slots])
            rows = max(2, self.size.height - 4)  # title, frame top and bottom, the day labels
            ticks = whole_ticks(max([*self._values, 0]), most=max(1, rows - 1))
            plt.yticks([float(t) for t in ticks], [str(t) for t in ticks])
            plt.ylim(0, ticks[-1])
            plt.xlim(-1.5, len(xs) + 0.5)  # room for the first and last day's label under the axis
        return super().render()


class BarList(Widget):
    """A titled list of labelled bars, one row each, with the value at the bar's end:

    Cards by state (3 reviews ever)
    new        ████████████████ 24
    learning   ██ 3
    """

    DEFAULT_CSS = """
    BarList {
        height: auto;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._title = ""
        self._rows: list[tuple[str, float, str]] = []
        self._top = 0.0

    def show(self, title: str, rows: list[tuple[str, float, str]], *, top: float | None = None) -> None:
        """`rows`: (label, value, text shown after the bar); `top`: the value of a full bar
        (default: the largest value)."""
        self._title = sanitize(title, single_line=True)
        self._rows = [(sanitize(a, single_line=True), v, sanitize(t, single_line=True)) for a, v, t in rows]
        self._top = top if top is not None else max([v for _, v, _ in rows] or [0.0])
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1 + len(self._rows)

    def render(self) -> RenderResult:
        name_width = max([len(a) for a, _, _ in self._rows] or [0]) + 2
        text_width = max([len(t) for _, _, t in self._rows] or [0]) + 1
        room = max(1, self.size.width - name_width - text_width)
        lines = [Content.styled(self._title, "bold").truncate(self.size.width, ellipsis=True)]
        for name, value, text in self._rows:
            cells = round(room * value / self._top) if self._top > 0 and value > 0 else 0
            lines.append(
                Content.assemble(
                    (name.ljust(name_width), "$text-muted"),
                    ("█" * max(cells, 1 if value > 0 else 0), "$primary"),
                    " ",
                    (text, "bold"),
                )
            )
        return Content("\n").join(lines)
