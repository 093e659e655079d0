"""The Article screen's summary and core ideas (`s`): shown in place of its units, each core
idea with its quote, and `m` makes a unit of yours of the highlighted one (in a worker: the
card writer reads the whole article the first time)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.widgets import OptionList

from tui import runner
from tui.screens.own_cards import MakesCards
from tui.widgets.paragraph_view import ParagraphView
from tui.widgets.unit_view import idea_options

if TYPE_CHECKING:
    from core.services.authoring import Made


class ArticleIdeas(MakesCards):
    """What ArticleScreen shows of its article's stored extraction besides the units."""

    article_id: int
    _ideas = 0  # how many core ideas the ideas list shows

    def action_ideas(self) -> None:
        """Show the article's summary and core ideas (each with its quote) instead of its
        units, and back."""
        ideas = self.query_one("#article-ideas", OptionList)
        units = self.query_one("#article-units", OptionList)
        showing = not ideas.display
        if showing:
            output = None
            with self.reporting("reading the summary and core ideas"):
                output = self.services.authoring.ideas(self.article_id)
            ideas.clear_options()
            ideas.add_options(idea_options(output))
            self._ideas = len(output.core_ideas) if output is not None else 0
            if self._ideas:
                ideas.highlighted = 1  # the first idea (the summary heads the list)
        ideas.display, units.display = showing, not showing
        (ideas if showing else units).focus()
        self.refresh_bindings()

    def action_idea_unit(self) -> None:
        """A unit of yours of the highlighted core idea (its words, its quote)."""
        ideas = self.query_one("#article-ideas", OptionList)
        index = (ideas.highlighted or 0) - 1  # option 0 is the summary
        if 0 <= index < self._ideas:
            self.action_ideas()  # back to the units, where the new one will be highlighted
            self._save_idea(self.query_one(ParagraphView), index)

    def _save_idea(self, view: ParagraphView, index: int) -> None:
        """In a worker: the card writer reads the whole article the first time."""
        make = partial(self.services.authoring.from_idea, self.article_id, index)
        saved = partial(self._idea_saved, view)
        runner.start(self, "making a unit of the idea", make, saved, group="own-cards")

    def _idea_saved(self, view: ParagraphView, made: Made) -> MakesCards.CardSaved:
        return self.CardSaved(view, made.unit_id, "Unit of the idea")
