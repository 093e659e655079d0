"""Words and cues the card rules are written in, shared by the validator and the extractors.

One definition each: the offline extractor avoids what the validator reports, with the same
lists (a stop word, a linking word, a reference to "the text", a cause cue).
"""

from __future__ import annotations

import re


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


EN_STOP = _wordset(
    """a about above after again against all almost also although always am among an and another any
    anyone anything are around as at away back be became because become becomes been before being below
    between both but by can cannot could did do does doing done down during each either else enough
    even ever every few first for from further get gets got had has have having he her here hers herself
    him himself his how however i if in into is it its itself just least less like made make makes many
    may me might more most much must my myself near neither never new no nor not now of off often on once
    one only onto or other others otherwise our ours ourselves out over own per perhaps put rather really
    said same say says see seen several shall she should since so some something sometimes still such
    than that the their theirs them themselves then there these they thing things this those though
    through thus to too toward towards two under until up upon us use used using very via was we well
    were what whatever when whenever where whether which while who whole whom whose why will with within
    without would yet you your yours yourself yourselves s t d ll re ve m don didn doesn isn wasn
    aren weren won wouldn couldn shouldn can't also mr mrs ms said according cnn"""
)
ZH_STOP = _wordset(
    """的 了 和 是 在 也 有 就 都 而 及 与 與 或 但 並 并 把 被 讓 让 對 对 於 于 为 為 以 之 其 这 這 那 此
    个 個 们 們 中 上 下 等 将 將 会 會 能 可 可以 还 還 又 很 更 最 再 已 已经 已經 我们 我們 他们 他們
    它们 它們 这个 這個 这些 這些 那些 一个 一個 一种 一種 一些 因为 因為 所以 因此 但是 然而 不过 不過
    如果 虽然 雖然 例如 比如 通过 通過 由于 由於 以及 并且 並且 而且 或者 还是 還是 就是 只是 没有 沒有
    什么 什麼 怎么 怎麼 如何 为了 為了 这样 這樣 那样 那樣 其中 之一 之后 之後 之前 以后 以後 以上 以下
    进行 進行 成为 成為 作为 作為 认为 認為 表示 称为 稱為 指 即 该 該 各 每 自己 时候 時候 时 時 后 後 年 月 日"""
)
# A question that points at the document instead of naming its subject cannot be answered a
# month later, away from the article.
CONTEXT_REFERENCE = re.compile(
    r"\b(?:the|this) (?:text|article|passage|author|paragraph|story|document|sentence|excerpt)\b"
    r"|\baccording to the\b|文中|本文|文章|作者|这段|這段|课文|課文|这句话|這句話|上文|原文",
    re.I,
)

# Openers that need the sentence before them: pronouns and linking words.
LINKING_EN = (
    "however|but|and|so|also|thus|then|as a result|in addition|moreover|meanwhile|instead|yet|still|"
    "furthermore|therefore|hence|besides|nevertheless|nonetheless|similarly|likewise|additionally|"
    "consequently|accordingly|indeed|finally|in fact|in turn|on the other hand|in contrast|by contrast|"
    "after all|otherwise|of course|for this reason|that said|even so|at the same time|as such|again"
)
PRONOUN_EN = "he|she|it|they|this|these|that|those|his|her|its|their|them|him|such|there|here"
DANGLING_EN = re.compile(rf"^(?:{LINKING_EN}|{PRONOUN_EN})\b", re.I)
LINKING_ZH = (
    "但是|但|然而|因此|所以|而且|尽管|儘管|同时|同時|与此同时|與此同時|不过|不過|另外|此外|并且|並且|"
    "于是|於是|因而|总之|總之|可是|而|并|並|且|还有|還有|接着|接著|其次|最后|最後|另一方面|相反|反之|否则|否則"
)
PRONOUN_ZH = "他们|他們|她们|她們|它们|它們|他|她|它|这|這|此|该|該|其|那|后者|後者|前者"
DANGLING_ZH = re.compile(rf"^(?:{LINKING_ZH}|{PRONOUN_ZH})")

# What kind of memory a sentence holds. A mechanism needs a cause or a process; an example
# needs an example cue.
EXAMPLE_CUE = re.compile(
    r"\b(?:for example|for instance|such as|e\.g\.|as an example|to illustrate|consider the case|"
    r"an example|one example|examples include)\b"
    r"|例如|比如|譬如|举例|舉例|以.{1,12}为例|以.{1,12}為例|诸如|諸如|像是",
    re.I,
)
CAUSE_CUE = re.compile(
    r"\b(?:because|therefore|thus|hence|consequently|as a result|leads? to|led to|results? in|resulted in|"
    r"caus(?:e|es|ed|ing)|due to|so that|in order to|owing to|thanks to|since it|which (?:releases|produces|makes)|"
    r"triggers?|triggered|depends? on|enables?|allows?)\b"
    r"|因为|因為|所以|因此|导致|導致|使得|从而|從而|由于|由於|引起|造成|以便|进而|進而|取决于|取決於|原因|致使|以致",
    re.I,
)
PROCESS_CUE = re.compile(
    r"\b(?:by (?:\w+ing)|process(?:es)? (?:by|of|in)|converts?|transforms?|"
    r"is (?:formed|made|produced|built) (?:by|from|when)|works by|mechanism)\b"
    r"|通过|通過|过程|過程|步骤|步驟|转化|轉化|形成|机制|機制|先.{1,20}再",
    re.I,
)
FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|me|my|mine|myself)\b|我(?!们|們|国|國)")

# Time said relative to when the text was written ("last week", "on Tuesday", "去年"): a card read
# a month later cannot place it. Such a sentence is a poorer unit, and never its blank.
_DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
RELATIVE_TIME = re.compile(
    rf"\b(?:yesterday|today|tomorrow|tonight|recently|(?:this|last|next|earlier this|later this|past) "
    rf"(?:week|weekend|month|year|season|summer|winter|spring|autumn|fall|morning|afternoon|evening|night|{_DAY})|"
    rf"(?:on |last |next |this )?{_DAY}(?: (?:morning|afternoon|evening|night))?|"
    rf"(?:a|an|\w+|\d+|several|a few) (?:days?|weeks?|months?|years?|decades?) ago)\b"
    r"|昨天|今天|明天|今年|去年|明年|前年|上周|本周|下周|上週|本週|下週|上个月|上個月|本月|下个月|下個月|"
    r"日前|近日|昨日|今日|同年|当天|當天|次年|翌年|当年|當年|近年来|近年來",
    re.I,
)
