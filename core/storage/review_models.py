"""Cards, review logs and the undo journal (owned by the scheduler/review work)."""

from __future__ import annotations
