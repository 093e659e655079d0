"""The review use cases: today's session, answers, undo, suspend/bury, pin/trash, backlog.

API for the TUI (all headless; every method returns frozen dataclasses from review_types):

    svc.review.start_session() -> SessionSummary   # unbury, build today's queue
    svc.review.next_card()     -> ReviewItem | None  # learning due now first, then the queue
    svc.review.answer(card_id, Rating.GOOD, duration_ms=None) -> AnswerResult
    svc.review.undo()          -> UndoResult | None  # several steps; survives a restart
    svc.review.suspend(card_id) / unsuspend(card_id) / bury(card_id) -> bool
    svc.review.pin_unit(unit_id, pinned=True) / trash_unit(unit_id) / restore_unit(unit_id) -> bool
    svc.review.postpone_backlog(keep=None, days=7) -> int
    svc.review.summary()       -> SessionSummary
    svc.review.card(card_id) / cards_of_unit(unit_id) -> CardView
    svc.review.suspended() / leeches() -> list[CardView]
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
from collections import deque
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

import scheduler
from core.domain.errors import MemoryRushError
from core.domain.review import (
    AnswerResult,
    CardView,
    OptimizeResult,
    Queue,
    ReviewItem,
    SessionSummary,
    UndoResult,
)
from core.host.clock import Clock
from core.host.config import Config, Settings
from core.services.browse.schedule import day_rule, utc_day
from core.services.review.answer import decide
from core.services.review.convert import as_epoch, card_view, to_state
from core.services.review.parameters import fsrs_parameters, save_parameters
from core.storage import curation as curation_repo
from core.storage.db import discarded, write_transaction
from core.storage.review import cards
from core.storage.review import queue as review_queue
from core.storage.review.cards import CardContent, CardRow
from scheduler import Policy, Rating
from scheduler.workload import weighted

log = logging.getLogger(__name__)
log.addHandler(logging.NullHandler())  # the app shows AnswerResult.warnings; no stray stderr output
LEARN_AHEAD_S = 20 * 60  # with nothing else left, learning cards due this soon are shown early


_SHOWN = tuple(f.name for f in fields(CardContent))  # what a ReviewItem shows of a card's content


class UnknownCard(MemoryRushError):
    """The card does not exist (its unit was purged?)."""


@dataclass
class ReviewService:
    settings: Settings
    clock: Clock
    tz: tzinfo | None = None  # None: the machine's local zone
    fuzz: bool = True  # off in golden tests
    rng: random.Random = field(default_factory=random.Random)
    _queue: deque[int] = field(default_factory=deque, init=False, repr=False)
    _kinds: dict[int, Queue] = field(default_factory=dict, init=False, repr=False)  # card -> NEW / REVIEW
    _day_start: int | None = field(default=None, init=False, repr=False)
    # The app answers in a worker thread while the UI thread reads the session: the queue is
    # only touched under this lock (never held across a database call).
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    _parameters: tuple[float, ...] | None = field(default=None, init=False, repr=False)

    @property
    def config(self) -> Config:
        return self.settings.current

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

    def now(self) -> datetime:
        return self.clock.now().astimezone(UTC).replace(microsecond=0)

    def day(self, now: datetime | None = None) -> scheduler.DayWindow:
        tz = self.tz or datetime.now().astimezone().tzinfo or UTC
        return scheduler.review_day(now or self.now(), tz, self.config.day_starts_at_hour)

    # --- the session ----------------------------------------------------------------------

    def start_session(self) -> SessionSummary:
        """Unbury what is due back, (re)build today's queue and return the summary."""
        now = self.now()
        cards.unbury(as_epoch(now))
        self._build(now)
        return self.summary()

    def preview_session(self) -> SessionSummary:
        """start_session's summary, written nowhere: burials that have ended are lifted inside
        a transaction that is rolled back, so the counts are what a session will show and the
        library is unchanged (`memoryrush session` runs beside the app, without its lock)."""
        with discarded():
            summary = self.start_session()
        self._day_start = None  # the queue was built on the discarded state: build again if asked
        return summary

    def _build(self, now: datetime) -> None:
        day = self.day(now)
        start, end = as_epoch(day.start), as_epoch(day.end)
        new_done, reviews_done, _ = review_queue.done_since(start)
        review_limit = max(0, self.config.max_reviews_per_day - reviews_done)
        new_limit = max(0, self.config.new_per_day - new_done)
        # fetch more than the cap (siblings drop out); fetch again, deeper, only when still short
        fetch_reviews, fetch_new = review_limit + review_limit // 2 + 20, new_limit * 2 + 20
        while True:
            reviews = (
                review_queue.due_review_candidates(end, as_epoch(now), fetch_reviews) if review_limit else []
            )
            new = review_queue.new_candidates(fetch_new) if new_limit else []
            queue = scheduler.build_queue(
                [scheduler.Candidate(c, u) for c, u in reviews],
                [scheduler.Candidate(c, u) for c, u in new],
                review_limit=review_limit,
                new_limit=new_limit,
            )
            fresh = {c for c, _ in new}
            got_new = sum(1 for c in queue if c.card_id in fresh)
            short_reviews = len(queue) - got_new < review_limit and len(reviews) == fetch_reviews
            short_new = got_new < new_limit and len(new) == fetch_new
            if not (short_reviews or short_new):
                break
            fetch_reviews, fetch_new = fetch_reviews * 2, fetch_new * 4
        kinds = {c.card_id: Queue.NEW if c.card_id in fresh else Queue.REVIEW for c in queue}
        with self._lock:
            self._queue = deque(c.card_id for c in queue)
            self._kinds = kinds
            self._day_start = start

    def _ensure_day(self, now: datetime) -> scheduler.DayWindow:
        day = self.day(now)
        if self._day_start != as_epoch(day.start):
            cards.unbury(as_epoch(now))
            self._build(now)
        return day

    def next_card(self) -> ReviewItem | None:
        """The card to show now: a learning card that is due, else the next of today's queue,
        else a learning card due within 20 minutes. None when the session is done."""
        now = self.now()
        day = self._ensure_day(now)
        t = as_epoch(now)
        due_learning = review_queue.next_learning(t)
        if due_learning is not None:
            return self._item(due_learning[0], now)
        end = as_epoch(day.end)
        while (head := self._head()) is not None:
            row = cards.get_card(head)
            if row is not None and (row.queue == Queue.NEW or (row.queue == Queue.REVIEW and row.due < end)):
                return self._item(row.id, now, row)
            self._drop(head)
        ahead = review_queue.next_learning(t + LEARN_AHEAD_S)
        return self._item(ahead[0], now) if ahead is not None else None

    def _head(self) -> int | None:
        with self._lock:
            return self._queue[0] if self._queue else None

    def _drop(self, card_id: int) -> None:
        """Take a card out of today's queue (answered, gone, or put back at the front)."""
        with self._lock:
            if self._queue and self._queue[0] == card_id:
                self._queue.popleft()
            elif card_id in self._queue:
                self._queue.remove(card_id)

    def summary(self) -> SessionSummary:
        now = self.now()
        day = self._ensure_day(now)
        start, end, t = as_epoch(day.start), as_epoch(day.end), as_epoch(now)
        with self._lock:
            new_left = sum(1 for cid in self._queue if self._kinds.get(cid) == Queue.NEW)
            reviews_left = len(self._queue) - new_left
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

    def answer(
        self, card_id: int, rating: Rating | int, *, duration_ms: int | None = None, wait: bool = True
    ) -> AnswerResult:
        """Rate a card (1 again, 2 hard, 3 good, 4 easy): read, decide and save in one IMMEDIATE
        transaction (another process cannot change the card in between). wait=False: raise
        DatabaseBusy at once, nothing saved, when another process holds the write lock."""
        grade = Rating(int(rating))
        now = self.now()
        day = self._ensure_day(now)
        with write_transaction(wait=wait):
            row = cards.get_card(card_id)
            if row is None:
                raise UnknownCard(f"card {card_id} does not exist (its unit may have been purged)")
            planned = scheduler.plan(to_state(row), grade, now, self.policy(cards.unit_pinned(row.unit_id)))
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
            saved = cards.save_answer(
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
        self._drop(card_id)
        new = decision.card
        interval = scheduler.format_interval(timedelta(seconds=new.due - as_epoch(decision.reviewed_at)))
        return AnswerResult(
            card=self._view(new, now),
            review_log_id=saved.review_log_id,
            interval=interval,
            buried_siblings=saved.buried,
            became_leech=decision.became_leech,
            warnings=tuple(warnings),
        )

    def undo(self) -> UndoResult | None:
        """Undo the latest review action (rating, suspend, bury, pin, postpone...)."""
        done = cards.undo_last(as_epoch(self.now()))
        if done is None:
            return None
        action, card_id = done
        if card_id is not None:
            row = cards.get_card(card_id)
            if row is not None and row.queue in (Queue.NEW, Queue.REVIEW):
                self._drop(card_id)
                with self._lock:
                    self._queue.appendleft(card_id)
        return UndoResult(action, card_id)

    def can_undo(self) -> bool:
        return cards.undo_depth() > 0

    # --- card and unit actions ---------------------------------------------------------------

    def _change(self, action: str, card_id: int, **changes: Any) -> bool:
        row = cards.get_card(card_id)
        if row is None:
            return False
        new = replace(row, **changes)
        if new == row:
            return False
        cards.update_cards(action, [new], as_epoch(self.now()), card_id=card_id)
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
        return cards.set_pinned(unit_id, pinned, rows, as_epoch(self.now()))

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
        n = cards.update_cards("postpone", changed, t)
        self._build(now)
        return n

    def optimize(self, *, reschedule: bool = False, min_reviews: int | None = None) -> OptimizeResult:
        """Fit FSRS parameters to the review log (see review_optimize); NotEnoughReviews below the minimum."""
        from core.services.review import optimize as review_optimize

        if min_reviews is None:
            return review_optimize.optimize(self, reschedule=reschedule)
        return review_optimize.optimize(self, reschedule=reschedule, min_reviews=min_reviews)

    # --- views -----------------------------------------------------------------------------------

    def _view(self, row: CardRow, now: datetime) -> CardView:
        return card_view(row, now, self.parameters())

    def _item(self, card_id: int, now: datetime, row: CardRow | None = None) -> ReviewItem | None:
        row = row or cards.get_card(card_id)
        content = cards.card_content(card_id)
        if row is None or content is None:
            return None
        policy = self.policy(content.pinned)
        intervals = {
            int(k): scheduler.format_interval(v)
            for k, v in scheduler.preview(to_state(row), now, policy).items()
        }
        # CardContent's fields are ReviewItem's (question, answer, unit, article ...)
        shown = {name: getattr(content, name) for name in _SHOWN}
        return ReviewItem(card=self._view(row, now), intervals=intervals, **shown)

    def card(self, card_id: int) -> CardView | None:
        row = cards.get_card(card_id)
        return self._view(row, self.now()) if row else None

    def cards_of_unit(self, unit_id: int) -> list[CardView]:
        now = self.now()
        return [self._view(r, now) for r in cards.cards_of_unit(unit_id)]

    def suspended(self, limit: int = 1000) -> list[CardView]:
        now = self.now()
        return [self._view(r, now) for r in cards.cards_where(Queue.SUSPENDED, limit)]

    def leeches(self, limit: int = 1000) -> list[CardView]:
        now = self.now()
        return [self._view(r, now) for r in cards.cards_where(Queue.SUSPENDED, limit, leech_only=True)]
