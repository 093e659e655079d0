"""What each screen says of an undo comes from its result, one notice a kind (Review, Triage and
the Article, Browse/Trash/Schedule): a later change left as it is is always said."""

from __future__ import annotations

from core.domain.browse import BulkUndo
from core.domain.model import CurationUndo
from core.domain.review import UndoResult


def test_review_says_the_action_and_what_it_left() -> None:
    assert UndoResult("rate", 1).notice() == "Undone: rate"
    assert (
        UndoResult("rate", 1, left=2).notice()
        == "Undone: rate (2 other cards changed since left as they are)"
    )
    refused = UndoResult("suspend", 1, changed_since=True).notice()
    assert refused.startswith("Not undone: the card was changed after this suspend")


def test_a_card_you_made_is_said_to_be_in_the_trash() -> None:
    assert CurationUndo(3, action="make").notice().startswith("Undone: the card you made is in the trash")
    assert CurationUndo(3, action="accept").notice() == "Undone: accept"
    assert CurationUndo(3, action="keep_anyway").notice() == "Undone: keep anyway"
    assert CurationUndo(3, action="trash").notice() == "Undone: move to the trash"
    assert CurationUndo(3).notice() == "Undone"
    assert CurationUndo(3, changed_since=True, action="make").notice().startswith("Not undone")
    assert (
        CurationUndo(3, left=1, action="accept").notice()
        == "Undone: accept · 1 unit changed since left as they are"
    )


def test_a_bulk_undo_says_what_changed_since() -> None:
    assert BulkUndo("easy_days", 4, 0).notice() == "Undone: easy days"
    said = BulkUndo("forget", 3, 0, cards_left=1, setting_left="vacations").notice()
    assert said == (
        "Undone: forget · 1 card changed since (answered or edited) left as it is; "
        "the vacations changed since left as they are"
    )
