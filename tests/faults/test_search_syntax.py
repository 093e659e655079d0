"""Search input with FTS syntax is text: no error, and the words in it still match."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from core.services.bootstrap import open_services

from .helpers import ESCAPES, MARKUP, SAMPLES, mr

SYNTAX = [
    '"unbalanced',
    '"',
    "AND",
    "OR OR",
    "NOT",
    "a:b",
    "title:spaced",
    "*",
    "spac*",
    "NEAR(",
    "NEAR(spaced repetition, 2)",
    "(((",
    ")",
    "-",
    "^spaced",
    "spaced + repetition",
    "{col1 col2}: x",
    "'",
    "\\",
    "%_%",
    "' OR 1=1 --",
    "间隔 AND 重复",
    "光合作用 OR",
    MARKUP,
    ESCAPES,
    "x" * 5000,
]
# (query with syntax in it, a word of it that is in the samples)
STILL_FINDS = [
    ('"spaced', "spaced"),
    ("repetition AND", "repetition"),
    ("photosynthesis:", "photosynthesis"),
    ("NEAR(forgetting", "forgetting"),
    ("(chlorophyll", "chlorophyll"),
    ('间隔重复"', "间隔"),
]


@pytest.fixture
def library(home: Path) -> Path:
    svc = open_services(home)
    try:
        for outcome in svc.library.import_paths([SAMPLES], extractor="placeholder"):
            assert outcome.status in ("imported", "skipped"), outcome  # skipped: the package's .py
    finally:
        svc.close()
    return home


def test_fts_syntax_is_treated_as_text_by_the_cli(library: Path) -> None:
    for query in SYNTAX:
        result = mr(library, "search", query, "--json")
        assert result.returncode == 0, (query, result.stderr)
        line = json.loads(result.stdout.strip().splitlines()[-1])
        assert line["query"] == query
        assert isinstance(line["hits"], list)
        assert "fts5" not in result.stderr.lower() and "syntax error" not in result.stderr.lower()


@pytest.mark.parametrize(("query", "word"), STILL_FINDS)
def test_words_inside_syntax_still_match(library: Path, query: str, word: str) -> None:
    result = mr(library, "search", query, "--json")
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout.strip().splitlines()[-1])["hits"]
    assert hits, f"{query!r} found nothing"
    assert any(word.lower() in json.dumps(h, ensure_ascii=False).lower() for h in hits[:5]), hits[:2]


def test_plain_text_output_of_odd_queries(library: Path) -> None:
    for query in ['"unbalanced', "NEAR(", MARKUP]:
        result = mr(library, "search", query)
        assert result.returncode == 0, (query, result.stderr)
        assert "Traceback" not in result.stdout + result.stderr


def test_fts_syntax_in_the_app_search_box(library: Path) -> None:
    """Typed into the app's search modal (Pilot): no error notice, the app stays up."""
    from tui.app import MemoryRushApp
    from tui.modals.search import SearchModal

    async def drive() -> list[str]:
        svc = open_services(library)
        errors: list[str] = []
        try:
            app = MemoryRushApp(svc)
            async with app.run_test(size=(120, 36)) as pilot:
                await pilot.pause()
                for query in ['"unbalanced', "AND", "a:b", "*", "NEAR(", "[@click=app.quit]x[/]"]:
                    await pilot.press("slash")
                    await pilot.pause()
                    assert isinstance(app.screen, SearchModal)
                    await pilot.press(*[ch if ch.isalnum() else _key(ch) for ch in query])
                    await pilot.pause(0.3)
                    await app.workers.wait_for_complete()
                    await pilot.pause()
                    errors += [n.message for n in app._notifications if n.severity == "error"]
                    await pilot.press("escape")
                    await pilot.pause()
                assert app.is_running
        finally:
            svc.close()
        return errors

    assert asyncio.run(drive()) == []


def _key(ch: str) -> str:
    names = {
        '"': "quotation_mark",
        " ": "space",
        ":": "colon",
        "*": "asterisk",
        "(": "left_parenthesis",
        "[": "left_square_bracket",
        "]": "right_square_bracket",
        "@": "at",
        "=": "equals_sign",
        "/": "slash",
        ".": "full_stop",
        "-": "minus",
        "_": "underscore",
    }
    return names.get(ch, ch)
