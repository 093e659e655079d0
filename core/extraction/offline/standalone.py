"""A unit's content that stands alone: the idea in plain words, read a month later.

From the quoted sentence: list bullets out, inline markup rendered and page furniture removed
(core/validation/plain.py), a leading linking word dropped and the next word re-capitalised
("However, spacing cannot ..." -> "Spacing cannot ..."; "但是，间隔重复……" -> "间隔重复……"), and a
sentence-initial pronoun replaced by what it refers to when that is unambiguous: "It"/"They"
-> the subject that opens the sentence before ("Photosynthesis is ... It takes place ..." ->
"Photosynthesis takes place ..."), "它" -> the term that opens the sentence before. When a
pronoun or a "this/these + noun" opening cannot be resolved, `needs_context` says so and the
extractor quotes the sentence before as well, or prefers another sentence. The evidence quote
itself is never rewritten.
"""

from __future__ import annotations

import re

from core.extraction.offline import english
from core.text.cjk import HAN, HAN_RE
from core.validation.lexicon import DANGLING_EN, DANGLING_ZH
from core.validation.plain import render_plain, strip_furniture

_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")
_DROP_EN = re.compile(
    r"^(?:however|moreover|furthermore|therefore|thus|hence|consequently|nevertheless|nonetheless|meanwhile|"
    r"additionally|besides|likewise|similarly|in addition|as a result|in fact|indeed|instead|also|in contrast|"
    r"by contrast|on the other hand|accordingly|after all|in turn|at the same time|of course|that said|"
    r"even so|for this reason|but|and|yet|still|so|then|again|otherwise|finally)\b(?P<comma>\s*,)?\s+",
    re.I,
)
_LABEL = re.compile(
    r"^(?:(?:note|tip|warning|caution|important|hint|nb|update|edit|注意|提示|警告|注)\s*[:：]\s*"
    r"|(?:note|remember|notice) that\s+)",
    re.I,
)
_IDENTIFIER_ZH = re.compile(rf"^[A-Za-z_.][\w.-]*[._][\w.-]*\s+(?={HAN_RE.pattern})")
_NEEDS_COMMA = frozenset({"yet", "still", "so", "then", "again", "otherwise", "finally", "instead", "also"})
_DROP_ZH = re.compile(
    r"^(?:与此同时|與此同時|另一方面|但是|然而|因此|所以|而且|尽管|儘管|同时|同時|不过|不過|另外|此外|并且|並且|于是|於是|"
    r"因而|总之|總之|可是|其次|最后|最後|接着|接著|但|而|且)[，,、]?\s*"
)
_PRONOUN_EN = re.compile(r"^(?P<p>It|They|He|She)\s+(?=[a-z])")
_PRONOUN_ZH = re.compile(rf"^(?P<p>它|他|她)(?={HAN_RE.pattern})")
_BE = re.compile(r"\s+(?:is|are|was|were|has|have|had|can|will|refers|means)\b")


_TOKENIZED = re.compile(r" (?:'s|n't|,|\.|;|:|'re|'ve|'ll|'d)(?=\s|$)| ' s\b")
_DETOKENIZE = (
    (re.compile(r" ' (s|re|ve|ll|d|m|t)\b"), r"'\1"),
    (re.compile(r" '(s|re|ve|ll|d|m)\b"), r"'\1"),
    (re.compile(r" n't\b"), "n't"),
    (re.compile(r" ([,.;:!?%)])"), r"\1"),
    (re.compile(r"([(]) "), r"\1"),
)


def detokenize(text: str) -> str:
    """Text a corpus split into tokens ("the group 's capital , raqqa .") spaced as written
    ("the group's capital, raqqa."), when it is such text (two signs of it at least): a blank
    then never cuts "group 's" in two."""
    if len(_TOKENIZED.findall(text)) < 2:
        return text
    for pattern, repl in _DETOKENIZE:
        text = pattern.sub(repl, text)
    return text


def plain_content(text: str) -> str:
    """Bullets, markup and furniture out; a leading linking word dropped (re-capitalised);
    tokenized text spaced as written (detokenize)."""
    out = strip_furniture(render_plain(_BULLET.sub("", detokenize(text))))
    out = _IDENTIFIER_ZH.sub("", out)
    label = _LABEL.match(out)
    if label and len(out) - label.end() > 12:
        out = out[label.end() :]
        out = out[0].upper() + out[1:] if out[:1].isalpha() else out
    caption = _CAPTION_LABEL.match(out)
    if caption and len(out) - caption.end() > 20 and _caption_words(caption.group(0)):
        out = out[caption.end() :]  # "Not allowed: the leaflet threatens ..." (a caption's label)
    out = drop_relative_time(drop_linking_word(out)).strip()
    if out[:1].islower() and out[:1].isascii() and not re.match(r"[a-z]+[A-Z.]", out):
        out = out[0].upper() + out[1:]  # a sentence starts with a capital ("iPhone", "pyenv." stay)
    return out or text.strip()


_DAYS = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?"
# Time said relative to the writing, as a card drops it: "On Tuesday, ...", "... said last week.",
# "Yesterday the council ..." (a card read a month later cannot place it; the fact stays).
_RELATIVE_LEAD = re.compile(
    rf"^(?:(?:on |last |this |early |late )?{_DAYS}(?: (?:morning|afternoon|evening|night))?|yesterday|today|"
    r"tonight|(?:earlier|later) this (?:week|month|year)|last (?:week|weekend|month|year|night)|"
    r"this (?:week|weekend|month|morning|afternoon|evening))\s*,?\s+(?=\w)",
    re.I,
)
_RELATIVE_TAIL = re.compile(
    rf"\s+(?:on |last |this |early |late )?(?:{_DAYS}(?: (?:morning|afternoon|evening|night))?|yesterday|"
    r"today|tonight|last (?:week|weekend|month|year|night)|this (?:week|weekend|month))(?=[.,;!]?$|[,;]\s)",
    re.I,
)


def drop_relative_time(text: str) -> str:
    """A sentence's time said relative to the writing, out: "On Tuesday, the Senate passed the
    bill." -> "The Senate passed the bill."; "... the bill, officials said last week." -> "...
    officials said." The fact stays; a card a month later no longer points at a day gone."""
    m = _RELATIVE_LEAD.match(text)
    if m and len(text) - m.end() > 20:
        rest = text[m.end() :]
        text = rest[0].upper() + rest[1:]
    return _RELATIVE_TAIL.sub("", text)


def _caption_words(label: str) -> bool:
    """A caption's label ("Not allowed", "Fashion-conscious"), not a term being defined
    ("Stability: the number of days ..."): two words or more, or one that is no noun."""
    words = english.tag(label.rstrip(" :"))
    return len(words) > 1 or (len(words) == 1 and words[0].pos not in {"NOUN", "PROPN"})


_CAPTION_LABEL = re.compile(r"^[A-Z][\w'-]*(?: [\w'-]+){0,2}\s?:\s+(?=[a-z])")


def drop_linking_word(text: str) -> str:
    m = _DROP_EN.match(text)
    if m and (m.group("comma") or m.group(0).split()[0].rstrip(",").lower() not in _NEEDS_COMMA):
        rest = text[m.end() :]
        if len(rest) > 12 and rest[:1].isalpha():
            return rest[0].upper() + rest[1:]
    m = _DROP_ZH.match(text)
    if m and len(text) - m.end() >= 6:
        return text[m.end() :]
    return text


def subject_of(text: str) -> str | None:
    """The noun phrase that opens a sentence, when it is its subject ("Photosynthesis is ...";
    "The Calvin cycle needs ..."), else None. Chinese: the term before 是 / 指 / a verb."""
    if HAN_RE.match(text):
        m = re.match(
            rf"^([{HAN}A-Za-z0-9]{{2,8}}?)(?:是|指|为|為|主要|在|能|可以|会|會|需要|把|将|將|不|没|沒|也|都|已|可)",
            text,
        )
        return m.group(1) if m and not DANGLING_ZH.match(m.group(1)) else None
    tokens = english.tag(text)
    phrases = english.noun_phrases(text, tokens)
    if not phrases or DANGLING_EN.match(text):
        return None
    i, j = phrases[0]
    start = 1 if i == 1 and tokens[0].text.lower() == "the" else 0
    if i != start or j >= len(tokens) or tokens[j].pos not in {"VERB", "AUX"}:
        return None
    return text[tokens[0].start : tokens[j - 1].end]


def resolve_pronoun(text: str, previous: str | None) -> str | None:
    """The sentence with its opening pronoun replaced by the previous sentence's subject; the
    sentence unchanged when it opens on no pronoun; None when the pronoun cannot be resolved."""
    m = _PRONOUN_EN.match(text) or _PRONOUN_ZH.match(text)
    if not m:
        return text
    subject = subject_of(previous) if previous else None
    if not subject:
        return None
    pronoun = m.group("p")
    if pronoun in {"He", "She", "他", "她"} and not subject[:1].isupper() and not HAN_RE.match(subject):
        return None
    if pronoun in {"It", "它"} and not HAN_RE.match(subject) and _is_proper(subject):
        return None  # "Leifman says ... It is a jail." is not "Leifman is a jail": a name is no "it"
    head = subject.split()[-1]
    known = english.lexicon().get(head.lower(), {})
    plural = english.lemma(head.lower(), "NOUN") != head.lower() if "NOUN" in known else head.endswith("s")
    if (pronoun == "It" and plural) or (pronoun == "They" and not plural):
        return None
    if subject.lower().startswith("the ") or (subject[:1].isupper() and not _is_proper(subject)):
        subject = subject[0].upper() + subject[1:]
    return subject + text[len(pronoun) :]


def _is_proper(subject: str) -> bool:
    return any(t.pos == "PROPN" for t in english.tag(subject))


# A pointer back a few words in ("From these bases, ...", "Most often, they face ...") or a
# "we" that is no paper's authors ("Last year, we recorded ..."): the sentence before is needed.
_BACK_EN = re.compile(
    r"^(?:[\w'-]+\s+){0,3}(?:these|those|such)\s+[a-z]|^(?:[\w'-]+\s+){0,4}this\s+(?!year|week|month|day|century|is|was)[a-z]+\b(?!\s+(?:is|was|are|were)\b)|"
    r"^(?:[\w'-]+\s+){0,4}that\s+(?!is|was)[a-z]+\b(?!\s+(?:is|was|are|were)\b)|"
    r"^(?:along the same lines|in the same (?:way|vein)|similarly|likewise|in this (?:way|case|sense)|as a result|"
    r"to this end|for this reason|in that case|after that|later that|earlier that)\b|"
    r"^[^,]{1,30},\s+(?:he|she|they|it|we|this|these|those|his|her|their|its)\b",
    re.I,
)
_BACK_ZH = re.compile(r"^[^，。]{0,8}[，,]?(?:他们|他們|她们|她們|他|她|它|这些|這些|该|該|此|我们|我們)")


def needs_context(content: str) -> bool:
    """The content still opens on a word that needs the sentence before it, or points back to
    it a few words in, or speaks as "we" (a paper's "we" is named first: name_authors)."""
    first = content.lstrip("\"'“‘(（「『")
    if DANGLING_EN.match(first) or DANGLING_ZH.match(first):
        return True
    return bool(_BACK_ZH.search(first)) if HAN_RE.match(first) else bool(_BACK_EN.search(first))


_AUTHORS_VERB = (
    r"propose|present|introduce|show|develop|demonstrate|find|argue|describe|report|evaluate|achieve|train|"
    r"use|study|analy[sz]e|compare|obtain|observe|investigate|apply|design|provide|release|extend|explore|"
    r"consider|focus|formulate|derive|prove|test|examine|collect|build|learn|conduct|address|discuss|suggest"
)
_WE = re.compile(
    rf"^(?:(?:In this (?:paper|work|study|article)|Here|To this end|Finally|Moreover|In addition), )?[Ww]e "
    rf"(?=(?:also |further |then |first |here )?(?:{_AUTHORS_VERB})\w*\b)"
)
_OUR = re.compile(
    r"^(?:In this (?:paper|work|study|article), )?Our (?=(?:method|approach|model|results?|findings?|analysis|framework|system|algorithm|experiments?|work|study|data)\b)"
)
_ZH_WE = re.compile(
    r"^(?:本文|在本文中，?)?(?:我们|我們)(?=(?:首先|还|還|进一步|進一步)?(?:提出|发现|發現|表明|证明|證明|设计|設計|研究|分析|构建|構建|开发|開發|采用|採用|利用|探讨|探討))"
)


def name_authors(content: str) -> str:
    """A paper's "We propose ..." as "The authors propose ..." ("Our method ..." -> "The authors'
    method ...", "我们提出……" -> "作者提出……"): who "we" are, named from the kind of sentence."""
    m = _WE.match(content)
    if m:
        return "The authors " + content[m.end() :]
    m = _OUR.match(content)
    if m:
        return "The authors' " + content[m.end() :]
    m = _ZH_WE.match(content)
    if m:
        return "作者" + content[m.end() :]
    return content
