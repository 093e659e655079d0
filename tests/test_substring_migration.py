"""Schema 7: the trigram table over every paragraph's text goes, substrings are looked up in the
vocabulary (search_words + search_tokens). A schema-6 library (tests/fixtures/migrations/
library_v6.sqlite3, written by the release before) opens after a backup, and every piece
inside a word of its paragraphs finds the same paragraphs its trigram table found."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from migration_support import old_library, upgrade_backup

from core.services.bootstrap import open_services
from core.storage import db as storage_db
from core.storage.search import query as search_query
from core.text.analysis import fts_phrase

Where = tuple[str, str]  # (article source path, paragraph id)


def _pieces(con: sqlite3.Connection) -> list[str]:
    """A piece inside every word of six letters or more (its first and last letter off), and
    pieces across punctuation, from the fixture's paragraphs."""
    texts = [str(t) for (t,) in con.execute("SELECT text FROM paragraph")]
    words = {w for t in texts for w in re.findall(r"\w{6,}", t.casefold())}
    across = {m[1:-1] for t in texts for m in re.findall(r"\w{3,}[-_.:/]\w{3,}", t.casefold())}
    return sorted({w[1:-1] for w in words} | across)


def _old_hits(con: sqlite3.Connection, piece: str) -> set[Where]:
    rows = con.execute(
        "SELECT a.source_path, p.paragraph_id FROM search_tri t JOIN paragraph p ON p.id = t.rowid "
        "JOIN article a ON a.id = p.article_id WHERE search_tri MATCH ?",
        (fts_phrase([piece]),),
    )
    return {(str(s), str(p)) for s, p in rows}


def test_a_schema_6_library_finds_the_same_substrings_after_the_upgrade(data_home: Path) -> None:
    target, con = old_library(data_home, 6)
    pieces = _pieces(con)
    before = {piece: _old_hits(con, piece) for piece in pieces}
    con.close()
    assert len(pieces) > 100 and all(before.values())
    assert any(
        "间隔" in Path(s).name for hits in before.values() for s, _ in hits
    )  # Chinese article words too

    svc = open_services(data_home)
    try:
        after: dict[str, set[Where]] = {}
        for piece in pieces:
            pks = svc.search.substrings.paragraphs([piece], 1000)
            rows = search_query.paragraph_rows(pks).values()
            after[piece] = {(r.source_path, r.paragraph_id) for r in rows}
        assert after == before
        assert svc.search.find("ynthes", 5).hits  # photosynthesis, through the search itself
    finally:
        svc.close()

    con = sqlite3.connect(target)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == storage_db.SCHEMA_VERSION
        names = {str(n) for (n,) in con.execute("SELECT name FROM sqlite_master")}
        assert not any(n.startswith("search_tri") for n in names)
        assert con.execute("SELECT COUNT(*) FROM search_tokens").fetchone()[0] > 0
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()
    old = upgrade_backup(data_home, 6)
    try:  # the copy is the library as it was
        assert old.execute("SELECT COUNT(*) FROM search_tri_docsize").fetchone()[0] > 0
    finally:
        old.close()
