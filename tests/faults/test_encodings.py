"""GBK, Big5, UTF-16 (with and without BOM), Latin-1: the right text, or a message naming --encoding
after which `--encoding X` gives the right text. The detected encoding is stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import article_count, article_id_for, import_one, paragraphs_of, query, write

ZH_HANS = [
    "光合作用是植物利用阳光把二氧化碳和水变成糖和氧气的过程。叶绿体中的叶绿素吸收红光和蓝光。",
    "间隔重复在快要遗忘的时候安排复习，每次成功回忆之后间隔会变长，记忆因此更加牢固。",
    "这段文字用来检验编码识别：简体中文，常用汉字，标点符号，以及数字二零二六。",
]
ZH_HANT = [
    "光合作用是植物利用陽光把二氧化碳和水變成糖和氧氣的過程。葉綠體中的葉綠素吸收紅光和藍光。",
    "間隔重複在快要遺忘的時候安排複習，每次成功回憶之後間隔會變長，記憶因此更加牢固。",
    "這段文字用來檢驗編碼識別：繁體中文，常用漢字，標點符號，以及數字二零二六。",
]
LATIN = [
    "Café crème and a naïve façade: the déjà vu of a rôle played über-well.",
    "Señor Muñoz ate jalapeños in Zürich; the garçon said «très bien» and «voilà».",
    "Ærøskøbing, Øresund, Åland — no: only Latin-1 here, so no dash. Smørrebrød for lunch.".replace(
        " — no:", ","
    ),
]
EN = [
    "Spaced repetition schedules a review just before you would forget.",
    "Each successful recall makes the next interval longer.",
    "Unicode check: naïve café, 光合作用, Ωmega.",
]

CASES = {
    # name: (paragraphs, codec used to write the bytes, what `--encoding` to give if asked, families)
    "gbk": (ZH_HANS, "gbk", "gbk", ("gbk", "gb2312", "gb18030", "cp936")),
    "big5": (ZH_HANT, "big5", "big5", ("big5", "cp950", "big5hkscs")),
    "utf16_bom": (EN, "utf-16", "utf-16", ("utf-16", "utf_16")),
    "utf16le_no_bom": (EN + ZH_HANS[:1], "utf-16-le", "utf-16-le", ("utf-16", "utf_16")),
    "utf16be_no_bom": (EN, "utf-16-be", "utf-16-be", ("utf-16", "utf_16")),
    "latin1": (
        LATIN,
        "latin-1",
        "latin-1",
        ("latin", "iso-8859-1", "iso8859", "cp1252", "windows-1252", "8859"),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_encoded_file_gives_correct_text_or_names_encoding_option(
    home: Path, inputs: Path, case: str
) -> None:
    paras, codec, option, families = CASES[case]
    path = write(inputs / f"{case}.txt", ("\n\n".join(paras) + "\n").encode(codec))

    result = import_one(home, path)
    if result.returncode != 0:
        assert "--encoding" in result.stderr, result.stderr  # the message says how to fix it
        assert article_count(home) == 0
        result = import_one(home, path, "--encoding", option)
        assert result.returncode == 0, result.stderr

    article = article_id_for(home, path)
    assert article is not None
    assert [text for _, _, text in paragraphs_of(home, article)] == paras
    stored = (
        query(home, "SELECT encoding FROM article WHERE id = ?", (article,))[0][0].lower().replace("_", "-")
    )
    assert any(f.replace("_", "-") in stored for f in families), stored


def test_wrong_forced_encoding_is_refused_or_visible_never_a_crash(home: Path, inputs: Path) -> None:
    path = write(inputs / "gbk.txt", ("\n\n".join(ZH_HANS)).encode("gbk"))
    result = import_one(home, path, "--encoding", "utf-8")
    assert "Traceback" not in result.stderr
    if result.returncode != 0:
        assert "utf-8" in result.stderr.lower() or "--encoding" in result.stderr
        assert article_count(home) == 0


def test_unknown_encoding_name_is_refused_clearly(home: Path, inputs: Path) -> None:
    path = write(inputs / "a.txt", "Plain text.\n")
    result = import_one(home, path, "--encoding", "no-such-codec")
    assert result.returncode != 0
    assert "no-such-codec" in result.stderr
    assert "Traceback" not in result.stderr
    assert article_count(home) == 0
