"""Offline extractor benchmark: parse + extract + validate per article, in a fresh interpreter.

    python bench/bench_extract.py [--repeat 3]

Articles: every sample article, plus generated ~100 KB English and Chinese (Simplified and
Traditional) articles built deterministically from the samples' sentences with varied numbers
and names, so no two paragraphs are the same. Prints per-article timings (best of --repeat,
plus the first, cold run that pays for rjieba's dictionary load) and unit/question counts. No
assertions: figures for the notes (the target is <= 1 s for a 100 KB article).

Then sentence splitting alone on one-line text (no paragraph breaks), which was quadratic
before (`'Cells divide. ' * 10000` took 44 s): the same short sentence repeated, and 1 MB of
the generated English article joined on one line, each split and then extracted whole (the
target is <= 2 s to split 1 MB).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.extraction.offline import OfflineExtractor  # noqa: E402
from core.extraction.offline.sentences import split_sentences  # noqa: E402
from core.ingest import parse_text  # noqa: E402
from core.validation import validate  # noqa: E402
from sample_articles import sample_paths  # noqa: E402

EN_WORDS = [
    "river",
    "protein",
    "market",
    "engine",
    "theory",
    "signal",
    "orbit",
    "glacier",
    "voltage",
    "harvest",
    "archive",
    "neuron",
]
ZH_WORDS = [
    "河流",
    "蛋白质",
    "市场",
    "引擎",
    "理论",
    "信号",
    "轨道",
    "冰川",
    "电压",
    "收成",
    "档案",
    "神经元",
]
ZH_T_WORDS = [
    "河流",
    "蛋白質",
    "市場",
    "引擎",
    "理論",
    "信號",
    "軌道",
    "冰川",
    "電壓",
    "收成",
    "檔案",
    "神經元",
]


def generated(lang: str, size: int = 100_000, seed: int = 7) -> str:
    rng = random.Random(seed)
    paragraphs: list[str] = []
    total = 0
    while total < size:
        n = len(paragraphs)
        if lang == "en":
            a, b = rng.sample(EN_WORDS, 2)
            sentences = [
                f"The {a} model number {n} is a method in which {b} data from {rng.randint(1900, 2025)} are "
                f"combined with {rng.randint(2, 99)} percent of the {a} record.",
                f"Because the {b} changes slowly, researchers in region {rng.randint(1, 500)} measured it "
                f"every {rng.randint(2, 30)} days.",
                f"For example, team {n} found that the {a} rose by {rng.randint(1, 80)} units after the "
                f"{b} survey, although the effect faded later.",
            ]
            text = " ".join(sentences)
        else:
            words = ZH_WORDS if lang == "zh" else ZH_T_WORDS
            a, b = rng.sample(words, 2)
            text = (
                f"第{n}号{a}模型是一种把{rng.randint(1900, 2025)}年的{b}数据与百分之{rng.randint(2, 99)}的"
                f"{a}记录结合起来的方法。因为{b}变化缓慢，所以第{rng.randint(1, 500)}区的研究人员每"
                f"{rng.randint(2, 30)}天测量一次。例如，第{n}组发现{a}在{b}调查后上升了{rng.randint(1, 80)}个单位，"
                f"但是这种效果后来逐渐减弱。"
            )
            if lang == "zh-hant":
                text = text.translate(
                    str.maketrans(
                        "号数与记录结时区员测组发现调查后单这种渐减弱变缓测",
                        "號數與記錄結時區員測組發現調查後單這種漸減弱變緩測",
                    )
                )
        paragraphs.append(text)
        total += len(text.encode("utf-8")) + 2
    return "\n\n".join(paragraphs) + "\n"


def run_once(text: str, name: str) -> tuple[float, float, float, int, int, bool]:
    t0 = time.perf_counter()
    doc = parse_text(text, name, suffix=Path(name).suffix or ".txt")
    t1 = time.perf_counter()
    result = OfflineExtractor().extract(doc)
    t2 = time.perf_counter()
    report = validate(result.output, doc)
    t3 = time.perf_counter()
    out = result.output
    return t1 - t0, t2 - t1, t3 - t2, len(out.memory_units), len(out.recall_questions), report.ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    articles = [(p.name, p.read_text(encoding="utf-8")) for p in sample_paths()]
    articles += [
        ("generated-en-100k.txt", generated("en")),
        ("generated-zh-hans-100k.txt", generated("zh")),
        ("generated-zh-hant-100k.txt", generated("zh-hant")),
    ]
    header = f"{'article':30s} {'KB':>6s} {'cold s':>8s} {'parse s':>8s} {'extract s':>9s} {'validate s':>10s} {'total s':>8s}  units questions ok"
    print(header)
    worst = 0.0
    for name, text in articles:
        cold = run_once(text, name)
        runs = [run_once(text, name) for _ in range(max(1, args.repeat))]
        best = min(runs, key=lambda r: r[0] + r[1] + r[2])
        total = best[0] + best[1] + best[2]
        worst = max(worst, cold[0] + cold[1] + cold[2])
        kb = len(text.encode("utf-8")) / 1024
        print(
            f"{name:30s} {kb:6.1f} {cold[0] + cold[1] + cold[2]:8.3f} {best[0]:8.3f} {best[1]:9.3f} {best[2]:10.3f} "
            f"{total:8.3f}  {best[3]:5d} {best[4]:9d} {best[5]}"
        )
    print(f"slowest cold run: {worst:.3f} s (target <= 1 s for 100 KB)")
    one_line_cases()


def one_line_cases() -> None:
    """Sentence splitting on a single huge paragraph: linear time (target <= 2 s per MB)."""
    one_mb = " ".join(generated("en", size=1_050_000).split("\n\n"))[:1_000_000]
    cases = [
        ("'Cells divide. ' x 10000", "Cells divide. " * 10_000),
        ("'Cells divide. ' x 20000", "Cells divide. " * 20_000),
        ("1 MB English, one line", one_mb),
    ]
    print(f"\n{'one-line text':30s} {'KB':>6s} {'sentences':>9s} {'split s':>8s} {'extract s':>9s}")
    for name, text in cases:
        t0 = time.perf_counter()
        spans = split_sentences(text, "en")
        t1 = time.perf_counter()
        run = run_once(text, "one-line.txt")
        kb = len(text.encode("utf-8")) / 1024
        print(f"{name:30s} {kb:6.0f} {len(spans):9d} {t1 - t0:8.3f} {run[0] + run[1] + run[2]:9.3f}")


if __name__ == "__main__":
    main()
