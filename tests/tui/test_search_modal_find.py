"""The search modal as a reader uses it: filters by keys (ctrl+f, then one key each), the result
count, Chinese in either script, a typo shown as "showing results for", and an opened hit
recorded in the database (the ranking's use signal)."""

from __future__ import annotations

import json

from conftest import SIZE, make_app, opened, running, searched, settle
from textual.widgets import Input, Label, OptionList

from core.services.bootstrap import Services
from core.storage.db import db, write_transaction
from tui.modals.pick import PickModal
from tui.modals.search import LIMIT, SearchModal
from tui.screens.article import ArticleScreen
from tui.widgets.search_filters import FilterBar


async def _tag_list(pilot: object) -> tuple[SearchModal, PickModal]:
    """Search "light", then open the tag list from the filters (ctrl+f, t)."""
    await settle(pilot)
    modal = await searched(pilot, "light")
    await pilot.press("ctrl+f", "t")  # type: ignore[attr-defined]
    await settle(pilot)
    picker = pilot.app.screen  # type: ignore[attr-defined]
    assert isinstance(picker, PickModal)
    return modal, picker


def _count(modal: SearchModal) -> str:
    return str(modal.query_one("#search-count", Label).render())


def _unit_rows(modal: SearchModal) -> list[tuple[str, str, list[str]]]:
    """(status, memory type, tags) of every unit hit shown."""
    rows = []
    for hit in modal._hits:
        assert hit.unit_id is not None, hit  # a unit filter shows units only
        status, kind, tags = db.execute_sql(
            "SELECT status, memory_type, tags_json FROM unit WHERE id = ?", (hit.unit_id,)
        ).fetchone()
        rows.append((status, kind, json.loads(tags)))
    return rows


async def test_filters_by_keys_narrow_the_hits_and_the_count_says_how_many(samples: Services) -> None:
    async with running(samples) as (_, pilot):
        modal = await searched(pilot, "light")
        everything = len(modal._hits)
        assert everything >= 2 and _count(modal) == f"{everything} results"
        assert any(h.unit_id is None for h in modal._hits)  # paragraphs too, without filters

        await pilot.press("ctrl+f")
        assert modal.query_one(FilterBar).has_focus
        await pilot.press("s")  # status: proposed
        await settle(pilot)
        proposed = _unit_rows(modal)
        assert proposed and {s for s, _, _ in proposed} == {"proposed"}
        assert _count(modal) == f"{len(proposed)} result" + ("" if len(proposed) == 1 else "s")

        await pilot.press("s", "s", "s")  # confirmed, rejected, trashed: none are
        await settle(pilot)
        assert modal._hits == [] and _count(modal) == "0 results"
        await pilot.press("s")  # back to any status
        await pilot.press("y")  # type: concept
        await settle(pilot)
        assert {k for _, k, _ in _unit_rows(modal)} <= {"concept"}

        await pilot.press("c", "d")  # clear, then due: no card is due (nothing confirmed yet)
        await settle(pilot)
        assert modal.query_one(FilterBar).filters.due and modal._hits == []
        await pilot.press("c")
        await settle(pilot)
        assert len(modal._hits) == everything

        await pilot.press("up")  # from the filters back to the field, the words kept
        assert modal.query_one(Input).has_focus and modal.query_one(Input).value == "light"


async def test_a_tag_is_chosen_from_the_library_s_tags(samples: Services) -> None:
    # the most used tag among the units that "light" finds (the list offers every tag)
    found = {h.unit_id for h in samples.search.find("light", 50).hits if h.unit_id is not None}
    tagged = [
        (tag, n)
        for tag, n in samples.search.tags()
        if any(
            tag.casefold() in [t.casefold() for t in json.loads(str(row[0]))]
            for row in db.execute_sql(f"SELECT tags_json FROM unit WHERE id IN ({','.join(map(str, found))})")
        )
    ]
    assert found and tagged
    tag, count = tagged[0]
    async with running(samples) as (app, pilot):
        modal, _ = await _tag_list(pilot)
        await pilot.press(*tag, "enter")
        await settle(pilot)
        assert app.screen is modal and modal.query_one(FilterBar).filters.tags == (tag,)
        rows = _unit_rows(modal)
        assert rows and all(tag.casefold() in [t.casefold() for t in tags] for _, _, tags in rows)
        assert len(rows) <= count


async def test_more_hits_than_shown_are_counted_as_more(samples: Services, tmp_path) -> None:  # type: ignore[no-untyped-def]
    many = tmp_path / "lighthouses.txt"
    paragraphs = [
        f"Lighthouse number {i} stands on the rocky coast of the northern sea." for i in range(LIMIT + 20)
    ]
    many.write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
    samples.library.import_paths([many], extractor="placeholder")
    async with running(samples) as (_, pilot):
        modal = await searched(pilot, "lighthouse")
        assert len(modal._hits) == LIMIT
        assert _count(modal) == f"more than {LIMIT} results: the best {LIMIT} shown"
        await pilot.press("escape")
        await settle(pilot)
        modal = await searched(pilot, "chloroplast")  # a few hits: counted as they are
        hits = len(modal._hits)
        assert 0 < hits < LIMIT and _count(modal) == f"{hits} result{'s' if hits != 1 else ''}"


async def test_either_chinese_script_finds_the_other(samples: Services) -> None:
    async with running(samples) as (_, pilot):
        modal = await searched(pilot, "叶绿体")  # Simplified; the sample 光合作用.txt is Traditional
        titles = {h.title for h in modal._hits}
        assert any("光合作用" in t for t in titles), titles
        texts = [
            samples.library.paragraph(h.article_id, h.paragraph_id) for h in modal._hits if h.unit_id is None
        ]
        assert any(p is not None and "葉綠體" in p.text for p in texts)
        assert modal._hits[0].highlights  # the Traditional words are highlighted for a Simplified query
        await pilot.press("escape")
        modal = await searched(pilot, "間隔重複")  # Traditional; the sample 间隔重复.md is Simplified
        texts = [
            samples.library.paragraph(h.article_id, h.paragraph_id) for h in modal._hits if h.unit_id is None
        ]
        assert any(p is not None and "间隔重复" in p.text for p in texts)


async def test_a_typo_shows_what_was_searched_and_ctrl_o_searches_as_typed(samples: Services) -> None:
    async with running(samples) as (app, pilot):
        modal = await searched(pilot, "photosynthsis")
        assert "showing results for photosynthesis" in _count(modal)
        assert modal._hits and "photosynthesis" in modal._hits[0].snippet.casefold()
        assert app.screen.active_bindings["ctrl+o"].enabled
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert "showing results for" not in _count(modal) and modal._hits == []
        assert "ctrl+o" not in app.screen.active_bindings  # offered only while a correction is shown
        modal.query_one(Input).value = "photosynthesis"  # a word of the library is never rewritten
        await settle(pilot)
        assert "showing results for" not in _count(modal) and modal._hits


async def test_an_opened_hit_is_recorded(samples: Services) -> None:
    app = make_app(samples)
    assert db.execute_sql("SELECT COUNT(*) FROM search_feedback").fetchone()[0] == 0
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        modal = await searched(pilot, "chlorophyll")
        results = modal.query_one(OptionList)
        await pilot.press("down", "down")  # the second hit
        assert results.highlighted == 1
        hit = modal._hits[1]
        await opened(pilot, "enter", ArticleScreen)
    rows = db.execute_sql(
        "SELECT f.unit_id, f.opens FROM search_feedback f JOIN paragraph p ON p.id = f.paragraph_pk "
        "WHERE p.article_id = ? AND p.paragraph_id = ?",
        (hit.article_id, hit.paragraph_id),
    ).fetchall()
    assert rows == [(hit.unit_id or 0, 1)]


async def test_a_hostile_tag_is_shown_as_text_in_the_list_and_the_filter_line(samples: Services) -> None:
    hostile = "[@click=app.quit]x[/]"
    with write_transaction():
        db.execute_sql(
            "UPDATE unit SET tags_json = ? WHERE id = (SELECT MIN(id) FROM unit)", (json.dumps([hostile]),)
        )
    async with running(samples) as (app, pilot):
        modal, picker = await _tag_list(pilot)
        options = picker.query_one(OptionList)
        shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any(hostile in line for line in shown), shown
        await pilot.press(*"click", "enter")
        await settle(pilot)
        assert app.is_running and app.screen is modal
        assert modal.query_one(FilterBar).filters.tags == (hostile,)
        assert hostile in str(modal.query_one(FilterBar).render())
