"""Finding what was meant: either Chinese script finds both (叶绿体 / 葉綠體, in the index and in
the query), a typo finds the library word and says so ("showing results for"), a query whose
words are in the library is never rewritten, and the heavy helpers load only when needed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.services.bootstrap import Services, open_services
from core.services.search.candidates import PASTED_TOKENS
from core.services.search.spell import Speller, edits1
from tui.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
TRADITIONAL = """光合作用

葉綠體是植物細胞裡進行光合作用的胞器。

潮汐每天漲落兩次。
"""
SIMPLIFIED = """细胞

叶绿体和线粒体都有自己的DNA。
"""
ENGLISH = """Tides

The gravitational pull of the moon raises ocean tides twice a day. A tide is a wave.

A spring tide happens when the sun and the moon line up; the tide is then at its highest.

Every tile of the harbour floor is wet at high tide.
"""


@pytest.fixture
def articles(tmp_path: Path) -> Path:
    src = tmp_path / "articles"
    src.mkdir()
    (src / "zht.txt").write_text(TRADITIONAL, encoding="utf-8")
    (src / "zh.txt").write_text(SIMPLIFIED, encoding="utf-8")
    (src / "en.txt").write_text(ENGLISH, encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", str(src)])
    assert result.exit_code == 0, result.output
    return src


def _search(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["search", *args, "--json"])
    assert result.exit_code == 0, result.output
    line: dict[str, object] = json.loads(result.output.splitlines()[0])
    return line


def _where(line: dict[str, object]) -> list[tuple[str, str]]:
    return [(Path(str(h["source_path"])).stem, str(h["paragraph_id"])) for h in line["hits"]]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("叶绿体", ("zht", "p_002")),  # a Simplified query finds Traditional text (the index folds)
        ("葉綠體", ("zh", "p_002")),  # a Traditional query finds Simplified text (the query folds)
        ("叶绿体", ("zh", "p_002")),  # and each still finds its own script
        ("葉綠體", ("zht", "p_002")),
        ("涨落", ("zht", "p_003")),
    ],
)
def test_either_chinese_script_finds_both(articles: Path, query: str, found: tuple[str, str]) -> None:
    line = _search(query)
    assert found in _where(line)
    assert line["showing_results_for"] is None


def test_a_typo_finds_the_library_word_and_says_so(articles: Path) -> None:
    line = _search("gravitatonal")  # one edit
    assert line["showing_results_for"] == "gravitational"
    assert ("en", "p_002") in _where(line)
    assert _search("gravtatinal")["showing_results_for"] == "gravitational"  # two edits, a long word
    assert _search("Gravitatonal pull")["showing_results_for"] == "Gravitational pull"  # the case kept
    text = CliRunner().invoke(cli, ["search", "gravitatonal"])
    assert text.exit_code == 0 and text.output.startswith("showing results for: gravitational\n")
    exact = _search("gravitatonal", "--exact")
    assert exact["showing_results_for"] is None and exact["hits"] == []


@pytest.mark.parametrize(
    "query",
    [
        "gravitational pull",  # every word is in the library
        "tides",  # its stem is
        "gravit",  # the last word is being typed: a prefix of a library word
        "unaffected moon",  # an English word the library lacks is meant, not a typo
        "NASX moon",  # two capitals: an acronym
        "nothingmatcheshere",  # nothing within two edits
        "潮汐",
    ],
)
def test_a_query_is_never_rewritten_without_a_typo(articles: Path, query: str) -> None:
    assert _search(query)["showing_results_for"] is None


def test_the_nearest_word_wins_then_the_most_frequent(articles: Path) -> None:
    svc = open_services(None, exclusive=False)
    try:
        speller = Speller()
        assert (
            speller.correct("tixe") == "tide"
        )  # tide (in three paragraphs) before tile (one), both one edit
        assert speller.correct("harbuor floor") == "harbour floor"  # a swap is one edit
        assert speller.correct("moon") is None
        result = svc.search.find("harbuor", 5)
        assert result.showing_results_for == "harbour" and result.hits
        assert svc.search.find("harbuor", 5, correct=False).hits == ()
    finally:
        svc.close()


def test_a_pasted_text_is_searched_as_written_not_corrected(articles: Path) -> None:
    """A pasted text (over PASTED_TOKENS tokens) is found by its rarest terms the library holds;
    its words are not each looked up for a typo (2.6 ms of a pasted paragraph's 9.7 at 100k
    paragraphs): the same typo a short query has corrected stays as written in it."""
    svc = open_services(None, exclusive=False)
    try:
        assert svc.search.find("harbuor floor", 5).showing_results_for == "harbour floor"
        filler = " ".join(["the gravitational pull of the moon raises ocean tides twice a day"] * 6)
        pasted = f"{filler} harbuor floor"
        assert len(pasted.split()) > PASTED_TOKENS
        result = svc.search.find(pasted, 5)
        assert result.showing_results_for is None
        assert [h.paragraph_id for h in result.hits][:1] == ["p_002"]
    finally:
        svc.close()


def test_edits1_is_every_single_edit() -> None:
    near = edits1("ab")
    assert {"b", "a", "ba", "xb", "axb", "abx", "xab"} <= near
    assert "ab" not in near and "abcd" not in near
    assert len(edits1("tide")) == len(set(edits1("tide")))


def test_opencc_rapidfuzz_and_the_word_list_load_only_when_needed(data_home: Path, tmp_path: Path) -> None:
    """English search loads none of them; an unknown word loads the word list; Chinese loads OpenCC."""
    (tmp_path / "en.txt").write_text(ENGLISH, encoding="utf-8")
    svc = open_services(data_home)
    try:
        svc.library.import_paths([tmp_path / "en.txt"], extractor="placeholder")
    finally:
        svc.close()
    probe = r"""
import json, sys
from core.services.bootstrap import open_services
svc = open_services(None, exclusive=False)
seen = {}
def heavy():
    return sorted(m for m in ("opencc", "rapidfuzz", "spellchecker") if m in sys.modules)
svc.search.find("moon tide", 5); seen["english"] = heavy()
svc.search.find("moon tixe", 5); seen["typo"] = heavy()
svc.search.find("moon harbxxur", 5); seen["two edits"] = heavy()
svc.search.find("叶绿体", 5); seen["chinese"] = heavy()
print(json.dumps(seen))
"""
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen == {
        "english": [],
        "typo": ["spellchecker"],
        "two edits": ["rapidfuzz", "spellchecker"],
        "chinese": ["opencc", "rapidfuzz", "spellchecker"],
    }


def test_an_empty_query_finds_nothing_and_corrects_nothing(services: Services) -> None:
    result = services.search.find("  ", 5)
    assert result.hits == () and result.showing_results_for is None
