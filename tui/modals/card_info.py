"""Card info: R, S and D now, when it is next due and at what interval, every review it had
(date, rating, interval, R at the time) and its forgetting curve from the last review."""

from __future__ import annotations

from datetime import datetime

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static
from textual_plotext import PlotextPlot

from core.domain.browse import CardInfo
from core.domain.review import Rating
from core.services.bootstrap import Services
from tui.modals.once import Modal
from tui.reporting import Reporting
from tui.safe import cell, content

RATING = {r.value: r.name.lower() for r in Rating}


def facts_line(info: CardInfo) -> str:
    card = info.card
    r = f"{info.retrievability:.0%}" if info.retrievability is not None else "— (never reviewed)"
    s = f"{card.stability:.1f} days" if card.stability is not None else "—"
    d = f"{card.difficulty:.1f} / 10" if card.difficulty is not None else "—"
    due = datetime.fromtimestamp(card.due).strftime("%Y-%m-%d %H:%M")
    interval = f" (interval {info.interval_days} d)" if info.interval_days is not None else ""
    return (
        f"R now {r} · S {s} · D {d} · {card.queue_label} · next due {due}{interval} · "
        f"{card.reps} reviews, {card.lapses} lapses"
    )


class CurvePlot(PlotextPlot):
    """R against days since the last review (plotext; the data is numbers only)."""

    def __init__(
        self, points: tuple[tuple[float, float], ...], interval: int | None, *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.points = points
        self.interval = interval

    def on_mount(self) -> None:
        plt = self.plt
        plt.title("Forgetting curve: R by days since the last review")
        if self.points:
            plt.plot([p[0] for p in self.points], [p[1] for p in self.points], marker="braille")
            if self.interval:
                plt.vline(float(self.interval))
        plt.ylim(0, 1)


class CardInfoModal(Modal[None]):
    """One card's memory: figures, reviews, curve. Escape closes."""

    BINDINGS = [
        Binding("escape,i", "close", "Close", id="info.close"),
        Binding("n", "next_card", "Next card", id="info.next"),
    ]

    def __init__(self, services: Services, card_ids: tuple[int, ...]) -> None:
        super().__init__()
        self.services = services
        self.card_ids = card_ids
        self.card_id = card_ids[0]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_card":
            return len(self.card_ids) > 1
        return True

    async def action_next_card(self) -> None:
        """The unit's next card (Article shows every card of a unit in turn)."""
        self.card_id = self.card_ids[(self.card_ids.index(self.card_id) + 1) % len(self.card_ids)]
        await self.recompose()
        self._fill()

    def compose(self) -> ComposeResult:
        info: CardInfo | None = None
        with Reporting(self.app, "reading the card"):
            info = self.services.browse.card_info(self.card_id)
        self._info = info
        with Vertical(id="info-dialog"):
            if info is None:
                yield Static(content("This card is gone (its unit was purged?)"))
                return
            yield Static(content(info.question, style="bold"))
            yield Static(
                content(f"{info.article_title} · {info.unit_content}", single_line=True), classes="hint"
            )
            yield Static(content(facts_line(info)), id="info-facts")
            table: DataTable[object] = DataTable(id="info-reviews", cursor_type="none", zebra_stripes=True)
            yield table
            yield CurvePlot(info.curve, info.interval_days, id="info-curve")
            more = f" · n: next card ({self.card_ids.index(self.card_id) + 1} of {len(self.card_ids)})"
            yield Static(content("escape: close" + (more if len(self.card_ids) > 1 else "")), classes="hint")

    def on_mount(self) -> None:
        self._fill()

    def _fill(self) -> None:
        info = getattr(self, "_info", None)
        if info is None:
            return
        table = self.query_one("#info-reviews", DataTable)
        table.add_columns("Reviewed", "Rating", "Interval", "R then", "S after")
        for entry in reversed(info.reviews):
            table.add_row(
                cell(datetime.fromtimestamp(entry.at).strftime("%Y-%m-%d %H:%M")),
                cell(RATING.get(entry.rating, str(entry.rating))),
                cell(f"{entry.interval_days} d"),
                cell(f"{entry.retrievability:.0%}" if entry.retrievability is not None else "—"),
                cell(f"{entry.stability:.1f} d" if entry.stability is not None else "—"),
            )
        if not info.reviews:
            table.add_row(cell("no reviews yet"), cell(""), cell(""), cell(""), cell(""))

    def action_close(self) -> None:
        self.dismiss(None)
