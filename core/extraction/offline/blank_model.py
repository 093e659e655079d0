"""Which candidate a cloze blanks: a logistic model over general features, learned from people.

The weights in core/extraction/offline/blank_weights.py were fitted by
`python bench/train_blank_model.py --write` on the human answers of the dev QA sets in
../shared/eval (SQuAD, CMRC, DRCD): every candidate of a sentence that holds a human answer
is labelled by whether it matches one (token F1 >= 0.5), and the model learns which shapes
people ask about (numbers, dates, names, rare terms, the end of a sentence...). The script
prints the cross-validated hit rate by article; the data never enters the tree.

`pick` keeps only candidates that break no card rule (core/validation/cards.py): not a stop
word, not one of the article's top topic terms, not a term that appears again in the card.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from core.extraction.offline import english, facts, lists, names
from core.extraction.offline.blank_weights import BIAS, WEIGHTS
from core.extraction.offline.candidates import Candidate, DocCounts, en_candidates, zh_candidates
from core.extraction.offline.segment import zh_words
from core.text import normalize_for_match
from core.validation.cards import BLANK as BLANK_RE
from core.validation.cards import is_topic_answer, question_problems
from core.validation.lexicon import EN_STOP, EXAMPLE_CUE

BLANK = "____"
assert BLANK_RE.fullmatch(BLANK)


def score(features: Mapping[str, float], weights: Mapping[str, float] = WEIGHTS, bias: float = BIAS) -> float:
    z = bias + sum(weights.get(name, 0.0) * value for name, value in features.items())
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def candidates(content: str, lang: str, doc: DocCounts) -> list[Candidate]:
    """Every phrase a blank may cover: the noun phrases, words and numbers of candidates.py,
    and whole names (facts.py), each once."""
    if lang == "zh":
        found = zh_candidates(content, doc)
        found += names.zh_names(content, zh_words(content))
    else:
        found = en_candidates(content, doc)
        found += names.en_names(content)
    seen: dict[tuple[int, int], Candidate] = {}
    for cand in found:
        owner = re.search(r"['’]s$", cand.text)
        if owner and len(cand.text) > 3:  # "Schuller's crowning achievement": the name, not its 's
            cand = Candidate(cand.start, cand.end - 2, cand.text[:-2], cand.features)
        unit = re.match(r"\s?(?:%|％|per ?cent\b)", content[cand.end :])
        if unit and cand.text[-1:].isdigit():  # "40%": the number with its percent sign
            end = cand.end + unit.end()
            cand = Candidate(cand.start, end, content[cand.start : end], cand.features)
        key = (cand.start, cand.end)
        if key in seen:  # a name that is also a noun phrase: its features, marked a name
            seen[key] = Candidate(cand.start, cand.end, cand.text, {**seen[key].features, **cand.features})
        else:
            seen[key] = cand
    return list(seen.values())


def ordered(
    content: str, lang: str, doc: DocCounts, weights: Mapping[str, float] = WEIGHTS, bias: float = BIAS
) -> list[tuple[int, float, Candidate]]:
    """(tier, value, candidate) of every candidate a blank may cover, best first: the learned
    score with the bonus of the fact's tier (facts.py), then position."""
    compounds: tuple[tuple[int, int], ...] = ()
    if lang == "zh":
        words = zh_words(content)
        whole = [(c.start, c.end) for c in names.zh_names(content, words)]
        compounds = tuple(names.zh_compounds(words))
    else:
        tokens = english.tag(content)
        whole = names.name_spans(content, tokens) + names.named_terms(content, tokens)
    in_lists = lists.list_spans(content)
    rows = []
    for cand in candidates(content, lang, doc):
        level = facts.tier(content, cand, lang, whole, in_lists, compounds)
        if level < facts.NEVER:
            value = (
                score(cand.features, weights, bias) + facts.BONUS[level] + facts.adjust(content, cand, level)
            )
            rows.append((level, value, cand))
    return sorted(rows, key=lambda r: (-r[1], r[2].start))


def allowed(content: str, cand: Candidate, topics: frozenset[str]) -> bool:
    """A blank a reader accepts: passes the card rules, is no topic term, and the hidden term
    does not appear elsewhere in the card."""
    if is_topic_answer(cand.text, topics):
        return False
    if any(m.start() < cand.end and cand.start < m.end() for m in EXAMPLE_CUE.finditer(content)):
        return False  # "For ____, a sunflower ..." asks about the cue, not the idea
    if _name_tail(content, cand):
        return False
    rest = normalize_for_match(content[: cand.start] + " " + content[cand.end :])
    term = normalize_for_match(cand.text)
    if re.search(rf"(?<![^\W_]){re.escape(term)}(?![^\W_])", rest) or (
        not term.isascii() and term in rest.replace(" ", "")
    ):
        return False
    if _word_leaks(term, rest):
        return False
    return not question_problems(cloze_text(content, cand), cand.text, "cloze", content)


_NAME_HEAD = re.compile(r"(?<![^\W_])([A-Z][\w.'’-]*) $")


def _name_tail(content: str, cand: Candidate) -> bool:
    """The blank would start inside a name or a named term: a capitalized word that is no stop
    word stands right before it ("St. ____" -> "Johns River", "Kuznets ____" -> "curve",
    "Jean ____" -> "Ribault"). The whole name is a candidate of its own."""
    head = _NAME_HEAD.search(content, 0, cand.start)
    return head is not None and head.group(1).rstrip(".").lower() not in EN_STOP


def _word_leaks(term: str, rest: str) -> bool:
    """A word of the answer, or its stem, can be read in the rest of the card ("Aristotle"
    beside "Aristotelian", "Old Norse" beside "Norse religion"): the card gives it away."""
    for word in re.findall(r"[^\W\d_]{4,}", term):
        if word in EN_STOP or not word.isascii():
            continue
        stem = word[: max(5, len(word) - 3)] if len(word) > 6 else word
        if re.search(rf"(?<![^\W_]){re.escape(stem)}", rest):
            return True
    return False


def cloze_text(content: str, cand: Candidate) -> str:
    return content[: cand.start] + BLANK + content[cand.end :]


def pick(
    content: str,
    lang: str,
    doc: DocCounts,
    topics: frozenset[str],
    weights: Mapping[str, float] = WEIGHTS,
    bias: float = BIAS,
    avoid: tuple[int, int] | None = None,
) -> tuple[int, Candidate] | None:
    """The best allowed candidate (`ordered`) with its tier (facts.py); none overlapping the span
    `avoid` (what another question of the card already asks)."""
    for level, _, cand in ordered(content, lang, doc, weights, bias):
        if avoid is not None and cand.start < avoid[1] and avoid[0] < cand.end:
            continue
        if allowed(content, cand, topics):
            return level, cand
    return None


def ranked(content: str, lang: str, doc: DocCounts, topics: frozenset[str]) -> list[Candidate]:
    """Every allowed candidate, best first (the order `pick` prefers them in): the blanks a
    reader cycles through in Triage."""
    return [c for _, _, c in ordered(content, lang, doc) if allowed(content, c, topics)]


def best_tier(content: str, lang: str, doc: DocCounts, topics: frozenset[str]) -> int:
    """The tier of the best blank the content offers (facts.NEVER when none): how much of a
    fact the sentence holds to be asked."""
    for level, _, cand in ordered(content, lang, doc):
        if allowed(content, cand, topics):
            return level
    return facts.NEVER
