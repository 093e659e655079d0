"""Rename an article (issue 32, item 2): one service method behind the Library's key and
`memoryrush rename`; the title is cleaned; a reimport keeps the reader's title; renaming again
(or to nothing) takes it back."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from core.domain.errors import MemoryRushError
from core.services.bootstrap import Services
from tests.faults.helpers import query
from tui.cli.main import cli

FIRST = "# Forgetting notes\n\nSpaced repetition schedules each review just before you would forget it.\n"
SECOND = "# Forgetting, revised\n\nSpaced repetition schedules each review just before you forget it.\n"


def imported(services: Services, tmp_path: Path) -> tuple[Path, int]:
    path = tmp_path / "notes.md"
    path.write_text(FIRST, encoding="utf-8")
    [outcome] = services.library.import_paths([path], extractor="placeholder")
    assert outcome.article_id is not None
    return path, outcome.article_id


def stored(home: Path, article_id: int) -> tuple[str, str | None]:
    [row] = query(home, "SELECT title, source_title FROM article WHERE id = ?", (article_id,))
    return row[0], row[1]


def test_a_rename_is_stored_cleaned_and_kept_by_a_reimport(
    services: Services, tmp_path: Path, data_home: Path
) -> None:
    path, article_id = imported(services, tmp_path)
    done = services.library.rename_article(article_id, "  My\tnotes \x1b]2;x\x07on\n forgetting  ")
    assert (done.before, done.title, done.from_source) == (
        "Forgetting notes",
        "My notes ]2;x on forgetting",
        False,
    )
    assert stored(data_home, article_id) == ("My notes ]2;x on forgetting", "Forgetting notes")
    assert services.library.article(article_id).title == "My notes ]2;x on forgetting"  # type: ignore[union-attr]
    path.write_text(SECOND, encoding="utf-8")
    assert services.library.reimport(article_id).status == "new_version"
    assert stored(data_home, article_id) == ("My notes ]2;x on forgetting", "Forgetting, revised")


def test_renaming_to_nothing_or_back_gives_the_source_title(
    services: Services, tmp_path: Path, data_home: Path
) -> None:
    path, article_id = imported(services, tmp_path)
    services.library.rename_article(article_id, "Mine")
    back = services.library.rename_article(article_id, "   ")
    assert (back.before, back.title, back.from_source) == ("Mine", "Forgetting notes", True)
    assert stored(data_home, article_id) == ("Forgetting notes", None)
    path.write_text(SECOND, encoding="utf-8")
    services.library.reimport(article_id)
    assert stored(data_home, article_id) == ("Forgetting, revised", None)  # the source's again
    services.library.rename_article(article_id, "Mine")
    services.library.rename_article(article_id, "Forgetting, revised")
    assert stored(data_home, article_id) == ("Forgetting, revised", None)


def test_a_long_title_is_cut_and_a_missing_article_refused(services: Services, tmp_path: Path) -> None:
    _, article_id = imported(services, tmp_path)
    assert len(services.library.rename_article(article_id, "x" * 1000).title) == 300
    with pytest.raises(MemoryRushError, match="not in the library"):
        services.library.rename_article(article_id + 99, "Nothing")


def test_the_cli_renames_by_id_and_says_how_to_undo(tmp_path: Path, data_home: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text(FIRST, encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(path), "--extractor", "placeholder"]).exit_code == 0
    [(article_id,)] = query(data_home, "SELECT id FROM article")
    done = runner.invoke(cli, ["rename", str(article_id), "Ebbinghaus, in my words"])
    assert done.exit_code == 0, done.output
    assert "'Forgetting notes' -> 'Ebbinghaus, in my words'" in done.output
    assert f"to undo: memoryrush rename {article_id} 'Forgetting notes'" in done.output
    assert stored(data_home, article_id)[0] == "Ebbinghaus, in my words"
    missing = runner.invoke(cli, ["rename", "no such article", "x"])
    assert missing.exit_code == 1 and "no article matches" in missing.output
