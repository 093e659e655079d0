"""The review use cases: today's session, answers, undo, suspend/bury, pin/trash, backlog.

API for the TUI (all headless; every method returns frozen dataclasses from review_types):

    svc.review.start_session() -> SessionSummary   # unbury (no wait), build today's queue
    svc.review.rollover_waiting() / catch_up() -> bool  # a new day's unbury a held lock put off
    svc.review.next_card()     -> ReviewItem | None  # learning due now first, then the queue
    svc.review.answer(card_id, Rating.GOOD, duration_ms=None) -> AnswerResult
    svc.review.show_again(card_id)  # an undone action's card next (svc.undo: core/services/undo.py)
    svc.review.suspend(card_id) / unsuspend(card_id) / bury(card_id) -> bool
    svc.review.pin_unit(unit_id, pinned=True) / trash_unit(unit_id) / restore_unit(unit_id) -> bool
    svc.review.postpone_backlog(keep=None, days=7) -> int
    svc.review.summary()       -> SessionSummary
    svc.review.new_today()     -> int   # the new cards today's session shows (Home's "N new")
    svc.review.card(card_id) / cards_of_unit(unit_id) -> Card
    svc.review.suspended() / leeches() -> list[Card]
    svc.review.optimize(reschedule=False) -> OptimizeResult   # NotEnoughReviews below 400 reviews

Every answer is one IMMEDIATE transaction (card, review log, burial of the unit's other
questions for the rest of the day, undo entry); on DatabaseBusy / DiskFull (StorageError)
nothing was written and the same card can be answered again. A card that no longer exists
raises UnknownCard. A clock behind the card's last review is not obeyed: the answer counts at
the last review time and AnswerResult.warnings says so (also logged).
The day starts at `config.day_starts_at_hour` local time in `tz` (None = this machine's zone).
Ratings are `Rating.AGAIN/HARD/GOOD/EASY` (1-4, from core.domain.review).
"""

from __future__ import annotations

import logging
import random
import threading
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

import scheduler
from core.domain.card import Card, source_fields
from core.domain.errors import DatabaseBusy, MemoryRushError
from core.domain.review import (
    AnswerResult,
    OptimizeResult,
    Queue,
    ReviewItem,
    SessionSummary,
)
from core.services.browse.schedule import day_rule, utc_day
from core.services.clocked import Clocked
from core.services.review.answer import decide
from core.services.review.convert import as_epoch, as_utc
from core.services.review.parameters import fsrs_parameters, save_parameters
from core.services.review.today import TodayQueue, build_today
from core.storage import curation as curation_repo
from core.storage.db import discarded, write_transaction
from core.storage.review import cards
from core.storage.review import queue as review_queue
from core.storage.review import writes as review_writes
from scheduler import CardState, Policy, Rating
from scheduler.workload import weighted

log = logging.getLogger(__name__)
log.addHandler(logging.NullHandler())  # the app shows AnswerResult.warnings; no stray stderr output
LEARN_AHEAD_S = 20 * 60  # with nothing else left, learning cards due this soon are shown early


class UnknownCard(MemoryRushError):
    """The card does not exist (its unit was purged?)."""


@dataclass
class ReviewService(Clocked):
    fuzz: bool = True  # off in golden tests
    rng: random.Random = field(default_factory=random.Random)
    today: TodayQueue = field(default_factory=TodayQueue, init=False, repr=False)
    _unbury_due: bool = field(default=False, init=False, repr=False)  # a new day's unbury is still to do
    # The day's queue and `_unbury_due` change together: the app's UI thread reads (next_card,
    # summary) while its writer thread starts the session or lifts a new day's burials.
    _day_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    _parameters: tuple[float, ...] | None = field(default=None, init=False, repr=False)

    # --- settings -----------------------------------------------------------------------

    def parameters(self) -> tuple[float, ...]:
        if self._parameters is None:
            self._parameters = fsrs_parameters()
        return self._parameters

    def set_parameters(self, parameters: tuple[float, ...] | None) -> None:
        save_parameters(parameters)
        self._parameters = None

    def policy(self, pinned: bool = False) -> Policy:
        c = self.config
        return Policy(
            desired_retention=c.pinned_retention if pinned else c.desired_retention,
            parameters=self.parameters(),
            learning_steps=tuple(c.learning_steps),
            relearning_steps=tuple(c.relearning_steps),
            fuzz=self.fuzz,
        )

    # --- the session ----------------------------------------------------------------------

    def start_session(self, *, wait: bool = False) -> SessionSummary:
        """Unbury what is due back, (re)build today's queue and return the summary. The unbury
        does not wait for another process's write lock unless `wait`: see `_ensure_day`."""
        with self._day_lock:
            self.today.day_start = None
        self._ensure_day(self.now(), wait=wait)
        return self.summary()

    def preview_session(self) -> SessionSummary:
        """start_session's summary, written nowhere: burials that have ended are lifted inside
        a transaction that is rolled back, so the counts are what a session will show and the
        library is unchanged (`memoryrush session` runs beside the app, without its lock)."""
        with discarded():
            summary = self.start_session(wait=True)
        with self._day_lock:  # the queue was built on the discarded state: build again if asked
            self.today.day_start = None
        return summary

    def new_today(self) -> int:
        """The new cards today's session shows: start_session's count (the day's limit less the
        new cards answered today, one card a unit), worked out on the side and written nowhere,
        so a session in progress keeps its queue. Home says this number."""
        now = self.now()
        with discarded():  # burials that ended are lifted first, as start_session lifts them
            cards.unbury(as_epoch(now))
            _, kinds = build_today(self.config, self.day(now), now)
        return sum(1 for kind in kinds.values() if kind == Queue.NEW)

    def _build(self, now: datetime) -> None:
        day = self.day(now)
        ids, kinds = build_today(self.config, day, now)
        self.today.replace(ids, kinds, as_epoch(day.start))

    def _ensure_day(self, now: datetime, *, wait: bool = False, lift: bool = True) -> scheduler.DayWindow:
        """Today's queue for the review day of `now`. A new day is built at once and its unbury
        (the burials that ended) is due: done here unless `lift=False` (a read on the app's UI
        thread, which writes nothing: `catch_up` on the writer thread does it), and never waiting
        for another process's lock unless `wait` (when the lock is held it stays due, for a later
        write or `catch_up`). Cards it lifts join the queue, built again."""
        day = self.day(now)
        start = as_epoch(day.start)
        with self._day_lock:
            if self.today.day_start != start:
                self._unbury_due = True
                self._build(now)
            if not (self._unbury_due and lift):
                return day
        try:
            lifted = cards.unbury(as_epoch(now), wait=wait)
        except DatabaseBusy:
            return day  # built without them now; they join the queue once the lock is free
        with self._day_lock:
            # A later day read meanwhile (midnight passed during the unbury) has its own to do.
            if self.today.day_start == start:
                self._unbury_due = False
                if lifted:
                    self._build(now)
        return day

    def rollover_waiting(self) -> bool:
        """A new day's unbury is still to be done: a read left it (`lift=False`), or it met
        another process's write lock."""
        return self._unbury_due

    def catch_up(self) -> bool:
        """For the writer thread: do a new day's unbury left to do, waiting for another process's
        lock (up to the busy timeout; DatabaseBusy after it, still due). True when it was done
        here; False when nothing was left (the session's start, or an answer, did it)."""
        if not self._unbury_due:
            return False
        self._ensure_day(self.now(), wait=True)
        return not self._unbury_due

    def next_card(self, *, lift: bool = True) -> ReviewItem | None:
        """The card to show now: a learning card that is due, else the next of today's queue,
        else a learning card due within 20 minutes. None when the session is done. `lift=False`
        writes nothing: a new day's unbury is left to `catch_up` (`rollover_waiting`)."""
        now = self.now()
        day = self._ensure_day(now, lift=lift)
        t = as_epoch(now)
        due_learning = review_queue.next_learning(t)
        if due_learning is not None:
            return self._item(due_learning[0], now)
        end = as_epoch(day.end)
        while (head := self.today.head()) is not None:
            row = cards.get_card(head)
            if row is not None and (row.queue == Queue.NEW or (row.queue == Queue.REVIEW and row.due < end)):
                return self._item(row.id, now, row)
            self.today.drop(head)
        ahead = review_queue.next_learning(t + LEARN_AHEAD_S)
        return self._item(ahead[0], now) if ahead is not None else None

    def summary(self, *, lift: bool = True) -> SessionSummary:
        """Today's counts: left, done, learning. `lift=False` as `next_card`'s."""
        now = self.now()
        day = self._ensure_day(now, lift=lift)
        start, end, t = as_epoch(day.start), as_epoch(day.end), as_epoch(now)
        new_left, reviews_left = self.today.left()
        # learning cards of this sitting: due now, or soon enough for next_card to show them
        # early (the card on screen may be one: "learning 0 left" under a learning card was wrong)
        learning_due = review_queue.count_queue(Queue.LEARNING, t + LEARN_AHEAD_S + 1)
        learning_today = review_queue.count_queue(Queue.LEARNING, end)
        nxt = review_queue.next_learning(end)
        new_done, reviews_done, answers = review_queue.done_since(start)
        overdue = review_queue.count_queue(Queue.REVIEW, start)
        return SessionSummary(
            day_start=start,
            day_end=end,
            new_left=new_left,
            reviews_left=reviews_left,
            learning_due=learning_due,
            learning_later=learning_today - learning_due,
            next_learning_at=nxt[1] if nxt else None,
            new_done=new_done,
            reviews_done=reviews_done,
            answers_today=answers,
            overdue_backlog=max(0, overdue - max(0, self.config.max_reviews_per_day - reviews_done)),
        )

    # --- answers ----------------------------------------------------------------------------

    def answer(self, card_id: int, rating: Rating | int, *, duration_ms: int | None = None) -> AnswerResult:
        """Rate a card (1 again, 2 hard, 3 good, 4 easy): read, decide and save in one IMMEDIATE
        transaction (another process cannot change the card in between). DatabaseBusy, nothing
        saved, when another process holds the write lock past the busy timeout."""
        grade = Rating(int(rating))
        now = self.now()
        day = self._ensure_day(now, wait=True)
        with write_transaction():
            row = cards.get_card(card_id)
            if row is None:
                raise UnknownCard(f"card {card_id} does not exist (its unit may have been purged)")
            planned = scheduler.plan(
                CardState.of(row), grade, now, self.policy(cards.unit_pinned(row.unit_id))
            )
            # load balancing counts review cards per UTC day of the candidate due times
            load: list[float] | None = None
            if planned.fuzz_days is not None:  # cards due per fuzz day, weighed by easy days and vacations
                counts = review_queue.due_load(as_epoch(now), *planned.fuzz_days)
                load = weighted(counts, utc_day(as_epoch(now), planned.fuzz_days[0]), day_rule())
            decision = decide(
                row,
                planned,
                load=load,
                rng=self.rng,
                now=now,
                duration_ms=duration_ms,
                leech_threshold=self.config.leech_threshold,
            )
            saved = review_writes.save_answer(
                row, decision.card, decision.log, now=as_epoch(now), bury_until=as_epoch(day.end)
            )
        warnings: list[str] = []
        if decision.clock_skew_s:
            msg = (
                f"the clock is {decision.clock_skew_s} s behind this card's last review; "
                "the answer was recorded at the last review time instead"
            )
            log.warning("card %s: %s", card_id, msg)
            warnings.append(msg)
        self.today.drop(card_id)
        new = decision.card
        interval = scheduler.format_interval(timedelta(seconds=new.due - as_epoch(decision.reviewed_at)))
        return AnswerResult(
            card=new,
            review_log_id=saved.review_log_id,
            interval=interval,
            buried_siblings=saved.buried,
            became_leech=decision.became_leech,
            warnings=tuple(warnings),
        )

    def show_again(self, card_id: int | None) -> None:
        """An undone action's card (core/services/undo.py) is shown next, while it is one the
        session shows (a new or a review card). Under the day's lock, as the queue's builds: a
        queue built again at that moment (a new day read on the UI thread) would drop it."""
        if card_id is not None:
            row = cards.get_card(card_id)
            if row is not None and row.queue in (Queue.NEW, Queue.REVIEW):
                with self._day_lock:
                    self.today.push_front(card_id)

    # --- card and unit actions ---------------------------------------------------------------

    def _change(self, action: str, card_id: int, **changes: Any) -> bool:
        row = cards.get_card(card_id)
        if row is None:
            return False
        new = replace(row, **changes)
        if new == row:
            return False
        review_writes.update_cards(action, [new], as_epoch(self.now()), card_id=card_id)
        return True

    def suspend(self, card_id: int) -> bool:
        return self._change("suspend", card_id, suspended=True)

    def unsuspend(self, card_id: int) -> bool:
        return self._change("unsuspend", card_id, suspended=False)

    def bury(self, card_id: int) -> bool:
        """Hide the card until the next review day starts."""
        return self._change("bury", card_id, buried_until=as_epoch(self.day().end))

    def pin_unit(self, unit_id: int, pinned: bool = True) -> bool:
        """Pin: review the unit's cards at config.pinned_retention (default 0.97), re-timed now."""
        policy = self.policy(pinned)
        rows = []
        for row in cards.cards_of_unit(unit_id):
            if row.state == scheduler.REVIEW and row.stability and row.last_review is not None:
                days = scheduler.interval_for(row.stability, policy.desired_retention, policy.parameters)
                rows.append(replace(row, due=row.last_review + days * 86400))
        return review_writes.set_pinned(unit_id, pinned, rows, as_epoch(self.now()))

    def trash_unit(self, unit_id: int) -> bool:
        """Hide the unit and its cards (restorable for 30 days; curation undo also restores it)."""
        return curation_repo.trash(unit_id, as_epoch(self.now()))

    def restore_unit(self, unit_id: int) -> bool:
        return curation_repo.restore(unit_id, as_epoch(self.now()))

    def postpone_backlog(self, keep: int | None = None, days: int = 7) -> int:
        """Spread overdue review cards beyond `keep` (default: today's review cap) over the next
        `days` days, postponing first the cards whose recall suffers least from waiting."""
        now = self.now()
        day = self.day(now)
        start, t = as_epoch(day.start), as_epoch(now)
        keep = self.config.max_reviews_per_day if keep is None else max(0, keep)
        rows = review_queue.overdue_reviews(start)
        if len(rows) <= keep:
            return 0
        overdue = [scheduler.Overdue(cid, s or 0.001, (t - (lr or t)) / 86400) for cid, s, lr in rows]
        order = scheduler.postpone_order(overdue, days / 2, self.parameters())
        chosen = order[: len(rows) - keep]
        changed = []
        for i, cid in enumerate(chosen):
            row = cards.get_card(cid)
            if row is not None:
                changed.append(replace(row, due=start + (1 + i * days // len(chosen)) * 86400))
        n = review_writes.update_cards("postpone", changed, t)
        with self._day_lock:
            self._build(now)
        return n

    def optimize(self, *, reschedule: bool = False, min_reviews: int | None = None) -> OptimizeResult:
        """Fit FSRS parameters to the review log (see review_optimize); NotEnoughReviews below the minimum."""
        from core.services.review import optimize as review_optimize

        if min_reviews is None:
            return review_optimize.optimize(self, reschedule=reschedule)
        return review_optimize.optimize(self, reschedule=reschedule, min_reviews=min_reviews)

    # --- views -----------------------------------------------------------------------------------

    def _item(self, card_id: int, now: datetime, card: Card | None = None) -> ReviewItem | None:
        """The card with what it asks and where from, its R now and each answer's interval."""
        card = card or cards.get_card(card_id)
        source = cards.card_source(card_id)
        if card is None or source is None:
            return None
        policy = self.policy(source.pinned)
        intervals = {
            int(k): scheduler.format_interval(v)
            for k, v in scheduler.preview(CardState.of(card), now, policy).items()
        }
        r = scheduler.retrievability(card.stability, as_utc(card.last_review), now, self.parameters())
        return ReviewItem(**source_fields(source), card=card, retrievability=r, intervals=intervals)

    def card(self, card_id: int) -> Card | None:
        return cards.get_card(card_id)

    def cards_of_unit(self, unit_id: int) -> list[Card]:
        return cards.cards_of_unit(unit_id)

    def suspended(self, limit: int = 1000) -> list[Card]:
        return cards.cards_where(Queue.SUSPENDED, limit)

    def leeches(self, limit: int = 1000) -> list[Card]:
        return cards.cards_where(Queue.SUSPENDED, limit, leech_only=True)
