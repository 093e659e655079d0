"""Negation, quantifiers and modality: does the claim say the same about the same word?

Negation works clause by clause: a cue's head found in the other side must sit in a negated
clause there too ("does not need light" vs "needs light" contradicts; "won't be affected by the
new policy" vs "the new policy will not affect" agrees, whatever the word order). A head the
other side never mentions says nothing (a dropped clause, a paraphrase).

Quantifiers compare the class of the cues on the same head ("some bacteria" / "all bacteria");
modality compares the strongest modal before the same verb ("may have" / "will have"), a verb
without one being a plain statement.
"""

from __future__ import annotations

from core.validation.claims import lexicon as L
from core.validation.claims.cues import Cue, Cues
from core.validation.claims.facts import Finding
from core.validation.claims.text import CJK_CHAR, Side


def occurrences(side: Side, key: str) -> list[int]:
    """Where a head occurs; a Chinese pair not found falls back to its first character."""
    found = side.occurrences(key)
    if not found and len(key) == 2 and CJK_CHAR.match(key):
        found = side.occurrences(key[0])
    return found


def _snippet(side: Side, cue: Cue) -> str:
    return side.text[cue.start : max(cue.end, cue.head_end)].strip()


def _word_at(side: Side, pos: int, key: str) -> str:
    if CJK_CHAR.match(key):
        return side.text[pos : pos + len(key)]
    return side.tokens[side.token_at(pos)].text


def negation(quote: Cues, claim: Cues) -> list[Finding]:
    out = []
    paired = _paired_negations(quote, claim) if quote.side.zh or claim.side.zh else set()
    for here, there, added, name in ((claim, quote, True, "claim"), (quote, claim, False, "quote")):
        for k, cue in enumerate(here.negations):
            if not cue.head or (name, k) in paired:
                continue
            found = occurrences(there.side, cue.head)
            if not found or any(negated_at(there, p, cue.head) for p in found):
                continue
            out.append(_negation(added, _snippet(here.side, cue), _word_at(there.side, found[0], cue.head)))
        out += [_negation(added, mine, theirs) for mine, theirs in _prefixed(here, there)]
    return _unique(out)


def negated_at(cues: Cues, pos: int, key: str) -> bool:
    """Is the word at pos negated? English: anywhere in its clause (relative clauses are clauses
    of their own). Chinese marks a relative clause only with 的 (从未真正理解的内容), so there the
    negation must stand just before the word or just after it (救不了)."""
    side = cues.side
    clause = side.clause_at(pos)
    if not side.zh:
        return clause in cues.negated_clauses
    end = pos + len(key)
    for cue in cues.negations:
        if cue.clause != clause:
            continue
        after = cue.start == end and side.text[cue.start : cue.end] == "不"  # 救不了: the verb's own 不
        if (cue.end <= pos and pos - cue.end <= 8) or after:
            return True
    return False


def _paired_negations(quote: Cues, claim: Cues) -> set[tuple[str, int]]:
    """Chinese negations of the two sides that negate the same words (the character pairs from the
    cue to its clause end overlap), paired one to one, best overlap first (then the same cue word,
    then a scope of the same size): 不得在园内喂食 and 禁止游客喂食 are one statement; 无法挽救从未理解
    的内容 has two negations where 能够挽救从未理解的内容 has one, and 从未 pairs with 从未."""
    qs = [_scope(quote.side, c) for c in quote.negations]
    cs = [_scope(claim.side, c) for c in claim.negations]
    ranked = sorted(
        (
            (
                -len(qs[i] & cs[j]),
                _cue_text(quote, a) != _cue_text(claim, b),
                abs(len(qs[i]) - len(cs[j])),
                i,
                j,
            )
            for i, a in enumerate(quote.negations)
            for j, b in enumerate(claim.negations)
        )
    )
    used: set[tuple[str, int]] = set()
    for overlap, _, _, i, j in ranked:
        if overlap and ("quote", i) not in used and ("claim", j) not in used:
            used.update((("quote", i), ("claim", j)))
    return used


def _cue_text(cues: Cues, cue: Cue) -> str:
    return cues.side.low[cue.start : cue.end]


def _scope(side: Side, cue: Cue) -> frozenset[str]:
    end = side.clause_spans[cue.clause][1]
    text = side.low[cue.end : end]
    return frozenset(
        text[i : i + 2]
        for i in range(len(text) - 1)
        if CJK_CHAR.match(text[i]) and CJK_CHAR.match(text[i + 1]) and not set(text[i : i + 2]) & _FUNCTION_ZH
    )


def _negation(added: bool, mine: str, theirs: str) -> Finding:
    if added:
        return Finding("negation", f"the claim negates the quote: '{mine}' vs '{theirs}'")
    return Finding("negation", f"the claim drops the quote's negation: '{mine}' vs '{theirs}'")


def _prefixed(here: Cues, there: Cues) -> list[tuple[str, str]]:
    """ "impossible" here where there says "possible" (outside a negated clause)."""
    found = []
    lows = {t.low: t for t in there.side.tokens if t.kind == "word"}
    for t in here.side.tokens:
        if t.kind != "word" or t.low in lows or t.low in L.NEG_PREFIX_FALSE:
            continue
        prefix = next((p for p in L.NEG_PREFIXES if t.low.startswith(p) and len(t.low) - len(p) >= 4), "")
        bare = lows.get(t.low[len(prefix) :]) if prefix else None
        if bare is not None and bare.clause not in there.negated_clauses:
            found.append((t.text, bare.text))
    return found


def quantifiers(quote: Cues, claim: Cues) -> list[Finding]:
    out = []
    for cue in claim.quantifiers:
        if not cue.head:
            continue
        rivals = [q for q in quote.quantifiers if _same_head(q.head, cue.head) or _same_verb(q, cue)]
        if rivals and not any(_compatible(q.label, cue.label, L.QUANT_COMPATIBLE) for q in rivals):
            theirs = _snippet(quote.side, rivals[0])
            out.append(
                Finding("quantifier", f"the quote says '{theirs}', the claim '{_snippet(claim.side, cue)}'")
            )
    return _unique(out)


def modality(quote: Cues, claim: Cues) -> list[Finding]:
    """English: the modal before the same verb. Chinese word order puts phrases between a modal
    and its verb (应该在安装更新之前备份), so there the strongest modal of the clauses sharing
    the cue clause's words is compared."""
    out = []
    for here, there, claim_first in ((claim, quote, True), (quote, claim, False)):
        for cue in here.modals:
            if here.side.zh:
                mine = _clause_modal(here, cue.clause)
                theirs = [_clause_modal(there, k) for k in _clauses_sharing(here.side, cue, there.side)]
                spot = ""
            elif cue.head and (found := occurrences(there.side, cue.head)):
                mine = modal_at(here, cue.head_end - 1)
                theirs = [modal_at(there, p) for p in found]
                spot = _word_at(there.side, found[0], cue.head)
            else:
                continue
            if not theirs or any(_compatible(mine[0], c, L.MODAL_COMPATIBLE) for c, _ in theirs):
                continue
            where = theirs[0][1]
            other = _snippet(there.side, where) if where else spot or "no modal"
            pair = (other, _snippet(here.side, mine[1] or cue))
            pair = pair if claim_first else (pair[1], pair[0])
            out.append(Finding("modality", f"the quote says '{pair[0]}', the claim '{pair[1]}'"))
    return _unique(out)


def _clause_modal(cues: Cues, clause: int) -> tuple[str, Cue | None]:
    best: tuple[str, Cue | None] = (L.FACT, None)
    for cue in cues.modals:
        if cue.clause == clause and L.MODAL_RANK[cue.label] > L.MODAL_RANK[best[0]]:
            best = (cue.label, cue)
    return best


def _clauses_sharing(side: Side, cue: Cue, other: Side) -> set[int]:
    """Clauses of the other side holding a character pair of the cue's clause after the cue."""
    end = side.clause_spans[cue.clause][1]
    pairs = {side.low[i : i + 2] for i in range(cue.end, end - 1)}
    pairs = {p for p in pairs if CJK_CHAR.match(p[0]) and CJK_CHAR.match(p[-1]) and not set(p) & _FUNCTION_ZH}
    return {other.clause_at(pos) for p in pairs for pos in other.occurrences(p)}


_FUNCTION_ZH = set("的了是在和与與也就都而及或把被对對于於为為以之其这這那此个個们們会會能可要")


def modal_at(cues: Cues, pos: int) -> tuple[str, Cue | None]:
    """The strongest modal cue before a position in its clause (nearby), else a plain statement."""
    side = cues.side
    clause = side.clause_at(pos)
    window = 10 if side.zh else 40
    best: tuple[str, Cue | None] = (L.FACT, None)
    for cue in cues.modals:
        nearby = cue.clause == clause and cue.start < pos and pos - cue.end <= window
        if nearby and L.MODAL_RANK[cue.label] > L.MODAL_RANK[best[0]]:
            best = (cue.label, cue)
    return best


def _compatible(a: str, b: str, pairs: frozenset[tuple[str, str]]) -> bool:
    return a == b or (a, b) in pairs


def _same_verb(a: Cue, b: Cue) -> bool:
    """Frequency adverbs around the same verb: "spreads mainly" / "rarely spreads"."""
    return bool((a.verb and a.verb in (b.head, b.verb)) or (b.verb and b.verb == a.head))


def _same_head(a: str, b: str) -> bool:
    if a == b:
        return True
    return bool(CJK_CHAR.match(a) and CJK_CHAR.match(b) and (a[0] == b[0] and (len(a) == 1 or len(b) == 1)))


def _unique(findings: list[Finding]) -> list[Finding]:
    seen: set[str] = set()
    out = []
    for f in findings:
        if f.message not in seen:
            seen.add(f.message)
            out.append(f)
    return out
