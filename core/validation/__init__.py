"""The gate: every unit an extractor proposes passes here before it is stored or shown.

`evidence` proves every cited paragraph exists and every quote is really in it (the rule is
core.text.spans.quote_in_paragraph, which also tells the screen where the quote sits).
"""

from core.text.spans import quote_in_paragraph
from core.validation.evidence import Repeats, repeat_issue, validate, validate_raw

__all__ = ["Repeats", "quote_in_paragraph", "repeat_issue", "validate", "validate_raw"]
