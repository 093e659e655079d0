"""Reader text, locators and changed sources as a person meets them in the app.

- the Article screen shows a Markdown paragraph as reader text: no "**" or "[text](url)", the
  emphasis, link and code styled from the stored spans; the cursor's heading path beside ¶;
- Triage shows where each quote sits (the heading path) beside the evidence;
- a unit whose source changed is found with `c`, kept with K or retired with X, and `u`
  undoes either: never a dead end.
"""

from __future__ import annotations

from pathlib import Path

from conftest import article_screen, opened, running, screen_text, settle, until
from textual.content import Content
from textual.widgets import Static

from core.services.bootstrap import Services
from tui.screens.triage import TriageScreen
from tui.widgets.import_tree import ImportTree
from tui.widgets.paragraph_view import ParagraphView

NOTES = (
    "# Notes\n\n## Scheduling\n\n"
    "Spaced repetition spreads **reviews** over *growing* intervals; see [the FSRS wiki](https://x.example) "
    "and `desired_retention`.\n\n"
    "Sleep consolidates what was learned during the day.\n"
)
CHANGED = "# Notes\n\n## Scheduling\n\nA different text now stands here about something else.\n"


def imported(svc: Services, tmp_path: Path, text: str = NOTES) -> tuple[Path, int]:
    path = tmp_path / "notes.md"
    path.write_text(text, encoding="utf-8")
    [outcome] = svc.library.import_paths([path], extractor="placeholder")
    assert outcome.article_id is not None
    return path, outcome.article_id


def styles_of(view: ParagraphView, word: str) -> set[str]:
    """The styles the rendered strips give to the segments holding `word`."""
    found: set[str] = set()
    for index in range(view.count):
        for strip in view._strips(index):
            for segment in strip:
                if word in segment.text and segment.style is not None:
                    style = segment.style
                    found |= {
                        name
                        for name, on in (
                            ("bold", style.bold),
                            ("italic", style.italic),
                            ("underline", style.underline),
                        )
                        if on
                    }
    return found


async def test_the_article_shows_reader_text_with_styled_spans(svc: Services, tmp_path: Path) -> None:
    _, article_id = imported(svc, tmp_path)
    async with running(svc) as (app, pilot):
        await article_screen(pilot, article_id)
        view = app.screen.query_one(ParagraphView)
        shown = screen_text(app)
        assert "Spaced repetition spreads reviews over growing intervals" in " ".join(shown.split())
        assert "**" not in shown and "](" not in shown and "`" not in shown
        assert "bold" in styles_of(view, "reviews")
        assert "italic" in styles_of(view, "growing")
        assert "underline" in styles_of(view, "FSRS")
        assert "bold" in styles_of(view, "Scheduling")  # a heading
        view.go_to(1)
        await settle(pilot)
        assert "¶ 2/3 · Scheduling" in screen_text(app)


async def test_triage_shows_where_each_quote_sits(svc: Services, tmp_path: Path) -> None:
    imported(svc, tmp_path)
    async with running(svc) as (app, pilot):
        await opened(pilot, "t", TriageScreen)
        card = app.screen.query_one("#triage-unit", Static).render()
        assert isinstance(card, Content)
        assert "Evidence p_002 · Scheduling “Spaced repetition spreads reviews" in card.plain


async def test_a_source_changed_unit_is_kept_or_retired_and_undone(svc: Services, tmp_path: Path) -> None:
    path, article_id = imported(svc, tmp_path)
    svc.curation.accept_all_valid(article_id)
    path.write_text(CHANGED, encoding="utf-8")
    svc.library.import_paths([path], extractor="placeholder")
    changed = svc.library.units(source_changed=True)
    assert len(changed) == 2
    async with running(svc) as (app, pilot):
        screen = await opened(pilot, "t", TriageScreen)
        assert screen.check_action("keep", ()) is False  # a new proposal: nothing to keep
        await pilot.press("c")
        await settle(pilot)
        text = " ".join(screen_text(app).split())
        assert "2 units with a changed source waiting" in text and "Source changed:" in text
        first = screen.unit
        assert first is not None and first.source_changed and first.status == "confirmed"
        assert screen.check_action("accept", ()) is None  # confirmed already: keep or retire
        await pilot.press("K")
        await settle(pilot)
        assert svc.library.unit(first.id).anchor == "kept"  # type: ignore[union-attr]
        second = screen.unit
        assert second is not None and second.id != first.id
        await pilot.press("X")
        await settle(pilot)
        assert svc.library.unit(second.id).status == "trashed"  # type: ignore[union-attr]
        # the list is empty and says so, in the words of its count ("2 units with a ...")
        assert "No units with a changed source waiting" in screen_text(app)
        assert "Press c to go back to the proposals" in screen_text(app)
        await pilot.press("u")  # the retire undone: back in the list, confirmed
        await settle(pilot)
        back = svc.library.unit(second.id)
        assert back is not None and back.status == "confirmed" and back.source_changed
        assert screen.unit is not None and screen.unit.id == second.id
        await pilot.press("c")  # back to the proposals
        await settle(pilot)
        assert "1 proposal waiting" in screen_text(app)  # the new paragraph's (one, in the singular)


async def test_review_shows_where_the_evidence_sits(svc: Services, tmp_path: Path) -> None:
    _, article_id = imported(svc, tmp_path)
    svc.curation.accept_all_valid(article_id)
    async with running(svc) as (app, pilot):
        await pilot.press("r", "space")
        await settle(pilot)
        evidence = app.screen.query_one("#review-evidence", Static).render()
        assert isinstance(evidence, Content)
        assert "p_002  Scheduling\nSpaced repetition spreads reviews" in evidence.plain
        assert "**" not in evidence.plain


async def test_the_import_tree_offers_folders_and_importable_files_only(
    svc: Services, tmp_path: Path
) -> None:
    for name in ("paper.pdf", "book.EPUB", "page.html", "notes.md", "photo.png", "data.json"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    async with running(svc) as (app, pilot):
        await pilot.press("i")
        await settle(pilot)
        tree = app.screen.query_one("#import-tree", ImportTree)
        await until(pilot, lambda: tree.root.children)  # the tree loads its folder in a worker
        shown = sorted(str(node.label) for node in tree.root.children)
        assert shown == [
            "book.EPUB",
            "folder",
            "home",
            "notes.md",
            "page.html",
            "paper.pdf",
        ]  # home: the library


def test_span_offsets_follow_the_text_through_sanitising() -> None:
    """A tab widens and a control character goes when shown: the styled words stay styled."""
    from tui.safe import styled

    text = "a \x1b[31mbold\tword [@click=app.quit] end"
    shown = styled(text, [(2, 11, "bold"), (12, 16, "italic"), (17, 34, "underline")])
    assert shown.plain == "a [31mbold    word [@click=app.quit] end"
    spans = {(shown.plain[s.start : s.end], str(s.style)) for s in shown.spans}
    assert spans == {("[31mbold", "bold"), ("word", "italic"), ("[@click=app.quit]", "underline")}
