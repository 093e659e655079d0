"""The gate: every unit an extractor proposes passes here before it is stored or shown.

`evidence` proves every cited paragraph exists and every quote is really in it.
"""

from core.validation.evidence import quote_in_paragraph, validate, validate_raw

__all__ = ["quote_in_paragraph", "validate", "validate_raw"]
