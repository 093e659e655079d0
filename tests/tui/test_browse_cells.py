"""Browse's cells are cut by terminal cells, not characters: a Chinese character takes two."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from core.domain.browse import BrowseRow, RowKey
from tui.screens.browse.rows import cells


def row(content: str, title: str, tags: tuple[str, ...]) -> BrowseRow:
    return BrowseRow(
        key=RowKey(1, 1),
        content=content,
        unit_content=content,
        article_id=1,
        article_title=title,
        memory_type="fact",
        status="confirmed",
        state="review",
        due=0,
        last_review=0,
        retrievability=0.9,
        stability=3.0,
        difficulty=5.0,
        lapses=0,
        reps=1,
        tags=tags,
        extractor="user",
        added=0,
        pinned=False,
        leech=False,
        source_changed=False,
    )


def widths(r: BrowseRow) -> tuple[int, int, int]:
    drawn = cells(r, picked=False)
    content, title, tags = drawn[1], drawn[2], drawn[12]
    assert isinstance(content, Text) and isinstance(title, Text) and isinstance(tags, Text)
    return cell_len(content.plain), cell_len(title.plain), cell_len(tags.plain)


def test_a_chinese_row_is_no_wider_than_an_english_one() -> None:
    chinese = row(
        "叶绿体是植物细胞进行光合作用的场所" * 4, "光合作用与叶绿体的结构" * 2, ("光合作用", "叶绿体", "植物")
    )
    english = row(
        "Chloroplasts are where plant cells photosynthesise " * 4, "Photosynthesis " * 3, ("a" * 30,)
    )
    assert widths(chinese)[0] <= 48 and widths(chinese)[1] <= 20 and widths(chinese)[2] <= 24
    assert widths(english) == (48, 20, 24)


def test_short_text_is_kept_whole() -> None:
    r = row("叶绿体 holds chlorophyll", "光合作用", ("植物",))
    drawn = cells(r, picked=False)
    assert [str(drawn[1]), str(drawn[2]), str(drawn[12])] == ["叶绿体 holds chlorophyll", "光合作用", "植物"]
