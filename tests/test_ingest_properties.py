"""Property tests: parse_text never raises on arbitrary text, and newline style never changes the result."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from core.ingest import parse_text

# Any code point but surrogates (and \r, which the newline-style property inserts itself),
# weighted towards the characters segmentation cares about.
SPECIAL = st.sampled_from(
    ["\n", "\n\n", " ", "\t", "\x00", "\x0b", "\x0c", "\x1b", "\x85", "\u2028", "\u2029", "\ufeff", "\u3000",
     "#", "-", "*", ">", "|", "`", "```", "---", "===", "1.", "中", "。", "é", "\U0001f600"]
)  # fmt: skip
TEXT = st.lists(
    st.one_of(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r")), SPECIAL),
    max_size=40,
).map("".join)
SUFFIX = st.sampled_from([".txt", ".md", ".markdown"])
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(text=TEXT, suffix=SUFFIX)
@example(text="\t\u2028", suffix=".md")  # a code block of whitespace alone (hypothesis found it)
def test_parse_text_never_raises_and_gives_well_formed_paragraphs(text: str, suffix: str) -> None:
    doc = parse_text(text, f"/docs/file{suffix}", suffix=suffix)
    assert doc.document_id.startswith("doc_") and len(doc.document_id) == 16
    assert doc.title
    for i, p in enumerate(doc.paragraphs):
        assert p.paragraph_id == f"p_{i + 1:03d}"
        assert p.index == i
        assert p.kind in {"paragraph", "heading", "list", "quote", "code", "table", "contents"}
        assert p.text.strip()
        assert "\r" not in p.text
        assert not any((ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F for c in p.text)
        p.text.encode("utf-8")  # storable: no lone surrogates


@SETTINGS
@given(text=TEXT, suffix=SUFFIX)
def test_newline_style_never_changes_paragraphs_or_ids(text: str, suffix: str) -> None:
    path = f"/docs/file{suffix}"
    lf = parse_text(text, path, suffix=suffix)
    crlf = parse_text(text.replace("\n", "\r\n"), path, suffix=suffix)
    cr = parse_text(text.replace("\n", "\r"), path, suffix=suffix)
    assert lf == crlf == cr


@SETTINGS
@given(text=st.text(st.characters(codec="utf-8")), suffix=SUFFIX)
def test_parse_text_survives_lone_surrogates_too(text: str, suffix: str) -> None:
    doc = parse_text(text + "\udc80 tail", "/docs/x" + suffix, suffix=suffix)
    for p in doc.paragraphs:
        p.text.encode("utf-8")  # raises on a surrogate left in the text
    assert "tail" in " ".join(p.text for p in doc.paragraphs)  # the text after it is kept
