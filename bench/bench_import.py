"""Import benchmark: a generated 50 MB plain-text file, parse + store + index (no extraction),
against raw sqlite3.executemany of the same rows into an equivalent plain table.

    /work/venv/bin/python bench/bench_import.py [--mb 50] [--keep]

Our path is the real one: core.ingest.read_document, then in one transaction on a fresh
database (core.storage.db.open_database) the Article row, library_repo.insert_paragraphs and
search_index.index_article. The baseline inserts the same (article_id, paragraph_id, position,
kind, text) rows with one executemany into a table of the same columns, in a fresh file with
the same pragmas. Prints figures; no asserts (speed is not a test).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.domain import SourceDocument  # noqa: E402
from core.ingest import read_document  # noqa: E402
from core.storage import library_repo, search_index  # noqa: E402
from core.storage.db import db, open_database, write_transaction  # noqa: E402
from core.storage.models import Article  # noqa: E402

EN_WORDS = [
    "memory",
    "review",
    "interval",
    "stability",
    "difficulty",
    "recall",
    "forgetting",
    "curve",
    "spaced",
    "repetition",
    "card",
    "learner",
    "practice",
    "retrieval",
    "schedule",
    "evidence",
    "paragraph",
    "article",
    "chlorophyll",
    "light",
    "energy",
    "sugar",
    "oxygen",
    "carbon",
    "cycle",
    "enzyme",
    "leaf",
    "plant",
    "stage",
    "water",
    "process",
    "model",
    "number",
    "probability",
    "target",
]
ZH_SENTENCES = [
    "间隔重复是一种学习方法，指在逐渐拉长的时间间隔里反复复习同一内容。",
    "每一次成功的复习都会让记忆更加稳定，因此遗忘曲线会变得越来越平缓。",
    "光合作用是綠色植物利用光能，把二氧化碳和水轉化為葡萄糖並釋放氧氣的過程。",
    "主动回忆比重复阅读更能巩固记忆，因为回忆答案需要大脑重新构建信息。",
    "调度算法会在可提取性降到目标保持率时安排下一次复习。",
    "葉綠體中的葉綠素吸收紅光和藍光，反射綠光，所以葉子看起來是綠色的。",
]


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


Rows = list[tuple[int, str, int, str, str]]


class Clock:
    """Wall time and this process's CPU time (SQLite runs in-process, so both sides count alike).

    CPU time is printed because the figures are often taken on a busy machine.
    """

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()

    def lap(self) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        out = (wall - self.wall, cpu - self.cpu)
        self.wall, self.cpu = wall, cpu
        return out


def parse(source: Path) -> tuple[SourceDocument, tuple[float, float]]:
    clock = Clock()
    doc = read_document(source, max_bytes=source.stat().st_size + 1)
    return doc, clock.lap()


def store(doc: SourceDocument, db_path: Path, *, index: bool) -> tuple[dict[str, tuple[float, float]], Rows]:
    """One import transaction on a fresh database: article row, paragraphs, (search index)."""
    open_database(db_path)
    times: dict[str, tuple[float, float]] = {}
    clock = Clock()
    with write_transaction():
        art = Article.create(
            source_path=doc.source_path,
            document_id=doc.document_id,
            content_hash=doc.content_hash,
            title=doc.title,
            encoding=doc.encoding,
            language=doc.language,
            version=1,
            metadata_json=json.dumps(doc.metadata),
            paragraph_count=len(doc.paragraphs),
            added_at=int(time.time()),
        )
        library_repo.insert_paragraphs(art.id, doc.paragraphs)
        times["store (article + insert_paragraphs)"] = clock.lap()
        if index:
            search_index.index_article(art.id)
            times["index (search_index.index_article)"] = clock.lap()
    times["commit"] = clock.lap()
    db.close()
    return times, [(art.id, p.paragraph_id, p.index, p.kind, p.text) for p in doc.paragraphs]


def raw(rows: Rows, db_path: Path, *, indexes: bool) -> tuple[float, float]:
    con = sqlite3.connect(str(db_path), isolation_level=None)
    con.execute("PRAGMA journal_mode=wal")
    con.execute("PRAGMA synchronous=normal")
    con.execute(
        "CREATE TABLE paragraph (id INTEGER PRIMARY KEY, article_id INTEGER NOT NULL, "
        "paragraph_id TEXT NOT NULL, position INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL)"
    )
    if indexes:
        con.execute("CREATE UNIQUE INDEX p_pos ON paragraph (article_id, position)")
        con.execute("CREATE UNIQUE INDEX p_pid ON paragraph (article_id, paragraph_id)")
    clock = Clock()
    con.execute("BEGIN IMMEDIATE")
    con.executemany(
        "INSERT INTO paragraph (article_id, paragraph_id, position, kind, text) VALUES (?, ?, ?, ?, ?)", rows
    )
    con.execute("COMMIT")
    elapsed = clock.lap()
    con.close()
    return elapsed


def line(name: str, t: tuple[float, float]) -> None:
    print(f"  {name:<40} {t[0]:8.3f} s wall {t[1]:8.3f} s cpu")


def total(*parts: tuple[float, float]) -> tuple[float, float]:
    return sum(p[0] for p in parts), sum(p[1] for p in parts)


def ratio(name: str, a: tuple[float, float], b: tuple[float, float], note: str = "") -> None:
    print(f"  {name:<40} {a[0] / b[0]:7.2f}x wall {a[1] / b[1]:7.2f}x cpu {note}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=50.0, help="size of the generated file in MB")
    parser.add_argument("--skip-index", action="store_true", help="skip the run with the search index")
    parser.add_argument("--keep", action="store_true", help="keep the temp dir and print its path")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="memoryrush-bench-import-"))
    source = tmp / "fifty.txt"
    size = generate(source, args.mb)
    print(f"generated {source.name}: {size / 1024 / 1024:.1f} MB (English and Chinese paragraphs)")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")

    doc, parse_t = parse(source)
    bare, rows = store(doc, tmp / "bare.sqlite3", index=False)
    full = {} if args.skip_index else store(doc, tmp / "full.sqlite3", index=True)[0]
    plain = raw(rows, tmp / "raw_plain.sqlite3", indexes=False)
    indexed = raw(rows, tmp / "raw_indexed.sqlite3", indexes=True)

    print(f"paragraphs: {len(rows)}, parse throughput {size / 1024 / 1024 / parse_t[0]:.1f} MB/s wall")
    print("ours, real code path:")
    line("parse (read_document)", parse_t)
    for name, t in bare.items():
        line(name, t)
    bare_total = total(parse_t, *bare.values())
    line("= parse + store", bare_total)
    if full:
        print("ours, with the search index in the same transaction:")
        for name, t in full.items():
            line(name, t)
        full_total = total(parse_t, *full.values())
        line("= parse + store + index", full_total)
    print("raw sqlite3.executemany of the same rows (one transaction):")
    line("plain table, same columns", plain)
    line("plus the two unique indexes of paragraph", indexed)
    print("ratios (target <= 2x):")
    if full:
        ratio("parse + store + index / raw plain", full_total, plain)
    ratio("parse + store / raw plain", bare_total, plain)
    ratio("parse + store / raw with indexes", bare_total, indexed)
    ratio("store only / raw with indexes", total(*bare.values()), indexed)
    if args.keep:
        print(f"kept: {tmp}")
    else:
        for p in sorted(tmp.iterdir()):
            p.unlink()
        tmp.rmdir()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
