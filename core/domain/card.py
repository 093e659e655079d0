"""The card: one recall question of a confirmed unit, with its FSRS memory and where it waits.

One type for every floor (issue 31: a card was declared about ten times, each floor copying the
fields it needed). Storage reads and writes it (core.storage.converters maps the card table's
columns from its fields, by name), the undo journals keep it as JSON by field name, exports
write it, the review service hands it to the screens, and the scheduler builds its pure input
from it in one place (scheduler.policy.CardState.of). Like py-fsrs' `Card` it holds no text:
what it asks and where it comes from is its `CardSource`, read beside it when a screen shows it
(Review, card info, an agent's due list). The views that really differ are built from these two
in one place each: Review's `ReviewItem` and card info's `CardInfo` extend the source with the
card (core.domain.review, core.domain.browse), an export writes the card as it is, Browse's row
is its own read (a row may be a unit without a card).

Times are UTC epoch seconds. `state` and `queue` are the stored `State` and `Queue` values (ints:
a value no release writes reads as "?" in the labels rather than failing). Text fields are
untrusted: render them with markup off.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from core.domain import NO_LOCATOR, Locator
from core.domain.context import context_line
from core.domain.states import Queue, State

# Stored State and Queue values by name, "?" for a value no release writes.
STATE_LABELS = {int(s): s.label for s in State}
QUEUE_LABELS = {int(q): q.label for q in Queue}


@dataclass(frozen=True, slots=True)
class Card:
    """A card as it is kept. The card table's columns are these fields (core.storage.converters),
    in this order; the columns worked out from them (queue's index keys: sbucket, t90) are not."""

    id: int
    unit_id: int
    question_id: int
    state: int  # a State: new, learning, review, relearning
    step: int | None
    stability: float | None  # days
    difficulty: float | None  # 1..10
    due: int  # new cards: when they were made (their order)
    last_review: int | None
    reps: int  # == its review log rows
    lapses: int
    queue: int  # a Queue, by the one rule (core.storage.review.models.queue_for)
    active: bool  # its unit is confirmed
    suspended: bool
    leech: bool  # tagged when it became a leech
    buried_until: int | None
    created_at: int

    @property
    def state_label(self) -> str:
        """new / learning / review / relearning."""
        return STATE_LABELS.get(self.state, "?")

    @property
    def queue_label(self) -> str:
        """new / learning / review / suspended / buried / inactive."""
        return QUEUE_LABELS.get(self.queue, "?")


@dataclass(frozen=True, slots=True)
class CardSource:
    """What a card asks and where it comes from: its question, the unit it tests and the article
    the unit was drawn from (with the place of the unit's first quote: its context line)."""

    question: str
    answer: str
    kind: str  # qa / cloze
    unit_id: int
    unit_content: str
    memory_type: str
    pinned: bool
    article_id: int
    article_title: str
    locator: Locator = NO_LOCATOR  # where the unit's first quote sits in the article
    deck_id: int | None = None  # the deck's article when not the source's (Browse "move to deck")

    @property
    def context(self) -> str:
        """Where the card comes from: "Title › … › Section" (core.domain.context)."""
        return context_line(self.article_title, self.locator)


_SOURCE_FIELDS = tuple(f.name for f in fields(CardSource))


def source_fields(source: CardSource) -> dict[str, Any]:
    """A source's fields by name, for a view that extends it (ReviewItem, CardInfo): shallow,
    unlike dataclasses.asdict, which would turn the locator into a dict."""
    return {name: getattr(source, name) for name in _SOURCE_FIELDS}


__all__ = ["QUEUE_LABELS", "STATE_LABELS", "Card", "CardSource", "Queue", "State", "source_fields"]
