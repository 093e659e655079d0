"""The Browse use cases: pages of rows, their count, bulk actions (one transaction each,
undoable through the one journal, core/services/undo.py; its WAL checkpoint in the
background, core.storage.checkpoint), deleting and restoring articles, the trash, card info.

    svc.browse.parse("r<0.8 tag:cells")      -> ParsedFilter (the filter and what was not understood)
    svc.browse.page(filter, sort, after)     -> BrowsePage (keyset: pass page.after for the next)
    svc.browse.count(filter)                 -> int
    svc.browse.act(BulkAction.SUSPEND, Selection(filter, keys)) -> BulkResult
    svc.browse.move_to_deck(Selection(...), article_id | None) -> BulkResult  # None: back to the source's deck
    svc.browse.delete_article(id) / restore_article(id) -> BulkResult
    svc.browse.trash() / deleted_articles() / purge(unit_ids) -> ...
    svc.browse.card_info(card_id)            -> CardInfo | None
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import scheduler
from core.domain.browse import (
    BrowseFilter,
    BrowsePage,
    BrowseRow,
    BrowseSort,
    BulkAction,
    BulkResult,
    CardInfo,
    ReviewEntry,
    Selection,
    TrashEntry,
)
from core.domain.card import source_fields
from core.domain.errors import DatabaseBusy
from core.domain.stop import StopFlag
from core.services.browse.filters import ParsedFilter, parse_filter
from core.services.clocked import Clocked
from core.services.review.parameters import fsrs_parameters
from core.storage.browse import actions, info, rows, trash, unit_actions
from core.storage.browse import journal as bulk_journal
from core.storage.browse.where import CARD, UNIT, count, target_sql
from core.storage.checkpoint import checkpoint_after
from core.storage.db import write_transaction
from core.storage.review import cards as review_cards
from scheduler.policy import decay_factor

PAGE = 100
CURVE_POINTS = 40


@dataclass
class BrowseService(Clocked):
    def parameters(self) -> tuple[float, ...]:
        return fsrs_parameters()

    def _r_ratio(self, f: BrowseFilter) -> float | None:
        r = f.retrievability_below
        if r is None:
            return None
        return scheduler.days_per_stability(min(max(r, 1e-6), 1.0), self.parameters())

    # --- the table -------------------------------------------------------------------------

    def parse(self, line: str) -> ParsedFilter:
        return parse_filter(line, now=self.clock.epoch(), tz=self.zone())

    def page(
        self, f: BrowseFilter, sort: BrowseSort, after: tuple[Any, ...] | None = None, limit: int = PAGE
    ) -> BrowsePage:
        now = self.clock.epoch()
        found, last = rows.page(f, sort, after, limit, now=now, r_ratio=self._r_ratio(f))
        params = self.parameters()  # read once a page (a settings read each)
        return BrowsePage(tuple(_with_r(r, now, params) for r in found), last)

    def count(self, f: BrowseFilter, stop: StopFlag | None = None) -> int:
        """Rows the filter shows; Cancelled when `stop` is set before the count ends."""
        return count(f, now=self.clock.epoch(), r_ratio=self._r_ratio(f), stop=stop)

    def start(self) -> int:
        """Before Browse shows card states: burials that ended are lifted (what a review session
        does when it starts), so the stored queue is the card's state. Returns how many. Never
        waits for the write lock (Browse opens on the screen): when another process holds it
        the burials stay for the next open or the review session to lift, and 0 is returned."""
        try:
            return review_cards.unbury(self.clock.epoch(), wait=False)
        except DatabaseBusy:
            return 0

    # --- bulk actions ----------------------------------------------------------------------

    def _target(self, selection: Selection, now: int) -> None:
        bulk_journal.clear_target()
        if selection.keys:
            bulk_journal.target_keys(selection.keys)
            return
        for arm in (CARD, UNIT):
            sql = target_sql(selection.filter, arm, now=now, r_ratio=self._r_ratio(selection.filter))
            if sql is not None:
                bulk_journal.target_rows(*sql)

    def act(
        self,
        action: BulkAction,
        selection: Selection,
        *,
        tag: str = "",
        days: int = 0,
        deck: int | None = None,
    ) -> BulkResult:
        """One action on the selection (or its whole filter), in one transaction, undoable.
        Card actions (suspend, bury, forget, set due) change the rows' cards; unit actions
        (pin, trash, restore, reject, confirm, tag, keep) the rows' units and their cards."""
        now = self.clock.epoch()
        with checkpoint_after(), bulk_journal.bulk_cache(), write_transaction():
            self._target(selection, now)
            journal = bulk_journal.open_journal(action.value, now)
            changed = self._apply(journal, action, now, tag=tag.strip().casefold(), days=days, deck=deck)
            journal = actions.close_journal(journal, action.value)
        return BulkResult(action.value, changed.cards, changed.units, journal)

    def _apply(
        self, journal: int, action: BulkAction, now: int, *, tag: str, days: int, deck: int | None = None
    ) -> bulk_journal.Changed:
        if action in actions.CARD_ACTIONS:
            day = self.day(datetime.fromtimestamp(now, UTC))
            until = int(day.end.timestamp())
            return actions.change_cards(journal, action, now, until=until, due=now + days * 86400, days=days)
        if (action in (BulkAction.TAG, BulkAction.UNTAG) and not tag) or (
            action == BulkAction.MOVE_DECK and deck is None
        ):
            return bulk_journal.Changed(0, 0)
        changed = unit_actions.change_units(journal, action, now, tag=tag, deck=deck)
        if action in (BulkAction.PIN, BulkAction.UNPIN) and changed.units:
            retention = (
                self.config.pinned_retention if action == BulkAction.PIN else self.config.desired_retention
            )
            cards = unit_actions.snapshot_unit_cards(journal)
            unit_actions.pin_due(journal, scheduler.days_per_stability(retention, self.parameters()))
            bulk_journal.change_count(journal, cards)
            changed = bulk_journal.Changed(cards, changed.units)
        return changed

    def move_to_deck(self, selection: Selection, article_id: int | None) -> BulkResult:
        """The selection's units (with every card of each) into `article_id`'s deck; None, or
        their own source article, puts them back in the source's deck. The deck is where they are
        reviewed and exported; evidence and the Article screen stay the source's. Undoable."""
        if article_id is None:
            return self.act(BulkAction.SOURCE_DECK, selection)
        return self.act(BulkAction.MOVE_DECK, selection, deck=article_id)

    # --- articles and the trash -----------------------------------------------------------

    def delete_article(self, article_id: int) -> BulkResult:
        """The article leaves the library and its units go to the trash (their cards out of
        review, their history kept), restorable for 30 days; undoable."""
        now = self.clock.epoch()
        with checkpoint_after(), bulk_journal.bulk_cache(), write_transaction():
            if not trash.mark_deleted(article_id, now):
                return BulkResult("delete_article", 0, 0, 0)
            bulk_journal.clear_target()
            bulk_journal.target_article(article_id)
            journal = bulk_journal.open_journal("delete_article", now, article_id=article_id)
            changed = unit_actions.change_units(journal, BulkAction.TRASH, now)
            journal = actions.close_journal(journal, "delete_article")
        return BulkResult("delete_article", changed.cards, changed.units, journal)

    def restore_article(self, article_id: int) -> BulkResult:
        """Back from the trash: the article and the units trashed with it (or after)."""
        now = self.clock.epoch()
        with checkpoint_after(), bulk_journal.bulk_cache(), write_transaction():
            deleted_at = trash.unmark_deleted(article_id)
            if deleted_at is None:
                return BulkResult("restore_article", 0, 0, 0)
            bulk_journal.clear_target()
            bulk_journal.target_trashed_since(article_id, deleted_at)
            journal = bulk_journal.open_journal("restore_article", now, article_id=article_id)
            changed = unit_actions.change_units(journal, BulkAction.RESTORE, now)
            journal = actions.close_journal(journal, "restore_article")
        return BulkResult("restore_article", changed.cards, changed.units, journal)

    def trash(self, limit: int = 500, offset: int = 0) -> list[TrashEntry]:
        return trash.units(limit, offset)

    def trash_count(self) -> int:
        return trash.count_units()

    def deleted_articles(self) -> list[tuple[int, str, int]]:
        return trash.articles()

    def purge(self, unit_ids: list[int]) -> int:
        """Delete trashed units for good now (not undoable: the trash view asks first)."""
        with write_transaction():
            return trash.purge_units(unit_ids)

    # --- card info -------------------------------------------------------------------------

    def card_info(self, card_id: int) -> CardInfo | None:
        card, source = review_cards.get_card(card_id), review_cards.card_source(card_id)
        if card is None or source is None:
            return None
        params = self.parameters()
        now = datetime.fromtimestamp(self.clock.epoch(), UTC)
        at = lambda t: datetime.fromtimestamp(t, UTC)  # noqa: E731
        entries: list[ReviewEntry] = []
        previous: tuple[int, float | None] | None = None
        for log in info.logs(card_id):
            r = None
            if previous is not None and previous[1]:
                r = scheduler.retrievability(previous[1], at(previous[0]), at(log.reviewed_at), params)
            entries.append(ReviewEntry(log.reviewed_at, log.rating, log.scheduled_days, r, log.stability))
            previous = (log.reviewed_at, log.stability)
        r_now = None
        if card.last_review is not None and card.stability:
            r_now = scheduler.retrievability(card.stability, at(card.last_review), now, params)
        interval = (card.due - card.last_review) // 86400 if card.last_review is not None else None
        return CardInfo(
            **source_fields(source),
            card=card,
            retrievability=r_now,
            interval_days=interval,
            reviews=tuple(entries),
            curve=_curve(card.stability, interval, params),
        )


def _with_r(row: BrowseRow, now: int, params: tuple[float, ...]) -> BrowseRow:
    if row.last_review is None or not row.stability:
        return row
    elapsed = datetime.fromtimestamp(row.last_review, UTC)
    r = scheduler.retrievability(row.stability, elapsed, datetime.fromtimestamp(now, UTC), params)
    return replace(row, retrievability=r)


def _curve(
    stability: float | None, interval: int | None, params: tuple[float, ...]
) -> tuple[tuple[float, float], ...]:
    """The forgetting curve R(t) from the last review over twice the interval (at least 30 days)."""
    if not stability:
        return ()
    span = max(30.0, 2.0 * (interval or 0))
    decay, factor = decay_factor(params)
    return tuple(
        (t, float((1 + factor * t / stability) ** decay))
        for t in (span * i / (CURVE_POINTS - 1) for i in range(CURVE_POINTS))
    )
