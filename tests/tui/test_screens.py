"""Screens driven by keys: article navigation and reading position, settings, themes, help, palette."""

from __future__ import annotations

from pathlib import Path

from conftest import article_screen, opened, running, screen_text, settle
from textual.widgets import Static

from core.host import paths
from core.host.config import load_config
from core.services.bootstrap import Services
from themes import SHIPPED, load_themes
from tui.screens.article import ArticleScreen
from tui.screens.help import HelpScreen, key_map
from tui.screens.settings import SettingsScreen
from tui.widgets.paragraph_view import ParagraphView


def test_shipped_themes_load_and_a_bad_user_theme_is_reported(tmp_path: Path) -> None:
    user = tmp_path / "themes"
    user.mkdir()
    (user / "mine.toml").write_text('name = "mine"\nprimary = "#123456"\ndark = false\n', encoding="utf-8")
    (user / "bad.toml").write_text('name = "bad"\nprimary = "not a colour"\n', encoding="utf-8")
    (user / "evil.toml").write_text('name = "[@click=app.quit]x"\nprimary = "#123456"\n', encoding="utf-8")
    themes, errors = load_themes(user)
    names = {t.name for t in themes}
    assert set(SHIPPED) <= names and "mine" in names and "bad" not in names
    assert not any("@click" in n for n in names)  # the palette's theme picker reads names as markup
    assert len(errors) == 2 and "bad.toml" in errors[0] and "evil.toml: a theme name is" in errors[1]


def test_help_lists_every_binding_with_an_id() -> None:
    sections = dict(key_map())
    assert {"Home", "Triage", "Review", "Article", "Stats", "Import", "Settings"} <= set(sections)
    assert ("space", "Reveal") in sections["Review"]
    from tui.screens.review import ReviewScreen
    from tui.screens.triage import TriageScreen

    for screen in (ReviewScreen, TriageScreen, ArticleScreen, SettingsScreen):
        for binding in screen.BINDINGS:
            assert binding.id and binding.description, binding  # type: ignore[union-attr]


async def test_article_units_move_the_evidence_and_position_is_remembered(samples: Services) -> None:
    article = next(a for a in samples.library.articles() if a.title.lower().startswith("photosynthesis"))
    units = samples.library.units(article.id)
    async with running(samples) as (app, pilot):
        screen = await article_screen(pilot, article.id)
        view = screen.query_one(ParagraphView)
        await pilot.press("n")
        await settle(pilot)
        second = units[1]
        target = samples.library.paragraph(article.id, second.evidence[0].paragraph_id)
        assert target is not None and view.cursor == target.index
        assert second.evidence[0].quote[:30] in " ".join(screen_text(app).split())
        await pilot.press("f")  # status filter: proposed only
        await settle(pilot)
        assert "status: proposed" in screen_text(app)
        view.focus()
        await pilot.press("end")
        await settle(pilot)
        last = view.cursor
        assert last == article.paragraph_count - 1
        await pilot.press("escape")
        await settle(pilot)
    assert samples.library.reading_position(article.id) == last


async def test_settings_validate_then_save_and_switch_theme(svc: Services) -> None:
    async with running(svc) as (app, pilot):
        await opened(pilot, "comma", SettingsScreen)
        field = app.screen.query_one("#set-desired_retention")
        field.value = "1.5"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await settle(pilot)
        errors = app.screen.query_one("#settings-errors", Static).render()
        assert "desired_retention must be from 0.7 to 0.99" in str(errors)
        assert not paths.config_path().exists()
        field.value = "0.85"  # type: ignore[attr-defined]
        app.screen.query_one("#set-theme").value = "memoryrush-high-contrast"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.theme == "memoryrush-high-contrast"
    saved = load_config(paths.config_path())
    assert saved.desired_retention == 0.85 and saved.theme == "memoryrush-high-contrast"


async def test_palette_offers_screen_actions_and_help_opens(samples: Services) -> None:
    async with running(samples) as (app, pilot):
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Review", "Triage", "Import", "Library", "Stats", "Settings", "Search", "Help"} <= titles
        await opened(pilot, "question_mark", HelpScreen)
        assert "Command palette" in screen_text(app)
        help_text = str(app.screen.query_one("#help-text", Static).render())
        assert "Accept all valid" in help_text and "Reveal" in help_text and "Next evidence" in help_text


async def test_edit_with_errors_blocks_accept_until_fixed(samples: Services) -> None:
    from textual.widgets import TextArea

    from tui.modals.edit_unit import EditUnitModal
    from tui.screens.triage import TriageScreen

    async with running(samples) as (app, pilot):
        screen = await opened(pilot, "t", TriageScreen)
        assert screen.unit is not None
        unit_id = screen.unit.id
        await opened(pilot, "e", EditUnitModal)
        app.screen.query_one("#edit-content", TextArea).text = ""
        await pilot.press("ctrl+s")  # first save shows the errors and keeps the dialog open
        await settle(pilot)
        assert isinstance(app.screen, EditUnitModal)
        assert "Still has errors" in str(app.screen.query_one("#edit-issues", Static).render())
        await pilot.press("ctrl+s")  # saving again keeps the edit (and its errors)
        await settle(pilot)
        assert app.screen is screen
        stored = samples.library.unit(unit_id)
        assert stored is not None and stored.edited and not stored.acceptable
        assert screen.unit is not None and screen.unit.id == unit_id
        await pilot.press("a")  # disabled: nothing happens
        await settle(pilot)
        assert samples.library.unit(unit_id).status == "proposed"  # type: ignore[union-attr]
        await pilot.press("e")
        await settle(pilot)
        app.screen.query_one(
            "#edit-content", TextArea
        ).text = "Photosynthesis turns light into chemical energy."
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert samples.library.unit(unit_id).acceptable  # type: ignore[union-attr]
        await pilot.press("a")
        await settle(pilot)
        assert samples.library.unit(unit_id).status == "confirmed"  # type: ignore[union-attr]


async def test_review_command_starts_in_the_session(samples: Services) -> None:
    from click.testing import CliRunner

    from tui.cli.main import cli
    from tui.screens.review import ReviewScreen

    assert "review" in CliRunner().invoke(cli, ["--help"]).output
    async with running(samples, start="review") as (app, _):
        assert isinstance(app.screen, ReviewScreen)


async def test_slash_searches_from_anywhere_and_opens_the_hit(samples: Services) -> None:
    from textual.widgets import OptionList

    from tui.modals.search import SearchModal

    async with running(samples) as (app, pilot):
        await pilot.press("l")
        await settle(pilot)
        await opened(pilot, "slash", SearchModal)
        await pilot.press(*"chlorophyll")
        await settle(pilot)
        await pilot.pause(0.2)
        await settle(pilot)
        results = app.screen.query_one(OptionList)
        assert results.option_count > 0
        assert "chlorophyll" in str(results.get_option_at_index(0).prompt).lower()
        await opened(pilot, "enter", ArticleScreen)
        assert "photosynthesis" in str(app.screen.query_one("#article-text").border_title).lower()


async def test_triage_shows_the_card_rules_warnings_beside_the_card(svc: Services, tmp_path: Path) -> None:
    """A unit that breaks a warning rule (here: two tags that differ only in case, after an
    edit) still triages, with the named rule and its message on the card; an error rule's unit
    is never proposed by offline."""
    from tui.screens.triage import TriageScreen

    path = tmp_path / "one.txt"
    path.write_text("如果某张卡片总是答错，通常说明卡片本身写得不好，应该拆分或改写。\n", encoding="utf-8")
    (outcome,) = svc.library.import_paths([path], extractor="offline")
    (unit,) = svc.library.units(outcome.article_id)
    questions = [(q.question, q.expected_answer, q.kind) for q in unit.questions]
    svc.curation.edit(
        unit.id,
        content=unit.content,
        memory_type=unit.memory_type,
        tags=["卡片", "Cards", "cards"],
        questions=questions,
    )
    (unit,) = svc.library.units(outcome.article_id)
    warned = {i.code for i in unit.issues if i.severity == "warning"}
    assert warned and unit.acceptable
    async with running(svc) as (app, pilot):
        await opened(pilot, "t", TriageScreen)
        text = " ".join(screen_text(app).split())
        code = sorted(warned)[0]
        assert f"WARNING {code}" in text
