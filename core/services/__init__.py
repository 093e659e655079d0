"""Use cases. The CLI and the TUI call these and receive domain dataclasses."""
