"""The Article screen's two lists beside its text: its units a page at a time (`UnitPages`) and its
summary with core ideas (`IdeaList`), with the line above them (`UnitsLine`: the count and the
filters, or what was just saved). Widgets the screen composes: it hands them what to show (a
page reader, the stored ideas, the count) and reads back what the reader chose; they call no
service.

A unit of yours sorts last (the article's next position), so one made while the list has pages
still to load waits for `g`, which lists it after the pages loaded so far; the pages that load
later go in before it, and the last page brings it in its place (it is not listed twice).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.content import Content
from textual.timer import Timer
from textual.widgets import Static
from textual.widgets.option_list import Option

from core.domain import ArticleMemoryOutput, StoredUnit
from tui.widgets.steady_option_list import SteadyOptionList
from tui.widgets.unit_view import idea_options, unit_line

UNIT_PAGE = 50  # units are loaded a page at a time as the highlight nears the end (~5 ms a page)
Fetch = Callable[[int, int], list[StoredUnit]]  # (limit, offset) -> a page of units


def _nothing(limit: int, offset: int) -> list[StoredUnit]:
    return []


class UnitPages(SteadyOptionList):
    """The units listed so far (`units`), whether pages are left (`more`), and your units made
    meanwhile: `unlisted` waits for `g`; those listed ahead of the pages still to load move down
    as the pages come."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.units: list[StoredUnit] = []
        self.more = False
        self.unlisted: list[int] = []  # yours made while pages were left to load (g lists them)
        self._ahead: list[StoredUnit] = []  # yours listed after the pages loaded so far
        self._fetch: Fetch = _nothing

    def load(self, fetch: Fetch, first: int) -> None:
        """The list again from its first page (`first` units) read by `fetch`; yours come in
        their place."""
        self._fetch, self.unlisted, self._ahead = fetch, [], []
        self.units = fetch(first, 0)
        self.more = len(self.units) == first
        self.clear_options()
        self.add_options([Option(unit_line(u), id=str(u.id)) for u in self.units])

    @property
    def loaded(self) -> int:
        """The units listed from the pages loaded so far (not yours listed ahead of them)."""
        return len(self.units) - len(self._ahead)

    def load_more(self) -> bool:
        """The next page, after the pages loaded so far and before your units listed ahead of it,
        which move down (the last page brings them, in their place already). True when the
        highlight moved down with its unit: nothing to show again."""
        ahead, loaded = self._ahead, self.loaded
        page = self._fetch(UNIT_PAGE, loaded)
        self.more = len(page) == UNIT_PAGE
        listed = {u.id for u in ahead}
        page = [u for u in page if u.id not in listed]
        brought = {u.id for u in page}  # yours not listed yet (g) that this page brings
        self.unlisted = [i for i in self.unlisted if i not in brought]
        highlighted = self.highlighted
        for unit in ahead:
            self.remove_option(str(unit.id))
        self.units[loaded:loaded] = page
        self.add_options([Option(unit_line(u), id=str(u.id)) for u in (*page, *ahead)])
        moved = bool(ahead) and highlighted is not None
        if moved and highlighted is not None:
            self.highlighted = highlighted + len(page) if highlighted >= loaded else highlighted
        if not self.more:
            self._ahead = []
        return moved

    def say_none(self, status: str | None, memory_type: str | None) -> None:
        """In the list, not below it: which filter left nothing and the keys that change it."""
        if not (status or memory_type):
            said = Content.styled("This article has no memory units.", "italic")
        else:
            chosen = " and ".join(
                f"{name} {value}" for name, value in (("status", status), ("type", memory_type)) if value
            )
            said = Content.assemble(
                (f"No units with {chosen}.", "italic"), ("\nf: next status · y: next type", "$text-muted")
            )
        self.add_option(Option(said, disabled=True))

    def add_yours(self, made: list[StoredUnit]) -> None:
        """Your units at the end of the list, the last one highlighted; while pages are left to
        load they stay after the pages as those come. One already listed (the list was read
        again after the card was saved, before its message came) is not listed twice."""
        listed = {u.id for u in self.units}
        made = [u for u in made if u.id not in listed]
        if not made:
            return
        if self.more:
            self._ahead.extend(made)
        self.units.extend(made)
        self.add_options([Option(unit_line(u), id=str(u.id)) for u in made])
        self.highlighted = len(self.units) - 1


class IdeaList(SteadyOptionList):
    """The article's summary (a heading row) and its core ideas, each with its quotes."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ideas = 0  # how many core ideas it lists

    def show(self, output: ArticleMemoryOutput | None) -> None:
        self.clear_options()
        self.add_options(idea_options(output))
        self.ideas = len(output.core_ideas) if output is not None else 0
        if self.ideas:
            self.highlighted = 1  # the first idea (the summary heads the list)

    def chosen(self) -> int | None:
        """The index of the highlighted core idea (None on the summary)."""
        index = (self.highlighted or 0) - 1  # option 0 is the summary
        return index if 0 <= index < self.ideas else None


class UnitsLine(Static):
    """The line above the units: how many are listed (`pages`: "40+" while pages are left to
    load) and the filters, or what was just saved ("✓ Cloze saved as yours ..."), in place of
    the filters until `unsay` or a few seconds. One line high whatever it says, so it is drawn
    again without a layout: a toast mounts a widget and lays the screen out again, a second
    frame after each save."""

    def __init__(self, pages: UnitPages, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.pages = pages
        self.said = ""  # what was just done, shown in place of the filters ("": the filters)
        self._filters: tuple[str | None, str | None] = (None, None)
        self._timer: Timer | None = None

    def show(self, status: str | None, memory_type: str | None) -> None:
        """The count as the list is now, and the filters, drawn again in place."""
        self._filters = (status, memory_type)
        self._draw()

    def say(self, said: str, seconds: float) -> None:
        """`said` in place of the filters, for `seconds` (or until `unsay`)."""
        self.said = said
        self._draw()
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(seconds, self.unsay, name="the saved line goes")

    def unsay(self) -> None:
        """Back to the count and filters (nothing to draw when nothing was said)."""
        if self.said:
            self.said = ""
            self._draw()

    def _draw(self) -> None:
        count = f"{len(self.pages.units)}{'+' if self.pages.more else ''}"
        if self.said:
            said = Content.assemble((self.said, "$success"), "  ", ("Units ", "bold"), count)
            self.update(said.truncate(max(1, self.content_region.width), ellipsis=True), layout=False)
            return
        status, memory_type = self._filters
        filters = Content.assemble(
            ("Units ", "bold"),
            count,
            ("  status: ", "bold"),
            status or "all",
            ("  type: ", "bold"),
            memory_type or "all",
        )
        self.update(filters, layout=False)
