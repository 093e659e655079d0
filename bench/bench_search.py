"""Search speed on 100k paragraphs (prints figures; asserts nothing).

    python bench/bench_search.py [--paragraphs 100000] [--queries 200] [--keep DIR [--reuse]] [--no-rebuild]

Builds a library of synthetic paragraphs (half English from a Zipf-distributed vocabulary of
made-up words, half Chinese from a Zipf-distributed set of 3,500 common-range characters),
times the index build, prints the database size with and without the index, then times
in-process `SearchService.search(q, 10)` for English words, English prefixes, pieces inside
English words (the substring list), and 2-, 3- and 4-character Chinese terms cut from the text, beside a plain `LIKE '%term%'` scan;
then a 9-word question (the same five times: its first run is cold), 40 different ones, and pieces
of paragraphs pasted as queries (60-150 Chinese characters, 70-110 English words; how often the
paragraph each was cut from comes first). Every query
goes through `SearchService.find`, what the app and `memoryrush search` call (the typo check
included). Then typos: a word with one edit, a long word with two, two words with one typo
(how many were corrected, and the first typo of a process, which loads the English word list,
and the first two-edit one, which loads the library's word list). Last, the one-time cost of
schema 3: the whole index built again, alone and as the migration does it (backup copy first).
Wall-clock figures first, then each kind's CPU time (the thread's, which load does not stretch).
`--keep DIR --reuse` times a library built before into DIR (the same draws give the same queries).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eval_search_variants import one_typo  # noqa: E402

from core.host import paths  # noqa: E402
from core.host.clock import Clock  # noqa: E402
from core.services.bootstrap import open_services  # noqa: E402
from core.storage.db import db, write_transaction  # noqa: E402
from core.storage.models import Article, Paragraph  # noqa: E402
from core.storage.search import index as search_index  # noqa: E402

PER_ARTICLE = 100
SYLLABLES = [c + v for c in "bcdfghjklmnprstvwz" for v in ("a", "e", "i", "o", "u", "ai", "ou", "ar", "en")]


def zipf_weights(n: int, s: float = 1.07) -> list[float]:
    return [1 / (i + 1) ** s for i in range(n)]


def make_vocab(rng: random.Random, n: int) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        w = "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((1, 2, 2, 3, 3, 4))))
        if w not in seen:
            seen.add(w)
            out.append(w)
    return out


def english(rng: random.Random, vocab: list[str], weights: list[float]) -> str:
    words = rng.choices(vocab, weights, k=rng.randint(60, 140))
    sentences, i = [], 0
    while i < len(words):
        n = rng.randint(8, 22)
        sentences.append(" ".join(words[i : i + n]).capitalize() + ".")
        i += n
    return " ".join(sentences)


def chinese(rng: random.Random, chars: list[str], weights: list[float]) -> str:
    text = rng.choices(chars, weights, k=rng.randint(90, 220))
    out = []
    for i, c in enumerate(text):
        out.append(c)
        if i % rng.randint(9, 25) == 0 and i:
            out.append("，" if rng.random() < 0.7 else "。")
    return "".join(out) + "。"


def articles(n: int, rng: random.Random) -> tuple[list[str], list[list[str]]]:
    """The vocabulary and each article's paragraphs (English and Chinese in turn), from `rng`."""
    vocab = make_vocab(rng, 30000)
    v_weights = zipf_weights(len(vocab))
    chars = [chr(0x4E00 + i) for i in rng.sample(range(0x2000), 3500)]
    c_weights = zipf_weights(len(chars), 0.9)
    out = []
    for a in range(n // PER_ARTICLE):
        zh = a % 2 == 1
        out.append(
            [
                chinese(rng, chars, c_weights) if zh else english(rng, vocab, v_weights)
                for _ in range(PER_ARTICLE)
            ]
        )
    return vocab, out


def build(home: Path, n: int, rng: random.Random) -> tuple[list[str], list[str], float, float, int, int]:
    os.environ["MEMORYRUSH_HOME"] = str(home)
    vocab, paragraphs = articles(n, rng)
    svc = open_services(home, clock=Clock())
    texts: list[str] = []
    started = time.perf_counter()
    article_ids: list[int] = []
    for a, paras in enumerate(paragraphs):
        zh = a % 2 == 1
        texts.extend(paras)
        with write_transaction():
            art = Article.create(
                source_path=f"/bench/{a}.txt",
                document_id=f"doc_bench{a:06d}",
                content_hash=str(a),
                title=f"bench {a}",
                language="zh" if zh else "en",
                paragraph_count=PER_ARTICLE,
                added_at=0,
            )
            Paragraph.insert_many(
                [(art.id, f"p_{i + 1:03d}", i, "paragraph", t) for i, t in enumerate(paras)],
                fields=[
                    Paragraph.article,
                    Paragraph.paragraph_id,
                    Paragraph.position,
                    Paragraph.kind,
                    Paragraph.text,
                ],
            ).execute()
        article_ids.append(art.id)
    store_s = time.perf_counter() - started
    db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    size_plain = db_size(home)
    started = time.perf_counter()
    for i in range(0, len(article_ids), 10):
        with write_transaction():
            for article_id in article_ids[i : i + 10]:
                search_index.index_article(article_id)
    index_s = time.perf_counter() - started
    db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    size_indexed = db_size(home)
    svc.close()
    return texts, vocab, store_s, index_s, size_plain, size_indexed


def db_size(home: Path) -> int:
    base = paths.database_path()
    return sum(p.stat().st_size for p in base.parent.glob(base.name + "*"))


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


CPU: list[tuple[str, float, float]] = []  # (query kind, CPU p50, CPU p95) of the last run, printed at the end


def time_queries(fn, queries: list[str], name: str = "") -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    """Wall-clock p50, p95, max in ms; with `name`, the thread's CPU p50 and p95 go to CPU (a
    loaded machine stretches wall time, not CPU time)."""
    times, cpu = [], []
    for q in queries:
        c = time.thread_time()
        t = time.perf_counter()
        fn(q)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.thread_time() - c) * 1000)
    if name:
        CPU.append((name, statistics.median(cpu), percentile(cpu, 0.95)))
    return statistics.median(times), percentile(times, 0.95), max(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--paragraphs", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--keep", type=Path, default=None, help="Build into (or reuse) this folder.")
    ap.add_argument("--no-rebuild", action="store_true", help="Skip the rebuild and migration timings.")
    ap.add_argument(
        "--reuse",
        action="store_true",
        help="Time the library --keep holds (built before with the same --paragraphs).",
    )
    args = ap.parse_args()
    rng = random.Random(7)
    home = args.keep or Path(tempfile.mkdtemp(prefix="mr-bench-search-"))
    if args.reuse and args.keep:
        os.environ["MEMORYRUSH_HOME"] = str(home)
        vocab, paragraphs = articles(args.paragraphs, rng)  # the same draws as the build
        texts = [t for paras in paragraphs for t in paras]
    else:
        texts, vocab, store_s, index_s, size_plain, size_indexed = build(home, args.paragraphs, rng)
        print(
            f"paragraphs {len(texts)}: stored in {store_s:.1f} s; index built in {index_s:.1f} s "
            f"({len(texts) / index_s:.0f} paragraphs/s)"
        )
        print(
            f"database size: {size_plain / 1e6:.1f} MB without the index, {size_indexed / 1e6:.1f} MB with it "
            f"(index {100 * (size_indexed - size_plain) / max(1, size_plain):.0f}% extra)"
        )
    print(f"load average at start: {Path('/proc/loadavg').read_text().split()[:3]}")

    svc = open_services(home, exclusive=False)
    cold_loads(svc)
    sets = query_sets(rng, texts, vocab, args.queries)
    time_sets(svc, sets)
    words_text = sets["English word (from text)"]
    question = "the " + " ".join(words_text[:8])
    name = "9-word question (reranked)"
    p50, p95, mx = time_queries(lambda q: svc.search.find(q, 10), [question] * 5, name)
    print(f"{name:28s} {p50:8.2f}ms {p95:6.2f}ms {mx:6.1f}ms")
    questions = ["the " + " ".join(words_text[i : i + 8]) for i in range(0, min(len(words_text), 320) - 7, 8)]
    name = "9-word questions (40 kinds)"
    p50, p95, mx = time_queries(lambda q: svc.search.find(q, 10), questions, name)
    print(f"{name:28s} {p50:8.2f}ms {p95:6.2f}ms {mx:6.1f}ms")
    typos(svc, words_text, rng)
    pasted(svc, texts, rng, max(20, args.queries // 5))
    svc.close()
    print(f"\n{'CPU time (this thread)':28s} {'p50':>10s} {'p95':>8s}")
    for name, c50, c95 in CPU:
        print(f"{name:28s} {c50:8.2f}ms {c95:6.2f}ms")
    print(f"load average at end: {Path('/proc/loadavg').read_text().split()[:3]}")
    if not args.no_rebuild:
        rebuild_and_migrate(home)
    print(f"library kept in {home}" if args.keep else f"(temporary library {home})")


def query_sets(rng: random.Random, texts: list[str], vocab: list[str], n: int) -> dict[str, list[str]]:
    """The query kinds timed: English words and prefixes, Chinese terms cut from the text."""
    en_texts = [t for t in texts if t.isascii()]
    zh_texts = [t for t in texts if not t.isascii()]
    words_any = [w for w in rng.sample(vocab, n * 3) if any(w in t for t in en_texts[:2000])][:n] or vocab[:n]
    words_text = [rng.choice(rng.choice(en_texts).split()).strip(".").lower() for _ in range(n)]
    prefixes = [w[: max(3, len(w) - 2)] for w in words_text]

    def cut(k: int) -> list[str]:
        out = []
        while len(out) < n:
            t = rng.choice(zh_texts)
            i = rng.randrange(0, len(t) - k)
            piece = t[i : i + k]
            if "，" not in piece and "。" not in piece:
                out.append(piece)
        return out

    return {
        "English word (vocabulary)": words_any,
        "English word (from text)": words_text,
        "English prefix": prefixes,
        # a piece inside a word (its first and last letters off): the substring list
        "English inside a word": [w[1:-1] for w in words_text if len(w) >= 6][:n] or prefixes,
        "Chinese 2 chars": cut(2),
        "Chinese 3 chars": cut(3),
        "Chinese 4 chars": cut(4),
        "Two English words": [f"{a} {b}" for a, b in zip(words_text, reversed(words_text), strict=False)],
    }


def time_sets(svc, sets: dict[str, list[str]]) -> None:  # type: ignore[no-untyped-def]
    """p50 / p95 / max of find() per query kind, beside a LIKE scan of the paragraph table."""
    for queries in sets.values():  # warm the page cache
        for q in queries[:10]:
            svc.search.search(q, 10)
    print(f"{'query kind':28s} {'search p50':>10s} {'p95':>8s} {'max':>8s}   {'LIKE p50':>9s} {'p95':>8s}")
    for name, queries in sets.items():
        p50, p95, mx = time_queries(lambda q: svc.search.find(q, 10), queries, name)
        l50, l95, _ = time_queries(
            lambda q: db.execute_sql(
                "SELECT id FROM paragraph WHERE text LIKE ? LIMIT 10", (f"%{q}%",)
            ).fetchall(),
            queries[:20],
        )
        print(f"{name:28s} {p50:8.2f}ms {p95:6.2f}ms {mx:6.1f}ms   {l50:7.2f}ms {l95:6.2f}ms")


def cold_loads(svc) -> None:  # type: ignore[no-untyped-def]
    """What the first typo of a process loads: the English word list, and (two edits) the library's."""
    started = time.perf_counter()
    svc.search.speller.english()
    print(
        f"first typo of a process: English word list loaded in {(time.perf_counter() - started) * 1000:.0f} ms"
    )
    started = time.perf_counter()
    svc.search.speller._words()
    print(f"first two-edit typo: library word list loaded in {(time.perf_counter() - started) * 1000:.0f} ms")
    started = time.perf_counter()
    svc.search.substrings.holding("zzz")  # reads the vocabulary copy pieces are looked up in
    print(f"first substring: vocabulary loaded in {(time.perf_counter() - started) * 1000:.0f} ms")


def pasted(svc, texts: list[str], rng: random.Random, n: int) -> None:  # type: ignore[no-untyped-def]
    """A piece of a paragraph pasted as the query: 60-150 Chinese characters, 70-110 English
    words (or the whole paragraph); timings, and how often the paragraph it was cut from is first."""
    zh = [i for i, t in enumerate(texts) if not t.isascii()]
    en = [i for i, t in enumerate(texts) if t.isascii()]
    kinds: dict[str, list[tuple[str, int]]] = {
        "Pasted Chinese 60-150 chars": [],
        "Pasted English paragraph": [],
    }
    for _ in range(n):
        i = rng.choice(zh)
        size = min(len(texts[i]), rng.randint(60, 150))
        start = rng.randrange(0, len(texts[i]) - size + 1)
        kinds["Pasted Chinese 60-150 chars"].append((texts[i][start : start + size], i))
        i = rng.choice(en)
        words = texts[i].split()
        size = min(len(words), rng.randint(70, 110))
        start = rng.randrange(0, len(words) - size + 1)
        kinds["Pasted English paragraph"].append((" ".join(words[start : start + size]), i))
    for name, cases in kinds.items():
        found: dict[str, list] = {}  # type: ignore[type-arg]
        p50, p95, mx = time_queries(
            lambda q: found.__setitem__(q, svc.search.find(q, 10).hits),  # noqa: B023
            [q for q, _ in cases],
            name,
        )
        first = sum(
            1
            for q, i in cases
            if found[q]
            and (found[q][0].title, found[q][0].paragraph_id)
            == (f"bench {i // PER_ARTICLE}", f"p_{i % PER_ARTICLE + 1:03d}")
        )
        print(f"{name:28s} {p50:8.2f}ms {p95:6.2f}ms {mx:6.1f}ms   source first {first}/{len(cases)}")


def typos(svc, words: list[str], rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    """Find with typos: timings, and how many queries were corrected."""
    long_words = [w for w in words if len(w) >= 6] or words
    sets = {
        "Word, one edit": [one_typo(w, rng) for w in words if len(w) >= 4],
        "Long word, two edits": [one_typo(one_typo(w, rng), rng) for w in long_words],
        "Two words, one typo": [
            f"{one_typo(a, rng)} {b}" for a, b in zip(words, reversed(words), strict=False)
        ],
    }
    for name, queries in sets.items():
        corrected = sum(1 for q in queries if svc.search.find(q, 10).showing_results_for is not None)
        p50, p95, mx = time_queries(lambda q: svc.search.find(q, 10), queries, name)
        print(f"{name:28s} {p50:8.2f}ms {p95:6.2f}ms {mx:6.1f}ms   corrected {corrected}/{len(queries)}")


def rebuild_and_migrate(home: Path) -> None:
    """The index built again (schema 3's step), alone and through the migration (backup first)."""
    svc = open_services(home)
    started = time.perf_counter()
    with write_transaction():
        search_index.rebuild()
    print(f"index rebuilt in {time.perf_counter() - started:.1f} s (one transaction)")
    svc.close()
    con = sqlite3.connect(paths.database_path())
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    started = time.perf_counter()
    open_services(home).close()
    backups = sorted(paths.backups_dir().glob("*.sqlite3"))
    size = backups[-1].stat().st_size / 1e6 if backups else 0.0
    print(
        f"migration 1 -> 2 (backup copy {size:.0f} MB, then the rebuild): {time.perf_counter() - started:.1f} s"
    )


if __name__ == "__main__":
    main()
