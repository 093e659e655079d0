"""Issue 30, tags a reader would use: the article's names and key terms, chosen once for the
article and given to every unit that mentions them, in English, Simplified and Traditional
Chinese. Never a generic word, a piece of a name or a contraction; names whole; at most five.
Each test failed on the old tags (each unit's own most frequent nouns)."""

from __future__ import annotations

from collections import Counter

from core.domain import ArticleMemoryOutput, SourceDocument, SourceParagraph
from core.extraction.offline import OfflineExtractor
from core.extraction.offline.tag_terms import GENERIC_EN, GENERIC_ZH
from core.text.chinese import fold_chinese
from core.validation import validate


def doc(*paragraphs: str, language: str = "en") -> SourceDocument:
    paras = tuple(SourceParagraph(f"p_{i + 1:03d}", t, "paragraph", i) for i, t in enumerate(paragraphs))
    return SourceDocument("doc_t", "/tmp/t.txt", "t", paras, language=language)


def run(d: SourceDocument) -> ArticleMemoryOutput:
    out = OfflineExtractor().extract(d).output
    assert out.memory_units and validate(out, d).ok
    return out


CURIE = doc(
    "Maria Skłodowska-Curie was a physicist and chemist who did pioneering research on radioactivity. "
    "She spent many years in Paris, and people came from far away to see her laboratory.",
    "In 1903 Curie shared the Nobel Prize in Physics for her work on radioactivity. At that time few "
    "women worked in physics, and the prize took years to arrive.",
    "Curie discovered two elements, polonium and radium, by separating them from tons of pitchblende. "
    "The work took years of time and hard labour in a cold shed.",
    "Radium glowed in the dark, and people at the time used radium in paint and medicine without "
    "knowing its danger.",
    "In 1911 Curie received a second Nobel Prize, in Chemistry, for the discovery of radium and "
    "polonium. She remains the only person to win the prize in two sciences.",
    "Her notebooks are still radioactive today, and people who read them must sign a waiver at the "
    "national library in Paris.",
)
LOWER_CASE = doc(  # tokenised the way some corpora are: "fighter 's mum", "he 'll"
    "the militants in raqqa banned nike products , and the leaflet listed every banned brand .",
    "one fighter 's mum said how he 'll keep wearing nike trainers despite the leaflet .",
    "the leaflet threatens both the buyer and the seller of nike products with a fine .",
    "isis commanders in raqqa said the leaflet was needed because the brand name sounds like a goddess .",
)
HANT = doc(
    "下薩克森邦位於德國西北部，首府是漢諾瓦。",
    "下薩克森邦的工業中心位於漢諾瓦和布倫瑞克一帶，許多汽車企業設在這裡。",
    "布倫瑞克也是一個重要的科學中心，布倫瑞克工業大學是德國最古老的工業大學之一。",
    "漢諾瓦每年舉辦世界最大的工業博覽會，很多人從各地來到漢諾瓦，這方面的問題是交通。",
    "下薩克森邦的農業十分發達，時間久了，這裡成為德國的糧倉。",
    language="zh",
)
HANS = doc(
    "萨尔茨吉特是下萨克森州东南部的工业城市，萨尔茨吉特的钢铁业十分发达。",
    "萨尔茨吉特钢铁公司是德国第二大钢铁企业，时间久了，人们把萨尔茨吉特叫作钢铁之城。",
    "塔兰克斯保险集团的总部设在汉诺威，汉诺威也是下萨克森州的首府。",
    "汉诺威每年举办工业博览会，这方面的问题是交通，很多人从各地来到汉诺威。",
    "汉诺威位于莱讷河畔，1636年起是汉诺威公国的都城。",
    language="zh",
)


def tags_of(out: ArticleMemoryOutput) -> list[str]:
    return [t for u in out.memory_units for t in u.tags]


def test_generic_words_are_never_tags() -> None:
    for d, generic in ((CURIE, GENERIC_EN), (HANT, GENERIC_ZH), (HANS, GENERIC_ZH)):
        out = run(d)
        assert not {t.casefold() for t in tags_of(out)} & generic, tags_of(out)
    assert not {"people", "year", "time", "work", "prize"} & set(tags_of(run(CURIE)))
    assert not {"時間", "人", "方面", "問題", "工業"} & set(tags_of(run(HANT)))


def test_names_are_whole_and_one_key_term_tags_several_units() -> None:
    out = run(CURIE)
    tags = tags_of(out)
    assert not {"Curie", "curie", "Maria", "Skłodowska"} & set(tags)  # the surname is the full name
    curie = [u for u in out.memory_units if "Curie" in u.content]
    assert len(curie) >= 3 and all("Maria Skłodowska-Curie" in u.tags for u in curie)
    assert Counter(tags)["radium"] >= 2
    assert all(len(u.tags) <= 5 for u in out.memory_units)
    for u in out.memory_units:  # no tag twice in another case or number
        folded = [t.casefold().removesuffix("s") for t in u.tags]
        assert len(folded) == len(set(folded))


def test_chinese_pieces_of_names_are_never_tags_and_one_name_tags_several_units() -> None:
    hant = run(HANT)
    tags = set(tags_of(hant))
    assert not {"布倫", "瑞克", "漢諾", "下薩克森", "薩克森邦"} & tags, tags
    assert {"下薩克森邦", "漢諾瓦", "布倫瑞克"} <= tags
    assert all(fold_chinese(t) != t for t in tags if any(c in t for c in "薩諾倫國")), (
        tags
    )  # Traditional kept
    assert Counter(tags_of(hant))["下薩克森邦"] >= 3
    hans = run(HANS)
    tags = set(tags_of(hans))
    assert not {"萨尔茨", "吉特", "塔兰", "克斯", "汉诺"} & tags, tags
    assert Counter(tags_of(hans))["萨尔茨吉特"] >= 2 and Counter(tags_of(hans))["汉诺威"] >= 2
    for u in [*hant.memory_units, *hans.memory_units]:
        assert len(u.tags) <= 5 and all(t in u.content for t in u.tags)  # whole words of the unit


def test_no_piece_of_a_contraction_letter_or_number_is_a_tag() -> None:
    for d in (LOWER_CASE, CURIE):
        for tag in tags_of(run(d)):
            words = tag.split()
            assert "'" not in tag and "’" not in tag and words[0] not in {"s", "t", "ll", "d"}, tag
            assert not any(w in {"he", "how", "ll"} for w in words), tag
            assert len(tag) > 1 and not tag.isdigit(), tag
