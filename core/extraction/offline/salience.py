"""Which sentences to quote: salience, quote density and redundancy control.

Each sentence gets a score from general signals computed inside the document only:

* centrality - cosine between the sentence's IDF-weighted term set and the document centroid
  (how much it talks about what the whole text talks about; TextRank-like, but linear time);
* forward links - how much later text reuses its terms (IDF-weighted, log-damped): sentences
  that the rest of the text elaborates on come first (the directed-centrality idea of PacSum);
* density - the specific information per character: IDF mass of its terms plus names, numbers
  and dates, divided by its length (the same quote budget then carries more facts);
* position - a lead prior 1/(1+rank) over prose paragraphs (over sentences when the text is a
  single paragraph), and a bonus for a paragraph's first sentence (topic sentences);
* cues - a writer's own statement of the point ("we propose", "本文提出", "结果表明");
* length - fragments with fewer than two content terms and questions make poor memories.

Selection is maximal marginal relevance: the next unit maximises its score minus its
similarity to what is already chosen, with a penalty for re-using a paragraph, so units spread
over the text and never say the same thing twice.

Weights were set on the dev split of ../shared/eval (general signals only, no per-corpus
switch). Measured there: density, the lead prior and the topic-sentence bonus (first sentence
of each paragraph, worth as much as being the lead paragraph) carry most of the gain; quote compression
(dropping thin edge clauses) and clause-level candidates with greedy budgeted term coverage
were tried and did not beat whole sentences at the same character budget, so they are not here.
Neither did background word frequencies (wordfreq) in place of in-document IDF, similarity to
the opening paragraph, or stopping early when the next pick's score drops: the eval's baselines
get our budget, and every budget trades the ratio to lead against the ratio to TextRank
(`python bench/eval_extract_budget.py` prints that curve).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from core.extraction.offline.segment import MIN_SENTENCE, Sentence

# A writer's own statement of the point: "we propose / this paper shows / 本文提出 / 结果表明".
_THESIS = re.compile(
    r"\b(?:we|this (?:paper|work|study|article)|our (?:results|approach|method|findings))\s+(?:\w+\s+)?"
    r"(?:propose|present|introduce|show|develop|demonstrate|find|argue|describe|report)\w*"
    r"|in this (?:paper|work|study|article)|本文|本研究|我们提出|提出了|结果表明|結果表明|研究表明|研究發現|研究发现",
    re.I,
)

W_CENTRAL = 1.0
W_DENSITY = 1.2
W_POSITION = 1.5
W_TOPIC = 1.0
W_FORWARD = 1.0
W_THESIS = 0.3
MMR_LAMBDA = 0.3
SAME_PARAGRAPH_PENALTY = 0.25
MAX_CANDIDATES = 400
POS_DECAY = 1.0


@dataclass(frozen=True, slots=True)
class Scored:
    sentence: Sentence
    score: float  # in [0, 1] after normalisation
    order: int  # document order of the sentence


def idf_table(sentences: list[Sentence]) -> dict[str, float]:
    df: Counter[str] = Counter()
    for s in sentences:
        df.update(set(s.terms))
    n = len(sentences)
    return {t: math.log(1.0 + n / c) for t, c in df.items()}


def score_sentences(
    sentences: list[Sentence], idf: dict[str, float], paragraphs: int, first: int = 0
) -> list[Scored]:
    """Scores of `sentences` (a whole document, or one part of it whose first sentence is
    the document's `first`: its orders count from there, its lead is its own first paragraph)."""
    if not sentences:
        return []
    base = sentences[0].para_rank
    centroid: dict[str, float] = {}
    for s in sentences:
        for t in dict.fromkeys(s.terms):
            centroid[t] = centroid.get(t, 0.0) + idf[t]
    c_norm = math.sqrt(sum(v * v for v in centroid.values())) or 1.0
    later: Counter[str] = Counter()  # term -> sentences after the current one that use it
    for s in sentences:
        later.update(set(s.terms))
    raw: list[tuple[float, float, float]] = []
    forward: list[float] = []
    for s in sentences:
        terms = list(dict.fromkeys(s.terms))  # ordered: float sums stay bit-identical
        later.subtract(terms)
        forward.append(sum(idf[t] * math.log1p(later[t]) for t in terms) / math.sqrt(len(terms) + 1))
        dot = sum(idf[t] * centroid.get(t, 0.0) for t in terms)
        s_norm = math.sqrt(sum(idf[t] ** 2 for t in terms)) or 1.0
        central = dot / (s_norm * c_norm)
        info = sum(idf[t] for t in terms) + 1.5 * s.entities
        density = info / max(len(s.text), 1)
        rank = s.para_rank - base if paragraphs > 1 else s.index
        pos = 1.0 / (1.0 + rank) ** POS_DECAY
        raw.append((central, density, pos))
    c_max = max(r[0] for r in raw) or 1.0
    d_max = max(r[1] for r in raw) or 1.0
    f_max = max(forward) or 1.0
    scored: list[Scored] = []
    for order, (s, (central, density, pos)) in enumerate(zip(sentences, raw, strict=True), first):
        value = W_CENTRAL * central / c_max + W_DENSITY * density / d_max + W_POSITION * pos
        value += W_FORWARD * forward[order - first] / f_max
        if s.index == 0:
            value += W_TOPIC
        if _THESIS.search(s.text):
            value += W_THESIS
        value *= _length_factor(s)
        scored.append(Scored(s, value, order))
    top = max(x.score for x in scored) or 1.0
    return [Scored(x.sentence, max(0.0, x.score / top), x.order) for x in scored]


def _length_factor(s: Sentence) -> float:
    n = len(s.text)
    low = MIN_SENTENCE.get(s.lang, 25)
    if len(s.terms) < 2:
        return 0.2
    if n < low:
        return 0.5
    if s.text.rstrip().endswith(("?", "？")):
        return 0.6  # a question in the text asks; it does not tell: a poor memory
    return 1.0


def select(scored: list[Scored], k: int) -> list[Scored]:
    """Maximal marginal relevance over the best candidates, in the order they were picked."""
    if k <= 0 or not scored:
        return []
    pool = sorted(scored, key=lambda x: (-x.score, x.order))[:MAX_CANDIDATES]
    bags = {x.order: set(x.sentence.terms) for x in pool}
    chosen: list[Scored] = []
    used_paragraphs: Counter[str] = Counter()
    closest = dict.fromkeys(bags, 0.0)  # each candidate's highest similarity to what is chosen
    while pool and len(chosen) < k:
        best: Scored | None = None
        best_value = -math.inf
        for x in pool:
            value = (1 - MMR_LAMBDA) * x.score - MMR_LAMBDA * closest[x.order]
            value -= SAME_PARAGRAPH_PENALTY * used_paragraphs[x.sentence.paragraph_id]
            if value > best_value:
                best, best_value = x, value
        assert best is not None
        chosen.append(best)
        used_paragraphs[best.sentence.paragraph_id] += 1
        pool = [x for x in pool if x.order != best.order]
        for x in pool:  # kept up to date with the new choice only: linear in the pool per pick
            closest[x.order] = max(closest[x.order], _overlap(bags[x.order], bags[best.order]))
    return chosen


def _overlap(a: set[str], b: set[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / math.sqrt(len(a) * len(b))
