"""Import benchmark: a generated 50 MB plain-text file, parse + store + index (no extraction),
against raw sqlite3.executemany of the same rows.

    /work/venv/bin/python bench/bench_import.py [--mb 50] [--repeat 3] [--keep]
    /work/venv/bin/python bench/bench_import.py --formats   # PDF, EPUB, HTML (bench_formats.py)

Ours is the real path: core.ingest.read_document, then in one transaction on a fresh database
(core.storage.schema.open_database) the Article row, library_repo.insert_paragraphs and
search_index.index_article, then the commit.

Baselines (bench/import_baselines.py), each one transaction in a fresh file:

- paragraph rows only: the same (article_id, paragraph_id, position, kind, text) rows with one
  executemany into a plain table of those columns, then again with the two unique indexes.
  This is what the store step writes (no search index).
- the same rows into the same tables: the schema and the FTS5 settings copied from the database
  our path wrote, the same pragmas as that connection, and one executemany per table of the
  rows our store writes (article, paragraphs, search_para with the identical column strings,
  the vocabulary, the stats row), computed beforehand. SQLite's own FTS5 work is in both, so the
  ratio is the cost of our code: parsing, analysis, the ORM.

With --repeat N every measurement is taken N times and the best (lowest wall time) is printed.
Prints figures; no asserts (speed is not a test).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.import_baselines import (  # noqa: E402
    Clock,
    Phases,
    SameRows,
    Times,
    fts_configs,
    raw_paragraphs,
    raw_same_tables,
)
from core.domain import SourceDocument  # noqa: E402
from core.ingest import read_document  # noqa: E402
from core.storage import library as library_repo  # noqa: E402
from core.storage.db import db, write_transaction  # noqa: E402
from core.storage.models import Article  # noqa: E402
from core.storage.schema import open_database  # noqa: E402
from core.storage.search import index as search_index  # noqa: E402

# fmt: off
EN_WORDS = [
    "memory", "review", "interval", "stability", "difficulty", "recall", "forgetting", "curve", "spaced",
    "repetition", "card", "learner", "practice", "retrieval", "schedule", "evidence", "paragraph", "article",
    "chlorophyll", "light", "energy", "sugar", "oxygen", "carbon", "cycle", "enzyme", "leaf", "plant", "stage",
    "water", "process", "model", "number", "probability", "target",
]
# fmt: on
ZH_SENTENCES = [
    "间隔重复是一种学习方法，指在逐渐拉长的时间间隔里反复复习同一内容。",
    "每一次成功的复习都会让记忆更加稳定，因此遗忘曲线会变得越来越平缓。",
    "光合作用是綠色植物利用光能，把二氧化碳和水轉化為葡萄糖並釋放氧氣的過程。",
    "主动回忆比重复阅读更能巩固记忆，因为回忆答案需要大脑重新构建信息。",
    "调度算法会在可提取性降到目标保持率时安排下一次复习。",
    "葉綠體中的葉綠素吸收紅光和藍光，反射綠光，所以葉子看起來是綠色的。",
]
PRAGMAS = ("journal_mode", "synchronous", "foreign_keys", "cache_size", "temp_store", "busy_timeout")
T = TypeVar("T")


def english_paragraph(rng: random.Random) -> str:
    sentences = []
    for _ in range(rng.randint(2, 7)):
        words = rng.choices(EN_WORDS, k=rng.randint(8, 22))
        sentences.append(" ".join(words).capitalize() + ".")
    text = " ".join(sentences)
    # Wrap at ~78 columns like a hand-written text file: exercises line folding.
    lines, line = [], ""
    for word in text.split(" "):
        if len(line) + len(word) + 1 > 78:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)


def chinese_paragraph(rng: random.Random) -> str:
    sentences = rng.choices(ZH_SENTENCES, k=rng.randint(2, 6))
    if rng.random() < 0.5:  # a wrapped Chinese paragraph: breaks fold to nothing
        return "\n".join(sentences)
    return "".join(sentences)


def generate(path: Path, megabytes: float, seed: int = 2026) -> int:
    rng = random.Random(seed)
    target = int(megabytes * 1024 * 1024)
    written = 0
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        while written < target:
            para = english_paragraph(rng) if rng.random() < 0.5 else chinese_paragraph(rng)
            chunk = para + "\n\n"
            fh.write(chunk)
            written += len(chunk.encode("utf-8"))
    return written


def total(*parts: Times) -> Times:
    return sum(p[0] for p in parts), sum(p[1] for p in parts)


def best(repeat: int, run: Callable[[int], T], wall: Callable[[T], float]) -> T:
    """The run with the lowest wall time of `repeat` runs (each gets its attempt number)."""
    return min((run(i) for i in range(repeat)), key=wall)


def parse(source: Path) -> tuple[SourceDocument, Times]:
    clock = Clock()
    doc = read_document(source, max_bytes=source.stat().st_size + 1)
    return doc, clock.lap()


def store(doc: SourceDocument, db_path: Path, *, index: bool) -> Phases:
    """One import transaction on a fresh database: article row, paragraphs, (search index), commit."""
    open_database(db_path)
    times: Phases = {}
    clock = Clock()
    with write_transaction():
        art = Article.create(**article_fields(doc))
        library_repo.insert_paragraphs(art.id, doc.paragraphs)
        times["store (article + insert_paragraphs)"] = clock.lap()
        if index:
            search_index.index_article(art.id)
            times["index (search_index.index_article)"] = clock.lap()
    times["commit"] = clock.lap()
    db.close()
    return times


def article_fields(doc: SourceDocument) -> dict[str, Any]:
    return {
        "source_path": doc.source_path,
        "document_id": doc.document_id,
        "content_hash": doc.content_hash,
        "title": doc.title,
        "encoding": doc.encoding,
        "language": doc.language,
        "version": 1,
        "metadata_json": "{}",
        "paragraph_count": len(doc.paragraphs),
        "added_at": 1,
    }


def fresh(tmp: Path, name: str) -> Path:
    for p in tmp.glob(f"{name}*"):
        p.unlink()
    return tmp / name


def line(name: str, t: Times) -> None:
    print(f"  {name:<46} {t[0]:8.3f} s wall {t[1]:8.3f} s cpu")


def ratio(name: str, a: Times, b: Times) -> None:
    print(f"  {name:<62} {a[0] / b[0]:6.2f}x wall {a[1] / b[1]:6.2f}x cpu")


def print_ours(
    parse_t: Times, bare: dict[str, Times], full: dict[str, Times], analysis_t: Times
) -> tuple[Times, Times]:
    """Our code path's figures, store only and with the index; returns both totals."""
    totals = []
    for way, parts, sum_label in (
        ("store only", bare, "= parse + store"),
        ("with the search index in the same transaction", full, "= parse + store + index"),
    ):
        print(f"ours, real code path, {way}:")
        line("parse (read_document)", parse_t)
        for name, t in parts.items():
            line(name, t)
        totals.append(total(parse_t, *parts.values()))
        line(sum_label, totals[-1])
    line("(of index: Python analysis, index_row, timed apart)", analysis_t)
    return totals[0], totals[1]


def print_raw(
    plain: tuple[float, float], indexed: tuple[float, float], raw_full: dict[str, Any]
) -> tuple[float, float]:
    """The raw sqlite3 baselines; returns the same-rows-same-tables total."""
    print("raw sqlite3.executemany, paragraph rows only (one transaction):")
    line("plain table, same columns", plain)
    line("plus the two unique indexes of paragraph", indexed)
    print("raw sqlite3.executemany, the same rows into the same tables (one transaction):")
    for name, t in raw_full.items():
        line(name, t)
    raw_total = total(*raw_full.values())
    line("= raw, same rows and tables", raw_total)
    return raw_total


def main() -> int:
    if "--formats" in sys.argv[1:]:  # the document formats' cases (PDF, EPUB, HTML)
        from bench_formats import main as formats_main

        return formats_main([a for a in sys.argv[1:] if a != "--formats"])
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=50.0, help="size of the generated file in MB")
    parser.add_argument("--repeat", type=int, default=1, help="take each figure N times, print the best")
    parser.add_argument("--keep", action="store_true", help="keep the temp dir and print its path")
    args = parser.parse_args()
    n = max(1, args.repeat)
    tmp = Path(tempfile.mkdtemp(prefix="memoryrush-bench-import-"))
    source = tmp / "fifty.txt"
    size = generate(source, args.mb)
    print(f"generated {source.name}: {size / 1024 / 1024:.1f} MB (English and Chinese paragraphs)")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")

    doc, parse_t = best(n, lambda _: parse(source), lambda r: r[1][0])
    bare = best(
        n, lambda _: store(doc, fresh(tmp, "bare.sqlite3"), index=False), lambda r: total(*r.values())[0]
    )
    full = best(
        n, lambda _: store(doc, fresh(tmp, "full.sqlite3"), index=True), lambda r: total(*r.values())[0]
    )
    db.connect()  # the same file, the pragmas open_database gave it
    pragmas = {p: db.execute_sql(f"PRAGMA {p}").fetchone()[0] for p in PRAGMAS}
    db.close()
    clock = Clock()
    same = SameRows(doc, tmp / "full.sqlite3")
    analysis_t = clock.lap()
    plain = best(
        n, lambda _: raw_paragraphs(doc, fresh(tmp, "raw_plain.sqlite3"), indexes=False), lambda r: r[0]
    )
    indexed = best(
        n, lambda _: raw_paragraphs(doc, fresh(tmp, "raw_idx.sqlite3"), indexes=True), lambda r: r[0]
    )
    raw_full = best(
        n,
        lambda _: raw_same_tables(same, tmp / "full.sqlite3", pragmas, fresh(tmp, "raw_same.sqlite3")),
        lambda r: total(*r.values())[0],
    )

    print(
        f"paragraphs: {len(doc.paragraphs)}, parse throughput {size / 1024 / 1024 / parse_t[0]:.1f} MB/s wall"
    )
    print(f"best of {n}; pragmas of both: {', '.join(f'{k}={v}' for k, v in pragmas.items())}")
    settings = {t: rows for t, rows in fts_configs(tmp / "full.sqlite3").items() if rows}
    print(f"FTS5 settings of both: {settings or 'defaults'}")
    bare_total, full_total = print_ours(parse_t, bare, full, analysis_t)
    raw_total = print_raw(plain, indexed, raw_full)
    print("ratios (target <= 2x):")
    ratio("parse + store + index / raw same rows into the same tables", full_total, raw_total)
    ratio("parse + store / raw paragraph rows with the unique indexes", bare_total, indexed)
    ratio("parse + store / raw paragraph rows, plain table", bare_total, plain)
    clean_up(tmp, keep=args.keep)
    return 0


def clean_up(tmp: Path, *, keep: bool) -> None:
    """Remove the temp dir (or say where it was kept)."""
    if keep:
        print(f"kept: {tmp}")
        return
    for p in sorted(tmp.iterdir()):
        p.unlink()
    tmp.rmdir()


if __name__ == "__main__":
    raise SystemExit(main())
