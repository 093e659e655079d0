"""Search: find any paragraph or memory unit, in English and Chinese (service, ranking, snippets, terms)."""
