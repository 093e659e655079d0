"""Raw SQL shared by the benchmarks that fill a library with executemany (bench_scheduler, bench_tui).

The card row's columns, in one place: the benches write 10^6 cards without the ORM, and a schema
change should break one statement, not two copies of it. `leech` is always 0 there.
"""

CARD_INSERT = (
    "INSERT INTO card (id, question_id, unit_id, state, step, stability, difficulty, due, last_review, reps, "
    "lapses, queue, active, suspended, leech, created_at, sbucket, t90) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,0,?,?,?)"
)


WORDS = "memory evidence paragraph review schedule recall source quote grounded unit 记忆 证据 复习".split()  # noqa: SIM905
DAY = 86400


def _articles_sql(con, articles: int, per_article: int, now: int) -> None:  # type: ignore[no-untyped-def]
    from core.domain import READER_VERSION  # read by today's readers: nothing to refresh at open

    con.executemany(
        "INSERT INTO article (id, source_path, document_id, content_hash, title, encoding, language, version, "
        "metadata_json, paragraph_count, reading_position, added_at, reader_version) "
        "VALUES (?, ?, ?, 'x', ?, 'utf-8', 'en', 1, '{}', ?, 0, ?, ?)",
        (
            (
                a,
                f"/bench/article-{a}.md",
                f"doc_{a:012d}",
                f"Bench article {a}",
                per_article,
                now,
                READER_VERSION,
            )
            for a in range(1, articles + 1)
        ),
    )
    con.executemany(
        "INSERT INTO artifact (id, article_id, extractor, extractor_version, summary, output_json, raw_output, "
        "validation_json, notices_json, dropped_json, timings_json, created_at) "
        "VALUES (?, ?, 'offline', '1', ?, '{}', '', '[]', '[]', '[]', '{}', ?)",
        ((a, a, f"Summary of bench article {a}.", now) for a in range(1, articles + 1)),
    )


def _units_sql(con, text: dict[int, str], per_article: int, now: int) -> None:  # type: ignore[no-untyped-def]
    def where(u: int) -> tuple[int, str, int]:
        return (u - 1) // per_article + 1, f"p_{(u - 1) % per_article + 1:03d}", (u - 1) % per_article

    con.executemany(
        "INSERT INTO paragraph (id, article_id, paragraph_id, position, kind, text) VALUES (?, ?, ?, ?, 'paragraph', ?)",
        ((u, *where(u), t) for u, t in text.items()),
    )
    con.executemany(
        "INSERT INTO unit (id, article_id, artifact_id, position, content, memory_type, tags_json, confidence, status, "
        "issues_json, extractor, pinned, edited, low_confidence, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, 'concept', '[\"bench\"]', 0.9, 'confirmed', '[]', 'offline', 0, 0, 0, ?, ?)",
        ((u, where(u)[0], where(u)[0], where(u)[2], t[:120], now, now) for u, t in text.items()),
    )
    con.executemany(
        "INSERT INTO evidence (id, unit_id, position, paragraph_id, quote) VALUES (?, ?, 0, ?, ?)",
        ((u, u, where(u)[1], t[:80]) for u, t in text.items()),
    )


def _question(i: int, text: dict[int, str]) -> tuple[object, ...]:
    unit = (i + 1) // 2
    if i % 2:
        return (i, unit, 0, f"What does unit {unit} say?", text[unit][:40], "qa")
    return (i, unit, 1, f"Fill in the blank: {text[unit][:30]} ____ more", text[unit][:40], "cloze")


def _cards_sql(con, cards: int, reviews_per_card: int, now: int, rng) -> None:  # type: ignore[no-untyped-def]
    from core.storage.review.models import stability_bucket, t90

    def card_rows():  # type: ignore[no-untyped-def]
        for i in range(1, cards + 1):
            stability = round(rng.uniform(1, 60), 4)
            last = now - rng.randint(0, 30) * DAY
            due = last + int(stability * DAY)
            bucket = stability_bucket(stability)
            yield (
                i,
                i,
                (i + 1) // 2,
                2,
                None,
                stability,
                5.0,
                due,
                last,
                reviews_per_card,
                0,
                2,
                1,
                0,
                now,
                bucket,
                t90(last, stability),
            )

    def log_rows():  # type: ignore[no-untyped-def]
        n = 0
        for i in range(1, cards + 1):
            for r in range(reviews_per_card):
                n += 1
                at = now - (reviews_per_card - r) * 10 * DAY
                yield (n, i, 3, at, at, 2 if r else 0, 10 if r else 0, 10, 2.0 + r, 5.0, 4000, 0)

    con.executemany(CARD_INSERT, card_rows())
    con.executemany(
        "INSERT INTO review_log (id, card_id, rating, reviewed_at, wall_at, state_before, elapsed_days, scheduled_days, "
        "stability, difficulty, duration_ms, clock_skew_s) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        log_rows(),
    )


def fill_library(db_path, cards: int, *, now: int, per_article: int = 200, reviews_per_card: int = 3) -> None:  # type: ignore[no-untyped-def]
    """A whole library of `cards` cards written with executemany into an existing (empty) library
    file: articles of `per_article` questions, a paragraph per unit with its quote, two questions
    (Q&A and cloze) per confirmed unit, cards in review with `reviews_per_card` reviews each.
    The search index is left empty (the exports and backups do not read it)."""
    import random
    import sqlite3

    rng = random.Random(18)
    units = (cards + 1) // 2
    per_unit_article = max(1, per_article // 2)
    articles = (units + per_unit_article - 1) // per_unit_article
    text = {u: " ".join(rng.choice(WORDS) for _ in range(40)) + f" (unit {u})." for u in range(1, units + 1)}
    con = sqlite3.connect(str(db_path))
    con.execute("PRAGMA foreign_keys = OFF")
    con.execute("PRAGMA synchronous = OFF")
    with con:
        _articles_sql(con, articles, per_unit_article, now)
        _units_sql(con, text, per_unit_article, now)
        con.executemany(
            "INSERT INTO question (id, unit_id, position, question, answer, kind) VALUES (?, ?, ?, ?, ?, ?)",
            (_question(i, text) for i in range(1, cards + 1)),
        )
        _cards_sql(con, cards, reviews_per_card, now, rng)
    con.close()
