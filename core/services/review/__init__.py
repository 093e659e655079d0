"""Review: today's session, answers, undo, card and unit actions, parameter fitting."""
