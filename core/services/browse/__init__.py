"""Browse: every unit and card in one table, actions on a selection or a whole filter, card
info, the trash and the schedule tools (issue 17)."""
