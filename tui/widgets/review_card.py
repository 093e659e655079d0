"""What the Review screen draws, as Content: the card's meta line and question, the answer, the
evidence with the quote highlighted under its article's title, the rating keys with the interval
each would give, the progress line and the end-of-session summary. Pure functions of the domain
objects; card text is untrusted and passes the text gate (tui.safe)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from textual.content import Content

from core.domain import SourceParagraph
from core.domain.review import ReviewItem, SessionSummary
from core.text.words import plural
from tui.safe import content, highlight_quotes

RATINGS = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}
RATING_COLOURS = {1: "$error", 2: "$warning", 3: "$success", 4: "$primary"}
QUOTE = "bold $background on $accent"  # as the evidence browser marks quotes


def meta_line(item: ReviewItem) -> Content:
    """ "NEW · concept · pinned" and where the card comes from (its context line: the article
    and the section of its quote), muted, above the question."""
    parts = [item.card.state_label.upper(), item.memory_type, *(["pinned"] if item.pinned else [])]
    return Content.assemble(
        (" · ".join(parts), "bold $text-muted"),
        ("   from ", "$text-muted"),
        content(item.context, single_line=True, style="italic $text-muted"),
    )


def question_view(item: ReviewItem) -> Content:
    return content(item.question, style="bold")


def answer_view(item: ReviewItem) -> Content:
    return Content.assemble(("Answer\n", "bold $text-muted"), content(item.answer, style="bold $success"))


def evidence_view(title: str, paragraphs: Sequence[tuple[SourceParagraph, list[str]]]) -> Content:
    """The evidence paragraphs, each with its id and where it sits (not when that is only the
    title again: a page's text before its first heading), the quoted spans highlighted, under the
    title of the article they come from."""
    parts: list[Content] = [
        Content.assemble(("Evidence  ", "bold $accent"), content(title, single_line=True, style="italic"))
    ]
    for para, quotes in paragraphs:
        label = para.locator.label(under=title)  # section, page ...
        where = content(label, single_line=True, style="$text-muted")
        parts.append(
            Content.assemble(
                (f"{para.paragraph_id}  ", "bold $text-muted"),
                *((where, "\n") if label else ()),
                highlight_quotes(para.text, quotes, QUOTE),
            )
        )
    return Content("\n").join(parts)


def ratings_bar(item: ReviewItem) -> Content:
    """The four rating keys, each with what it would schedule: ` 1 Again · 1m `."""
    keys = [
        Content.styled(f" {k} {name} · {item.intervals.get(k, '?')} ", f"bold reverse {RATING_COLOURS[k]}")
        for k, name in RATINGS.items()
    ]
    return Content("   ").join(keys)


def reveal_bar() -> Content:
    return Content.assemble((" space ", "bold reverse $primary"), ("  show the answer", "$text-muted"))


def progress_line(s: SessionSummary) -> Content:
    """What is left of today's session and what is done, in one line that fits 80 columns."""
    return Content.assemble(
        ("Left ", "bold"),
        f"{s.new_left} new · {plural(s.reviews_left, 'review')} · {s.learning_due} learning",
        ("   Done ", "bold"),
        f"{s.new_done} new · {plural(s.reviews_done, 'review')} · {plural(s.answers_today, 'answer')}",
    )


def finished(s: SessionSummary | None, answered: list[int]) -> Content:
    """The end of the session: what was answered here (answers and the cards they were on:
    a card failed twice is two answers on one card), today's totals, what comes back later."""
    here = plural(len(answered), "answer")
    if answered:
        here += f" on {plural(len(set(answered)), 'card')}"
    lines = [
        Content.styled("Session complete", "bold $success"),
        Content(""),
        Content(f"This session: {here}."),
    ]
    if s is not None:
        lines.append(
            Content(
                f"Today: {plural(s.new_done, 'new card')}, {plural(s.reviews_done, 'review')}, "
                f"{plural(s.answers_today, 'answer')}."
            )
        )
        if s.next_learning_at and s.learning_later:
            when = datetime.fromtimestamp(s.next_learning_at, UTC).strftime("%H:%M UTC")
            lines.append(
                Content(f"Later today: {plural(s.learning_later, 'learning card')} (the next at {when}).")
            )
        if s.overdue_backlog:
            lines.append(Content(f"Beyond today's limit: {plural(s.overdue_backlog, 'overdue review')}."))
    lines += [Content(""), Content.styled("escape: back to Home", "$text-muted")]
    return Content("\n").join(lines)
