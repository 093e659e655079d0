"""Issue 30: tags as Anki keeps them and as a reader types them, one word each: a space or a
comma separates two tags ("例子 examples"), an underscore joins the words of one
("Calvin_cycle"). The Anki export and the edit form use the same rule (core/text/tags.py)."""

from __future__ import annotations

from core.services.export.anki_notes import tag_text
from core.text.tags import parse_tags, tag_line


def test_tags_typed_anki_style_split_on_spaces_and_commas() -> None:
    assert parse_tags("例子 examples") == ("例子", "examples")
    assert parse_tags(" Calvin_cycle, ATP，光合作用、atp  photosynthesis ") == (
        "Calvin cycle",
        "ATP",
        "光合作用",
        "photosynthesis",
    )
    tags = ("Maria Skłodowska-Curie", "Calvin cycle", "卡爾文循環")
    assert tag_line(tags) == "Maria_Skłodowska-Curie Calvin_cycle 卡爾文循環"
    assert parse_tags(tag_line(tags)) == tags  # opening the form and saving keeps the tags
    assert [tag_text(t) for t in tags] == tag_line(tags).split()  # what Anki gets: one word each
