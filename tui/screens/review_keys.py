"""When Review's keys act, and what a key that may not says: a rating and card info after the
answer is shown (memory figures spoil no recall), space before it, the card's keys only with a
card on screen. Pure functions of what the screen shows, apart from the screen so that
review.py is the card and its writes, under 400 lines.
"""

from __future__ import annotations

from core.domain.review import ReviewItem

NEEDS_CARD = {"reveal", "edit", "suspend", "bury", "pin", "open_source", "select_evidence"}
WAIT_FOR_SAVE = {"rate", "reveal", "undo", "edit", "suspend", "bury", "pin"}  # while an answer is saved


def allowed(action: str, item: ReviewItem | None, revealed: bool, busy: bool) -> bool | None:
    """Screen.check_action's answer: True, or None (the key shown disabled). `busy`: a change is
    on its way, and a key kept for its turn (@in_turn) acts on the card shown then."""
    if action in WAIT_FOR_SAVE and busy:
        return True
    if action in ("rate", "card_info", "select_evidence"):
        return True if item is not None and revealed else None
    if action == "reveal":
        return True if item is not None and not revealed else None
    if action in NEEDS_CARD:
        return True if item is not None else None
    return True


def why_not(action: str, item: ReviewItem | None) -> str | None:
    """The notice for a key pressed while it may not act (None: it says nothing)."""
    if item is None:
        return "The session is complete: nothing to review now (escape: back to Home)"
    return {
        "rate": "Show the answer first (space), then rate it 1-4",
        "card_info": "Card info comes after the answer (space)",
        "reveal": "The answer is shown: rate it 1 Again, 2 Hard, 3 Good or 4 Easy",
        "select_evidence": "Show the answer first (space): then v selects in its evidence",
    }.get(action)
