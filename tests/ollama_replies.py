"""Scripted model replies built from a real document, for the loopback Ollama server
(tests/ollama_server.py): grounded outputs whose quotes are the document's own sentences."""

from __future__ import annotations

import json
import re
from typing import Any

from ollama_server import Reply

from core.domain import NON_EVIDENCE_KINDS, SourceDocument
from core.validation.lexicon import ZH_STOP

_SENTENCE = re.compile(r".+?(?:[.!?](?=\s|$)|[。！？]|$)", re.S)


def first_sentence(text: str) -> str:
    m = _SENTENCE.match(text.strip())
    return (m.group(0) if m else text).strip()


def prose_ids(document: SourceDocument, ids: list[str] | None = None) -> list[str]:
    return [
        p.paragraph_id
        for p in document.paragraphs
        if p.kind not in NON_EVIDENCE_KINDS and (ids is None or p.paragraph_id in ids)
    ]


def _blank_term(sentence: str) -> str:
    """The longest word the sentence uses once (CJK: a two-character piece from its middle)."""
    if re.search(r"[\u3400-\u9fff]", sentence):
        run = max(re.findall(r"[\u3400-\u9fff]+", sentence), key=len)
        pairs = [run[i : i + 2] for i in range(len(run) - 1)]
        once = [
            p
            for p in pairs
            if sentence.count(p) == 1
            and p not in ZH_STOP
            and not set(p)
            & set(
                "的了是在和与與为為於于以之其这這那此个個们們中上下等将將会會能可还還又很更最再已也就都而及或但并並把被讓让對对"
            )
        ]
        return (once or pairs or [run])[len(once or pairs or [run]) // 2]
    words = re.findall(r"[A-Za-z]{4,}", sentence)
    once = [w for w in words if len(re.findall(rf"(?<!\w){w}(?!\w)", sentence, re.I)) == 1]
    return max(once or words or [sentence.split()[0]], key=len)


def _blanked(sentence: str, term: str) -> str:
    if re.search(r"[\u3400-\u9fff]", term):
        return sentence.replace(term, "____", 1)
    return re.sub(rf"(?<!\w){re.escape(term)}(?!\w)", "____", sentence, count=1)


def grounded_output(
    document: SourceDocument, ids: list[str] | None = None, *, limit: int = 6
) -> dict[str, Any]:
    """A valid reply: one unit per prose paragraph (first sentence quoted), one question each."""
    units, questions = [], []
    for pid in prose_ids(document, ids)[:limit]:
        paragraph = document.paragraph(pid)
        assert paragraph is not None
        quote = first_sentence(paragraph.text)
        term = _blank_term(quote)
        units.append(
            {
                "content": quote,
                "memory_type": "claim",
                "evidence": [{"paragraph_id": pid, "quote": quote}],
                "tags": ["test", "memory"],
                "confidence": 0.8,
            }
        )
        questions.append(
            {  # a cloze that keeps the card rules: one whole word, used once in the sentence
                "question": _blanked(quote, term),
                "expected_answer": term,
                "memory_unit_index": len(units) - 1,
                "kind": "cloze",
            }
        )
    ideas = (
        [
            {
                "idea": units[0]["content"],
                "why_it_matters": "it opens the article",
                "evidence": units[0]["evidence"],
                "salience_score": 0.9,
            }
        ]
        if units
        else []
    )
    return {
        "summary": "A test summary.",
        "core_ideas": ideas,
        "memory_units": units,
        "recall_questions": questions,
    }


def reply_json(data: Any, **kwargs: Any) -> Reply:
    return Reply(content=json.dumps(data, ensure_ascii=False), **kwargs)


def rivers_text(n: int = 40) -> str:
    """A Markdown article of `n` paragraphs of two random sentences about rivers (seeded)."""
    import random

    rng = random.Random(7)
    words = [
        "river",
        "delta",
        "sediment",
        "basalt",
        "glacier",
        "meander",
        "estuary",
        "silt",
        "flood",
        "plain",
        "canyon",
        "gorge",
        "tide",
        "lake",
        "moraine",
        "aquifer",
        "spring",
        "brook",
        "marsh",
        "fen",
        "bog",
        "lagoon",
        "reef",
        "dune",
        "cliff",
        "cave",
        "karst",
        "terrace",
        "levee",
    ]

    def sentence() -> str:
        return " ".join(rng.sample(words, 9)).capitalize() + "."

    paras = [f"{sentence()} {sentence()}" for _ in range(n)]
    return "# Rivers\n\n" + "\n\n".join(paras)
