"""A library indexed before schema 2 (Traditional Chinese not folded, no word list) is indexed
again once, after the migration's backup copy: then 叶绿体 finds its 葉綠體 and typos are
corrected; the backup is the old file, untouched."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from core.services.bootstrap import open_services
from core.storage import db as storage_db
from core.storage.db import db, write_transaction
from core.storage.search import index as search_index
from core.text import analysis

TRADITIONAL = "光合作用\n\n葉綠體是植物細胞裡進行光合作用的胞器，葉綠素吸收紅光。\n"
ENGLISH = "Tides\n\nThe gravitational pull of the moon raises ocean tides twice a day.\n"


def _words_vocab(con: sqlite3.Connection) -> set[str]:
    return {str(t) for (t,) in con.execute("SELECT term FROM search_para_vocab WHERE col = 'words'")}


def _old_library(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A schema-1 library as the release before wrote it: the index without folding or word list."""
    (tmp_path / "zht.txt").write_text(TRADITIONAL, encoding="utf-8")
    (tmp_path / "en.txt").write_text(ENGLISH, encoding="utf-8")
    svc = open_services(home)
    try:
        svc.library.import_paths([tmp_path / "zht.txt", tmp_path / "en.txt"], extractor="placeholder")
        with monkeypatch.context() as mp, write_transaction():
            mp.setattr(analysis, "fold_chinese", lambda text: text)  # what schema 1 indexed
            search_index.rebuild()
            db.execute_sql("DROP TABLE search_words")
            db.execute_sql("DELETE FROM search_stats WHERE key = ?", (search_index.WORDS_KEY,))
            db.execute_sql("PRAGMA user_version = 1")
    finally:
        svc.close()


def test_an_old_index_is_rebuilt_once_after_a_backup(
    data_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert storage_db.SCHEMA_VERSION >= 2
    _old_library(data_home, tmp_path, monkeypatch)
    con = sqlite3.connect(data_home / "memoryrush.sqlite3")
    assert "葉" in _words_vocab(con) and "叶" not in _words_vocab(con)  # really the old index
    con.close()

    svc = open_services(data_home)
    try:
        hits = svc.search.find("叶绿体", 5).hits
        assert hits and hits[0].paragraph_id == "p_002" and "葉綠體" in hits[0].snippet
        assert svc.search.find("gravitatonal", 5).showing_results_for == "gravitational"
    finally:
        svc.close()

    con = sqlite3.connect(data_home / "memoryrush.sqlite3")
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == storage_db.SCHEMA_VERSION
        vocab = _words_vocab(con)
        assert "叶" in vocab and "葉" not in vocab
        assert (
            con.execute("SELECT COUNT(*) FROM search_words WHERE word = 'gravitational'").fetchone()[0] == 1
        )
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for table in ("search_para", "search_unit"):
            con.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
    finally:
        con.close()

    [backup] = sorted((data_home / "backups").glob("*.sqlite3"))
    assert "v1-before-v" in backup.name
    old = sqlite3.connect(backup)
    try:  # the copy is the library as it was: schema 1, the unfolded index
        assert old.execute("PRAGMA user_version").fetchone()[0] == 1
        assert "葉" in _words_vocab(old)
    finally:
        old.close()

    open_services(data_home).close()  # once: a second open neither rebuilds nor backs up again
    assert len(list((data_home / "backups").glob("*.sqlite3"))) == 1
