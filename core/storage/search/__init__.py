"""The full-text search index: kept in step with the library (index) and read by queries (query)."""
