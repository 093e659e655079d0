"""The names and terms one sentence mentions: what an article's tags are chosen from.

A mention has a key (how it is matched: English lower-case words, the last one in the singular;
Chinese words folded to Simplified), the surface a tag shows (common terms in lower case, names
as written, Traditional text in Traditional characters), whether it is a name, and its rarity
in general language (background.py).

* English names: runs of capitalised words (the tagger's PROPN) joined by a space or by "of",
  "de", "von" ... between two of them ("Royal Geographical Society of London", "Maria
  Skłodowska-Curie"), without a title ("Mr", "President") or a possessive ("Vick's" -> "Vick").
  A name read before a common noun is that noun's modifier ("Turing machine"), not a mention.
* English terms: the parts of a noun phrase that end on its common noun, up to four words
  ("computational complexity theory", "complexity theory", "theory"), never opened by a
  common adjective ("other people") and never a piece of a contraction ("s mum", "he'll").
* Chinese: runs of rjieba nouns and names on Simplified text (jieba's dictionary is Simplified:
  segmenting 下薩克森邦 as it is written cut it into 下薩克森邦東 / 北部), every stretch of up to
  five words of a run (海军/十字/勋章 -> 海军十字勋章, 十字勋章, 勋章; name pieces 布伦/瑞克 ->
  布伦瑞克). Which stretch is a whole name, not a piece, is decided over the whole article
  (tags.py), where a piece always stands beside the rest of its name.

Never a mention: a generic noun (GENERIC_EN, GENERIC_ZH), a day or a month, a number, a single
letter, a stop word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from core.extraction.offline import english
from core.extraction.offline.background import rarity_en, rarity_zh
from core.extraction.offline.segment import zh_words
from core.text.chinese import fold_chinese
from core.text.cjk import HAN_RE
from core.validation.lexicon import EN_STOP, ZH_STOP

# Nouns every text uses: never a tag, however often an article says them (issue 30's blind
# reader found "year, brother", "time, action, form", "people, research", "area, garden",
# "level, side" useless). Rarity keeps most others out; these are common enough to repeat.
GENERIC_EN = english.words(
    """year years time times people person persons way ways thing part parts area side level form action
    brother sister mother father mum mom dad son daughter wife husband man men woman women child children
    kid kids baby family friend friends boy girl guy day days week weeks month months hour hours minute
    minutes second seconds today tonight night morning evening afternoon moment period world life lives
    home house place places end point case fact facts example examples number numbers lot lots kind kinds
    type types sort sorts group groups member members percent cent role field term terms word words name
    names order use result results issue issues problem problems question questions matter reason reasons
    idea ideas change changes effect effects amount rate research study studies report reports
    information data detail details garden research thing stuff someone something anything everything
    nothing everyone anyone one ones other others lot top bottom front back line lines set sets
    system systems process method methods approach approaches work works job jobs company companies
    official officials source sources statement statements spokesman spokeswoman spokesperson
    country countries city cities town state states government team teams side sides show shows
    story stories news article articles paper papers page pages picture pictures photo photos image
    images video videos list lists series total average majority minority half bit piece pieces
    size sizes value values case cases situation situations condition conditions kind sort aspect
    aspects feature features factor factors element elements level levels stage stages step steps
    age ages past future present history start beginning middle end ends century centuries decade decades"""
)
GENERIC_ZH = english.words(
    """时间 時間 人 人们 人們 方面 问题 問題 情况 情況 时候 時候 地方 东西 東西 部分 方法 结果 結果 过程 過程
    作用 影响 影響 关系 關係 内容 內容 工作 方式 事情 事物 原因 目的 意义 意義 特点 特點 条件 條件 基础 基礎
    水平 程度 阶段 階段 范围 範圍 领域 領域 形式 类型 類型 种类 種類 数量 數量 数字 數字 年代 世纪 世紀 时期
    時期 期间 期間 当时 當時 今天 现在 現在 目前 最近 地区 地區 区域 區域 国家 國家 世界 社会 社會 人员 人員
    人士 成员 成員 家人 兄弟 姐妹 父亲 父親 母亲 母親 朋友 名字 名称 名稱 一部分 中心 代表 行动 行動 作者
    文章 研究 分析 系统 系統 设计 設計 用户 用戶 公司 集团 集團 城市 政府 年份 年度 一年 两年 兩年 百分之
    例子 比例 数据 數據 信息 資訊 资料 資料 报道 報道 报告 報告 消息 新闻 新聞 图片 圖片 视频 視頻 故事
    开始 開始 最后 最後 后来 後來 之后 之後 以来 以來 左右 大约 大約 其他 其它 另外 有关 有關 相关 相關
    主要 重要 一般 不同 所有 任何 整个 整個 许多 許多 很多 一切 自己 大家 对方 對方 双方 雙方 各地 当地 當地"""
)
TITLES = english.words(
    "mr mrs ms miss dr prof professor sir dame lord lady baroness baron president vice prime minister "
    "general gen col capt captain lt sgt rev reverend judge justice senator sen rep representative gov "
    "governor chancellor king queen prince princess pope saint st mayor chairman chairwoman ceo coach "
    "officer detective leader secretary chief commander director ambassador manager spokesman "
    "spokeswoman deputy head star quarterback striker owner founder"
)
_POSTNOMINALS = english.words("qc kc mp mep jr sr obe mbe cbe phd md")
# Adjectives that open no term: they date or rank the thing, they do not name it ("former chairman").
_OPENERS = english.words(
    "former current late recent previous next last certain various several whole entire same different "
    "similar particular major minor main key important big small large great little long short high low "
    "good bad best worst top senior junior early"
)
DAYS_MONTHS = english.words(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june "
    "july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec"
)
_CONNECTORS = english.words("of de da di del della der den van von du la le al bin ibn y")
_POSSESSIVE = re.compile(r"(?:['’]s|s['’])$")
_APOSTROPHE = re.compile(r"['’]")
_DIGIT = re.compile(r"\d")
_WH = english.words("how why what when where who whom whose which")
_SUBJECT = frozenset({"NOUN", "PROPN", "PRON", "NUM"})  # before a verb: its subject ("costs reduced prices")
COMMON_ADJECTIVE = 4.0  # a first word more common than this opens no term ("other people", "big chain")
MAX_WORDS = 4
_ZH_NAME = frozenset({"nr", "ns", "nt", "nz", "nrt", "nrfg"})
_ZH_NOUN = _ZH_NAME | {"n", "vn", "j"}
_ZH_SUFFIX = frozenset("邦州省市县縣区區镇鎮村河江湖山岛島港湾灣城国國洲")
_DOTS = frozenset("·・•‧")
_ZH_VERB = frozenset({"v", "vd", "d", "a", "ad"})  # after a noun: a compound when it repeats (间隔重复)
ZH_MAX_WORDS = 5
ZH_MAX_CHARS = 12


@dataclass(frozen=True, slots=True)
class Mention:
    key: tuple[str, ...]  # how it is matched
    surface: str  # how a tag shows it
    name: bool
    rarity: float  # in general language (background.py), a phrase as rare as its rarest word
    start: int  # its span in the sentence
    end: int
    parts: int = 1  # the words it is made of
    verbal: bool = False  # Chinese: a noun and the verb after it (间隔/重复): a key term when it repeats
    pos: str = ""  # Chinese: rjieba's tag of a one-word mention


def mentions(text: str, zh: bool) -> list[Mention]:
    """Every name and term `text` mentions, in order (Chinese when `zh`)."""
    return _zh_mentions(text) if zh else _en_mentions(text)


def is_zh(text: str) -> bool:
    return HAN_RE.search(text) is not None


# --- English -------------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def singular(word: str) -> str:
    """A lower-case noun in the singular when only a plural ending differs ("machines" ->
    "machine", "analyses" -> "analysis"); otherwise as it is ("data", not the lexicon's "datum")."""
    lemma = english.lemma(word, "NOUN")
    if lemma == word:
        return word
    plurals = {lemma + "s", lemma + "es", lemma[:-1] + "ies", lemma[:-2] + "es", lemma[:-3] + "men"}
    return lemma if word in plurals and len(lemma) > 2 else word


def _tokens(text: str) -> list[english.Token]:
    """The tagger's tokens; a contraction or the piece after an apostrophe is no word of a
    name or term ("how he'll", "mum 's" -> "s"), a possessive is dropped ("Vick's" -> "Vick")."""
    out = []
    for t in english.tag(text):
        word = t.text
        if _POSSESSIVE.search(word) and len(word) > 3:
            word = word[:-2]
            t = replace(t, text=word, end=t.start + len(word))
        if (
            _APOSTROPHE.search(word)
            or text[t.start - 1 : t.start] in {"'", "’"}
            or len(word) < 2
            or word.lower() in _WH
        ):
            t = replace(t, pos="OTHER")
        elif t.pos == "PROPN" and word.lower() in DAYS_MONTHS:
            t = replace(t, pos="NUM")  # a date, not a name
        elif t.pos == "ADJ" and word[:1].isupper() and word.lower() in english.ADJECTIVES:
            t = replace(t, pos="PROPN?")  # "New" of "New Zealand", when a name follows
        out.append(t)
    return _in_context(text, out)


def _in_context(text: str, out: list[english.Token]) -> list[english.Token]:
    """What a word's neighbours say it is, where the tagger's rules read it otherwise."""
    for k, t in enumerate(out):
        if t.pos == "PROPN?":
            name_next = (
                k + 1 < len(out) and out[k + 1].pos == "PROPN" and text[t.end : out[k + 1].start] == " "
            )
            out[k] = replace(t, pos="PROPN" if name_next else "ADJ")
    # a participle before a noun: "Spaced repetition", "the forgetting curve"
    for k, t in enumerate(out[:-1]):
        before = out[k - 1].pos if k else "DET"
        low = t.text.lower()
        if t.pos != "VERB" or out[k + 1].pos != "NOUN":
            continue
        if (low.endswith("ed") and before not in _SUBJECT) or (
            low.endswith("ing") and before in {"DET", "ADJ"}
        ):
            out[k] = replace(t, pos="ADJ")  # "the forgetting curve"; not "by measuring memory"
    for k in range(1, len(out)):  # a plural the tagger read as a verb after a name: "Turing machines are"
        t = out[k]
        if (
            t.pos != "VERB"
            or out[k - 1].pos != "PROPN"
            or "NOUN" not in english.lexicon().get(t.text.lower(), {})
        ):
            continue
        after = out[k + 1].pos if k + 1 < len(out) else ""
        before = out[k - 2].pos if k >= 2 else ""
        if after == "AUX" or before in {"DET", "ADJ", "ADP"}:
            out[k] = replace(t, pos="NOUN")
    return out


def _en_mentions(text: str) -> list[Mention]:
    tokens = _tokens(text)
    found = _names(text, tokens)
    for i, j in english.noun_phrases(text, tokens):
        found.extend(_terms(tokens[i:j]))
    return sorted(found, key=lambda m: (m.start, -m.end))


def _names(text: str, tokens: list[english.Token]) -> list[Mention]:
    found: list[Mention] = []
    i = 0
    while i < len(tokens):
        if tokens[i].pos != "PROPN":
            i += 1
            continue
        j = i + 1
        while j < len(tokens):
            gap = text[tokens[j - 1].end : tokens[j].start]
            if tokens[j].pos == "PROPN" and gap in {" ", "-"}:
                j += 1
            elif (
                tokens[j].text.lower() in _CONNECTORS
                and j + 1 < len(tokens)
                and tokens[j + 1].pos == "PROPN"
                and gap == " "
                and text[tokens[j].end : tokens[j + 1].start] == " "
            ):
                j += 2
            else:
                break
        run = tokens[i:j]
        titled = [k for k, t in enumerate(run[:-1]) if t.text.lower().rstrip(".") in TITLES]
        if titled:  # "Mr Sisi" -> "Sisi", "Senate Majority Leader Harry Reid" -> "Harry Reid"
            run = run[titled[-1] + 1 :]
        while len(run) > 1 and run[-1].text.lower().rstrip(".") in _POSTNOMINALS:
            run = run[:-1]  # "Richard Gordon QC" -> "Richard Gordon"
        before_noun = (
            j < len(tokens) and tokens[j].pos == "NOUN" and text[tokens[j - 1].end : tokens[j].start] == " "
        )
        if run and not before_noun:
            name = text[run[0].start : run[-1].end]
            words = tuple(t.text.lower() for t in run)
            if not (len(run) == 1 and (words[0] in EN_STOP or words[0] in GENERIC_EN)):
                rarity = max(rarity_en(w) for t in run for w in _pieces(t.text))
                found.append(Mention(words, name, True, rarity, run[0].start, run[-1].end, len(run)))
        i = j
    return found


def _pieces(word: str) -> list[str]:
    return [p for p in re.split(r"[-.]", word.lower()) if p] or [word.lower()]


def _terms(phrase: list[english.Token]) -> list[Mention]:
    """The parts of one noun phrase that end on a common noun: PROPN* (ADJ|NOUN)* NOUN."""
    found: list[Mention] = []
    lows = [t.text.lower() for t in phrase]
    usable = [_term_word(w) and t.pos not in {"NUM", "OTHER"} for w, t in zip(lows, phrase, strict=True)]
    for b in range(1, len(phrase) + 1):
        head, low = phrase[b - 1], lows[b - 1]
        if head.pos != "NOUN" or not usable[b - 1] or low in TITLES:
            continue  # "chairman" alone is a title (a lower-case text's names)
        if low.endswith(("ing", "ed")) and "NOUN" not in english.lexicon().get(low, {}):
            continue  # a verb form read as a noun ("failing", "known")
        rarity = 0.0
        for a in range(b - 1, max(-1, b - 1 - MAX_WORDS), -1):
            if not usable[a] or (a < b - 1 and (lows[a] in TITLES or _name_after(phrase, a))):
                break  # "sir philip"; a name after a common word starts a new phrase
            rarity = max(rarity, *(rarity_en(w) for w in _pieces(lows[a])))
            first = lows[a]
            if (
                a < b - 1
                and phrase[a].pos == "ADJ"
                and (rarity_en(first) < COMMON_ADJECTIVE or first in _OPENERS)
            ):
                continue  # "other people", "former chairman": the adjective says nothing
            if a == b - 1 and (first in GENERIC_EN or singular(first) in GENERIC_EN):
                continue  # "year", "people" alone; "time zone" and "house price" are terms
            words = [t.text if t.pos == "PROPN" else w for t, w in zip(phrase[a:b], lows[a:b], strict=True)]
            words[-1] = singular(low)
            key = tuple(w.lower() for w in words)
            found.append(Mention(key, " ".join(words), False, rarity, phrase[a].start, head.end, b - a))
    return found


def _name_after(phrase: list[english.Token], a: int) -> bool:
    return phrase[a].pos != "PROPN" and phrase[a + 1].pos == "PROPN"


def _term_word(low: str) -> bool:
    return (
        len(low) > 1
        and low not in EN_STOP
        and low not in DAYS_MONTHS
        and low not in _CONNECTORS
        and not _DIGIT.search(low)
    )


# --- Chinese -------------------------------------------------------------------------------


def _zh_mentions(text: str) -> list[Mention]:
    folded = fold_chinese(text)  # same length: spans hold in `text`
    found: list[Mention] = []
    run: list[tuple[str, str, int, int]] = []
    for w in [*zh_words(folded), ("", "x", len(folded), len(folded))]:
        word, tag, start = w[0].strip(), w[1], w[2]
        if word and run and run[-1][3] == start and _zh_continues(run[-1], word, tag):
            run.append(w)
            continue
        found.extend(_zh_stretches(text, run))
        run = [w] if word and _zh_starts(word, tag) else []
    return sorted(found, key=lambda m: (m.start, -m.end))


def word_bounds(folded: str) -> set[int]:
    """Where rjieba's words of a (folded) Chinese text start and end."""
    return {i for _, _, a, b in zh_words(folded) for i in (a, b)}


def _zh_starts(word: str, tag: str) -> bool:
    if tag == "eng":
        return len(word) > 1 and not word.isdigit() and word.lower() not in EN_STOP
    return tag in _ZH_NOUN and word not in ZH_STOP


def _zh_continues(last: tuple[str, str, int, int], word: str, tag: str) -> bool:
    if last[1] in _ZH_VERB:
        return False  # a verb closes a run
    if tag in _ZH_VERB:
        return last[1] == "n" and len(word) > 1 and len(last[0]) > 1 and word not in ZH_STOP  # 间隔 + 重复
    if word in _DOTS:
        return last[1] in _ZH_NAME or last[1] == "eng"  # 约翰·S·莫塞: one name
    if last[0] in _DOTS:
        return tag in _ZH_NAME or (tag == "eng" and word.isupper() and len(word) <= 2)
    if tag == "eng" or last[1] == "eng":
        return False  # a Latin word stands alone ("2K-H")
    if len(word) == 1 and word in _ZH_SUFFIX and last[1] in _ZH_NAME:
        return True  # 下萨克森 + 邦
    return _zh_starts(word, tag)


def _zh_name(part: list[tuple[str, str, int, int]]) -> bool:
    """Every word of two characters or more is a name (a single character may be a piece the
    segmenter left: 格/哈特·施/洛德), and one is."""
    longer = [p for p in part if len(p[0]) > 1 and p[1] != "eng"]
    return bool(longer) and all(p[1] in _ZH_NAME for p in longer)


def _zh_stretches(text: str, run: list[tuple[str, str, int, int]]) -> list[Mention]:
    """Every stretch of up to five words of a run of nouns, as a mention."""
    found: list[Mention] = []
    for b in range(1, len(run) + 1):
        for a in range(b - 1, max(-1, b - 1 - ZH_MAX_WORDS), -1):
            part = run[a:b]
            start, end = part[0][2], part[-1][3]
            key = "".join(p[0] for p in part)
            if not 2 <= end - start <= ZH_MAX_CHARS or key.isdigit() or key in GENERIC_ZH:
                continue
            if part[0][0] in _DOTS or part[-1][0] in _DOTS or (part[-1][1] == "eng" and len(part) > 1):
                continue  # a name is not cut at its dot
            if len(part) > 1 and part[0][0] in _ZH_SUFFIX:
                continue  # 邦 closes a name, never opens one (邦包围住)
            if part[0][1] == "eng":
                found.append(Mention((key.lower(),), key, key[:1].isupper(), rarity_en(key), start, end))
                continue
            if len(part) == 1 and len(key) < 2:
                continue
            name = _zh_name(part)
            if len(part) > 1 and (part[-1][0] in GENERIC_ZH or part[0][0] in GENERIC_ZH):
                continue  # a stretch that ends or opens on a generic noun ("设计方法", "城市不莱梅")
            if part[0][1] in _ZH_VERB:
                continue  # a verb alone, or opening a stretch, is no term
            whole = [p[0] for p in part if len(p[0]) > 1 and p[1] != "eng"] or [key]
            rarity = max(rarity_zh(p) for p in whole)
            verbal = part[-1][1] in _ZH_VERB
            pos = part[0][1] if len(part) == 1 else ""
            found.append(Mention((key,), text[start:end], name, rarity, start, end, len(part), verbal, pos))
    return found
