"""Tags from the article's topics: names and key noun phrases, normalised.

The article's topics are its noun phrases (English: the tagger's noun phrases and their head
nouns; Chinese: rjieba's nouns, names and terms), counted over the whole text. A phrase is
normalised once for the article: common nouns in the singular and lower case ("Plants" and
"plant" -> "plant"), names and acronyms as written ("Hermann Ebbinghaus", "FSRS"). A unit's
tags are the topics it mentions, the article's most frequent first, 2 to 5; never a verb, a
word piece or two case variants.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.extraction.offline import english
from core.extraction.offline.segment import zh_words
from core.validation.lexicon import EN_STOP, ZH_STOP

_ZH_TOPIC = frozenset({"n", "nr", "ns", "nt", "nz", "nrt", "nrfg", "vn", "eng", "an", "j"})
MAX_TAGS = 5


@dataclass(frozen=True, slots=True)
class Topics:
    """How often the article names a phrase, read off its word counts (English: lower-case
    words, a noun's plural counted with it; Chinese: rjieba words), so only the units' own
    sentences are tagged (tagging every sentence of a 100 KB article cost a second)."""

    counts: dict[str, int]
    lang: str

    def weight(self, phrase: str) -> float:
        if self.lang == "zh":
            return float(self.counts.get(phrase, 0))
        words = phrase.lower().split()
        last = words[-1]
        forms = {last, last + "s", last + "es", last[:-1] + "ies" if last.endswith("y") else last}
        count = sum(self.counts.get(f, 0) for f in forms)
        for w in words[:-1]:
            count = min(count, self.counts.get(w, 0))
        return count * (1.0 + 0.3 * (len(words) - 1))


def phrases(text: str, lang: str) -> list[str]:
    """The normalised topic phrases of one sentence, in order."""
    if lang == "zh":
        out = []
        for word, tag, _, _ in zh_words(text):
            w = word.strip()
            if tag in _ZH_TOPIC and len(w) >= 2 and w not in ZH_STOP and not w.isdigit():
                out.append(w if tag != "eng" else _norm_en_word(w))
        return out
    tokens = english.tag(text)
    found: list[str] = []
    for i, j in english.noun_phrases(text, tokens):
        part = [t for t in tokens[i:j] if t.pos != "NUM"]
        if part and part[-1].pos != "PROPN" and part[-1].text.lower().endswith(("ing", "ed")):
            continue  # a verb form the tagger read as a noun ("failing", "known")
        if not part or all(t.text.lower() in EN_STOP for t in part):
            continue
        head = part[-1]
        if head.pos == "PROPN" or any(t.pos == "PROPN" for t in part):
            found.append(" ".join(t.text for t in part))
            continue
        words = [t.text.lower() for t in part]
        words[-1] = english.lemma(words[-1], "NOUN")
        if len(words) > 1:
            found.append(" ".join(words))
        if len(words[-1]) > 2 and words[-1] not in EN_STOP:
            found.append(words[-1])
    return found


def _norm_en_word(word: str) -> str:
    return word if word.isupper() or word[:1].isupper() else english.lemma(word.lower(), "NOUN")


def article_topics(counts: dict[str, int], lang: str) -> Topics:
    return Topics(counts, lang)


def unit_tags(text: str, lang: str, topics: Topics) -> tuple[str, ...]:
    """2-5 topics the unit mentions, the article's most frequent first (case variants folded)."""
    found = list(dict.fromkeys(phrases(text, lang)))
    # the article's topics first (named more than once, or a name); one-off words only to fill
    ranked = sorted(found, key=lambda p: (-_topical(p, topics), -topics.weight(p), found.index(p)))
    tags: list[str] = []
    keys: set[str] = set()
    for phrase in ranked:
        key = phrase.casefold()
        if key in keys or any(key in k.split() or k in key.split() for k in keys if " " in k or " " in key):
            continue
        if len(tags) >= 2 and not _topical(phrase, topics):
            break
        tags.append(phrase)
        keys.add(key)
        if len(tags) == MAX_TAGS:
            break
    return tuple(tags)


def _topical(phrase: str, topics: Topics) -> bool:
    return topics.weight(phrase) >= 2 or phrase[:1].isupper() or phrase.isupper()
