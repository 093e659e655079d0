"""Recall questions for a unit: its cloze, and a Q&A only where the sentence's form gives one.

The cloze is the core card: the content with one blank on the candidate the blank model
(blank_model.py) ranks first among those the card rules allow. A Q&A question is written only
when the sentence has a form that names its subject, so it can be answered a month later:

* a definition of a real term: "What is X?" / "什么是X？" (answer: the defining phrase, short);
* a cause: "Why does X ...?" / "为什么……？", answered by the cause clause;
* a date: "When did X ...?"; Chinese numbers and dates are asked in place ("……分为几个阶段？",
  "……在哪一年……？").

Every question passes the validator's question rules (core/validation/cards.py) or is not
written; a unit with no Q&A form gets only its cloze. Traditional text gets Traditional words.
"""

from __future__ import annotations

import re

from core.domain import RecallQuestion
from core.extraction.offline import blank_model, clause, cues, english, facts
from core.extraction.offline.candidates import Candidate, DocCounts
from core.extraction.offline.segment import zh_words
from core.extraction.offline.standalone import subject_of
from core.text.chinese import fold_chinese
from core.text.cjk import HAN
from core.validation.cards import question_problems

_BECAUSE_EN = re.compile(r"^(?P<effect>[^,;]{12,}?),?\s+because\s+(?P<cause>[^;]{6,}?)[.!]?$", re.I)
_BECAUSE_FIRST_EN = re.compile(r"^Because\s+(?P<cause>[^,;]{6,}?),\s+(?P<effect>[^;]{8,}?)[.!]?$")
_BECAUSE_ZH = re.compile(
    r"^(?:因为|因為|由于|由於)(?P<cause>[^，,。]{2,30})[，,]\s*(?:所以|因此|才|便)?(?P<effect>[^。]{3,}?)[。！；]?$"
)
_EFFECT_ZH = re.compile(
    r"^(?P<effect>[^，,。]{4,})[，,]\s*(?:是)?(?:因为|因為)(?P<cause>[^。]{2,30}?)[。！；]?$"
)
_DATE_EN = re.compile(
    r"(?:^|,?\s+)(?P<pp>(?:[Ii]n|[Oo]n|[Bb]y|[Dd]uring)\s+(?P<date>(?:(?:January|February|March|April|May|June|July|"
    r"August|September|October|November|December)\s+(?:\d{1,2},?\s+)?)?(?:1[0-9]{3}|20[0-9]{2})))(?=[\s,.]|$)"
)
_TERM_COLON = re.compile(r"^(?P<term>[A-Z][\w'-]*(?: [\w'-]+){0,3}):\s+(?P<rest>[^:]{10,}?)[.!]?$")
_ZH_TERM_COLON = re.compile(rf"^(?P<term>[{HAN}A-Za-z0-9]{{2,10}})[：:](?P<rest>[^：:]{{4,30}}?)[。！]?$")
_ZH_CALLED = re.compile(
    r"(?P<verb>被称为|被稱為|称为|稱為|叫做|又称|又稱)(?P<term>[^，,。；、]{2,12})(?=[。；]$)"
)
_ZH_DIGITS = re.compile(r"^(?:[0-9０-９]+|[一二三四五六七八九十两兩百千万萬]+)")
_AUX = {
    "is",
    "are",
    "was",
    "were",
    "can",
    "could",
    "will",
    "would",
    "should",
    "may",
    "might",
    "must",
    "has",
    "have",
    "had",
}


def _zh_words(traditional: bool) -> dict[str, str]:
    if traditional:
        return {"what": "什麼是{}？", "why": "為什麼{}？", "year": "哪一年", "when": "什麼時候", "few": "幾"}
    return {"what": "什么是{}？", "why": "为什么{}？", "year": "哪一年", "when": "什么时候", "few": "几"}


def questions_for(
    unit_index: int,
    content: str,
    lang: str,
    traditional: bool,
    doc: DocCounts,
    topics: frozenset[str],
    asked: frozenset[str] = frozenset(),
) -> list[RecallQuestion]:
    """The unit's Q&A (when its form gives one) and its cloze, which never asks the same thing:
    the blank avoids the words the Q&A answer is made of. Beside a Q&A, a cloze only on a
    quantity or a name: a second card on a side phrase is one a reader deletes ("When was the
    University of Warsaw established?" then "the partitions of ____" -> "Poland" was).

    `asked`: the terms of the answers the article's other cards blank (topic_terms_of). The same
    answer is not asked again; when the sentence's best blank was asked already, the next one
    is taken only if it is a fact (a quantity, name or term), not a common phrase."""
    out: list[RecallQuestion] = []
    qa = qa_question(content, lang, traditional)
    span: tuple[int, int] | None = None
    if qa is not None:
        out.append(RecallQuestion(qa[0], qa[1], unit_index, "qa"))
        at = content.find(qa[1])
        span = (at, at + len(qa[1])) if at >= 0 else None
    found = fresh_blank(content, lang, doc, topics, asked, span)
    if found is not None and (qa is None or found[0] <= facts.NAME):
        blank = found[1]
        out.append(RecallQuestion(blank_model.cloze_text(content, blank), blank.text, unit_index, "cloze"))
    return out


def fresh_blank(
    content: str,
    lang: str,
    doc: DocCounts,
    topics: frozenset[str],
    asked: frozenset[str],
    avoid: tuple[int, int] | None = None,
) -> tuple[int, Candidate] | None:
    """The best blank (blank_model.pick) that the deck does not ask already; when the best was
    asked, the next best if it is a fact (tier TERM or better), else the best, asked again.
    (Blind rounds 4505 and 4606: a unit left without a cloze gave its place to a weaker
    sentence, 7 READY units out and 2 in; a side phrase in its place is a card readers delete.)"""
    found = blank_model.pick(content, lang, doc, topics | asked, avoid=avoid)
    if not asked or (found is not None and found[0] <= facts.TERM):
        return found
    first = blank_model.pick(content, lang, doc, topics, avoid=avoid)
    return found if found is not None and first is not None and first[1] == found[1] else first


def qa_question(content: str, lang: str, traditional: bool) -> tuple[str, str] | None:
    """The first Q&A form the sentence has that passes every question rule."""
    forms = _zh_forms(content, traditional) if lang == "zh" else _en_forms(content)
    for question, answer in forms:
        answer = answer.strip(" ,，;；.。")
        if answer and not question_problems(question, answer, "qa", content):
            return question, answer
    return None


def _en_forms(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    d = cues.definition(text)
    if d is not None and _real_term(d.term) and not _anaphoric(d.term) and not _restates(d.term, d.rest):
        verb = "are" if re.search(r"\bare\b", text[len(d.term) : len(d.term) + 6]) else "is"
        out.append((f"What {verb} {_lower_first(d.term)}?", _short(d.rest)))
    m = _TERM_COLON.match(text)
    if m and _real_term(m.group("term")):
        out.append((f"What is {_lower_first(m.group('term'))}?", m.group("rest")))
    m = _BECAUSE_EN.match(text) or _BECAUSE_FIRST_EN.match(text)
    if m:
        asked = _ask(m.group("effect"), subject_of(m.group("cause")))
        if asked:
            out.append((f"Why {asked}?", m.group("cause")))
    m = _DATE_EN.search(text)
    if m and m.start() <= _main_end(text):  # the date of the main clause, not of a side one
        rest = (text[: m.start()] + text[m.end() :]).strip(" ,")
        rest = rest[:1].upper() + rest[1:] if m.start() == 0 else rest
        main = rest[: _main_end(rest)].rstrip(" ,.!")
        asked = _ask(_main_clause(main), None)
        if asked:
            out.append((f"When {asked}?", m.group("date")))
    return [(q, a) for q, a in out if len(q.split()) <= MAX_QUESTION_WORDS]


MAX_QUESTION_WORDS = 20  # a longer question is a paragraph to reread, not a fact to recall


def _main_end(text: str) -> int:
    """Where the sentence's main clause ends: at its first side piece (a relative clause, a
    dash, a bracket, "including ...": clause.py's separators), or the end."""
    m = clause.SIDE_EN.search(text)
    return m.start() if m else len(text)


def _real_term(term: str) -> bool:
    tokens = english.tag(term)
    if not tokens or len(tokens) > 5 or tokens[0].pos in {"PRON", "NUM", "ADP", "CCONJ", "ADV"}:
        return False
    if tokens[0].text.lower() in {"a", "an"} or any(
        t.pos == "ADJ" and t.text.lower().endswith(("er", "est")) for t in tokens
    ):
        return False  # "A higher target means ...": a consequence, not a term's definition
    return tokens[-1].pos in {"NOUN", "PROPN"} and all(
        t.pos in {"NOUN", "PROPN", "ADJ", "DET", "NUM"} for t in tokens
    )


def _anaphoric(term: str) -> bool:
    """ "The seat", "the method": a common noun the text named before; asked alone, a month
    later nobody knows which."""
    tokens = english.tag(term)
    return len(tokens) == 2 and tokens[0].text.lower() in {"the", "this", "that"} and tokens[1].pos == "NOUN"


def _restates(term: str, answer: str) -> bool:
    """The answer says the term's own head again ("What is the integer factorization problem?"
    -> "the computational problem of ..."): half given away."""
    head = english.lemma(term.split()[-1].lower(), "NOUN")
    return head in {english.lemma(w.lower(), "NOUN") for w in re.findall(r"[A-Za-z]+", answer)}


_RELATIVE = re.compile(r"\b(?:which|that|who|whom|whose|where|when)\b")


def _short(rest: str) -> str:
    """The defining phrase, or its part before a comma when that part is a whole phrase (no
    relative clause left open); the whole rest otherwise (the length rule then decides)."""
    if len(rest.split()) <= 12:
        return rest
    head = re.split(r"[,;]", rest, maxsplit=1)[0]
    if 3 <= len(head.split()) <= 12 and not _RELATIVE.search(head):
        return head
    return rest


def _lower_first(text: str) -> str:
    tokens = english.tag(text)
    if (
        not tokens
        or tokens[0].pos == "PROPN"
        or not text[:1].isupper()
        or (tokens[0].text.isupper() and len(tokens[0].text) > 1)
    ):
        return text
    if text[1:2].islower() or tokens[0].pos in {"DET", "PRON", "ADP"}:
        return text[0].lower() + text[1:]
    return text


def _main_clause(clause: str) -> str:
    """The clause up to a second verb phrase ("... measured X and found that Y" -> "... measured X")."""
    tokens = english.tag(clause)
    seen_verb = False
    for k, t in enumerate(tokens):
        if t.pos in {"VERB", "AUX"}:
            seen_verb = True
        elif seen_verb and t.pos == "CCONJ" and k + 1 < len(tokens) and tokens[k + 1].pos in {"VERB", "AUX"}:
            return clause[: t.start].rstrip(" ,")
    return clause


def _ask(clause: str, referent: str | None) -> str | None:
    """'the curve becomes flatter' -> 'does the curve become flatter'; 'it is called X' ->
    'is <referent> called X'. None when the clause has no subject-verb start we can invert."""
    tokens = english.tag(clause)
    verb = next((k for k, t in enumerate(tokens) if t.pos in {"VERB", "AUX"}), None)
    if verb is None or verb == 0 or verb > 7:
        return None
    subject = clause[: tokens[verb].start].strip()
    if tokens[0].pos == "PRON":
        if not referent or tokens[0].text.lower() not in {"it", "they"}:
            return None
        subject = referent
    if any(t.pos in {"CCONJ"} for t in tokens[:verb]) or "," in subject:
        return None
    subject = _lower_first(subject)
    word = tokens[verb].text
    after = clause[tokens[verb].end :].strip()
    following = english.tag(after)[:1]
    if following and following[0].pos == "VERB" and following[0].text.lower().endswith("ed"):
        return None  # "Huguenot numbers peaked": the verb was read as the subject's noun
    if word.lower() in _AUX:
        return f"{word.lower()} {subject} {after}".strip()
    if tokens[verb].pos != "VERB":
        return None
    base = english.lemma(word.lower(), "VERB")
    if base == word.lower():
        do = "do"
    elif word.lower().endswith("s") and not word.lower().endswith("ss"):
        do = "does"
    else:
        do = "did"
    return f"{do} {subject} {base} {after}".strip()


def _zh_forms(text: str, traditional: bool) -> list[tuple[str, str]]:
    words = _zh_words(traditional)
    out: list[tuple[str, str]] = []
    called = _ZH_CALLED.search(text)
    if called:  # "第二个阶段称为卡尔文循环。" -> "第二个阶段称为什么？"
        wh = "什麼" if traditional else "什么"
        out.append((text[: called.start("term")] + wh + "？", called.group("term")))
    d = cues.definition(text)
    if d is not None and 2 <= len(d.term) <= 10 and not called and _zh_term(d.term):
        first = re.split(r"[，,；;]", d.rest)[0]
        if len(first) <= 12 or len(d.rest) <= 30:
            out.append((words["what"].format(d.term), first if len(first) <= 12 else d.rest))
    m = _ZH_TERM_COLON.match(text)
    if m:
        out.append((words["what"].format(m.group("term")), m.group("rest")))
    m = _BECAUSE_ZH.match(text) or _EFFECT_ZH.match(text)
    if m:
        effect = m.group("effect").strip("，, ")
        pieces = zh_words(effect)
        if pieces and pieces[0][1] in {"d", "v", "p", "a", "c"}:  # no subject: the cause's
            subject = subject_of(m.group("cause"))
            effect = subject + effect if subject else ""
        if effect and not re.match(r"[它他她这這此其]", effect):
            out.append((words["why"].format(effect), m.group("cause").strip()))
    asked = _zh_in_place(text, words)
    if asked:
        out.append(asked)
    return out


def _zh_term(term: str) -> bool:
    """A term a "什么是X？" can ask about: a nominal word or compound, not a generic word
    ("缺点") nor two things joined ("英国与德国")."""
    if fold_chinese(term) in facts.GENERIC_ZH or re.search(r"[与與和及或、，,]", term):
        return False
    pieces = zh_words(term)
    return bool(pieces) and pieces[0][1][:1] not in {"r", "m", "d", "p", "c", "u"}


def _zh_in_place(text: str, words: dict[str, str]) -> tuple[str, str] | None:
    """A number or a date asked where it stands: "光合作用分为两个阶段。" -> "光合作用分为几个阶段？".
    Only in a short sentence of one clause, and for a whole number (not "0.30")."""
    if not re.search(r"[。！]$", text) or len(text) > 36 or re.search(r"[，,；;：:]", text[:-1]):
        return None
    pieces = zh_words(text)
    for k, (word, tag, a, b) in enumerate(pieces):
        if tag not in {"m", "mq", "t"} or not _ZH_DIGITS.match(word) or "之" in word:
            continue
        if word.startswith("一") or text[a - 1 : a] in {
            "第",
            "下",
            "上",
            "每",
            "这",
            "這",
            "那",
            "前",
            "后",
            "後",
        }:
            continue
        end = b
        if k + 1 < len(pieces) and pieces[k + 1][1] == "q" and pieces[k + 1][2] == b:
            end = pieces[k + 1][3]
        answer = text[a:end]
        if re.search(r"[.,．]", answer) or text[end : end + 1].isdigit():
            continue  # a decimal or a number cut: asked in place it reads wrong
        tail = answer[len(_ZH_DIGITS.match(answer).group(0)) :]  # type: ignore[union-attr]
        if answer.endswith("年") and re.fullmatch(r"[0-9０-９]{3,4}年", answer):
            wh = words["year"]
        elif tail and not re.search(r"[年月日]", tail):
            wh = words["few"] + tail
        else:
            continue
        if a == 0:
            continue  # "1885年，……" asked in place reads badly: the cloze covers it
        return text[:a] + wh + text[end:-1] + "？", answer
    return None
