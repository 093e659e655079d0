"""Write the ingestion golden files: encoded inputs and the expected JSON beside each.

Run from the project root:  /work/venv/bin/python tests/golden/ingest/make_golden.py

The expected paragraphs are written from the source lists below, never from the parser, so
the golden test compares the product against the specification. Inputs are made with
Python's own encoders (`str.encode`), so each file is exactly the encoding it is named after.
`tests/test_ingest_golden.py` checks that the committed files equal what this script writes.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
INPUTS = HERE / "inputs"
EXPECTED = HERE / "expected"

HANS = [
    (
        "光合作用是绿色植物利用光能，把二氧化碳和水转化为葡萄糖\n并释放氧气的过程。",
        "光合作用是绿色植物利用光能，把二氧化碳和水转化为葡萄糖并释放氧气的过程。",
    ),
    (
        "间隔重复在快要遗忘的时候安排复习。\n每次成功回忆之后，间隔都会变长。",
        "间隔重复在快要遗忘的时候安排复习。每次成功回忆之后，间隔都会变长。",
    ),
    (
        "现代调度算法（如 FSRS）用稳定性\nand difficulty 描述每张卡片。",
        "现代调度算法（如 FSRS）用稳定性 and difficulty 描述每张卡片。",
    ),
]
HANT = [
    (
        "光合作用是綠色植物利用光能，把二氧化碳和水轉化為葡萄糖\n並釋放氧氣的過程。",
        "光合作用是綠色植物利用光能，把二氧化碳和水轉化為葡萄糖並釋放氧氣的過程。",
    ),
    (
        "間隔重複在快要遺忘的時候安排複習。\n每次成功回憶之後，間隔都會變長。",
        "間隔重複在快要遺忘的時候安排複習。每次成功回憶之後，間隔都會變長。",
    ),
    ("葉綠體中的葉綠素吸收紅光和藍光，反射綠光。", "葉綠體中的葉綠素吸收紅光和藍光，反射綠光。"),
]
MIXED = [
    (
        "Spaced repetition schedules a review\njust before you would forget.",
        "Spaced repetition schedules a review just before you would forget.",
    ),
    (
        "間隔重複：在遺忘之前複習。间隔重复：在遗忘之前复习。",
        "間隔重複：在遺忘之前複習。间隔重复：在遗忘之前复习。",
    ),
    (
        "Ωmega, naïve café, emoji \U0001f9e0 and a tab\there.",
        "Ωmega, naïve café, emoji \U0001f9e0 and a tab\there.",
    ),
]
LATIN = [
    (
        "Le café est une boisson très appréciée en France.\nOn le boit souvent après le déjeuner.",
        "Le café est une boisson très appréciée en France. On le boit souvent après le déjeuner.",
    ),
    (
        "À Noël, les enfants reçoivent des cadeaux près du sapin,\net la fête dure jusqu'à minuit.",
        "À Noël, les enfants reçoivent des cadeaux près du sapin, et la fête dure jusqu'à minuit.",
    ),
    (
        "Señor Muñoz ate jalapeños in Zürich; «très bien», said the garçon.",
        "Señor Muñoz ate jalapeños in Zürich; «très bien», said the garçon.",
    ),
]
ENGLISH = [
    ("Photosynthesis turns light\ninto chemical energy.", "Photosynthesis turns light into chemical energy."),
    ("It happens in the chloroplasts.", "It happens in the chloroplasts."),
    ("The Calvin cycle\nfixes carbon\ndioxide.", "The Calvin cycle fixes carbon dioxide."),
]
CJK_FOLD = [
    ("中文换行\n接着中文。", "中文换行接着中文。"),
    ("句号之后。\n下一句。", "句号之后。下一句。"),
    ("中文\nEnglish after Chinese", "中文 English after Chinese"),
    ("English before\n中文", "English before 中文"),
    ("全角标点，\n「引号」里的字", "全角标点，「引号」里的字"),
    ("行尾空格   \n   行首空格", "行尾空格行首空格"),
    ("日本語のかな\nカタカナ", "日本語のかなカタカナ"),
    ("한국어 문장\n다음 줄", "한국어 문장 다음 줄"),
]


def _plain(paras: list[tuple[str, str]]) -> tuple[str, list[str]]:
    source = "\n\n".join(raw for raw, _ in paras) + "\n"
    return source, [want for _, want in paras]


MARKDOWN_SOURCE = """---
author: Ada Lovelace
tags: [memory, evidence]
date: 2026-11-01
---

# Spaced Repetition, Briefly

Reviews are spread out
over growing intervals.

## Why it works

Recall is practice.

Setext Section
--------------

- **Stability**: days until recall falls to 90 percent.
- **Difficulty**: how hard the card is.
  A lazy continuation line.

1. First step
2. Second step

```python
def retrievability(t, s):

    # a blank line above and below, inside the fence

    return (1 + 19 / 81 * t / s) ** -0.5
```

| name | value |
|------|-------|
| S    | 12.5  |
| D    | 5     |

> A quoted line
> that continues.

    indented code
    stays whole

### 第三级标题

中文段落的第一行
接着第二行。
"""
# Reader text: inline markup rendered away (the spans say what was bold), bullets "• " one item
# a line, code without its fences, table rows one a line with cells between " | ". Each entry:
# kind, text, heading path (the title H1 not in it), spans as (start, end, kind).
SETEXT = "Setext Section"
MARKDOWN_EXPECTED = [
    # before the first heading: the title's section (issue 32)
    ("paragraph", "Reviews are spread out over growing intervals.", ("Spaced Repetition, Briefly",), ()),
    ("heading", "Why it works", ("Why it works",), ()),
    ("paragraph", "Recall is practice.", ("Why it works",), ()),
    ("heading", SETEXT, (SETEXT,), ()),
    (
        "list",
        "• Stability: days until recall falls to 90 percent.\n"
        "• Difficulty: how hard the card is. A lazy continuation line.",
        (SETEXT,),
        ((2, 11, "strong"), (54, 64, "strong")),
    ),
    ("list", "1. First step\n2. Second step", (SETEXT,), ()),
    (
        "code",
        "def retrievability(t, s):\n\n    # a blank line above and below, inside the fence\n\n"
        "    return (1 + 19 / 81 * t / s) ** -0.5",
        (SETEXT,),
        (),
    ),
    ("table", "name | value\nS | 12.5\nD | 5", (SETEXT,), ()),
    ("quote", "A quoted line that continues.", (SETEXT,), ()),
    ("code", "indented code\nstays whole", (SETEXT,), ()),
    ("heading", "第三级标题", (SETEXT, "第三级标题"), ()),
    ("paragraph", "中文段落的第一行接着第二行。", (SETEXT, "第三级标题"), ()),
]
FRONT_MATTER: dict[str, object] = {
    "author": "Ada Lovelace",
    "tags": ["memory", "evidence"],
    "date": "2026-11-01",
    "front_matter_raw": "author: Ada Lovelace\ntags: [memory, evidence]\ndate: 2026-11-01",
}
SETEXT_SOURCE = "Setext Title\n============\n\nBody text.\n\nNot a title\n===========\n\nMore.\n"
SETEXT_EXPECTED = [("paragraph", "Body text."), ("heading", "Not a title"), ("paragraph", "More.")]


def cases() -> list[dict[str, object]]:
    """Every golden case: file name, how its bytes are made, and what parsing must give."""
    out: list[dict[str, object]] = []

    def add(
        name: str,
        source: str,
        expected: list[tuple[str, str]] | list[str] | list[tuple[str, str, tuple[str, ...], tuple[object, ...]]],
        *,
        codec: str = "utf-8",
        bom: bytes = b"",
        newline: str = "\n",
        encodings: list[str],
        data: bytes | None = None,
        title: str | None = None,
        language: str = "en",
        metadata: dict[str, object] | None = None,
    ) -> None:
        paragraphs = [("paragraph", p) if isinstance(p, str) else p for p in expected]
        located = any(len(p) == 4 for p in paragraphs)
        if data is None:
            data = bom + source.replace("\n", newline).encode(codec)
        normalised = source  # what ingestion hashes: LF newlines, no BOM
        out.append(
            {
                "input": name,
                "bytes": data,
                "expected": {
                    "title": title or Path(name).stem,
                    "encodings": encodings,
                    "language": language,
                    "content_hash": hashlib.sha1(normalised.encode("utf-8")).hexdigest(),
                    "metadata": metadata or {},
                    "paragraphs": [
                        {"paragraph_id": f"p_{i + 1:03d}", "kind": p[0], "text": p[1]}
                        for i, p in enumerate(paragraphs)
                    ],
                    **(
                        {
                            "sections": [list(p[2]) for p in paragraphs],  # type: ignore[misc]
                            "spans": [[list(s) for s in p[3]] for p in paragraphs],  # type: ignore[misc]
                        }
                        if located
                        else {}
                    ),
                },
            }
        )

    hans, hans_want = _plain(HANS)
    hant, hant_want = _plain(HANT)
    mixed, mixed_want = _plain(MIXED)
    latin, latin_want = _plain(LATIN)
    english, english_want = _plain(ENGLISH)
    fold, fold_want = _plain(CJK_FOLD)
    add("gbk.txt", hans, hans_want, codec="gbk", encodings=["gbk", "gb18030"], language="zh")
    add("big5.txt", hant, hant_want, codec="big5", encodings=["big5", "cp950", "big5hkscs"], language="zh")
    for order, bom in (("le", b"\xff\xfe"), ("be", b"\xfe\xff")):
        codec = f"utf-16-{order}"
        add(f"utf16{order}_bom.txt", mixed, mixed_want, codec=codec, bom=bom, encodings=[codec])
        add(f"utf16{order}_nobom.txt", mixed, mixed_want, codec=codec, encodings=[codec])
        # ASCII-only UTF-16 without a BOM is also valid UTF-8 (NULs and all): must not be read so.
        add(f"utf16{order}_ascii_nobom.txt", english, english_want, codec=codec, encodings=[codec])
    add("latin1.txt", latin, latin_want, codec="latin-1", encodings=["cp1252", "latin-1"])
    add("utf8_bom.txt", english, english_want, bom=b"\xef\xbb\xbf", encodings=["utf-8-sig"])
    add("crlf.txt", english, english_want, newline="\r\n", encodings=["utf-8"])
    add("cr.txt", english, english_want, newline="\r", encodings=["utf-8"])
    # \r\n, \r and \n in one file, including a blank line made of \r\n then \r.
    mixed_newlines = english.replace("light\n", "light\r").replace("energy.\n\n", "energy.\r\n\r")
    mixed_newlines = mixed_newlines.replace("cycle\n", "cycle\r\n")
    add("mixed_newlines.txt", english, english_want, encodings=["utf-8"], data=mixed_newlines.encode("utf-8"))
    add("cjk_folding.txt", fold, fold_want, encodings=["utf-8"], language="zh")
    add(
        "structured.md",
        MARKDOWN_SOURCE,
        MARKDOWN_EXPECTED,
        encodings=["utf-8"],
        title="Spaced Repetition, Briefly",
        metadata=FRONT_MATTER,
    )
    add(
        "structured_crlf.md",
        MARKDOWN_SOURCE,
        MARKDOWN_EXPECTED,
        newline="\r\n",
        encodings=["utf-8"],
        title="Spaced Repetition, Briefly",
        metadata=FRONT_MATTER,
    )
    add("setext.markdown", SETEXT_SOURCE, SETEXT_EXPECTED, encodings=["utf-8"], title="Setext Title")
    add(
        "gbk_title.md",
        "# 间隔重复\n\n" + hans,
        [("paragraph", p) for p in hans_want],
        codec="gbk",
        encodings=["gbk", "gb18030"],
        title="间隔重复",
        language="zh",
    )
    return out


def write_all(root: Path) -> list[Path]:
    """Write inputs/ and expected/ under `root`; returns the files written."""
    written: list[Path] = []
    (root / "inputs").mkdir(parents=True, exist_ok=True)
    (root / "expected").mkdir(parents=True, exist_ok=True)
    for case in cases():
        name = str(case["input"])
        data, want = case["bytes"], case["expected"]
        assert isinstance(data, bytes) and isinstance(want, dict)
        target = root / "inputs" / name
        target.write_bytes(data)
        expected = root / "expected" / f"{name}.json"
        body = {"input": name, **want}
        expected.write_text(json.dumps(body, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written += [target, expected]
    return written


if __name__ == "__main__":
    files = write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
    print(f"wrote {len(files)} files")
