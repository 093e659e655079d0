"""Search quality on query variants: the other Chinese script, and English typos (figures, no pass/fail).

    python bench/eval_search_variants.py                       # dev split, every variant
    python bench/eval_search_variants.py --only typo --limit-queries 500

Runs `../shared/eval/score_search.py`, unchanged, on sets put together at run time in a
temporary folder (links to the eval data, never copies into the project tree):

- cross-script: DRCD's Traditional corpus with the Simplified version of its questions
  (`zh_drcd_s2t`), and the Simplified corpus with the Traditional questions (`zh_drcd_t2s`), beside
  the same-script sets. Target: cross-script R@3 within 0.02 of same-script.
- typos: every SQuAD question with one edit (a deletion, insertion, substitution or swap of
  neighbours, `random.Random(SEED)`) in one of its words of four letters or more
  (`en_squad11_typo`), searched with correction and with `--exact` (the words as typed), beside
  the questions as written. Target: typo R@3 at least 90% of the questions' R@3.

Needs the eval data next to the project (`--eval`) and the `memoryrush` command on PATH (run as
`PATH=$PWD/.venv/bin:$PATH python bench/eval_search_variants.py` from the project root).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 17
SAME = ("zh_drcd_retrieval", "zh_drcd_simplified_retrieval")
sys.path.insert(0, str(ROOT))

from core.text.analysis import STOP  # noqa: E402  (the search's own stop words: a typo there changes nothing)


def one_typo(query: str, rng: random.Random) -> str:
    """`query` with one edit in one of its words of four letters or more that are not stop words
    (unchanged if it has none)."""
    words = [m for m in re.finditer(r"[A-Za-z]{4,}", query) if m.group().casefold() not in STOP]
    if not words:
        return query
    m = rng.choice(words)
    w = m.group()
    i = rng.randrange(len(w))
    kind = rng.choice(("delete", "insert", "substitute", "swap"))
    letter = rng.choice(string.ascii_lowercase)
    if kind == "delete":
        typo = w[:i] + w[i + 1 :]
    elif kind == "insert":
        typo = w[:i] + letter + w[i:]
    elif kind == "substitute":
        typo = (
            w[:i] + (letter if letter != w[i].lower() else "z" if w[i].lower() != "z" else "y") + w[i + 1 :]
        )
    else:
        i = min(i, len(w) - 2)
        typo = w[:i] + w[i + 1] + w[i] + w[i + 2 :] if w[i] != w[i + 1] else w[:i] + w[i + 1 :]
    return query[: m.start()] + typo + query[m.end() :]


def write_sets(data: Path, out: Path, only: str) -> list[str]:
    """Link or write the variant sets into `out`; their names for --sets."""
    names: list[str] = []

    def link(name: str, corpus: str, queries: str) -> None:
        (out / f"{name}_corpus.dev.jsonl").symlink_to(data / f"{corpus}_corpus.dev.jsonl")
        (out / f"{name}_queries.dev.jsonl").symlink_to(data / f"{queries}_queries.dev.jsonl")
        names.append(name)

    if only in ("", "script"):
        for name in SAME:
            link(name, name, name)
        link("zh_drcd_s2t_retrieval", "zh_drcd_retrieval", "zh_drcd_simplified_retrieval")
        link("zh_drcd_t2s_retrieval", "zh_drcd_simplified_retrieval", "zh_drcd_retrieval")
    if only in ("", "typo"):
        link("en_squad11_retrieval", "en_squad11_retrieval", "en_squad11_retrieval")
        (out / "en_squad11_typo_retrieval_corpus.dev.jsonl").symlink_to(
            data / "en_squad11_retrieval_corpus.dev.jsonl"
        )
        rng = random.Random(SEED)
        lines = (data / "en_squad11_retrieval_queries.dev.jsonl").read_text(encoding="utf-8").splitlines()
        typos = []
        for line in lines:
            q = json.loads(line)
            typos.append(json.dumps({**q, "query": one_typo(q["query"], rng)}, ensure_ascii=False))
        (out / "en_squad11_typo_retrieval_queries.dev.jsonl").write_text(
            "\n".join(typos) + "\n", encoding="utf-8"
        )
        names.append("en_squad11_typo_retrieval")
    return names


def score(scorer: Path, data: Path, names: list[str], extra: list[str], search: str | None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        result = Path(tmp) / "result.json"
        cmd = [
            sys.executable,
            str(scorer),
            "--data",
            str(data),
            "--sets",
            ",".join(names),
            "--json",
            str(result),
        ]
        if search:
            cmd += ["--search-cmd", search]
        subprocess.run([*cmd, *extra], check=True, stdout=subprocess.DEVNULL)
        scores: dict = json.loads(result.read_text(encoding="utf-8"))
    return scores


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--eval", type=Path, default=ROOT.parent / "shared" / "eval")
    ap.add_argument("--only", choices=("", "script", "typo"), default="")
    ap.add_argument("--limit-queries", type=int, default=0)
    args = ap.parse_args()
    extra = ["--limit-queries", str(args.limit_queries)] if args.limit_queries else []
    with tempfile.TemporaryDirectory() as tmp:
        sets = Path(tmp)
        names = write_sets(args.eval / "data", sets, args.only)
        scores = score(args.eval / "score_search.py", sets, names, extra, None)
        if "en_squad11_typo_retrieval" in names:
            exact = "memoryrush search --batch {queries} --limit 10 --json --exact"
            as_typed = score(args.eval / "score_search.py", sets, ["en_squad11_typo_retrieval"], extra, exact)
            scores["en_squad11_typo_retrieval (--exact)"] = as_typed["en_squad11_typo_retrieval"]
    print(f"{'set':38s} {'n':>5s} {'R@1':>6s} {'R@3':>6s} {'R@10':>6s} {'MRR':>6s}")
    for name, row in scores.items():
        p = row["product"]
        print(
            f"{name:38s} {row['queries']:5d} {p['R@1']:6.3f} {p['R@3']:6.3f} {p['R@10']:6.3f} {p['MRR']:6.3f}"
        )
    r3 = {name: row["product"]["R@3"] for name, row in scores.items()}
    if "zh_drcd_s2t_retrieval" in r3:
        print(
            f"cross-script R@3: Simplified questions over Traditional {r3['zh_drcd_s2t_retrieval']:.3f} "
            f"vs same-script {r3['zh_drcd_retrieval']:.3f} (gap {r3['zh_drcd_retrieval'] - r3['zh_drcd_s2t_retrieval']:+.3f}); "
            f"Traditional over Simplified {r3['zh_drcd_t2s_retrieval']:.3f} vs {r3['zh_drcd_simplified_retrieval']:.3f}"
        )
    if "en_squad11_typo_retrieval" in r3:
        base = r3["en_squad11_retrieval"] or 1.0
        print(
            f"typos: R@3 {r3['en_squad11_typo_retrieval']:.3f} = {r3['en_squad11_typo_retrieval'] / base:.1%} of "
            f"{base:.3f} (as typed, --exact: {r3['en_squad11_typo_retrieval (--exact)'] / base:.1%})"
        )


if __name__ == "__main__":
    main()
