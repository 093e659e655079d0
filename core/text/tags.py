"""Tags as Anki keeps them and as a reader types them: one word each.

Anki splits a note's tags on spaces, so a tag of two words is two tags there; we write a space
inside a tag as an underscore ("Calvin cycle" -> "Calvin_cycle"), as Anki users do. The edit
form shows a unit's tags the same way and reads what is typed back by the same rule: tags are
separated by spaces or commas (，、 too: "例子 examples" is two tags), an underscore is a space
inside one, and a tag typed twice, in another case or plural, is kept once. One rule both ways,
so opening a unit and saving it keeps its tags as they were.
"""

from __future__ import annotations

import re

from core.text import sanitize

_SEPARATORS = re.compile(r"[\s,，、;；]+")
_SPACES = re.compile(r"\s+")


def tag_word(tag: str) -> str:
    """A tag as one word: safe to show, spaces as underscores ("Calvin cycle" -> "Calvin_cycle")."""
    return _SPACES.sub("_", sanitize(tag, single_line=True).strip())


def tag_line(tags: tuple[str, ...] | list[str]) -> str:
    """Tags as the edit form shows them: one word each, a space between."""
    return " ".join(w for w in (tag_word(t) for t in tags) if w)


def parse_tags(typed: str) -> tuple[str, ...]:
    """The tags of what a reader typed: split on spaces and commas, underscores back to spaces,
    each tag once (the first spelling of tags that differ only in case or a plural -s)."""
    out: list[str] = []
    seen: set[str] = set()
    for word in _SEPARATORS.split(typed):
        tag = " ".join(word.replace("_", " ").split())
        key = tag.casefold()
        key = key[:-1] if len(key) > 3 and key.endswith("s") and not key.endswith("ss") else key
        if tag and key not in seen:
            seen.add(key)
            out.append(tag)
    return tuple(out)
