"""A unit's words as a reader sees them: inline markup rendered to plain text, page furniture out.

`render_plain` turns Markdown (emphasis, code, links, images), reStructuredText roles and
literals, and HTML tags and entities into the text they display; `strip_furniture` removes what
a web page or a wiki wraps around prose ("(CNN)", "[citation needed]", "[note 2]", "scroll down
for video", "»"). The validator reports content that either would change; the offline
extractor writes content through both. The evidence quote is never rewritten.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

from core.text.cjk import HAN_RE

_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"!\[([^\]\n]*)\]\([^)\n]*\)"), r"\1"),  # ![alt](src)
    (re.compile(r"\[\^[^\]\s]{1,12}\]"), ""),  # footnote reference [^1]
    (re.compile(r"\[([^\]\n]+)\]\((?:[^()\s]|\([^)\s]*\))+(?:\s+\"[^\"]*\")?\)"), r"\1"),  # [text](url)
    (re.compile(r"\[([^\]\n]+)\]\[[^\]\n]*\]"), r"\1"),  # [text][ref]
    # RST roles: :meth:`~email.policy.Policy.fold` -> fold; :ref:`Title <target>` -> Title
    (re.compile(r":[a-zA-Z][\w.+-]*:`~(?:[^`<>]*\.)?([^`.<>]+)`"), r"\1"),
    (re.compile(r":[a-zA-Z][\w.+-]*:`([^`<>]+?)\s*<[^`>]+>`"), r"\1"),
    (re.compile(r":[a-zA-Z][\w.+-]*:`([^`]+)`"), r"\1"),
    (re.compile(r"`([^`<>\n]+?)\s*<[^`>\n]+>`__?"), r"\1"),  # `text <url>`_
    (re.compile(r"`([^`\n]+)`__?(?!\w)"), r"\1"),  # `text`_
    (re.compile(r"``([^`\n]+)``"), r"\1"),  # ``literal``
    (re.compile(r"<((?:https?|ftp|mailto):[^>\s]+)>"), r"\1"),  # <https://...>
    (re.compile(r"`([^`\n]+)`"), r"\1"),  # `code`
    # emphasis: the markers may touch CJK text ("**稳定性**是"), never a Latin word (snake_case, 2*3*4)
    (re.compile(r"(?<![A-Za-z0-9*])\*\*(?=\S)([^*\n]+?)(?<=\S)\*\*(?![A-Za-z0-9*])"), r"\1"),
    (re.compile(r"(?<![A-Za-z0-9_])__(?=\S)([^_\n]+?)(?<=\S)__(?![A-Za-z0-9_])"), r"\1"),
    (re.compile(r"(?<![A-Za-z0-9*])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![A-Za-z0-9*])"), r"\1"),
    (re.compile(r"(?<![A-Za-z0-9_])_(?=[^\s_])([^_\n]+?)(?<=[^\s_])_(?![A-Za-z0-9_])"), r"\1"),
    (re.compile(r"~~(?=\S)([^~\n]+?)(?<=\S)~~"), r"\1"),
    (re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?/?>"), ""),  # HTML tags
)
_ENTITY = re.compile(r"&(?:[a-zA-Z]{2,8}|#\d{2,6}|#x[0-9a-fA-F]{2,5});")

FURNITURE = re.compile(
    r"\s*\((?:CNN|AP|AFP|Reuters|UPI|BBC|PA|Xinhua|新华社|中新社)\)\s*(?:[-—–]{1,2}\s*)?"
    r"|\s*\[(?:citation needed|clarification needed|who\?|when\?|which\?|according to whom\?|"
    r"edit|update|note \d+|nb \d+|n \d+|\d{1,3}|[a-z]|disambiguation needed|dubious|verification needed|"
    r"needs update|失效链接|來源請求|来源请求|需要引用|\d{1,3}[a-z]?)\]"
    r"|\s*\((?:file (?:photo|image|picture)|pictured|photo:[^)]*)\)"
    r"|\s*(?:scroll down(?: for (?:video|more))?|click here(?: (?:for|to) [^.]*)?|read more|watch the video)[.:]?\s*"
    r"|\s*»\s*",
    re.I,
)
# "LONDON, England (CNN) -- " or "WASHINGTON (AP) — ": a dateline opening a story.
DATELINE = re.compile(
    r"^[A-Z][A-Z .,'-]{1,40}(?:,\s*[A-Z][\w .'-]{1,30})?\s*(?:\([A-Za-z]{2,10}\))?\s*(?:--|—|–)\s+"
)
_SPACES = re.compile(r"[ \t]{2,}")
_SPACE_BEFORE_PUNCT = re.compile(
    r"\s+([,.;:!?，。；：！？、）」』])|(?<=" + HAN_RE.pattern + r")\s+(?=" + HAN_RE.pattern + r")"
)


_MARKUP_HINT = re.compile(r"[*_`\[<&~]")
_FURNITURE_HINT = re.compile(r"[(\[»]|(?i:scroll|click|read more|watch)|^[A-Z]{2,}")


@lru_cache(maxsize=4096)
def render_plain(text: str) -> str:
    """The text inline markup displays (Markdown, RST roles and literals, HTML)."""
    if not _MARKUP_HINT.search(text):
        return text  # no markup character at all: the common case, one scan
    out = text
    for pattern, repl in _RULES:
        out = pattern.sub(repl, out)
    if _ENTITY.search(out):
        out = html.unescape(out)
    return out


@lru_cache(maxsize=4096)
def strip_furniture(text: str) -> str:
    """Remove page furniture and a leading dateline; spacing tidied where they stood."""
    if not _FURNITURE_HINT.search(text):
        return text.strip()
    out = DATELINE.sub("", text)
    out = FURNITURE.sub(" ", out)
    out = _SPACE_BEFORE_PUNCT.sub(lambda m: m.group(1) or "", _SPACES.sub(" ", out))
    return out.strip()


def has_markup(text: str) -> bool:
    return render_plain(text) != text


def has_furniture(text: str) -> bool:
    return bool(_FURNITURE_HINT.search(text)) and bool(FURNITURE.search(text) or DATELINE.match(text))
