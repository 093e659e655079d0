"""Search helpers that reach outside the index: the optional semantic order from an embedding model."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from core.storage.search import query as search_query

Embedder = Callable[[list[str]], list[list[float]]]
_vectors: dict[tuple[int, int], list[float]] = {}  # (id of the embedder, paragraph pk) -> vector
_down_until: dict[int, float] = {}  # id of the embedder -> monotonic time before which it is not tried
RETRY_AFTER_S = 60.0
MAX_VECTORS = 50_000


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def similarities(embed: Embedder, query: str, pool: list[int]) -> dict[int, float]:
    """Cosine similarity of each pool paragraph to the query; {} when embedding fails."""
    key = id(embed)
    if time.monotonic() < _down_until.get(key, 0.0):
        return {}
    if len(_vectors) > MAX_VECTORS:
        _vectors.clear()
    missing = [pk for pk in pool if (key, pk) not in _vectors]
    try:
        if missing:
            rows = search_query.paragraph_rows(missing)
            order = [pk for pk in missing if pk in rows]
            for pk, vec in zip(order, embed([rows[pk].text for pk in order]), strict=True):
                _vectors[(key, pk)] = vec
        (q_vec,) = embed([query])
    except Exception:  # any embedding fault: lexical only, silently, and no retry for a minute
        _down_until[key] = time.monotonic() + RETRY_AFTER_S
        return {}
    return {pk: _cosine(q_vec, _vectors[(key, pk)]) for pk in pool if (key, pk) in _vectors}


def ollama_embedder(host: str | None, model: str, timeout: float) -> Embedder:
    """An embedder over Ollama's /api/embed (the official client)."""
    import ollama

    client = ollama.Client(host=host or None, timeout=timeout)

    def embed(texts: list[str]) -> list[list[float]]:
        response = client.embed(model=model, input=texts)
        return [list(v) for v in response["embeddings"]]

    return embed
