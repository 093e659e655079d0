"""Versioned extraction prompts (package data; one file per version, never edited in place)."""
