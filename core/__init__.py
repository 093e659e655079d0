"""MemoryRush core: domain, ingestion, extraction, validation, storage and services (no UI)."""
