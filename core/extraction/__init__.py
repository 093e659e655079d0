"""Extractors turn a SourceDocument into memory units. All share `Extractor` (see base.py)."""
