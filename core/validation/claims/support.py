"""Support: how much of what the claim says can be found in the quote at all.

English: the claim's content words (Snowball stems; a shared five-letter start counts, so
"dehydration" finds "dehydrate"); Chinese: the claim's character pairs. Words standing in for
a quote pronoun (the referent the card writer put back) are not counted. Below the threshold
the claim is unsupported: a warning, never a contradiction.
"""

from __future__ import annotations

from core.validation.claims.facts import Finding
from core.validation.claims.text import Side, cjk_bigrams, is_content

MIN_SUPPORT_EN = 0.5  # share of the claim's content words found in the quote
MIN_SUPPORT_ZH = 0.3  # share of the claim's CJK character pairs found in the quote
_PREFIX = 5


def compare(quote: Side, claim: Side, referents: frozenset[int]) -> list[Finding]:
    kept = tuple(t for k, t in enumerate(claim.tokens) if k not in referents)
    words = [t for t in kept if t.kind == "word" and is_content(t)]
    pairs = cjk_bigrams(kept)
    stems = quote.stems
    prefixes = {s[:_PREFIX] for s in stems if len(s) >= _PREFIX}
    missing = [
        t.text
        for t in words
        if t.key not in stems and not (len(t.key) >= _PREFIX and t.key[:_PREFIX] in prefixes)
    ]
    lost_pairs = [p for p in pairs if p not in quote.bigrams]
    total = len(words) + len(pairs)
    if not total:
        return []
    found_words = len(words) - len(missing)
    found_pairs = len(pairs) - len(lost_pairs)
    need = MIN_SUPPORT_ZH if len(pairs) > len(words) else MIN_SUPPORT_EN
    if (found_words + found_pairs) / total >= need:
        return []
    shown = missing[:3] if missing else lost_pairs[:3]
    return [Finding("unsupported", f"the quote does not support '{' '.join(shown)}'")]
