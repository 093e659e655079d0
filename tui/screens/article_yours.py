"""The Article screen's unit list as it pages in, with the units of yours made meanwhile: a
unit of yours sorts last (the article's next position), so one made while the list has pages
still to load waits for `g`, which lists it after the pages loaded so far; the pages that load
later go in before it, and the last page brings it in its place (it is not listed twice)."""

from __future__ import annotations

from textual.widgets import OptionList
from textual.widgets.option_list import Option

from core.domain import StoredUnit
from tui.screens.article_ideas import ArticleIdeas
from tui.widgets.unit_view import unit_line

UNIT_PAGE = 50  # units are loaded a page at a time as the highlight nears the end (~5 ms a page)


class ArticleUnitPages(ArticleIdeas):
    """The unit list's paging and your units listed by `g`, for ArticleScreen (which loads the
    first page, fetches pages under its filters and shows a unit: `_load_units`,
    `_fetch_units`, `_show_unit`, `_update_count`)."""

    units: list[StoredUnit]
    status_filter: str | None
    type_filter: str | None
    _more_units: bool
    _scroll: bool

    def _reset_yours(self) -> None:
        """A list loaded again from its first page: it brings your units in their place."""
        self._unlisted: list[int] = []  # your units made while pages were left to load (g lists them)
        # units of yours made while the list had pages still to load: listed after the pages
        # loaded so far (they sort last), until the last page brings them in their place
        self._yours_ahead: list[StoredUnit] = []

    def _load_more_units(self) -> None:
        """The next page, after the pages loaded so far (and before your units listed ahead
        of it, which move down; the last page brings them, in their place already)."""
        ahead = self._yours_ahead
        loaded = len(self.units) - len(ahead)
        more = self._fetch_units(UNIT_PAGE, loaded)
        self._more_units = len(more) == UNIT_PAGE
        listed = {u.id for u in ahead}
        more = [u for u in more if u.id not in listed]
        brought = {u.id for u in more}  # yours not listed yet (g) that this page brings
        self._unlisted = [i for i in self._unlisted if i not in brought]
        options = self.query_one("#article-units", OptionList)
        highlighted = options.highlighted
        for unit in ahead:
            options.remove_option(str(unit.id))
        self.units[loaded:loaded] = more
        options.add_options([Option(unit_line(u), id=str(u.id)) for u in (*more, *ahead)])
        if ahead and highlighted is not None:
            self._scroll = False  # the same unit, moved down: nothing to show again
            options.highlighted = highlighted + len(more) if highlighted >= loaded else highlighted
        if not self._more_units:
            self._yours_ahead = []

    def _loaded_units(self) -> int:
        """The units listed from the pages loaded so far (not yours listed ahead of them)."""
        return len(self.units) - len(self._yours_ahead)

    def card_made(self, unit_id: int) -> None:
        """A unit of yours sorts last (the article's next position). With every unit listed it
        is added at the end and highlighted (a few ms: the list is not read again); with pages
        still to load it waits for `g`, which lists it after the pages loaded so far (they go
        in before it as they load), not in the save's frame: a longer list lays the screen out
        again (Textual: its virtual size), ~20 ms on the bench's 1M-unit library. Filters are
        cleared to show it (the list is read again)."""
        if self.status_filter or self.type_filter or not self.units:
            self.status_filter = self.type_filter = None
            self._load_units(select=unit_id, scroll=False)
            return
        if self._more_units:
            self._unlisted.append(unit_id)
            return
        self._list_yours([unit_id])

    def action_yours(self) -> None:
        """`g`: your units made while the list had pages still to load, listed at its end, the
        last one highlighted and shown."""
        unlisted, self._unlisted = self._unlisted, []
        self._list_yours(unlisted, ahead=self._more_units)

    def _list_yours(self, unit_ids: list[int], *, ahead: bool = False) -> None:
        made: list[StoredUnit] = []
        with self.reporting("listing your card"):
            made = [u for u in map(self.services.library.unit, unit_ids) if u is not None]
        if not made:
            return
        if ahead:
            self._yours_ahead.extend(made)
        self.units.extend(made)
        options = self.query_one("#article-units", OptionList)
        options.add_options([Option(unit_line(u), id=str(u.id)) for u in made])
        self._scroll = False
        options.highlighted = len(self.units) - 1
        # shown now, with the list's new line, so both are laid out in one frame (the
        # highlight's message would show it a frame later: then it has nothing to do)
        self._show_unit(len(self.units) - 1, scroll=False)
        self._update_count()

    # ArticleScreen's (declared here for the reader and the type checker)

    def _fetch_units(self, limit: int, offset: int) -> list[StoredUnit]:
        raise NotImplementedError

    def _load_units(self, select: int | None = None, *, scroll: bool = True) -> None:
        raise NotImplementedError

    def _show_unit(self, index: int, *, scroll: bool = True) -> None:
        raise NotImplementedError

    def _update_count(self) -> None:
        raise NotImplementedError
