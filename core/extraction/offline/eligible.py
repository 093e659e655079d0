"""Ideas, not sentences: which paragraphs and sentences may become a unit at all.

Never a unit: code and doctests, headings (Markdown "#", RST "=====" underlines, a short line
with no sentence punctuation), tables, navigation and link lines, captions and credits, page
furniture (editor's notes, "scroll down", bylines, legal lines, condolences), first-person anecdotes, quoted chatter ('"..." he said'), questions, and pieces that do not
end like a sentence (a cut run of text, a line that introduces a list with ":"). Such
sentences still count for the article's statistics; they are only never proposed.
"""

from __future__ import annotations

import re

from core.extraction.offline import english
from core.extraction.offline.sentences import MAX_SENTENCE, MIN_SENTENCE
from core.text.cjk import HAN_RE
from core.text.titles import looks_like_title
from core.validation.cards import looks_like_code
from core.validation.lexicon import FIRST_PERSON
from core.validation.plain import render_plain, strip_furniture

# Structure typed as plain text: headings, fences, tables, front matter, HTML, RST directives.
_STRUCTURAL = re.compile(r"^(?:#{1,6}\s|```|~~~|\|.*\|\s*$|---|\+\+\+|<[a-zA-Z!/]|\.\. [a-z-]+::|:[a-z]+:\s)")
_UNDERLINE = re.compile(r"^\s*([=\-~^*#+`'\"])\1{2,}\s*$", re.M)
_LINK = re.compile(r"\[[^\]]*\]\([^)]*\)|https?://\S+|www\.\S+")
_NAV = re.compile(r"\s[|·•»›]\s|^(?:home|back|next|previous|contents|menu|skip to)\b", re.I)
_CAPTION = re.compile(
    r"^(?:photo|image|picture|figure|fig\.|table|source|credit|caption|video|watch|listen|pictured|"
    r"图|圖|表|来源|來源|摄影|攝影|圖片|图片)\s*\d*\s*[:：.]|^\(?(?:photo|image|credit)s?\b.*\)$",
    re.I,
)
_CHATTER = re.compile(
    r"^[\"“‘'「『]|[\"”’'」』],?\s+(?:he|she|they|it|we|[A-Z]\w+(?: [A-Z]\w+)?)\s+(?:said|says|told|added|asked|"
    r"explained|wrote|tweeted|continued|recalled)\b|(?:说|說|表示|称|稱|指出)[：:]\s*[“「]",
)
_END = re.compile(r"[.!。！；;…]['\"”’)）」』]*$")
# Page furniture a reader never keeps, wherever it stands in the sentence: notes to the reader,
# calls to action, credits and bylines, captions' stage directions, legal lines, condolences.
_FURNITURE = re.compile(
    r"^editor'?s note\b|\bscroll down\b|\bclick (?:here|the|to|on)\b|\be-?mail to a friend\b|"
    r"\bcontributed to this (?:report|story|article)\b|\ball rights reserved\b|©|\bcopyright\b|"
    r"^(?:watch|listen|read more|see also|related|more:|pictured)\b|\bfollow (?:us|@\w+|\w+ on (?:twitter|facebook|instagram))|"
    r"\(pictured\b|\bpictured (?:above|below|left|right|here|with|in|at|together|during|is|are|was|were)\b|"
    r"\((?:left|right|centre|center|top|bottom|above|below|inset|file)\)|\bgetty images\b|\b(?:ap|afp|reuters|pa) (?:photo|images)\b|"
    r"\bsubscribe\b|\bsign up (?:for|to)\b|\bshare (?:this|on)\b|\bthoughts and prayers\b|\bcondolences\b|"
    r"\brest in peace\b|\bdonations? (?:can|may) be\b|\bto donate\b|\bvisit (?:www\.|https?://|our )|"
    r"\breported from\b|\b(?:contributed|additional) reporting\b|^(?:foul|corner|substitution|offside|"
    r"attempt (?:saved|missed|blocked)|free kick|yellow card|red card|hand ball|delay in match)\b|"
    r"^(?:编者按|編者按)|点击|點擊|版权所有|版權所有|未经授权|未經授權|转载|轉載|责任编辑|責任編輯|图为|圖為|"
    r"图片来源|圖片來源|扫码|掃碼|关注我们|關注我們|本报讯|本報訊",
    re.I,
)


def paragraph_is_prose(text: str, kind: str, noun_kinds: frozenset[str]) -> bool:
    """A paragraph whose sentences may be units (`noun_kinds`: structure kinds, never prose)."""
    return paragraph_problem(text, kind, noun_kinds) is None


def paragraph_problem(text: str, kind: str, noun_kinds: frozenset[str]) -> str | None:
    """Why a paragraph is not prose ("code", "table", "heading", "contents", "navigation",
    "links", "markup"), or None
    when its sentences may be units (`noun_kinds`: structure kinds, never prose)."""
    stripped = text.strip()
    if kind in noun_kinds:
        return kind if kind in ("code", "table", "heading", "contents") else "markup"
    if not stripped or _UNDERLINE.search(text):
        return "heading"
    if _STRUCTURAL.match(stripped):
        return "table" if stripped.startswith("|") else "heading" if stripped.startswith("#") else "markup"
    if looks_like_code(stripped):
        return "code"
    if kind == "paragraph" and looks_like_title(stripped):  # a title or heading typed as plain text
        return "navigation" if _NAV.search(stripped) else "heading"  # "Home | News | Sport" is a menu
    plain = render_plain(stripped)
    links = sum(len(m.group(0)) for m in _LINK.finditer(stripped))
    if links > 0.4 * len(stripped):
        return "links"
    return "markup" if len(plain) < 0.5 * len(stripped) else None


def sentence_problem(text: str, lang: str, line_end: bool = False, cased: bool = False) -> str | None:
    """Why a sentence is never a unit, or None when it may be one. `line_end`: the text ends
    its line or paragraph, so a missing full stop is the writer's (a headline-like lead, a
    list item) and not a cut; such a sentence of six words or more may be a unit. `cased`: the
    text uses capitals, so a sentence opening on a lower-case common word was cut from another."""
    body = text.strip()
    limit = MAX_SENTENCE.get(lang, 320)
    if len(body) < MIN_SENTENCE.get(lang, 25) or len(body) > 2 * limit:
        return "length"
    if body.endswith(("?", "？")):
        return "question"
    ending = strip_furniture(render_plain(body))
    if ending.endswith((":", "：")) or not (_END.search(ending) or (line_end and _whole_line(ending))):
        return "not a sentence"
    if cased and _cut_start(body):
        return "not a sentence"
    if looks_like_code(body):
        return "code"
    if _NAV.search(body) or _CAPTION.match(body):
        return "navigation or caption"
    if _FURNITURE.search(body):
        return "page furniture"
    if FIRST_PERSON.search(_outside_quotes(body)):
        return "first-person anecdote"
    if _instruction(body):
        return "instruction or fragment"
    if _CHATTER.search(body) and _chatty(body):
        return "quoted chatter"
    if re.match(r"^['‘] \S|^['‘]\w", body) and not re.search(r"['’]\s*$", body[:3]):
        return "quoted chatter"  # a quote opened with a single mark (tokenized text: "' sir philip was ...")
    return None


_QUOTED = re.compile(r"[\"“]([^\"”]{2,})[\"”]?|「([^」]+)」?|『([^』]+)』?")
_SPEAKER = re.compile(r"\b(?:we|us|our|ours|you|your|yours)\b|我们|我們|你|您", re.I)


def _chatty(text: str) -> bool:
    """A quote that is talk rather than a statement of fact: first or second person, an
    exclamation, or a few words of reaction. A long factual quote (a ruling, a report) is kept."""
    quoted = " ".join(next(g for g in m.groups() if g) for m in _QUOTED.finditer(text)) or text
    if FIRST_PERSON.search(quoted) or _SPEAKER.search(quoted) or "!" in quoted or "！" in quoted:
        return True
    return len(quoted.split()) < 10 and not HAN_RE.search(quoted)


_ZH_INSTRUCTION = re.compile(r"^(?:请|請|点击|點擊|单击|單擊)")
_IDENTIFIER = re.compile(rf"^[A-Za-z_.][\w.-]*[._][\w.-]*\s+(?={HAN_RE.pattern})")
_PLEASE = re.compile(
    r"\bplease\b|\bwe recommend\b|[请請](?:回答|输入|輸入|选择|選擇|按|点击|點擊|确认|確認|参阅|參閱|注意|使用)",
    re.I,
)
_FIRST_WORD = re.compile(r"([^\W\d_][\w'’-]*)")
_NEGATION = re.compile(r"\b(?:not|no|never|without|except|unless|neither|nor)\b|不|没|沒|无|無|非|除", re.I)


def negated_lead_in(text: str) -> bool:
    """A line introducing a list ("pyenv does not:") that the list's items cannot leave behind."""
    body = text.strip()
    return body.endswith((":", "：")) and bool(_NEGATION.search(body))


_EXAMPLE_LEAD = re.compile(
    r"^(?:for (?:example|instance)|e\.g\.|as an example|now|first|next|then|finally),\s+", re.I
)


def _instruction(text: str) -> bool:
    """An imperative or a predicate without its subject ("Add the following lines ...",
    "Depend on Python itself.", "For example, consider ...", "请输入……"): how-to steps and
    cut list items, not ideas."""
    text = _IDENTIFIER.sub("", text)
    lead = _EXAMPLE_LEAD.match(text)
    if lead and text[lead.end() : lead.end() + 1].islower():
        text = text[lead.end()].upper() + text[lead.end() + 1 :]
    if _PLEASE.search(text):
        return True
    if HAN_RE.match(text):
        return bool(_ZH_INSTRUCTION.match(text))
    first = _FIRST_WORD.match(render_plain(text.lstrip("-*+• ")))
    if not first or not first.group(1)[:1].isupper():
        return False  # lower-cased text: no sentence start to read
    word = first.group(1).lower()
    entry = english.lexicon().get(word, {})
    return set(entry) == {"VERB"} and entry["VERB"] == word  # a bare verb opens it


def _cut_start(text: str) -> bool:
    """Opens on a lower-case dictionary word ("the lowest Tesco came in next"), not on a
    lower-case name ("pyenv lets you ...", "iPhone")."""
    first = _FIRST_WORD.match(text.lstrip("\"'“‘(（「"))
    if not first or not first.group(1)[:1].islower():
        return False
    word = first.group(1)
    return bool(english.lexicon().get(word)) or word in english.DETERMINERS or word in english.PREPOSITIONS


def _whole_line(text: str) -> bool:
    if HAN_RE.search(text):
        return len(text) >= 12 and text[-1] not in "，、,（(「“"
    return len(text.split()) >= 6 and text[:1].isupper() and text[-1].isalnum()


def _outside_quotes(text: str) -> str:
    return re.sub(r"[\"“][^\"”]*[\"”]|「[^」]*」|『[^』]*』", " ", text)
