"""The versioned prompt, token estimates and paragraph windows.

The prompt lives in `prompts/<version>.md` (package data); its version goes into every artifact.
Long articles are cut into windows of whole paragraphs whose prompt fits the context budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from core.domain import NON_EVIDENCE_KINDS, SourceDocument, SourceParagraph
from core.text.cjk import HAN_RE

PROMPT_VERSION = "extract_v2"  # v2: the card rules of core/validation/cards.py spelled out
# Blocks never sent: they cannot be evidence and only eat context (headings are sent, marked).
SKIPPED_KINDS = frozenset(NON_EVIDENCE_KINDS - {"heading"})
CTX_STEP = 256  # num_ctx is rounded up to a multiple of this
MIN_CTX = 1024
MAX_CTX = 32768  # a single paragraph larger than this is still sent whole; Ollama truncates


@dataclass(frozen=True, slots=True)
class PromptTemplate:
    version: str
    system: str
    user: str


@cache
def load_prompt(version: str = PROMPT_VERSION) -> PromptTemplate:
    """Read `prompts/<version>.md`: an HTML-comment header, then <!-- system --> and <!-- user -->."""
    text = resources.files(__package__).joinpath("prompts", f"{version}.md").read_text(encoding="utf-8")
    _, _, rest = text.partition("<!-- system -->")
    system, _, user = rest.partition("<!-- user -->")
    if not system.strip() or not user.strip():
        raise ValueError(f"prompt {version} lacks a <!-- system --> or <!-- user --> section")
    return PromptTemplate(version, system.strip(), user.strip())


def estimate_tokens(text: str) -> int:
    """A cautious token count: one per CJK character, one per 3.5 other characters."""
    cjk = len(HAN_RE.findall(text))
    return cjk + int((len(text) - cjk) / 3.5) + 1


def paragraph_line(p: SourceParagraph) -> str:
    label = " (heading)" if p.kind == "heading" else ""
    return f"[{p.paragraph_id}]{label} {p.text}"


@dataclass(frozen=True, slots=True)
class Window:
    """A run of whole paragraphs sent in one request."""

    number: int  # 1-based
    paragraphs: tuple[SourceParagraph, ...]

    @property
    def evidence_ids(self) -> tuple[str, ...]:
        return tuple(p.paragraph_id for p in self.paragraphs if p.kind not in NON_EVIDENCE_KINDS)

    @property
    def span(self) -> str:
        first, last = self.paragraphs[0].paragraph_id, self.paragraphs[-1].paragraph_id
        return first if first == last else f"{first}–{last}"


def _language(document: SourceDocument) -> str:
    return "Chinese" if document.language == "zh" else "English"


def render_user(template: PromptTemplate, document: SourceDocument, window: Window) -> str:
    body = "\n\n".join(paragraph_line(p) for p in window.paragraphs)
    return template.user.replace("{{title}}", document.title).replace("{{paragraphs}}", body)


def render_system(template: PromptTemplate, document: SourceDocument, max_units: int) -> str:
    return template.system.replace("{{language}}", _language(document)).replace(
        "{{max_units}}", str(max_units)
    )


def units_for(window: Window) -> int:
    """How many units to ask for: about one per prose paragraph, 3 to 12."""
    return max(3, min(12, len(window.evidence_ids)))


def make_windows(
    document: SourceDocument, template: PromptTemplate, context_tokens: int, reply_tokens: int
) -> list[Window]:
    """Cut the sendable paragraphs into windows whose prompt + reply fit `context_tokens`."""
    overhead = (
        estimate_tokens(template.system)
        + estimate_tokens(template.user)
        + estimate_tokens(document.title)
        + 64
    )
    budget = max(256, context_tokens - reply_tokens - overhead)
    windows: list[list[SourceParagraph]] = []
    current: list[SourceParagraph] = []
    used = 0
    for p in document.paragraphs:
        if p.kind in SKIPPED_KINDS or not p.text.strip():
            continue
        cost = estimate_tokens(paragraph_line(p)) + 2
        if current and used + cost > budget:
            windows.append(current)
            current, used = [], 0
        current.append(p)
        used += cost
    if current:
        windows.append(current)
    # a window of headings only has nothing to cite: fold it into its neighbour
    merged: list[list[SourceParagraph]] = []
    for w in windows:
        if merged and all(p.kind == "heading" for p in merged[-1]):
            merged[-1].extend(w)
        else:
            merged.append(w)
    return [Window(i + 1, tuple(w)) for i, w in enumerate(merged) if any(p.kind != "heading" for p in w)]


def context_size(messages: Sequence[dict[str, str]], reply_tokens: int) -> int:
    """num_ctx for a request: the prompt plus the reply budget, rounded up, within bounds."""
    need = sum(estimate_tokens(m["content"]) + 8 for m in messages) + reply_tokens
    rounded = -(-need // CTX_STEP) * CTX_STEP
    return max(MIN_CTX, min(MAX_CTX, rounded))


def repair_message(issues: Sequence[str], advice: Sequence[str] = ()) -> str:
    """The repair round: the validator's errors (what is still wrong after it is dropped), and
    its warnings as advice (the card rules a reader would also want kept)."""
    listed = "\n".join(f"- {line}" for line in issues)
    advised = "\n".join(f"- {line}" for line in advice)
    tail = f"\n\nAlso improve these if you can (warnings):\n{advised}" if advice else ""
    return (
        "Your JSON has these problems:\n"
        f"{listed}{tail}\n\n"
        "Reply with the corrected complete JSON object only. Cite only the paragraph ids given "
        "above and copy each quote exactly from its paragraph. Leave out any unit you cannot ground; "
        "a question or unit that still breaks a rule is dropped."
    )
