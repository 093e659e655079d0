"""Untrusted text is data: markup and escape sequences in an article render literally everywhere,
clicking them does nothing and the app keeps running."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import SIZE, article_screen, make_app, opened, running, screen_text, settle, until
from textual.widgets import OptionList
from textual.widgets._toast import Toast

from core.services.bootstrap import Services
from tui.safe import notify
from tui.screens.article import ArticleScreen
from tui.screens.library import LibraryScreen
from tui.screens.triage import TriageScreen

PAYLOADS = ("[@click=app.quit]", "[bold]x[/bold", "[link=file:///etc]y[/link]")


def import_hostile(svc: Services, path: Path) -> int:
    (outcome,) = svc.library.import_paths([path], extractor="offline")
    assert outcome.status == "imported", outcome
    assert outcome.article_id is not None
    return outcome.article_id


def assert_literal(text: str) -> None:
    for payload in PAYLOADS:
        assert payload in text, f"{payload!r} not shown literally"
    assert "\x1b" not in text and "\x07" not in text
    assert "]2;title" in text  # the escape sequence's printable rest, inert


async def test_article_screen_shows_markup_literally_and_clicks_do_nothing(
    svc: Services, hostile_file: Path
) -> None:
    article_id = import_hostile(svc, hostile_file)
    async with running(svc) as (app, pilot):
        await article_screen(pilot, article_id)
        text = screen_text(app)
        assert_literal(text)
        # Click right on each payload (text and title): nothing may run.
        clicks = 0
        for y, line in enumerate(text.split("\n")):
            for payload in PAYLOADS:
                x = line.find(payload)
                if x >= 0:
                    for dx in (1, 3, len(payload) - 2):
                        await pilot.click(offset=(x + dx, y))
                        clicks += 1
        assert clicks >= 6
        await settle(pilot)
        assert app.is_running
        assert isinstance(app.screen, ArticleScreen)
        assert svc.library.article(article_id) is not None


async def test_library_table_title_is_literal(svc: Services, hostile_file: Path) -> None:
    import_hostile(svc, hostile_file)
    async with running(svc) as (app, pilot):
        await opened(pilot, "l", LibraryScreen)
        text = screen_text(app)
        assert "Evil [@click=app.quit] title" in text
        table = app.screen.query_one("#library-table")
        await pilot.click(offset=(table.region.x + 8, table.region.y + 1))
        await settle(pilot)
        assert app.is_running


async def test_triage_quotes_notices_and_palette_are_literal(svc: Services, hostile_file: Path) -> None:
    article_id = import_hostile(svc, hostile_file)
    assert svc.library.units(article_id, ["proposed"]), "the offline extractor proposed nothing"
    async with running(svc, notifications=True) as (app, pilot):
        await opened(pilot, "t", TriageScreen)
        text = screen_text(app)
        assert "Evil [@click=app.quit] title" in text
        assert "\x1b" not in text
        # A notice carrying untrusted text stays literal.
        notify(app, "saved [@click=app.quit] \x1b]2;pwn\x07 [bold]x[/bold")
        await settle(pilot)
        toasts = [toast.render() for toast in app.screen.query(Toast)]
        shown = [c for c in toasts if "saved" in c.plain]
        assert shown, [c.plain for c in toasts]
        assert "saved [@click=app.quit]" in shown[0].plain and "[bold]x[/bold" in shown[0].plain
        assert "\x1b" not in shown[0].plain and "\x07" not in shown[0].plain
        assert not any("@click" in str(span.style) for span in shown[0].spans)
        # The palette lists the title literally (ArticleCommands) and opening it does not quit.
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"Evil")
        await until(pilot, lambda: app.screen.query_one(OptionList).option_count)  # its search has listed
        assert "Open: Evil [@click=app.quit] title" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert app.is_running
        assert isinstance(app.screen, ArticleScreen)


async def test_every_screen_draws_payloads_as_text(svc: Services, tmp_path: Path) -> None:
    """The tour over a library where every field, and the Import tree's file names, carry markup,
    escape and bidi payloads: no stop draws a control character or a bidi override (what the
    compositor would send to the terminal), and where the payload shows it shows literally."""
    from tour import hostile, tour

    unsafe = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

    hostile(svc, tmp_path)
    app = make_app(svc)
    drawn: dict[str, str] = {}

    async def stop(name: str) -> None:
        text = screen_text(app)
        drawn[name] = text
        bad = sorted({f"U+{ord(c):04X}" for c in unsafe.findall(text)})
        assert not bad, f"{name}: drew {bad}"

    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await tour(app, pilot, stop)
    literal = "[@click=app.quit]click-me[/]"
    for name in ("library", "article", "triage", "edit unit", "review", "review: revealed"):
        assert literal in drawn[name], f"{name} does not show the payload literally"
    assert "]2;PWNED-TREE" in drawn["import"] and "a-title ]2;PWNED-TREE" in drawn["import: a name picked"]
    assert "Open: Evil [@click=app.quit] title" in drawn["command palette"]
    assert "notice [@click=app.quit]click-me[/]" in drawn["a notice"]
