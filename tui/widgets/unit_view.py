"""How one memory unit looks: content, type, tags, confidence, questions and validation issues."""

from __future__ import annotations

from textual.content import Content
from textual.widgets.option_list import Option

from core.domain import READER, ArticleMemoryOutput, StoredUnit
from core.domain.context import context_line
from tui.safe import content

STATUS_STYLE = {
    "proposed": "$warning",
    "confirmed": "$success",
    "rejected": "$error",
    "trashed": "$text-muted",
}


ANCHOR_NOTES = {
    "changed": (
        "Source changed: this quote is no longer in the article's text. "
        "Keep the unit as it is (K in Triage) or retire it (X).",
        "bold $warning",
    ),
    "kept": ("Kept after its source changed: the quote is from an earlier version.", "$text-muted"),
}


def unit_line(unit: StoredUnit) -> Content:
    """One line for a list: status, type, content (untrusted parts literal)."""
    return Content.assemble(
        (f"{unit.status[:4]:<5}", STATUS_STYLE.get(unit.status, "")),
        ("! " if unit.source_changed else "", "bold $warning"),
        (f"{unit.memory_type:<10}", "italic"),
        content(unit.content, single_line=True),
    )


def unit_details(unit: StoredUnit, title: str, *, show_answers: bool = True) -> Content:
    """The full card of a unit, as shown in Triage and under the Article's unit list: first where
    it comes from (its context line: `title`, its article's, › the section of its first quote)."""
    parts: list[Content] = [
        Content.assemble(
            ("From     ", "bold"),
            content(context_line(title, unit.locator), single_line=True, style="italic $text-muted"),
        ),
        Content.assemble(("Content  ", "bold"), content(unit.content)),
        Content.assemble(
            ("Type     ", "bold"),
            unit.memory_type,
            ("   Status ", "bold"),
            (unit.status, STATUS_STYLE.get(unit.status, "")),
            ("   Confidence ", "bold"),
            f"{unit.confidence:.2f}",
            ("   pinned" if unit.pinned else "", "$accent"),
            ("   edited" if unit.edited else "", "$secondary"),
        ),
        Content.assemble(("Tags     ", "bold"), content(", ".join(unit.tags) or "—", single_line=True)),
        Content.assemble(
            ("Source   ", "bold"),
            content("yours" if unit.extractor == READER else unit.extractor or "—", single_line=True),
            content(f" / {unit.model}" if unit.model else "", single_line=True),
        ),
    ]
    for i, q in enumerate(unit.questions, 1):
        parts.append(Content.assemble((f"Q{i} ({q.kind})  ", "bold $primary"), content(q.question)))
        if show_answers:
            parts.append(Content.assemble((f"A{i}       ", "bold"), content(q.expected_answer)))
    for e in unit.evidence:
        label = e.locator.label(under=title) if e.locator else ""  # the title is said in From
        where = content(f" · {label}", single_line=True, style="$text-muted") if label else ""
        parts.append(
            Content.assemble(("Evidence ", "bold"), e.paragraph_id, where, " “", content(e.quote), "”")
        )
    if unit.anchor in ANCHOR_NOTES:
        text, style = ANCHOR_NOTES[unit.anchor]
        parts.append(Content.styled(text, style))
    for issue in unit.issues:  # the validator's card rules, named, beside the card
        style = "bold $error" if issue.severity == "error" else "bold $warning"
        where = " (question)" if issue.question_index is not None else ""
        parts.append(
            Content.assemble(
                (
                    "KEPT " if issue.kept else f"{issue.severity.upper()} ",
                    "bold $secondary" if issue.kept else style,
                ),
                (f"{issue.code}{where}: ", "italic"),
                content(issue.message),
                (" · kept because: " if issue.kept else "", "italic"),
                content(issue.kept),
            )
        )
    if not unit.acceptable:
        keep = " (or keep it with a reason: !)" if any(i.keepable and not i.kept for i in unit.issues) else ""
        parts.append(
            Content.styled(f"Has validation errors: edit it before it can be accepted{keep}.", "bold $error")
        )
    return Content("\n").join(parts)


def idea_options(output: ArticleMemoryOutput | None) -> list[Option]:
    """The article's summary (a heading row) and each core idea with why it matters and its
    quotes, for the Article screen's ideas list."""
    summary = output.summary.strip() if output is not None else ""
    rows = [
        Option(
            Content.assemble(
                ("Summary  ", "bold"), content(summary or "No summary was stored for this article.")
            ),
            disabled=True,
        )
    ]
    for n, idea in enumerate(output.core_ideas if output is not None else (), 1):
        parts = [Content.assemble((f"Idea {n}  ", "bold $primary"), content(idea.idea))]
        if idea.why_it_matters.strip():
            parts.append(Content.assemble(("Why      ", "italic"), content(idea.why_it_matters)))
        parts += [
            Content.assemble(("         ", ""), (e.paragraph_id, "$text-muted"), " “", content(e.quote), "”")
            for e in idea.evidence
        ]
        rows.append(Option(Content("\n").join(parts)))
    if len(rows) == 1:
        rows.append(
            Option(Content.styled("No core ideas were stored for this article.", "italic"), disabled=True)
        )
    return rows
