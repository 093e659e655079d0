"""Card rows <-> scheduler states <-> CardView, at the service edge (epoch ints <-> UTC datetimes)."""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import UTC, datetime

import scheduler
from core.domain.review import CardView, Queue, State
from core.storage.review.cards import CardRow
from scheduler import CardState

# Stored State and Queue values by name, "?" for a value no release writes.
STATE_LABELS = {s.value: s.label for s in State}
QUEUE_LABELS = {q.value: q.label for q in Queue}


def as_utc(epoch: int | None) -> datetime | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC)


def as_epoch(when: datetime) -> int:
    return int(when.timestamp())


def to_state(row: CardRow) -> CardState:
    return CardState(
        card_id=row.id,
        state=row.state,
        step=row.step,
        stability=row.stability,
        difficulty=row.difficulty,
        due=as_utc(row.due),
        last_review=as_utc(row.last_review),
        reps=row.reps,
        lapses=row.lapses,
    )


def from_state(row: CardRow, st: CardState) -> CardRow:
    assert st.due is not None
    return replace(
        row,
        state=st.state,
        step=st.step,
        stability=st.stability,
        difficulty=st.difficulty,
        due=as_epoch(st.due),
        last_review=None if st.last_review is None else as_epoch(st.last_review),
        reps=st.reps,
        lapses=st.lapses,
    )


# What a CardView shows of a card row as it is stored (by name); state and queue become labels.
_AS_STORED = tuple(
    f.name for f in fields(CardView) if f.name in {g.name for g in fields(CardRow)} - {"state", "queue"}
)


def card_view(row: CardRow, now: datetime, parameters: tuple[float, ...]) -> CardView:
    r = scheduler.retrievability(row.stability, as_utc(row.last_review), now, parameters)
    return CardView(
        state=STATE_LABELS.get(row.state, "?"),
        queue=QUEUE_LABELS.get(row.queue, "?"),
        retrievability=r,
        **{name: getattr(row, name) for name in _AS_STORED},
    )
