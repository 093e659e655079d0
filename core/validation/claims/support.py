"""Support: how much of what the claim says can be found in the quote at all.

English: the claim's content words (Snowball stems; a shared five-letter start counts, so
"dehydration" finds "dehydrate"); Chinese: the claim's character pairs. Words standing in for
a quote pronoun (the referent the card writer put back) are not counted. Below the threshold
the claim is unsupported: a warning, never a contradiction. Below RELATED of it, the quote has
next to nothing of the claim: evidence that does not support the content at all (an error,
core/validation/consistency.py `unrelated`; issue 32).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.validation.claims.facts import Finding
from core.validation.claims.text import Side, cjk_bigrams, is_content

MIN_SUPPORT_EN = 0.5  # share of the claim's content words found in the quote
MIN_SUPPORT_ZH = 0.3  # share of the claim's CJK character pairs found in the quote
RELATED = 0.4  # of the threshold: a quote with less of the claim is not its evidence at all
_PREFIX = 5


def compare(quote: Side, claim: Side, referents: frozenset[int]) -> list[Finding]:
    found = found_share(quote, claim, referents)
    if found is None or found.share >= found.need:
        return []
    return [Finding("unsupported", f"the quote does not support '{' '.join(found.missing[:3])}'")]


@dataclass(frozen=True, slots=True)
class Share:
    share: float  # of the claim's content words (Chinese: character pairs) the quote has
    need: float  # the share below which the claim is unsupported
    missing: tuple[str, ...]  # what the quote lacks (words, else character pairs), in order


def found_share(quote: Side, claim: Side, referents: frozenset[int] = frozenset()) -> Share | None:
    """How much of the claim the quote has (None: the claim has no content word at all)."""
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
        return None
    found = len(words) - len(missing) + len(pairs) - len(lost_pairs)
    need = MIN_SUPPORT_ZH if len(pairs) > len(words) else MIN_SUPPORT_EN
    return Share(found / total, need, tuple(missing) if missing else tuple(lost_pairs))
