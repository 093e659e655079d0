"""Tags a reader finds and groups cards by: the article's few names and key terms.

Issue 30: a blind reader found the old tags (each unit's own most frequent nouns) useful in 0
of 20 articles: generic words ("year, brother", "area, garden"), pieces ("吉马", "s mum") and
tags that differed from unit to unit. Now the tags are chosen once for the article, then each
unit gets the ones it mentions, so one key term tags every card about it:

1. Every sentence's names and terms (tag_terms.py), counted by the sentences that mention them;
   the title and each heading count as one sentence more, and raise the score by half.
2. One thing, one key: a surname stands for the one full name it ends ("Vick" -> "Michael
   Vick", "Curie" -> "Maria Skłodowska-Curie"), a name with its 邦/州/省 for the name without,
   and a name or term found mostly (70%) inside a longer one is that one ("Calvin" in "Calvin
   cycle", 布伦 in 布伦瑞克). A Chinese stretch that always stands beside the same character is
   a piece of a longer word, never a tag.
3. Score = sentences x log10(how much more often the article uses it than general language
   does: its share of the article's words over its background frequency, background.py); a
   name is at least as rare as NAME_RARITY, a phrase of several words rarer than its rarest one.
   A single common noun counts only when rarer than MIN_RARITY ("form" 4.3, "machine" 4.3 no;
   "algorithm" 5.7 yes); the commonest nouns that pass are listed as generic (tag_terms.py).
4. The article's best KEY_TERMS (4 to 8, by length), named in two sentences or more.

A unit's tags: the article's key terms it mentions, best first (a term inside a longer one it
mentions is not repeated: "Calvin cycle", not also "cycle"), at most MAX_TAGS, plus at most one
name of its own (a name the article mentions once: "Arthur Blank"), or when it mentions no key
term, its rarest term. Common terms in lower case, names as written, Traditional text in
Traditional characters, never two tags that differ only in case or plural.

Measured on the dev split of ../shared/eval (284 articles, 2,542 units; old tags -> these):
tags from the generic lists 1,181 -> 0; pieces of contractions ("s mum") 205 -> 0; Chinese
tags the article writes two times or more always beside the same character (布倫 of 布倫瑞克)
379 -> 2; tags per unit 3.7 -> 2.0; distinct tags per article 22.7 -> 9.6; tag uses shared with
another unit of the article 51% -> 70%; units without a tag 0.1% -> 2%. Reading every sentence
(mostly the English tagger) costs extraction a fifth more: 10.6 s -> 13.0 s of CPU for the 284.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.domain import SourceDocument
from core.extraction.offline import english
from core.extraction.offline.segment import Sentence
from core.extraction.offline.tag_terms import Mention, is_zh, mentions, word_bounds
from core.text.chinese import fold_chinese
from core.text.cjk import HAN_RE

MAX_TAGS = 5
KEY_TERMS = (4, 8)  # the article's key terms: 3 and one per SENTENCES_PER_TERM sentences, within these
SENTENCES_PER_TERM = 5
MIN_SENTENCES = 2  # a key term is named in this many sentences at least (a noun and verb: one more)
MAX_HEADINGS = 200
MAX_SENTENCES = 3000  # a longer text is read every k-th sentence (tagging 3,000 sentences: ~1 s)
HEADING_BONUS = 0.5  # a term the title or a heading names is the article's more surely
INSIDE = 0.7  # a mention found this often inside a longer one is that one
NAME_RARITY = 5.5  # a name is at least this rare ("France" is common in subtitles, not in an article)
PHRASE_BONUS = 0.5  # a phrase is rarer than its rarest word
MIN_RARITY = 4.4  # a single common noun commoner than this is no key term ("area" 4.3, "research" 4.5 listed)
OWN_TERM_RARITY = 5.0  # a unit without key terms tags its rarest term, when it is this rare
ZH_NAME_FREQUENCY = 20  # a one-word Chinese name of a unit's own is this common in jieba's dictionary
_COMPASS = english.words("north south east west northern southern eastern western upper lower central new")
_ZH_PLACE = frozenset("邦州省市县縣区區")
_DEMONYM = ("ean", "ian", "ese", "ish")
_ZH_JOINERS = re.compile("[和与及的或]")
_ZH_GLUE = frozenset(
    "的了是在和与與也就都而及或并並把被让讓对對于於为為以之其这這那此个個们們会會能可还還又很更最再已"
)

Key = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Topic:
    key: Key
    surface: str
    name: bool


@dataclass(frozen=True, slots=True)
class Topics:
    """The article's key terms, best first, and which mention keys stand for which of them."""

    ranked: tuple[Topic, ...]
    variants: dict[Key, Key] = field(default_factory=dict)
    full_names: dict[Key, str] = field(default_factory=dict)  # a short name -> its full name as written
    pieces: frozenset[Key] = frozenset()  # Chinese words always found beside the same character

    def rank(self, key: Key) -> int | None:
        for i, t in enumerate(self.ranked):
            if t.key == key:
                return i
        return None


@dataclass(slots=True)
class _Seen:
    """One key over the article: the sentences that mention it and how."""

    sentences: set[int] = field(default_factory=set)
    surfaces: Counter[str] = field(default_factory=Counter)
    names: int = 0
    rarity: float = 0.0
    verbal: bool = False  # Chinese: a noun and the verb or adverb after it (间隔重复)
    headings: int = 0  # the title and headings that name it
    left: set[str] = field(default_factory=set)  # Chinese: the characters just before it
    right: set[str] = field(default_factory=set)

    @property
    def piece(self) -> bool:
        """Always beside the same character (a letter, not a mark or a glue word): 史特拉斯 of 史特拉斯堡."""
        return any(len(side) == 1 and "" not in side for side in (self.left, self.right))

    @property
    def name(self) -> bool:
        return self.names * 2 > sum(self.surfaces.values())

    def surface(self) -> str:
        return max(self.surfaces.items(), key=lambda x: x[1])[0]  # most used, first seen on ties


def article_topics(document: SourceDocument, sentences: Sequence[Sentence]) -> Topics:
    """The article's key terms from every prose sentence, its title and headings (a heading
    counts as one more sentence naming a term: "# How Spaced Repetition Beats Forgetting")."""
    seen: dict[Key, _Seen] = {}
    words = 0
    sample = sentences[:: -(-len(sentences) // MAX_SENTENCES)] if sentences else sentences
    for n, s in enumerate(sample):
        words += len(s.words) or len(s.text.split())
        _count(seen, n, s.text, heading=False)
    _recount_zh(seen, [s.text for s in sample])
    headings = [p.text for p in document.paragraphs if p.kind == "heading"][:MAX_HEADINGS]
    if document.title and document.title not in headings:
        headings.append(document.title)
    for n, text in enumerate(headings, start=len(sample)):
        _count(seen, n, text if is_zh(text) else text.lower(), heading=True)  # Title Case is no name
    variants = _variants(seen)
    for short, long in variants.items():
        seen[long].sentences |= seen[short].sentences
    ranked = _rank(seen, variants, max(words, 1), len(sample))
    full_names = {short: seen[long].surface() for short, long in variants.items()}
    pieces = frozenset(k for k, x in seen.items() if len(x.sentences) >= MIN_SENTENCES and x.piece)
    ranked_topics = tuple(Topic(k, seen[k].surface(), seen[k].name) for k in ranked)
    return Topics(ranked_topics, variants, full_names, pieces)


def _count(seen: dict[Key, _Seen], n: int, text: str, heading: bool) -> None:
    zh = is_zh(text)
    folded = fold_chinese(text) if zh else text
    for m in mentions(text, zh):
        x = seen.setdefault(m.key, _Seen())
        x.sentences.add(n)
        if heading:
            x.headings += 1
            continue  # a heading adds to the count only: its words are not how the body writes them
        x.surfaces[m.surface] += 1
        x.names += m.name
        x.rarity = max(x.rarity, m.rarity)
        x.verbal = m.verbal
        if zh:
            x.left.add(_neighbour(folded, m.start - 1))
            x.right.add(_neighbour(folded, m.end))


def _recount_zh(seen: dict[Key, _Seen], texts: list[str]) -> None:
    """Chinese words of three characters or more counted wherever they stand, not only where the
    segmenter cut them out (汉诺/瓦和布伦/瑞克 holds 布伦瑞克), with their neighbours there (法尼亚州
    stands after 夕 in every 宾夕法尼亚州: a piece)."""
    keys = [
        k for k, x in seen.items() if len(k) == 1 and len(k[0]) >= 3 and HAN_RE.match(k[0][:1]) and x.surfaces
    ]
    if not keys:
        return
    joined = "\n".join(fold_chinese(t) for t in texts)
    starts = list(itertools.accumulate((len(t) + 1 for t in texts[:-1]), initial=0))
    for key in keys:
        x = seen[key]
        at = joined.find(key[0])
        while at >= 0:
            x.sentences.add(bisect.bisect_right(starts, at) - 1)
            x.left.add(_neighbour(joined, at - 1))
            x.right.add(_neighbour(joined, at + len(key[0])))
            at = joined.find(key[0], at + 1)


def _neighbour(text: str, i: int) -> str:
    """The character beside a mention, or "" where a word certainly ends (a mark, a glue word)."""
    if not 0 <= i < len(text) or not HAN_RE.match(text[i]) or text[i] in _ZH_GLUE:
        return ""
    return text[i]


def _variants(seen: dict[Key, _Seen]) -> dict[Key, Key]:
    """Mention keys that stand for another: a surname for the one full name it ends, a name
    without its 邦 for the name with it (or the other way, whichever the article uses more)."""
    out: dict[Key, Key] = {}
    names = [k for k, x in seen.items() if x.name]
    by_word: dict[str, list[Key]] = {}  # a word -> the full names it ends (or opens: a first name)
    for k in names:
        if 2 <= len(k) <= 4 and k[0] not in _COMPASS:
            for word in {k[-1], k[-1].split("-")[-1], *(k[:1] if len(k) <= 3 else ())}:
                by_word.setdefault(word, []).append(k)
    for key in names:
        if len(key) == 1 and not HAN_RE.match(key[0][:1]):
            # the full name comes first ("Michael Vick ... Vick", "James Creag ... James"), not
            # after ("France ... Napoleonic France"); a name two full names end is neither
            fulls = by_word.get(key[0], [])
            if len(fulls) == 1 and min(seen[fulls[0]].sentences) <= min(seen[key].sentences):
                out[key] = fulls[0]
        elif len(key) == 1 and key[0][-1:] in _ZH_PLACE and (key[0][:-1],) in seen:
            bare = (key[0][:-1],)  # every 下萨克森邦 is a 下萨克森 too: the full form when it is common
            if len(seen[key].sentences) * 2 >= len(seen[bare].sentences):
                out[bare] = key
            else:
                out[key] = bare
    return out


def _inside(short: Key, long: Key) -> bool:
    if short == long:
        return False
    if len(short) == 1 and len(long) == 1:
        return short[0] in long[0] and HAN_RE.match(short[0][:1]) is not None
    n = len(short)
    return any(long[i : i + n] == short for i in range(len(long) - n + 1))


def _rank(seen: dict[Key, _Seen], variants: dict[Key, Key], words: int, sentences: int) -> list[Key]:
    pool = {
        k: x
        for k, x in seen.items()
        if k not in variants
        and x.surfaces  # named in the body, not only in headings
        and len(x.sentences) >= (MIN_SENTENCES + 1 if x.verbal else MIN_SENTENCES)
        and any(len(w) > 1 for w in _letters(k))
    }
    containing: dict[Key, list[Key]] = {}
    for k in pool:
        for part in _parts(k):
            containing.setdefault(part, []).append(k)
    scores: dict[Key, float] = {}
    for key, x in pool.items():
        if x.piece:
            continue  # a piece of a longer word
        longer = containing.get(key, [])
        if any(len(pool[k].sentences) >= INSIDE * len(x.sentences) for k in longer):
            continue  # the longer one is the term ("Calvin" in "Calvin cycle")
        outside = x.sentences.difference(*(pool[k].sentences for k in longer))
        if len(outside) < MIN_SENTENCES:
            continue  # "plea" of "plea agreement" (twice) and "plea deal" (once)
        rarity = x.rarity + (PHRASE_BONUS if _phrase(key) else 0.0)
        if x.name:
            rarity = max(rarity, NAME_RARITY)
        elif rarity < MIN_RARITY:
            continue
        count = len(x.sentences)
        gain = rarity + math.log10(count / words)  # log of (share in the article / share in general)
        if gain > 0:
            scores[key] = count * gain * (1 + HEADING_BONUS * min(x.headings, 2))
    want = min(KEY_TERMS[1], max(KEY_TERMS[0], 3 + sentences // SENTENCES_PER_TERM))
    return sorted(scores, key=lambda k: (-scores[k], min(pool[k].sentences)))[:want]


def _parts(key: Key) -> set[Key]:
    """Every shorter key inside `key` (what _inside answers, listed at once)."""
    if len(key) == 1 and HAN_RE.match(key[0][:1]):
        w = key[0]
        pieces: set[Key] = {(w[i:j],) for i in range(len(w)) for j in range(i + 1, len(w) + 1)}
        return pieces - {key}
    return {key[i:j] for i in range(len(key)) for j in range(i + 1, len(key) + 1)} - {key}


def _letters(key: Key) -> list[str]:
    """The runs of letters of a key ("U.S" has none of two letters: no tag)."""
    return [w for k in key for w in re.split(r"[\W\d_]+", k) if w]


def _phrase(key: Key) -> bool:
    return len(key) > 1 or (HAN_RE.match(key[0][:1]) is not None and len(key[0]) > 3)


def unit_tags(text: str, lang: str, topics: Topics) -> tuple[str, ...]:
    """The key terms the unit mentions, best first, at most MAX_TAGS, and one name of its own."""
    zh = is_zh(text)
    found = mentions(text, zh)
    matched: list[tuple[int, Mention]] = []
    for m in found:
        rank = topics.rank(topics.variants.get(m.key, m.key))
        if rank is None and m.name and len(m.key) > 1:  # "Mohamed Morsi" for the article's "Morsi"
            rank = topics.rank((m.key[-1],))
        if rank is not None:
            matched.append((rank, m))
    if zh:
        matched.extend(_zh_found(text, topics))
    kept: dict[int, Mention] = {}
    for rank, m in sorted(matched, key=lambda x: (x[1].start - x[1].end, x[0])):  # longest first
        if rank in kept or any(_covers(k, m) for k in kept.values()):
            continue
        kept[rank] = m
    keys = {r: topics.ranked[r].key for r in kept}
    ranks = [r for r in sorted(kept) if not any(o != r and _inside(keys[r], keys[o]) for o in kept)]
    tags = [topics.ranked[r].surface for r in ranks][:MAX_TAGS]  # "Turing machine", not also "Turing"
    own = _own([m for m in found if m.key not in topics.pieces], [m for _, m in matched], bool(tags))
    if own is not None and len(tags) < MAX_TAGS and _new(own, [keys[r] for r in ranks]):
        tags.append(topics.full_names.get(own.key, own.surface))  # "Petraeus" -> "David Petraeus"
    return tuple(tags)


def _zh_found(text: str, topics: Topics) -> list[tuple[int, Mention]]:
    """The Chinese key terms in `text` where its segmentation missed them (汉诺/瓦和布伦/瑞克 holds
    汉诺瓦 and 布伦瑞克): a name of three characters or more anywhere, a shorter one only as a
    whole word (its ends are word boundaries)."""
    folded = fold_chinese(text)
    bounds = word_bounds(folded)
    out: list[tuple[int, Mention]] = []
    keys = [(t.key, i) for i, t in enumerate(topics.ranked)]
    keys += [(short, r) for short, full in topics.variants.items() if (r := topics.rank(full)) is not None]
    for key, rank in keys:
        word = key[0]
        if len(key) != 1 or not HAN_RE.match(word[:1]):
            continue
        at = folded.find(word)
        while at >= 0:
            end = at + len(word)
            if len(word) >= 3 or (at in bounds and end in bounds):
                out.append((rank, Mention(key, text[at:end], topics.ranked[rank].name, 0.0, at, end)))
            at = folded.find(word, end)
    return out


def _covers(a: Mention, b: Mention) -> bool:
    return a.start <= b.start and b.end <= a.end


def _own(found: list[Mention], taken: list[Mention], tagged: bool) -> Mention | None:
    """The unit's own name (the rarest, whole), or its rarest term when it names no key term."""
    free = [m for m in found if not any(m.start < t.end and t.start < m.end for t in taken)]
    names = [
        m
        for m in free
        if m.name and _whole_name(m) and not any(_covers(o, m) and o != m for o in free if o.name)
    ]
    if names:
        return max(names, key=lambda m: (m.rarity, m.end - m.start, -m.start))
    if tagged:
        return None
    terms = [
        (_specific(m), m) for m in free if not m.name and not m.verbal and _specific(m) >= OWN_TERM_RARITY
    ]
    if not terms:
        return None
    return max(terms, key=lambda x: (x[0], -x[1].start))[1]


def _specific(m: Mention) -> float:
    return m.rarity + (PHRASE_BONUS if _phrase(m.key) else 0.0)


def _whole_name(m: Mention) -> bool:
    """A name worth a tag by itself: one word at least no common word ("Arthur Blank", "NFL",
    not "Interstate Commerce" or "U.S"), or in Chinese a name of two words or one the
    dictionary has (not a piece the segmenter guessed: 包围住)."""
    if HAN_RE.match(m.surface[:1]):
        folded = fold_chinese(m.surface)
        if _ZH_JOINERS.search(folded) and not _zh_word(folded):
            return False  # 汉诺瓦和布伦瑞克: two names the segmenter glued at 和
        if m.pos == "nr" and len(folded) < 3:
            return False  # jieba reads many a two-character word as a person's name (古老, 周详)
        return m.parts >= 2 or _zh_word(folded)
    lexicon = english.lexicon()
    words = [w for w in re.split(r"[\s.\-]+", m.surface) if len(w) > 1]
    if len(words) == 1 and words[0].lower().rstrip("s").endswith(_DEMONYM):
        return False  # "European", "Americans": a word about a name, not one
    return any(w.isupper() or w.lower() not in lexicon for w in words)


def _zh_word(word: str) -> bool:
    """A word jieba's dictionary has, and not as one of its rare odd entries (包围住 4, 吉马 2)."""
    try:
        import rjieba
    except ImportError:  # pragma: no cover
        return False
    return bool(rjieba.has_word(word)) and rjieba.suggest_freq(word) >= ZH_NAME_FREQUENCY


def _new(own: Mention, keys: list[Key]) -> bool:
    """Not one of the tags again, in another case, number or length ("Turing" beside "Turing machine")."""
    mine = _fold(own.key)
    return all(mine != _fold(k) and not _inside(mine, _fold(k)) and not _inside(_fold(k), mine) for k in keys)


def _fold(key: Key) -> Key:
    return tuple(fold_chinese(w.casefold()) for w in key)
