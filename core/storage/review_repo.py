"""Cards and review logs (owned by the scheduler/review work)."""

from __future__ import annotations


def ensure_cards(unit_id: int, now: int) -> int:
    """Create a new card for every question of a confirmed unit that has none; return how many.

    Called inside the caller's transaction (accept, auto-accept, edit of a confirmed unit).
    """
    return 0


def on_unit_status(unit_id: int, status: str, now: int) -> None:
    """Keep cards in step with the unit: rejected/trashed units' cards leave the queue,
    a restored or re-confirmed unit's cards come back. Inside the caller's transaction."""
