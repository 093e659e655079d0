"""Schedule tools: easy days, vacations, the 30-day forecast at each retention choice,
rescheduling for a new desired retention (the workload change shown first), review ahead and
postpone, and moving already scheduled cards off easy days and vacations.

Easy days and vacations are the library's (settings table: "easy_days", "vacations"), so every
answer's load balancing reads them (`day_rule`, core.services.review.service) and so does this.
Every change of due dates is one transaction in the Browse journal: `u` in Browse or Schedule
takes it back. Setting easy days or adding a vacation is one change with the cards it moves (one
transaction, one entry): its undo puts the setting back too, unless it was changed since.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import scheduler
from core.domain.browse import BulkAction, BulkResult, Forecast, Selection, WorkloadChange
from core.services.browse.service import BrowseService
from core.services.clocked import Clocked
from core.storage.browse import actions
from core.storage.browse import journal as bulk_journal
from core.storage.browse import schedule as schedule_repo
from core.storage.checkpoint import checkpoint_after
from core.storage.db import write_transaction
from core.storage.review import cards as review_repo
from scheduler.workload import (
    NO_LOAD_CHANGE,
    DayRule,
    Scheduled,
    days_of,
    parse_easy_days,
    parse_vacation,
    rebalance,
    window,
)

DAY = 86400
HORIZON = 30  # forecast days
RETENTIONS = (0.80, 0.85, 0.90, 0.95)
MOVE_AHEAD = 90  # days of scheduled cards that easy days and vacations may move


def day_rule() -> DayRule:
    """The library's easy days and vacations (what of them can be read: see `stored_days`)."""
    return stored_days()[0]


def stored_days() -> tuple[DayRule, tuple[tuple[date, date], ...], tuple[str, ...]]:
    """The library's easy days and vacations: the rule, the vacations (first, last) and what of
    the settings cannot be read, each said in a sentence. A setting written wrong (a library
    edited by hand, a bad copy) is left out, never raised: every answer's load balancing reads
    it, and a review must not fail for it. Each is held to the rules it was saved under
    (parse_easy_days, parse_vacation: at most a year a vacation, so a wrong one cannot ask for
    millions of days)."""
    problems: list[str] = []
    easy = _setting("easy_days", problems, "e sets them again")
    factors = NO_LOAD_CHANGE
    if easy:
        try:
            if not isinstance(easy, list) or not all(_is_number(x) for x in easy):
                raise ValueError("not a list of numbers")
            factors = parse_easy_days(" ".join(str(x) for x in easy))
        except ValueError:
            problems.append(
                f"the stored easy days {_shown(easy)} cannot be read: left out (e sets them again)"
            )
    spans: set[tuple[date, date]] = set()
    for item in _stored_vacations(problems):
        span = _vacation(item)
        if span is None:
            problems.append(
                f"the stored vacation {_shown(item)} cannot be read: left out (V clears the vacations)"
            )
        else:
            spans.add(span)
    ordered = tuple(sorted(spans))
    return DayRule(factors, days_of(ordered)), ordered, tuple(problems)


def _setting(key: str, problems: list[str], mend: str) -> Any:
    """A stored setting, None when there is none or its JSON cannot be read (said in `problems`)."""
    try:
        return review_repo.get_setting(key)
    except ValueError:  # not JSON at all
        problems.append(f"the stored {key.replace('_', ' ')} cannot be read: left out ({mend})")
        return None


def _stored_vacations(problems: list[str]) -> list[Any]:
    stored = _setting("vacations", problems, "V clears the vacations")
    return stored if isinstance(stored, list) else [] if stored is None else [stored]


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _vacation(item: object) -> tuple[date, date] | None:
    """A stored vacation [first, last] (ISO dates) as parse_vacation reads it; None when it is not one."""
    if not (isinstance(item, list) and len(item) == 2 and all(isinstance(d, str) and d for d in item)):
        return None
    try:
        return parse_vacation(f"{item[0]}..{item[1]}")
    except ValueError:
        return None


def _shown(value: object) -> str:
    """A stored value as it reads in a sentence, cut to a line."""
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


@dataclass
class ScheduleService(Clocked):
    @property
    def browse(self) -> BrowseService:
        return BrowseService(self.settings, self.clock, self.tz)

    def _today(self) -> tuple[int, date]:
        """Today as a UTC day number and date (load balancing counts UTC days)."""
        day = self.clock.epoch() // DAY
        return day, date(1970, 1, 1) + timedelta(days=day)

    # --- easy days and vacations ------------------------------------------------------------

    def set_easy_days(self, text: str) -> BulkResult:
        """'1 1 1 1 1 0.5 0.5' (Monday first), and the cards already scheduled moved off the
        lighter days (apply_days): one transaction, one undo, which puts the easy days back too.
        ValueError says what is wrong, before anything is written."""
        factors = list(parse_easy_days(text))
        return self._move_off_days("easy_days", "easy_days", lambda: factors)

    def add_vacation(self, text: str) -> BulkResult:
        """A vacation more ('2026-12-24..2026-12-31', or one day), and the cards moved off it, as
        set_easy_days. A stored one that cannot be read stays as it is, after the others, to be
        mended or cleared (V); a setting that is not JSON at all (no list to add to) is replaced."""
        span = parse_vacation(text)

        def vacations() -> list[Any]:  # read in the transaction that writes them
            spans = {span}
            unreadable = []
            for item in _stored_vacations([]):
                stored = _vacation(item)
                if stored is None:
                    unreadable.append(item)
                else:
                    spans.add(stored)
            return [[a.isoformat(), b.isoformat()] for a, b in sorted(spans)] + unreadable

        return self._move_off_days("vacation", "vacations", vacations)

    def clear_vacations(self) -> DayRule:
        review_repo.put_setting("vacations", [])
        return day_rule()

    def vacations(self) -> list[tuple[str, str]]:
        return [(a.isoformat(), b.isoformat()) for a, b in stored_days()[1]]

    def apply_days(self) -> BulkResult:
        """Move the cards already scheduled off the days off as the settings stand (undoable)."""
        return self._move_off_days("apply_days")

    def _move_off_days(
        self, action: str, key: str | None = None, value: Callable[[], Any] | None = None
    ) -> BulkResult:
        """In one transaction and one journal entry: the setting `key` set to `value()` (its
        change kept with the entry for the undo), then the cards moved off the days it makes
        lighter (the reads in the transaction too: a card answered meanwhile is not moved
        back to where it was)."""
        now = self.clock.epoch()
        with checkpoint_after(), bulk_journal.bulk_cache(), write_transaction():
            journal = bulk_journal.open_journal(action, now)
            if key is not None and value is not None:
                bulk_journal.set_setting(journal, key, value())
            n = actions.move_cards(journal, self._off_days(now), now)
            journal = actions.close_journal(journal, action)
        return BulkResult(action, n, 0, journal)

    def _off_days(self, now: int) -> dict[int, int]:
        """New due times of the review cards due in the next MOVE_AHEAD days on vacation days
        and easy days, each moved inside its own fuzz window (widened past the days off) to
        lighter days. Only the cards due on such days can move (rebalance leaves the others
        where they are, and per_day counts them as load): those are the ones read."""
        first, today = self._today()
        rule = day_rule()
        lighter = [i for i in range(MOVE_AHEAD) if rule.factor(today + timedelta(days=i)) < 1]
        cards = []
        old: dict[int, int] = {}
        # a card's window depends on its day and interval alone: worked out once per pair (on
        # bench_browse's 1M-card library 217k cards here have 421 pairs; a window a card, 0.85 s)
        windows: dict[tuple[int, int], tuple[int, int]] = {}
        for card_id, due, last in schedule_repo.due_on(first, lighter):
            interval = max(1, round((due - last) / DAY))
            day = max(0, due // DAY - first)
            span = windows.get((day, interval))
            if span is None:
                span = windows[day, interval] = window(
                    day, interval, scheduler.fuzz_range(interval), rule, today
                )
            cards.append(Scheduled(card_id, day, *span))
            old[card_id] = due
        moves = rebalance(cards, schedule_repo.per_day(first, MOVE_AHEAD + 400), rule, today)
        # a moved card keeps its time of day (never before now)
        return {card_id: max(now, (first + day) * DAY + old[card_id] % DAY) for card_id, day in moves.items()}

    # --- forecast and retention ------------------------------------------------------------

    def forecast(self, retentions: tuple[float, ...] = RETENTIONS) -> Forecast:
        """Cards due per day: review cards, and learning cards (a step later today is a review
        today; the session shows it), the same at every retention."""
        first, today = self._today()
        counts = schedule_repo.per_day(first, HORIZON)
        learning = schedule_repo.learning_per_day(first, HORIZON)
        params = self.browse.parameters()
        chosen = sorted({*retentions, self.config.desired_retention})
        ks = [scheduler.days_per_stability(r, params) for r in chosen]
        also = sum(learning.values())
        projected = schedule_repo.projected_totals(first, HORIZON, ks)
        totals = tuple((r, n + also) for r, n in zip(chosen, projected, strict=True))
        rule, stored, problems = stored_days()
        spans = tuple((a.isoformat(), b.isoformat()) for a, b in stored)
        return Forecast(
            days=tuple((today + timedelta(days=i)).isoformat() for i in range(HORIZON)),
            due=tuple(counts[i] + learning[i] for i in range(HORIZON)),
            by_retention=totals,
            easy_days=rule.easy_days,
            vacations=spans,
            problems=problems,
        )

    def retention_change(self, new: float, old: float | None = None) -> WorkloadChange:
        """What rescheduling for `new` would do to the next HORIZON days (from `old`, by default
        the desired retention in the settings)."""
        first, _ = self._today()
        params = self.browse.parameters()
        return WorkloadChange(
            old_retention=self.config.desired_retention if old is None else old,
            new_retention=new,
            cards=schedule_repo.retimed_count(),
            old_total=sum(schedule_repo.per_day(first, HORIZON).values()),
            new_total=schedule_repo.projected_totals(
                first, HORIZON, [scheduler.days_per_stability(new, params)]
            )[0],
        )

    def reschedule(self, retention: float) -> BulkResult:
        """Re-time every review card (of units not pinned) for `retention`: one transaction, undoable."""
        now = self.clock.epoch()
        k = scheduler.days_per_stability(retention, self.browse.parameters())
        with checkpoint_after(), bulk_journal.bulk_cache(), write_transaction():
            journal = bulk_journal.open_journal("reschedule", now)
            n = actions.retime_reviews(journal, k)
            journal = actions.close_journal(journal, "reschedule")
        return BulkResult("reschedule", n, 0, journal)

    # --- review ahead, postpone -----------------------------------------------------------------

    def review_ahead(self, days: int) -> BulkResult:
        """Review cards due within `days` days are due now (today's session takes them)."""
        f = self.browse.parse(f"state:review due<{max(0, days)}").filter
        return self.browse.act(BulkAction.ADVANCE, Selection(f))

    def postpone(self, days: int) -> BulkResult:
        """Review cards due today (overdue included) are due `days` days later."""
        f = self.browse.parse("state:review due<0").filter
        return self.browse.act(BulkAction.POSTPONE, Selection(f), days=max(1, days))


def utc_day(base: int, days: int = 0) -> date:
    """The UTC date `days` days after the UTC day of epoch `base` (load balancing's days)."""
    return date(1970, 1, 1) + timedelta(days=base // DAY + days)
