"""Cards, review logs and the undo journal: tables, session reads, one-transaction writes, stats queries."""
