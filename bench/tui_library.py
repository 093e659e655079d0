"""The big library bench/bench_tui.py (and bench_browse.py) time the screens on: an empty library
made by open_services, then 1 question + 1 card per unit written with raw sqlite executemany.

Article 1 is the long one (BIG_PARAGRAPHS paragraphs, the issue 16 target's 5,000); the others
have 5. PER_ARTICLE units an article; every tenth is still a proposal.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

NOW = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
DAY = 86400
PER_ARTICLE = 1000
BIG_PARAGRAPHS = 5000
TEXT = "Spaced repetition schedules reviews at increasing intervals so that memories last longer. "


def build(home: Path, units: int) -> Path:
    """An empty library via open_services, then rows with executemany (1 question + 1 card per unit)."""
    from bench.library_rows import CARD_INSERT
    from core.domain import READER_VERSION  # read by today's readers: nothing to refresh at open
    from core.services.bootstrap import open_services

    os.environ["MEMORYRUSH_HOME"] = str(home)
    open_services(home).close()
    path = home / "memoryrush.sqlite3"
    now = int(NOW.timestamp())
    articles = max(1, units // PER_ARTICLE)
    con = sqlite3.connect(path)
    con.execute("PRAGMA foreign_keys = OFF")
    con.execute("PRAGMA synchronous = OFF")
    with con:
        con.executemany(
            "INSERT INTO article (id, source_path, document_id, content_hash, title, encoding, language, "
            "version, metadata_json, paragraph_count, reading_position, added_at, reader_version) "
            f"VALUES (?, ?, ?, 'x', ?, 'utf-8', 'en', 1, '{{}}', ?, 0, ?, {READER_VERSION})",
            article_rows(articles, now),
        )
        con.executemany(
            "INSERT INTO paragraph (article_id, paragraph_id, position, kind, text) VALUES (?, ?, ?, 'paragraph', ?)",
            (
                (a, f"p_{i + 1:03d}", i, f"{TEXT * 3}(paragraph {i + 1})")
                for a in range(1, articles + 1)
                for i in range(BIG_PARAGRAPHS if a == 1 else 5)
            ),
        )
        con.executemany(
            "INSERT INTO unit (id, article_id, position, content, memory_type, tags_json, confidence, status, "
            "issues_json, extractor, pinned, edited, low_confidence, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, 'claim', '[\"memory\"]', 0.8, ?, '[]', 'offline', 0, 0, 0, ?, ?)",
            unit_rows(units, now),
        )
        con.executemany(
            "INSERT INTO evidence (unit_id, position, paragraph_id, quote) VALUES (?, 0, ?, ?)",
            (
                (u, f"p_{(u % 5) + 1:03d}", "schedules reviews at increasing intervals")
                for u in range(1, units + 1)
            ),
        )
        con.executemany(
            "INSERT INTO question (id, unit_id, position, question, answer, kind) VALUES (?, ?, 0, ?, ?, 'qa')",
            ((u, u, f"What does unit {u} say?", "Reviews are spaced out.") for u in range(1, units + 1)),
        )
        con.executemany(CARD_INSERT, card_rows(units, now))
    con.execute("ANALYZE")
    con.close()
    return path


def scratch_copy(home: Path) -> Path:
    """A throw-away copy of the library built in `home`, for one run to measure and write to:
    its cloze saves, ratings and reading positions stay in the copy, so the next run measures
    the library as built (in a reused --home they piled up: a second run's cloze save p95 was
    37 ms against 15 ms on a fresh library). The database and settings files are copied; the
    backups are hard links (read only: a day's automatic backup is found there, not made again).
    The copy is flushed to disk before the run: left to the run, the first WAL checkpoint (its
    fsync) waited for the whole 700 MB copy to be written, an 800 ms answer."""
    work = Path(tempfile.mkdtemp(prefix="memoryrush-bench-run-"))
    for path in home.iterdir():
        if path.name == "backups" and path.is_dir():
            (work / path.name).mkdir()
            for backup in path.iterdir():
                os.link(backup, work / path.name / backup.name)
        elif path.is_file() and path.suffix != ".lock":  # the database (and -wal), a settings file
            shutil.copyfile(path, work / path.name)
            with open(work / path.name, "rb") as copied:
                os.fsync(copied.fileno())  # on disk now: else the run's first checkpoint waited for it
    return work


def article_rows(articles: int, now: int) -> Iterator[tuple[object, ...]]:
    """Article 1 is the big one (BIG_PARAGRAPHS paragraphs); the others have 5."""
    for a in range(1, articles + 1):
        paragraphs = BIG_PARAGRAPHS if a == 1 else 5
        yield (a, f"/bench/{a}.md", f"doc_{a:012d}", f"Article {a}: notes on memory", paragraphs, now - a)


def unit_rows(units: int, now: int) -> Iterator[tuple[object, ...]]:
    """PER_ARTICLE units an article; every tenth is still a proposal."""
    for u in range(1, units + 1):
        status = "proposed" if u % 10 == 0 else "confirmed"
        yield (
            u,
            (u - 1) // PER_ARTICLE + 1,
            (u - 1) % PER_ARTICLE,
            f"Unit {u}: reviews are spaced out",
            status,
            now,
            now,
        )


def card_rows(units: int, now: int) -> Iterator[tuple[object, ...]]:
    """One card a unit (CARD_INSERT's columns): inactive for a proposal, else a quarter new and
    the rest in review with intervals up to 200 days, some due today."""
    from core.storage.review.models import stability_bucket, t90

    for u in range(1, units + 1):
        if u % 10 == 0:  # the unit is still a proposal: inactive card
            yield (u, u, u, 0, None, None, None, now, None, 0, 0, -3, 0, 0, now, -1000, None)
        elif u % 4 == 0:  # new
            yield (u, u, u, 0, None, None, None, now - units + u, None, 0, 0, 0, 1, 0, now, -1000, None)
        else:  # review, some due today
            ivl = 1.0 + (u * 37) % 200
            last = now - int(((u * 13) % 100) / 100 * ivl * DAY) - 3600
            due = int(last + ivl * DAY)
            yield (
                u,
                u,
                u,
                2,
                None,
                ivl,
                5.0,
                due,
                last,
                3,
                0,
                2,
                1,
                0,
                now,
                stability_bucket(ivl),
                t90(last, ivl),
            )


def bench_app(home: Path) -> Any:
    """The app on `home` as the TUI benches time it: the clock at NOW, daily caps high enough
    that today's session has the cards to rate, no automatic backup (of a fresh copy each run:
    a 700 MB copy before the figures, waited for anyway)."""
    from dataclasses import replace

    from core.host.clock import FixedClock
    from core.services.bootstrap import open_services
    from tui.app import MemoryRushApp

    svc = open_services(home, clock=FixedClock(NOW))
    svc.review.tz = UTC
    svc.config = replace(svc.config, new_per_day=9999, max_reviews_per_day=99999, backup_auto="off")
    return MemoryRushApp(svc)
