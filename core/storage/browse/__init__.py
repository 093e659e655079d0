"""Browse's storage: the row query (filters, sort, keyset pages), bulk writes with their undo
journal, the trash."""
