"""Fit the cloze blank model on the human answers of the dev QA sets, with cross-validation.

    python bench/train_blank_model.py            # cross-validated estimate only
    python bench/train_blank_model.py --write    # also refit on all of dev and write
                                                 # core/extraction/offline/blank_weights.py

Reads ../shared/eval/data/{en_squad11_articles,zh_cmrc2018_qa,zh_drcd_articles}.dev.jsonl
(never copied into the tree). For every sentence holding a human answer, each candidate of
core/extraction/offline/candidates.py is labelled 1 when its token F1 with a human answer is
>= 0.5 (the scorer's hit@.5), and an L2-regularised logistic model is fitted by gradient
descent (numpy). The estimate is 5-fold cross-validation BY ARTICLE: a fold's articles are
never seen while fitting the weights it is scored with. Reported: hit@.5 of the chosen blank
(the product's own `pick`, with the card rules) beside a random allowed candidate.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT.parent / "shared" / "eval"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(EVAL))

import score_questions as sq  # noqa: E402

from core.extraction.offline import blank_model  # noqa: E402
from core.extraction.offline.candidates import DocCounts  # noqa: E402
from core.extraction.offline.segment import zh_words  # noqa: E402
from core.extraction.offline.sentences import split_sentences  # noqa: E402
from core.extraction.offline.standalone import plain_content  # noqa: E402
from core.text import detect_language  # noqa: E402
from core.validation.cards import topic_terms  # noqa: E402

SETS = ["en_squad11_articles", "zh_cmrc2018_qa", "zh_drcd_articles"]
OUT = ROOT / "core" / "extraction" / "offline" / "blank_weights.py"


def doc_counts(paragraphs: list[str], lang: str) -> DocCounts:
    counts: Counter[str] = Counter()
    sentences = 0
    for p in paragraphs:
        sentences += len(split_sentences(p, lang))
        if lang == "zh":
            counts.update(w for w, _, _, _ in zh_words(p))
        else:
            counts.update(w.lower() for w in p.split())
    return DocCounts(dict(counts), sentences)


def examples(item: dict) -> list[dict]:
    """One record per sentence holding a human answer: content, candidates, labels."""
    paragraphs = item["paragraphs"]
    lang = "zh" if detect_language(" ".join(paragraphs)[:2000]) == "zh" else "en"
    doc = doc_counts(paragraphs, lang)
    topics = topic_terms(paragraphs)
    out = []
    for p in paragraphs:
        for a, b in split_sentences(p, lang):
            content = plain_content(p[a:b])
            golds = sq.gold_answers_in(content, item)
            if not golds:
                continue
            cands = blank_model.candidates(content, lang, doc)
            labels = [sq.best_f1(c.text, golds) >= 0.5 for c in cands]
            out.append(
                {
                    "content": content,
                    "lang": lang,
                    "doc": doc,
                    "topics": topics,
                    "golds": golds,
                    "cands": cands,
                    "labels": labels,
                }
            )
    return out


def fit(records: list[dict], l2: float = 1.0, steps: int = 400) -> tuple[float, dict[str, float]]:
    names = sorted({n for r in records for c in r["cands"] for n in c.features})
    index = {n: i for i, n in enumerate(names)}
    rows, ys = [], []
    for r in records:
        for c, y in zip(r["cands"], r["labels"], strict=True):
            x = np.zeros(len(names))
            for n, v in c.features.items():
                x[index[n]] = v
            rows.append(x)
            ys.append(1.0 if y else 0.0)
    if not rows:
        return 0.0, {}
    X, Y = np.array(rows), np.array(ys)
    w, b = np.zeros(len(names)), 0.0
    lr = 0.5
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(X @ w + b)))
        g = X.T @ (p - Y) / len(Y) + l2 * w / len(Y)
        w -= lr * g
        b -= lr * float(np.mean(p - Y))
    return round(b, 4), {n: round(float(v), 4) for n, v in zip(names, w, strict=True) if abs(v) >= 1e-4}


def evaluate(
    records: list[dict], bias: float, weights: dict[str, float], rng: random.Random
) -> tuple[int, int, int]:
    hits = rand = n = 0
    for r in records:
        found = blank_model.pick(r["content"], r["lang"], r["doc"], r["topics"], weights, bias)
        if found is None:
            continue
        chosen = found[1]
        n += 1
        hits += sq.best_f1(chosen.text, r["golds"]) >= 0.5
        pool = [c for c in r["cands"] if blank_model.allowed(r["content"], c, r["topics"])]
        rand += sq.best_f1(rng.choice(pool).text, r["golds"]) >= 0.5
    return hits, rand, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--folds", type=int, default=5)
    args = ap.parse_args()
    articles: list[tuple[str, list[dict]]] = []
    for name in SETS:
        for item in sq.se.load(name, "dev", EVAL / "data"):
            articles.append((name, examples(item)))
    order = list(range(len(articles)))
    random.Random(13).shuffle(order)
    totals: Counter[str] = Counter()
    for fold in range(args.folds):
        test = {i for k, i in enumerate(order) if k % args.folds == fold}
        train = [r for i, (_, recs) in enumerate(articles) if i not in test for r in recs]
        bias, weights = fit(train)
        for i in sorted(test):
            name, recs = articles[i]
            h, r, n = evaluate(recs, bias, weights, random.Random(i))
            totals[f"{name}:hit"] += h
            totals[f"{name}:rand"] += r
            totals[f"{name}:n"] += n
    print(f"{'set':24s} {'n':>5s} {'hit@.5':>7s} {'random':>7s}   ({args.folds}-fold CV by article)")
    for name in [*SETS, "ALL"]:
        keys = SETS if name == "ALL" else [name]
        n = sum(totals[f"{k}:n"] for k in keys)
        h = sum(totals[f"{k}:hit"] for k in keys)
        r = sum(totals[f"{k}:rand"] for k in keys)
        print(f"{name:24s} {n:5d} {h / max(1, n):7.3f} {r / max(1, n):7.3f}")
    if args.write:
        bias, weights = fit([r for _, recs in articles for r in recs])
        lines = [f"    {name!r}: {value},\n" for name, value in sorted(weights.items())]
        OUT.write_text(
            '"""Cloze blank weights, written by `python bench/train_blank_model.py --write` (do not edit by\n'
            "hand): a logistic model over the features of core/extraction/offline/candidates.py, fitted on\n"
            'the human answers of the dev QA sets. Positive weights make a candidate more likely blanked."""\n\n'
            f"BIAS = {bias}\nWEIGHTS: dict[str, float] = {{\n{''.join(lines)}}}\n",
            encoding="utf-8",
        )
        print(f"wrote {OUT.relative_to(ROOT)} ({len(weights)} weights)")


if __name__ == "__main__":
    main()
