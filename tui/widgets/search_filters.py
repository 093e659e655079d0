"""The search modal's filter line: the filters `memoryrush search` has, set by single keys.

Focused (ctrl+f in the search, or tab), its keys are in the key bar: `s` status, `y` type,
`t` tag, `a` article (both from a list), `d` due, `l` leech, `x` suspended, `r` recall below
(0.9, 0.8, 0.7, 0.5, off), `o` origin (yours: the units you made; extracted), `c` clear. Status, type and R step through their values in turn, as
the Article screen's `f` / `y` do. Focused, the line shows every filter, the ones in force in
the accent colour; otherwise only those in force. Changes go up as `FilterBar.Changed` (the modal searches again); a tag or an article
is asked for with `FilterBar.Pick` (the modal shows the list and sets `choose`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from textual.app import RenderResult
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from core.domain import MEMORY_TYPES, UnitStatus
from core.domain.export import ORIGINS
from core.domain.search import SearchFilters
from tui.safe import content

STATUSES: tuple[str, ...] = ("", *(s.value for s in UnitStatus))
TYPES: tuple[str, ...] = ("", *MEMORY_TYPES)
R_BELOW: tuple[float | None, ...] = (None, 0.9, 0.8, 0.7, 0.5)
ORIGIN_STEPS: tuple[str, ...] = ("", *ORIGINS)  # any, yours, extracted


def _next(values: tuple[object, ...], current: object) -> object:
    return values[(values.index(current) + 1) % len(values)] if current in values else values[1]


class FilterBar(Widget, can_focus=True):
    """The filters of one search (`filters`), shown on one line and changed by keys."""

    BINDINGS = [
        Binding("s", "status", "Status", id="search.status"),
        Binding("y", "type", "Type", id="search.type"),
        Binding("t", "tag", "Tag", id="search.tag"),
        Binding("a", "article", "Article", id="search.article"),
        Binding("d", "due", "Due", id="search.due"),
        Binding("l", "leech", "Leech", id="search.leech"),
        Binding("x", "suspended", "Suspended", id="search.suspended"),
        Binding("r", "recall", "R below", id="search.recall"),
        Binding("o", "origin", "Yours / extracted", id="search.origin"),
        Binding("c", "clear", "Clear filters", id="search.clear"),
    ]
    DEFAULT_CSS = """
    FilterBar {
        height: auto;
        color: $text-muted;
        padding: 0 0 0 0;
    }
    FilterBar:focus {
        background: $boost;
        color: $text;
    }
    """

    filters: reactive[SearchFilters] = reactive(SearchFilters)
    article_title = ""  # the title of the article filter (filters.article_ids holds its id)

    @dataclass
    class Changed(Message):
        """The filters changed (handled by SearchModal.on_filter_bar_changed)."""

        filters: SearchFilters

    @dataclass
    class Pick(Message):
        """A tag or an article is to be chosen from a list (SearchModal.on_filter_bar_pick)."""

        kind: str

    def watch_filters(self, old: SearchFilters, new: SearchFilters) -> None:
        if old != new:
            self.post_message(self.Changed(new))
        self.refresh(layout=True)

    def choose(self, kind: str, value: str, article_id: int | None = None) -> None:
        """Set the tag (kind "tag") or the article (kind "article", its id); "" / None: any."""
        if kind == "tag":
            self.filters = replace(self.filters, tags=(value,) if value else ())
        else:
            self.article_title = value if article_id is not None else ""
            self.filters = replace(self.filters, article_ids=(article_id,) if article_id is not None else ())
        self.refresh(layout=True)

    # --- keys ---------------------------------------------------------------------------

    def action_status(self) -> None:
        now = self.filters.unit_statuses[0] if self.filters.unit_statuses else ""
        status = str(_next(STATUSES, now))
        self.filters = replace(self.filters, unit_statuses=(status,) if status else ())

    def action_type(self) -> None:
        now = self.filters.memory_types[0] if self.filters.memory_types else ""
        kind = str(_next(TYPES, now))
        self.filters = replace(self.filters, memory_types=(kind,) if kind else ())

    def action_tag(self) -> None:
        self.post_message(self.Pick("tag"))

    def action_article(self) -> None:
        self.post_message(self.Pick("article"))

    def action_due(self) -> None:
        self.filters = replace(self.filters, due=not self.filters.due)

    def action_leech(self) -> None:
        self.filters = replace(self.filters, leech=not self.filters.leech)

    def action_suspended(self) -> None:
        self.filters = replace(self.filters, suspended=not self.filters.suspended)

    def action_recall(self) -> None:
        below = _next(R_BELOW, self.filters.retrievability_below)
        self.filters = replace(self.filters, retrievability_below=below)  # type: ignore[arg-type]

    def action_origin(self) -> None:
        """Only units you made, only proposed ones, any (in turn)."""
        origin = _next(ORIGIN_STEPS, self.filters.origin or "")
        self.filters = replace(self.filters, origin=str(origin) or None)

    def action_clear(self) -> None:
        self.article_title = ""
        self.filters = SearchFilters()

    # --- the line -------------------------------------------------------------------------

    def render(self) -> RenderResult:
        f = self.filters
        r_below = f.retrievability_below
        parts: list[tuple[str, Content | None, str]] = [  # (name, value when set, shown when not)
            ("status", content(f.unit_statuses[0]) if f.unit_statuses else None, "any"),
            ("type", content(f.memory_types[0]) if f.memory_types else None, "any"),
            ("tag", content(f.tags[0], single_line=True) if f.tags else None, "any"),
            ("article", content(self.article_title, single_line=True) if f.article_ids else None, "any"),
            ("due", Content("on") if f.due else None, "off"),
            ("leech", Content("on") if f.leech else None, "off"),
            ("suspended", Content("on") if f.suspended else None, "off"),
            ("R below", Content(f"{r_below:g}") if r_below is not None else None, "off"),
            ("origin", Content(f.origin) if f.origin else None, "any"),
        ]
        if not self.has_focus:  # only the filters in force (or none), and the key to change them
            parts = [p for p in parts if p[1] is not None]
            if not parts:
                return Content.assemble(("Filters", "bold"), ": none  ", ("(ctrl+f to set)", "$text-muted"))
        pieces = [Content.styled("Filters", "bold"), Content(": ")]
        for n, (name, value, unset) in enumerate(parts):
            if n:
                pieces.append(Content(" · "))
            if value is None:
                pieces.append(Content(f"{name} {unset}"))
            else:
                pieces.append(Content.assemble((f"{name} ", "$accent"), value.stylize("bold $accent")))
        if not self.has_focus:
            pieces.append(Content.styled("  (ctrl+f to change)", "$text-muted"))
        return Content("").join(pieces)

    def watch_has_focus(self, focused: bool) -> None:
        super().watch_has_focus(focused)
        self.refresh(layout=True)  # focused, every filter is listed (the line may wrap)
