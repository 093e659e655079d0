"""A bar chart widget over textual-plotext that redraws from its data on every render.

Plotext keeps state between builds; re-issuing the figure at render time makes the picture a
function of (data, size) only, so snapshots are stable. Labels are sanitised (data, not markup).
"""

from __future__ import annotations

import plotext._utility as plotext_utility
from textual.app import RenderResult
from textual_plotext import PlotextPlot

from core.text import sanitize

# plotext dedupes with list(set(...)), so label layout depends on PYTHONHASHSEED; keep order.
plotext_utility.no_duplicates = lambda data: list(dict.fromkeys(data))


class BarChart(PlotextPlot):
    """Bars over labelled slots; every `every`-th label is printed under the axis."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._title = ""
        self._labels: list[str] = []
        self._values: list[float] = []
        self._every = 1

    def show(self, title: str, labels: list[str], values: list[float], *, every: int = 1) -> None:
        self._title = sanitize(title, single_line=True)
        self._labels = [sanitize(x, single_line=True) for x in labels]
        self._values = list(values)
        self._every = max(1, every)
        self.refresh()

    def render(self) -> RenderResult:
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title(self._title)
        if self._labels:
            xs: list[float] = [float(i) for i in range(len(self._labels))]
            plt.bar(xs, self._values, width=0.6)
            plt.xticks(xs[:: self._every], self._labels[:: self._every])
            plt.ylim(0, max([*self._values, 1]))
        return super().render()
