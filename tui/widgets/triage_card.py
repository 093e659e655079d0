"""What the Triage screen draws over its unit, as Content: the line of what waits in which list
of the article, what importing the article said, and what an empty list says (where the rest
waits). Pure functions of what the screen read, as tui/widgets/review_card.py is for Review;
titles and import notices are untrusted and pass the text gate (tui.safe)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content

from tui.safe import content


def queue_name(*, source_changed: bool, low_confidence: bool) -> str:
    """Which list is shown, and the key that goes back."""
    if source_changed:
        return "source-changed list (c: proposals)"
    if low_confidence:
        return "low-confidence list, least confident first (l: all)"
    return "proposals"


def progress_line(waiting: str, queue: str, title: str) -> Content:
    """Over the unit: what waits, in which list, of which article."""
    return Content.assemble((waiting, "bold"), "  ·  ", queue, "  ·  ", content(title, single_line=True))


def notices_line(notices: Sequence[str]) -> Content:
    """What importing the article had to say (why it got no unit or few for its length, bytes
    replaced ...)."""
    return Content.assemble(("Import: ", "bold"), content("; ".join(notices)))


def empty_lines(*, source_changed: bool, parked: bool, changed_waiting: int) -> tuple[Content, Content]:
    """The progress line and the card of an empty list: that nothing waits in it, and where the
    rest waits (`parked`: proposals below the confidence floor, in the low-confidence list)."""
    if source_changed:
        return (
            Content.styled("No units with a changed source waiting.", "bold $success"),
            Content("Press c to go back to the proposals."),
        )
    changed = " Press c for the units whose source changed." if changed_waiting else ""
    if parked:
        return (
            Content.styled("No proposals above the confidence floor.", "bold"),
            Content("The others wait in the low-confidence list: press l to see them." + changed),
        )
    return (
        Content.styled("No proposals waiting.", "bold $success"),
        Content("Import articles (i on Home) to get new proposals." + changed),
    )
