"""Review's `v`: the card's evidence paragraphs in a paragraph view, in place of the evidence
as the card shows it, to move the word cursor and select in (`c` / `n` then make a card of
yours: the screen's OwnCards). Escape, or the card made, puts the card's evidence back.

A helper the Review screen holds (`self.selecting`, as it holds a TypeAhead and an OwnCards),
not a widget of its own: the view is the screen's `#review-select` ParagraphView, composed
with the card, hidden until `v` (tui/styles/screens.tcss).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.screen import Screen

from core.domain import SourceParagraph
from tui.safe import content
from tui.widgets.paragraph_view import ParagraphView

Shown = Sequence[tuple[SourceParagraph, tuple[str, ...]]]  # each paragraph with its quotes


class EvidenceSelect:
    """`#review-select` (the paragraph view) in place of `#review-evidence` while selecting."""

    def __init__(self, screen: Screen[Any]) -> None:
        self.screen = screen

    @property
    def view(self) -> ParagraphView:
        return self.screen.query_one("#review-select", ParagraphView)

    def open(self, title: str, shown: Shown) -> None:
        """The paragraphs `shown` (already read), their quotes marked, under the article's
        `title`; the view takes the keys."""
        paragraphs = [para for para, _ in shown]
        view = self.view
        view.load(len(paragraphs), lambda start, limit: paragraphs[start : start + limit])
        view.set_evidence({para.paragraph_id: quotes for para, quotes in shown})
        view.border_title = content(title, single_line=True)
        self.screen.query_one("#review-evidence").display = False
        view.display = True
        view.focus()

    def close(self, *, evidence: bool) -> bool:
        """Back to the card (its evidence shown if `evidence`); False: was not selecting."""
        view = self.view
        if not view.display:
            return False
        view.display = False
        view.clear_selection()
        self.screen.query_one("#review-evidence").display = evidence
        return True
