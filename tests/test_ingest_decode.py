"""Decoding: BOM -> strict UTF-8 -> detection; `encoding=` overrides; unsure detection names --encoding."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from core.domain.errors import RefusedInput
from core.ingest import read_document
from core.ingest.decode import decode_bytes

HANS = "间隔重复在快要遗忘的时候安排复习，每次成功回忆之后间隔会变长，记忆因此更加牢固。\n\n叶绿体中的叶绿素吸收红光和蓝光。\n"
HANT = "間隔重複在快要遺忘的時候安排複習，每次成功回憶之後間隔會變長，記憶因此更加牢固。\n\n葉綠體中的葉綠素吸收紅光和藍光。\n"
LATIN = "Le café est très apprécié en France.\n\nDas Mädchen aß einen Apfel; Señor Muñoz sagte «très bien».\n"


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("text", "codec", "family"),
    [
        (HANS, "gbk", {"gbk", "gb18030"}),
        (HANS, "gb18030", {"gbk", "gb18030"}),
        (HANT, "big5", {"big5", "cp950", "big5hkscs"}),
        (LATIN, "latin-1", {"cp1252", "latin-1"}),
        (LATIN, "cp1252", {"cp1252", "latin-1"}),
        ("Plain ASCII.\n", "ascii", {"utf-8"}),
        (HANS + "\nemoji \U0001f600\n", "utf-8", {"utf-8"}),
    ],
)
def test_detected_encodings_decode_correctly_and_are_stored(
    tmp_path: Path, text: str, codec: str, family: set[str]
) -> None:
    doc = read_document(write(tmp_path, f"{codec}.txt", text.encode(codec)))
    assert doc.encoding in family
    assert "\n\n".join(p.text for p in doc.paragraphs) + "\n" == text


@pytest.mark.parametrize(
    ("bom", "codec", "name"),
    [
        (b"\xef\xbb\xbf", "utf-8", "utf-8-sig"),
        (b"\xff\xfe", "utf-16-le", "utf-16-le"),
        (b"\xfe\xff", "utf-16-be", "utf-16-be"),
        (b"\xff\xfe\x00\x00", "utf-32-le", "utf-32-le"),
        (b"\x00\x00\xfe\xff", "utf-32-be", "utf-32-be"),
    ],
)
def test_byte_order_marks_win(tmp_path: Path, bom: bytes, codec: str, name: str) -> None:
    doc = read_document(write(tmp_path, "bom.txt", bom + HANS.encode(codec)))
    assert doc.encoding == name
    assert doc.paragraphs[0].text.startswith("间隔重复")  # no BOM character left


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_recognised_even_for_mostly_chinese_text(tmp_path: Path, codec: str) -> None:
    doc = read_document(write(tmp_path, "u16.txt", HANS.encode(codec)))
    assert doc.encoding == codec
    assert doc.paragraphs[1].text == "叶绿体中的叶绿素吸收红光和蓝光。"


def test_encoding_override_wins_over_detection(tmp_path: Path) -> None:
    # Bytes that are valid UTF-8 and valid GBK: only the override can say which is meant.
    data = "华为".encode()
    path = write(tmp_path, "a.txt", data)
    assert read_document(path).paragraphs[0].text == "华为"
    forced = read_document(path, encoding="GBK")
    assert forced.encoding == "gbk"
    assert forced.paragraphs[0].text == data.decode("gbk") != "华为"


def test_override_with_utf16_and_no_bom_reads_the_byte_order(tmp_path: Path) -> None:
    path = write(tmp_path, "be.txt", "Big endian text.\n".encode("utf-16-be"))
    doc = read_document(path, encoding="utf-16")
    assert doc.paragraphs[0].text == "Big endian text."


def test_override_that_does_not_fit_is_refused_naming_it(tmp_path: Path) -> None:
    path = write(tmp_path, "gbk.txt", HANS.encode("gbk"))
    with pytest.raises(RefusedInput, match=r"not valid utf-8 .*--encoding"):
        read_document(path, encoding="utf-8")


def test_unknown_encoding_name_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", b"text\n")
    with pytest.raises(RefusedInput, match="unknown encoding 'no-such-codec'"):
        read_document(path, encoding="no-such-codec")


def test_undetectable_bytes_are_refused_naming_the_encoding_option(tmp_path: Path) -> None:
    rng = random.Random(7)
    data = bytes(rng.randrange(0x80, 0x100) for _ in range(3000))
    with pytest.raises(RefusedInput) as info:
        read_document(write(tmp_path, "noise.txt", data))
    message = str(info.value)
    assert "--encoding" in message and "gbk" in message
    assert "\n" not in message


def test_tiny_ambiguous_cjk_file_is_refused_then_imports_with_the_override(tmp_path: Path) -> None:
    path = write(tmp_path, "one.txt", "中".encode("gbk"))
    with pytest.raises(RefusedInput, match="--encoding"):
        read_document(path)
    assert read_document(path, encoding="gbk").paragraphs[0].text == "中"


def test_short_western_text_defaults_to_cp1252(tmp_path: Path) -> None:
    doc = read_document(write(tmp_path, "cafe.txt", "Café\n".encode("latin-1")))
    assert doc.paragraphs[0].text == "Café" and doc.encoding == "cp1252"


def test_decode_bytes_never_returns_a_bom_character() -> None:
    for data in (b"\xef\xbb\xbfx", b"\xff\xfex\x00", "\ufeffx".encode("utf-16-be")):
        text, _ = decode_bytes(data)
        assert not text.startswith("\ufeff")
    text, name = decode_bytes(b"\xef\xbb\xbfx", "utf-8")
    assert text == "x" and name == "utf-8"


def test_random_bytes_never_raise_anything_but_refused() -> None:
    rng = random.Random(11)
    for _ in range(60):
        data = (
            os.urandom(rng.randrange(1, 400))
            if rng.random() < 0.5
            else bytes(rng.choice(b"ab \n\x81\xa1\xb0\xe4\xff\x00") for _ in range(rng.randrange(1, 400)))
        )
        try:
            text, name = decode_bytes(data)
        except RefusedInput:
            continue
        assert isinstance(text, str) and name
