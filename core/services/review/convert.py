"""Epoch seconds <-> UTC datetimes at the review service's edge: storage keeps times as epoch
integers, the scheduler takes `datetime` in UTC only (the card itself is converted in one place,
scheduler.policy.CardState.of / onto)."""

from __future__ import annotations

from datetime import UTC, datetime


def as_utc(epoch: int | None) -> datetime | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC)


def as_epoch(when: datetime) -> int:
    return int(when.timestamp())
