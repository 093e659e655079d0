"""Score the claim-evidence consistency check on the dev set of claim-quote pairs.

    .venv/bin/python bench/eval_consistency.py                  # the tuning part
    .venv/bin/python bench/eval_consistency.py --split final    # the part looked at only at the end
    .venv/bin/python bench/eval_consistency.py --split all --errors

Prints the confusion table (gold label x verdict), recall of `contradicts` per kind of change,
the false-positive rate (faithful pairs called `contradicts`), per language, and the time per
pair (median and p95 of every run, and of each pair's best run: its own cost on a shared
machine; the first, cold pass loads rjieba and is not counted).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.validation.consistency import check  # noqa: E402

DEV = ROOT / "tests" / "data" / "consistency_dev.jsonl"
VERDICTS = ("consistent", "contradicts", "unsupported")


def load(split: str, path: Path = DEV) -> list[dict[str, str]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if split == "all" or r["split"] == split]


def score(rows: list[dict[str, str]]) -> dict[str, object]:
    """Verdicts for every row and the figures the targets are stated in."""
    got = [check(r["quote"], r["claim"]).verdict for r in rows]
    contra = [g for r, g in zip(rows, got, strict=True) if r["label"] == "contradicts"]
    faithful = [g for r, g in zip(rows, got, strict=True) if r["label"] == "consistent"]
    return {
        "verdicts": got,
        "recall": sum(g == "contradicts" for g in contra) / max(1, len(contra)),
        "false_positive": sum(g == "contradicts" for g in faithful) / max(1, len(faithful)),
    }


def _table(rows: list[dict[str, str]], got: list[str]) -> None:
    cells = Counter((r["label"], g) for r, g in zip(rows, got, strict=True))
    print(f"{'gold / verdict':<16}" + "".join(f"{v:>13}" for v in VERDICTS) + f"{'total':>8}")
    for label in VERDICTS:
        n = sum(cells[(label, v)] for v in VERDICTS)
        if n:
            print(f"{label:<16}" + "".join(f"{cells[(label, v)]:>13}" for v in VERDICTS) + f"{n:>8}")


def _per(rows: list[dict[str, str]], got: list[str], field: str) -> None:
    hit: dict[str, list[bool]] = defaultdict(list)
    for r, g in zip(rows, got, strict=True):
        if r["label"] == "contradicts":
            hit[r[field]].append(g == "contradicts")
        elif r["label"] == "consistent":
            hit[f"faithful ({r[field]})" if field == "lang" else "faithful -> contradicts"].append(
                g == "contradicts"
            )
    for key in sorted(hit):
        values = hit[key]
        print(f"  {key:<28} {sum(values):>4}/{len(values):<4} {sum(values) / len(values):6.1%}")


def _timing(rows: list[dict[str, str]], rounds: int) -> dict[str, float]:
    """Microseconds per pair over every run (median, p95), and each pair's best run (median, p95,
    max): on a shared machine the best run is the pair's own cost, the rest is waiting for a core."""
    check("北京冬奥会开幕。", "东京冬奥会开幕。")  # loads rjieba's dictionary (its first tag call) once
    every: list[float] = []
    best = [float("inf")] * len(rows)
    for _ in range(rounds):
        for k, r in enumerate(rows):
            t = time.perf_counter()
            check(r["quote"], r["claim"])
            took = time.perf_counter() - t
            every.append(took)
            best[k] = min(best[k], took)
    every.sort()
    best.sort()

    def at(values: list[float], q: float) -> float:
        return values[int(q * (len(values) - 1))] * 1e6

    return {
        "median": statistics.median(every) * 1e6,
        "p95": at(every, 0.95),
        "best_median": statistics.median(best) * 1e6,
        "best_p95": at(best, 0.95),
        "best_max": best[-1] * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default="tune", choices=["tune", "final", "all"])
    parser.add_argument("--file", type=Path, default=DEV)
    parser.add_argument("--errors", action="store_true", help="print the pairs the check gets wrong")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds over the pairs")
    args = parser.parse_args()
    rows = load(args.split, args.file)
    t0 = time.perf_counter()
    result = score(rows)
    cold = time.perf_counter() - t0
    got: list[str] = result["verdicts"]  # type: ignore[assignment]
    print(f"{args.file.name}, split {args.split}: {len(rows)} pairs\n")
    _table(rows, got)
    print(f"\ncontradicted claims called contradicts: {result['recall']:.1%}   (target >= 95%)")
    print(f"faithful claims called contradicts:     {result['false_positive']:.1%}   (target <= 5%)")
    print("\nrecall per kind of change (and faithful pairs called contradicts):")
    _per(rows, got, "kind")
    print("\nper language:")
    _per(rows, got, "lang")
    if args.rounds > 0:
        t = _timing(rows, args.rounds)
        print(
            f"\ntime per pair ({args.rounds} rounds): every run median {t['median']:.0f} us, p95 {t['p95']:.0f} us;"
            f" each pair's best run median {t['best_median']:.0f} us, p95 {t['best_p95']:.0f} us,"
            f" max {t['best_max']:.0f} us (first pass incl. rjieba load {cold:.2f} s)"
        )
    if args.errors:
        print("\nerrors:")
        for r, g in zip(rows, got, strict=True):
            if (r["label"] == "contradicts") != (g == "contradicts"):
                v = check(r["quote"], r["claim"])
                print(f"- [{r['id']} {r['kind']}] gold {r['label']}, got {g}")
                print(f"    quote: {r['quote']}\n    claim: {r['claim']}")
                for reason in v.reasons:
                    print(f"    reason: {reason}")


if __name__ == "__main__":
    main()
