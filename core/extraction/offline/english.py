"""English words: tokens with character spans, a part of speech for each, lemmas, noun phrases.

The part of speech comes from a lexicon plus a few context rules, not a trained tagger:

* Lexicon: LemmInflect's word -> (part of speech, lemma) table (MIT licence; built from the
  NIH SPECIALIST Lexicon, 80,000 inflected forms; shipped inside its wheel, no download). We
  read the table file the wheel ships (0.1 s) rather than import the package (1 s: it builds
  its inflection tables and a neural OOV model we do not use); if the package is missing,
  suffix rules alone decide.
* Closed classes (determiners, prepositions, pronouns, auxiliaries, conjunctions) are listed
  here; numbers and number words are NUM; a capitalised word inside a sentence is PROPN.
* An ambiguous word ("light": noun, verb, adjective) takes NOUN after a determiner, an
  adjective or a preposition, VERB after "to", a modal or a pronoun subject, and otherwise the
  first of NOUN, VERB, ADJ, ADV it allows. A word the lexicon lacks ("ndarray") is a NOUN
  unless its suffix says otherwise (-ly, -ous, -ive, -ed ...).
"""

from __future__ import annotations

import gzip
import importlib.util
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# A word, or a number whole: "2,500" and "3,862" are one token (a blank never cuts one).
_WORD = re.compile(r"[^\W_](?:[^\W_]|['’.\-](?=[^\W_])|(?<=\d)[/:](?=\d)|(?<=\d),(?=\d{3}(?!\d)))*")
# Fixed phrases whose noun is no topic ("By default matplotlib ...": not "default matplotlib").
_IDIOMS = re.compile(
    r"\b(?:by (?:default|hand|far|design|now)|in (?:fact|general|particular|practice|turn|short|time|total|addition|"
    r"part|place|case)|at (?:least|most|first|last|once|all)|of course|for (?:instance|example|now)|on average)\b",
    re.I,
)
DETERMINERS = words(
    "a an the this that these those my your his her its our their some any no every each either neither "
    "another such what which whose all both many much few several"
)
PREPOSITIONS = words(
    "of in on at by for with from to into onto over under about above below between among through during "
    "before after since until against without within along across behind beyond toward towards upon via "
    "per than like near around despite except inside outside throughout amid amidst amongst unlike beside "
    "besides beneath underneath versus whilst"
)
PRONOUNS = words("i you he she it we they me him her us them who whom which that this these those one")
AUXILIARIES = words(
    "is are was were be been being am has have had having do does did will would shall should can could "
    "may might must"
)
CONJUNCTIONS = words(
    "and or but nor so yet if because although though while whereas unless when where whether"
)
NUMBER_WORDS = words(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred "
    "thousand million billion trillion dozen half first second third fourth fifth"
)
ADVERBS = words(
    "not never still also just only even very more most less least too quite rather already always often "
    "sometimes again ever almost nearly soon then there here now however thus hence instead usually out off"
)
ADJECTIVES = words("own same other such new old main key major minor")
MONTHS = words("january february march april may june july august september october november december")
_ADJ_SUFFIX = re.compile(r"(?:ous|ive|al|ic|able|ible|ful|less|ary|ish|ian)$")


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    start: int
    end: int
    pos: str  # NOUN PROPN NUM VERB AUX ADJ ADV DET ADP PRON CCONJ OTHER


@cache
def lexicon() -> dict[str, dict[str, str]]:
    """word -> {upos: first lemma} from LemmInflect's table; {} when the package is missing."""
    spec = importlib.util.find_spec("lemminflect")
    if spec is None or spec.origin is None:
        return {}
    path = Path(spec.origin).parent / "resources" / "lemma_lu.csv.gz"
    try:
        lines = gzip.decompress(path.read_bytes()).decode("utf-8").splitlines()
    except OSError:  # pragma: no cover - a damaged install: suffix rules alone
        return {}
    table: dict[str, dict[str, str]] = {}
    for line in lines:
        word, _, rest = line.partition(",")
        upos, _, lemmas = rest.partition(",")
        table.setdefault(word, {}).setdefault(upos.upper(), lemmas.split("/")[0])
    return table


def lemma(word: str, pos: str) -> str:
    """The dictionary form ("becomes" -> "become", "fell" -> "fall", "plants" -> "plant"); an
    unknown plural noun loses its -s ("chloroplasts" -> "chloroplast")."""
    entry = lexicon().get(word) or lexicon().get(word.lower()) or {}
    if (
        not entry
        and pos == "NOUN"
        and len(word) > 4
        and word.endswith("s")
        and not word.endswith(("ss", "us", "is"))
    ):
        return word[:-1]
    return entry.get(pos, word)


def tokenize(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(text)]


def tag(text: str) -> list[Token]:
    words = tokenize(text)
    idioms = [m.span() for m in _IDIOMS.finditer(text)]
    out: list[Token] = []
    prev = ""
    for i, (word, a, b) in enumerate(words):
        nxt = words[i + 1][0].lower() if i + 1 < len(words) else ""
        opens = nxt in DETERMINERS or nxt in PRONOUNS or nxt in PREPOSITIONS or nxt[:1].isdigit()
        pos = _pos(word, i == 0 or text[a - 2 : a].strip() in {".", ":", '"', "“"}, prev, opens)
        if pos == "NOUN" and "ADJ" in lexicon().get(word.lower(), {}) and "NOUN" in lexicon().get(nxt, {}):
            pos = "ADJ"  # "green plants", "multiple versions"
        if any(x <= a and b <= y for x, y in idioms):
            pos = "ADV"
        elif word.lower() == "due" and nxt == "to":
            pos = "ADP"  # "due to": "great attention due" is no noun phrase
        out.append(Token(word, a, b, pos))
        prev = pos if pos not in {"DET", "ADP"} else word.lower() + "|" + pos
    return out


def _pos(word: str, initial: bool, prev: str, before_object: bool = False) -> str:
    low = word.lower()
    if word[0].isdigit() or low in NUMBER_WORDS:
        return "NUM"
    if low.endswith(("n't", "n’t")):
        return "AUX"  # "didn't", "won't": never the end of a noun phrase ("suspect didn't")
    for name, words in (
        ("DET", DETERMINERS),
        ("ADP", PREPOSITIONS),
        ("AUX", AUXILIARIES),
        ("PRON", PRONOUNS),
        ("CCONJ", CONJUNCTIONS),
        ("ADV", ADVERBS),
        ("ADJ", ADJECTIVES),
    ):
        if low in words:
            return name
    entry = lexicon().get(low) or {}
    if word[0].isupper() and (not initial or not entry) and low not in MONTHS:
        return "PROPN"
    if word.isupper() and len(word) > 1:
        return "PROPN"
    if not entry:
        return _suffix_pos(low)
    options: list[str] = [p for p in ("NOUN", "VERB", "ADJ", "ADV") if p in entry] or ["AUX"]
    if len(options) == 1:
        return options[0]
    after = prev.split("|")[-1]
    if after in {"DET", "ADJ", "ADP", "NUM"} and "NOUN" in options:
        return "ADJ" if "ADJ" in options and low.endswith(("ed", "al", "ic", "ous")) else "NOUN"
    verb_slot = prev in {"to|ADP", "AUX", "PRON", "ADV"} or (
        after in {"NOUN", "PROPN"} and (low.endswith("s") or before_object)
    )
    if verb_slot and "VERB" in options:
        return "VERB"
    if low.endswith("ly") and "ADV" in options:
        return "ADV"
    if low.endswith(("er", "est")) and "ADJ" in options:
        return "ADJ"
    return options[0]


def _suffix_pos(low: str) -> str:
    if low.endswith("ly") and len(low) > 4:
        return "ADV"
    if _ADJ_SUFFIX.search(low) and len(low) > 5:
        return "ADJ"
    if low.endswith(("ed", "ing")) and len(low) > 5:
        return "VERB"
    return "NOUN"


NOMINAL = frozenset({"NOUN", "PROPN", "NUM"})


def _joins(text: str, left: Token, right: Token) -> bool:
    """Whether `right` continues the noun phrase `left` is in: only a space between them, and
    not a number running into a name ("In 1885 Hermann Ebbinghaus")."""
    if right.pos not in NOMINAL and right.pos != "ADJ":
        return False
    if text[left.end : right.start] not in {" ", "-"}:
        return False
    if left.pos == "NOUN" and right.pos == "PROPN" and left.text[:1].islower():
        return False  # "history John D. Rockefeller": a common noun ends before a name starts
    return not (left.pos == "NUM" and right.pos == "PROPN")


def noun_phrases(text: str, tokens: list[Token]) -> list[tuple[int, int]]:
    """Token index ranges [i, j) of maximal (ADJ|NOUN|PROPN|NUM)* ending in NOUN|PROPN|NUM."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        if tokens[i].pos in NOMINAL or tokens[i].pos == "ADJ":
            j = i + 1
            while j < len(tokens) and _joins(text, tokens[j - 1], tokens[j]):
                j += 1
            end = j
            while end > i and tokens[end - 1].pos == "ADJ":
                end -= 1
            if end > i:
                out.append((i, end))
            i = j
        else:
            i += 1
    return out
