"""Today's queue: the cards left in this sitting's session, in the order they are shown.

Built from the library by `build_today` (reviews due by the day's end and new cards, capped by
the day's limits less what was done today) and then kept in memory. The app answers in a worker
thread while the UI thread reads the session, so `TodayQueue` is only touched under its lock,
which is never held across a database call.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime

import scheduler
from core.domain.review import Queue
from core.host.config import Config
from core.services.review.convert import as_epoch
from core.storage.review import queue as review_queue


@dataclass
class TodayQueue:
    day_start: int | None = None  # the review day it was built for (None: build before use)
    _ids: deque[int] = field(default_factory=deque, repr=False)
    _kinds: dict[int, Queue] = field(default_factory=dict, repr=False)  # card -> NEW / REVIEW
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def replace(self, ids: list[int], kinds: dict[int, Queue], day_start: int) -> None:
        with self._lock:
            self._ids = deque(ids)
            self._kinds = kinds
            self.day_start = day_start

    def head(self) -> int | None:
        with self._lock:
            return self._ids[0] if self._ids else None

    def drop(self, card_id: int) -> None:
        """Take a card out (answered, gone, or about to be put back at the front)."""
        with self._lock:
            if self._ids and self._ids[0] == card_id:
                self._ids.popleft()
            elif card_id in self._ids:
                self._ids.remove(card_id)

    def push_front(self, card_id: int) -> None:
        """Show this card next (an undone answer): once, at the front."""
        with self._lock:
            if card_id in self._ids:
                self._ids.remove(card_id)
            self._ids.appendleft(card_id)

    def left(self) -> tuple[int, int]:
        """(new, reviews) still to show."""
        with self._lock:
            new = sum(1 for cid in self._ids if self._kinds.get(cid) == Queue.NEW)
            return new, len(self._ids) - new

    def ids(self) -> list[int]:
        with self._lock:
            return list(self._ids)


def build_today(
    config: Config, day: scheduler.DayWindow, now: datetime
) -> tuple[list[int], dict[int, Queue]]:
    """Today's queue from the library: the card ids in order and whether each is NEW or REVIEW."""
    start, end = as_epoch(day.start), as_epoch(day.end)
    new_done, reviews_done, _ = review_queue.done_since(start)
    review_limit = max(0, config.max_reviews_per_day - reviews_done)
    new_limit = max(0, config.new_per_day - new_done)
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
    return [c.card_id for c in queue], kinds
