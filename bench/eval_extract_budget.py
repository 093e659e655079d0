"""Extraction quality against quote budget: the eval scorer, unchanged, at several unit counts.

    python bench/eval_extract_budget.py                      # dev split, counts 3 5 7 9 12 16 20
    python bench/eval_extract_budget.py --counts 4,8 --sets en_cnndm_highlights_frank --limit 10

`../shared/eval/score_extraction.py` gives the baselines (lead, TextRank) the same number of
characters per article as our units quote, so the budget is ours to choose. This runs the
scorer once with the shipped length rule ("rule") and once per fixed unit count, each time
through the same parse -> extract -> validate -> artifact path as `memoryrush process` (the
scorer calls this script's `process` command with `--max-units N`), and prints macro recall
and the ratios to lead and TextRank for each: the trade-off curve behind the issue's targets
(>= 1.10x lead and >= 1.20x TextRank). Figures for the notes; no pass/fail. Needs the eval
data next to the project (`--eval`); nothing from it is copied.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def process(argv: list[str]) -> int:
    """`process [--max-units N] PATHS... --out DIR`: what `memoryrush process` does, with a unit count."""
    from core.extraction.offline import OfflineExtractor
    from core.ingest import iter_input_files
    from core.services.processing import process_paths

    ap = argparse.ArgumentParser(prog="eval_extract_budget.py process")
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--max-units", type=int, default=None)
    args = ap.parse_args(argv)
    extractor = OfflineExtractor(max_units=args.max_units)
    outcomes = process_paths(iter_input_files(args.paths), args.out, extractor, max_bytes=64 * 1024 * 1024)
    failed = [o for o in outcomes if not o.ok]
    for o in failed:
        print(f"refused {o.path}: {o.message}", file=sys.stderr)
    return 1 if failed else 0


def score(scorer: Path, count: int | None, extra: list[str]) -> dict:
    units = "" if count is None else f" --max-units {count}"
    cmd = f"{shlex.quote(sys.executable)} {shlex.quote(str(Path(__file__).resolve()))} process{units} {{inputs}} --out {{out}}"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "result.json"
        subprocess.run(
            [sys.executable, str(scorer), "--cmd", cmd, "--json", str(out), *extra],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        result: dict = json.loads(out.read_text(encoding="utf-8"))
    return result


def main() -> int:
    if sys.argv[1:2] == ["process"]:
        return process(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--eval", type=Path, default=ROOT.parent / "shared" / "eval", help="the eval folder")
    ap.add_argument("--counts", default="3,5,7,9,12,16,20", help="fixed unit counts to try")
    ap.add_argument("--sets", default="", help="passed to the scorer")
    ap.add_argument("--limit", type=int, default=0, help="passed to the scorer")
    args = ap.parse_args()
    scorer = args.eval / "score_extraction.py"
    if not scorer.exists():
        print(f"no scorer at {scorer}; pass --eval", file=sys.stderr)
        return 2
    extra = (["--sets", args.sets] if args.sets else []) + (
        ["--limit", str(args.limit)] if args.limit else []
    )
    counts: list[int | None] = [None, *(int(c) for c in args.counts.split(",") if c.strip())]
    print(
        f"{'units':>6s} {'chars/art':>9s} {'product':>8s} {'lead':>6s} {'TR':>6s} {'xlead':>6s} {'xTR':>6s}  below TR"
    )
    per_set: dict[str, str] = {}
    for count in counts:
        result = score(scorer, count, extra)
        macro, g = result["macro"], result["grounding"]
        chars = g["chars"] / max(1, g["articles"] - g["missing"])
        below = []
        for name, row in result["sets"].items():
            p, t = (row[s][0] / max(1, row[s][1]) for s in ("product", "textrank"))
            if p < t:
                below.append(name)
        label = "rule" if count is None else str(count)
        print(
            f"{label:>6s} {chars:9.0f} {macro['product']:8.3f} {macro['lead']:6.3f} {macro['textrank']:6.3f} "
            f"{macro['product'] / macro['lead']:6.3f} {macro['product'] / macro['textrank']:6.3f}  "
            f"{', '.join(below) or '-'}",
            flush=True,
        )
        if count is None:
            per_set = {
                name: " ".join(
                    f"{row[s][0] / max(1, row[s][1]):.3f}" for s in ("product", "lead", "textrank")
                )
                for name, row in result["sets"].items()
            }
    print("\nper set with the shipped rule (product lead textrank):")
    for name, figures in per_set.items():
        print(f"  {name:30s} {figures}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
