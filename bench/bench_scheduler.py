"""Scheduler benchmark: build today's session at 1,000,000 cards, MemoryRush vs the `anki` package.

    python bench/bench_scheduler.py [--cards 1000000] [--answers 300] [--no-anki] [--reuse DIR]

Both collections get the same card mix (rows written with raw executemany):
75 % review cards (intervals log-normal around 30 days, up to 2 % of the interval overdue),
0.1 % learning, 2.9 % suspended, 22 % new. Limits: 200 reviews and 20 new per day on both sides.

Prints (no assertions):
  * MemoryRush: ReviewService.start_session() on a fresh services object (cold build),
    median and best of several runs;
  * Anki: Collection(...).sched.get_queued_cards() right after opening (a fresh queue build),
    median and best of several runs; the ratio;
  * rate → next card ready: p50/p95/max of ReviewService.answer() + next_card() (services only).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.library_rows import CARD_INSERT  # noqa: E402
from core.domain import READER_VERSION  # noqa: E402
from core.host.clock import FixedClock  # noqa: E402
from core.services.bootstrap import open_services  # noqa: E402
from core.storage.review.models import NO_BUCKET, stability_bucket, t90  # noqa: E402
from scheduler import Rating  # noqa: E402

NOW = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
DAY = 86400


def card_mix(n: int, seed: int = 7) -> list[tuple[str, float, float, int]]:
    """(kind, interval days, phase in the interval, lapses) per card; kind: review/learn/susp/new."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        x = rng.random()
        kind = "review" if x < 0.75 else "learn" if x < 0.751 else "susp" if x < 0.78 else "new"
        ivl = min(3650.0, max(1.0, math.exp(rng.gauss(math.log(30), 1.0))))
        phase = rng.uniform(0.0, 1.02)  # > 1: overdue
        out.append((kind, ivl, phase, rng.randint(0, 3)))
    return out


def fill_memoryrush(db_path: Path, mix: list[tuple[str, float, float, int]], now: int) -> None:
    con = sqlite3.connect(str(db_path))
    con.execute("PRAGMA foreign_keys = OFF")
    con.execute("PRAGMA synchronous = OFF")
    n = len(mix)
    units = (n + 1) // 2
    with con:
        con.execute(
            "INSERT INTO article (id, source_path, document_id, content_hash, title, encoding, language, version, "
            "metadata_json, paragraph_count, reading_position, added_at, reader_version) "
            "VALUES (1, '/bench.md', 'doc_bench', 'x', 'Bench', 'utf-8', 'en', 1, '{}', 0, 0, ?, ?)",
            (now, READER_VERSION),  # read by today's readers: nothing to refresh at open
        )
        con.executemany(
            "INSERT INTO unit (id, article_id, position, content, memory_type, tags_json, confidence, status, "
            "issues_json, extractor, pinned, edited, low_confidence, created_at, updated_at) "
            "VALUES (?, 1, ?, ?, 'concept', '[]', 0.9, 'confirmed', '[]', 'bench', 0, 0, 0, ?, ?)",
            ((u, u, f"unit {u}", now, now) for u in range(1, units + 1)),
        )
        con.executemany(
            "INSERT INTO question (id, unit_id, position, question, answer, kind) VALUES (?, ?, ?, ?, ?, 'qa')",
            ((i, (i + 1) // 2, (i + 1) % 2, f"question {i}?", f"answer {i}") for i in range(1, n + 1)),
        )

        con.executemany(CARD_INSERT, card_rows(mix, now))
    con.execute("ANALYZE")
    con.close()


def card_rows(mix: list[tuple[str, float, float, int]], now: int) -> Iterator[tuple[object, ...]]:
    """CARD_INSERT's columns for each card of the mix (two cards a unit)."""
    n = len(mix)
    for i, (kind, ivl, phase, lapses) in enumerate(mix, start=1):
        unit = (i + 1) // 2
        if kind == "new":
            yield (i, i, unit, 0, None, None, None, now - n + i, None, 0, 0, 0, 1, 0, now, NO_BUCKET, None)
            continue
        last = int(now - phase * ivl * DAY)
        if kind == "learn":
            due = now - 600 + (i * 97) % (12 * 3600)  # spread over the day: a few due now
            yield (i, i, unit, 1, 0, 1.0, 5.0, due, now - 600, 1, 0, 1, 1, 0, now, 0, now - 600 + DAY)
            continue
        due = int(last + ivl * DAY)
        queue = -1 if kind == "susp" else 2
        reps, bucket, until = 3 + lapses, stability_bucket(ivl), t90(last, ivl)
        yield (
            i,
            i,
            unit,
            2,
            None,
            ivl,
            5.0,
            due,
            last,
            reps,
            lapses,
            queue,
            1,
            int(queue == -1),
            now,
            bucket,
            until,
        )


def fill_anki(path: Path, mix: list[tuple[str, float, float, int]], now: int) -> None:
    from anki.collection import Collection

    col = Collection(str(path))
    mid = col.models.by_name("Basic")["id"]
    today = col.sched.today
    conf = col.decks.config_dict_for_deck_id(1)
    conf["rev"]["perDay"], conf["new"]["perDay"] = 200, 20
    col.decks.save(conf)
    col.close()
    con = sqlite3.connect(str(path))
    con.create_collation("unicase", lambda a, b: (a.lower() > b.lower()) - (a.lower() < b.lower()))
    con.execute("PRAGMA synchronous = OFF")
    n = len(mix)
    with con:
        con.executemany(
            "INSERT INTO notes (id, guid, mid, mod, usn, tags, flds, sfld, csum, flags, data) "
            "VALUES (?, ?, ?, ?, -1, '', ?, ?, 0, 0, '')",
            (
                (i, f"g{i}", mid, now, f"question {i}?\x1fanswer {i}", f"question {i}?")
                for i in range(1, n + 1)
            ),
        )

        def rows():  # type: ignore[no-untyped-def]
            for i, (kind, ivl, phase, lapses) in enumerate(mix, start=1):
                if kind == "new":
                    yield (i, i, 0, 0, i, 0, 0, 0, 0, 0)
                    continue
                if kind == "learn":
                    yield (i, i, 1, 1, now - 600 + (i * 97) % (12 * 3600), 0, 2500, 1, 0, 1001)
                    continue
                due_day = today + round(ivl - phase * ivl)
                yield (i, i, 2, -1 if kind == "susp" else 2, due_day, round(ivl), 2500, 3 + lapses, lapses, 0)

        con.executemany(
            "INSERT INTO cards (id, nid, did, ord, mod, usn, type, queue, due, ivl, factor, reps, lapses, left, "
            "odue, odid, flags, data) VALUES (?, ?, 1, 0, 0, -1, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, '')",
            rows(),
        )
    con.execute("ANALYZE")
    con.close()


Sample = tuple[float, float]  # (wall ms, CPU ms of this process: all threads, incl. Anki's Rust backend)


def timed(fn):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, ((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000)


def describe(samples: list[Sample]) -> str:
    walls, cpus = sorted(w for w, _ in samples), sorted(c for _, c in samples)
    return (
        f"wall median {statistics.median(walls):.2f} ms (best {walls[0]:.2f}), "
        f"CPU median {statistics.median(cpus):.2f} ms"
    )


def percentiles(samples: list[float]) -> str:
    xs = sorted(samples)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return f"p50 {xs[len(xs) // 2]:.2f} ms, p95 {p95:.2f} ms, max {xs[-1]:.2f} ms"


def time_anki(path: Path, runs: int) -> list[Sample]:
    from anki.collection import Collection

    samples = []
    for _ in range(runs):
        col = Collection(str(path))
        queued, sample = timed(lambda col=col: col.sched.get_queued_cards(fetch_limit=1))
        samples.append(sample)
        counts = (queued.new_count, queued.learning_count, queued.review_count)
        col.close()
    print(f"  anki queue counts (new, learning, review): {counts}")
    return samples


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=1_000_000)
    ap.add_argument("--answers", type=int, default=300)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-anki", action="store_true")
    ap.add_argument(
        "--reuse", type=Path, default=None, help="Copy the collections of an earlier run's folder."
    )
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="memoryrush-bench-"))
    if args.reuse is not None:
        for part in ("home", "anki"):
            if (args.reuse / part).exists():
                shutil.copytree(args.reuse / part, tmp / part)
    now = int(NOW.timestamp())
    mix = card_mix(args.cards)
    print(
        f"cards: {args.cards:,}  (in {tmp}); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )

    home = tmp / "home"
    clock = FixedClock(NOW)
    reused = home.exists()
    open_services(home, clock=clock).close()
    if not reused:
        started = time.perf_counter()
        fill_memoryrush(_db(home), mix, now)
        print(f"  memoryrush rows written in {time.perf_counter() - started:.1f} s")

    cold = session_builds(home, clock, args.runs)
    if not args.no_anki:
        compare_anki(tmp / "anki" / "collection.anki2", mix, now, args.runs, cold)

    scratch = tmp / "answers"  # answering changes the collection: keep `home` pristine for --reuse
    shutil.copytree(home, scratch)
    answer_latency(scratch, clock, args.answers)
    shutil.rmtree(scratch)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


def session_builds(home: Path, clock: FixedClock, runs: int) -> list[Sample]:
    """Today's session built right after opening (cold caches) and rebuilt warm; the cold ones."""
    cold: list[Sample] = []
    warm: list[Sample] = []
    for _ in range(runs):
        svc = open_services(home, clock=clock)
        s, sample = timed(svc.review.start_session)  # first build after opening: cold caches
        cold.append(sample)
        for _ in range(3):
            warm.append(timed(svc.review.start_session)[1])
        svc.close()
    print(f"  memoryrush session: {s.reviews_left} reviews, {s.new_left} new, {s.learning_due} learning due")
    print(f"MemoryRush build today's session, first after open: {describe(cold)}")
    print(f"MemoryRush rebuild, warm: {describe(warm)}")
    return cold


def compare_anki(
    anki_path: Path, mix: list[tuple[str, float, float, int]], now: int, runs: int, cold: list[Sample]
) -> None:
    try:
        if not anki_path.exists():
            anki_path.parent.mkdir()
            started = time.perf_counter()
            fill_anki(anki_path, mix, now)
            print(f"  anki rows written in {time.perf_counter() - started:.1f} s")
        theirs = time_anki(anki_path, runs)
        print(f"Anki build queue (get_queued_cards right after opening): {describe(theirs)}")
        for label, i in (("wall", 0), ("CPU", 1)):
            a = statistics.median(x[i] for x in theirs)
            ours = statistics.median(x[i] for x in cold)
            print(
                f"ratio anki/memoryrush ({label}, medians, first build after open): {a / ours:.0f}x (target >= 100x)"
            )
    except Exception as exc:  # the comparison is optional: report why it is missing
        print(f"Anki comparison unavailable: {type(exc).__name__}: {exc}")


def answer_latency(home: Path, clock: FixedClock, answers: int) -> None:
    svc = open_services(home, clock=clock)
    svc.review.rng.seed(1)
    svc.review.start_session()
    rng = random.Random(3)
    total: list[Sample] = []
    kinds: dict[str, int] = {}
    item = svc.review.next_card()
    for _ in range(answers):
        if item is None:
            break
        kinds[item.card.state] = kinds.get(item.card.state, 0) + 1
        card_id, rating = item.card.id, Rating(rng.choice([1, 3, 3, 3, 2, 4]))

        def step(card_id: int = card_id, rating: Rating = rating):  # type: ignore[no-untyped-def]
            svc.review.answer(card_id, rating)
            return svc.review.next_card()

        item, sample = timed(step)
        total.append(sample)
        clock.advance(seconds=8)
    svc.close()
    print(f"  answered cards by state: {kinds}")
    print(f"rate -> next card ready ({len(total)} answers), wall: {percentiles([w for w, _ in total])}")
    print(f"rate -> next card ready ({len(total)} answers), CPU:  {percentiles([c for _, c in total])}")


def _db(home: Path) -> Path:
    from core.host import paths

    return paths.database_path()


if __name__ == "__main__":
    raise SystemExit(main())
