"""The card rules: what makes a recall question or a memory unit worth reviewing.

Each rule is a named check with a code in the ValidationReport, shared by every extractor
(the offline one never ships an error; the Ollama one gets the list in its repair round and
what still breaks an error is dropped). A reader's own edits get the same checks as warnings:
their card is theirs to keep.

Questions (error unless marked):
  template_question    points at "the text" / 文中 instead of naming its subject
  answer_is_sentence   the answer is most of the unit (>= 70% of its tokens)
  answer_too_long      over 15 words, or over 30 characters of Chinese
  answer_in_question   the answer can be read in the question
  stopword_answer      the answer is only stop words or punctuation
  cloze_blanks         a cloze without exactly one blank
  cloze_broken_word    a blank starts or ends inside a word ("nd____")
  cloze_topic_term     (warning) the blank is one of the article's three most frequent terms
Units (warning unless marked):
  code_unit            (error) code, a doctest or a shell session, not an idea
  dangling_opening     opens on a pronoun or linking word that needs the sentence before
  inline_markup        Markdown, RST or HTML markup left in the content
  page_furniture       "(CNN)", "[citation needed]", "scroll down for video" ...
  not_a_sentence       the content does not end like a sentence
  type_without_cue     a mechanism with no cause or process, an example with no example cue
  tag_count            more than 5 tags (tags group an article's cards: one is enough)
  tag_variant          two tags differ only in case or plural
  tag_word_piece       a tag that occurs in the unit only inside a longer word
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Literal

from core.domain import ValidationIssue
from core.text import normalize_for_match, squash
from core.text.cjk import HAN, HAN_RE, KANA
from core.validation import lexicon
from core.validation.access import as_list, get_field
from core.validation.plain import has_furniture, has_markup

Severity = Literal["error", "warning"]
CARD_CODES = frozenset(
    [
        "template_question",
        "answer_is_sentence",
        "answer_too_long",
        "answer_in_question",
        "stopword_answer",
        "cloze_blanks",
        "cloze_broken_word",
        "cloze_topic_term",
        "code_unit",
        "dangling_opening",
        "inline_markup",
        "page_furniture",
        "not_a_sentence",
        "type_without_cue",
        "tag_count",
        "tag_variant",
        "tag_word_piece",
    ]
)
BLANK = re.compile(r"_{3,}|＿{2,}")
MAX_ANSWER_WORDS = 15
MAX_ANSWER_CJK = 30
WHOLE_SHARE = 0.7
_TOKEN = re.compile(rf"{HAN_RE.pattern}|[^\W_]+")
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*|\d+")
_SENTENCE_END = re.compile(r"[.!?。！？；;…]['\"”’)）」』]*\s*$")
_CODE_LINE = re.compile(r"^\s*(?:>>>|\.\.\. |\$ |In \[\d+\]:|def |class |import |from \S+ import )")
_CODE_CHARS = re.compile(r"[{};=<>]|::|->|\+=|[^\W\d]\(")  # brackets alone are prose too


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(normalize_for_match(text))


def content_tokens(text: str) -> list[str]:
    return [t for t in tokens(text) if t not in lexicon.EN_STOP and t not in lexicon.ZH_STOP]


def answer_too_long(answer: str) -> bool:
    if HAN_RE.search(answer):
        return len(squash(answer)) > MAX_ANSWER_CJK
    return len(_WORD.findall(answer)) > MAX_ANSWER_WORDS


def blank_broken(question: str) -> bool:
    for m in BLANK.finditer(question):
        before = question[m.start() - 1] if m.start() else " "
        after = question[m.end()] if m.end() < len(question) else " "
        if any(ch.isalnum() and not HAN_RE.match(ch) for ch in (before, after)):
            return True
    return False


def looks_like_code(text: str) -> bool:
    if any(_CODE_LINE.match(line) for line in text.splitlines()):
        return True
    if re.match(r"\s*#\S", text) or len(re.findall(r"(?:^|\s)#\s", text)) >= 2:
        return True  # shell or config comments
    dense = re.sub(r"\s", "", text)
    return len(_CODE_CHARS.findall(text)) >= 4 and len(_CODE_CHARS.findall(text)) >= 0.08 * len(dense)


def topic_terms(paragraph_texts: Iterable[str], n: int = 3) -> frozenset[str]:
    """The article's `n` most frequent content terms: English words, Chinese character pairs."""
    return _topic_terms(tuple(paragraph_texts), n)


@lru_cache(maxsize=8)  # the extractor and its gate ask about the same article
def _topic_terms(paragraph_texts: tuple[str, ...], n: int) -> frozenset[str]:
    freq: Counter[str] = Counter()
    for text in paragraph_texts:
        norm = normalize_for_match(text)
        freq.update(w for w in _WORD.findall(norm) if w not in lexicon.EN_STOP and not HAN_RE.match(w))
        run = "".join(HAN_RE.findall(norm))
        freq.update(run[j : j + 2] for j in range(len(run) - 1))
    return frozenset(w for w, _ in freq.most_common(n))


def is_topic_answer(answer: str, topics: frozenset[str]) -> bool:
    flat = squash(answer)
    if flat in topics:  # an answer the deck asks already (topic_terms_of)
        return True
    if HAN_RE.search(flat):
        pairs = {flat[j : j + 2] for j in range(len(flat) - 1)}
        return bool(pairs) and len(flat) <= 4 and pairs <= topics
    words = [w for w in _WORD.findall(normalize_for_match(answer)) if w not in lexicon.EN_STOP]
    if not words or len(words) > 4:
        return False
    # the deck's subject in a few more words ("computational complexity theory" in a deck
    # about complexity theory): two thirds of its words are the article's topic terms
    return (
        sum(w in topics for w in words) >= max(len(words), 2) * 2 / 3
        if len(words) > 2
        else all(w in topics for w in words)
    )


def topic_terms_of(answer: str) -> frozenset[str]:
    """The terms `is_topic_answer` reads in an answer (its words but stop words, or a Chinese
    answer's character pairs) and the answer itself, squashed: added to the topics, they keep
    the same answer (or one made of its words) from being asked again in the article's deck."""
    flat = squash(answer)
    if HAN_RE.search(flat):
        return frozenset(flat[j : j + 2] for j in range(len(flat) - 1)) | {flat}
    return frozenset(w for w in _WORD.findall(normalize_for_match(answer)) if w not in lexicon.EN_STOP) | {
        flat
    }


def question_problems(question: str, answer: str, kind: str, unit_text: str) -> list[tuple[str, str]]:
    """(code, message) for every question rule the card breaks (topic terms aside)."""
    found: list[tuple[str, str]] = []
    if lexicon.CONTEXT_REFERENCE.search(question):
        found.append(("template_question", "points at the text instead of naming its subject"))
    unit_tokens, answer_tokens = tokens(unit_text), tokens(answer)
    if unit_tokens and len(answer_tokens) >= WHOLE_SHARE * len(unit_tokens):
        found.append(("answer_is_sentence", "the answer is most of the unit: nothing is left to recall"))
    if answer_too_long(answer):
        found.append(("answer_too_long", "the answer is longer than 15 words / 30 characters"))
    flat = squash(answer)
    if flat and flat in squash(BLANK.sub(" ", question)):
        found.append(("answer_in_question", "the answer can be read in the question"))
    if answer.strip() and (not content_tokens(answer) or flat in lexicon.ZH_STOP):
        found.append(("stopword_answer", "the answer is only stop words"))
    if kind == "cloze":
        blanks = len(BLANK.findall(question))
        if blanks != 1:
            found.append(("cloze_blanks", f"a cloze needs exactly one blank, this one has {blanks}"))
        elif blank_broken(question):
            found.append(("cloze_broken_word", "the blank cuts a word apart"))
    return found


def unit_problems(content: str, memory_type: Any, quotes: str, tags: Any) -> list[tuple[str, str, Severity]]:
    """(code, message, severity) for every unit rule the card breaks."""
    found: list[tuple[str, str, Severity]] = []
    body = content.strip()
    first = body.lstrip("\"'“‘(（「『")
    if looks_like_code(body):
        found.append(("code_unit", "is code, not an idea to remember", "error"))
    if lexicon.DANGLING_EN.match(first) or lexicon.DANGLING_ZH.match(first):
        found.append(("dangling_opening", "opens on a word that needs the sentence before it", "warning"))
    if has_markup(body):
        found.append(("inline_markup", "keeps inline markup (Markdown, RST or HTML)", "warning"))
    if has_furniture(body):
        found.append(
            ("page_furniture", "keeps page furniture (a credit, a note mark, a link line)", "warning")
        )
    if body and not _SENTENCE_END.search(body):
        found.append(("not_a_sentence", "does not end like a sentence", "warning"))
    both = f"{body} {quotes}"
    if memory_type == "mechanism" and not (
        lexicon.CAUSE_CUE.search(both) or lexicon.PROCESS_CUE.search(both)
    ):
        found.append(("type_without_cue", "is typed mechanism but states no cause or process", "warning"))
    if memory_type == "example" and not lexicon.EXAMPLE_CUE.search(both):
        found.append(("type_without_cue", "is typed example but gives no example cue", "warning"))
    found.extend((code, msg, "warning") for code, msg in tag_problems(as_list(tags), both))
    return found


# A letter (or digit) that continues a spaced-script word: Han and kana written against a Latin
# tag ("PlayStation平台") are the next word of the sentence, not more of the tag's.
_GOES_ON = f"(?:(?![{HAN}{KANA}])[^\\W_])"
_ENDING = f"(?:(?![{HAN}{KANA}])[^\\W\\d_])"  # an inflection: "arrays", "subclassed"


def tag_problems(tags: Iterable[Any], text: str) -> list[tuple[str, str]]:
    names = [t.strip() for t in tags if isinstance(t, str) and t.strip()]
    found: list[tuple[str, str]] = []
    if len(names) > 5:
        found.append(("tag_count", f"has {len(names)} tags; at most 5 name the article's topics it is about"))
    keys = [_tag_key(t) for t in names]
    if len(set(keys)) < len(keys):
        found.append(("tag_variant", "two tags differ only in case or plural"))
    low = normalize_for_match(text)
    for tag in names:
        t = normalize_for_match(tag)
        if HAN_RE.search(t) or t not in low:
            continue
        if not re.search(rf"(?<!{_GOES_ON}){re.escape(t)}{_ENDING}{{0,3}}(?!{_GOES_ON})", low):
            found.append(("tag_word_piece", f"tag {tag!r} is only part of a longer word here"))
            break
    return found


def _tag_key(tag: str) -> str:
    key = normalize_for_match(tag)
    return key[:-1] if len(key) > 3 and key.endswith("s") and not key.endswith("ss") else key


def card_issues(
    output: Any,
    paragraphs: Mapping[str, tuple[str, str]],
    *,
    authored: bool = False,
    topics: frozenset[str] | None = None,
) -> list[ValidationIssue]:
    """Every card rule the output breaks; `authored` (a reader's own edit) makes all warnings.
    `topics`: the article's topic terms (topic_terms of all its paragraphs) when `paragraphs`
    are only the ones its cards cite."""
    issues: list[ValidationIssue] = []

    def add(code: str, message: str, where: str, severity: Severity = "error") -> None:
        issues.append(ValidationIssue(code, message, where, "warning" if authored else severity))

    units = list(as_list(get_field(output, "memory_units")))
    texts: list[str] = []
    for i, unit in enumerate(units):
        content = get_field(unit, "content")
        quotes = " ".join(
            q
            for q in (get_field(e, "quote") for e in as_list(get_field(unit, "evidence")))
            if isinstance(q, str)
        )
        text = content if isinstance(content, str) else ""
        texts.append(quotes or text)
        if text.strip():
            for code, message, severity in unit_problems(
                text, get_field(unit, "memory_type"), quotes, get_field(unit, "tags")
            ):
                add(code, message, f"memory_units[{i}]", severity)
    if topics is None:
        topics = topic_terms(text for text, _ in paragraphs.values())
    for k, q in enumerate(as_list(get_field(output, "recall_questions"))):
        question, answer = get_field(q, "question"), get_field(q, "expected_answer")
        index, kind = get_field(q, "memory_unit_index"), get_field(q, "kind")
        if not isinstance(question, str) or not isinstance(answer, str) or not answer.strip():
            continue
        unit_text = texts[index] if isinstance(index, int) and 0 <= index < len(texts) else ""
        where = f"recall_questions[{k}]"
        for code, message in question_problems(question, answer, str(kind), unit_text):
            add(code, message, where)
        if kind == "cloze" and is_topic_answer(answer, topics):
            add(
                "cloze_topic_term",
                "the blank is one of the article's most frequent terms: guessed, not recalled",
                where,
                "warning",
            )
    return issues
