"""Which candidate a cloze blanks: a logistic model over general features, learned from people.

The weights in core/extraction/offline/blank_weights.py were fitted by
`python bench/train_blank_model.py --write` on the human answers of the dev QA sets in
../shared/eval (SQuAD, CMRC, DRCD): every candidate of a sentence that holds a human answer
is labelled by whether it matches one (token F1 >= 0.5), and the model learns which shapes
people ask about (numbers, dates, names, rare terms, the end of a sentence...). The script
prints the cross-validated hit rate by article; the data never enters the tree.

`choose` keeps only candidates that break no card rule (core/validation/cards.py): not a stop
word, not one of the article's top topic terms, not a term that appears again in the card.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from core.extraction.offline.blank_weights import BIAS, WEIGHTS
from core.extraction.offline.candidates import Candidate, DocCounts, en_candidates, zh_candidates
from core.text import normalize_for_match
from core.validation.cards import BLANK as BLANK_RE
from core.validation.cards import is_topic_answer, question_problems
from core.validation.lexicon import EXAMPLE_CUE

BLANK = "____"
assert BLANK_RE.fullmatch(BLANK)


def score(features: Mapping[str, float], weights: Mapping[str, float] = WEIGHTS, bias: float = BIAS) -> float:
    z = bias + sum(weights.get(name, 0.0) * value for name, value in features.items())
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def candidates(content: str, lang: str, doc: DocCounts) -> list[Candidate]:
    return zh_candidates(content, doc) if lang == "zh" else en_candidates(content, doc)


def allowed(content: str, cand: Candidate, topics: frozenset[str]) -> bool:
    """A blank a reader accepts: passes the card rules, is no topic term, and the hidden term
    does not appear elsewhere in the card."""
    if is_topic_answer(cand.text, topics):
        return False
    if any(m.start() < cand.end and cand.start < m.end() for m in EXAMPLE_CUE.finditer(content)):
        return False  # "For ____, a sunflower ..." asks about the cue, not the idea
    rest = normalize_for_match(content[: cand.start] + " " + content[cand.end :])
    term = normalize_for_match(cand.text)
    if re.search(rf"(?<![^\W_]){re.escape(term)}(?![^\W_])", rest) or (
        not term.isascii() and term in rest.replace(" ", "")
    ):
        return False
    return not question_problems(cloze_text(content, cand), cand.text, "cloze", content)


def cloze_text(content: str, cand: Candidate) -> str:
    return content[: cand.start] + BLANK + content[cand.end :]


def choose(
    content: str,
    lang: str,
    doc: DocCounts,
    topics: frozenset[str],
    weights: Mapping[str, float] = WEIGHTS,
    bias: float = BIAS,
    avoid: tuple[int, int] | None = None,
) -> Candidate | None:
    """The best allowed candidate, ties broken by position (deterministic); none overlapping
    the span `avoid` (what another question of the card already asks)."""
    best: Candidate | None = None
    best_score = -1.0
    for cand in candidates(content, lang, doc):
        if avoid is not None and cand.start < avoid[1] and avoid[0] < cand.end:
            continue
        value = score(cand.features, weights, bias)
        if value > best_score and allowed(content, cand, topics):
            best, best_score = cand, value
    return best


def ranked(content: str, lang: str, doc: DocCounts, topics: frozenset[str]) -> list[Candidate]:
    """Every allowed candidate, best first (the order `choose` prefers them in: score, then
    position): the blanks a reader cycles through in Triage."""
    scored = [(score(c.features), c) for c in candidates(content, lang, doc)]
    best_first = sorted(scored, key=lambda pair: -pair[0])  # stable: ties keep their order
    return [c for _, c in best_first if allowed(content, c, topics)]
